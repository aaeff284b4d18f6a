import { isoNow, type Db } from '../db/index.ts';
import { foldWord, queryWords, textTerms, type HitSearchIndex } from './search.ts';
import { plan, summaryLine, type CurrentCatalogue, type CurrentHit, type ImportOps } from './catalogue-yaml/plan.ts';
import { packNameKey, type ParsedHitsFile } from './catalogue-yaml/rows.ts';
import { NEEDS_ESCAPES, yamlScalar } from './catalogue-yaml/scalars.ts';
import { parseHitsYaml } from './catalogue-yaml/validate.ts';
import type { ImportReportPayload as ImportReport } from '../../shared/protocol/catalogue.ts';

export { HIT_FIELDS, MAX_REPORTED_ROWS, PACKS_NEED_PERMISSION, type HitField } from './catalogue-yaml/plan.ts';
export { MAX_IMPORT_BYTES, MAX_ROW_BYTES, MAX_ROWS, MAX_WHOLE_PARSE_BYTES, tooLargeFile } from './catalogue-yaml/read.ts';
export { packNameKey, type HitRow, type PackRow, type ParsedHitsFile } from './catalogue-yaml/rows.ts';
export { yamlScalar } from './catalogue-yaml/scalars.ts';
export { parseHitsYaml, type ParseOptions } from './catalogue-yaml/validate.ts';
export type { ImportFileProblem as FileProblem, RejectedRow } from '../../shared/protocol/catalogue.ts';
export type { ImportReport };

/**
 * The catalogue file (`hits.yml`, api.md Part B §5.1) read and written: parse and
 * validate, a dry-run diff against the database, an all-or-nothing apply, and a
 * byte-stable export (api.md B8, issue 5).
 *
 * Reading (catalogue-yaml/read.ts) and checking (catalogue-yaml/validate.ts)
 * need no database; the diff is catalogue-yaml/plan.ts.
 *
 * Import rules (decisions, see also the report types):
 * - a hit row without an `id` (left out, null or empty) is a new hit: it gets a
 *   new id when applied (a dry run reports another new one: nothing refers to it
 *   yet), unless its yt_id is a database hit's (below). Such rows are added
 *   again by every import of the file: a curator adding songs by hand should
 *   not have to invent ids, and the export writes them back with their ids.
 * - a hit matches a database hit by `id`; a hit whose id is unknown but whose
 *   yt_id belongs to a database hit (not itself matched by id) IS that hit: it is
 *   updated under the database's id, which games, audio and issues refer to. The
 *   file's id is reported as `file_id`. Re-importing the file matches it again the
 *   same way, so the import stays idempotent. (The reference server re-keyed such
 *   a hit instead, §5.3.)
 * - a pack matches by `id`, then by name (case-insensitive, names are unique that
 *   way); hits' pack references follow the match.
 * - "changed" means a difference in artist, title, belongs_to, year, packs (as a
 *   set), playback_offset or yt_id. `last_modified` never makes a change: it is
 *   kept as `updated_at` for added rows, and changed rows get the import's time.
 * - a hit of the file gets exactly the file's packs (its links are replaced);
 *   hits and packs that are not in the file are never touched, never deleted.
 * - any rejected row (or file error) means nothing is written.
 * - a hit whose yt_id or playback_offset changes goes back to audio state `none`.
 */

// ---------------------------------------------------------------------------
// the catalogue the diff compares with

async function loadCurrent(db: Db): Promise<CurrentCatalogue> {
  const hitRows = await db.selectFrom('hits').select(['id', 'title', 'artist', 'year', 'belongs_to', 'yt_id', 'playback_offset']).execute();
  const links = await db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).execute();
  const packs = await db.selectFrom('packs').select(['id', 'name']).execute();
  const hits = new Map<string, CurrentHit>(hitRows.map((h) => [h.id, { ...h, packs: [] }]));
  for (const l of links) hits.get(l.hit_id)?.packs.push(l.pack_id);
  return { hits: [...hits.values()], packs };
}

// ---------------------------------------------------------------------------
// apply

/** Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters (10 columns × 500). */
const INSERT_BATCH = 500;
const IN_BATCH = 1000;

function batches<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Writes a plan; runs inside the caller's transaction. */
async function write(trx: Db, ops: ImportOps, now: string): Promise<void> {
  // Renames go through a placeholder key first, so two packs may swap names without tripping the unique name_key.
  for (const p of ops.renamePacks) await trx.updateTable('packs').set({ name_key: `\u0000${p.id}` }).where('id', '=', p.id).execute();
  for (const p of ops.renamePacks) {
    await trx.updateTable('packs').set({ name: p.name, name_key: packNameKey(p.name), updated_at: now }).where('id', '=', p.id).execute();
  }
  for (const batch of batches(ops.addPacks, INSERT_BATCH)) {
    await trx
      .insertInto('packs')
      .values(batch.map((p) => ({ id: p.id, name: p.name, name_key: packNameKey(p.name), created_at: now, updated_at: p.last_modified ?? now })))
      .execute();
  }

  // yt_ids that move between hits are cleared first, for the same reason as the pack names
  const movingYt = ops.changeHits.filter((c) => c.fields.has('yt_id')).map((c) => c.id);
  for (const ids of batches(movingYt, IN_BATCH)) await trx.updateTable('hits').set({ yt_id: null }).where('id', 'in', ids).execute();
  for (const batch of batches(ops.addHits, INSERT_BATCH)) {
    await trx
      .insertInto('hits')
      .values(
        batch.map((h) => ({
          id: h.id,
          title: h.title,
          artist: h.artist,
          year: h.year,
          belongs_to: h.belongs_to,
          yt_id: h.yt_id,
          playback_offset: h.playback_offset,
          created_at: now,
          updated_at: h.last_modified ?? now,
        })),
      )
      .execute();
  }
  for (const c of ops.changeHits) {
    const h = c.row;
    const audioSourceChanged = c.fields.has('yt_id') || c.fields.has('playback_offset');
    await trx
      .updateTable('hits')
      .set({
        title: h.title,
        artist: h.artist,
        year: h.year,
        belongs_to: h.belongs_to,
        yt_id: h.yt_id,
        playback_offset: h.playback_offset,
        updated_at: now,
        ...(audioSourceChanged ? { audio_state: 'none' } : {}),
      })
      .where('id', '=', c.id)
      .execute();
  }

  const relinked = ops.changeHits.filter((c) => c.fields.has('packs'));
  for (const ids of batches(relinked.map((c) => c.id), IN_BATCH)) await trx.deleteFrom('hit_packs').where('hit_id', 'in', ids).execute();
  const links: { hit_id: string; pack_id: string }[] = [];
  for (const [hitId, packs] of ops.addHitPacks) for (const p of packs) links.push({ hit_id: hitId, pack_id: p });
  for (const c of relinked) for (const p of c.packs) links.push({ hit_id: c.id, pack_id: p });
  for (const batch of batches(links, INSERT_BATCH * 4)) await trx.insertInto('hit_packs').values(batch).execute();
}

/** Options of {@link importHitsYaml}. */
export interface ImportOptions {
  /** Write the changes (default false: dry run). Never writes when a row is rejected. */
  apply?: boolean;
  /** Byte limit of the file (default {@link MAX_IMPORT_BYTES}). */
  maxBytes?: number;
  /** See {@link ParseOptions.cleanText} (default true). */
  cleanText?: boolean;
  /**
   * The search index whose typo vocabulary must learn the written hits (its FTS
   * table follows by triggers). Refreshed after an apply that changed something.
   */
  search?: Pick<HitSearchIndex, 'refresh'> | undefined;
  /** The time written as created_at/updated_at (tests). */
  now?: string;
  /**
   * Whether the file may add and rename packs (the importing user has
   * write_packs; default true). Without it such pack rows are rejected.
   */
  packs?: boolean;
}

/**
 * Imports a `hits.yml`: parses it, diffs it against the database, and with
 * `apply` writes it in one transaction, all or nothing. The diff of an apply is
 * computed inside that transaction, so what is written is exactly what the report
 * says even when the catalogue changed since a dry run.
 */
export async function importHitsYaml(db: Db, input: string | Uint8Array, options: ImportOptions = {}): Promise<ImportReport> {
  const parsed = await parseHitsYaml(input, {
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.cleanText !== undefined ? { cleanText: options.cleanText } : {}),
  });
  return importParsed(db, parsed, options);
}

/** {@link importHitsYaml} for a file already parsed. */
export async function importParsed(db: Db, parsed: ParsedHitsFile, options: ImportOptions = {}): Promise<ImportReport> {
  if (!options.apply || parsed.errors.length > 0) return plan(await loadCurrent(db), parsed, options.packs).report;
  const now = options.now ?? isoNow();
  const report = await db.transaction().execute(async (trx) => {
    const { report, ops } = plan(await loadCurrent(trx), parsed, options.packs);
    if (!report.ok) return report;
    await write(trx, ops, now);
    report.applied = true;
    report.message = summaryLine(report);
    return report;
  });
  if (report.applied && changedSomething(report)) await refreshSearchAfterImport(options.search);
  return report;
}

/** True when an applied report wrote anything. */
export function changedSomething(report: ImportReport): boolean {
  const { hits, packs } = report.summary;
  return hits.added + hits.changed + packs.added + packs.changed > 0;
}

/**
 * Tells the search index about bulk writes: its FTS table follows the hits table
 * through triggers, but its in-memory typo vocabulary must be rebuilt. A failure
 * here never undoes the import (the vocabulary only adds typo tolerance).
 */
export async function refreshSearchAfterImport(search: Pick<HitSearchIndex, 'refresh'> | undefined): Promise<void> {
  if (!search) return;
  try {
    await search.refresh();
  } catch {
    // the next refresh (or restart) catches up; the written catalogue is already committed
  }
}

// ---------------------------------------------------------------------------
// export

/** The export filter: the search's `query` and `packs` (api.md B7: packs OR, "" = hits without packs). */
export interface ExportFilter {
  query?: string | undefined;
  packs?: readonly string[] | undefined;
}

/** A hit as the file holds it. */
export interface ExportHit {
  id: string;
  artist: string;
  title: string;
  belongs_to: string;
  year: number;
  packs: readonly string[];
  playback_offset: number;
  yt_id: string | null;
  last_modified: string;
}

export interface ExportPack {
  id: string;
  name: string;
  last_modified: string;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0x85;

/**
 * Natural, case-sensitive order (Part B's writer uses natord): white space is
 * skipped, runs of digits compare by their numeric value (`9` < `10`; with equal
 * values, fewer leading zeros first), everything else by code point, so capitals
 * sort before small letters. Strings that compare equal this way ("a b" and "ab")
 * fall back to plain code-unit order, so this is a total order and a sort by it
 * does not depend on the input order.
 */
export function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isSpace(a.charCodeAt(i))) i++;
    while (j < b.length && isSpace(b.charCodeAt(j))) j++;
    if (i >= a.length || j >= b.length) {
      if (i < a.length) return 1;
      if (j < b.length) return -1;
      break;
    }
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (isDigit(ca) && isDigit(cb)) {
      let ea = i;
      while (ea < a.length && isDigit(a.charCodeAt(ea))) ea++;
      let eb = j;
      while (eb < b.length && isDigit(b.charCodeAt(eb))) eb++;
      let za = i;
      while (za < ea - 1 && a.charCodeAt(za) === 48) za++;
      let zb = j;
      while (zb < eb - 1 && b.charCodeAt(zb) === 48) zb++;
      // numeric value: more significant digits win, then the first differing digit
      if (ea - za !== eb - zb) return ea - za - (eb - zb);
      for (let k = 0; k < ea - za; k++) {
        const d = a.charCodeAt(za + k) - b.charCodeAt(zb + k);
        if (d !== 0) return d;
      }
      if (za - i !== zb - j) return za - i - (zb - j);
      i = ea;
      j = eb;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A pack name as a YAML comment: on one line whatever it holds (every reader ignores it; it only helps people). */
const commentText = (name: string): string => name.replace(new RegExp(NEEDS_ESCAPES.source, 'g'), '\uFFFD');

/** The sort key of a hit in the file (Part B §5.1). */
const hitSortKey = (h: ExportHit): string => `${h.artist} ${h.title} ${h.year} ${h.belongs_to}`;

/**
 * Writes a `hits.yml` (api.md Part B §5.1): hits sorted by natural, case-sensitive
 * order of "artist title year belongs_to" (ties by id), their pack ids ascending,
 * then the packs sorted by natural order of name (ties by id). Keys in the
 * reference writer's order; `yt_id` is left out for a hit without one. The same
 * input always gives the same bytes. Unlike the reference writer, each pack id of
 * a hit is followed by the pack's name as a comment (`- 3f2c… # Seventies`), so a
 * person reading or editing the file sees which packs a hit is in; every YAML
 * reader (the reference server's too) skips comments, so the data is the same.
 */
export function formatHitsYaml(hits: readonly ExportHit[], packs: readonly ExportPack[]): string {
  const keyed = hits.map((h) => ({ h, key: hitSortKey(h) }));
  keyed.sort((a, b) => naturalCompare(a.key, b.key) || (a.h.id < b.h.id ? -1 : a.h.id > b.h.id ? 1 : 0));
  const sortedPacks = [...packs].sort((a, b) => naturalCompare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const packNames = new Map(packs.map((p) => [p.id, p.name]));
  const out: string[] = [];
  if (keyed.length === 0) out.push('hits: []');
  else out.push('hits:');
  for (const { h } of keyed) {
    out.push(`- artist: ${yamlScalar(h.artist)}`, `  title: ${yamlScalar(h.title)}`, `  belongs_to: ${yamlScalar(h.belongs_to)}`, `  year: ${h.year}`);
    const ids = [...h.packs].sort();
    if (ids.length === 0) out.push('  packs: []');
    else {
      out.push('  packs:');
      for (const p of ids) {
        const name = packNames.get(p);
        out.push(name === undefined ? `  - ${yamlScalar(p)}` : `  - ${yamlScalar(p)} # ${commentText(name)}`);
      }
    }
    out.push(`  playback_offset: ${h.playback_offset}`, `  id: ${yamlScalar(h.id)}`);
    if (h.yt_id !== null) out.push(`  yt_id: ${yamlScalar(h.yt_id)}`);
    out.push(`  last_modified: ${yamlScalar(h.last_modified)}`);
  }
  if (sortedPacks.length === 0) out.push('packs: []');
  else out.push('packs:');
  for (const p of sortedPacks) out.push(`- id: ${yamlScalar(p.id)}`, `  name: ${yamlScalar(p.name)}`, `  last_modified: ${yamlScalar(p.last_modified)}`);
  return `${out.join('\n')}\n`;
}

/**
 * The text filter used when no search index is given: every word of the query
 * must start a word of the title, artist or belongs_to, with case and Latin
 * diacritics ignored (the search's own word rules, without its typo tolerance).
 */
function textMatcher(query: string): ((h: { title: string; artist: string; belongs_to: string }) => boolean) | null {
  const words = queryWords(query).map(foldWord);
  if (words.length === 0) return null;
  return (h) => {
    const terms = [...textTerms(h.title), ...textTerms(h.artist), ...textTerms(h.belongs_to)];
    return words.every((w) => terms.some((t) => t.startsWith(w)));
  };
}

/** Options of {@link exportHitsYaml}. */
export interface ExportOptions {
  /**
   * The catalogue search; when given, the query matches exactly as in
   * `GET /api/hits/search` (typo tolerance included). Without it a prefix match
   * on the same words is used.
   */
  search?: Pick<HitSearchIndex, 'search'> | undefined;
}

/**
 * Exports the hits matching `filter` and the packs they reference as a `hits.yml`
 * ({@link formatHitsYaml}); `last_modified` is each row's `updated_at`.
 */
export async function exportHitsYaml(db: Db, filter: ExportFilter = {}, options: ExportOptions = {}): Promise<{ text: string; hits: number; packs: number }> {
  const query = filter.query ?? '';
  let ids: Set<string> | null = null;
  if (options.search && queryWords(query).length > 0) {
    const found = await options.search.search({ query, packs: filter.packs, sortBy: null, offset: 0, limit: null });
    ids = new Set(found.hits.map((h) => h.id));
  }
  const hitRows = await db
    .selectFrom('hits')
    .select(['id', 'title', 'artist', 'year', 'belongs_to', 'yt_id', 'playback_offset', 'updated_at'])
    .orderBy('id')
    .execute();
  const links = await db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).execute();
  const packsOf = new Map<string, string[]>();
  for (const l of links) {
    const list = packsOf.get(l.hit_id);
    if (list) list.push(l.pack_id);
    else packsOf.set(l.hit_id, [l.pack_id]);
  }
  const wanted = filter.packs ? new Set(filter.packs) : null;
  const matches = ids === null ? textMatcher(query) : null;
  const hits: ExportHit[] = [];
  for (const r of hitRows) {
    if (ids !== null && !ids.has(r.id)) continue;
    const packs = packsOf.get(r.id) ?? [];
    if (wanted !== null && !(packs.length === 0 ? wanted.has('') : packs.some((p) => wanted.has(p)))) continue;
    if (matches !== null && !matches(r)) continue;
    hits.push({ id: r.id, artist: r.artist, title: r.title, belongs_to: r.belongs_to, year: r.year, packs, playback_offset: r.playback_offset, yt_id: r.yt_id, last_modified: r.updated_at });
  }
  const used = new Set(hits.flatMap((h) => h.packs));
  const packRows = used.size === 0 ? [] : await db.selectFrom('packs').select(['id', 'name', 'updated_at']).execute();
  const packs = packRows.filter((p) => used.has(p.id)).map((p) => ({ id: p.id, name: p.name, last_modified: p.updated_at }));
  return { text: formatHitsYaml(hits, packs), hits: hits.length, packs: packs.length };
}
