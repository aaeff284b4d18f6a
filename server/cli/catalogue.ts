import { randomBytes } from 'node:crypto';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Db } from '../db/index.ts';
import { importParsed } from '../services/catalogue-yaml/apply.ts';
import { exportHitsYaml } from '../services/catalogue-yaml/export.ts';
import { MAX_REPORTED_ROWS } from '../services/catalogue-yaml/plan.ts';
import { MAX_IMPORT_BYTES, tooLargeFile } from '../services/catalogue-yaml/read.ts';
import type { ParsedHitsFile } from '../services/catalogue-yaml/rows.ts';
import { parseHitsYaml } from '../services/catalogue-yaml/validate.ts';
import type { ImportReportPayload as ImportReport, RejectedRow } from '../../shared/protocol/catalogue.ts';
import { fetchCatalogue, RemoteFetchError, type RemoteFetchOptions } from '../services/remote-catalogue.ts';
import type { HitSearchIndex } from '../services/search.ts';
import { UuidSchema } from '../../shared/protocol/common.ts';
import { CliError, type CliIo } from './users.ts';

/**
 * `import` and `export` commands of the admin CLI (docs/api.md#b8): the same importer
 * and exporter as `POST /api/hits/import` and `GET /api/hits/export`, on the
 * database named by DATABASE_URL (a running server may keep serving meanwhile).
 */

export const CATALOGUE_USAGE = `usage:
  npm run cli -- import FILE|URL [--apply] [--max-mb N]
  npm run cli -- export FILE [--query Q] [--pack ID ...]

  import             shows what importing the hits.yml FILE would change (added,
                     changed, unchanged, rejected rows with the reasons); exit
                     code 1 when any row is rejected (nothing is written then)
                     an http(s) URL (e.g. https://other.example/api/hits/export)
                     is fetched first: within IMPORT_FETCH_TIMEOUT_SECONDS, at
                     most ${MAX_IMPORT_BYTES / (1024 * 1024)} MB (or --max-mb), never from this machine's own
                     networks unless IMPORT_ALLOW_PRIVATE allows them
  --apply            writes the changes, in one transaction
  --max-mb N         size limit of FILE or URL (default ${MAX_IMPORT_BYTES / (1024 * 1024)})

  export             writes the catalogue as a hits.yml to FILE ("-": standard output)
  --query Q          only the hits matching Q (as the search does)
  --pack ID          only the hits in one of these packs (repeatable); an empty
                     ID (--pack '') = the hits without a pack`;

/** How many changed rows the import lists before "… and N more". */
const SHOWN_CHANGES = 50;

const rowName = (list: 'hits' | 'packs', r: { index: number; line: number; label?: string | undefined }) =>
  `${list}[${r.index}] (line ${r.line})${r.label ? ` "${r.label}"` : ''}`;
const show = (v: unknown): string => (Array.isArray(v) ? `[${v.join(', ')}]` : JSON.stringify(v));

/** The report as lines for a terminal: counts, file errors, rejected rows, then the changes. */
export function reportLines(file: string, report: ImportReport): string[] {
  const counts = (c: ImportReport['summary']['hits']) =>
    `${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.rejected} rejected`;
  const lines = [`${file}:`, `  hits:  ${counts(report.summary.hits)}`, `  packs: ${counts(report.summary.packs)}`];
  for (const e of report.errors) lines.push(`error${e.line !== undefined ? ` at line ${e.line}` : ''}: ${e.message}`);
  const rejected = (list: 'hits' | 'packs', rows: RejectedRow[]) => {
    for (const r of rows) lines.push(`rejected ${rowName(list, r)}: ${r.reasons.join('; ')}`);
  };
  rejected('packs', report.packs.rejected);
  rejected('hits', report.hits.rejected);
  const changes = [
    ...report.packs.changed.map((c) => `changed ${rowName('packs', { ...c, label: c.name })} ${c.id}: ${c.changes.map((f) => `${f.field} ${show(f.before)} → ${show(f.after)}`).join(', ')}`),
    ...report.hits.changed.map(
      (c) =>
        `changed ${rowName('hits', { ...c, label: `${c.artist} – ${c.title}` })} ${c.id}${c.matched_by === 'yt_id' ? ` (matched by yt_id; the file's id is ${c.file_id})` : ''}: ${c.changes.map((f) => `${f.field} ${show(f.before)} → ${show(f.after)}`).join(', ')}`,
    ),
  ];
  lines.push(...changes.slice(0, SHOWN_CHANGES));
  if (changes.length > SHOWN_CHANGES) lines.push(`… and ${changes.length - SHOWN_CHANGES} more changed rows`);
  const cut = (['hits', 'packs'] as const).some((k) => report[k].rejected.length < report.summary[k].rejected || report[k].changed.length < report.summary[k].changed);
  if (cut) lines.push(`(the report lists at most ${MAX_REPORTED_ROWS} rejected and changed rows of each kind; the counts above are complete)`);
  if (report.applied) lines.push('applied.');
  else if (!report.ok) lines.push('nothing was written.');
  else lines.push('dry run: nothing was written; run again with --apply to import.');
  return lines;
}

/** Reads FILE with a size check before reading it whole. */
async function readLimited(file: string, maxBytes: number): Promise<Uint8Array | ParsedHitsFile> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    // checked before reading, so a huge file is refused without loading it
    if (size > maxBytes) return tooLargeFile(size, maxBytes);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** An argument that names an address (any `scheme://`): fetched, or refused for its scheme, never read as a file. */
const ADDRESS = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Fetches the catalogue at `url`; a refusal or failure is the command's one-line error. */
async function fetchLimited(url: string, remote: Omit<RemoteFetchOptions, 'maxBytes'>, maxBytes: number): Promise<{ bytes: Uint8Array; source: string } | ParsedHitsFile> {
  try {
    const fetched = await fetchCatalogue(url, { ...remote, maxBytes });
    return { bytes: fetched.bytes, source: fetched.url === new URL(url.trim()).href ? fetched.url : `${url.trim()} (from ${fetched.url})` };
  } catch (e) {
    if (!(e instanceof RemoteFetchError)) throw e;
    // an oversize answer is a report like an oversize file; anything else says why the address was not read
    if (e.status === 413) return { errors: [{ message: e.message }], hits: [], packs: [], rejectedHits: [], rejectedPacks: [] };
    throw new CliError(`cannot import ${url.trim()}: ${e.message}`);
  }
}

/**
 * `import FILE|URL [--apply] [--max-mb N]`: prints the report; exit code 1 when
 * anything is rejected. `remote`: the limits of a fetch (IMPORT_* configuration).
 */
export async function runImportCommand(db: Db, args: string[], io: Pick<CliIo, 'out'>, remote: Omit<RemoteFetchOptions, 'maxBytes'> = { timeoutMs: 30_000 }): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { apply: { type: 'boolean' }, 'max-mb': { type: 'string' } } });
  if (positionals.length !== 1) throw new CliError(`import needs exactly one FILE or URL\n\n${CATALOGUE_USAGE}`);
  const file = positionals[0]!;
  let maxBytes = MAX_IMPORT_BYTES;
  if (values['max-mb'] !== undefined) {
    const n = Number(values['max-mb']);
    if (!Number.isFinite(n) || n <= 0) throw new CliError(`--max-mb must be a positive number, got "${values['max-mb']}"`);
    maxBytes = Math.floor(n * 1024 * 1024);
  }
  let name = file;
  let input: Uint8Array | ParsedHitsFile;
  if (ADDRESS.test(file.trim())) {
    const fetched = await fetchLimited(file, remote, maxBytes);
    if ('bytes' in fetched) {
      input = fetched.bytes;
      name = fetched.source;
    } else input = fetched;
  } else input = await readLimited(file, maxBytes);
  const parsed = input instanceof Uint8Array ? await parseHitsYaml(input, { maxBytes }) : input;
  const report = await importParsed(db, parsed, { apply: values.apply ?? false });
  for (const line of reportLines(name, report)) io.out(line);
  return report.ok ? 0 : 1;
}

/**
 * `export FILE [--query Q] [--pack ID ...]`: writes the file whole or not at all.
 * With the catalogue's `search`, `--query` matches exactly as the HTTP export does.
 */
export async function runExportCommand(
  db: Db,
  args: string[],
  io: Pick<CliIo, 'out'> & { write?: (text: string) => void },
  search?: Pick<HitSearchIndex, 'search'>,
): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { query: { type: 'string' }, pack: { type: 'string', multiple: true } } });
  if (positionals.length !== 1) throw new CliError(`export needs exactly one FILE ("-" for standard output)\n\n${CATALOGUE_USAGE}`);
  const file = positionals[0]!;
  const packs = values.pack?.map((p) => p.trim().toLowerCase());
  for (const p of packs ?? []) if (p !== '' && !UuidSchema.safeParse(p).success) throw new CliError(`--pack must be a pack id (UUID) or empty, got "${p}"`);
  const query = values.query ?? '';
  if (query.length > 256) throw new CliError('--query must be at most 256 characters long');
  const result = await exportHitsYaml(db, { query, packs }, { search });
  if (file === '-') {
    (io.write ?? ((t: string) => process.stdout.write(t)))(result.text);
    return 0;
  }
  // a temporary file renamed into place: a failed or interrupted export never leaves half a file
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, result.text, { flag: 'wx' });
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new CliError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  io.out(`wrote ${result.hits} hits and ${result.packs} packs to ${file}`);
  return 0;
}
