/**
 * `npm run bench -- [NAME ...] [OPTIONS]`: runs every benchmark (`bench/<name>.ts`),
 * or only the named ones, in one process each after the other; prints one table
 * per benchmark with its budgets beside the figures, writes the same as JSON to
 * `results/<name>-<time>.json`, and exits 1 when an enforced budget is broken
 * or a benchmark failed. OPTIONS (e.g. `--smoke`) go to every benchmark run.
 *
 * A benchmark is any `bench/*.ts` file but this one (helpers live in `bench/lib/`)
 * exporting `run(args): Promise<BenchResult>` (see `lib/bench.ts`).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAverage, statOf, verdict, type BenchModule, type BenchResult, type Figure } from './lib/bench.ts';

const BENCH_DIR = import.meta.dirname;
const RESULTS_DIR = join(BENCH_DIR, '..', 'results');

const available = readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => basename(f, '.ts'))
  .sort();

// leading words are benchmark names, the rest is for the benchmarks
const argv = process.argv.slice(2);
const firstOption = argv.findIndex((a) => a.startsWith('-'));
const names = firstOption === -1 ? argv : argv.slice(0, firstOption);
const options = firstOption === -1 ? [] : argv.slice(firstOption);
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (available: ${available.join(', ')})`);
  process.exit(2);
}

/** Milliseconds get two decimals below 10, one below 100; everything else is rounded sensibly too. */
function num(v: number | undefined): string {
  if (v === undefined) return '';
  if (Number.isNaN(v)) return 'n/a';
  const a = Math.abs(v);
  const digits = a === Math.trunc(a) ? 0 : a < 10 ? 2 : a < 100 ? 1 : 0;
  return v.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function budgetText(f: Figure): string {
  const b = f.budget;
  if (!b) return '';
  const unit = f.unit ? ` ${f.unit}` : '';
  const limits = [b.min !== undefined ? `≥ ${num(b.min)}${unit}` : '', b.max !== undefined ? `≤ ${num(b.max)}${unit}` : ''].filter(Boolean).join(', ');
  return `${b.id} ${b.stat === 'value' ? '' : `${b.stat} `}${limits}`;
}

function resultText(f: Figure): string {
  const v = verdict(f);
  if (v === 'none') return '';
  if (v === 'ok') return 'ok';
  return f.budget?.enforced === false ? 'over (not enforced)' : 'BROKEN';
}

/** A plain-text table; columns that are empty on every line are left out. */
function table(figures: Figure[]): string {
  const columns: { head: string; cell: (f: Figure) => string; left?: boolean }[] = [
    { head: 'measure', cell: (f) => f.label, left: true },
    { head: 'n', cell: (f) => num(f.stats?.n) },
    { head: 'p50', cell: (f) => num(f.stats?.p50) },
    { head: 'p95', cell: (f) => num(f.stats?.p95) },
    { head: 'p99', cell: (f) => num(f.stats?.p99) },
    { head: 'max', cell: (f) => num(f.stats?.max) },
    { head: 'value', cell: (f) => num(f.value) },
    { head: 'unit', cell: (f) => f.unit, left: true },
    { head: 'budget', cell: budgetText, left: true },
    { head: 'result', cell: resultText, left: true },
    { head: 'note', cell: (f) => f.note ?? '', left: true },
  ];
  const used = columns.filter((c) => figures.some((f) => c.cell(f) !== ''));
  const rows = [used.map((c) => c.head), ...figures.map((f) => used.map((c) => c.cell(f)))];
  const widths = used.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (used[i]!.left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

let failed = false;
for (const name of names.length > 0 ? names : available) {
  const started = new Date();
  const loadBefore = loadAverage();
  console.log(`\n== ${name} ${options.join(' ')}`.trimEnd());
  let result: BenchResult;
  try {
    const mod = (await import(pathToFileURL(join(BENCH_DIR, `${name}.ts`)).href)) as BenchModule;
    result = await mod.run(options);
  } catch (err) {
    console.error(`== ${name} FAILED:`, err);
    failed = true;
    continue;
  }
  const seconds = (Date.now() - started.getTime()) / 1000;
  const loadAfter = loadAverage();
  const broken = result.figures.filter((f) => verdict(f) === 'broken' && f.budget?.enforced !== false);
  if (broken.length > 0) failed = true;

  console.log(result.title);
  console.log(`load average ${loadBefore} (start) → ${loadAfter} (end); ${availableParallelism()} CPUs; Node ${process.version}; ${seconds.toFixed(1)} s\n`);
  console.log(table(result.figures));
  for (const note of result.notes ?? []) console.log(`  ${note}`);
  console.log(broken.length === 0 ? `== ${name}: every enforced budget kept` : `== ${name}: ${broken.length} budget(s) BROKEN: ${broken.map((f) => f.label).join('; ')}`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}-${started.toISOString().replaceAll(':', '-').replace(/\.\d+Z$/, 'Z')}.json`);
  const json = {
    name,
    options,
    started: started.toISOString(),
    seconds,
    node: process.version,
    cpus: availableParallelism(),
    load_average: { start: loadBefore, end: loadAfter },
    ...result,
    figures: result.figures.map((f) => ({ ...f, ...(f.budget ? { judged: statOf(f, f.budget.stat), result: verdict(f) } : {}) })),
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`   (saved ${file})`);
}
// benchmarks may leave timers or sockets of their servers behind; the verdict is all that counts now
process.exit(failed ? 1 : 0);
