import { Client, type Room } from '@colyseus/sdk';
import { BARE_ROOM } from './bare-room.ts';
import { nextMove, Rng, type BotMove, type BotSlot, type BotView, type MoveKind } from './load-bot.ts';
import { HttpUser } from './load-http.ts';
import { installFastStringDecoding } from '../../shared/protocol/schema-strings.ts';

// the bots decode the room state as the web client does (client/src/net/room.ts)
installFastStringDecoding();

/** The parts of a Hitline room state the bots read (server/rooms/schema.ts: JSON strings for the timeline, the guess and the clue). */
interface RoomState {
  state: string;
  clue: string;
  players: Iterable<{ id: string; state: string; tokens: number; turn_player: boolean; creator: boolean; hits: string; guess: string }> & { length: number };
}

/** The room state as the bots see a game: the JSON fields they read parsed (a player's timeline only when asked for). */
function botView(s: RoomState): BotView {
  const players = Array.from(s.players, (p) => ({
    id: p.id,
    state: p.state,
    tokens: p.tokens,
    turn_player: p.turn_player,
    creator: p.creator,
    get hits(): { year: number }[] {
      return p.hits ? (JSON.parse(p.hits) as { year: number }[]) : [];
    },
    guess: p.guess ? (JSON.parse(p.guess) as BotSlot) : null,
  }));
  return { state: s.state, players, clue: s.clue ? (JSON.parse(s.clue) as BotView['clue']) : null };
}

/**
 * The WebSocket side of the load generator: tables of 6 `@colyseus/sdk` clients,
 * one table per room, Hitline's game rooms or the bare comparison room, driven
 * alike. Joins run open-loop at a fixed rate; every table then makes about one
 * move per second, and a move's latency runs from `room.send` to the moment the
 * last of the table's six clients has seen the room's `seq` pass the value it
 * had before (a state patch or, for Hitline, an `event` message: whichever
 * reaches the client first).
 *
 * With several server processes (`joinBase`), the table lives on the process of
 * `base` (where seat 0 creates it), and the last `crossSeats` seats of each table
 * make their matchmaking request to the process of `joinBase` instead: it
 * reserves their seat on the room's process, whose public address their
 * WebSocket then goes to.
 */

export const SEATS = 6;
/** A move not seen by every client of the table within this long is an error. */
const ACTION_TIMEOUT_MS = 10_000;
/** Mean time between two moves of a table. */
const MOVE_MS = 1000;

export type TableKind = 'hitline' | 'bare';

/** Everything that went wrong, by kind, with the first few descriptions. */
export class ErrorLog {
  total = 0;
  readonly kinds = new Map<string, number>();
  readonly samples: string[] = [];

  /** What the generator is doing (joins, play, reconnects, teardown), for the samples. */
  stage = '';

  add(kind: string, detail: string): void {
    this.total++;
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
    if (this.samples.length < 12) this.samples.push(`${kind} (${this.stage}): ${detail}`);
  }

  summary(): { total: number; kinds: Record<string, number>; samples: string[] } {
    return { total: this.total, kinds: Object.fromEntries(this.kinds), samples: [...this.samples] };
  }
}

/** What a measured window saw, generator side. */
export interface WindowCounts {
  /** ms from send to the last client of the table, per move sent in the window. */
  latencies: number[];
  /** Moves sent in the window and seen by all six clients. */
  actions: number;
  moves: Partial<Record<MoveKind | 'act', number>>;
  /** Ticks that found the table's previous move still unseen (it waits for the next tick). */
  busy: number;
  /** Games that reached their goal in the window. */
  completed: number;
  /** Latencies by kind of move (what is slow, when something is). */
  byKind: Partial<Record<MoveKind | 'act', number[]>>;
  /** ms from send to the FIRST client of the table (the server's share, roughly). */
  first: number[];
}

interface Pending {
  t0: number;
  before: number;
  seen: number;
  seat: Seat;
  measured: boolean;
  kind: MoveKind | 'act';
  first: number;
}

class Seat {
  room: Room<any, any> | undefined;
  seq = 0;
  ready = false;
  /** The pending move this seat has already seen. */
  sawPending: Pending | null = null;
  joinedAt = 0;
  /** A deliberate drop (the P5 probe) in progress. */
  drop: { t0: number; resolve(ok: boolean): void } | null = null;
  /** Dropped or reconnected but without the full state yet: its view is stale, the table waits. */
  away = false;
  left = false;

  readonly table: Table;
  readonly index: number;
  readonly user: HttpUser | null;

  constructor(table: Table, index: number, user: HttpUser | null) {
    this.table = table;
    this.index = index;
    this.user = user;
  }
}

class Table {
  readonly seats: Seat[];
  readonly rng: Rng;
  id = '';
  phase: 'setup' | 'playing' | 'leaving' | 'gone' | 'failed' = 'setup';
  seq = 0;
  pending: Pending | null = null;
  private timer: NodeJS.Timeout | undefined;
  private nextAt = 0;
  private moveNo = 0;
  /** Resolves with the game/room id once created (seat 0's job), rejects when that failed. */
  created: Promise<string>;
  resolveCreated!: (id: string) => void;
  rejectCreated!: (err: Error) => void;
  ready: Promise<boolean>;
  resolveReady!: (ok: boolean) => void;

  readonly fleet: WsFleet;
  readonly no: number;
  readonly goal: number;

  constructor(fleet: WsFleet, no: number, users: (HttpUser | null)[], goal: number) {
    this.fleet = fleet;
    this.no = no;
    this.goal = goal;
    this.seats = users.map((u, i) => new Seat(this, i, u));
    this.rng = new Rng(fleet.seed * 7919 + no);
    this.created = new Promise<string>((resolve, reject) => {
      this.resolveCreated = resolve;
      this.rejectCreated = reject;
    });
    this.created.catch(() => undefined);
    this.ready = new Promise<boolean>((resolve) => (this.resolveReady = resolve));
  }

  fail(): void {
    if (this.phase === 'setup') {
      this.phase = 'failed';
      this.resolveReady(false);
    }
  }

  /** Setup ends when every seat joined and (Hitline) every client sees six players seated. */
  checkReady(): void {
    if (this.phase !== 'setup' || !this.seats.every((s) => s.ready)) return;
    const state = this.seats[0]!.room!.state;
    const seated = this.fleet.kind === 'hitline' ? state.players.length : state.players.size;
    if (seated !== SEATS || !this.seats.every((s) => s.seq === this.seq)) return;
    this.phase = 'playing';
    this.resolveReady(true);
    this.nextAt = performance.now() + this.rng.next() * MOVE_MS;
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.nextAt - performance.now()));
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private tick(): void {
    if (this.phase !== 'playing') return;
    this.nextAt += MOVE_MS * (0.75 + 0.5 * this.rng.next());
    this.schedule();
    const now = performance.now();
    if (this.pending) {
      if (now - this.pending.t0 > ACTION_TIMEOUT_MS) {
        this.fleet.errors.add('unseen', `table ${this.id}: ${this.pending.kind} not seen by every client within ${ACTION_TIMEOUT_MS / 1000} s (${this.pending.seen}/${SEATS})`);
        this.pending = null;
      } else {
        if (this.fleet.window) this.fleet.window.busy++;
        return;
      }
    }
    // a seat away (the reconnect probe) sits the tick out, so no latency includes a reconnection
    if (this.seats.some((s) => s.away)) return;
    if (this.fleet.kind === 'bare') {
      const seat = this.seats[this.moveNo % SEATS]!;
      this.send(seat, 'act', 'act', { n: this.moveNo++ });
      return;
    }
    const view = botView(this.seats[0]!.room!.state as RoomState);
    const move: BotMove | null = nextMove(view, this.rng, this.fleet.years, SEATS);
    if (!move) return;
    const seat = this.seats.find((s) => s.user!.id === move.player);
    if (!seat) {
      this.fleet.errors.add('bot', `table ${this.id}: no seat for player ${move.player}`);
      return;
    }
    this.send(seat, move.kind, move.type, move.payload);
  }

  private send(seat: Seat, kind: MoveKind | 'act', type: string, payload: unknown): void {
    const w = this.fleet.window;
    if (w) w.moves[kind] = (w.moves[kind] ?? 0) + 1;
    const t0 = performance.now();
    this.pending = { t0, before: this.seq, seen: 0, seat, measured: w !== null, kind, first: 0 };
    seat.room!.send(type, payload);
  }

  /** A client of this table saw the room at `seq` (patch or event). */
  seen(seat: Seat, seq: number): void {
    if (seq <= seat.seq) return;
    seat.seq = seq;
    if (seq > this.seq) this.seq = seq;
    const p = this.pending;
    if (p && seq > p.before && seat.sawPending !== p) {
      seat.sawPending = p;
      if (p.seen++ === 0) p.first = performance.now() - p.t0;
      if (p.seen === SEATS) {
        this.pending = null;
        const w = this.fleet.window;
        if (p.measured && w) {
          const ms = performance.now() - p.t0;
          w.latencies.push(ms);
          (w.byKind[p.kind] ??= []).push(ms);
          w.first.push(p.first);
          w.actions++;
        }
      }
    }
    if (this.phase === 'setup') this.checkReady();
  }
}

export interface FleetOptions {
  kind: TableKind;
  base: string;
  seed: number;
  /** Goals of the games (cards to win), drawn per table: varied game lengths. */
  goals: number[];
  years: Map<string, number>;
  /** Another server process for the matchmaking of the last `crossSeats` seats of each table. */
  joinBase?: string;
  crossSeats?: number;
}

export class WsFleet {
  readonly kind: TableKind;
  readonly base: string;
  readonly baseUrl: URL;
  readonly seed: number;
  readonly goals: number[];
  readonly years: Map<string, number>;
  readonly joinBase: string | undefined;
  readonly crossSeats: number;
  readonly errors = new ErrorLog();
  readonly tables: Table[] = [];
  /** Guests made ahead of the joins (Hitline). */
  users: HttpUser[] = [];
  window: WindowCounts | null = null;
  completedTotal = 0;
  private joinTimes: number[] = [];
  private joinHttpTimes: number[] = [];
  private crossTimes: number[] = [];

  constructor(o: FleetOptions) {
    this.kind = o.kind;
    this.base = o.base;
    this.baseUrl = new URL(o.base);
    this.seed = o.seed;
    this.goals = o.goals;
    this.years = o.years;
    this.joinBase = o.joinBase;
    this.crossSeats = o.joinBase ? Math.min(SEATS - 1, o.crossSeats ?? 0) : 0;
  }

  /** Makes the guests of `rooms` tables (Hitline), `concurrency` at a time. */
  async prepare(rooms: number, concurrency = 8): Promise<number> {
    if (this.kind !== 'hitline') return 0;
    const need = rooms * SEATS - this.users.length;
    let next = 0;
    const made: HttpUser[] = [];
    const worker = async () => {
      while (next < need) {
        next++;
        made.push(await HttpUser.guest(this.baseUrl));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    this.users.push(...made);
    return made.length;
  }

  /**
   * Adds tables until there are `rooms`, joining their clients one by one at
   * `joinRate` per second (open loop), and resolves when every new table plays.
   * Returns each join's time (matchmaking request → WebSocket → first full state).
   */
  async grow(rooms: number, joinRate: number): Promise<{ joins: number[]; joinHttp: number[]; cross: number[]; seconds: number; failed: number }> {
    this.joinTimes = [];
    this.joinHttpTimes = [];
    this.crossTimes = [];
    const first = this.tables.length;
    const added: Table[] = [];
    for (let no = first; no < rooms; no++) {
      const users = this.kind === 'hitline' ? this.users.slice(no * SEATS, no * SEATS + SEATS) : Array.from({ length: SEATS }, () => null);
      if (users.length < SEATS) throw new Error(`only ${this.users.length} guests for ${rooms} tables`);
      const t = new Table(this, no, users, this.goals[no % this.goals.length]!);
      this.tables.push(t);
      added.push(t);
    }
    const started = performance.now();
    const interval = 1000 / joinRate;
    const joins: Promise<void>[] = [];
    let k = 0;
    await new Promise<void>((resolve) => {
      const tasks = added.flatMap((t) => t.seats);
      const step = () => {
        const due = Math.floor((performance.now() - started) / interval) + 1;
        while (k < tasks.length && k < due) joins.push(this.join(tasks[k++]!));
        if (k >= tasks.length) resolve();
        else setTimeout(step, Math.max(0, started + k * interval - performance.now()));
      };
      step();
    });
    await Promise.all(joins);
    const outcomes = await Promise.all(added.map((t) => Promise.race([t.ready, sleep(30_000).then(() => false)])));
    const failed = outcomes.filter((ok) => !ok).length;
    for (const [i, ok] of outcomes.entries()) {
      if (!ok) {
        const t = added[i]!;
        if (t.phase === 'setup') this.errors.add('setup', `table ${t.id || t.no} not ready 30 s after its joins`);
        t.fail();
      }
    }
    return { joins: this.joinTimes, joinHttp: this.joinHttpTimes, cross: this.crossTimes, seconds: (performance.now() - started) / 1000, failed };
  }

  private async join(seat: Seat): Promise<void> {
    const t = seat.table;
    try {
      let id: string;
      if (seat.index === 0 && this.kind === 'hitline') {
        const r = await seat.user!.call('POST', '/api/games', { mode: 'Public', settings: { goal: t.goal } });
        if (r.status !== 201) throw new Error(`POST /api/games answered ${r.status}: ${r.body.slice(0, 200)}`);
        id = (JSON.parse(r.body) as { id: string }).id;
        t.id = id;
        t.resolveCreated(id);
      } else if (seat.index === 0) {
        id = '';
      } else {
        id = await t.created;
      }
      // the matchmaking request is timed on its own too (what of a slow join is HTTP)
      let httpMs = 0;
      const fetchFn = async (url: string | URL | Request, init?: RequestInit) => {
        const h0 = performance.now();
        const res = await fetch(url, init);
        httpMs = performance.now() - h0;
        return res;
      };
      const cross = seat.index >= SEATS - this.crossSeats;
      const client = new Client(cross ? this.joinBase! : this.base, { ...(seat.user ? { headers: { cookie: seat.user.cookie } } : {}), fetchFn });
      const t0 = performance.now();
      let room: Room<any, any>;
      if (this.kind === 'bare' && seat.index === 0) {
        room = await client.create(BARE_ROOM);
        t.id = room.roomId;
        t.resolveCreated(room.roomId);
      } else {
        room = await client.joinById(id);
      }
      seat.room = room;
      this.watch(seat, room);
      await new Promise<void>((resolve) => {
        const check = (state: any) => {
          if (seat.ready) return;
          const has = this.kind === 'hitline' ? state?.id === t.id : state?.players?.size > 0;
          if (!has) return;
          seat.ready = true;
          seat.joinedAt = Date.now();
          this.joinTimes.push(performance.now() - t0);
          this.joinHttpTimes.push(httpMs);
          if (cross) this.crossTimes.push(performance.now() - t0);
          room.onStateChange.remove(check);
          resolve();
        };
        room.onStateChange(check);
        check(room.state);
      });
      // take the seat (the creator has his from creating the game)
      if (this.kind === 'hitline' && seat.index > 0) room.send('join');
      t.seen(seat, room.state.seq);
      t.checkReady();
    } catch (err) {
      this.errors.add('join', `table ${t.id || t.no} seat ${seat.index}: ${(err as Error).message}`);
      if (seat.index === 0) t.rejectCreated(err as Error);
      t.fail();
    }
  }

  private watch(seat: Seat, room: Room<any, any>): void {
    const t = seat.table;
    room.onStateChange((state: any) => {
      seat.away = false;
      t.seen(seat, state.seq);
    });
    if (this.kind === 'hitline') {
      room.onMessage('event', (m: { seq: number; event: string; data?: { winner?: unknown } }) => {
        t.seen(seat, m.seq);
        if (seat.index === 0 && m.event === 'change_state' && m.data?.winner) {
          this.completedTotal++;
          if (this.window) this.window.completed++;
        }
      });
      room.onMessage('error', (e: { code?: string; message?: string }) => {
        this.errors.add('refused', `table ${t.id} seat ${seat.index} (${t.pending?.seat === seat ? t.pending.kind : 'no move pending'}): ${e.code}: ${e.message}`);
        if (t.pending?.seat === seat) t.pending = null;
      });
    }
    room.onError((code: number, message?: string) => this.errors.add('room error', `table ${t.id} seat ${seat.index}: ${code} ${message ?? ''}`));
    room.onDrop((code: number) => {
      if (!seat.drop) this.errors.add('dropped', `table ${t.id} seat ${seat.index}: code ${code}`);
    });
    room.onReconnect(() => {
      const d = seat.drop;
      seat.drop = null;
      d?.resolve(true);
    });
    room.onLeave((code: number) => {
      seat.left = true;
      const d = seat.drop;
      seat.drop = null;
      d?.resolve(false);
      if (t.phase !== 'leaving' && t.phase !== 'gone') {
        this.errors.add('left', `table ${t.id} seat ${seat.index}: code ${code}`);
        t.phase = 'failed';
        t.stop();
      }
    });
  }

  windowStart(): void {
    this.window = { latencies: [], actions: 0, moves: {}, busy: 0, completed: 0, byKind: {}, first: [] };
  }

  windowStop(): WindowCounts {
    const w = this.window;
    if (!w) throw new Error('no window open');
    this.window = null;
    return w;
  }

  playing(): number {
    return this.tables.filter((t) => t.phase === 'playing').length;
  }

  /**
   * P5: drops `count` sockets, `rate` per second, of random playing seats (the
   * client's socket is destroyed, as in a network drop) and times the SDK's
   * automatic reconnection, up to `graceMs`.
   */
  async reconnects(count: number, rate: number, graceMs: number): Promise<{ times: number[]; failed: number; attempts: Record<number, number> }> {
    const times: number[] = [];
    const attempts: Record<number, number> = {};
    let failed = 0;
    const outstanding: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      await sleep(1000 / rate);
      const candidates = this.tables.filter((t) => t.phase === 'playing' && !t.pending && !t.seats.some((s) => s.away));
      if (candidates.length === 0) continue;
      const t = candidates[Math.floor(Math.random() * candidates.length)]!;
      const seat = t.seats[Math.floor(Math.random() * SEATS)]!;
      const room = seat.room!;
      room.reconnection.minUptime = 0;
      const t0 = performance.now();
      seat.away = true;
      outstanding.push(
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            if (seat.drop) {
              seat.drop = null;
              failed++;
              this.errors.add('reconnect', `table ${t.id} seat ${seat.index}: not back within ${graceMs} ms`);
            }
            resolve();
          }, graceMs);
          seat.drop = {
            t0,
            resolve: (ok) => {
              clearTimeout(timer);
              if (ok) {
                times.push(performance.now() - t0);
                attempts[room.reconnection.retryCount] = (attempts[room.reconnection.retryCount] ?? 0) + 1;
              }
              else {
                failed++;
                this.errors.add('reconnect', `table ${t.id} seat ${seat.index}: left instead of reconnecting`);
              }
              resolve();
            },
          };
        }),
      );
      // a network drop: the socket just goes, without a closing handshake (`ws` can do
      // that; Node's own WebSocket cannot, and closes with "may try reconnect" instead)
      const ws = (room.connection.transport as unknown as { ws: { close(code: number): void; terminate?(): void } }).ws;
      if (ws.terminate) ws.terminate();
      else ws.close(4010);
    }
    await Promise.all(outstanding);
    return { times, failed, attempts };
  }

  /**
   * Ends every table: Hitline players leave their game (the last one out deletes
   * it and the room closes every socket), bare clients leave the room; `rate`
   * tables per second. Resolves when every client is gone (or 30 s passed).
   */
  async teardown(rate: number): Promise<void> {
    // no new moves; the last ones land first (a leave overtaking a move on another
    // socket would turn that move into a refusal)
    for (const t of this.tables) t.stop();
    const deadline = performance.now() + 10_000;
    while (this.tables.some((t) => t.pending && t.phase === 'playing') && performance.now() < deadline) await sleep(20);
    const waits: Promise<void>[] = [];
    for (const t of this.tables) {
      if (t.phase === 'gone') continue;
      t.phase = 'leaving';
      for (const seat of t.seats) {
        const room = seat.room;
        if (!room || seat.left) continue;
        waits.push(new Promise<void>((resolve) => room.onLeave(() => resolve())));
        if (this.kind === 'hitline') room.send('leave');
        else void room.leave(true);
      }
      await sleep(1000 / rate);
    }
    const all = Promise.all(waits).then(() => true);
    if (!(await Promise.race([all, sleep(30_000).then(() => false)]))) {
      this.errors.add('teardown', 'clients still connected 30 s after leaving');
      for (const t of this.tables) for (const s of t.seats) if (!s.left) void s.room?.leave(false);
    }
    for (const t of this.tables) t.phase = 'gone';
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
