import { access } from 'node:fs/promises';
import { CloseCode, Room, ServerError, type AuthContext, type Client, type ClientPrivate } from '@colyseus/core';
import { parseCookie } from 'cookie';
import { FLOODING_CLOSE_CODE, parseRoomMessage, ROOM_MESSAGES, roomEvent, type RoomMessage } from '../../shared/protocol/index.ts';
import {
  applyAction,
  autoClueMode,
  audioAccess,
  canView,
  createGame,
  djClip,
  remainingDeck,
  summarizeGame,
  viewGame,
  type Action,
  type Game,
  type GameEvent,
  type GameMode,
  type GamePayload,
  type NewGame,
  type GameSummary,
  type DjClip,
  type RuleError,
  ruleError,
} from '../../shared/rules/index.ts';
import { clipCache } from '../http/audio-clips.ts';
import { ffmpegPath } from '../services/audio/ffmpeg.ts';
import { processedFiles } from '../services/audio/pipeline.ts';
import { lookAlikeKey } from '../services/look-alike.ts';
import { roomServices } from './services.ts';
import { GameState, StateMirror } from './schema.ts';
import { sendTogether } from '../transport.ts';

/**
 * One game = one room (room id = game id). The room is a thin adapter: it keeps
 * the engine's Game, runs every action through `applyAction` (REST calls arrive
 * through `matchMaker.remoteRoomCall(id, 'act', …)`, WebSocket clients as room
 * messages; both use `act`), mirrors the public view into the schema state, sends
 * the patch at once, publishes the events and arms the phase timer.
 */

/** The room type of games (matchmaking name). */
export const ROOM_NAME = 'game';

export interface CreateGameOptions {
  gameId: string;
  mode: GameMode;
  creator: { id: string; name: string };
  seed: NewGame['seed'];
  packIds: string[];
  settings?: unknown;
  /** A game brought back after a restart (its stored state, event seq and time of its last action) instead of a new one. */
  restore?: { game: Game; seq: number; updatedAt: number };
}

/**
 * Matchmaking metadata: what the lobby needs to filter games without asking each
 * room. Nothing that changes within a turn: each change is a Redis write with
 * several processes.
 */
export interface GameMetadata {
  mode: GameMode;
  players: number;
  /** Ids of the real (non-virtual) players. */
  members: string[];
  creator: string;
}

export type ActOutcome = { ok: true } | { ok: false; error: RuleError };

interface ClientAuth {
  user: { id: string; name: string } | null;
}

type GameClient = Client<{ auth: ClientAuth }>;

const SYSTEM_ACTIONS = new Set(['timeout', 'presence', 'replace_hit', 'rename']);

/** Storage failed: the action is not applied, so nothing is lost on a crash either. */
const NOT_STORED: RuleError = { code: 'unavailable', status: 409, message: 'the action could not be saved, try again' };

/**
 * Interval of the rooms' Colyseus clocks, ms. Colyseus ticks a room's clock 60
 * times a second unless the room has a simulation interval. The game's own timers
 * are Node's; the clock only serves Colyseus' message rate limit
 * (maxMessagesPerSecond reads its time, and a frozen clock would count every
 * message toward one endless second), for which a tick a second is enough.
 */
const CLOCK_TICK_MS = 1000;

/**
 * What the one process-wide timer does each CLOCK_TICK_MS for each room, all in
 * one turn of the event loop (budget P12: parked games must not matter). With two
 * timers per room (its clock ticking every second, its idle check), 2,050 parked
 * games woke an idle server up to about 2,000 times a second: 3.3 % of a core
 * against 1.7 % with the shared timer (`npm run bench -- idle`, its meter
 * sampling every 10 ms).
 */
const ticking = new Map<Room, () => void>();
let ticker: ReturnType<typeof setInterval> | undefined;
/** The time of the shared timer's last tick (Date.now() ms), every room's clock time since. */
let tickedAt = 0;

/** Ticks `room` with the shared timer from now on: its clock, then `also`. */
function startTicking(room: Room, also: () => void): void {
  // a simulation interval keeps Colyseus from starting its 60 Hz one when the
  // patch rate is null; cleared at once, it leaves no timer of the room's own
  room.setSimulationInterval(() => undefined, CLOCK_TICK_MS);
  room.setSimulationInterval();
  ticking.set(room, also);
  if (!ticker) {
    tickedAt = Date.now();
    ticker = setInterval(tickRooms, CLOCK_TICK_MS);
  }
  // The rate limit counts a client's messages from the clock time of his first until
  // a tick a second later or more: a clock that started between two ticks would count
  // up to two seconds as one, so the room's clock starts at the last tick
  room.clock.currentTime = tickedAt;
}

function tickRooms(): void {
  // at least a second after the last tick: Date.now() and the timer's clock may
  // disagree by a millisecond, and 999 ms would make the rate limit's second last two
  tickedAt = Math.max(Date.now(), tickedAt + CLOCK_TICK_MS);
  for (const [room, also] of ticking) {
    try {
      room.clock.tick();
      room.clock.currentTime = tickedAt;
      also();
    } catch (err) {
      // one room's failure must not stop the others' clocks
      roomServices().log.error({ err, game: room.roomId }, 'room tick failed');
    }
  }
}

function stopTicking(room: Room): void {
  ticking.delete(room);
  if (ticking.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** A pending timer of the room. */
interface Timer {
  clear(): void;
}

/** Node's setTimeout as a Timer. */
const later = (fn: () => void, ms: number): Timer => {
  const t = setTimeout(fn, ms);
  return { clear: () => clearTimeout(t) };
};

/** After this many logged actions the room writes a fresh snapshot instead, so a restore never replays a long log. */
const MAX_LOGGED = 500;

export class GameRoom extends Room<{ state: GameState; metadata: GameMetadata; client: GameClient }> {
  override state = new GameState();
  private readonly mirror = new StateMirror(this.state);
  override autoDispose = false;
  /** Patches go out right after each action (turn-based: no need for a 50 ms tick). */
  override patchRate = null;
  override maxMessagesPerSecond = 30;

  game!: Game;
  seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private phaseTimer: Timer | undefined;
  /** The deadline (epoch ms) `phaseTimer` was armed for. */
  private timerAt: number | undefined;
  private readonly connections = new Map<string, number>();
  private readonly absentTimers = new Map<string, Timer>();
  private lastSummary: GameSummary | null = null;
  /**
   * Whether an SSE stream (on any process) has started from this game: only then
   * do its events go out on the presence, where each publish is a Redis round
   * trip with several processes. Set before the stream's snapshot takes its seq,
   * so the stream misses nothing after it. A restored room starts with it set:
   * streams on other processes outlived the restart and follow on.
   */
  private streamed = false;
  /** The draw whose audio was last checked (A8). */
  private checkedDraw = 0;
  /** Actions stored since the game's last snapshot. */
  private logged = 0;
  /** When the last action was accepted (ms): idle games are removed. */
  private lastActionAt = Date.now();
  /** When the shared tick next checks whether the game is idle (ms), and how often. */
  private idleCheckAt = 0;
  private idleEvery = 60_000;
  /** Set while the process shuts down: leaving sockets then say nothing about the players. */
  private shuttingDown = false;

  override async onCreate(options: CreateGameOptions): Promise<void> {
    if (options.restore) {
      this.streamed = true;
      this.game = options.restore.game;
      this.seq = options.restore.seq;
      this.lastActionAt = options.restore.updatedAt;
    } else {
      const created = createGame({
        id: options.gameId,
        mode: options.mode,
        creator: options.creator,
        seed: options.seed,
        packIds: options.packIds,
        settings: options.settings,
      });
      if (!created.ok) throw new ServerError(created.error.status, created.error.message);
      this.game = created.game;
    }
    this.roomId = options.gameId;
    // stored before anybody can see it: a game the lobby lists survives a restart
    try {
      await roomServices().games.snapshot(this.game, this.seq, Date.now());
    } catch (err) {
      roomServices().log.error({ err, game: options.gameId }, 'storing a new game failed');
      throw new ServerError(503, 'the game could not be created, try again');
    }
    startTicking(this, () => this.checkIdle());
    this.patchRate = null; // drops the 60 Hz clock interval that the null patch rate started
    this.metadata = this.meta();
    this.mirror.sync(this.view() as GamePayload, this.seq);
    for (const type of Object.keys(ROOM_MESSAGES)) {
      this.onMessage(type, (client: GameClient, payload: unknown) => {
        void this.onRoomMessage(client, type, payload);
      });
    }
    this.onMessage('*', (client: GameClient, type: string | number) => {
      client.send('error', { type: 'error', code: 'invalid_input', message: `unknown message type ${JSON.stringify(String(type))}` });
    });
    if (this.game.mode === 'Public') {
      void roomServices().hub.publishGlobal({ event: 'create_game', data: this.view() as GamePayload });
    }
    this.publishSummary();
    const { config } = roomServices();
    this.idleEvery = Math.min(60_000, (config.OPEN_GAME_IDLE_MINUTES * 60_000) / 4);
    if (options.restore) {
      // nobody is connected after a restart: every seat gets the reconnection window to come back
      for (const p of this.game.players) if (!p.virtual && p.connected) this.absentLater(p.id, config.RECONNECT_SECONDS * 1000);
      this.checkedDraw = this.game.draws;
      this.armTimer();
    }
  }

  /** Anyone who may view the game may connect (spectators too); only players may act. */
  override async onAuth(_client: GameClient, _options: unknown, context: AuthContext): Promise<ClientAuth> {
    const cookies = parseCookie(context.headers.get('cookie') ?? '');
    const token = cookies.id ?? context.token;
    const user = token ? await roomServices().users.userForToken(token) : undefined;
    const viewer = user ? { id: user.id, name: user.name } : null;
    if (!canView(this.game, viewer?.id ?? null)) throw new ServerError(404, 'game id not found');
    return { user: viewer };
  }

  override onJoin(client: GameClient): void {
    const user = client.auth?.user;
    if (!user) return;
    this.connections.set(user.id, (this.connections.get(user.id) ?? 0) + 1);
    this.absentTimers.get(user.id)?.clear();
    this.absentTimers.delete(user.id);
    const seat = this.game.players.find((p) => p.id === user.id && !p.virtual);
    if (seat && !seat.connected) void this.enqueue({ type: 'presence', player: user.id, connected: true });
  }

  override async onDrop(client: GameClient): Promise<void> {
    // Colyseus drops a client that sent more than maxMessagesPerSecond in one second of the
    // room's clock, but keeps its socket open, ignored, through the reconnection window: closed
    // now instead, with a code that tells the client not to reconnect by itself, and no window
    // (onLeave follows at once, and the seat turns absent unless another tab has it)
    if (((client as GameClient & ClientPrivate)._numMessagesLastSecond ?? 0) > this.maxMessagesPerSecond) {
      roomServices().log.warn({ game: this.roomId, user: client.auth?.user?.id }, 'closed a socket that sent too many messages');
      client.leave(FLOODING_CLOSE_CODE, 'too many messages');
      return;
    }
    try {
      await this.allowReconnection(client, roomServices().config.RECONNECT_SECONDS);
    } catch {
      // the window passed; onLeave follows
    }
  }

  /**
   * Graceful shutdown: the game stays stored as it is; the sockets closing now are
   * the server's doing, not the players', so no seat turns absent.
   */
  override onBeforeShutdown(): void {
    this.shuttingDown = true;
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    this.idleCheckAt = Infinity;
    for (const t of this.absentTimers.values()) t.clear();
    super.onBeforeShutdown();
  }

  override onLeave(client: GameClient, code?: number): void {
    const user = client.auth?.user;
    if (!user || this.shuttingDown) return;
    const left = (this.connections.get(user.id) ?? 1) - 1;
    if (left > 0) {
      this.connections.set(user.id, left);
      return;
    }
    this.connections.delete(user.id);
    // a dropped socket already had its reconnection window; a closed tab gets one now
    this.absentLater(user.id, code === CloseCode.CONSENTED ? roomServices().config.RECONNECT_SECONDS * 1000 : 0);
  }

  /** Marks `userId`'s seat absent after `graceMs` unless one of his connections is back by then. */
  private absentLater(userId: string, graceMs: number): void {
    const due = Date.now() + graceMs;
    const markAbsent = () => {
      // Date.now() and the timer's clock may disagree by a millisecond: wait out the rest
      if (Date.now() < due) {
        this.absentTimers.set(userId, later(markAbsent, due - Date.now()));
        return;
      }
      this.absentTimers.delete(userId);
      if (this.connections.has(userId)) return;
      if (this.game.players.some((p) => p.id === userId && !p.virtual && p.connected)) {
        void this.enqueue({ type: 'presence', player: userId, connected: false });
      }
    };
    if (graceMs === 0) markAbsent();
    else this.absentTimers.set(userId, later(markAbsent, graceMs));
  }

  override onDispose(): void {
    stopTicking(this);
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    for (const t of this.absentTimers.values()) t.clear();
    // a game that ends takes its clips along; one that is stored over a restart keeps its turn's
    if (!this.shuttingDown && this.game?.settings.clue_mode === 'audio') {
      void this.clips()
        .release(this.roomId)
        .catch((err: unknown) => roomServices().log.warn({ err, game: this.roomId }, 'removing the clips of a game failed'));
    }
  }

  // -------------------------------------------------------------------------
  // the one entry point for actions

  /**
   * Applies `action` for `userId` (REST via remoteRoomCall, or a room message).
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
  snapshot(viewer: string | null, stream = false): { seq: number; game: GamePayload } | null {
    const game = viewGame(this.game, viewer);
    if (!game) return null;
    if (stream) this.streamed = true;
    return { seq: this.seq, game };
  }

  /**
   * Logout or account deletion: the user leaves his seat and his sockets are
   * closed, so an open tab cannot act for a session that no longer exists.
   */
  async dropUser(userId: string): Promise<void> {
    if (this.game.players.some((p) => p.id === userId && !p.virtual)) await this.enqueue({ type: 'leave', by: userId });
    for (const client of this.clients) {
      if (client.auth?.user?.id === userId) client.leave(CloseCode.CONSENTED);
    }
  }

  /**
   * A user renamed himself (a guest, `PATCH /api/users/me`): his seat here, if
   * he has one, takes the new name, whatever the phase (the same person, now
   * called as he asked).
   */
  async renameUser(userId: string, name: string): Promise<void> {
    if (this.game.players.some((p) => p.id === userId && !p.virtual)) await this.enqueue({ type: 'rename', player: userId, name });
  }

  /** What `viewer` may hear of this game right now (docs/rules.md#a12), without the hit's details. */
  audio(viewer: string | null, hitId?: string | null): { ok: true; hitId: string; hidden: boolean; seconds: number; draws: number } | { ok: false; error: RuleError } {
    // remote calls carry arguments as JSON, where an absent id arrives as null
    const r = audioAccess(this.game, viewer, hitId ?? undefined);
    if (!r.ok) return r;
    return { ok: true, hitId: r.target.hit.id, hidden: r.target.hidden, seconds: r.target.seconds, draws: this.game.draws };
  }

  /** What `viewer` may play as the game's DJ right now (views.ts djClip): the DJ alone gets the video. */
  dj(viewer: string | null): { ok: true; clip: DjClip } | { ok: false; error: RuleError } {
    return djClip(this.game, viewer);
  }

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
    const { catalogue, log } = roomServices();
    try {
      if (action.type === 'start') {
        await this.dealFor(action);
      } else if (action.type === 'update') {
        action.pack_ids = await catalogue.packIds();
      }
      // a player acting over REST is evidently there, even without a socket
      if ('by' in action) {
        const seat = this.game.players.find((p) => p.id === action.by && !p.virtual);
        if (seat && !seat.connected && this.mayWait(action)) await this.run({ type: 'presence', player: seat.id, connected: true });
      }
      const now = Date.now();
      const result = applyAction(this.game, action, { now });
      if (!result.ok) return result;
      if (action.type === 'join_local' && this.looksSeated(action.name)) return { ok: false, error: ruleError('name_look_alike') };
      // stored before anybody hears of it: what a player saw accepted survives a crash
      if (!(await this.store(action, result, now))) return { ok: false, error: NOT_STORED };
      // who listed the game before this action: they must hear of its removal
      const listedFor = this.listAudience();
      this.game = result.game;
      this.afterChange(result.events, result.deleted, listedFor);
      return { ok: true };
    } catch (err) {
      // a bug: log it with the ids and keep this game (and every other) alive
      log.error({ err, game: this.roomId, action: action.type, by: 'by' in action ? action.by : undefined }, 'action failed');
      return { ok: false, error: { code: 'internal', status: 409, message: 'the action could not be applied' } as RuleError };
    }
  }

  /**
   * Fills a start with the hits it deals from. A game with `clue_mode_auto` gets
   * its clue mode decided here, from the chosen packs as they are now: audio when
   * enough of their hits have audio for this table (autoClueMode), else cards (a
   * DJ only when the creator chose one); the decision travels in the action (and
   * its log entry), so a replay needs no catalogue.
   */
  private async dealFor(action: Extract<Action, { type: 'start' }>): Promise<void> {
    const { catalogue } = roomServices();
    const { packs, clue_mode, clue_mode_auto, goal } = this.game.settings;
    delete action.clue_mode;
    if (!clue_mode_auto) {
      action.hits = await catalogue.playableHits(packs, clue_mode);
      return;
    }
    const withAudio = await catalogue.playableHits(packs, 'audio');
    const mode = autoClueMode(withAudio.length, this.game.players.length, goal);
    action.clue_mode = mode;
    action.hits = mode === 'audio' ? withAudio : await catalogue.playableHits(packs, 'card');
  }

  /**
   * Whether a seated player's name (an account's, a guest's pet name, another
   * Local player's) looks like `name`: "асе" in Cyrillic beside "ace". Checked
   * here, for new joins, not by the engine: a game stored before the rule, with
   * two such names, still replays.
   */
  private looksSeated(name: string): boolean {
    const key = lookAlikeKey(name);
    return this.game.players.some((p) => lookAlikeKey(p.name) === key);
  }

  /**
   * Persists an accepted action: a snapshot after a long log, the removal of a
   * deleted game, otherwise one log entry (a start's hits are stored once for all
   * games that started from them). False when the database refused: the caller
   * drops the action.
   */
  private async store(action: Action, result: { game: Game; events: unknown[]; deleted: boolean }, now: number): Promise<boolean> {
    const { games, log } = roomServices();
    const seq = this.seq + result.events.length;
    try {
      if (result.deleted) {
        await games.remove(this.roomId);
      } else if (this.logged >= MAX_LOGGED) {
        await games.snapshot(result.game, seq, now);
        this.logged = 0;
      } else {
        await games.append(this.roomId, this.logged + 1, seq, action, now);
        this.logged++;
      }
      this.lastActionAt = now;
      return true;
    } catch (err) {
      log.error({ err, game: this.roomId, action: action.type }, 'storing an action failed; it was not applied');
      return false;
    }
  }

  /**
   * Removes a game nobody plays any more: no accepted action for GAME_IDLE_HOURS,
   * or Open with no socket connected and no accepted action (a player going
   * away counts as one) for OPEN_GAME_IDLE_MINUTES.
   */
  private checkIdle(): void {
    const now = Date.now();
    if (now < this.idleCheckAt) return;
    this.idleCheckAt = now + this.idleEvery;
    const { config } = roomServices();
    const idle = now - this.lastActionAt;
    // Open, nobody has it open over a socket, and nothing happened: seats that only ever
    // acted over REST count as there, so their presence alone cannot keep a game forever
    const abandoned = this.game.state === 'Open' && this.connections.size === 0 && idle >= config.OPEN_GAME_IDLE_MINUTES * 60_000;
    if (!abandoned && idle < config.GAME_IDLE_HOURS * 3_600_000) return;
    this.idleCheckAt = Infinity;
    void this.serial(async () => {
      const { games, log } = roomServices();
      log.info({ game: this.roomId, idle_minutes: Math.round(idle / 60_000) }, 'removing an idle game');
      const audience = this.listAudience();
      await games.remove(this.roomId).catch((err: unknown) => log.error({ err, game: this.roomId }, 'removing an idle game from storage failed'));
      await this.removeGame(audience);
    });
  }

  /**
   * A8: a newly drawn card whose audio is missing (files deleted or re-processing
   * since the deck was built) is replaced by the next card, at no cost to anyone.
   * Otherwise its hidden clip is made sure of, and the next card's is cut ahead.
   */
  private async checkAudio(): Promise<void> {
    const draw = this.game.draws;
    this.checkedDraw = draw;
    const card = this.game.current;
    if (!card || this.game.settings.clue_mode !== 'audio' || this.game.state !== 'Guessing') return;
    const files = processedFiles(roomServices().config.AUDIO_DIR, card.id);
    const present = await Promise.any([access(files.opus), access(files.mp3)]).then(
      () => true,
      () => false,
    );
    if (this.game.draws !== draw) return;
    if (!present) {
      roomServices().log.warn({ game: this.roomId, hit: card.id }, 'audio of the drawn hit is missing; drawing the next card');
      await this.enqueue({ type: 'replace_hit' });
      return;
    }
    // ready before the players' requests for it arrive (P11), and the next card's during this turn;
    // a failure is tried again by the first request
    await this.clips()
      .prepare({ game: this.roomId, draw }, card.id, this.game.settings.hit_duration, remainingDeck(this.game)[0]?.id)
      .catch((err: unknown) => roomServices().log.warn({ err, game: this.roomId, draw }, 'cutting the hidden clip ahead failed'));
  }

  /** The hidden clips of the audio folder (shared with the audio routes). */
  private clips() {
    const { config, log } = roomServices();
    return clipCache(config.AUDIO_DIR, ffmpegPath(config.FFMPEG_PATH), log);
  }

  /** Whether an action from an absent seat counts as him being back (anything but leaving). */
  private mayWait(action: Action): boolean {
    return action.type !== 'leave';
  }

  private afterChange(events: GameEvent[], deleted: boolean, listedFor: string[] | null): void {
    const { hub } = roomServices();
    const first = this.seq + 1;
    this.seq += events.length;
    // patch first, so a client reacting to an event already sees the new state;
    // a deleted Local game has no viewer left, its room only passes on the last events
    const view = this.view();
    if (view) this.mirror.sync(view, this.seq);
    else this.state.seq = this.seq;
    // the patch and the events leave in one socket write per client, not one per frame (P1)
    sendTogether(this.clients, () => {
      this.broadcastPatch();
      events.forEach((e, i) => {
        const final = deleted && i === events.length - 1;
        const envelope = { game: this.roomId, seq: first + i, event: e.event, data: e.data, final };
        if (this.streamed) void hub.publishGame(envelope);
        this.broadcast('event', roomEvent(envelope.seq, e, final));
      });
    });
    this.armTimer();
    if (this.game.draws !== this.checkedDraw) void this.checkAudio();
    if (deleted) {
      void this.removeGame(listedFor);
      return;
    }
    const meta = this.meta();
    if (!sameMetadata(meta, this.metadata)) void this.setMetadata(meta);
    this.publishSummary();
    // whoever no longer lists the game (left a Private game) takes it off his lobby
    const now = this.listAudience();
    const gone = listedFor && now ? listedFor.filter((id) => !now.includes(id)) : [];
    if (gone.length) void hub.publishGlobal({ event: 'remove_game', data: this.roomId, audience: gone });
  }

  private async removeGame(audience: string[] | null): Promise<void> {
    const { hub } = roomServices();
    await hub.publishGlobal({ event: 'remove_game', data: this.roomId, audience });
    this.phaseTimer?.clear();
    this.phaseTimer = undefined;
    await this.disconnect();
  }

  private armTimer(): void {
    const deadline = this.game.deadline;
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

  private async onRoomMessage(client: GameClient, type: string, payload: unknown): Promise<void> {
    const parsed = parseRoomMessage(type, payload);
    if (!parsed.ok) {
      client.send('error', parsed.error);
      return;
    }
    let user = client.auth?.user;
    if (user && parsed.data.type === 'join') {
      // a seat takes the name the user has now (he may have registered since he
      // connected), and an account deleted since then takes none
      const current = await roomServices().users.findUser(user.id);
      user = current ? { id: user.id, name: current.name } : undefined;
    }
    if (!user) {
      client.send('error', { type: 'error', code: 'unauthenticated', message: 'not authenticated' });
      return;
    }
    const outcome = await this.enqueue(messageToAction(user, parsed.data));
    if (!outcome.ok) client.send('error', { type: 'error', code: outcome.error.code, message: outcome.error.message });
  }

  /** The synchronized state: the public view (the creator's, who may always view); null once a Local game lost its creator. */
  private view(): GamePayload | null {
    return viewGame(this.game, this.game.players.find((p) => p.creator && !p.virtual)?.id ?? null, this.mirror.shown);
  }

  /** Who lists the game (docs/rules.md#create): everybody (null) for Public, the members for Private, the creator for Local. */
  private listAudience(): string[] | null {
    if (this.game.mode === 'Public') return null;
    if (this.game.mode === 'Private') return this.audience();
    return this.game.players.filter((p) => p.creator && !p.virtual).map((p) => p.id);
  }

  private audience(): string[] {
    return this.game.players.filter((p) => !p.virtual).map((p) => p.id);
  }

  private meta(): GameMetadata {
    return {
      mode: this.game.mode,
      players: this.game.players.length,
      members: this.audience(),
      creator: this.game.players.find((p) => p.creator)?.id ?? '',
    };
  }

  private publishSummary(): void {
    const summary = summarizeGame(this.game);
    const last = this.lastSummary;
    // most actions change none of it (P1: its fields are compared, no JSON per action)
    if (last && (Object.keys(summary) as (keyof GameSummary)[]).every((k) => summary[k] === last[k])) return;
    this.lastSummary = summary;
    roomServices().hub.publishGlobalLater(this.roomId, { event: 'game_summary', data: summary, audience: this.listAudience() });
  }
}

/** Whether two metadata say the same (the lobby's matchmaking filter needs no update). */
function sameMetadata(a: GameMetadata, b: GameMetadata | undefined): boolean {
  return !!b && a.mode === b.mode && a.players === b.players && a.creator === b.creator && a.members.length === b.members.length && a.members.every((id, i) => id === b.members[i]);
}

/** Maps a validated room message to the engine action it asks for. */
export function messageToAction(user: { id: string; name: string }, msg: RoomMessage): Action {
  const by = user.id;
  switch (msg.type) {
    case 'guess':
      return { type: 'guess', by, slot: msg.payload.slot, ...(msg.payload.player ? { player: msg.payload.player } : {}) };
    case 'confirm':
      return { type: 'confirm', by, confirm: msg.payload.confirm };
    case 'skip':
    case 'claim':
    case 'leave':
      return { type: msg.type, by, ...(msg.payload.player ? { player: msg.payload.player } : {}) };
    case 'start':
      return { type: 'start', by, hits: [] };
    case 'stop':
      return { type: 'stop', by };
    case 'join':
      return { type: 'join', by, name: user.name, ...(msg.payload.avatar !== undefined ? { avatar: msg.payload.avatar } : {}) };
    case 'join_local':
      return { type: 'join_local', by, name: msg.payload.name, ...(msg.payload.avatar !== undefined ? { avatar: msg.payload.avatar } : {}) };
    case 'avatar':
      return { type: 'avatar', by, avatar: msg.payload.avatar, ...(msg.payload.player ? { player: msg.payload.player } : {}) };
    case 'update':
      return { type: 'update', by, settings: msg.payload.settings, pack_ids: [] };
  }
}

