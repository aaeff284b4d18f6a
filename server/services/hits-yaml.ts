import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { UuidSchema } from '../../shared/protocol/common.ts';
import { latestHitYear } from '../../shared/rules/constants.ts';
import { shownSafely, textProblem } from '../../shared/rules/names.ts';
import { isoNow, type Db } from '../db/index.ts';
import { foldWord, queryWords, textTerms, type HitSearchIndex } from './search.ts';

/**
 * The catalogue file (`hits.yml`, docs/api.md#hits-yml) read and written: parse and
 * validate, a dry-run diff against the database, an all-or-nothing apply, and a
 * byte-stable export (docs/api.md#b8, issue 5).
 *
 * Reading works row by row: a fast line scan cuts the block-style file (the layout
 * every exporter of this format writes) into one chunk per list item, and each
 * chunk is parsed on its own. So one broken row is reported with its line while the
 * others are still checked, memory stays bounded whatever the file size, the event
 * loop gets control back every few milliseconds (game rooms share it), and garbage
 * is turned away at its first line instead of being fed whole to the YAML parser
 * (which needs 40 s and 4 GB for 20 MB of `- 1` lines). Rows in the exact shapes
 * the export writes are read without the YAML parser ({@link fastRow}, ~5× faster
 * overall; anything unusual in a row goes to the parser). Files in another layout
 * (flow style, JSON) are parsed whole, up to {@link MAX_WHOLE_PARSE_BYTES}.
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
 *   a hit instead.)
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
// limits

/** Largest file the HTTP import (413 above) and, by default, the CLI accept. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/**
 * Files not in block layout are parsed whole, in one synchronous parse that
 * holds the event loop (every game room of the process waits) and costs far
 * more memory per byte: ~60 ms for 256 KB of flow style on a 2-core server,
 * ~0.5–0.8 s for 1.8 MB. Larger ones are told to use the block layout.
 */
export const MAX_WHOLE_PARSE_BYTES = 256 * 1024;
/** Hit plus pack rows per file (a 100,000-hit catalogue is ~30 MB; this is a sanity bound). */
export const MAX_ROWS = 500_000;
/** One row's text; a real hit row is ~300 bytes, a hit in every one of 55 packs ~2.5 KB. */
export const MAX_ROW_BYTES = 64 * 1024;
/** Per list in a report (added, changed, rejected): a huge file should not give a huge answer; counts stay exact. */
export const MAX_REPORTED_ROWS = 1000;
/** Alias expansion limit per row (billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;
/** The longest stretch of parsing between two yields to the event loop. */
const SLICE_MS = 8;

const TEXT_MAX = 300;
const PACK_NAME_MAX = 100;
const YEAR_MIN = 1;
const OFFSET_MAX = 65_535;
const YT_ID = /^[A-Za-z0-9_-]{11}$/;
const CONTROL_CHARACTERS = /\p{Cc}/u;
/** RFC 3339 date-time (what `last_modified` holds). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

// ---------------------------------------------------------------------------
// types

/** A problem with the file as a whole (size, encoding, YAML structure); nothing is read when there is one. */
export interface FileProblem {
  /** 1-based line, when the problem has one. */
  line?: number;
  column?: number;
  message: string;
}

/** A row that cannot be imported, and every reason why. */
export interface RejectedRow {
  /** 0-based position in its list (`hits[index]` / `packs[index]`). */
  index: number;
  /** 1-based line where the row starts. */
  line: number;
  /** The row's id when it had a readable one. */
  id?: string;
  /** "artist" and "title" of a hit row, "name" of a pack row, when readable: helps find the row. */
  label?: string;
  reasons: string[];
}

/** A valid hit row of a file. Ids are lower case; `packs` sorted and without duplicates. */
export interface HitRow {
  index: number;
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
}

/** A valid pack row of a file. */
export interface PackRow {
  index: number;
  line: number;
  id: string;
  name: string;
  last_modified: string | null;
}

/** What {@link parseHitsYaml} read: valid rows, rejected rows, file problems. Checks against the database come later. */
export interface ParsedHitsFile {
  errors: FileProblem[];
  hits: HitRow[];
  packs: PackRow[];
  rejectedHits: RejectedRow[];
  rejectedPacks: RejectedRow[];
}

/** Fields compared to decide whether a hit changed. */
export const HIT_FIELDS = ['artist', 'title', 'belongs_to', 'year', 'packs', 'playback_offset', 'yt_id'] as const;
export type HitField = (typeof HIT_FIELDS)[number];

/** One field of a changed row: its value in the database and in the file. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** A hit the import adds. */
export interface AddedHit {
  index: number;
  line: number;
  id: string;
  artist: string;
  title: string;
  year: number;
}

/** A hit the import changes: `id` is the database's id. */
export interface ChangedHit extends AddedHit {
  /** How the file's row found the database hit. */
  matched_by: 'id' | 'yt_id';
  /** The file's id when it differs (matched by yt_id). */
  file_id?: string;
  changes: FieldChange[];
}

export interface AddedPack {
  index: number;
  line: number;
  id: string;
  name: string;
}

export interface ChangedPack extends AddedPack {
  matched_by: 'id' | 'name';
  file_id?: string;
  changes: FieldChange[];
}

/** Exact counts of one list (the row lists of a report may be cut at {@link MAX_REPORTED_ROWS}). */
export interface DiffCounts {
  added: number;
  changed: number;
  unchanged: number;
  rejected: number;
}

/**
 * The dry-run diff (and, after an apply, what was written). `ok` = no file error
 * and no rejected row, so the file can be applied.
 */
export interface ImportReport {
  ok: boolean;
  applied: boolean;
  /** One line: the counts, and whether anything was written. */
  message: string;
  errors: FileProblem[];
  summary: { hits: DiffCounts; packs: DiffCounts };
  hits: { added: AddedHit[]; changed: ChangedHit[]; unchanged: number; rejected: RejectedRow[] };
  packs: { added: AddedPack[]; changed: ChangedPack[]; unchanged: number; rejected: RejectedRow[] };
  /** True when a row list was cut at MAX_REPORTED_ROWS entries. */
  truncated: boolean;
}

// ---------------------------------------------------------------------------
// reading

const problem = (message: string, line?: number, column?: number): FileProblem => ({
  ...(line !== undefined ? { line } : {}),
  ...(column !== undefined ? { column } : {}),
  message,
});
const mb = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

function emptyParse(errors: FileProblem[]): ParsedHitsFile {
  return { errors, hits: [], packs: [], rejectedHits: [], rejectedPacks: [] };
}

/** The parse result of a file over the size limit (also used by callers that check the size before reading). */
export function tooLargeFile(bytes: number, maxBytes: number): ParsedHitsFile {
  return emptyParse([problem(`the file is too large (${mb(bytes)}); the import takes at most ${mb(maxBytes)}`)]);
}

/** 1-based line of `offset` in `text` (only used on error paths). */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** One list item's text: [start, end) of the file, starting at `line`. */
interface Chunk {
  start: number;
  end: number;
  line: number;
}

type Layout =
  | { kind: 'block'; hits: Chunk[]; packs: Chunk[] }
  | { kind: 'other' }
  | { kind: 'error'; problem: FileProblem };

const NOT_A_MAPPING = 'the file is not a hits.yml: it must be a YAML mapping with the keys hits: and packs:';
const SECTION_NAMES = new Set(['hits', 'packs']);

/** The text after `key:` on a top-level key line, without a trailing comment. */
function inlineValue(rest: string): string {
  const comment = rest.search(/(^|\s)#/);
  return (comment === -1 ? rest : rest.slice(0, comment)).trim();
}

/**
 * Cuts a block-layout file into its `hits:` and `packs:` list items, looking only
 * at where lines start: top-level keys at column 0, items at one indentation per
 * list. Blank and comment lines belong to the item before them; anything a chunk
 * gets wrong inside a row is left to the YAML parser of that row to report.
 */
function scanLayout(text: string): Layout {
  const chunks = { hits: [] as Chunk[], packs: [] as Chunk[] };
  const seenAt = new Map<string, number>();
  /** The open top-level key: a hits/packs list, or another key whose content is skipped. */
  let section: { name: 'hits' | 'packs' | 'other'; line: number; inline: boolean; indent: number } | null = null;
  let current: Chunk | null = null;
  let rows = 0;
  let sawContent = false;
  let ended = false;
  const close = (at: number) => {
    if (current) current.end = at;
    current = null;
  };
  const fail = (message: string, line?: number): Layout => ({ kind: 'error', problem: problem(message, line) });

  let line = 0;
  for (let pos = 0; pos <= text.length; ) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const start = pos;
    pos = end + 1;
    line++;
    let i = start;
    while (i < end && text.charCodeAt(i) === 32) i++;
    let j = i;
    while (j < end && (text.charCodeAt(j) === 9 || text.charCodeAt(j) === 13 || text.charCodeAt(j) === 32)) j++;
    if (j >= end || text.charCodeAt(j) === 35 /* # */) continue; // blank or comment
    const indent = i - start;
    const lineText = () => text.slice(start, end).replace(/\r$/, '');
    const isItem = text.charCodeAt(i) === 45 /* - */ && (i + 1 >= end || /[ \t\r]/.test(text[i + 1]!));
    if (ended) return fail('content after the document end marker "..."; a hits.yml holds one YAML document', line);

    if (indent === 0) {
      const head = text.slice(start, Math.min(end, start + 4));
      if (/^(---|\.\.\.)([ \t\r]|$)/.test(head)) {
        const marker = head.slice(0, 3);
        if (marker === '...') {
          close(start);
          ended = true;
          continue;
        }
        // a document start marker before any content is fine; with content on its line, or a second document, it is not our layout
        if (!sawContent && inlineValue(lineText().slice(3)) === '') continue;
        return { kind: 'other' };
      }
      if (!sawContent && text.charCodeAt(i) === 37 /* % directive */) continue;
      if (isItem) {
        sawContent = true;
        if (section === null) return fail(`${NOT_A_MAPPING} (it is a list)`, line);
        if (section.name === 'other') continue;
        if (section.inline) return fail(`${section.name}: already has a value on line ${section.line}`, line);
        if (section.indent !== -1 && section.indent !== 0) return fail(`this list item is not indented like the other items of ${section.name}: (line ${section.line})`, line);
        section.indent = 0;
        close(start);
        if (++rows > MAX_ROWS) return fail(`the file has more than ${MAX_ROWS.toLocaleString('en')} rows`, line);
        current = { start, end: text.length, line };
        chunks[section.name].push(current);
        continue;
      }
      const c = text[i]!;
      if (c === '{' || c === '[') {
        if (!sawContent) return { kind: 'other' };
        return fail('unexpected flow collection at the top level; expected a key such as packs:', line);
      }
      // a top-level key: `name:` followed by a space or the line end
      const m = /^("[^"]*"|'[^']*'|[^\s#'"][^#]*?)[ \t]*:(?=[ \t\r]|$)(.*)$/.exec(lineText());
      if (!m) return fail(sawContent ? 'expected a list item (- …) or a top-level key (hits:, packs:)' : NOT_A_MAPPING, line);
      sawContent = true;
      close(start);
      const key = /^["']/.test(m[1]!) ? m[1]!.slice(1, -1) : m[1]!;
      if (!SECTION_NAMES.has(key)) {
        section = { name: 'other', line, inline: false, indent: -1 };
        continue;
      }
      const name = key as 'hits' | 'packs';
      const first = seenAt.get(name);
      if (first !== undefined) return fail(`${name}: appears twice (first on line ${first})`, line);
      seenAt.set(name, line);
      const value = inlineValue(m[2]!);
      if (value === '' || value === '[]' || /^(null|Null|NULL|~)$/.test(value)) {
        section = { name, line, inline: value !== '', indent: -1 };
        continue;
      }
      if (value.startsWith('[')) return { kind: 'other' }; // a flow list: parse the file whole
      return fail(`${name} must be a list`, line);
    }

    // an indented line
    if (section === null) {
      if (!sawContent) return { kind: 'other' }; // an indented root mapping is valid YAML, just not our layout
      return fail('unexpected indentation at the top level', line);
    }
    sawContent = true;
    if (section.name === 'other') continue;
    if (section.inline) return fail(`${section.name}: already has a value on line ${section.line}`, line);
    if (section.indent === -1) {
      if (!isItem) return fail(`${section.name} must be a list of rows, each starting with "- "`, line);
      section.indent = indent;
    }
    if (indent === section.indent && isItem) {
      close(start);
      if (++rows > MAX_ROWS) return fail(`the file has more than ${MAX_ROWS.toLocaleString('en')} rows`, line);
      current = { start, end: text.length, line };
      chunks[section.name].push(current);
      continue;
    }
    // anything else continues the open row; a badly indented line becomes that row's YAML error
    if (current === null) return fail(`expected a list item of ${section.name}: at column ${section.indent + 1}`, line);
  }
  close(text.length);
  for (const name of ['hits', 'packs'] as const) {
    if (!seenAt.has(name)) return fail(sawContent ? `the file has no ${name}: list` : NOT_A_MAPPING);
  }
  return { kind: 'block', ...chunks };
}

/** A row as the YAML parser gave it, or the YAML errors that kept it from being read. */
type RawRow = { index: number; line: number; value: unknown } | { index: number; line: number; yamlErrors: string[] };

/** "Bad indentation … at line 2, column 3:\n\n<excerpt>" → the message alone. */
const bareMessage = (message: string): string => message.replace(/ at line \d+, column \d+[\s\S]*$/, '').trim();

const PARSE_OPTIONS = { uniqueKeys: true, prettyErrors: true, strict: true, version: '1.2' } as const;

/** A scalar in one of the forms {@link formatHitsYaml} writes: a small whole number, a single-quoted or a plain string. */
function simpleScalar(v: string): unknown {
  if (/^(0|[1-9]\d{0,14})$/.test(v)) return Number(v);
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) {
    const inner = v.slice(1, -1);
    // a lone quote inside, or a character that needs escaping, is for the YAML parser to judge
    if (inner.replaceAll("''", '').includes("'") || NEEDS_ESCAPES.test(inner)) return undefined;
    return inner.replaceAll("''", "'");
  }
  // exactly the plain scalars yamlScalar writes: any YAML reader takes them as this very string
  return yamlScalar(v) === v ? v : undefined;
}

/**
 * A list item's text without the comment the export writes after it (`3f2c… # Seventies`).
 * A plain scalar cannot hold " #" (it starts a comment), and a single-quoted one that
 * holds it is cut where {@link simpleScalar} refuses the rest (an unbalanced quote),
 * so what stays is the scalar exactly when the YAML parser would read it so.
 */
function withoutComment(item: string): string {
  const at = item.indexOf(' #');
  return at === -1 ? item : item.slice(0, at).trimEnd();
}

/**
 * Reads a row written in the export's own shapes (`key: scalar` lines, and lists
 * of scalars under a bare `key:`), some fifty times faster than the YAML parser.
 * Returns undefined for anything else (other comments, other quoting, nesting, anchors,
 * CRLF …), which then goes to the YAML parser: an optimisation that never reads a
 * row differently (the tests compare both on real files).
 */
function fastRow(text: string, chunk: Chunk): unknown {
  const body = text.slice(chunk.start, chunk.end).replace(/\n+$/, '');
  if (body.includes('\r') || body.includes('\t')) return undefined;
  const lines = body.split('\n');
  const first = /^( *)- (.*)$/.exec(lines[0]!);
  if (!first) return undefined;
  // a bare scalar item (never a valid row, but garbage files are made of them)
  if (lines.length === 1 && !/^[a-z_]+:( |$)/.test(first[2]!)) return simpleScalar(first[2]!);
  const indent = first[1]!.length + 2;
  const row: Record<string, unknown> = {};
  /** Keys written bare (`packs:`): a list when items follow, YAML's null when none do. */
  const bare: string[] = [];
  let list: unknown[] | null = null;
  let listIndent = -1;
  for (let n = 0; n < lines.length; n++) {
    const line = n === 0 ? ' '.repeat(indent) + first[2]! : lines[n]!;
    let i = 0;
    while (line.charCodeAt(i) === 32) i++;
    // list items sit at the key's indentation (the reference writer) or two deeper (most others)
    if (list !== null && line.startsWith('- ', i) && (listIndent === -1 ? i === indent || i === indent + 2 : i === listIndent)) {
      listIndent = i;
      const item = simpleScalar(withoutComment(line.slice(i + 2)));
      if (item === undefined) return undefined;
      list.push(item);
      continue;
    }
    if (i !== indent) return undefined;
    const m = /^([a-z_]+):(?: (.*))?$/.exec(line.slice(i));
    if (!m || m[1] === '__proto__' || Object.hasOwn(row, m[1]!)) return undefined;
    const key = m[1]!;
    list = null;
    listIndent = -1;
    if (m[2] === undefined) {
      list = [];
      row[key] = list;
      bare.push(key);
    } else if (m[2] === '[]') row[key] = [];
    else {
      const value = simpleScalar(m[2]);
      if (value === undefined) return undefined;
      row[key] = value;
    }
  }
  for (const key of bare) if ((row[key] as unknown[]).length === 0) row[key] = null;
  return row;
}

/** Parses one chunk (a one-item YAML list) into its row value. */
function parseChunk(text: string, chunk: Chunk, index: number, fastPath: boolean): RawRow {
  if (chunk.end - chunk.start > MAX_ROW_BYTES) {
    return { index, line: chunk.line, yamlErrors: [`the row is ${Math.ceil((chunk.end - chunk.start) / 1024)} KB long; a row may have at most ${MAX_ROW_BYTES / 1024} KB`] };
  }
  const fast = fastPath ? fastRow(text, chunk) : undefined;
  if (fast !== undefined) return { index, line: chunk.line, value: fast };
  const doc = parseDocument(text.slice(chunk.start, chunk.end), PARSE_OPTIONS);
  const at = (e: { linePos?: readonly { line: number; col: number }[] | undefined }) => {
    const pos = e.linePos?.[0];
    return pos ? ` at line ${pos.line + chunk.line - 1}, column ${pos.col}` : '';
  };
  if (doc.errors.length > 0) {
    return { index, line: chunk.line, yamlErrors: doc.errors.slice(0, 3).map((e) => `broken YAML${at(e)}: ${bareMessage(e.message)}`) };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return { index, line: chunk.line, yamlErrors: [`broken YAML: ${bareMessage((e as Error).message)}`] };
  }
  if (!Array.isArray(value) || value.length !== 1) return { index, line: chunk.line, yamlErrors: ['broken YAML: the row is not a single list item'] };
  return { index, line: chunk.line, value: value[0] };
}

/** Parses every chunk, giving the event loop back every {@link SLICE_MS}. */
async function parseChunks(text: string, chunks: Chunk[], fastPath: boolean): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    rows.push(parseChunk(text, chunks[i]!, i, fastPath));
    if ((i & 31) === 31 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return rows;
}

/** The other layouts (flow style, JSON, indented root): one YAML parse of the whole (small) file. */
function parseWhole(text: string): { errors: FileProblem[]; hits: RawRow[]; packs: RawRow[] } {
  const bytes = Buffer.byteLength(text);
  const fail = (p: FileProblem) => ({ errors: [p], hits: [], packs: [] });
  if (bytes > MAX_WHOLE_PARSE_BYTES) {
    return fail(problem(`the file is not in the block layout the export writes (hits: then one "- " item per row), and such files may have at most ${mb(MAX_WHOLE_PARSE_BYTES)} (this one has ${mb(bytes)})`));
  }
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter });
  } catch (e) {
    return fail(problem(`broken YAML: ${bareMessage((e as Error).message)}`));
  }
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.slice(0, 20).map((e) => problem(`broken YAML: ${bareMessage(e.message)}`, e.linePos?.[0].line, e.linePos?.[0].col)),
      hits: [],
      packs: [],
    };
  }
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return fail(problem(`broken YAML: ${bareMessage((e as Error).message)}`));
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return fail(problem(NOT_A_MAPPING, 1));
  const result = { errors: [] as FileProblem[], hits: [] as RawRow[], packs: [] as RawRow[] };
  for (const name of ['hits', 'packs'] as const) {
    if (!Object.hasOwn(root, name)) {
      result.errors.push(problem(`the file has no ${name}: list`));
      continue;
    }
    const list = (root as Record<string, unknown>)[name];
    if (list === null) continue;
    if (!Array.isArray(list)) {
      result.errors.push(problem(`${name} must be a list`));
      continue;
    }
    if (list.length > MAX_ROWS) {
      result.errors.push(problem(`the file has more than ${MAX_ROWS.toLocaleString('en')} rows`));
      continue;
    }
    const node = doc.get(name, true) as { items?: YamlNode[] } | undefined;
    result[name] = list.map((value, index) => {
      const at = node?.items?.[index]?.range?.[0];
      return { index, line: at === undefined ? 0 : lineCounter.linePos(at).line, value };
    });
  }
  return result;
}

// ---------------------------------------------------------------------------
// row validation

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`);
const isUuid = (v: string): boolean => UuidSchema.safeParse(v).success;

/**
 * A required text: trimmed, `min..max` characters, no control characters, and
 * when `clean` by the rules of shown text (shared/rules/names.ts: no direction
 * or invisible characters, as the API refuses them). Pushes a reason and
 * returns undefined when bad.
 */
function textField(row: Rec, key: string, min: number, max: number, reasons: string[], clean: boolean): string | undefined {
  if (!Object.hasOwn(row, key)) {
    reasons.push(`${key} is missing`);
    return undefined;
  }
  const v = row[key];
  if (typeof v !== 'string') {
    reasons.push(`${key} must be a string, not ${typeName(v)}`);
    return undefined;
  }
  const s = v.trim();
  const problem =
    s.length < min
      ? min === 1
        ? 'must not be empty'
        : `must be at least ${min} characters long`
      : s.length > max
        ? `must be at most ${max} characters long (it has ${s.length})`
        : clean
          ? textProblem(s)
          : CONTROL_CHARACTERS.test(s)
            ? 'must not contain control characters'
            : undefined;
  if (problem === undefined) return s;
  reasons.push(`${key} ${problem}`);
  return undefined;
}

/** `max` given as `[value, why]` names its reason in the message ("from 1 to 2026 (the current year)"). */
function wholeNumber(row: Rec, key: string, min: number, max: number | [number, string], reasons: string[]): number | undefined {
  const [top, why] = typeof max === 'number' ? [max, ''] : [max[0], ` (${max[1]})`];
  if (!Object.hasOwn(row, key)) {
    reasons.push(`${key} is missing`);
    return undefined;
  }
  const v = row[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > top) {
    reasons.push(`${key} must be a whole number from ${min} to ${top}${why}, not ${typeof v === 'number' || typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`);
    return undefined;
  }
  return v;
}

function uuid(row: Rec, key: string, reasons: string[]): string | undefined {
  if (!Object.hasOwn(row, key)) {
    reasons.push(`${key} is missing`);
    return undefined;
  }
  const v = row[key];
  if (typeof v !== 'string' || !isUuid(v)) {
    reasons.push(`${key} must be a UUID, not ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`);
    return undefined;
  }
  return v.toLowerCase();
}

/** Optional RFC 3339 time; kept verbatim when in UTC (`Z`), so the export writes back what came in. */
function lastModified(row: Rec, reasons: string[]): string | null | undefined {
  const v = row.last_modified;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
    reasons.push(`last_modified must be an RFC 3339 date and time (like 2025-07-24T09:31:10.506Z), not ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`);
    return undefined;
  }
  return /[Zz]$/.test(v) ? v.replace(/[t ]/, 'T').replace(/z$/, 'Z') : new Date(v).toISOString();
}

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
  const artist = textField(row, 'artist', 1, TEXT_MAX, reasons, clean);
  const title = textField(row, 'title', 1, TEXT_MAX, reasons, clean);
  const belongsTo = textField(row, 'belongs_to', 0, TEXT_MAX, reasons, clean);
  const year = wholeNumber(row, 'year', YEAR_MIN, [latestHitYear(), 'the current year'], reasons);
  let packs: string[] | undefined;
  if (!Object.hasOwn(row, 'packs')) reasons.push('packs is missing');
  else if (row.packs === null) packs = [];
  else if (!Array.isArray(row.packs)) reasons.push(`packs must be a list of pack ids, not ${typeName(row.packs)}`);
  else {
    const ids = new Set<string>();
    row.packs.forEach((p, i) => {
      if (typeof p === 'string' && isUuid(p)) ids.add(p.toLowerCase());
      else reasons.push(`packs[${i}] must be a pack id (UUID), not ${typeof p === 'string' ? JSON.stringify(p) : typeName(p)}`);
    });
    packs = [...ids].sort();
  }
  const offset = wholeNumber(row, 'playback_offset', 0, OFFSET_MAX, reasons);
  // a curator adding songs by hand leaves the id out: the row is a new hit, with an id made here
  const idGiven = row.id !== undefined && row.id !== null && row.id !== '';
  const id = idGiven ? uuid(row, 'id', reasons) : randomUUID();
  let ytId: string | null | undefined = null;
  if (row.yt_id !== undefined && row.yt_id !== null) {
    if (typeof row.yt_id !== 'string' || !YT_ID.test(row.yt_id)) {
      reasons.push(
        `yt_id must be 11 characters of A-Z, a-z, 0-9, _ or - (leave it out for a hit without a video), not ${typeof row.yt_id === 'string' ? JSON.stringify(row.yt_id) : typeName(row.yt_id)}`,
      );
      ytId = undefined;
    } else ytId = row.yt_id;
  }
  const modified = lastModified(row, reasons);
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
    yt_id: ytId!,
    last_modified: modified!,
  };
}

function validatePack(raw: RawRow, clean: boolean): PackRow | RejectedRow {
  if (!('value' in raw)) return rejected(raw, raw.yamlErrors, PACK_LABEL);
  const row = raw.value;
  if (!isRecord(row)) return rejected(raw, [`a pack row must be a mapping with id and name, not ${typeName(row)}`], PACK_LABEL);
  const reasons: string[] = [];
  const id = uuid(row, 'id', reasons);
  const name = textField(row, 'name', 1, PACK_NAME_MAX, reasons, clean);
  const modified = lastModified(row, reasons);
  if (reasons.length > 0) return rejected(raw, reasons, PACK_LABEL);
  return { index: raw.index, line: raw.line, id: id!, name: name!, last_modified: modified! };
}

const isRejected = (r: HitRow | PackRow | RejectedRow): r is RejectedRow => 'reasons' in r;
const where = (list: string, r: { index: number; line: number }) => `${list}[${r.index}] (line ${r.line})`;

/** The unique, case-insensitive identity of a pack name (the `packs.name_key` column). */
export const packNameKey = (name: string): string => name.toLowerCase();

/** Options of {@link parseHitsYaml}. */
export interface ParseOptions {
  /** Byte limit (default {@link MAX_IMPORT_BYTES}). */
  maxBytes?: number;
  /** Read rows in the export's own shapes without the YAML parser (default true; tests turn it off to compare). */
  fastPath?: boolean;
  /**
   * Refuse text with direction or invisible characters, as the API does
   * (default true). The start-up load of a catalogue file turns it off: a
   * catalogue made before the rule must not stop the server.
   */
  cleanText?: boolean;
}

/**
 * Reads a `hits.yml` (text, or bytes that must be UTF-8) and checks everything that
 * does not need the database: YAML, row shapes and field rules (docs/api.md#b6),
 * duplicate ids, yt_ids and pack names within the file, and that every pack a hit
 * names is defined under `packs:`. Never throws on bad input; yields to the event
 * loop while it works.
 */
export async function parseHitsYaml(input: string | Uint8Array, options: ParseOptions = {}): Promise<ParsedHitsFile> {
  const maxBytes = options.maxBytes ?? MAX_IMPORT_BYTES;
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (bytes > maxBytes) return tooLargeFile(bytes, maxBytes);
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return emptyParse([problem('the file is not UTF-8 text')]);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return emptyParse([problem('the file is empty')]);
  const nul = text.indexOf('\u0000');
  if (nul !== -1) return emptyParse([problem('the file contains binary data (a NUL character): it is not a YAML text file', lineAt(text, nul))]);

  const layout = scanLayout(text);
  let rawHits: RawRow[];
  let rawPacks: RawRow[];
  if (layout.kind === 'error') {
    // the layout's complaint may only be a consequence of broken YAML (an unterminated quote
    // that swallowed the packs: key): the YAML parser's errors, with their lines, say more
    const missingList = /^the file has no (hits|packs): list$/.test(layout.problem.message);
    const whole = missingList && Buffer.byteLength(text) <= MAX_WHOLE_PARSE_BYTES ? parseWhole(text) : null;
    const broken = whole?.errors.filter((e) => e.message.startsWith('broken YAML')) ?? [];
    return emptyParse(broken.length > 0 ? broken : [layout.problem]);
  }
  if (layout.kind === 'block') {
    const fastPath = options.fastPath ?? true;
    rawHits = await parseChunks(text, layout.hits, fastPath);
    rawPacks = await parseChunks(text, layout.packs, fastPath);
  } else {
    const whole = parseWhole(text);
    if (whole.errors.length > 0) return emptyParse(whole.errors);
    rawHits = whole.hits;
    rawPacks = whole.packs;
  }
  return checkRows(rawHits, rawPacks, options.cleanText ?? true);
}

/** Field rules per row, then the rules across rows (duplicates, pack references). */
function checkRows(rawHits: RawRow[], rawPacks: RawRow[], clean: boolean): ParsedHitsFile {
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
      const rej: RejectedRow = { index: r.index, line: r.line, id: r.id, label: r.name, reasons };
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
      out.rejectedHits.push({ index: r.index, line: r.line, ...(r.idGiven ? { id: r.id } : {}), label: `${r.artist} – ${r.title}`, reasons });
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

// ---------------------------------------------------------------------------
// diff against the database

interface DbHit {
  id: string;
  title: string;
  artist: string;
  year: number;
  belongs_to: string;
  yt_id: string | null;
  playback_offset: number;
  packs: string[];
}

interface DbPack {
  id: string;
  name: string;
  name_key: string;
}

/** The catalogue as the diff needs it. */
interface Snapshot {
  hits: Map<string, DbHit>;
  hitByYt: Map<string, string>;
  packs: Map<string, DbPack>;
  packByKey: Map<string, string>;
}

async function loadSnapshot(db: Db): Promise<Snapshot> {
  const hitRows = await db.selectFrom('hits').select(['id', 'title', 'artist', 'year', 'belongs_to', 'yt_id', 'playback_offset']).execute();
  const links = await db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).execute();
  const packRows = await db.selectFrom('packs').select(['id', 'name', 'name_key']).execute();
  const hits = new Map<string, DbHit>();
  const hitByYt = new Map<string, string>();
  for (const h of hitRows) {
    hits.set(h.id, { ...h, packs: [] });
    if (h.yt_id !== null) hitByYt.set(h.yt_id, h.id);
  }
  for (const l of links) hits.get(l.hit_id)?.packs.push(l.pack_id);
  for (const h of hits.values()) h.packs.sort();
  const packs = new Map<string, DbPack>();
  const packByKey = new Map<string, string>();
  for (const p of packRows) {
    packs.set(p.id, p);
    packByKey.set(p.name_key, p.id);
  }
  return { hits, hitByYt, packs, packByKey };
}

/** What an apply writes. */
interface ImportOps {
  addPacks: PackRow[];
  renamePacks: { id: string; name: string }[];
  addHits: HitRow[];
  /** The file's row written over database hit `id` (which may differ from row.id). */
  changeHits: { id: string; row: HitRow; packs: string[]; fields: Set<HitField> }[];
  /** Pack links of added hits (target pack ids). */
  addHitPacks: Map<string, string[]>;
}

interface Plan {
  report: ImportReport;
  ops: ImportOps;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function cap<T>(list: T[], state: { truncated: boolean }): T[] {
  if (list.length <= MAX_REPORTED_ROWS) return list;
  state.truncated = true;
  return list.slice(0, MAX_REPORTED_ROWS);
}

/** Why a pack row is refused to a user who may edit hits but not packs (docs/product.md#states: packs are write_packs'). */
export const PACKS_NEED_PERMISSION = 'adding or renaming a pack needs the write_packs permission';

/**
 * The diff of a parsed file against a snapshot: matches, changes, conflicts with
 * the database, and the writes; without `packsAllowed`, pack rows that would add
 * or rename a pack are rejected.
 */
function plan(file: ParsedHitsFile, snap: Snapshot, packsAllowed = true): Plan {
  const rejectedPacks = [...file.rejectedPacks];
  const rejectedHits = [...file.rejectedHits];

  // packs: by id first, then by name for the rest
  const packTarget = new Map<string, { id: string; by: 'id' | 'name' } | null>();
  const claimedPacks = new Set<string>();
  for (const p of file.packs) {
    if (snap.packs.has(p.id)) {
      packTarget.set(p.id, { id: p.id, by: 'id' });
      claimedPacks.add(p.id);
    }
  }
  for (const p of file.packs) {
    if (packTarget.has(p.id)) continue;
    const holder = snap.packByKey.get(packNameKey(p.name));
    if (holder !== undefined && !claimedPacks.has(holder)) {
      packTarget.set(p.id, { id: holder, by: 'name' });
      claimedPacks.add(holder);
    } else packTarget.set(p.id, null);
  }
  const ops: ImportOps = { addPacks: [], renamePacks: [], addHits: [], changeHits: [], addHitPacks: new Map() };
  const addedPacks: AddedPack[] = [];
  const changedPacks: ChangedPack[] = [];
  let unchangedPacks = 0;
  /** File pack id → database pack id, for the packs that will exist. */
  const packIdMap = new Map<string, string>();
  const badPack = new Map<string, RejectedRow>();
  for (const p of file.packs) {
    const target = packTarget.get(p.id) ?? null;
    const key = packNameKey(p.name);
    // the name must not stay with a database pack that the file leaves alone
    const holder = snap.packByKey.get(key);
    if (holder !== undefined && holder !== target?.id && !claimedPacks.has(holder)) {
      const other = snap.packs.get(holder)!;
      const rej: RejectedRow = { index: p.index, line: p.line, id: p.id, label: p.name, reasons: [`name "${p.name}" is already used by pack ${other.id} ("${other.name}") in the database`] };
      rejectedPacks.push(rej);
      badPack.set(p.id, rej);
      continue;
    }
    const before = target === null ? undefined : snap.packs.get(target.id)!;
    if (!packsAllowed && before?.name !== p.name) {
      const rej: RejectedRow = { index: p.index, line: p.line, id: p.id, label: p.name, reasons: [PACKS_NEED_PERMISSION] };
      rejectedPacks.push(rej);
      badPack.set(p.id, rej);
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

  // hits: by id first, then by yt_id for the rest
  const hitTarget = new Map<HitRow, { id: string; by: 'id' | 'yt_id' } | null>();
  const claimedHits = new Set<string>();
  for (const h of file.hits) {
    if (snap.hits.has(h.id)) {
      hitTarget.set(h, { id: h.id, by: 'id' });
      claimedHits.add(h.id);
    }
  }
  for (const h of file.hits) {
    if (hitTarget.has(h)) continue;
    const holder = h.yt_id === null ? undefined : snap.hitByYt.get(h.yt_id);
    if (holder !== undefined && !claimedHits.has(holder)) {
      hitTarget.set(h, { id: holder, by: 'yt_id' });
      claimedHits.add(holder);
    } else hitTarget.set(h, null);
  }
  const addedHits: AddedHit[] = [];
  const changedHits: ChangedHit[] = [];
  let unchangedHits = 0;
  for (const h of file.hits) {
    const target = hitTarget.get(h) ?? null;
    const reasons: string[] = [];
    if (h.yt_id !== null) {
      const holder = snap.hitByYt.get(h.yt_id);
      // a database hit the file leaves alone keeps its yt_id, so this row cannot have it
      if (holder !== undefined && holder !== target?.id && !claimedHits.has(holder)) {
        const other = snap.hits.get(holder)!;
        reasons.push(`yt_id ${h.yt_id} is already used by hit ${other.id} ("${other.artist} – ${other.title}") in the database`);
      }
    }
    for (const p of h.packs) {
      const bad = badPack.get(p);
      if (bad) reasons.push(`pack ${p} is rejected (${where('packs', bad)})`);
    }
    if (reasons.length > 0) {
      rejectedHits.push({ index: h.index, line: h.line, ...(h.idGiven ? { id: h.id } : {}), label: `${h.artist} – ${h.title}`, reasons });
      continue;
    }
    const packs = [...new Set(h.packs.map((p) => packIdMap.get(p)!))].sort();
    if (target === null) {
      ops.addHits.push(h);
      ops.addHitPacks.set(h.id, packs);
      addedHits.push({ index: h.index, line: h.line, id: h.id, artist: h.artist, title: h.title, year: h.year });
      continue;
    }
    const before = snap.hits.get(target.id)!;
    const after = { ...h, packs };
    const fields = new Set<HitField>();
    const changes: FieldChange[] = [];
    for (const f of HIT_FIELDS) {
      const same = f === 'packs' ? sameList(before.packs, packs) : before[f] === after[f];
      if (same) continue;
      fields.add(f);
      changes.push({ field: f, before: before[f], after: after[f] });
    }
    if (fields.size === 0) {
      unchangedHits++;
      continue;
    }
    ops.changeHits.push({ id: target.id, row: h, packs, fields });
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
function summaryLine(r: ImportReport): string {
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
  if (!options.apply || parsed.errors.length > 0) return plan(parsed, await loadSnapshot(db), options.packs).report;
  const now = options.now ?? isoNow();
  const report = await db.transaction().execute(async (trx) => {
    const { report, ops } = plan(parsed, await loadSnapshot(trx), options.packs);
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

/** The export filter: the search's `query` and `packs` (docs/api.md#b7: packs OR, "" = hits without packs). */
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
 * Natural, case-sensitive order (the reference server's writer uses natord): white space is
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

/** Characters YAML cannot hold in a plain or single-quoted scalar (control, non-printable, line breaks, BOM). */
const NEEDS_ESCAPES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Strings a YAML 1.1 or 1.2 reader would take for something other than a string (or that start with an indicator). */
const NOT_PLAIN = /^(?:$|[-?:,[\]{}#&*!|>'"%@`\s.]|\+?\d|[-+]?\.(?:inf|nan)\b|(?:y|n|yes|no|on|off|true|false|null|~|<<|=)$)|[\s:]$|:\s|\s#|\t/i;

/**
 * One string as a YAML scalar: plain when that is unambiguous for any YAML reader
 * (1.1 or 1.2), else single-quoted, or double-quoted with escapes when it holds
 * characters that must be escaped. Deliberately conservative: quoting more often
 * than needed is harmless, a plain scalar read back as a number or a boolean is not.
 */
export function yamlScalar(s: string): string {
  if (NEEDS_ESCAPES.test(s)) return JSON.stringify(s).replace(/[\u2028\u2029\u007f-\u009f\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (NOT_PLAIN.test(s)) return `'${s.replaceAll("'", "''")}'`;
  return s;
}

/** A pack name as a YAML comment: on one line whatever it holds (every reader ignores it; it only helps people). */
const commentText = (name: string): string => name.replace(new RegExp(NEEDS_ESCAPES.source, 'g'), '\uFFFD');

/** The sort key of a hit in the file (docs/api.md#hits-yml). */
const hitSortKey = (h: ExportHit): string => `${h.artist} ${h.title} ${h.year} ${h.belongs_to}`;

/**
 * Writes a `hits.yml` (docs/api.md#hits-yml): hits sorted by natural, case-sensitive
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
