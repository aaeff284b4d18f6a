import { isoNow, type Db } from '../../db/index.ts';
import type { ImportReportPayload as ImportReport } from '../../../shared/protocol/catalogue.ts';
import type { HitSearchIndex } from '../search.ts';
import { plan, summaryLine, type CurrentCatalogue, type CurrentHit, type ImportOps } from './plan.ts';
import { packNameKey, type ParsedHitsFile } from './rows.ts';
import { parseHitsYaml } from './validate.ts';

/**
 * The import of a `hits.yml` (`POST /api/hits/import`, the CLI's `import`, the
 * start-up load of a catalogue file): read and check it (validate.ts), diff it
 * against the catalogue (plan.ts, with the rules of matching rows to the
 * database), and with `apply` write the plan in one transaction.
 *
 * Import rules besides the matching:
 * - a hit row without an `id` (left out, null or empty) is a new hit: it gets a
 *   new id when applied (a dry run reports another new one: nothing refers to it
 *   yet), unless its yt_id is a database hit's. Such rows are added again by
 *   every import of the file: a curator adding songs by hand should not have to
 *   invent ids, and the export writes them back with their ids.
 * - `last_modified` never makes a change: it is kept as `updated_at` for added
 *   rows, and changed rows get the import's time.
 * - a hit of the file gets exactly the file's packs (its links are replaced);
 *   hits and packs that are not in the file are never touched, never deleted.
 * - any rejected row (or file error) means nothing is written.
 * - a hit whose yt_id or playback_offset changes goes back to audio state
 *   `none`: its prepared audio is of the old source.
 */

/** The catalogue as the diff compares it. */
async function loadCurrent(db: Db): Promise<CurrentCatalogue> {
  const hitRows = await db.selectFrom('hits').select(['id', 'title', 'artist', 'year', 'belongs_to', 'yt_id', 'playback_offset']).execute();
  const links = await db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).execute();
  const packs = await db.selectFrom('packs').select(['id', 'name']).execute();
  const hits = new Map<string, CurrentHit>(hitRows.map((h) => [h.id, { ...h, packs: [] }]));
  for (const l of links) hits.get(l.hit_id)?.packs.push(l.pack_id);
  return { hits: [...hits.values()], packs };
}

// ---------------------------------------------------------------------------
// writing

/** Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters (10 columns × 500). */
const INSERT_BATCH = 500;
const IN_BATCH = 1000;

function batches<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Writes a plan; runs inside the caller's transaction. */
/** The columns a file's row sets on its hit, added or changed alike. */
const hitColumns = (h: ImportOps['addHits'][number]) => ({
  title: h.title,
  artist: h.artist,
  year: h.year,
  belongs_to: h.belongs_to,
  yt_id: h.yt_id,
  playback_offset: h.playback_offset,
});

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
          ...hitColumns(h),
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
        ...hitColumns(h),
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
  /** Refuse text the API refuses (default true; validate.ts ParseOptions.cleanText). */
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

/** The first few problems of a report, on one line. */
export function reportProblems(report: ImportReport): string {
  const lines = [
    ...report.errors.map((e) => (e.line !== undefined ? `line ${e.line}: ${e.message}` : e.message)),
    ...report.packs.rejected.map((r) => `packs[${r.index}] (line ${r.line}): ${r.reasons.join('; ')}`),
    ...report.hits.rejected.map((r) => `hits[${r.index}] (line ${r.line}): ${r.reasons.join('; ')}`),
  ];
  return `${lines.slice(0, 5).join(' | ')}${lines.length > 5 ? ` | and ${lines.length - 5} more` : ''}`;
}
