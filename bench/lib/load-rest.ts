import { nextMove, Rng, type BotPlayer, type BotView, type MoveKind } from './load-bot.ts';
import { HttpUser, SseStream, type SseFrame } from './load-http.ts';
import { ErrorLog, SEATS, sleep } from './load-ws.ts';

/**
 * The REST + SSE side of the load generator (budget P3): tables of six guests
 * who act only through the REST API (`POST /api/games/{id}/guess`, `confirm`,
 * `skip`, `claim`, `PATCH …/start`) and each follow the game on its SSE stream
 * (`GET /api/games/{id}/events`). A move's latency runs from the request being
 * sent to the moment the last of the six streams has delivered an event whose
 * id (the game's seq) is past the one it had before. The bots know the game from
 * the first stream only: its snapshot, then every event merged in.
 */

const MOVE_MS = 1000;
const ACTION_TIMEOUT_MS = 10_000;

interface PlayerJson extends BotPlayer {
  id: string;
}

interface ViewJson extends BotView {
  state: string;
  players: PlayerJson[];
  clue?: { title: string; artist: string; belongs_to: string } | null;
}

export interface RestWindow {
  latencies: number[];
  /** Request → response of the same moves (the caller's view). */
  responses: number[];
  actions: number;
  moves: Partial<Record<MoveKind, number>>;
  busy: number;
  /** Games that reached their goal in the window. */
  completed: number;
}

interface Pending {
  t0: number;
  before: number;
  seen: number;
  measured: boolean;
  kind: MoveKind;
}

class RestTable {
  id = '';
  view: ViewJson | null = null;
  readonly seqs: number[] = Array(SEATS).fill(0);
  readonly streams: SseStream[] = [];
  readonly rng: Rng;
  pending: Pending | null = null;
  /** The last move's HTTP request has not been answered yet. */
  awaitingResponse = false;
  phase: 'setup' | 'playing' | 'leaving' | 'gone' = 'setup';
  private timer: NodeJS.Timeout | undefined;
  private nextAt = 0;
  ended = 0;

  readonly fleet: RestFleet;
  readonly no: number;
  readonly users: HttpUser[];
  readonly goal: number;

  constructor(fleet: RestFleet, no: number, users: HttpUser[], goal: number) {
    this.fleet = fleet;
    this.no = no;
    this.users = users;
    this.goal = goal;
    this.rng = new Rng(fleet.seed * 104729 + no);
  }

  async setup(): Promise<void> {
    const creator = this.users[0]!;
    const r = await creator.call('POST', '/api/games', { mode: 'Public', settings: { goal: this.goal } });
    if (r.status !== 201) throw new Error(`POST /api/games answered ${r.status}: ${r.body.slice(0, 200)}`);
    this.id = (JSON.parse(r.body) as { id: string }).id;
    await Promise.all(this.users.map((u, i) => this.open(u, i)));
    for (const u of this.users.slice(1)) {
      const j = await u.call('PATCH', `/api/games/${this.id}/join`);
      if (j.status !== 200) throw new Error(`PATCH join answered ${j.status}: ${j.body.slice(0, 200)}`);
    }
    const deadline = Date.now() + 10_000;
    while (!(this.view?.players.length === SEATS && this.seqs.every((s) => s === this.seqs[0]))) {
      if (Date.now() > deadline) throw new Error(`table ${this.id}: six players not seen on every stream within 10 s`);
      await sleep(20);
    }
    this.phase = 'playing';
    this.nextAt = performance.now() + this.rng.next() * MOVE_MS;
    this.schedule();
  }

  /** Opens seat `i`'s stream and resolves at its snapshot. */
  private open(user: HttpUser, i: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let started = false;
      const onFrame = (f: SseFrame) => {
        if (f.event === 'snapshot') {
          if (i === 0) this.view = JSON.parse(f.data) as ViewJson;
          this.seqs[i] = f.id;
          if (!started) {
            started = true;
            resolve();
          }
          return;
        }
        if (i === 0) this.merge(f);
        this.seen(i, f.id);
      };
      const onEnd = (why: string) => {
        if (!started) reject(new Error(`stream of seat ${i}: ${why}`));
        else if (this.phase !== 'leaving' && this.phase !== 'gone') this.fleet.errors.add('sse', `table ${this.id} seat ${i}: stream ${why}`);
        else this.ended++;
      };
      this.streams[i] = new SseStream(this.fleet.baseUrl, `/api/games/${this.id}/events`, user.cookie, onFrame, onEnd);
    });
  }

  /** Folds one event into the view (the events of docs/api.md#sse with docs/rules.md#a13's seq). */
  private merge(f: SseFrame): void {
    const v = this.view;
    if (!v) return;
    const data = JSON.parse(f.data) as { state?: string; players?: PlayerJson[]; clue?: ViewJson['clue']; winner?: unknown };
    if (f.event === 'change_state') {
      if (data.state) v.state = data.state;
      if (data.players) v.players = data.players;
      v.clue = data.clue ?? null;
      if (data.winner) {
        this.fleet.completedTotal++;
        if (this.fleet.window) this.fleet.window.completed++;
      }
      return;
    }
    if (f.event === 'leave') {
      const gone = new Set((data.players ?? []).map((p) => p.id));
      v.players = v.players.filter((p) => !gone.has(p.id));
      return;
    }
    for (const p of data.players ?? []) {
      const at = v.players.findIndex((q) => q.id === p.id);
      if (at >= 0) v.players[at] = p;
      else v.players.push(p);
    }
    if (data.clue) v.clue = data.clue;
  }

  private seen(i: number, seq: number): void {
    if (!(seq > this.seqs[i]!)) return;
    const before = this.seqs[i]!;
    this.seqs[i] = seq;
    const p = this.pending;
    if (p && seq > p.before && before <= p.before) {
      if (++p.seen === SEATS) {
        this.pending = null;
        const w = this.fleet.window;
        if (p.measured && w) {
          w.latencies.push(performance.now() - p.t0);
          w.actions++;
        }
      }
    }
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
    if (this.pending) {
      if (performance.now() - this.pending.t0 > ACTION_TIMEOUT_MS) {
        this.fleet.errors.add('unseen', `table ${this.id}: ${this.pending.kind} not on every stream within ${ACTION_TIMEOUT_MS / 1000} s (${this.pending.seen}/${SEATS})`);
        this.pending = null;
      } else {
        if (this.fleet.window) this.fleet.window.busy++;
        return;
      }
    }
    const v = this.view;
    if (!v) return;
    // The view is the first stream's: decide only once the last move was answered and
    // every stream is at the same event, so no event of it is still on its way.
    if (this.awaitingResponse || this.seqs.some((q) => q !== this.seqs[0])) {
      if (this.fleet.window) this.fleet.window.busy++;
      return;
    }
    const move = nextMove(v, this.rng, this.fleet.years, SEATS);
    if (!move) return;
    const user = this.users.find((u) => u.id === move.player);
    if (!user) {
      this.fleet.errors.add('bot', `table ${this.id}: no seat for ${move.player}`);
      return;
    }
    const path =
      move.type === 'start' ? `/api/games/${this.id}/start`
      : `/api/games/${this.id}/${move.type}`;
    const method = move.type === 'start' ? 'PATCH' : 'POST';
    const body =
      move.type === 'guess' ? { id: move.payload.slot }
      : move.type === 'confirm' ? { confirm: move.payload.confirm }
      : undefined;
    const w = this.fleet.window;
    if (w) w.moves[move.kind] = (w.moves[move.kind] ?? 0) + 1;
    const before = Math.max(...this.seqs);
    const t0 = performance.now();
    const p: Pending = { t0, before, seen: 0, measured: w !== null, kind: move.kind };
    this.pending = p;
    this.awaitingResponse = true;
    user.call(method, path, body).then(
      (r) => {
        this.awaitingResponse = false;
        if (r.status !== 200) {
          this.fleet.errors.add('refused', `table ${this.id} ${move.kind}: ${r.status} ${r.body.slice(0, 160)}`);
          if (this.pending === p) this.pending = null;
        } else if (p.measured && this.fleet.window) this.fleet.window.responses.push(performance.now() - t0);
      },
      (err: Error) => {
        this.awaitingResponse = false;
        this.fleet.errors.add('http', `table ${this.id} ${move.kind}: ${err.message}`);
        if (this.pending === p) this.pending = null;
      },
    );
  }

  async leave(): Promise<void> {
    this.stop();
    this.phase = 'leaving';
    for (const u of this.users) {
      const r = await u.call('PATCH', `/api/games/${this.id}/leave`);
      if (r.status !== 200) this.fleet.errors.add('leave', `table ${this.id}: ${r.status} ${r.body.slice(0, 160)}`);
    }
  }

  close(): void {
    this.phase = 'gone';
    for (const s of this.streams) s.close();
  }
}

export class RestFleet {
  readonly errors = new ErrorLog();
  readonly tables: RestTable[] = [];
  readonly baseUrl: URL;
  window: RestWindow | null = null;
  completedTotal = 0;

  readonly seed: number;
  readonly goals: number[];
  readonly years: Map<string, number>;

  constructor(base: string, seed: number, goals: number[], years: Map<string, number>) {
    this.baseUrl = new URL(base);
    this.seed = seed;
    this.goals = goals;
    this.years = years;
  }

  /** Seats `users` (six per table) at new tables, `rate` tables per second; resolves when all play. */
  async setup(users: HttpUser[], tables: number, rate: number): Promise<number> {
    const started: Promise<void>[] = [];
    for (let no = 0; no < tables; no++) {
      const seats = users.slice(no * SEATS, no * SEATS + SEATS);
      if (seats.length < SEATS) throw new Error(`only ${users.length} users for ${tables} REST tables`);
      const t = new RestTable(this, no, seats, this.goals[no % this.goals.length]!);
      this.tables.push(t);
      started.push(t.setup().catch((err: Error) => this.errors.add('setup', `REST table ${no}: ${err.message}`)));
      await sleep(1000 / rate);
    }
    await Promise.all(started);
    return this.tables.filter((t) => t.phase === 'playing').length;
  }

  windowStart(): void {
    this.window = { latencies: [], responses: [], actions: 0, moves: {}, busy: 0, completed: 0 };
  }

  windowStop(): RestWindow {
    const w = this.window;
    if (!w) throw new Error('no window open');
    this.window = null;
    return w;
  }

  /** Every player leaves his game (the last one deletes it, which ends its streams). */
  async teardown(): Promise<void> {
    for (const t of this.tables) t.stop();
    const deadline = performance.now() + 10_000;
    while (this.tables.some((t) => t.phase === 'playing' && (t.pending || t.awaitingResponse)) && performance.now() < deadline) await sleep(20);
    await Promise.all(this.tables.map((t) => (t.phase === 'playing' ? t.leave() : undefined)));
    await sleep(300);
    for (const t of this.tables) t.close();
  }
}
