/** The Hitline rules engine: pure, seeded, no I/O. See docs/rules.md for the rules it implements. */
export * from './types.ts';
export * from './constants.ts';
export { ACTION_ERRORS, ERRORS, mayRefuse, ruleError, type ErrorCode } from './errors.ts';
export { createGame, applyAction, designatedDj, fillMissingLooks, gameNotFound, remainingDeck, type NewGame } from './engine.ts';
export { parseAction, isHit } from './parse-action.ts';
export { defaultSettings, applySettingsPatch, autoClueMode, clueChoice, hitsNeeded, type ClueChoice } from './settings.ts';
export { slotsFor, isCorrect, hitKey } from './slots.ts';
export { streamFrom, Rng, type RngState } from './rng.ts';
export * from './views.ts';
export { audioAccess, type AudioTarget } from './audio.ts';
