/**
 * Catalogue benchmark: budgets P6 (search over 100,000 hits) and P8 (import and
 * export of a 7,200-hit hits.yml) of docs/budgets.md.
 *
 *   npm run bench -- catalogue [--smoke] [--hits N] [--iterations N] [--seconds S] [--rate R] [--rooms N] [--keep]
 *
 * 1. Fills a fresh SQLite database in a temporary folder with generated hits
 *    (lib/catalogue-data.ts) through the real importer, as a curator would.
 * 2. Starts the real server on it and times ranked searches in-process (server
 *    time: the CatalogueService call, SQL and all), kinds interleaved so machine
 *    noise spreads over all of them alike.
 * 3. Seats 100 tables of 6 players (the load benchmark's generator, bench/lib/
 *    load-generator.ts, in a process of its own) playing complete games on the
 *    same server, as P6 asks, then drives GET /api/hits/search at a steady rate
 *    from another child process and records the latency, the server's
 *    event-loop delay and CPU, and the rooms' own move latency meanwhile.
 * 4. Imports the reference catalogue (or a generated one of 7,200 hits) into an
 *    empty database and exports it again, several times.
 *
 * `--smoke` (5,000 hits, a few seconds) checks that every path works; its timing
 * budgets are shown but not enforced, since a handful of samples on a shared box
 * says little about speed.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { createLogger } from '../server/logger.ts';
import { CatalogueService } from '../server/services/catalogue.ts';
import { importHitsYaml } from '../server/services/catalogue-yaml/apply.ts';
import { exportHitsYaml, formatHitsYaml } from '../server/services/catalogue-yaml/export.ts';
import type { ImportReportPayload as ImportReport } from '../shared/protocol/catalogue.ts';
import { loadAverage, meterProcess, percentiles, type BenchResult, type Figure } from './lib/bench.ts';
import { generateCatalogue, queryMaker, QUERY_KINDS, type BenchQuery, type QueryKind } from './lib/catalogue-data.ts';
import { runHttpLoad } from './lib/http-load.ts';
import { spawnChild, type ChildRpc } from './lib/load-ipc.ts';
import type { ErrorsReport, GeneratorSetup, WindowReport } from './lib/load-generator.ts';
import type { WindowCounts } from './lib/load-ws.ts';

/** The reference catalogue (read at run time, never copied into the repository). */
const REFERENCE_FILE = '/work/shared/data/original-hits.yml';
const PACKS = 50;
const PAGE = 50;

/** P6 and P8 in milliseconds. */
const SEARCH_P99 = 10;
const HTTP_P99 = 20;
const IMPORT_MAX = 3000;
const EXPORT_MAX = 1000;

const positive = (name: string, v: string | undefined, fallback: number): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${v}"`);
  return n;
};

const median = (xs: number[]): number => percentiles([...xs]).p50;
const int = (n: number): string => Math.round(n).toLocaleString('en');

export async function run(args: string[]): Promise<BenchResult> {
  const { values } = parseArgs({
    args,
    options: {
      smoke: { type: 'boolean' },
      hits: { type: 'string' },
      iterations: { type: 'string' },
      seconds: { type: 'string' },
      rate: { type: 'string' },
      rooms: { type: 'string' },
      keep: { type: 'boolean' },
    },
  });
  const smoke = values.smoke ?? false;
  const settings = {
    hits: Math.round(positive('hits', values.hits, smoke ? 5_000 : 100_000)),
    // per query kind: p99 is then the 20th worst of 2,000, so one GC pause cannot decide it
    iterations: Math.round(positive('iterations', values.iterations, smoke ? 100 : 2_000)),
    rate: positive('rate', values.rate, 100),
    seconds: positive('seconds', values.seconds, smoke ? 1.5 : 10),
    // P6: "while P1 at 100 rooms runs"; 0 = none
    rooms: values.rooms === '0' ? 0 : Math.round(positive('rooms', values.rooms, smoke ? 5 : 100)),
    warmupSeconds: smoke ? 0.5 : 2,
    ioRuns: smoke ? 1 : 5,
  };
  const enforced = !smoke;
  const dir = mkdtempSync(join(tmpdir(), 'hitline-bench-'));
  const log = createLogger('silent');
  const figures: Figure[] = [];
  const notes: string[] = [];

  try {
    // ---- 1. fill
    const url = `sqlite:${join(dir, 'catalogue.sqlite')}`;
    const { queries, paths, fill } = await fillDatabase(url, settings.hits, settings.iterations, log);
    figures.push(fill);

    // ---- 2. + 3. the real server on the filled database
    const server = await startServer(
      loadConfig({
        // never the internet: a yt-dlp on this machine's PATH stays unused
        YTDLP_PATH: 'off',
        // nor MusicBrainz or Wikidata: no year evidence is looked up
        EVIDENCE_SOURCES: '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_FACTOR: '0',
        CLIENT_DIR: join(dir, 'no-client'),
        AUDIO_DIR: join(dir, 'audio'),
        DEMO_CATALOGUE: join(dir, 'no-demo.yml'),
      }),
    );
    try {
      figures.push(...(await searchTimes(server, queries, settings.iterations, enforced, notes)));
      figures.push(...(await httpTimes(server, paths, settings, enforced)));
      notes.push(`load average after the HTTP run: ${loadAverage()}`);
    } finally {
      await server.close();
    }

    // ---- 4. import and export
    figures.push(...(await importExportTimes(dir, log, settings.ioRuns, enforced, notes)));
  } finally {
    if (values.keep) notes.push(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }

  notes.push(
    'search: relevance order, first page of 50, server time = the CatalogueService call in the server process; HTTP: keep-alive GETs of the ≥3-character kinds from a separate process',
    settings.rooms > 0
      ? `HTTP run: ${settings.rooms} tables of 6 WebSocket players (bench/lib/load-generator.ts, its own process) play complete games on the same server meanwhile, about one move per table per second, in card mode over the whole catalogue`
      : 'HTTP run without game rooms beside it (--rooms 0)',
  );
  if (smoke) notes.push('smoke run: timing budgets shown but not enforced; errors and wrong results still fail');
  return {
    title: `catalogue: search over ${int(settings.hits)} hits in ${PACKS} packs (P6), import/export of a 7,200-hit hits.yml (P8)`,
    figures,
    notes,
    data: { settings },
  };
}

/** Throws unless `report` (an import into an empty database) applied and added every hit row: `hits` of them when given. */
function expectImported(report: ImportReport, what: string, hits?: number): void {
  const { added, changed, unchanged, rejected } = report.summary.hits;
  if (!report.applied || changed + unchanged + rejected > 0 || (hits !== undefined && added !== hits)) {
    const first = [...report.errors.map((e) => e.message), ...report.hits.rejected.map((r) => r.reasons.join('; '))].slice(0, 3);
    throw new Error(`importing ${what} failed: ${report.message}${first.length > 0 ? ` (${first.join(' | ')})` : ''}`);
  }
}

const WARMUP_QUERIES = 50;

/**
 * Generates the catalogue and every query of the run, and imports the catalogue
 * into the database at `url` with the real importer. The generated objects and
 * the file text are garbage once this returns, before the server starts, so the
 * server's heap, and its garbage collections, are those of a real server.
 */
async function fillDatabase(
  url: string,
  hits: number,
  iterations: number,
  log: ReturnType<typeof createLogger>,
): Promise<{ queries: Map<QueryKind, BenchQuery[]>; paths: string[]; fill: Figure }> {
  const catalogue = generateCatalogue(hits, PACKS);
  const next = queryMaker(catalogue);
  // the first WARMUP_QUERIES of each kind are not measured
  const queries = new Map<QueryKind, BenchQuery[]>(QUERY_KINDS.map(({ kind }) => [kind, Array.from({ length: WARMUP_QUERIES + iterations }, () => next(kind))]));
  const nextForHttp = queryMaker(catalogue, 3);
  const kinds = QUERY_KINDS.filter((k) => k.budget).map((k) => k.kind);
  const paths = Array.from({ length: 2000 }, (_, i) => {
    const q = nextForHttp(kinds[i % kinds.length]!);
    const params = new URLSearchParams({ query: q.query });
    for (const p of q.packs ?? []) params.append('packs', p);
    return `/api/hits/search?${params}`;
  });
  const text = formatHitsYaml(catalogue.hits, catalogue.packs);

  const db = await openDatabase(url);
  try {
    const service = new CatalogueService(db, log);
    const t0 = performance.now();
    // the upload limit is for HTTP uploads; a 100,000-hit file is ~30 MB
    const report = await importHitsYaml(db, text, { apply: true, maxBytes: Number.POSITIVE_INFINITY, search: service.search });
    const ms = performance.now() - t0;
    expectImported(report, 'the generated catalogue', hits);
    return { queries, paths, fill: { label: `fill: import ${int(hits)} generated hits (${(text.length / 1e6).toFixed(0)} MB)`, unit: 'ms', value: ms } };
  } finally {
    await db.destroy();
  }
}

/** Server time of ranked searches, per query kind. */
async function searchTimes(server: RunningServer, queries: Map<QueryKind, BenchQuery[]>, iterations: number, enforced: boolean, notes: string[]): Promise<Figure[]> {
  const search = (q: BenchQuery) => server.catalogue.searchHits({ query: q.query, packs: q.packs, sortBy: null, direction: 'ascending', offset: 0, limit: PAGE });
  // warm-up: JIT, SQLite page cache
  for (let i = 0; i < WARMUP_QUERIES; i++) for (const { kind } of QUERY_KINDS) await search(queries.get(kind)![i]!);

  const times = new Map<QueryKind, number[]>(QUERY_KINDS.map(({ kind }) => [kind, []]));
  const totals = new Map<QueryKind, number[]>(QUERY_KINDS.map(({ kind }) => [kind, []]));
  const empty = new Map<QueryKind, number>(QUERY_KINDS.map(({ kind }) => [kind, 0]));
  const meter = meterProcess();
  for (let i = 0; i < iterations; i++) {
    for (const { kind } of QUERY_KINDS) {
      const q = queries.get(kind)![WARMUP_QUERIES + i]!;
      const t0 = performance.now();
      const result = await search(q);
      times.get(kind)!.push(performance.now() - t0);
      totals.get(kind)!.push(result.total);
      if (result.hits.length !== Math.min(PAGE, result.total)) throw new Error(`search ${JSON.stringify(q)} returned ${result.hits.length} hits of ${result.total}`);
      if (result.total === 0) empty.set(kind, empty.get(kind)! + 1);
    }
  }
  const { machineBusyCores } = meter.stop();
  notes.push(
    `in-process searches: load average ${loadAverage()}${machineBusyCores !== undefined ? `; whole machine ${machineBusyCores.toFixed(2)} of ${availableParallelism()} cores busy (this process ≤ 1)` : ''}`,
  );
  return QUERY_KINDS.map(({ kind, label, budget }) => ({
    label: `search: ${label}`,
    unit: 'ms',
    stats: percentiles(times.get(kind)!),
    ...(budget ? { budget: { id: 'P6', stat: 'p99' as const, max: SEARCH_P99, enforced } } : {}),
    note: `median ${int(median(totals.get(kind)!))} matches${empty.get(kind)! > 0 ? `, ${Math.round((100 * empty.get(kind)!) / iterations)} % none` : ''}`,
  }));
}

/** HTTP search latency at a steady rate, with the server's event-loop delay and CPU over the same window, and `rooms` tables playing beside it. */
async function httpTimes(
  server: RunningServer,
  paths: string[],
  settings: { rate: number; seconds: number; warmupSeconds: number; rooms: number },
  enforced: boolean,
): Promise<Figure[]> {
  const base = `http://127.0.0.1:${server.port}`;
  const rooms = settings.rooms > 0 ? await seatTables(base, settings.rooms) : null;
  try {
    let meter: ReturnType<typeof meterProcess> | undefined;
    let windowStarted: Promise<unknown> = Promise.resolve();
    const result = await runHttpLoad({ base, paths, rate: settings.rate, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds }, () => {
      meter = meterProcess();
      if (rooms) windowStarted = rooms.call('window-start');
    });
    if (!meter) throw new Error('the load generator never started its measured window');
    const serverSide = meter.stop();
    await windowStarted;
    const played = rooms ? await rooms.call<WindowReport<WindowCounts>>('window-stop') : null;
    const roomErrors = rooms ? await rooms.call<ErrorsReport>('errors') : null;

    return [
      {
        label: `HTTP search at ${settings.rate} req/s for ${settings.seconds} s${settings.rooms > 0 ? `, ${settings.rooms} rooms playing` : ''}`,
        unit: 'ms',
        stats: percentiles(result.latencies),
        budget: { id: 'P6', stat: 'p99', max: HTTP_P99, enforced },
        note: `generator: worst send lag ${result.maxSendLag.toFixed(1)} ms, CPU ${Math.round(result.cpuPercent)} % of a core`,
      },
      {
        label: 'HTTP search: failed or non-200 requests',
        unit: '',
        value: result.errors,
        budget: { id: 'P6', stat: 'value', max: 0 },
        ...(result.errorSamples.length > 0 ? { note: result.errorSamples.join(' | ') } : {}),
      },
      ...(played && roomErrors
        ? [
            {
              label: `meanwhile: ${settings.rooms} rooms, move → last client`,
              unit: 'ms',
              stats: percentiles([...played.counts.latencies]),
              note: `${int(played.counts.actions)} moves, ${played.counts.completed} games completed in the window; room generator ${Math.round(played.generator.cpuPercent)} % of a core`,
            },
            {
              label: 'meanwhile: room errors (joins, refused or lost moves, drops)',
              unit: '',
              value: roomErrors.ws.total,
              budget: { id: 'P6', stat: 'value' as const, max: 0 },
              ...(roomErrors.ws.samples.length > 0 ? { note: roomErrors.ws.samples.slice(0, 3).join(' | ') } : {}),
            },
          ]
        : []),
      {
        label: 'server event-loop delay during HTTP run',
        unit: 'ms',
        stats: serverSide.loopDelay,
        note: 'monitorEventLoopDelay, sampled every 1 ms',
      },
      {
        label: 'server CPU during HTTP run',
        unit: '% of a core',
        value: Math.round(serverSide.cpuPercent * 10) / 10,
        // the rest of the machine: a breach while other processes kept the cores busy is the box, not the search
        ...(serverSide.machineBusyCores !== undefined
          ? { note: `whole machine: ${serverSide.machineBusyCores.toFixed(2)} of ${availableParallelism()} cores busy (server + generators + everything else)` }
          : {}),
      },
    ];
  } finally {
    if (rooms) await leaveTables(rooms);
  }
}

/**
 * The load benchmark's generator (its own process) with `tables` tables of 6
 * guests seated on the server at `base`, playing (P1's scripted games).
 */
async function seatTables(base: string, tables: number): Promise<ChildRpc> {
  const { rpc } = await spawnChild<{ pid: number }>(join(import.meta.dirname, 'lib', 'load-generator.ts'), { execArgv: ['--single-threaded-gc'] });
  try {
    await rpc.call('setup', { kind: 'hitline', base, seed: 6, goals: [3, 4, 5] } satisfies GeneratorSetup);
    await rpc.call('prepare', { rooms: tables });
    const grown = await rpc.call<{ failed: number }>('grow', { rooms: tables, joinRate: 50 });
    if (grown.failed > 0) throw new Error(`${grown.failed} of ${tables} tables failed to start`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return rpc;
  } catch (err) {
    await leaveTables(rpc);
    throw err;
  }
}

async function leaveTables(rpc: ChildRpc): Promise<void> {
  await rpc.call('teardown', { rate: 200 }).catch(() => undefined);
  if (rpc.child.connected) rpc.child.disconnect();
  const timer = setTimeout(() => rpc.child.kill(), 5000);
  await rpc.exited;
  clearTimeout(timer);
}

/** Import into an empty database and export, `runs` times each. */
async function importExportTimes(dir: string, log: ReturnType<typeof createLogger>, runs: number, enforced: boolean, notes: string[]): Promise<Figure[]> {
  let bytes: Uint8Array;
  let source: string;
  if (existsSync(REFERENCE_FILE)) {
    bytes = await readFile(REFERENCE_FILE);
    source = 'reference hits.yml';
  } else {
    const generated = generateCatalogue(7_200, 20, 7);
    bytes = new TextEncoder().encode(formatHitsYaml(generated.hits, generated.packs));
    source = 'generated hits.yml';
  }
  const importMs: number[] = [];
  const exportMs: number[] = [];
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const db = await openDatabase(`sqlite:${join(dir, `io-${r}.sqlite`)}`);
    try {
      const service = new CatalogueService(db, log);
      await service.search.ready();
      // the import as the upload runs it: parse, diff, one transaction, then the search's typo vocabulary rebuilt
      const t0 = performance.now();
      const report = await importHitsYaml(db, bytes, { apply: true, search: service.search });
      importMs.push(performance.now() - t0);
      expectImported(report, source);
      hits = report.summary.hits.added;
      const t1 = performance.now();
      const exported = await exportHitsYaml(db, {}, { search: service.search });
      exportMs.push(performance.now() - t1);
      if (exported.hits !== hits) throw new Error(`the export wrote ${exported.hits} hits, the import added ${hits}`);
    } finally {
      await db.destroy();
    }
  }
  notes.push(`import/export: ${source}, ${int(hits)} hits, ${(bytes.length / 1e6).toFixed(1)} MB, ${runs} run(s), each import into an empty database`);
  return [
    { label: `import ${int(hits)} hits into an empty database`, unit: 'ms', stats: percentiles(importMs), budget: { id: 'P8', stat: 'max', max: IMPORT_MAX, enforced } },
    { label: `export ${int(hits)} hits`, unit: 'ms', stats: percentiles(exportMs), budget: { id: 'P8', stat: 'max', max: EXPORT_MAX, enforced } },
  ];
}
