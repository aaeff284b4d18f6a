import { LIMITS, NUMERIC_SETTINGS } from './constants.ts';
import { ruleError } from './errors.ts';
import { CLUE_MODES, type ClueMode, type RuleError, type Settings, type SettingsPatch } from './types.ts';

/** Default settings of a new game; `packs` = every pack that exists now (Part B §3). */
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
    clue_mode: 'audio',
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies a settings patch after validating every field (rules.md A9). Unknown
 * fields, wrong types, out-of-range numbers and unknown pack ids give a 400 naming
 * the field. An empty pack list means every pack that exists now.
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
