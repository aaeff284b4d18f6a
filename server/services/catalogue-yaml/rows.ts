import type { ImportFileProblem, RejectedRow } from '../../../shared/protocol/catalogue.ts';

/**
 * What a `hits.yml` holds once read and checked (validate.ts makes it; plan.ts
 * compares it with the database): valid rows with their place in the file, the
 * rows that cannot be imported, and problems with the file as a whole.
 */

/** A valid hit row of a file. Ids are lower case; `packs` sorted and without duplicates. */
export interface HitRow {
  /** 0-based position in the file's `hits:` list. */
  index: number;
  /** 1-based line where the row starts. */
  line: number;
  /** The file's id, or a new one when the row has none ({@link idGiven} false). */
  id: string;
  /** Whether the file gave the id; a row without one is a new hit (or a database hit's, by its yt_id). */
  idGiven: boolean;
  artist: string;
  title: string;
  belongs_to: string;
  year: number;
  packs: string[];
  playback_offset: number;
  yt_id: string | null;
  last_modified: string | null;
  /** The hit's year changes as the file keeps them (docs/api.md#hits-yml), oldest first; [] when it has none. */
  history: HistoryRow[];
}

/** One year change of a hit in a file: the columns of `hit_history`. */
export interface HistoryRow {
  at: string;
  from: number | null;
  to: number;
  by: string | null;
  reason: string;
}

/** A valid pack row of a file. */
export interface PackRow {
  index: number;
  line: number;
  id: string;
  name: string;
  last_modified: string | null;
}

/** A read file: valid rows, rejected rows, file problems. Checks against the database come later (plan.ts). */
export interface ParsedHitsFile {
  errors: ImportFileProblem[];
  hits: HitRow[];
  packs: PackRow[];
  rejectedHits: RejectedRow[];
  rejectedPacks: RejectedRow[];
}

export function emptyParse(errors: ImportFileProblem[]): ParsedHitsFile {
  return { errors, hits: [], packs: [], rejectedHits: [], rejectedPacks: [] };
}

/** The unique, case-insensitive identity of a pack name (the `packs.name_key` column). */
export const packNameKey = (name: string): string => name.toLowerCase();

/** How a reason names another row: `hits[3] (line 40)`. */
export const where = (list: 'hits' | 'packs', r: { index: number; line: number }): string => `${list}[${r.index}] (line ${r.line})`;

/** The label of a valid hit row in a rejection. */
export const hitLabel = (h: Pick<HitRow, 'artist' | 'title'>): string => `${h.artist} – ${h.title}`;

/** A valid hit row refused by a rule across rows or against the database: its id only when the file gave one. */
export const rejectedHit = (h: HitRow, reasons: string[]): RejectedRow => ({
  index: h.index,
  line: h.line,
  ...(h.idGiven ? { id: h.id } : {}),
  label: hitLabel(h),
  reasons,
});

/** A valid pack row refused by a rule across rows or against the database. */
export const rejectedPack = (p: PackRow, reasons: string[]): RejectedRow => ({ index: p.index, line: p.line, id: p.id, label: p.name, reasons });
