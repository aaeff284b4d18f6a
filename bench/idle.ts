/**
 * Idle-rooms benchmark: budget P12 of docs/budgets.md (memory per idle
 * game room ≤ 50 kB: thousands of parked games must not matter).
 *
 *   npm run bench -- idle [--smoke] [--rooms N] [--seconds S] [--cpu-prof DIR]
 *
 * Starts the real server in its own process (--expose-gc; fresh database with
 * the demo catalogue), makes one guest per game, then has each guest create one
 * Public game through `POST /api/games`, as the lobby's "create" does: an Open
 * game room with its creator seated, listed in the lobby. Nobody connects to the
 * rooms. Memory is the server's heapUsed and RSS after full garbage
 * collections, before and after the games, divided by their number (kB = 1,000
 * bytes); the guests' sessions exist before the first measurement, so only the
 * rooms are counted. Then the server idles with all of them for a while, and
 * its CPU and event-loop delay show what parked games cost over time.
 *
 * `--smoke` (200 games) checks the path; its budgets are shown but not enforced.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { loadAverage, percentiles, type BenchResult, type Figure } from './lib/bench.ts';
import { guestCookie, startServerProcess, type ServerProcess } from './lib/server-process.ts';

/** P12, kB per room. */
const ROOM_MAX_KB = 50;
/** Requests in flight at once while setting up. */
const CONCURRENCY = 8;
/** Games made (and measured as part of the baseline) before the measured ones: JIT, caches. */
const WARMUP = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (n: number): string => Math.round(n).toLocaleString('en');
const round1 = (n: number): number => Math.round(n * 10) / 10;
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

export async function run(args: string[]): Promise<BenchResult> {
  const { values } = parseArgs({
    args,
    options: { smoke: { type: 'boolean' }, rooms: { type: 'string' }, seconds: { type: 'string' }, 'cpu-prof': { type: 'string' } },
  });
  const smoke = values.smoke ?? false;
  const enforced = !smoke;
  const rooms = values.rooms !== undefined ? Number(values.rooms) : smoke ? 200 : 2_000;
  const idleSeconds = values.seconds !== undefined ? Number(values.seconds) : smoke ? 2 : 10;
  if (!Number.isInteger(rooms) || rooms < 1) throw new Error(`--rooms must be a positive integer, got "${values.rooms}"`);
  if (!(idleSeconds > 0)) throw new Error(`--seconds must be positive, got "${values.seconds}"`);
  const figures: Figure[] = [];
  const notes: string[] = [];

  const server = await startServerProcess(values['cpu-prof'] ? { cpuProfDir: values['cpu-prof'] } : {});
  try {
    // every creator's session first: they are not what P12 measures
    const creators = await pool(WARMUP + rooms, () => guestCookie(server.base));
    const create = (cookie: string) => createGame(server, cookie);
    await pool(WARMUP, (i) => create(creators[i]!));
    const before = await server.memory();
    // in two halves: the second shows what one more room costs once the heap's
    // one-time growth (request garbage of the burst) is behind
    const half = Math.floor(rooms / 2);
    const t0 = performance.now();
    const latencies = await pool(half, (i) => create(creators[WARMUP + i]!));
    const createMs1 = performance.now() - t0;
    await sleep(500);
    const middle = await server.memory();
    const t1 = performance.now();
    latencies.push(...(await pool(rooms - half, (i) => create(creators[WARMUP + half + i]!))));
    const createMs = createMs1 + performance.now() - t1;
    const { rooms: open } = await server.stats();
    await sleep(500);
    const after = await server.memory();
    const perRoom = (k: keyof NodeJS.MemoryUsage, from = before, n = rooms) => (after[k] - from[k]) / n / 1000;
    const held = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
    const heldPerRoom = (from = before, n = rooms) => (held(after) - held(from)) / n / 1000;

    // parked: nothing happens; what does the server spend meanwhile?
    await server.meterStart();
    await sleep(idleSeconds * 1000);
    const idle = await server.meterStop();

    figures.push(
      { label: 'open game rooms in the server process', unit: '', value: open, budget: { id: 'P12', stat: 'value', min: rooms + WARMUP, enforced }, note: `${int(WARMUP)} warm-up games included` },
      {
        label: 'memory per idle room: JS heap + external after GC',
        unit: 'kB',
        value: round1(heldPerRoom()),
        budget: { id: 'P12', stat: 'value', max: ROOM_MAX_KB, enforced },
        note: `heap used ${round1(perRoom('heapUsed'))} + external ${round1(perRoom('external'))} (array buffers ${round1(perRoom('arrayBuffers'))}); second half ${round1(heldPerRoom(middle, rooms - half))} kB per room`,
      },
      {
        label: 'memory per idle room: RSS after GC',
        unit: 'kB',
        value: round1(perRoom('rss')),
        // judged on what the program holds (heap + buffers); RSS also keeps V8's and the allocator's high-water marks
        budget: { id: 'P12', stat: 'value', max: ROOM_MAX_KB, enforced: false },
        note: `RSS ${mb(before.rss)} → ${mb(middle.rss)} → ${mb(after.rss)} MB; second half ${round1(perRoom('rss', middle, rooms - half))} kB per room; V8 heap committed ${round1(perRoom('heapTotal'))} kB per room`,
      },
      { label: 'POST /api/games (create a game)', unit: 'ms', stats: percentiles(latencies), note: `${CONCURRENCY} in flight; ${int((rooms / createMs) * 1000)} games/s` },
      {
        label: `server CPU while ${int(open)} rooms idle for ${idleSeconds} s`,
        unit: '% of a core',
        value: round1(idle.cpuPercent),
        note: idle.machineBusyCores !== undefined ? `whole machine ${idle.machineBusyCores.toFixed(2)} of ${availableParallelism()} cores busy` : '',
      },
      { label: 'server event-loop delay while idle', unit: 'ms', stats: idle.loopDelay, note: 'monitorEventLoopDelay, sampled every 1 ms' },
    );
    notes.push(
      'games: Public, Open, one creator each (a guest), default settings with every demo pack; made through POST /api/games, nobody connected to them',
      `load average at the end: ${loadAverage()}`,
    );
    if (values['cpu-prof']) notes.push(`server CPU profile written to ${values['cpu-prof']}`);
    if (smoke) notes.push('smoke run: budgets shown but not enforced');
  } finally {
    await server.stop();
  }
  return { title: `idle: ${int(rooms)} parked game rooms (P12)`, figures, notes, data: { rooms, warmup: WARMUP, idleSeconds } };
}

/** Creates one Public game as the guest with `cookie`; resolves with the request's latency (ms). */
async function createGame(server: ServerProcess, cookie: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${server.base}/api/games`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'Public' }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 201) throw new Error(`POST /api/games answered ${res.status}: ${text.slice(0, 300)}`);
  return ms;
}

/** Runs `task(0..count-1)` with at most {@link CONCURRENCY} at once; results in index order. */
async function pool<T>(count: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  return out;
}
