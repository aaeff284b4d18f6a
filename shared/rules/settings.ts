import { HITS_PER_PLAYER_GOAL, LIMITS, MIN_PLAYERS, NUMERIC_SETTINGS } from './constants.ts';
import { ruleError } from './errors.ts';
import { CLUE_MODES, type ClueMode, type RuleError, type Settings, type SettingsPatch } from './types.ts';

/** Default settings of a new game; `packs` = every pack that exists now (docs/rules.md#create). */
export function defaultSettings(packIds: readonly string[]): Settings {
  return {
    goal: LIMITS.goal.default,
    start_tokens: LIMITS.start_tokens.default,
    hit_duration: LIMITS.hit_duration.default,
    packs: [...packIds],
    guess_timeout: LIMITS.guess_timeout.default,
    intercept_timeout: LIMITS.intercept_timeout.default,
    confirm_timeout: LIMITS.confirm_timeout.default,
    reveal_time: LIMITS.reveal_time.default,
    disputes: LIMITS.disputes.default,
    dispute_timeout: LIMITS.dispute_timeout.default,
    clue_mode: 'audio',
    clue_mode_auto: true,
    dj: '',
    dj_plays: true,
  };
}

/** Distinct hits a start needs: players × goal × 2 (docs/rules.md#a14; fewer is `not_enough_hits`). */
export function hitsNeeded(players: number, goal: number): number {
  return players * goal * HITS_PER_PLAYER_GOAL;
}

/**
 * The clue mode of a game that starts with `clue_mode_auto` on: `audio` when at
 * least as many hits of the chosen packs have audio as the start needs (the
 * figure of `not_enough_hits`), so an audio game can be dealt; else `card`,
 * which every hit can be played in. Never `dj`: a DJ is the creator's choice
 * (his device, or the one of the player he names, shows the hits' titles and
 * must reach YouTube, which the server cannot know). `players` below
 * MIN_PLAYERS counts as MIN_PLAYERS (what a settings dialog shows before the
 * table is full).
 */
export function autoClueMode(withAudio: number, players: number, goal: number): ClueMode {
  return withAudio >= hitsNeeded(Math.max(players, MIN_PLAYERS), goal) ? 'audio' : 'card';
}

/** What the creator chose: a clue mode, or `auto` (decided at the start). */
export type ClueChoice = ClueMode | 'auto';
export const clueChoice = (s: Pick<Settings, 'clue_mode' | 'clue_mode_auto'>): ClueChoice => (s.clue_mode_auto ? 'auto' : s.clue_mode);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies a settings patch after validating every field (docs/rules.md#a9). Unknown
 * fields, wrong types, out-of-range numbers and unknown pack ids give a 400 naming
 * the field. An empty pack list means every pack that exists now. A `clue_mode`
 * is the creator's choice: it turns `clue_mode_auto` off, unless the same patch
 * sets `clue_mode_auto` itself.
 */
export function applySettingsPatch(
  current: Settings,
  patch: unknown,
  packIds: readonly string[],
): { ok: true; settings: Settings } | { ok: false; error: RuleError } {
  if (!isRecord(patch)) return { ok: false, error: ruleError('bad_action', { detail: 'settings must be an object' }) };
  const next: Settings = { ...current, packs: [...current.packs] };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if ((NUMERIC_SETTINGS as string[]).includes(key)) {
      const { min, max } = LIMITS[key as keyof typeof LIMITS];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        return { ok: false, error: ruleError('invalid_setting', { field: key, rule: `a whole number from ${min} to ${max}` }) };
      }
      next[key as keyof typeof LIMITS] = value;
    } else if (key === 'clue_mode') {
      if (!CLUE_MODES.includes(value as ClueMode)) {
        return { ok: false, error: ruleError('invalid_setting', { field: key, rule: `one of ${CLUE_MODES.join(', ')}` }) };
      }
      next.clue_mode = value as ClueMode;
      if (!Object.hasOwn(patch, 'clue_mode_auto') || patch.clue_mode_auto === undefined) next.clue_mode_auto = false;
    } else if (key === 'clue_mode_auto' || key === 'dj_plays') {
      if (typeof value !== 'boolean') return { ok: false, error: ruleError('invalid_setting', { field: key, rule: 'true or false' }) };
      next[key] = value;
    } else if (key === 'dj') {
      // whether he sits at the game is the engine's check (it knows the players)
      if (typeof value !== 'string' || value.length > 64) return { ok: false, error: ruleError('invalid_setting', { field: key, rule: "a player's id, or empty for the creator" }) };
      next.dj = value;
    } else if (key === 'packs') {
      if (!Array.isArray(value) || !value.every((p) => typeof p === 'string')) {
        return { ok: false, error: ruleError('invalid_setting', { field: key, rule: 'a list of pack ids' }) };
      }
      const known = new Set(packIds);
      const unknown = value.find((p) => !known.has(p));
      if (unknown !== undefined) return { ok: false, error: ruleError('unknown_pack', { id: unknown }) };
      next.packs = value.length === 0 ? [...packIds] : [...new Set(value as string[])];
    } else {
      return { ok: false, error: ruleError('invalid_setting', { field: key, rule: 'a known setting' }) };
    }
  }
  return { ok: true, settings: next };
}
