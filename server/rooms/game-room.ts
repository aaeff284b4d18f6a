import { CloseCode, Room, ServerError, type AuthContext, type Client, type ClientPrivate } from '@colyseus/core';
import { parseCookie } from 'cookie';
import { FLOODING_CLOSE_CODE, parseRoomMessage, ROOM_MESSAGES, roomEvent, type RoomMessage } from '../../shared/protocol/index.ts';
import type { Action, DjClip, Game, GameEvent, GamePayload, RuleError } from '../../shared/rules/index.ts';
import { sendTogether } from '../transport.ts';
import { startTicking, stopTicking } from './clock.ts';
import { GameHost } from './game-host.ts';
import type { ActOutcome, CreateGameOptions, GameMetadata, HostOutbox } from './host-ports.ts';
import { GameState, StateMirror } from './schema.ts';
import { roomServices } from './services.ts';

export type { ActOutcome, CreateGameOptions, GameMetadata } from './host-ports.ts';

/**
 * One game = one room (room id = game id). The room only connects: it
 * authenticates sockets (the session cookie), forwards their messages and the
 * REST calls (`matchMaker.remoteRoomCall(id, 'act', …)`, from any process) to
 * the game's host (game-host.ts), which runs the game, and applies the host's
 * outbox: the public view mirrored into the schema state, the patch and the
 * events sent together.
 */

/** The room type of games (matchmaking name). */
export const ROOM_NAME = 'game';

interface ClientAuth {
  user: { id: string; name: string } | null;
}

type GameClient = Client<{ auth: ClientAuth }>;

export class GameRoom extends Room<{ state: GameState; metadata: GameMetadata; client: GameClient }> {
  override state = new GameState();
  private readonly mirror = new StateMirror(this.state);
  override autoDispose = false;
  /** Patches go out right after each action (turn-based: no need for a 50 ms tick). */
  override patchRate = null;
  override maxMessagesPerSecond = 30;

  private host!: GameHost;

  /** The engine's game as it is now. */
  get game(): Game {
    return this.host.game;
  }

  /** The seq of the game's last event. */
  get seq(): number {
    return this.host.seq;
  }

  override async onCreate(options: CreateGameOptions): Promise<void> {
    const { config, log, bus, catalogue, games, clips, evidence, reports } = roomServices();
    const outbox: HostOutbox = {
      changed: (view, seq, events, deleted) => this.sendChange(view, seq, events, deleted),
      metadataChanged: (meta) => void this.setMetadata(meta),
      gone: () => this.disconnect(),
    };
    const opened = await GameHost.open(options, { store: games, publisher: bus, catalogue, clips, evidence, reports, config, log }, outbox);
    if (!opened.ok) throw new ServerError(opened.error.status, opened.error.message);
    this.host = opened.host;
    this.roomId = options.gameId;
    startTicking(this, () => this.host.checkIdle());
    this.patchRate = null; // drops the 60 Hz clock interval that the null patch rate started
    this.metadata = this.host.metadata();
    this.mirror.sync(this.host.view() as GamePayload, this.host.seq);
    for (const type of Object.keys(ROOM_MESSAGES)) {
      this.onMessage(type, (client: GameClient, payload: unknown) => {
        void this.onRoomMessage(client, type, payload);
      });
    }
    this.onMessage('*', (client: GameClient, type: string | number) => {
      client.send('error', { type: 'error', code: 'invalid_input', message: `unknown message type ${JSON.stringify(String(type))}` });
    });
    this.host.start();
  }

  /**
   * Anyone who may view the game may connect (spectators too; a Local game's
   * phones with its seat key, the join option `key`); only players may act.
   */
  override async onAuth(_client: GameClient, options: unknown, context: AuthContext): Promise<ClientAuth> {
    const cookies = parseCookie(context.headers.get('cookie') ?? '');
    const token = cookies.id ?? context.token;
    const user = token ? await roomServices().users.userForToken(token) : undefined;
    const viewer = user ? { id: user.id, name: user.name } : null;
    const key = typeof options === 'object' && options !== null && typeof (options as { key?: unknown }).key === 'string' ? (options as { key: string }).key : null;
    if (!this.host.canView(viewer?.id ?? null, key)) throw new ServerError(404, 'game id not found');
    return { user: viewer };
  }

  override onJoin(client: GameClient): void {
    const user = client.auth?.user;
    if (user) this.host.connect(user.id);
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

  /** Graceful shutdown: the game stays stored as it is, and no seat turns absent. */
  override onBeforeShutdown(): void {
    this.host.shutdown();
    super.onBeforeShutdown();
  }

  override onLeave(client: GameClient, code?: number): void {
    const user = client.auth?.user;
    if (user) this.host.disconnect(user.id, code === CloseCode.CONSENTED);
  }

  override onDispose(): void {
    stopTicking(this);
    this.host?.dispose();
  }

  // -------------------------------------------------------------------------
  // remote calls (REST requests on any process), forwarded to the host

  /**
   * Applies `action` for `userId`: REST requests and the sockets' messages
   * alike enter here. Actions of one game run one at a time, in arrival order.
   */
  act(userId: string, action: Record<string, unknown>): Promise<ActOutcome> {
    return this.host.act(userId, action);
  }

  /**
   * The game as `viewer` sees it with the current sequence number, or null if
   * hidden from him (`key`: a Local game's seat key he presents). `stream`: an
   * SSE stream starts from it, so the game's events are published from now on.
   */
  snapshot(viewer: string | null, stream = false, key: string | null = null): { seq: number; game: GamePayload } | null {
    return this.host.snapshot(viewer, stream, key);
  }

  /** The seat key of a Local game, for its creator's device alone (views.ts seatKeyOf). */
  seatKey(viewer: string | null): { ok: true; key: string } | { ok: false; error: RuleError } {
    return this.host.seatKey(viewer);
  }

  /**
   * Logout or account deletion: the user leaves his seat and his sockets are
   * closed, so an open tab cannot act for a session that no longer exists.
   */
  async dropUser(userId: string): Promise<void> {
    await this.host.dropUser(userId);
    for (const client of this.clients) {
      if (client.auth?.user?.id === userId) client.leave(CloseCode.CONSENTED);
    }
  }

  /** A user renamed himself: his seat here, if he has one, takes the new name. */
  renameUser(userId: string, name: string): Promise<void> {
    return this.host.renameUser(userId, name);
  }

  /** What `viewer` may hear of this game right now (docs/rules.md#a12), without the hit's details. */
  audio(viewer: string | null, hitId?: string | null): ReturnType<GameHost['audio']> {
    return this.host.audio(viewer, hitId);
  }

  /** What `viewer` may play as the game's DJ right now: the DJ alone gets the video. */
  dj(viewer: string | null): { ok: true; clip: DjClip } | { ok: false; error: RuleError } {
    return this.host.dj(viewer);
  }

  // -------------------------------------------------------------------------
  // the sockets' messages

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
    const outcome = await this.act(user.id, messageToAction(user, parsed.data));
    if (!outcome.ok) client.send('error', { type: 'error', code: outcome.error.code, message: outcome.error.message });
  }

  /** The host's outbox: one action's change, to every socket. */
  private sendChange(view: GamePayload | null, seq: number, events: readonly GameEvent[], deleted: boolean): void {
    // patch first, so a client reacting to an event already sees the new state;
    // a deleted Local game has no viewer left, its room only passes on the last events
    if (view) this.mirror.sync(view, seq);
    else this.state.seq = seq;
    const first = seq - events.length + 1;
    // the patch and the events leave in one socket write per client, not one per frame (P1)
    sendTogether(this.clients, () => {
      this.broadcastPatch();
      for (let i = 0; i < events.length; i++) {
        this.broadcast('event', roomEvent(first + i, events[i] as GameEvent, deleted && i === events.length - 1));
      }
    });
  }
}

/** Maps a validated room message to the engine action it asks for. */
function messageToAction(user: { id: string; name: string }, msg: RoomMessage): Action {
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
    case 'control':
      return { type: 'control', by, ...msg.payload };
    case 'release':
      return { type: 'release', by, player: msg.payload.player };
    case 'dispute':
      return { type: 'dispute', by, year: msg.payload.year, ...(msg.payload.player ? { player: msg.payload.player } : {}) };
    case 'vote':
      return { type: 'vote', by, take: msg.payload.take, ...(msg.payload.player ? { player: msg.payload.player } : {}) };
  }
}

