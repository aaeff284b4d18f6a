import type { AddedHit, AddedPack, ChangedHit, ChangedPack, DiffCounts, FieldChange, ImportReportPayload as ImportReport, RejectedRow } from '../../../shared/protocol/catalogue.ts';
import { packNameKey, rejectedHit, rejectedPack, where, type HitRow, type PackRow, type ParsedHitsFile } from './rows.ts';

/**
 * The diff of a checked file against the catalogue: which row matches which
 * database hit or pack, what changes, which rows conflict with the database,
 * and the writes an apply makes (apply.ts). Pure: plain data in, a plan out, so
 * every matching rule is testable without a database.
 *
 * Matching rules (the other import rules are in apply.ts):
 * - a pack matches by `id`, then by name (case-insensitive, names are unique
 *   that way) among the database packs no other row matched by id; hits' pack
 *   references follow the match;
 * - a hit matches by `id`, then by yt_id among the database hits no other row
 *   matched by id: it IS that hit, updated under the database's id, which
 *   games, audio and issues refer to (the file's id is reported as `file_id`).
 *   Importing the file again matches it the same way, so the import stays
 *   idempotent;
 * - a name or yt_id that stays with a database row the file leaves alone
 *   cannot be given to another row; a row swapping it with another file row can;
 * - "changed" compares {@link HIT_FIELDS} (packs as a set) or a pack's name.
 */

/** Per list in a report (added, changed, rejected): a huge file should not give a huge answer; counts stay exact. */
export const MAX_REPORTED_ROWS = 1000;

/** Fields compared to decide whether a hit changed. */
export const HIT_FIELDS = ['artist', 'title', 'belongs_to', 'year', 'packs', 'playback_offset', 'yt_id'] as const;
export type HitField = (typeof HIT_FIELDS)[number];

/** Why a pack row is refused to a user who may edit hits but not packs (packs are write_packs'). */
export const PACKS_NEED_PERMISSION = 'adding or renaming a pack needs the write_packs permission';

/** A hit of the catalogue as the diff compares it: the fields a file row has, but for its place in the file. */
export type CurrentHit = Pick<HitRow, 'id' | HitField>;

export interface CurrentPack {
  id: string;
  name: string;
}

/** The catalogue before the import. */
export interface CurrentCatalogue {
  hits: readonly CurrentHit[];
  packs: readonly CurrentPack[];
}

/** What an apply writes. */
export interface ImportOps {
  addPacks: PackRow[];
  renamePacks: { id: string; name: string }[];
  addHits: HitRow[];
  /** The file's row written over database hit `id` (which may differ from row.id), with its database pack ids and the year it had. */
  changeHits: { id: string; row: HitRow; packs: string[]; fields: Set<HitField>; yearBefore: number }[];
  /** Pack links of added hits (database pack ids). */
  addHitPacks: Map<string, string[]>;
  /** The year history of every imported hit that has one in the file, by database hit id (rows the database has are skipped when written). */
  history: { id: string; rows: HitRow['history'] }[];
}

export interface Plan {
  report: ImportReport;
  ops: ImportOps;
}

/** How a file row found its database row. */
type Target<By> = { id: string; by: 'id' | By } | null;

/**
 * Matches rows by id, then the rest by `key` among the database rows not
 * matched by id (each database row at most once, the file's order deciding).
 * Returns the target per row and the database ids claimed by some row.
 */
function match<Row extends { id: string }, By extends string>(
  rows: readonly Row[],
  known: ReadonlySet<string>,
  keyOf: (row: Row) => string | null,
  holderOf: ReadonlyMap<string, string>,
  by: By,
): { target: Map<Row, Target<By>>; claimed: Set<string> } {
  const target = new Map<Row, Target<By>>();
  const claimed = new Set<string>();
  for (const row of rows) {
    if (!known.has(row.id)) continue;
    target.set(row, { id: row.id, by: 'id' });
    claimed.add(row.id);
  }
  for (const row of rows) {
    if (target.has(row)) continue;
    const key = keyOf(row);
    const holder = key === null ? undefined : holderOf.get(key);
    if (holder !== undefined && !claimed.has(holder)) {
      target.set(row, { id: holder, by });
      claimed.add(holder);
    } else target.set(row, null);
  }
  return { target, claimed };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function cap<T>(list: T[], state: { truncated: boolean }): T[] {
  if (list.length <= MAX_REPORTED_ROWS) return list;
  state.truncated = true;
  return list.slice(0, MAX_REPORTED_ROWS);
}

/**
 * The diff of a checked file against the current catalogue; without
 * `packsAllowed`, pack rows that would add or rename a pack are rejected.
 * The report says "dry run" (apply.ts marks it applied once written).
 */
export function plan(current: CurrentCatalogue, file: ParsedHitsFile, packsAllowed = true): Plan {
  const hitById = new Map(current.hits.map((h) => [h.id, { ...h, packs: [...h.packs].sort() }]));
  const hitByYt = new Map<string, string>();
  for (const h of current.hits) if (h.yt_id !== null) hitByYt.set(h.yt_id, h.id);
  const packById = new Map(current.packs.map((p) => [p.id, p]));
  const packByKey = new Map(current.packs.map((p) => [packNameKey(p.name), p.id]));
  const rejectedPacks = [...file.rejectedPacks];
  const rejectedHits = [...file.rejectedHits];
  const ops: ImportOps = { addPacks: [], renamePacks: [], addHits: [], changeHits: [], addHitPacks: new Map(), history: [] };

  // packs
  const packs = match(file.packs, new Set(packById.keys()), (p) => packNameKey(p.name), packByKey, 'name');
  const addedPacks: AddedPack[] = [];
  const changedPacks: ChangedPack[] = [];
  let unchangedPacks = 0;
  /** File pack id → database pack id, for the packs that will exist. */
  const packIdMap = new Map<string, string>();
  const badPack = new Map<string, RejectedRow>();
  const refusePack = (p: PackRow, reason: string) => {
    const rej = rejectedPack(p, [reason]);
    rejectedPacks.push(rej);
    badPack.set(p.id, rej);
  };
  for (const p of file.packs) {
    const target = packs.target.get(p) ?? null;
    // the name must not stay with a database pack that the file leaves alone
    const holder = packByKey.get(packNameKey(p.name));
    if (holder !== undefined && holder !== target?.id && !packs.claimed.has(holder)) {
      const other = packById.get(holder)!;
      refusePack(p, `name "${p.name}" is already used by pack ${other.id} ("${other.name}") in the database`);
      continue;
    }
    const before = target === null ? undefined : packById.get(target.id)!;
    if (!packsAllowed && before?.name !== p.name) {
      refusePack(p, PACKS_NEED_PERMISSION);
      continue;
    }
    if (target === null || before === undefined) {
      packIdMap.set(p.id, p.id);
      ops.addPacks.push(p);
      addedPacks.push({ index: p.index, line: p.line, id: p.id, name: p.name });
      continue;
    }
    packIdMap.set(p.id, target.id);
    if (before.name === p.name) unchangedPacks++;
    else {
      ops.renamePacks.push({ id: target.id, name: p.name });
      changedPacks.push({
        index: p.index,
        line: p.line,
        id: target.id,
        name: p.name,
        matched_by: target.by,
        ...(target.id !== p.id ? { file_id: p.id } : {}),
        changes: [{ field: 'name', before: before.name, after: p.name }],
      });
    }
  }

  // hits
  const hits = match(file.hits, new Set(hitById.keys()), (h) => h.yt_id, hitByYt, 'yt_id');
  const addedHits: AddedHit[] = [];
  const changedHits: ChangedHit[] = [];
  let unchangedHits = 0;
  for (const h of file.hits) {
    const target = hits.target.get(h) ?? null;
    const reasons: string[] = [];
    if (h.yt_id !== null) {
      const holder = hitByYt.get(h.yt_id);
      // a database hit the file leaves alone keeps its yt_id, so this row cannot have it
      if (holder !== undefined && holder !== target?.id && !hits.claimed.has(holder)) {
        const other = hitById.get(holder)!;
        reasons.push(`yt_id ${h.yt_id} is already used by hit ${other.id} ("${other.artist} – ${other.title}") in the database`);
      }
    }
    for (const p of h.packs) {
      const bad = badPack.get(p);
      if (bad) reasons.push(`pack ${p} is rejected (${where('packs', bad)})`);
    }
    if (reasons.length > 0) {
      rejectedHits.push(rejectedHit(h, reasons));
      continue;
    }
    const packIds = [...new Set(h.packs.map((p) => packIdMap.get(p)!))].sort();
    if (h.history.length > 0) ops.history.push({ id: target?.id ?? h.id, rows: h.history });
    if (target === null) {
      ops.addHits.push(h);
      ops.addHitPacks.set(h.id, packIds);
      addedHits.push({ index: h.index, line: h.line, id: h.id, artist: h.artist, title: h.title, year: h.year });
      continue;
    }
    const before = hitById.get(target.id)!;
    const after = { ...h, packs: packIds };
    const fields = new Set<HitField>();
    const changes: FieldChange[] = [];
    for (const f of HIT_FIELDS) {
      const same = f === 'packs' ? sameList(before.packs, packIds) : before[f] === after[f];
      if (same) continue;
      fields.add(f);
      changes.push({ field: f, before: before[f], after: after[f] });
    }
    if (fields.size === 0) {
      unchangedHits++;
      continue;
    }
    ops.changeHits.push({ id: target.id, row: h, packs: packIds, fields, yearBefore: before.year });
    changedHits.push({
      index: h.index,
      line: h.line,
      id: target.id,
      artist: h.artist,
      title: h.title,
      year: h.year,
      matched_by: target.by,
      ...(target.id !== h.id && h.idGiven ? { file_id: h.id } : {}),
      changes,
    });
  }
  rejectedHits.sort((a, b) => a.index - b.index);
  rejectedPacks.sort((a, b) => a.index - b.index);

  const summary = {
    hits: { added: addedHits.length, changed: changedHits.length, unchanged: unchangedHits, rejected: rejectedHits.length },
    packs: { added: addedPacks.length, changed: changedPacks.length, unchanged: unchangedPacks, rejected: rejectedPacks.length },
  };
  const ok = file.errors.length === 0 && rejectedHits.length === 0 && rejectedPacks.length === 0;
  const state = { truncated: false };
  const report: ImportReport = {
    ok,
    applied: false,
    message: '',
    errors: file.errors,
    summary,
    hits: { added: cap(addedHits, state), changed: cap(changedHits, state), unchanged: unchangedHits, rejected: cap(rejectedHits, state) },
    packs: { added: cap(addedPacks, state), changed: cap(changedPacks, state), unchanged: unchangedPacks, rejected: cap(rejectedPacks, state) },
    truncated: state.truncated,
  };
  report.message = summaryLine(report);
  return { report, ops };
}

/** "hits: 3 added, 1 changed, 7180 unchanged, 0 rejected; packs: …; …" */
export function summaryLine(r: ImportReport): string {
  const counts = (c: DiffCounts) => `${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.rejected} rejected`;
  const tail = r.applied
    ? 'applied'
    : r.errors.length > 0
      ? 'the file cannot be read; nothing was written'
      : r.ok
        ? 'dry run: nothing was written'
        : 'rejected rows; nothing was written';
  return `hits: ${counts(r.summary.hits)}; packs: ${counts(r.summary.packs)}; ${tail}`;
}
