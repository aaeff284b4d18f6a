import { ruleError } from './errors.ts';
import { CLUE_MODES, type Action, type ClueMode, type Hit, type RuleError } from './types.ts';

/**
 * Checks the shape of an action that may come from anywhere (a fuzzer, a bad
 * client, a stored log). The transports validate with the protocol's zod schemas
 * first; this guard keeps the engine safe on its own.
 */

type Fields = Record<string, unknown>;
const isRecord = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64;
const optionalId = (v: unknown) => v === undefined || isId(v);
const optionalText = (v: unknown) => v === undefined || typeof v === 'string';

/** Whether `v` has the shape of a catalogue hit the engine can deal. */
export function isHit(v: unknown): v is Hit {
  return (
    isRecord(v) &&
    isId(v.id) &&
    typeof v.title === 'string' &&
    typeof v.artist === 'string' &&
    typeof v.belongs_to === 'string' &&
    typeof v.year === 'number' &&
    Number.isInteger(v.year) &&
    v.year >= 1 &&
    v.year <= 9999 &&
    Array.isArray(v.packs) &&
    v.packs.every((p) => typeof p === 'string') &&
    (v.yt_id === undefined || v.yt_id === null || typeof v.yt_id === 'string') &&
    (v.playback_offset === undefined || (typeof v.playback_offset === 'number' && Number.isInteger(v.playback_offset) && v.playback_offset >= 0))
  );
}

const CHECKS: Record<Action['type'], (a: Fields) => string | null> = {
  join: (a) => (isId(a.by) && typeof a.name === 'string' && optionalText(a.avatar) ? null : 'join needs by, name and an optional avatar'),
  join_local: (a) => (isId(a.by) && typeof a.name === 'string' && optionalText(a.avatar) ? null : 'join_local needs by, name and an optional avatar'),
  avatar: (a) => (isId(a.by) && optionalId(a.player) && typeof a.avatar === 'string' ? null : 'avatar needs by, an optional player id and the avatar'),
  leave: (a) => (isId(a.by) && optionalId(a.player) ? null : 'leave needs by and an optional player id'),
  update: (a) =>
    isId(a.by) && isRecord(a.settings) && Array.isArray(a.pack_ids) && a.pack_ids.every((p) => typeof p === 'string')
      ? null
      : 'update needs by, settings and pack_ids',
  start: (a) =>
    isId(a.by) && Array.isArray(a.hits) && a.hits.every(isHit) && (a.clue_mode === undefined || CLUE_MODES.includes(a.clue_mode as ClueMode))
      ? null
      : 'start needs by, a list of hits and an optional clue mode',
  stop: (a) => (isId(a.by) ? null : 'stop needs by'),
  guess: (a) =>
    isId(a.by) && optionalId(a.player) && (a.slot === null || (Number.isInteger(a.slot) && (a.slot as number) >= 0 && (a.slot as number) <= 255))
      ? null
      : 'guess needs by and a slot id (0..255) or null',
  confirm: (a) => (isId(a.by) && typeof a.confirm === 'boolean' ? null : 'confirm needs by and a boolean confirm'),
  skip: (a) => (isId(a.by) && optionalId(a.player) ? null : 'skip needs by and an optional player id'),
  claim: (a) => (isId(a.by) && optionalId(a.player) ? null : 'claim needs by and an optional player id'),
  control: (a) =>
    isId(a.by) && typeof a.key === 'string' && optionalText(a.avatar) && (isId(a.player) ? a.name === undefined && a.avatar === undefined : typeof a.name === 'string' && a.player === undefined)
      ? null
      : 'control needs by, the seat key and either a player id or a new name (with an optional avatar)',
  release: (a) => (isId(a.by) && isId(a.player) ? null : 'release needs by and a player id'),
  dispute: (a) =>
    isId(a.by) && optionalId(a.player) && Number.isInteger(a.year) && (a.year as number) >= 1 && (a.year as number) <= 9999
      ? null
      : 'dispute needs by, an optional player id and a year (1..9999)',
  vote: (a) => (isId(a.by) && optionalId(a.player) && typeof a.take === 'boolean' ? null : 'vote needs by, an optional player id and a boolean take'),
  timeout: () => null,
  presence: (a) => (isId(a.player) && typeof a.connected === 'boolean' ? null : 'presence needs player and connected'),
  replace_hit: () => null,
  rename: (a) => (isId(a.player) && typeof a.name === 'string' ? null : 'rename needs player and name'),
};

/** Returns the action typed, or the 400 error that says what is wrong with it. */
export function parseAction(raw: unknown): { ok: true; action: Action } | { ok: false; error: RuleError } {
  if (!isRecord(raw) || typeof raw.type !== 'string' || !Object.hasOwn(CHECKS, raw.type)) {
    return { ok: false, error: ruleError('bad_action', { detail: 'unknown action type' }) };
  }
  const problem = CHECKS[raw.type as Action['type']](raw);
  if (problem) return { ok: false, error: ruleError('bad_action', { detail: problem }) };
  return { ok: true, action: raw as unknown as Action };
}
