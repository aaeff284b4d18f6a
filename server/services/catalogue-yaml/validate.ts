import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { HitBodySchema, HitYearSchema, PackBodySchema, YtIdSchema, type RejectedRow } from '../../../shared/protocol/catalogue.ts';
import { boundedText, UuidSchema } from '../../../shared/protocol/common.ts';
import { latestHitYear } from '../../../shared/rules/constants.ts';
import { shownSafely } from '../../../shared/rules/names.ts';
import { readRows, type RawRow, type ReadOptions } from './read.ts';
import { emptyParse, packNameKey, rejectedHit, rejectedPack, where, type HistoryRow, type HitRow, type PackRow, type ParsedHitsFile } from './rows.ts';

/**
 * Checking the rows of a `hits.yml`: each field by the API's own schemas
 * (shared/protocol/catalogue.ts: a row of the file may hold what
 * `POST /api/hits` and `POST /api/hits/packs` accept), then the rules across
 * rows: duplicate ids, yt_ids and pack names, and pack references. A row
 * breaking any rule is rejected with every reason, in words that name the field
 * and show the value ("year must be a whole number from 1 to 2026 (the current
 * year), not 0"), since a curator fixes the file by them.
 *
 * Where the file is stricter than the API it says so here: every field but
 * `id`, `yt_id` and `last_modified` must be present (an export always writes
 * them), an empty yt_id is an error rather than "no video", and ids are the
 * file's own (a row without one is a new hit).
 */

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`);
/** A value as a reason quotes it: strings and numbers as JSON, anything else by its kind. */
const shown = (v: unknown, quoteNumbers: boolean): string => (typeof v === 'string' || (quoteNumbers && typeof v === 'number') ? JSON.stringify(v) : typeName(v));
const isUuid = (v: string): boolean => UuidSchema.safeParse(v).success;

/** RFC 3339 date-time (what `last_modified` holds; the API has no such field). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

// ---------------------------------------------------------------------------
// fields

type TextSchema = z.ZodString;

/**
 * A text field's two schemas: the API's, and for a lenient read (the start-up
 * load, {@link ParseOptions.cleanText} false) the same bounds without the rules
 * of shown text, so that a catalogue made before those rules still loads.
 */
function textRule(api: TextSchema): { clean: TextSchema; lenient: TextSchema } {
  return { clean: api, lenient: boundedText(api.minLength ?? 0, api.maxLength ?? Number.POSITIVE_INFINITY) };
}

const TEXT_RULES = {
  artist: textRule(HitBodySchema.shape.artist),
  title: textRule(HitBodySchema.shape.title),
  belongs_to: textRule(HitBodySchema.shape.belongs_to.unwrap()),
  name: textRule(PackBodySchema.shape.name),
};
const OFFSET = HitBodySchema.shape.playback_offset.unwrap();
const YEAR_RANGE = () => `from ${HitYearSchema.minValue} to ${latestHitYear()} (the current year)`;
const OFFSET_RANGE = () => `from ${OFFSET.minValue} to ${OFFSET.maxValue}`;

function missing(row: Rec, key: string, reasons: string[]): boolean {
  if (Object.hasOwn(row, key)) return false;
  reasons.push(`${key} is missing`);
  return true;
}

/** A required text by its schema; trimmed. Pushes a reason and returns undefined when bad. */
function textField(row: Rec, key: keyof typeof TEXT_RULES, reasons: string[], clean: boolean): string | undefined {
  if (missing(row, key, reasons)) return undefined;
  const v = row[key];
  const result = TEXT_RULES[key][clean ? 'clean' : 'lenient'].safeParse(v);
  if (result.success) return result.data;
  // the first issue only: what a curator fixes first (too long text is not checked character by character)
  const issue = result.error.issues[0]!;
  const problem =
    issue.code === 'invalid_type'
      ? `must be a string, not ${typeName(v)}`
      : issue.code === 'too_small'
        ? issue.minimum === 1
          ? 'must not be empty'
          : `must be at least ${issue.minimum} characters long`
        : issue.code === 'too_big'
          ? `must be at most ${issue.maximum} characters long (it has ${String(v).trim().length})`
          : issue.message;
  reasons.push(`${key} ${problem}`);
  return undefined;
}

/** A required whole number by its schema; `range` says what the schema allows, in the reason. */
function wholeNumber(row: Rec, key: string, schema: z.ZodType<number>, range: () => string, reasons: string[]): number | undefined {
  if (missing(row, key, reasons)) return undefined;
  const v = row[key];
  const result = schema.safeParse(v);
  if (result.success) return result.data;
  reasons.push(`${key} must be a whole number ${range()}, not ${shown(v, true)}`);
  return undefined;
}

function uuid(row: Rec, key: string, reasons: string[]): string | undefined {
  if (missing(row, key, reasons)) return undefined;
  const v = row[key];
  if (typeof v !== 'string' || !isUuid(v)) {
    reasons.push(`${key} must be a UUID, not ${shown(v, false)}`);
    return undefined;
  }
  return v.toLowerCase();
}

/** Optional RFC 3339 time; kept verbatim when in UTC (`Z`), so the export writes back what came in. */
function lastModified(row: Rec, reasons: string[], key = 'last_modified'): string | null | undefined {
  const v = row[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
    reasons.push(`${key} must be an RFC 3339 date and time (like 2025-07-24T09:31:10.506Z), not ${shown(v, false)}`);
    return undefined;
  }
  return /[Zz]$/.test(v) ? v.replace(/[t ]/, 'T').replace(/z$/, 'Z') : new Date(v).toISOString();
}

const HISTORY_TEXT = { by: boundedText(1, 80), reason: boundedText(1, 500) };

/** A hit's year history (optional): a list of `{at, from, to, by, reason}` (docs/api.md#hits-yml). */
function historyList(row: Rec, reasons: string[]): HistoryRow[] | undefined {
  const v = row.history;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    reasons.push(`history must be a list of year changes, not ${typeName(v)}`);
    return undefined;
  }
  const out: HistoryRow[] = [];
  const before = reasons.length;
  v.forEach((item: unknown, i) => {
    const key = `history[${i}]`;
    if (!isRecord(item)) return void reasons.push(`${key} must be a mapping of at, from, to, by and reason, not ${typeName(item)}`);
    const mine: string[] = [];
    const at = lastModified(item, mine, 'at');
    if (at === null) mine.push('at is required');
    const from = item.from === null || item.from === undefined ? null : wholeNumber(item, 'from', HitYearSchema, YEAR_RANGE, mine);
    const to = wholeNumber(item, 'to', HitYearSchema, YEAR_RANGE, mine);
    const by = item.by === null || item.by === undefined ? null : HISTORY_TEXT.by.safeParse(item.by);
    if (by && !by.success) mine.push(`by must be a name of 1 to 80 characters or null, not ${shown(item.by, true)}`);
    const reason = HISTORY_TEXT.reason.safeParse(item.reason);
    if (!reason.success) mine.push(`reason must be a text of 1 to 500 characters, not ${shown(item.reason, true)}`);
    for (const m of mine) reasons.push(`${key}: ${m}`);
    if (mine.length === 0) out.push({ at: at!, from: from ?? null, to: to!, by: by ? by.data! : null, reason: reason.data! });
  });
  return reasons.length > before ? undefined : out;
}

/** A hit's packs: a list of pack ids (null: none), lower case, sorted, each once. */
function packIds(row: Rec, reasons: string[]): string[] | undefined {
  if (missing(row, 'packs', reasons)) return undefined;
  const v = row.packs;
  if (v === null) return [];
  if (!Array.isArray(v)) {
    reasons.push(`packs must be a list of pack ids, not ${typeName(v)}`);
    return undefined;
  }
  const ids = new Set<string>();
  v.forEach((p: unknown, i) => {
    if (typeof p === 'string' && isUuid(p)) ids.add(p.toLowerCase());
    else reasons.push(`packs[${i}] must be a pack id (UUID), not ${shown(p, false)}`);
  });
  return [...ids].sort();
}

/** An optional yt_id (left out or null: no video). */
function ytId(row: Rec, reasons: string[]): string | null | undefined {
  const v = row.yt_id;
  if (v === undefined || v === null) return null;
  if (YtIdSchema.safeParse(v).success) return v as string;
  reasons.push(`yt_id must be 11 characters of A-Z, a-z, 0-9, _ or - (leave it out for a hit without a video), not ${shown(v, false)}`);
  return undefined;
}

// ---------------------------------------------------------------------------
// rows

function labelOf(row: unknown, keys: readonly string[]): string | undefined {
  if (!isRecord(row)) return undefined;
  const parts = keys.map((k) => row[k]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  // labels end up in terminals and logs: no control, direction or invisible characters
  return parts.length > 0 ? parts.map((p) => shownSafely(p.trim().slice(0, 80))).join(' – ') : undefined;
}

function rejected(raw: RawRow, reasons: string[], labelKeys: readonly string[]): RejectedRow {
  const value = 'value' in raw ? raw.value : undefined;
  const id = isRecord(value) && typeof value.id === 'string' ? shownSafely(value.id.slice(0, 80)) : undefined;
  const label = labelOf(value, labelKeys);
  return { index: raw.index, line: raw.line, ...(id !== undefined ? { id } : {}), ...(label !== undefined ? { label } : {}), reasons };
}

const HIT_LABEL = ['artist', 'title'] as const;
const PACK_LABEL = ['name'] as const;

function validateHit(raw: RawRow, clean: boolean): HitRow | RejectedRow {
  if (!('value' in raw)) return rejected(raw, raw.yamlErrors, HIT_LABEL);
  const row = raw.value;
  if (!isRecord(row)) return rejected(raw, [`a hit row must be a mapping of hit fields, not ${typeName(row)}`], HIT_LABEL);
  const reasons: string[] = [];
  const artist = textField(row, 'artist', reasons, clean);
  const title = textField(row, 'title', reasons, clean);
  const belongsTo = textField(row, 'belongs_to', reasons, clean);
  const year = wholeNumber(row, 'year', HitYearSchema, YEAR_RANGE, reasons);
  const packs = packIds(row, reasons);
  const offset = wholeNumber(row, 'playback_offset', OFFSET, OFFSET_RANGE, reasons);
  // a curator adding songs by hand leaves the id out: the row is a new hit, with an id made here
  const idGiven = row.id !== undefined && row.id !== null && row.id !== '';
  const id = idGiven ? uuid(row, 'id', reasons) : randomUUID();
  const yt = ytId(row, reasons);
  const modified = lastModified(row, reasons);
  const history = historyList(row, reasons);
  if (reasons.length > 0) return rejected(raw, reasons, HIT_LABEL);
  return {
    index: raw.index,
    line: raw.line,
    id: id!,
    idGiven,
    artist: artist!,
    title: title!,
    belongs_to: belongsTo!,
    year: year!,
    packs: packs!,
    playback_offset: offset!,
    yt_id: yt!,
    last_modified: modified!,
    history: history!,
  };
}

function validatePack(raw: RawRow, clean: boolean): PackRow | RejectedRow {
  if (!('value' in raw)) return rejected(raw, raw.yamlErrors, PACK_LABEL);
  const row = raw.value;
  if (!isRecord(row)) return rejected(raw, [`a pack row must be a mapping with id and name, not ${typeName(row)}`], PACK_LABEL);
  const reasons: string[] = [];
  const id = uuid(row, 'id', reasons);
  const name = textField(row, 'name', reasons, clean);
  const modified = lastModified(row, reasons);
  if (reasons.length > 0) return rejected(raw, reasons, PACK_LABEL);
  return { index: raw.index, line: raw.line, id: id!, name: name!, last_modified: modified! };
}

const isRejected = (r: HitRow | PackRow | RejectedRow): r is RejectedRow => 'reasons' in r;

/** Field rules per row, then the rules across rows (duplicates, pack references). */
export function checkRows(rawHits: readonly RawRow[], rawPacks: readonly RawRow[], clean: boolean): ParsedHitsFile {
  const out = emptyParse([]);
  const packById = new Map<string, PackRow>();
  const packByName = new Map<string, PackRow>();
  /** Pack ids of rejected pack rows, so a hit naming one is told why. */
  const rejectedPackIds = new Map<string, RejectedRow>();
  for (const raw of rawPacks) {
    const r = validatePack(raw, clean);
    if (isRejected(r)) {
      out.rejectedPacks.push(r);
      if (r.id) rejectedPackIds.set(r.id.toLowerCase(), r);
      continue;
    }
    const reasons: string[] = [];
    const sameId = packById.get(r.id);
    if (sameId) reasons.push(`duplicate id: ${where('packs', sameId)} has the same id`);
    const sameName = packByName.get(packNameKey(r.name));
    if (sameName) reasons.push(`duplicate name: ${where('packs', sameName)} is also called "${sameName.name}" (names are compared ignoring case)`);
    if (reasons.length > 0) {
      const rej = rejectedPack(r, reasons);
      out.rejectedPacks.push(rej);
      if (!sameId) rejectedPackIds.set(r.id, rej);
      continue;
    }
    packById.set(r.id, r);
    packByName.set(packNameKey(r.name), r);
    out.packs.push(r);
  }

  const hitById = new Map<string, HitRow>();
  const hitByYt = new Map<string, HitRow>();
  for (const raw of rawHits) {
    const r = validateHit(raw, clean);
    if (isRejected(r)) {
      out.rejectedHits.push(r);
      continue;
    }
    const reasons: string[] = [];
    const sameId = hitById.get(r.id);
    if (sameId) reasons.push(`duplicate id: ${where('hits', sameId)} has the same id`);
    const sameYt = r.yt_id === null ? undefined : hitByYt.get(r.yt_id);
    if (sameYt) reasons.push(`duplicate yt_id: ${where('hits', sameYt)} has the same yt_id ${r.yt_id}`);
    for (const p of r.packs) {
      if (packById.has(p)) continue;
      const bad = rejectedPackIds.get(p);
      reasons.push(bad ? `pack ${p} is rejected (${where('packs', bad)})` : `pack ${p} is not defined under packs:`);
    }
    if (reasons.length > 0) {
      out.rejectedHits.push(rejectedHit(r, reasons));
      continue;
    }
    hitById.set(r.id, r);
    if (r.yt_id !== null) hitByYt.set(r.yt_id, r);
    out.hits.push(r);
  }
  out.rejectedHits.sort((a, b) => a.index - b.index);
  out.rejectedPacks.sort((a, b) => a.index - b.index);
  return out;
}

/** Options of {@link parseHitsYaml}. */
export interface ParseOptions extends ReadOptions {
  /**
   * Refuse text with direction or invisible characters, as the API does
   * (default true). The start-up load of a catalogue file turns it off: a
   * catalogue made before the rule must not stop the server.
   */
  cleanText?: boolean;
}

/**
 * Reads a `hits.yml` (text, or bytes that must be UTF-8; read.ts) and checks
 * everything that does not need the database: row shapes and field rules,
 * duplicate ids, yt_ids and pack names within the file, and that every pack a
 * hit names is defined under `packs:`. Never throws on bad input; yields to
 * the event loop while it reads.
 */
export async function parseHitsYaml(input: string | Uint8Array, options: ParseOptions = {}): Promise<ParsedHitsFile> {
  const read = await readRows(input, options);
  if (read.errors.length > 0) return emptyParse(read.errors);
  return checkRows(read.hits, read.packs, options.cleanText ?? true);
}
