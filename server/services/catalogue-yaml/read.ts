import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { ImportFileProblem } from '../../../shared/protocol/catalogue.ts';
import { emptyParse, type ParsedHitsFile } from './rows.ts';
import { NEEDS_ESCAPES, yamlScalar } from './scalars.ts';

/**
 * Reading a `hits.yml` into rows: bytes to text, the file's layout, each row
 * parsed as YAML. What the rows mean is validate.ts's business.
 *
 * Reading works row by row: a fast line scan ({@link scanLayout}) cuts the
 * block-style file (the layout every exporter of this format writes) into one
 * chunk per list item, and each chunk is parsed on its own. So one broken row is
 * reported with its line while the others are still checked, memory stays
 * bounded whatever the file size, the event loop gets control back every few
 * milliseconds (game rooms share it), and garbage is turned away at its first
 * line instead of being fed whole to the YAML parser (which needs 40 s and 4 GB
 * for 20 MB of `- 1` lines). Rows in the exact shapes the export writes are read
 * without the YAML parser ({@link fastRow}, ~5× faster overall than parsing
 * every row; anything unusual in a row goes to the parser): this hand-written
 * reader is what keeps the import of a 7,200-hit file within its 3 s budget
 * (budget P8, measured by bench/catalogue.ts). Files in another layout (flow
 * style, JSON) are parsed whole, up to {@link MAX_WHOLE_PARSE_BYTES}.
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
/** Alias expansion limit per row (billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;
/** The longest stretch of parsing between two yields to the event loop. */
const SLICE_MS = 8;

// ---------------------------------------------------------------------------
// layout and rows

const problem = (message: string, line?: number, column?: number): ImportFileProblem => ({
  ...(line !== undefined ? { line } : {}),
  ...(column !== undefined ? { column } : {}),
  message,
});
const mb = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

const tooLarge = (bytes: number, maxBytes: number): ImportFileProblem => problem(`the file is too large (${mb(bytes)}); the import takes at most ${mb(maxBytes)}`);

/** The parse result of a file over the size limit, for callers that check the size before reading. */
export function tooLargeFile(bytes: number, maxBytes: number): ParsedHitsFile {
  return emptyParse([tooLarge(bytes, maxBytes)]);
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
  | { kind: 'error'; problem: ImportFileProblem };

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

/** A row as the YAML parser gave it (`index` in its list, `line` where it starts), or the YAML errors that kept it from being read. */
export type RawRow = { index: number; line: number; value: unknown } | { index: number; line: number; yamlErrors: string[] };

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
function parseWhole(text: string): { errors: ImportFileProblem[]; hits: RawRow[]; packs: RawRow[] } {
  const bytes = Buffer.byteLength(text);
  const fail = (p: ImportFileProblem) => ({ errors: [p], hits: [], packs: [] });
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
  const result = { errors: [] as ImportFileProblem[], hits: [] as RawRow[], packs: [] as RawRow[] };
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

/** What {@link readRows} read: the rows of both lists, or the problems that kept the file from being read (then no rows). */
export interface ReadFile {
  errors: ImportFileProblem[];
  hits: RawRow[];
  packs: RawRow[];
}

export interface ReadOptions {
  /** Byte limit (default {@link MAX_IMPORT_BYTES}). */
  maxBytes?: number;
  /** Read rows in the export's own shapes without the YAML parser (default true; tests turn it off to compare). */
  fastPath?: boolean;
}

/**
 * Reads a `hits.yml` (text, or bytes that must be UTF-8) into its rows. Never
 * throws on bad input; yields to the event loop while it works.
 */
export async function readRows(input: string | Uint8Array, options: ReadOptions = {}): Promise<ReadFile> {
  const fail = (p: ImportFileProblem): ReadFile => ({ errors: [p], hits: [], packs: [] });
  const maxBytes = options.maxBytes ?? MAX_IMPORT_BYTES;
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (bytes > maxBytes) return fail(tooLarge(bytes, maxBytes));
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return fail(problem('the file is not UTF-8 text'));
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return fail(problem('the file is empty'));
  const nul = text.indexOf('\u0000');
  if (nul !== -1) return fail(problem('the file contains binary data (a NUL character): it is not a YAML text file', lineAt(text, nul)));

  const layout = scanLayout(text);
  if (layout.kind === 'error') {
    // the layout's complaint may only be a consequence of broken YAML (an unterminated quote
    // that swallowed the packs: key): the YAML parser's errors, with their lines, say more
    const missingList = /^the file has no (hits|packs): list$/.test(layout.problem.message);
    const whole = missingList && Buffer.byteLength(text) <= MAX_WHOLE_PARSE_BYTES ? parseWhole(text) : null;
    const broken = whole?.errors.filter((e) => e.message.startsWith('broken YAML')) ?? [];
    return { errors: broken.length > 0 ? broken : [layout.problem], hits: [], packs: [] };
  }
  if (layout.kind === 'other') {
    const whole = parseWhole(text);
    return whole.errors.length > 0 ? { ...whole, hits: [], packs: [] } : whole;
  }
  const fastPath = options.fastPath ?? true;
  return { errors: [], hits: await parseChunks(text, layout.hits, fastPath), packs: await parseChunks(text, layout.packs, fastPath) };
}
