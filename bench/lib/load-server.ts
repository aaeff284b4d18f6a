/**
 * The server under test of the load benchmark, in a process of its own (spawned
 * by bench/load.ts): Hitline (`LOAD_SERVER_KIND=hitline`: the real server on a
 * fresh SQLite database with the demo catalogue) or the bare Colyseus room
 * (`bare`). It measures itself on request (`meter-start` / `meter-stop`): CPU
 * from process.cpuUsage(), event-loop delay from monitorEventLoopDelay, peak RSS
 * from process.memoryUsage.rss(), and garbage-collection pauses, so the figures
 * are the server's own, not the machine's.
 *
 * `LOAD_SERVER_CONFIG` (JSON, Hitline only) overrides configuration keys of
 * server/config.ts: the two-process mode of bench/load.ts gives each process
 * DATABASE_URL (PostgreSQL), REDIS_URL, PORT, PUBLIC_ADDRESS, PROCESS_NAME and
 * AUDIO_WORKER this way (the SQLite file is then unused).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { matchMaker } from '@colyseus/core';
import { WebSocketClient } from '@colyseus/ws-transport';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/index.ts';
import { meterProcess, type ProcessMeter } from './bench.ts';
import { startBareServer } from './bare-room.ts';
import { serve } from './load-ipc.ts';

export type ServerKind = 'hitline' | 'bare';

/** What the server reports for one measured window. */
export interface ServerMeter extends ProcessMeter {
  /** CPU time (user + system) and wall time of the window, ms. */
  cpuMs: number;
  wallMs: number;
  /**
   * Two overlapping parts of `cpuMs`: the kernel's share of all threads (system
   * calls: socket and file writes; Linux splits user and system time by sampling),
   * and the main thread's CPU, user and system (`cpuMs` minus it ran on GC
   * helpers, the compiler and libuv threads).
   */
  cpuSystemMs: number;
  mainThreadCpuMs: number;
  /** Garbage collection over the window: pauses summed, longest, count. */
  gcMs: number;
  gcMaxMs: number;
  gcCount: number;
  heapUsedMB: number;
  /** V8 heap reserved (used + free) and memory outside it (Buffers, native objects), at the end. */
  heapTotalMB: number;
  externalMB: number;
  /** V8's heap spaces at the end, MB committed: new (young generation), old, code, large objects, the rest. */
  heapSpacesMB: Record<'new' | 'old' | 'code' | 'large' | 'other', number>;
  /** RSS by kind at the end (Linux): anonymous memory, mapped files (the node binary), shared memory (SQLite's WAL index). */
  rssAnonMB?: number;
  rssFileMB?: number;
  rssShmemMB?: number;
  /** Colyseus messages (one WebSocket frame each) and payload bytes the server sent to its WebSocket clients over the window. */
  wsFrames: number;
  wsBytes: number;
  /** Of which state patches (the rest: room messages such as Hitline's `event`). */
  wsPatchBytes: number;
  /** Write system calls of the process over the window (Linux /proc/self/io `syscw`). */
  writeCalls?: number;
  /** Times the main thread went to sleep and woke up again (its voluntary context switches). */
  wakeups?: number;
  rooms: number;
  clients: number;
}

export interface ServerReady {
  port: number;
  pid: number;
}

const kind = process.env.LOAD_SERVER_KIND as ServerKind;
/** Folder for a V8 CPU profile of each measured window (`--profile DIR` of bench/load.ts). */
const profileDir = process.env.LOAD_PROFILE_DIR;
let profiler: Session | undefined;
let windowNo = 0;

let port: number;
let close: () => Promise<void>;
if (kind === 'hitline') {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-load-'));
  const server = await startServer(
    loadConfig({
      // never the internet: a yt-dlp on this machine's PATH stays unused
      YTDLP_PATH: 'off',
      // nor MusicBrainz or Wikidata: no year evidence is looked up
      EVIDENCE_SOURCES: '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'load.sqlite')}`,
      // warnings and errors reach the benchmark (stdout, pino JSON lines); request lines do not
      LOG_LEVEL: 'warn',
      // 4,800 guests from one address in a few minutes: the per-IP guest limit is raised (not off)
      RATE_LIMIT_FACTOR: process.env.LOAD_RATE_LIMIT_FACTOR ?? '100',
      CLIENT_DIR: join(dir, 'no-client'),
      AUDIO_DIR: join(dir, 'audio'),
      // the demo catalogue (assets/demo-hits.yml) is the default
      ...(JSON.parse(process.env.LOAD_SERVER_CONFIG ?? '{}') as Record<string, string>),
    }),
  );
  port = server.port;
  close = async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
} else if (kind === 'bare') {
  const bare = await startBareServer();
  port = bare.port;
  close = bare.close;
} else {
  throw new Error(`LOAD_SERVER_KIND must be hitline or bare, got ${String(kind)}`);
}

// Counts what the server sends to its WebSocket clients: every Colyseus message
// passes through WebSocketClient.raw() (Hitline hands a room step's messages to the
// socket in one write, server/transport.ts); a counter and an addition per message,
// nothing the figures could notice.
const sent = { frames: 0, bytes: 0, patchBytes: 0 };
const ROOM_STATE_PATCH = 15; // Colyseus protocol: the first byte of a state patch frame
const clientRaw = WebSocketClient.prototype.raw;
WebSocketClient.prototype.raw = function (this: WebSocketClient, data: Uint8Array, ...rest: unknown[]) {
  sent.frames++;
  sent.bytes += data.byteLength;
  if (data[0] === ROOM_STATE_PATCH) sent.patchBytes += data.byteLength;
  return (clientRaw as (...a: unknown[]) => void).call(this, data, ...rest);
} as typeof clientRaw;

let meter: ReturnType<typeof meterProcess> | undefined;
let cpu0 = process.cpuUsage();
let mainCpu0 = process.threadCpuUsage();
let syscw0: number | undefined;
let wakes0: number | undefined;
let wall0 = 0;
const gc = { ms: 0, max: 0, count: 0 };
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.max = Math.max(gc.max, e.duration);
    gc.count++;
  }
});

serve({ port, pid: process.pid } satisfies ServerReady, {
  'meter-start': async () => {
    if (profileDir) {
      profiler ??= new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      // every allocation site, also of objects collected since (what drives the GC)
      await profiler.post('HeapProfiler.enable');
      await profiler.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    gc.ms = gc.max = gc.count = 0;
    gcObserver.observe({ entryTypes: ['gc'] });
    // P1 judges this process's CPU: a 10 ms event-loop histogram (enough for a p99
    // budget of 20 ms) instead of one waking it up every millisecond
    meter = meterProcess({ resolutionMs: 10 });
    cpu0 = process.cpuUsage();
    mainCpu0 = process.threadCpuUsage();
    wall0 = performance.now();
    sent.frames = sent.bytes = sent.patchBytes = 0;
    syscw0 = writeCalls();
    wakes0 = wakeups();
  },
  'meter-stop': async (): Promise<ServerMeter> => {
    if (!meter) throw new Error('meter-stop without meter-start');
    const m = meter.stop();
    const cpu = process.cpuUsage(cpu0);
    const mainCpu = process.threadCpuUsage(mainCpu0);
    const wallMs = performance.now() - wall0;
    meter = undefined;
    gcObserver.disconnect();
    if (profiler && profileDir) {
      const { profile } = await profiler.post('Profiler.stop');
      const { profile: allocations } = await profiler.post('HeapProfiler.stopSampling');
      profiler.disconnect();
      const name = `load-${kind}-window${++windowNo}-${process.pid}`;
      writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
      writeFileSync(join(profileDir, `${name}.heapprofile`), JSON.stringify(allocations));
    }
    return {
      ...m,
      cpuMs: (cpu.user + cpu.system) / 1000,
      cpuSystemMs: cpu.system / 1000,
      mainThreadCpuMs: (mainCpu.user + mainCpu.system) / 1000,
      wallMs,
      gcMs: gc.ms,
      gcMaxMs: gc.max,
      gcCount: gc.count,
      heapUsedMB: process.memoryUsage().heapUsed / (1024 * 1024),
      heapTotalMB: process.memoryUsage().heapTotal / (1024 * 1024),
      externalMB: process.memoryUsage().external / (1024 * 1024),
      heapSpacesMB: heapSpaces(),
      ...rssParts(),
      wsFrames: sent.frames,
      wsBytes: sent.bytes,
      wsPatchBytes: sent.patchBytes,
      ...(syscw0 !== undefined ? { writeCalls: (writeCalls() ?? NaN) - syscw0 } : {}),
      ...(wakes0 !== undefined ? { wakeups: (wakeups() ?? NaN) - wakes0 } : {}),
      rooms: matchMaker.stats.local.roomCount,
      clients: matchMaker.stats.local.ccu,
    };
  },
  /** Diagnosis (`--profile DIR`): a heap snapshot of the server now. */
  'heap-snapshot': () => (profileDir ? writeHeapSnapshot(join(profileDir, `load-${kind}-${process.pid}-${Date.now()}.heapsnapshot`)) : null),
  'stop': async () => {
    await close();
    // after the reply: a --cpu-prof profile is written on a normal exit
    setTimeout(() => process.exit(0), 50);
  },
});

/** RssAnon, RssFile, RssShmem of /proc/self/status in MB (empty where there is none). */
function rssParts(): { rssAnonMB?: number; rssFileMB?: number; rssShmemMB?: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
    return { rssAnonMB: kb('RssAnon'), rssFileMB: kb('RssFile'), rssShmemMB: kb('RssShmem') };
  } catch {
    return {};
  }
}

/** V8's heap spaces now, MB committed, in groups. */
function heapSpaces(): ServerMeter['heapSpacesMB'] {
  const out = { new: 0, old: 0, code: 0, large: 0, other: 0 };
  for (const space of getHeapSpaceStatistics()) {
    const group = space.space_name === 'new_space' ? 'new' : space.space_name === 'old_space' ? 'old' : space.space_name.startsWith('code') ? 'code' : space.space_name.includes('large') ? 'large' : 'other';
    out[group] += space.space_size / (1024 * 1024);
  }
  return out;
}

/** Write-like system calls so far (/proc/self/io), undefined where there is none. */
function writeCalls(): number | undefined {
  try {
    return Number(/^syscw:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/**
 * The main thread's voluntary context switches so far (/proc, undefined where there
 * is none): each is a sleep in the event loop's poll and a wake-up after it.
 */
function wakeups(): number | undefined {
  try {
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}
