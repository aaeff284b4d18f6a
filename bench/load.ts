/**
 * Load benchmark: budgets P1–P5 of docs/budgets.md.
 *
 *   npm run bench -- load [--rooms N] [--seconds S] [--smoke] [--join-rate R]
 *                         [--rest-rate R] [--no-bare] [--no-rest] [--generators N] [--profile DIR]
 *                         [--processes P [--cross-seats K]]
 *
 * Separate processes: the server under test (bench/lib/load-server.ts: Hitline on
 * a fresh SQLite database with the demo catalogue, and later the bare Colyseus
 * room), the load generator (bench/lib/load-generator.ts: real @colyseus/sdk
 * clients, REST and SSE clients; two processes from 300 rooms on, each with half
 * of the tables) and this one, which steers them over IPC and judges. The server measures itself (CPU, event-loop delay, RSS, GC) over each
 * window.
 *
 * For Hitline, per room level (500 then 800 rooms; `--rooms N` runs one level):
 * tables of 6 guests join at a steady rate (P4: matchmaking + WebSocket + first
 * state), seat themselves and play complete games (a new round when one ends)
 * with scripted but varied moves at about one per table per second; over the
 * window every move's latency to the last client of its room is taken (P2), with
 * the server's CPU per accepted move, event-loop delay and RSS (P1). Then sockets
 * are dropped on purpose and the SDK's reconnection timed (P5); the players leave
 * their games, sit down at new tables and play through REST while each follows
 * the game on its SSE stream (P3). The bare room then gets the same WebSocket
 * load, and its figures are printed under Hitline's.
 *
 * `--smoke` (50 rooms, ~20 s windows, everything shorter): proves the load path
 * works; timing budgets are shown but not enforced, errors still fail.
 * `--profile DIR` writes V8 CPU and allocation profiles (.cpuprofile, .heapprofile: every
 * allocation site, also of objects collected since) of the server over each measured
 * window to DIR, and a heap snapshot at the end.
 *
 * `--processes 2` (scale-out, the last paragraph of docs/budgets.md): PostgreSQL and
 * Redis are started for the run (tests/infra/services.ts, a fresh database), then
 * two Hitline server processes on them (RedisPresence + RedisDriver, each with its
 * own PORT, PUBLIC_ADDRESS and PROCESS_NAME; one after the other, so the first runs
 * the migrations and loads the demo catalogue). The tables are dealt out evenly:
 * generator i (at least one per process) sends its tables to process i mod P,
 * where they are created and played; the last K seats of each table (`--cross-seats`,
 * default 1) join through the other process's matchmaking. Each process measures
 * itself, and P1 (CPU per accepted move, event-loop delay p99, RSS peak, errors) is
 * judged per process against the one-process budgets at the total room count; P2
 * over all moves, P4 and P5 as above. The bare room and the REST/SSE run (P3) are
 * left out (the one-process mode measures them). Everything is stopped at the end,
 * the server processes first, then PostgreSQL and Redis, also after a failure.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, percentiles, STALL_MS, type BenchResult, type Figure, type Percentiles, type ProcessMeter } from './lib/bench.ts';
import type { ErrorsReport, GeneratorSetup, WindowReport } from './lib/load-generator.ts';
import { spawnChild, type ChildRpc } from './lib/load-ipc.ts';
import type { RestWindow } from './lib/load-rest.ts';
import type { ServerKind, ServerMeter, ServerReady } from './lib/load-server.ts';
import type { WindowCounts } from './lib/load-ws.ts';
import { freshDatabase, startServices, type Services } from '../tests/infra/services.ts';
import { SERVER_NODE_OPTIONS } from '../server/node-options.ts';

const LIB = join(import.meta.dirname, 'lib');

/**
 * V8 flags of the load generators. Their thousands of SDK clients make a lot of
 * short-lived garbage: a young generation of 64 MB lets it die there instead of
 * filling the old one, and a generator's collections run on its own thread only,
 * so they do not take the server's core from it in bursts (2 cores: a generator's
 * parallel mark-compact stalled every process at once for 100–300 ms).
 */
const GENERATOR_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=64'];

/** Budgets of docs/budgets.md in ms / MB. */
const P1_CPU_PER_ACTION = 0.37;
const P1_LOOP_P99 = 20;
const P1_RSS = 400;
const P1_ROOMS = 800;
const P2_P50 = 2;
const P2_P99 = [
  { rooms: 500, max: 10 },
  { rooms: 800, max: 25 },
];
const P3_P99 = 30;
const P4_P99 = 150;
const P5_P99 = 500;
/** The server's reconnection window (RECONNECT_SECONDS default): a reconnect must make it within. */
const GRACE_MS = 60_000;

interface Settings {
  smoke: boolean;
  levels: number[];
  seconds: number;
  /** Window of the bare room (shorter in smoke runs). */
  bareSeconds: number;
  /** Pause between the end of the joins and the measured window. */
  settleMs: number;
  joinRate: number;
  restRate: number;
  restSeconds: number;
  reconnects: number;
  reconnectRate: number;
  goals: number[];
  bare: boolean;
  rest: boolean;
  profile: string | undefined;
  seed: number;
  /** Load generator processes (the tables are dealt out among them). */
  generators: number;
  /** Server processes (more than one: on PostgreSQL + Redis, generator i drives process i mod processes). */
  processes: number;
  /** Several processes: seats of each table that join through another process than the table's. */
  crossSeats: number;
}

/** What a server process logged at warn and above (pino JSON lines). */
interface ServerLog {
  errors: number;
  warnings: number;
  samples: string[];
}

/** One server process under test: "A", "B", … */
interface ServerUnderTest {
  name: string;
  rpc: ChildRpc;
  base: string;
  log: ServerLog;
}

interface LevelResult {
  rooms: number;
  joins: number[];
  joinSeconds: number;
  window: WindowReport<WindowCounts>;
  /** Each generator's own window (generator i drives process i mod processes). */
  windows: WindowReport<WindowCounts>[];
  /** Process A's figures: the server's in the one-process mode. */
  server: ServerMeter;
  /** Every process's figures, A first. */
  servers: ServerMeter[];
}

interface KindResult {
  kind: ServerKind;
  levels: LevelResult[];
  joins: number[];
  /** The matchmaking request's share of each join. */
  joinHttp: number[];
  reconnect?: { times: number[]; failed: number; attempts: Record<number, number> };
  rest?: { tables: number; window: WindowReport<RestWindow>; server: ServerMeter };
  /** Joins made through another process than the table's (several processes). */
  crossJoins: number[];
  errors: ErrorsReport;
  /** The errors of each process's generators, A first. */
  processErrors: ErrorsReport[];
  serverLogs: ServerLog[];
}

const positive = (name: string, v: string | undefined, fallback: number): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${v}"`);
  return n;
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`   ${line}`);

export async function run(args: string[]): Promise<BenchResult> {
  const { values } = parseArgs({
    args,
    options: {
      smoke: { type: 'boolean' },
      rooms: { type: 'string' },
      seconds: { type: 'string' },
      'join-rate': { type: 'string' },
      'rest-rate': { type: 'string' },
      'no-bare': { type: 'boolean' },
      'no-rest': { type: 'boolean' },
      profile: { type: 'string' },
      seed: { type: 'string' },
      generators: { type: 'string' },
      processes: { type: 'string' },
      'cross-seats': { type: 'string' },
    },
  });
  const smoke = values.smoke ?? false;
  const s: Settings = {
    smoke,
    levels: values.rooms !== undefined ? [Math.round(positive('rooms', values.rooms, 0))] : smoke ? [50] : P2_P99.map((l) => l.rooms),
    seconds: positive('seconds', values.seconds, smoke ? 15 : 30),
    bareSeconds: positive('seconds', values.seconds, smoke ? 8 : 30),
    settleMs: smoke ? 500 : 2000,
    joinRate: positive('join-rate', values['join-rate'], smoke ? 100 : 50),
    restRate: Math.round(positive('rest-rate', values['rest-rate'], smoke ? 20 : 200)),
    restSeconds: smoke ? 5 : 20,
    reconnects: smoke ? 10 : 100,
    reconnectRate: smoke ? 10 : 10,
    // cards to win, varied per table: games of one to three minutes at a move per second
    // (shorter in a smoke run, so that its few seconds still see games end and restart)
    goals: smoke ? [2, 3, 4] : [3, 4, 5],
    bare: !values['no-bare'],
    rest: !values['no-rest'],
    profile: values.profile !== undefined ? resolve(values.profile) : undefined,
    seed: Math.round(positive('seed', values.seed, 1)),
    generators: 1,
    processes: Math.round(positive('processes', values.processes, 1)),
    crossSeats: 0,
  };
  if (s.processes > PROCESS_NAMES.length) throw new Error(`--processes: at most ${PROCESS_NAMES.length}`);
  if (s.processes > 1) {
    // measured by the one-process mode
    s.bare = false;
    s.rest = false;
    s.crossSeats = values['cross-seats'] === '0' ? 0 : Math.round(positive('cross-seats', values['cross-seats'], 1));
    if (s.crossSeats > 5) throw new Error('--cross-seats: 0 to 5 (seat 0 creates the table on its process)');
  } else if (values['cross-seats'] !== undefined) {
    throw new Error('--cross-seats needs --processes 2 or more');
  }
  // Hitline's clients read far more than the bare room's (its `event` messages carry the
  // players): from a few hundred rooms on, one generator process is the bottleneck
  s.generators = Math.round(positive('generators', values.generators, Math.max(s.processes, Math.max(...s.levels) >= 300 ? 2 : 1)));
  // every process gets the same number of generators, so the same share of the tables
  if (s.generators % s.processes !== 0) throw new Error(`--generators must be a multiple of --processes (${s.processes})`);
  if (s.profile) mkdirSync(s.profile, { recursive: true });

  const hitline = await runKind('hitline', s);
  const bare = s.bare ? await runKind('bare', s) : undefined;
  return report(s, hitline, bare);
}

const PROCESS_NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

/**
 * Starts the server process(es) of `kind`: one on SQLite, or (`processes` > 1)
 * PostgreSQL and Redis first, then the processes on them one after the other (the
 * first runs the migrations and loads the demo catalogue, the next ones find them
 * done). `stop()` ends the processes, then the services, and is safe to call twice.
 */
async function startServers(kind: ServerKind, s: Settings): Promise<{ servers: ServerUnderTest[]; stop(): Promise<void> }> {
  const servers: ServerUnderTest[] = [];
  let services: Services | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
      await Promise.all(servers.map((x) => stopChild(x.rpc, () => x.rpc.call('stop'), 10_000)));
      await services?.stop();
    })());
  // PostgreSQL and Redis run detached: an interrupted benchmark stops them too
  const interrupted = (signal: NodeJS.Signals) => void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  try {
    let database: string | undefined;
    if (s.processes > 1) {
      process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
      services = await startServices();
      database = (await freshDatabase(services.pgUrl, 'hitline_load')).url;
    }
    for (let i = 0; i < s.processes; i++) {
      const name = PROCESS_NAMES[i]!;
      let config: Record<string, string> | undefined;
      if (services && database) {
        // the public address must be known before listening: a free port picked here
        const port = await freePort();
        config = {
          DATABASE_URL: database,
          REDIS_URL: services.redisUrl,
          PORT: String(port),
          PUBLIC_ADDRESS: `127.0.0.1:${port}`,
          PROCESS_NAME: `load-${name.toLowerCase()}`,
          // one audio worker is enough for one database (as scripts/cluster.ts does)
          AUDIO_WORKER: i === 0 ? 'true' : 'false',
        };
      }
      servers.push(await spawnServer(kind, s, s.processes > 1 ? name : '', config));
    }
    if (services) say(`${kind}: ${servers.length} server processes on PostgreSQL + Redis: ${servers.map((x) => `${x.name} ${x.base}`).join(', ')}`);
    return { servers, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The heap's spaces for a note: "old 250, new 32, code 12, large 8, other 3". */
const heapSpacesText = (spaces: ServerMeter['heapSpacesMB']): string =>
  Object.entries(spaces)
    .map(([name, mb]) => `${name} ${mb.toFixed(0)}`)
    .join(', ');

/** One server process (load-server.ts); `name` is "" in the one-process mode. */
async function spawnServer(kind: ServerKind, s: Settings, name: string, config: Record<string, string> | undefined): Promise<ServerUnderTest> {
  const log: ServerLog = { errors: 0, warnings: 0, samples: [] };
  const { rpc, ready } = await spawnChild<ServerReady>(join(LIB, 'load-server.ts'), {
    // Hitline runs with the options `npm start` gives it; the bare room with Node's defaults
    execArgv: kind === 'hitline' ? [...SERVER_NODE_OPTIONS] : [],
    env: { LOAD_SERVER_KIND: kind, ...(s.profile ? { LOAD_PROFILE_DIR: s.profile } : {}), ...(config ? { LOAD_SERVER_CONFIG: JSON.stringify(config) } : {}) },
    onOutput: (line) => {
      // pino JSON lines at warn (40) and above; anything else is printed as is
      let level = 0;
      try {
        level = (JSON.parse(line) as { level?: number }).level ?? 0;
      } catch {
        console.log(`   [server${name ? ` ${name}` : ''}] ${line}`);
        return;
      }
      if (level >= 50) log.errors++;
      else if (level >= 40) log.warnings++;
      if (level >= 40 && log.samples.length < 8) log.samples.push(line.slice(0, 300));
    },
  });
  return { name, rpc, base: `http://127.0.0.1:${ready.port}`, log };
}

/** Starts the server(s) of `kind` and the generators, runs every phase, stops them all. */
async function runKind(kind: ServerKind, s: Settings): Promise<KindResult> {
  const { servers, stop: stopServers } = await startServers(kind, s);
  let gens: ChildRpc[] = [];
  try {
    gens = await Promise.all(Array.from({ length: s.generators }, () => spawnChild<{ pid: number }>(join(LIB, 'load-generator.ts'), { execArgv: GENERATOR_FLAGS }).then((g) => g.rpc)));
    /** Generator i's share of `n` (tables, drops): the tables are dealt out like cards. */
    const share = (n: number, i: number) => Math.floor(n / gens.length) + (i < n % gens.length ? 1 : 0);
    const all = <T>(name: string, args: (i: number) => unknown = () => undefined) => Promise.all(gens.map((g, i) => g.call<T>(name, args(i))));
    /** Generator i drives process i mod P (its tables live there); the other process is the next one. */
    const home = (i: number) => servers[i % servers.length]!;
    const other = (i: number) => servers[(i + 1) % servers.length]!;
    await all('setup', (i) => ({
      kind,
      base: home(i).base,
      seed: s.seed * 1000 + i,
      goals: s.goals,
      ...(servers.length > 1 ? { joinBase: other(i).base, crossSeats: s.crossSeats } : {}),
    }) satisfies GeneratorSetup);
    await all('prepare', (i) => ({ rooms: share(Math.max(...s.levels), i) }));
    const levels: LevelResult[] = [];
    const joins: number[] = [];
    const joinHttp: number[] = [];
    const crossJoins: number[] = [];
    for (const rooms of s.levels) {
      await meterAll(servers, 'meter-start');
      const grown = await all<{ joins: number[]; joinHttp: number[]; cross: number[]; seconds: number; failed: number }>('grow', (i) => ({ rooms: share(rooms, i), joinRate: s.joinRate / gens.length }));
      const joinMeters = await meterAll(servers, 'meter-stop');
      const levelJoins = grown.flatMap((g) => g.joins);
      joins.push(...levelJoins);
      joinHttp.push(...grown.flatMap((g) => g.joinHttp));
      crossJoins.push(...grown.flatMap((g) => g.cross));
      const failed = grown.reduce((a, g) => a + g.failed, 0);
      say(
        `${kind}: ${rooms} rooms playing after ${Math.max(...grown.map((g) => g.seconds)).toFixed(0)} s of joins (join p99 ${percentiles([...levelJoins]).p99.toFixed(1)} ms${failed ? `, ${failed} tables failed` : ''}; ` +
          `${servers.length > 1 ? 'servers' : 'server'} meanwhile ${joinMeters.map((m, p) => `${servers[p]!.name ? `${servers[p]!.name} ` : ''}${m.cpuPercent.toFixed(0)} % CPU, loop p99 ${m.loopDelay.p99.toFixed(1)} ms`).join('; ')}); measuring; load average ${loadAverage()}`,
      );
      await sleep(s.settleMs);
      const seconds = kind === 'bare' ? s.bareSeconds : s.seconds;
      const { windows, servers: meters } = await measure(servers, gens, 'window', seconds);
      const window = mergeWindows(windows as WindowReport<WindowCounts>[]);
      if (s.profile) for (const x of servers) say(`heap snapshot: ${await x.rpc.call<string | null>('heap-snapshot')}`);
      levels.push({ rooms, joins: levelJoins, joinSeconds: Math.max(...grown.map((g) => g.seconds)), window, windows: windows as WindowReport<WindowCounts>[], server: meters[0]!, servers: meters });
      const lat = percentiles([...window.counts.latencies]);
      const meterText = (m: ServerMeter) => `CPU ${m.cpuPercent.toFixed(1)} %, loop p99 ${m.loopDelay.p99.toFixed(1)} ms, RSS ${m.rssMB.toFixed(0)} MB`;
      say(
        `${kind} ${rooms} rooms (${seconds} s): p50 ${lat.p50.toFixed(2)} ms, p99 ${lat.p99.toFixed(2)} ms, ` +
          (servers.length > 1 ? meters.map((m, p) => `process ${servers[p]!.name} (${m.rooms} rooms): ${meterText(m)}`).join('; ') : `server ${meterText(meters[0]!)}`),
      );
    }
    const result: KindResult = {
      kind,
      levels,
      joins,
      joinHttp,
      crossJoins,
      errors: undefined as unknown as ErrorsReport,
      processErrors: [],
      serverLogs: servers.map((x) => x.log),
    };
    if (kind === 'hitline') {
      say(`${kind}: dropping ${s.reconnects} sockets, ${s.reconnectRate} per second`);
      const r = await all<{ times: number[]; failed: number; attempts: Record<number, number> }>('reconnects', (i) => ({ count: share(s.reconnects, i), rate: s.reconnectRate / gens.length, graceMs: GRACE_MS }));
      const attempts: Record<number, number> = {};
      for (const x of r) for (const [a, n] of Object.entries(x.attempts)) attempts[Number(a)] = (attempts[Number(a)] ?? 0) + n;
      result.reconnect = { times: r.flatMap((x) => x.times), failed: r.reduce((a, x) => a + x.failed, 0), attempts };
    }
    say(`${kind}: everybody leaves`);
    await all('teardown', () => ({ rate: 200 / gens.length }));
    if (kind === 'hitline' && s.rest) {
      // one generator is plenty for 1,200 streams; it seats the guests it made for the WebSocket tables
      const rest = gens[0]!;
      const tables = await rest.call<number>('rest-setup', { tables: s.restRate, rate: 25 });
      say(`${kind}: ${tables} REST tables with 6 SSE streams each; measuring ${s.restSeconds} s`);
      await sleep(1000);
      const { windows, servers: meters } = await measure(servers, [rest], 'rest-window', s.restSeconds);
      result.rest = { tables, window: windows[0] as WindowReport<RestWindow>, server: meters[0]! };
      await rest.call('rest-teardown');
    }
    const errors = await all<ErrorsReport>('errors');
    result.errors = mergeErrors(errors);
    result.processErrors = servers.map((_, p) => mergeErrors(errors.filter((_, i) => i % servers.length === p)));
    return result;
  } finally {
    await Promise.all(gens.map((g) => stopChild(g, () => g.child.connected && g.child.disconnect(), 5000)));
    await stopServers();
  }
}

/** `meter-start` or `meter-stop` on every server process at once. */
function meterAll(servers: ServerUnderTest[], call: 'meter-start' | 'meter-stop'): Promise<ServerMeter[]> {
  return Promise.all(servers.map((x) => x.rpc.call<ServerMeter>(call)));
}

/** One measured window: the servers' meters around the generators'. */
async function measure(servers: ServerUnderTest[], gens: ChildRpc[], prefix: string, seconds: number): Promise<{ windows: unknown[]; servers: ServerMeter[] }> {
  await meterAll(servers, 'meter-start');
  await Promise.all(gens.map((g) => g.call(`${prefix}-start`)));
  await sleep(seconds * 1000);
  const windows = await Promise.all(gens.map((g) => g.call(`${prefix}-stop`)));
  return { windows, servers: await meterAll(servers, 'meter-stop') };
}

/**
 * The longest event-loop stalls of each process over a window (at most 5 each),
 * with when they ended, in seconds since the first of them: stalls of several
 * processes at the same moment are the machine's, not one program's.
 */
function stallText(procs: { name: string; meter: ProcessMeter }[]): string {
  const all = procs.flatMap((p) => p.meter.stalls);
  if (all.length === 0) return `no event-loop stall over ${STALL_MS} ms`;
  const t0 = Math.min(...all.map((x) => x.at));
  return `stalls over ${STALL_MS} ms (ms @ s): ${procs
    .map((p) => `${p.name} ${p.meter.stalls.length === 0 ? 'none' : p.meter.stalls.slice(0, 5).map((x) => `${x.ms.toFixed(0)} @ ${((x.at - t0) / 1000).toFixed(1)}`).join(', ')}`)
    .join('; ')}`;
}

/** The generators' windows as one: samples and counts added up, the generators' own figures summed (CPU, heap) or the worst (delays). */
function mergeWindows(ws: WindowReport<WindowCounts>[]): WindowReport<WindowCounts> {
  const first = ws[0]!;
  if (ws.length === 1) return first;
  const counts: WindowCounts = { latencies: [], actions: 0, moves: {}, busy: 0, completed: 0, byKind: {}, first: [] };
  for (const { counts: c } of ws) {
    counts.latencies.push(...c.latencies);
    counts.first.push(...c.first);
    counts.actions += c.actions;
    counts.busy += c.busy;
    counts.completed += c.completed;
    for (const [k, n] of Object.entries(c.moves)) counts.moves[k as keyof WindowCounts['moves']] = (counts.moves[k as keyof WindowCounts['moves']] ?? 0) + (n ?? 0);
    for (const [k, xs] of Object.entries(c.byKind)) (counts.byKind[k as keyof WindowCounts['byKind']] ??= []).push(...(xs ?? []));
  }
  const worst = (f: (g: WindowReport<WindowCounts>['generator']) => number) => Math.max(...ws.map((w) => f(w.generator)));
  const generator = {
    ...first.generator,
    cpuPercent: ws.reduce((a, w) => a + w.generator.cpuPercent, 0),
    heapUsedMB: ws.reduce((a, w) => a + w.generator.heapUsedMB, 0),
    gcMs: ws.reduce((a, w) => a + w.generator.gcMs, 0),
    gcMaxMs: worst((g) => g.gcMaxMs),
    loopDelay: { ...first.generator.loopDelay, p99: worst((g) => g.loopDelay.p99), max: worst((g) => g.loopDelay.max) },
    rssMB: ws.reduce((a, w) => a + w.generator.rssMB, 0),
    stalls: ws.flatMap((w) => w.generator.stalls).sort((a, b) => b.ms - a.ms).slice(0, 20),
  };
  return { counts, generator };
}

function mergeErrors(es: ErrorsReport[]): ErrorsReport {
  const merge = (xs: (ErrorsReport['ws'] | null)[]) => {
    const present = xs.filter((x): x is ErrorsReport['ws'] => x !== null);
    if (present.length === 0) return null;
    const kinds: Record<string, number> = {};
    for (const x of present) for (const [k, n] of Object.entries(x.kinds)) kinds[k] = (kinds[k] ?? 0) + n;
    return { total: present.reduce((a, x) => a + x.total, 0), kinds, samples: present.flatMap((x) => x.samples).slice(0, 12) };
  };
  return {
    ws: merge(es.map((e) => e.ws))!,
    rest: merge(es.map((e) => e.rest)),
    completed: es.reduce((a, e) => a + e.completed, 0),
    restCompleted: es.reduce((a, e) => a + e.restCompleted, 0),
  };
}

/** Asks a child to end (`ask`) and kills it when it is still there after `ms`. */
async function stopChild(c: ChildRpc, ask: () => unknown, ms: number): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  await Promise.resolve()
    .then(ask)
    .catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([c.exited, new Promise<void>((resolve) => (timer = setTimeout(() => resolve(void c.child.kill()), ms)))]);
  clearTimeout(timer);
}

/** A free TCP port on loopback (a server process announces it before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------
// the table

const r2 = (x: number) => Math.round(x * 100) / 100;
const int = (n: number) => Math.round(n).toLocaleString('en');

function p2Max(rooms: number): number {
  return (P2_P99.find((l) => rooms <= l.rooms) ?? P2_P99[P2_P99.length - 1]!).max;
}

function report(s: Settings, hit: KindResult, bare: KindResult | undefined): BenchResult {
  const figures: Figure[] = [];
  const notes: string[] = [];
  const enforced = !s.smoke;
  const bareLevel = (rooms: number) => bare?.levels.find((l) => l.rooms === rooms);
  const bareLine = (label: string, f: Omit<Figure, 'label'>) => figures.push({ label: `  bare Colyseus room: ${label}`, ...f });
  const perAction = (l: LevelResult) => (l.window.counts.actions > 0 ? l.server.cpuMs / l.window.counts.actions : NaN);

  for (const l of hit.levels) {
    const b = bareLevel(l.rooms);
    const atP1 = l.rooms >= P1_ROOMS;
    const lat = percentiles([...l.window.counts.latencies]);
    const p2Defined = l.rooms <= P2_P99[P2_P99.length - 1]!.rooms;
    const tag = `${int(l.rooms)} rooms`;
    figures.push({
      label: `${tag} (${int(l.rooms * 6)} clients): move → last client (WS)`,
      unit: 'ms',
      stats: lat,
      budget: { id: 'P2', stat: 'p99', max: p2Max(l.rooms), enforced: enforced && p2Defined },
      note: `${int(l.window.counts.actions)} moves in ${(l.server.wallMs / 1000).toFixed(0)} s`,
    });
    figures.push({ label: `${tag}: same, median`, unit: 'ms', value: r2(lat.p50), budget: { id: 'P2', stat: 'value', max: P2_P50, enforced } });
    if (b) {
      const bl = percentiles([...b.window.counts.latencies]);
      bareLine(`move → last client`, { unit: 'ms', stats: bl, note: `${int(b.window.counts.actions)} moves` });
    }
    // P1, of the one server or of each process (its tables' moves only), judged against the budgets at the total room count
    const genPerMove = generatorPerMove(l);
    const p1 = (who: string, m: ServerMeter, actions: number): Figure[] => [
      {
        label: `${tag}: ${who}server CPU per accepted move`,
        unit: 'ms',
        value: Math.round((actions > 0 ? m.cpuMs / actions : NaN) * 1000) / 1000,
        budget: { id: 'P1', stat: 'value', max: P1_CPU_PER_ACTION, enforced: enforced && atP1 },
        note: `${who ? `${int(m.rooms)} rooms, ${int(m.clients)} clients; ` : ''}server ${m.cpuPercent.toFixed(1)} % of a core at ${(actions / (m.wallMs / 1000)).toFixed(0)} moves/s, ${cpuSplit(m, actions)}; ${sentText(m, actions)}`,
      },
      {
        label: `${tag}: ${who}same ÷ the generators' CPU per move`,
        unit: '×',
        value: Math.round((actions > 0 ? m.cpuMs / actions / genPerMove : NaN) * 100) / 100,
        note: `generators ${genPerMove.toFixed(3)} ms per move in the same window; a slow machine raises both, not their ratio (no budget: it tells a slow machine from a costlier server)`,
      },
      {
        label: `${tag}: ${who}server event-loop delay`,
        unit: 'ms',
        stats: m.loopDelay,
        budget: { id: 'P1', stat: 'p99', max: P1_LOOP_P99, enforced: enforced && atP1 },
        note: `GC ${int(m.gcMs)} ms in ${m.gcCount} pauses, longest ${m.gcMaxMs.toFixed(1)} ms`,
      },
      {
        label: `${tag}: ${who}server RSS (peak)`,
        unit: 'MB',
        value: Math.round(m.rssMB),
        budget: { id: 'P1', stat: 'value', max: P1_RSS, enforced: enforced && atP1 },
        note: `heap ${m.heapUsedMB.toFixed(0)} of ${m.heapTotalMB.toFixed(0)} MB (${heapSpacesText(m.heapSpacesMB)}), external ${m.externalMB.toFixed(0)} MB; at the end anon ${m.rssAnonMB?.toFixed(0)}, file ${m.rssFileMB?.toFixed(0)}, shmem ${m.rssShmemMB?.toFixed(0)} MB`,
      },
    ];
    if (s.processes === 1) {
      const [cpu, ratio, loop, rss] = p1('', l.server, l.window.counts.actions);
      figures.push(cpu!, ratio!);
      if (b) bareLine('CPU per move', { unit: 'ms', value: Math.round(perAction(b) * 1000) / 1000, note: `${b.server.cpuPercent.toFixed(1)} % of a core at ${(b.window.counts.actions / (b.server.wallMs / 1000)).toFixed(0)} moves/s, ${cpuSplit(b.server, b.window.counts.actions)}; ${sentText(b.server, b.window.counts.actions)}; ${(perAction(b) / generatorPerMove(b)).toFixed(2)} × its generators' CPU per move` });
      figures.push(loop!);
      if (b) bareLine('event-loop delay', { unit: 'ms', stats: b.server.loopDelay, note: `GC ${int(b.server.gcMs)} ms, longest ${b.server.gcMaxMs.toFixed(1)} ms` });
      figures.push(rss!);
      if (b) bareLine('RSS (peak)', { unit: 'MB', value: Math.round(b.server.rssMB), note: `heap ${b.server.heapUsedMB.toFixed(0)} of ${b.server.heapTotalMB.toFixed(0)} MB, external ${b.server.externalMB.toFixed(0)} MB; anon ${b.server.rssAnonMB?.toFixed(0)}, file ${b.server.rssFileMB?.toFixed(0)} MB` });
    } else {
      for (const [p, m] of l.servers.entries()) figures.push(...p1(`process ${PROCESS_NAMES[p]}: `, m, processActions(l, p)));
    }
    const gm = l.window.generator;
    notes.push(
      `${tag}: generator${s.generators > 1 ? `s (${s.generators} processes)` : ''} ${gm.cpuPercent.toFixed(0)} % of a core, loop p99 ${gm.loopDelay.p99.toFixed(1)} / max ${gm.loopDelay.max.toFixed(0)} ms, heap ${gm.heapUsedMB.toFixed(0)} MB, longest GC ${gm.gcMaxMs.toFixed(0)} ms; ` +
        `machine ${gm.machineBusyCores?.toFixed(2) ?? '?'} of ${availableParallelism()} cores busy; moves ${moveText(l.window.counts.moves)}; ` +
        `${l.window.counts.busy} ticks waited on an unseen move; ${l.window.counts.completed} games completed in the window`,
    );
    const byKind = Object.entries(l.window.counts.byKind)
      .map(([k, xs]) => `${k} ${percentiles([...(xs ?? [])]).p99.toFixed(1)}`)
      .join(', ');
    const first = percentiles([...l.window.counts.first]);
    notes.push(`${tag}: send → FIRST client p50 ${first.p50.toFixed(2)} / p99 ${first.p99.toFixed(2)} ms; p99 by move (ms): ${byKind}`);
    notes.push(`${tag}: ${stallText([...l.servers.map((m, p) => ({ name: l.servers.length > 1 ? `process ${PROCESS_NAMES[p]}` : 'server', meter: m })), { name: 'generators', meter: gm }])}`);
    if (b) notes.push(`  bare ${tag}: generator${s.generators > 1 ? 's' : ''} ${b.window.generator.cpuPercent.toFixed(0)} % of a core, loop p99 ${b.window.generator.loopDelay.p99.toFixed(1)} ms, machine ${b.window.generator.machineBusyCores?.toFixed(2) ?? '?'} cores busy`);
  }

  // P4: every join of the run (the ramp of each level)
  const joins = percentiles([...hit.joins]);
  figures.push({
    label: `join at ${s.joinRate}/s: matchmaking + WebSocket + first state`,
    unit: 'ms',
    stats: joins,
    budget: { id: 'P4', stat: 'p99', max: P4_P99, enforced: enforced && s.joinRate >= 50 },
    note:
      `while the rooms already seated play; matchmaking request p50 ${percentiles([...hit.joinHttp]).p50.toFixed(1)} / p99 ${percentiles([...hit.joinHttp]).p99.toFixed(1)} ms` +
      (hit.crossJoins.length > 0 ? `; ${int(hit.crossJoins.length)} joins through the other process: p50 ${percentiles([...hit.crossJoins]).p50.toFixed(1)} / p99 ${percentiles([...hit.crossJoins]).p99.toFixed(1)} ms` : ''),
  });
  if (bare) bareLine('join', { unit: 'ms', stats: percentiles([...bare.joins]) });

  // P5
  if (hit.reconnect) {
    figures.push({
      label: 'reconnect after a dropped socket (SDK reconnection)',
      unit: 'ms',
      stats: percentiles([...hit.reconnect.times]),
      budget: { id: 'P5', stat: 'p99', max: P5_P99, enforced },
      note: `client socket destroyed (no closing handshake) under the ${int(hit.levels.at(-1)?.rooms ?? 0)}-room load; the SDK waits 200 ms before its first try; reconnected at try ${Object.entries(hit.reconnect.attempts).map(([a, n]) => `${a}: ${n}`).join(', ')}`,
    });
    figures.push({ label: `reconnects that failed within the ${GRACE_MS / 1000} s window`, unit: '', value: hit.reconnect.failed, budget: { id: 'P5', stat: 'value', max: 0 } });
  }

  // P3
  if (hit.rest) {
    const w = hit.rest.window.counts;
    figures.push({
      label: `REST move → every SSE subscriber (${hit.rest.tables} games × 6 streams)`,
      unit: 'ms',
      stats: percentiles([...w.latencies]),
      budget: { id: 'P3', stat: 'p99', max: P3_P99, enforced },
      note: `${(w.actions / s.restSeconds).toFixed(0)} moves/s for ${s.restSeconds} s`,
    });
    figures.push({ label: 'REST move: request → response', unit: 'ms', stats: percentiles([...w.responses]) });
    figures.push({
      label: 'REST run: server event-loop delay',
      unit: 'ms',
      stats: hit.rest.server.loopDelay,
      note: `server ${hit.rest.server.cpuPercent.toFixed(1)} % of a core, ${(hit.rest.server.cpuMs / Math.max(1, w.actions)).toFixed(3)} ms per move`,
    });
    notes.push(`REST: moves ${moveText(w.moves)}; ${w.completed} games completed in the window; generator ${hit.rest.window.generator.cpuPercent.toFixed(0)} % of a core`);
  }

  // errors: never allowed, smoke or not
  const errorFigure = (who: string, e: ErrorsReport, log: ServerLog) => {
    const total = e.ws.total + (e.rest?.total ?? 0) + log.errors;
    const kinds = { ...e.ws.kinds, ...Object.fromEntries(Object.entries(e.rest?.kinds ?? {}).map(([n, c]) => [`rest ${n}`, c])), ...(log.errors ? { 'server log errors': log.errors } : {}) };
    figures.push({
      label: `${who}errors (failed joins, refused or lost moves, drops, server errors)`,
      unit: '',
      value: total,
      budget: { id: 'P1', stat: 'value', max: 0 },
      ...(total > 0 ? { note: Object.entries(kinds).map(([n, c]) => `${n} ${c}`).join(', ') } : {}),
    });
    for (const line of [...e.ws.samples, ...(e.rest?.samples ?? [])].slice(0, 8)) notes.push(`${who}error: ${line}`);
    for (const line of log.samples) notes.push(`${who}server log: ${line}`);
  };
  // several processes: each one's own (its server log, the clients of its tables)
  if (s.processes === 1) errorFigure('', hit.errors, hit.serverLogs[0]!);
  else for (const [p, log] of hit.serverLogs.entries()) errorFigure(`process ${PROCESS_NAMES[p]}: `, hit.processErrors[p]!, log);
  figures.push({
    label: 'complete games played (WebSocket + REST)',
    unit: '',
    value: hit.errors.completed + hit.errors.restCompleted,
    budget: { id: 'P1', stat: 'value', min: 1 },
    note: `goals ${s.goals.join('/')} cards; a new round starts when one ends`,
  });
  if (bare) errorFigure('bare room: ', bare.errors, bare.serverLogs[0]!);

  if (s.processes === 1) {
    notes.push(
      `server: its own process, fresh SQLite database, demo catalogue (card mode), LOG_LEVEL=warn, RATE_LIMIT_FACTOR=100 (guest creation from one address: 4,800 guests in minutes); figures from process.cpuUsage, monitorEventLoopDelay (10 ms), memoryUsage.rss`,
    );
  } else {
    const names = PROCESS_NAMES.slice(0, s.processes).join(', ');
    notes.push(
      `${s.processes} server processes (${names}), each its own process, on one fresh PostgreSQL database and one Redis (RedisPresence + RedisDriver), started one after the other (A runs the migrations and loads the demo catalogue); card mode, LOG_LEVEL=warn, RATE_LIMIT_FACTOR=100; each measures itself (process.cpuUsage, monitorEventLoopDelay (10 ms), memoryUsage.rss)`,
      `this mode measures the WebSocket load split over ${s.processes} processes: every table is created and played on its home process (tables dealt out evenly, generator i → process i mod ${s.processes}); ${s.crossSeats} of each table's 6 seats ${s.crossSeats === 1 ? 'joins' : 'join'} through another process's matchmaking (seat reserved over Redis, WebSocket to the room's process); ` +
        `P1 (CPU per accepted move of the process's own tables, event-loop delay p99, RSS peak, errors) judged per process against the one-process budgets at the total room count, P2 over all moves; P4 and P5 as in the one-process mode; the bare room and the REST/SSE run (P3) are not run (the one-process mode measures them)`,
    );
  }
  notes.push(`moves about 1 per table per second (0.75–1.25 s apart), latency = send → the last of the table's 6 clients sees the room's seq pass its previous value (state patch or event)`);
  for (const [p, log] of hit.serverLogs.entries()) if (log.warnings > 0) notes.push(`${s.processes > 1 ? `process ${PROCESS_NAMES[p]}: ` : ''}server logged ${log.warnings} warning(s)`);
  if (s.smoke) notes.push('smoke run: timing budgets shown but not enforced; errors and complete games still count');
  if (!s.bare && s.processes === 1) notes.push('bare room skipped (--no-bare)');
  const what =
    s.processes === 1
      ? `(P1, P2, P4, P5); REST + SSE at ${s.restRate} moves/s (P3)${s.bare ? '; a bare Colyseus room under the same load' : ''}`
      : `split over ${s.processes} server processes on PostgreSQL + Redis (P1 per process, P2, P4, P5)`;
  return {
    title: `load: ${s.levels.map(int).join(' then ')} rooms × 6 WebSocket clients at ~1 move/room/s, joins at ${s.joinRate}/s ${what}`,
    figures,
    notes,
    data: {
      settings: s,
      hitline: summary(hit),
      ...(bare ? { bare: summary(bare) } : {}),
    },
  };
}

/**
 * The generators' CPU per move of a level's window (ms; their CPU over the
 * server's measuring time, which their windows match). They do the same work in
 * every run as long as the server sends the same per move, so it moves with the
 * machine's speed: the server's CPU per move divided by it tells a slow machine
 * from a costlier server. A server that sent more per move would raise both (the
 * frames and bytes per move are printed beside it).
 */
function generatorPerMove(l: LevelResult): number {
  return ((l.window.generator.cpuPercent / 100) * l.server.wallMs) / Math.max(1, l.window.counts.actions);
}

/** Two overlapping parts of a move's CPU: the kernel's (all threads), and the main thread's (the rest ran on V8's and libuv's helper threads). */
function cpuSplit(m: ServerMeter, actions: number): string {
  const n = Math.max(1, actions);
  return `per move ${(m.cpuSystemMs / n).toFixed(3)} ms of it in the kernel, ${(m.mainThreadCpuMs / n).toFixed(3)} ms of it on the main thread`;
}

/** What the server sent per move over its WebSockets. */
function sentText(m: ServerMeter, actions: number): string {
  const n = Math.max(1, actions);
  const calls = m.writeCalls !== undefined ? `, ${(m.writeCalls / n).toFixed(1)} write calls` : '';
  const wakes = m.wakeups !== undefined ? `, ${(m.wakeups / n).toFixed(2)} wake-ups of the main thread` : '';
  return `sent ${(m.wsFrames / n).toFixed(1)} frames, ${(m.wsBytes / n / 1024).toFixed(1)} KB per move (patches ${(m.wsPatchBytes / n / 1024).toFixed(1)} KB)${calls}${wakes}`;
}

/** Moves of process p's tables in the window: those of its generators (generator i drives process i mod processes). */
function processActions(l: LevelResult, p: number): number {
  return l.windows.filter((_, i) => i % l.servers.length === p).reduce((a, w) => a + w.counts.actions, 0);
}

function moveText(moves: Partial<Record<string, number>>): string {
  return Object.entries(moves)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** What goes to the JSON besides the table: per level figures without raw samples. */
function summary(k: KindResult) {
  const p = (xs: number[]): Percentiles => percentiles([...xs]);
  return {
    levels: k.levels.map((l) => ({
      rooms: l.rooms,
      join_seconds: l.joinSeconds,
      joins: p(l.joins),
      latency: p(l.window.counts.latencies),
      actions: l.window.counts.actions,
      moves: l.window.counts.moves,
      completed: l.window.counts.completed,
      ...(l.servers.length === 1
        ? { server: l.server }
        : {
            // several processes: each one's figures, with the moves of its own tables
            processes: l.servers.map((m, i) => {
              const actions = processActions(l, i);
              return { process: PROCESS_NAMES[i], rooms: m.rooms, clients: m.clients, actions, cpu_ms_per_move: actions > 0 ? m.cpuMs / actions : null, server: m };
            }),
          }),
      generator: l.window.generator,
    })),
    reconnect: k.reconnect ? { ...p(k.reconnect.times), failed: k.reconnect.failed } : undefined,
    rest: k.rest ? { tables: k.rest.tables, latency: p(k.rest.window.counts.latencies), responses: p(k.rest.window.counts.responses), server: k.rest.server, moves: k.rest.window.counts.moves } : undefined,
    errors: k.errors,
    ...(k.serverLogs.length === 1
      ? { server_log: k.serverLogs[0] }
      : {
          cross_joins: p(k.crossJoins),
          processes: k.serverLogs.map((log, i) => ({ process: PROCESS_NAMES[i], errors: k.processErrors[i], server_log: log })),
        }),
  };
}
