/**
 * The real Hitline server in a process of its own, for benchmarks that must
 * measure the server alone (its event loop, CPU and memory) while clients run
 * elsewhere. Started by {@link startServerProcess} (bench/lib/server-process.ts)
 * with its configuration in the environment and `--expose-gc`.
 *
 * Emits `ready` ({ port, openFiles }) once listening, then answers:
 * * `memory`: process.memoryUsage() after full garbage collections;
 * * `meterStart` / `meterStop`: {@link meterProcess} (event-loop delay at 1 ms
 *   resolution, CPU, peak RSS, busy cores of the machine) and the SSE hub's
 *   fan-out turns (wall and CPU time and writes of each) between the two;
 * * `publishGlobal` { event, data }: one event onto the bus (through the presence,
 *   as a room publishes), answering the wall-clock time it was handed over;
 * * `stats`: open SSE streams and game rooms; `close`: graceful shutdown, exit.
 */
import { matchMaker } from '@colyseus/core';
import { loadConfig } from '../../server/config.ts';
import type { GlobalEventEnvelope } from '../../server/events/bus.ts';
import { startServer } from '../../server/index.ts';
import { meterProcess, type ProcessMeter } from './bench.ts';
import { emit, memoryAfterGc, openFilesLimit, serveRpc, wallNow } from './proc.ts';

export interface FanoutTurn {
  /** Wall-clock start (ms). */
  at: number;
  ms: number;
  writes: number;
  /** Main-thread CPU time of the turn (ms); null when the hub's pump could not be wrapped. */
  cpuMs: number | null;
}

/** {@link ProcessMeter} of the server over a window, and the SSE hub's fan-out turns in it. */
export interface ServerMeter extends ProcessMeter {
  turns: FanoutTurn[];
}

const server = await startServer(loadConfig(process.env));

// The hub reports every fan-out turn to `onFanoutChunk` (SseHubOptions, "for
// benchmarks") from a tick queued behind the turn's socket writes; startServer
// builds the hub without options, so the hook is set on the instance (a plain
// property: `readonly` exists for the type checker only). The turn itself is the
// hub's `pump` (run by setImmediate, read from the instance each time): wrapped
// here to take the main thread's CPU time at its start, so each turn is known by
// its wall time (what the event loop waited) and its CPU time (what the turn
// cost, without the time the machine gave to other processes).
let turns: FanoutTurn[] | null = null;
const hub = server.hub as unknown as { onFanoutChunk: (ms: number, writes: number) => void; pump?: () => void };
let turnCpu: NodeJS.CpuUsage | null = null;
const pump = hub.pump;
if (typeof pump === 'function') {
  hub.pump = () => {
    turnCpu = process.threadCpuUsage();
    pump();
  };
}
hub.onFanoutChunk = (ms, writes) => {
  const cpu = turnCpu ? process.threadCpuUsage(turnCpu) : null;
  turnCpu = null;
  turns?.push({ at: wallNow() - ms, ms, writes, cpuMs: cpu ? (cpu.user + cpu.system) / 1000 : null });
};

let meter: ReturnType<typeof meterProcess> | null = null;

async function close(): Promise<void> {
  await server.close();
  // --cpu-prof writes its profile on a normal exit only
  process.exit(0);
}
process.on('SIGTERM', () => void close());

serveRpc({
  memory: () => memoryAfterGc(),
  meterStart: () => {
    turns = [];
    meter = meterProcess();
  },
  meterStop: (): ServerMeter => {
    if (!meter) throw new Error('meterStop without meterStart');
    const result: ServerMeter = { ...meter.stop(), turns: turns ?? [] };
    meter = null;
    turns = null;
    return result;
  },
  publishGlobal: async (e: GlobalEventEnvelope) => {
    const at = wallNow();
    await server.bus.publishGlobal(e);
    return at;
  },
  stats: async () => ({ ...server.hub.stats(), rooms: (await matchMaker.query({ name: 'game' })).length }),
  // answered first, then the shutdown (which ends the process)
  close: () => void setImmediate(() => void close()),
});

emit('ready', { port: server.port, openFiles: openFilesLimit() });
