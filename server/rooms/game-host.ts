import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import {
  applyAction,
  audioAccess,
  canView,
  createGame,
  djClip,
  remainingDeck,
  ruleError,
  seatKeyOf,
  viewGame,
  type Action,
  type DjClip,
  type Game,
  type GameEvent,
  type GamePayload,
  type RuleError,
} from '../../shared/rules/index.ts';
import { processedFiles } from '../services/audio/pipeline.ts';
import { lookAlikeKey } from '../services/look-alike.ts';
import type { ActOutcome, CreateGameOptions, GameHostDeps, GameMetadata, HostOutbox } from './host-ports.ts';
import { fromCatalogue } from './catalogue-actions.ts';
import { fileDecidedDisputes } from './dispute-filing.ts';
import { LobbyListing, listAudience } from './listing.ts';
import { SeatConnections } from './seat-connections.ts';
import { later, type Timer } from './timer.ts';

/**
 * One game, without any transport: actions run one at a time through the engine
 * (`applyAction`), each accepted one is stored before anybody hears of it, then
 * its events go to the host's outbox (the connected sockets) and to the event
 * bus (the SSE streams, the lobby), and the phase timer is armed. It also keeps
 * who is connected (a seat turns absent when its last connection is gone for
 * longer than the reconnection window), removes a game nobody plays any more,
 * and makes sure the drawn hit's audio is there.
 *
 * Given its storage and publisher, it runs anywhere: the Colyseus room
 * (game-room.ts) is one outbox, a test's recorder another.
 */

const SYSTEM_ACTIONS = new Set(['timeout', 'presence', 'replace_hit', 'rename']);

/** Storage failed: the action is not applied, so nothing is lost on a crash either. */
const NOT_STORED: RuleError = { code: 'unavailable', status: 409, message: 'the action could not be saved, try again' };
/** Storing a new game failed: it does not exist. */
const NOT_CREATED = { code: 'unavailable', status: 503, message: 'the game could not be created, try again' };

/** A Local game's seat key (docs/rules.md#local): 144 bits from the CSPRNG, base64url (24 characters). */
export const newSeatKey = (): string => randomBytes(18).toString('base64url');

/** After this many logged actions the host writes a fresh snapshot instead, so a restore never replays a long log. */
const MAX_LOGGED = 500;

export class GameHost {
  readonly id: string;
  private current: Game;
  private lastSeq: number;
  private readonly deps: GameHostDeps;
  private readonly outbox: HostOutbox;
  private queue: Promise<unknown> = Promise.resolve();
  private phaseTimer: Timer | undefined;
  /** The deadline (epoch ms) `phaseTimer` was armed for. */
  private timerAt: number | undefined;
  private readonly connections = new SeatConnections((userId) => this.goneFor(userId));
  /** The public view last handed out: the next one reuses its unchanged player payloads. */
  private shown: GamePayload | null = null;
  private readonly listing: LobbyListing;
  /**
   * Whether an SSE stream (on any process) has started from this game: only then
   * do its events go onto the bus, where each publish is a Redis round trip with
   * several processes. Set before the stream's snapshot takes its seq, so the
   * stream misses nothing after it. A restored game starts with it set: streams
   * on other processes outlived the restart and follow on.
   */
  private streamed: boolean;
  /** The draw whose audio was last checked (A8). */
  private checkedDraw = 0;
  /** Actions stored since the game's last snapshot. */
  private logged = 0;
  /** When the last action was accepted (ms): idle games are removed. */
  private lastActionAt: number;
  /** When the shared tick next checks whether the game is idle (ms), and how often. */
  private idleCheckAt = 0;
  private readonly idleEvery: number;
  /** Set while the process shuts down: leaving sockets then say nothing about the players. */
  private shuttingDown = false;
  /** Brought back after a restart. */
  private readonly restored: boolean;

  /**
   * Makes the game `options` describe (or brings a stored one back) and stores
   * it before anybody can see it: a game the lobby lists survives a restart.
   * `start()` then announces it.
   */
  static async open(
    options: CreateGameOptions,
    deps: GameHostDeps,
    outbox: HostOutbox,
  ): Promise<{ ok: true; host: GameHost } | { ok: false; error: { status: number; message: string } }> {
    let game: Game;
    if (options.restore) {
      game = options.restore.game;
      // a Local game stored before phones could play its seats gets its key now (stored just below)
      if (game.mode === 'Local' && !game.seat_key) game = { ...game, seat_key: newSeatKey() };
    } else {
      const created = createGame({
        id: options.gameId,
        mode: options.mode,
        creator: options.creator,
        seed: options.seed,
        packIds: options.packIds,
        settings: options.settings,
        seatKey: newSeatKey(),
      });
      if (!created.ok) return created;
      game = created.game;
    }
    const seq = options.restore?.seq ?? 0;
    try {
      await deps.store.snapshot(game, seq, Date.now());
    } catch (err) {
      deps.log.error({ err, game: options.gameId }, 'storing a new game failed');
      return { ok: false, error: NOT_CREATED };
    }
    return { ok: true, host: new GameHost(options.gameId, game, seq, deps, outbox, options.restore?.updatedAt) };
  }

  private constructor(id: string, game: Game, seq: number, deps: GameHostDeps, outbox: HostOutbox, restoredAt: number | undefined) {
    this.id = id;
    this.current = game;
    this.lastSeq = seq;
    this.deps = deps;
    this.outbox = outbox;
    this.restored = restoredAt !== undefined;
    this.streamed = this.restored;
    this.lastActionAt = restoredAt ?? Date.now();
    this.idleEvery = Math.min(60_000, (deps.config.OPEN_GAME_IDLE_MINUTES * 60_000) / 4);
    this.listing = new LobbyListing(id, deps.publisher, game);
  }

  /** The engine's game as it is now. */
  get game(): Game {
    return this.current;
  }

  /** The seq of the game's last event. */
  get seq(): number {
    return this.lastSeq;
  }

  /**
   * Announces the game (a Public one to everybody) and, for a restored game,
   * arms its timers again: nobody is connected after a restart, so every seat
   * gets the reconnection window to come back.
   */
  start(): void {
    if (this.current.mode === 'Public') {
      void this.deps.publisher.publishGlobal({ event: 'create_game', data: this.view() as GamePayload });
    }
    this.listing.publish(this.current, null);
    if (this.restored) {
      for (const p of this.current.players) if (!p.virtual && p.connected) this.connections.absentLater(p.id, this.deps.config.RECONNECT_SECONDS * 1000);
      this.checkedDraw = this.current.draws;
      this.armTimer();
    }
  }

  // -------------------------------------------------------------------------
  // the one entry point for players' actions

  /**
   * Applies `action` for `userId` (a REST request or a room message).
   * Actions of one game run one at a time, in arrival order.
   */
  act(userId: string, action: Record<string, unknown>): Promise<ActOutcome> {
    if (SYSTEM_ACTIONS.has(String(action.type))) {
      return Promise.resolve({ ok: false, error: { code: 'bad_action', status: 400, message: 'malformed action: not a player action' } });
    }
    return this.enqueue({ ...action, by: userId } as Action);
  }

  /**
   * The game as `viewer` sees it with the current sequence number, or null if
   * hidden from him. `stream`: an SSE stream starts from it, so the game's events
   * are published from now on.
   */
  snapshot(viewer: string | null, stream = false, key: string | null = null): { seq: number; game: GamePayload } | null {
    const game = viewGame(this.current, viewer, null, key);
    if (!game) return null;
    if (stream) this.streamed = true;
    return { seq: this.lastSeq, game };
  }

  /** Whether `viewer` (or whoever presents `key`, a Local game's seat key) may see the game, and so connect to it. */
  canView(viewer: string | null, key: string | null = null): boolean {
    return canView(this.current, viewer, key);
  }

  /** The seat key of a Local game, for its creator's device alone. */
  seatKey(viewer: string | null): { ok: true; key: string } | { ok: false; error: RuleError } {
    return seatKeyOf(this.current, viewer);
  }

  /** Logout or account deletion: the user leaves his seat, and the seat his phone played goes back to the creator's device. */
  async dropUser(userId: string): Promise<void> {
    if (this.seated(userId)) await this.enqueue({ type: 'leave', by: userId });
    const played = this.current.players.find((p) => p.virtual && p.controller === userId);
    if (played) await this.enqueue({ type: 'release', by: userId, player: played.id });
  }

  /**
   * A user renamed himself (a guest, `PATCH /api/users/me`): his seat here, if
   * he has one, takes the new name, whatever the phase (the same person, now
   * called as he asked).
   */
  async renameUser(userId: string, name: string): Promise<void> {
    if (this.seated(userId)) await this.enqueue({ type: 'rename', player: userId, name });
  }

  /** What `viewer` may hear of this game right now (docs/rules.md#a12), without the hit's details. */
  audio(viewer: string | null, hitId?: string | null): { ok: true; hitId: string; hidden: boolean; seconds: number; draws: number } | { ok: false; error: RuleError } {
    // remote calls carry arguments as JSON, where an absent id arrives as null
    const r = audioAccess(this.current, viewer, hitId ?? undefined);
    if (!r.ok) return r;
    return { ok: true, hitId: r.target.hit.id, hidden: r.target.hidden, seconds: r.target.seconds, draws: this.current.draws };
  }

  /** What `viewer` may play as the game's DJ right now (views.ts djClip): the DJ alone gets the video. */
  dj(viewer: string | null): { ok: true; clip: DjClip } | { ok: false; error: RuleError } {
    return djClip(this.current, viewer);
  }

  // -------------------------------------------------------------------------
  // connections

  /** A connection of `userId` opened: his seat is there again. */
  connect(userId: string): void {
    this.connections.open(userId);
    const seat = this.current.players.find((p) => p.id === userId && !p.virtual);
    if (seat && !seat.connected) void this.enqueue({ type: 'presence', player: userId, connected: true });
  }

  /**
   * A connection of `userId` closed. His last one closing makes his seat absent:
   * after the reconnection window when he closed it himself (a closed tab; a
   * dropped socket already had its window), at once otherwise.
   */
  disconnect(userId: string, consented: boolean): void {
    if (this.shuttingDown) return;
    this.connections.close(userId, consented ? this.deps.config.RECONNECT_SECONDS * 1000 : 0);
  }

  /** `userId` has had no connection for his grace: his seat turns absent. */
  private goneFor(userId: string): void {
    if (this.current.players.some((p) => p.id === userId && !p.virtual && p.connected)) {
      void this.enqueue({ type: 'presence', player: userId, connected: false });
    }
  }

  /**
   * Graceful shutdown: the game stays stored as it is; the connections closing
   * now are the server's doing, not the players', so no seat turns absent.
   */
  shutdown(): void {
    this.shuttingDown = true;
    this.stopTimers();
    this.idleCheckAt = Infinity;
  }

  /** The host is done with (its room is gone): a game that ends takes its clips along; one stored over a restart keeps its turn's. */
  dispose(): void {
    this.stopTimers();
    if (!this.shuttingDown && this.current.settings.clue_mode === 'audio') {
      void this.deps
        .clips()
        .release(this.id)
        .catch((err: unknown) => this.deps.log.warn({ err, game: this.id }, 'removing the clips of a game failed'));
    }
  }

  private stopTimers(): void {
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    this.connections.stop();
  }

  // -------------------------------------------------------------------------
  // running actions

  private enqueue(action: Action): Promise<ActOutcome> {
    return this.serial(() => this.run(action));
  }

  /** Runs `task` after everything queued before it: actions, and the removal of an idle game, one at a time. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(action: Action): Promise<ActOutcome> {
    try {
      await fromCatalogue(action, this.current, this.deps.catalogue);
      // a player acting over REST is evidently there, even without a socket
      if ('by' in action) {
        const seat = this.current.players.find((p) => p.id === action.by && !p.virtual);
        if (seat && !seat.connected && action.type !== 'leave') await this.run({ type: 'presence', player: seat.id, connected: true });
      }
      const now = Date.now();
      const result = applyAction(this.current, action, { now });
      if (!result.ok) return result;
      if ((action.type === 'join_local' || (action.type === 'control' && action.name !== undefined)) && this.looksSeated(action.name ?? '')) return { ok: false, error: ruleError('name_look_alike') };
      // stored before anybody hears of it: what a player saw accepted survives a crash
      if (!(await this.store(action, result, now))) return { ok: false, error: NOT_STORED };
      // who listed the game before this action: they must hear of its removal
      const listedFor = listAudience(this.current);
      fileDecidedDisputes(this.deps, this.id, this.current, result.events);
      this.current = result.game;
      this.afterChange(result.events, result.deleted, listedFor);
      return { ok: true };
    } catch (err) {
      // a bug: log it with the ids and keep this game (and every other) alive
      this.deps.log.error({ err, game: this.id, action: action.type, by: 'by' in action ? action.by : undefined }, 'action failed');
      return { ok: false, error: { code: 'internal', status: 409, message: 'the action could not be applied' } as RuleError };
    }
  }

  /**
   * Whether a seated player's name (an account's, a guest's pet name, another
   * Local player's) looks like `name`: "асе" in Cyrillic beside "ace". Checked
   * here, for new joins, not by the engine: a game stored before the rule, with
   * two such names, still replays.
   */
  private looksSeated(name: string): boolean {
    const key = lookAlikeKey(name);
    return this.current.players.some((p) => lookAlikeKey(p.name) === key);
  }

  /**
   * Persists an accepted action: a snapshot after a long log, the removal of a
   * deleted game, otherwise one log entry (a start's hits are stored once for all
   * games that started from them). False when the database refused: the caller
   * drops the action.
   */
  private async store(action: Action, result: { game: Game; events: unknown[]; deleted: boolean }, now: number): Promise<boolean> {
    const { store, log } = this.deps;
    const seq = this.lastSeq + result.events.length;
    try {
      if (result.deleted) {
        await store.remove(this.id);
      } else if (this.logged >= MAX_LOGGED) {
        await store.snapshot(result.game, seq, now);
        this.logged = 0;
      } else {
        await store.append(this.id, this.logged + 1, seq, action, now);
        this.logged++;
      }
      this.lastActionAt = now;
      return true;
    } catch (err) {
      log.error({ err, game: this.id, action: action.type }, 'storing an action failed; it was not applied');
      return false;
    }
  }

  private afterChange(events: GameEvent[], deleted: boolean, listedFor: string[] | null): void {
    const first = this.lastSeq + 1;
    this.lastSeq += events.length;
    // the sockets first: the patch and the events leave in one write per client (P1)
    this.outbox.changed(this.view(), this.lastSeq, events, deleted);
    if (this.streamed) {
      const { publisher } = this.deps;
      for (let i = 0; i < events.length; i++) {
        const e = events[i] as GameEvent;
        void publisher.publishGame({ game: this.id, seq: first + i, event: e.event, data: e.data, final: deleted && i === events.length - 1 });
      }
    }
    this.armTimer();
    if (this.current.draws !== this.checkedDraw) void this.checkAudio();
    if (deleted) {
      void this.removeGame(listedFor);
      return;
    }
    const meta = this.listing.changedMetadata(this.current);
    if (meta) this.outbox.metadataChanged(meta);
    this.listing.publish(this.current, listedFor);
  }

  private async removeGame(audience: string[] | null): Promise<void> {
    await this.deps.publisher.publishGlobal({ event: 'remove_game', data: this.id, audience });
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    await this.outbox.gone();
  }

  // -------------------------------------------------------------------------
  // timers and checks

  private armTimer(): void {
    const deadline = this.current.deadline;
    // most actions leave the phase's deadline as it was: its timer stays
    if (this.phaseTimer && deadline?.at === this.timerAt) return;
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    this.timerAt = deadline?.at;
    if (!deadline) return;
    // Node's timer clock and Date.now() may disagree by a millisecond, so a timer can
    // fire just before the deadline; the engine refuses an early timeout and nothing
    // would retry it (a frozen game): an early timer waits out the rest.
    const fire = (): void => {
      const left = deadline.at - Date.now();
      if (left > 0) {
        this.phaseTimer = later(fire, left);
        return;
      }
      this.phaseTimer = undefined;
      void this.enqueue({ type: 'timeout' });
    };
    this.phaseTimer = later(fire, Math.max(0, deadline.at - Date.now()));
  }

  /** The deadline (epoch ms) the phase timer is armed for; undefined when none is. */
  get timerDeadline(): number | undefined {
    return this.phaseTimer ? this.timerAt : undefined;
  }

  /**
   * Removes a game nobody plays any more: no accepted action for GAME_IDLE_HOURS,
   * or Open with no connection and no accepted action (a player going away
   * counts as one) for OPEN_GAME_IDLE_MINUTES. Called often (every room's clock
   * tick); it looks at the game every `idleEvery` ms at most.
   */
  checkIdle(): void {
    const now = Date.now();
    if (now < this.idleCheckAt) return;
    this.idleCheckAt = now + this.idleEvery;
    const { config } = this.deps;
    const idle = now - this.lastActionAt;
    // Open, nobody has it open over a socket, and nothing happened: seats that only ever
    // acted over REST count as there, so their presence alone cannot keep a game forever
    const abandoned = this.current.state === 'Open' && this.connections.size === 0 && idle >= config.OPEN_GAME_IDLE_MINUTES * 60_000;
    if (!abandoned && idle < config.GAME_IDLE_HOURS * 3_600_000) return;
    this.idleCheckAt = Infinity;
    void this.serial(async () => {
      const { store, log } = this.deps;
      log.info({ game: this.id, idle_minutes: Math.round(idle / 60_000) }, 'removing an idle game');
      const audience = listAudience(this.current);
      await store.remove(this.id).catch((err: unknown) => log.error({ err, game: this.id }, 'removing an idle game from storage failed'));
      await this.removeGame(audience);
    });
  }

  /**
   * A8: a newly drawn card whose audio is missing (files deleted or re-processing
   * since the deck was built) is replaced by the next card, at no cost to anyone.
   * Otherwise its hidden clip is made sure of, and the next card's is cut ahead.
   * While the table votes on a year nothing may replace the card (docs/rules.md#disputes): it is checked once the vote is decided.
   */
  private async checkAudio(): Promise<void> {
    const draw = this.current.draws;
    if (this.current.dispute?.outcome === null) return;
    this.checkedDraw = draw;
    const card = this.current.current;
    if (card) this.deps.evidence.prefetch(card); // looked up while hidden, shown only after the reveal
    if (!card || this.current.settings.clue_mode !== 'audio' || this.current.state !== 'Guessing') return;
    const { config, log } = this.deps;
    const files = processedFiles(config.AUDIO_DIR, card.id);
    const present = await Promise.any([access(files.opus), access(files.mp3)]).then(() => true, () => false);
    if (this.current.draws !== draw) return;
    if (!present) {
      log.warn({ game: this.id, hit: card.id }, 'audio of the drawn hit is missing; drawing the next card');
      await this.enqueue({ type: 'replace_hit' });
      return;
    }
    // ready before the players' requests for it arrive (P11), and the next card's during this turn;
    // a failure is tried again by the first request
    const ahead = this.deps.clips().prepare({ game: this.id, draw }, card.id, this.current.settings.hit_duration, remainingDeck(this.current)[0]?.id);
    await ahead.catch((err: unknown) => log.warn({ err, game: this.id, draw }, 'cutting the hidden clip ahead failed'));
  }

  // -------------------------------------------------------------------------
  // what others see of the game

  /** The public view (the creator's, who may always view); null once a Local game lost its creator. */
  view(): GamePayload | null {
    const view = viewGame(this.current, this.current.players.find((p) => p.creator && !p.virtual)?.id ?? null, this.shown);
    if (view) this.shown = view;
    return view;
  }

  /** The lobby's matchmaking metadata of the game. */
  metadata(): GameMetadata {
    return this.listing.metadata;
  }

  private seated(userId: string): boolean {
    return this.current.players.some((p) => p.id === userId && !p.virtual);
  }
}
