import { z } from 'zod';
import { GAME_ID_PATTERN } from '../rules/constants.ts';
import { CLEAN_TEXT_RULES, hasControlCharacter, mixesLookAlikeScripts } from '../rules/names.ts';
import type { RuleError } from '../rules/types.ts';

/**
 * Building blocks of the wire contract: ids, texts, the error and success bodies,
 * and the one way every edge turns a zod failure into a 400 that names the field.
 *
 * Strictness policy (why some objects refuse unknown keys and others drop them):
 * - payloads the server produces (games, users, packs, events) are strict, so a
 *   field that must stay hidden (a yt_id, the mystery card) cannot slip into a
 *   game payload unnoticed, and client and server cannot drift apart silently;
 * - game request bodies and room messages are strict: the API refuses unknown
 *   settings (docs/rules.md#a9) and a typo should not be ignored silently;
 * - catalogue and account bodies drop unknown keys, because clients send back
 *   objects they fetched (a hit with its `id`, `downloaded`, `issues`), which
 *   the reference server ignores too.
 */

/** Version of this wire contract; bump it on any incompatible change to a schema. */
export const PROTOCOL_VERSION = 1;

/** A UUID (users, hits, packs; virtual players get v4-shaped ones from the engine's PRNG). */
export const UuidSchema = z.uuid();

/** A game id: 8 characters of `[A-Za-z0-9]` (the invitation for Private games). */
export const GameIdSchema = z.string().regex(GAME_ID_PATTERN, { error: 'must be 8 letters or digits' });

/** A count or length: a whole number ≥ 0. */
export const CountSchema = z.int().min(0);


/**
 * A user-typed text: trimmed, `min..max` characters long, no control characters
 * (names end up in lists, screen-reader announcements and logs).
 */
export function boundedText(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => !hasControlCharacter(s), { error: 'must not contain control characters' });
}

/**
 * A text others read (a hit's title, a pack's name): a boundedText that keeps
 * the rules of shown text (shared/rules/names.ts CLEAN_TEXT_RULES, which names
 * keep too): no direction overrides or invisible spaces, no characters that do
 * not show outside emoji sequences, something visible unless empty.
 */
export function cleanText(min: number, max: number) {
  return CLEAN_TEXT_RULES.reduce((schema, rule) => schema.refine(rule.ok, { error: rule.message }), boundedText(min, max));
}

/**
 * A name a person chooses for others to see (an account, a Local player): a
 * cleanText (two names that look the same cannot differ by what does not
 * show) without look-alike scripts mixed.
 */
export function personName(min: number, max: number) {
  return cleanText(min, max).refine((s) => !mixesLookAlikeScripts(s), { error: 'must not mix Latin, Cyrillic and Greek letters (they look alike)' });
}

/** Every error body (docs/rules.md#a2): a stable snake_case code (an i18n key too) and the reference server's English text. */
export const ErrorBodySchema = z.strictObject({
  type: z.literal('error'),
  code: z.string().regex(/^[a-z][a-z0-9_]*$/, { error: 'must be a snake_case error code' }),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Success body of the action endpoints (the reference server's MessageResponse), e.g. "started game". */
export const SuccessBodySchema = z.strictObject({
  type: z.literal('success'),
  message: z.string(),
});
export type SuccessBody = z.infer<typeof SuccessBodySchema>;

/** Code of the 400 given when a body, query, path parameter or room message fails its schema. */
export const INVALID_INPUT_CODE = 'invalid_input';
/** HTTP status of that failure. */
export const INVALID_INPUT_STATUS = 400;

/** The wire form of an engine error: the HTTP status travels as the status line, not in the body. */
export function toErrorBody(error: Pick<RuleError, 'code' | 'message'>): ErrorBody {
  return { type: 'error', code: error.code, message: error.message };
}

// ---------------------------------------------------------------------------
// error messages that name the field

type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function bound(origin: string, value: number | bigint, word: 'at least' | 'at most' | 'exactly'): string {
  if (origin === 'string') return `must be ${word} ${value} characters long`;
  if (origin === 'array' || origin === 'set') return `must have ${word} ${value} ${Number(value) === 1 ? 'item' : 'items'}`;
  return `must be ${word} ${value}`;
}

/**
 * Phrases a zod issue as the predicate of a sentence whose subject is the field
 * ("goal" + " must be at least 1"). Used as the per-parse error map, so a schema's
 * own message (a more precise rule) still wins.
 */
function phrase(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return bound(issue.origin, issue.minimum, issue.exact ? 'exactly' : 'at least');
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.exact ? 'exactly' : 'at most');
    case 'invalid_format':
      if (issue.format === 'uuid') return 'must be a UUID';
      if (issue.format === 'datetime') return 'must be an RFC 3339 date and time';
      return 'has an invalid format';
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      // a discriminated union names the tags it knows
      const options: unknown[] = Array.isArray(issue.options) ? issue.options : [];
      return options.length > 0 ? `must be one of ${options.map((v) => JSON.stringify(v)).join(', ')}` : 'has an invalid value';
    }
    default:
      return undefined;
  }
}

function pathText(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.reduce<string>((text, key, i) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return i === 0 ? String(key) : `${text}.${String(key)}`;
  }, '');
}

/** At most this many issues go into one message: a huge bad list should not give a huge answer. */
const MAX_REPORTED_ISSUES = 5;

/**
 * One English sentence per problem, each starting with the field's path
 * (`packs[2] must be a UUID`, `foo is not a known field`); `root` names the
 * value itself when it is the culprit (`body must be an object`).
 */
export function describeIssues(error: z.ZodError, root = 'body'): string {
  const sentences = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${pathText([...issue.path, key], root)} is not a known field`)
      : [`${pathText(issue.path, root)} ${issue.message}`],
  );
  const shown = sentences.slice(0, MAX_REPORTED_ISSUES);
  if (sentences.length > shown.length) shown.push(`and ${sentences.length - shown.length} more problems`);
  return shown.join('; ');
}

/**
 * The `invalid_input` body for a value (a parsed JSON body, a room message) with
 * a string that is not well-formed UTF-16, a lone surrogate ("\\udc00" in JSON
 * text), as a value or as a key at any depth; undefined when every string is
 * well-formed. Such a string cannot be stored or sent on as UTF-8: it would
 * silently become U+FFFD ("lone\\udc00" saved as "lone\uFFFD"). Walks without
 * recursion: a deeply nested body must not overflow the stack.
 */
/** Deepest path illFormedText names in full. */
const MAX_SHOWN_DEPTH = 16;

export function illFormedText(value: unknown, root = 'body'): ErrorBody | undefined {
  const invalid = (message: string): ErrorBody => ({ type: 'error', code: INVALID_INPUT_CODE, message });
  // each entry links to its parent: the path is built only for a bad string (copying it
  // per node cost time in the square of the depth: a 100 KB body of nested lists took seconds)
  interface Node {
    value: unknown;
    parent: Node | null;
    key: PropertyKey | null;
  }
  const where = (node: Node): string => {
    const path: PropertyKey[] = [];
    for (let n: Node | null = node; n && n.key !== null; n = n.parent) path.push(n.key);
    // a path hundreds of levels deep is no help in a message, only bytes
    return path.length > MAX_SHOWN_DEPTH ? `${root} (at depth ${path.length})` : pathText(path.reverse(), root);
  };
  const pending: Node[] = [{ value, parent: null, key: null }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return invalid(`${where(node)} is not well-formed text (it has a lone surrogate)`);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => pending.push({ value: item, parent: node, key: i }));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (!key.isWellFormed()) return invalid(`${where(node)} has a key that is not well-formed text (it has a lone surrogate)`);
        pending.push({ value: item, parent: node, key });
      }
    }
  }
  return undefined;
}

/** Result of {@link parseInput}: the parsed value, or the 400 body to answer with. */
export type ParseOutcome<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/**
 * Validates untrusted input (a REST body, query or path parameter, a room message)
 * and, on failure, builds the `invalid_input` error body whose message names the
 * offending fields. `root` is what to call the input itself in that message.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): ParseOutcome<z.output<S>> {
  const result = schema.safeParse(input, { error: phrase });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, error: { type: 'error', code: INVALID_INPUT_CODE, message: describeIssues(result.error, root) } };
}
