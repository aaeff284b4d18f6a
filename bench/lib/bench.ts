import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What a benchmark module hands back to the runner (`bench/run.ts`). A benchmark
 * is a file `bench/<name>.ts` exporting `run(args): Promise<BenchResult>`; it
 * measures and states its budgets, the runner prints, saves and judges. Budgets
 * live beside the figures they judge, so a new benchmark (load, SSE, build size,
 * Lighthouse, audio, idle rooms) needs no change to the runner.
 */

/** p50, p95, p99 and max of a sample (nearest rank), and its size. */
export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Which number of a figure a budget judges. */
export type Stat = 'p50' | 'p95' | 'p99' | 'max' | 'value';

/** A limit from `docs/budgets.md`: the figure's `stat` must stay within `max` (and/or reach `min`). */
export interface Budget {
  /** The budget's name in docs/budgets.md, e.g. "P6". */
  id: string;
  stat: Stat;
  max?: number;
  min?: number;
  /**
   * false: shown and judged, but a breach does not fail the run. For smoke runs,
   * whose few samples on a shared box prove that the path works, not its speed.
   */
  enforced?: boolean;
}

/** One line of a benchmark's table: a distribution or a single value, with its budget. */
export interface Figure {
  label: string;
  /** Unit of every number of the line ("ms", "MB", "%", "" for counts). */
  unit: string;
  stats?: Percentiles;
  value?: number;
  budget?: Budget;
  /** Context that helps read the line (e.g. how many hits the queries matched). */
  note?: string;
}

export interface BenchResult {
  /** One line saying what was measured, at which size. */
  title: string;
  figures: Figure[];
  /** Lines printed under the table (machine state, what was left out and why). */
  notes?: string[];
  /** Anything else worth keeping in the JSON file (raw settings, counts). */
  data?: Record<string, unknown>;
}

/** The contract of `bench/<name>.ts`. `args` are the command-line arguments after the benchmark names. */
export type BenchModule = { run(args: string[]): Promise<BenchResult> };

/** Nearest-rank percentiles; the sample is sorted in place. */
export function percentiles(sample: number[]): Percentiles {
  if (sample.length === 0) return { n: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  sample.sort((a, b) => a - b);
  const at = (p: number) => sample[Math.min(sample.length - 1, Math.max(0, Math.ceil((p / 100) * sample.length) - 1))]!;
  return { n: sample.length, p50: at(50), p95: at(95), p99: at(99), max: sample[sample.length - 1]! };
}

/** The number a budget judges. */
export function statOf(figure: Figure, stat: Stat): number | undefined {
  return stat === 'value' ? figure.value : figure.stats?.[stat];
}

/** 'ok', 'broken' or 'none' (no budget, or nothing to judge it on counts as broken). */
export function verdict(figure: Figure): 'ok' | 'broken' | 'none' {
  const b = figure.budget;
  if (!b) return 'none';
  const v = statOf(figure, b.stat);
  if (v === undefined || Number.isNaN(v)) return 'broken';
  return (b.max === undefined || v <= b.max) && (b.min === undefined || v >= b.min) ? 'ok' : 'broken';
}

/** The machine's 1/5/15-minute load averages, for the notes: the box is shared, and a figure means little without them. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** What a process spent over a window: CPU (% of one core), event-loop delay, peak RSS. */
export interface ProcessMeter {
  cpuPercent: number;
  /** Cores the whole machine kept busy meanwhile (every process, ours included; Linux only). */
  machineBusyCores: number | undefined;
  /** Event-loop delay in ms: how much later than due the sampling timer ran. */
  loopDelay: Percentiles;
  rssMB: number;
  /** Event-loop stalls over STALL_MS: when (epoch ms, at their end) and how long (ms), longest first, at most 20. */
  stalls: { at: number; ms: number }[];
}

/** A turn of the event loop longer than this counts as a stall (ProcessMeter.stalls). */
export const STALL_MS = 40;

/**
 * Starts measuring this process (the server, when it runs in the benchmark's
 * process); `stop()` returns the figures since the start. The event-loop
 * histogram samples every `resolutionMs` (default 1: the 10 ms default cannot tell
 * a 2 ms stall from none), and Node records the whole timer interval, so the
 * interval is taken off. A process whose CPU is judged samples less often: the
 * 1 ms timer wakes it up to 1,000 times a second, which on these machines cost a
 * process serving 400 messages a second about 10 ms of CPU per second
 * (micro-benchmark: 79 ms/s without the histogram, 89 with 1 ms, 78 with 10 ms).
 */
export function meterProcess(opts: { resolutionMs?: number } = {}): { stop(): ProcessMeter } {
  const resolution = opts.resolutionMs ?? 1;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  const cpu = process.cpuUsage();
  const machine = machineTicks();
  const wall = performance.now();
  let rss = process.memoryUsage.rss();
  const rssTimer = setInterval(() => (rss = Math.max(rss, process.memoryUsage.rss())), 100);
  // when the stalls happen: stalls of two processes at the same moment point at the machine
  const stalls: { at: number; ms: number }[] = [];
  let last = performance.now();
  const stallTimer = setInterval(() => {
    const now = performance.now();
    if (now - last > STALL_MS + 10) stalls.push({ at: Date.now(), ms: now - last - 10 });
    last = now;
  }, 10);
  return {
    stop() {
      histogram.disable();
      clearInterval(rssTimer);
      clearInterval(stallTimer);
      const used = process.cpuUsage(cpu);
      const machineNow = machineTicks();
      const ms = (ns: number) => Math.max(0, ns / 1e6 - resolution);
      return {
        cpuPercent: ((used.user + used.system) / 1000 / (performance.now() - wall)) * 100,
        machineBusyCores:
          machine && machineNow && machineNow.total > machine.total
            ? ((machineNow.busy - machine.busy) / (machineNow.total - machine.total)) * availableParallelism()
            : undefined,
        loopDelay: { n: histogram.count, p50: ms(histogram.percentile(50)), p95: ms(histogram.percentile(95)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
        rssMB: Math.max(rss, process.memoryUsage.rss()) / (1024 * 1024),
        stalls: stalls.sort((a, b) => b.ms - a.ms).slice(0, 20),
      };
    },
  };
}

/** Busy and total CPU ticks of the machine from /proc/stat, or undefined where there is none. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...: idle and iowait are the only idle ones
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - fields[3]! - fields[4]!, total };
  } catch {
    return undefined;
  }
}
