/**
 * What makes a person's name (an account, a Local player) acceptable beyond its
 * length: names are read in lists, by screen readers and in logs, so they must
 * say what they look like.
 */

/** Control characters (tabs, newlines, NUL, escape…). */
const CONTROL = /\p{Cc}/u;
/**
 * Format characters make a name read or look other than it is (text direction
 * marks and overrides, zero-width spaces, soft hyphens, the byte-order mark),
 * and line or paragraph separators break it in lists and logs. Allowed: the
 * zero-width (non-)joiners U+200C/U+200D and the tag characters of flag emoji,
 * which emoji and some scripts need.
 */
const DECEPTIVE_FORMAT = /(?![\u200C\u200D\u{E0020}-\u{E007F}])[\p{Cf}\p{Zl}\p{Zp}]/u;
/**
 * What does not show: format characters, separators, white space, and the
 * letters that render blank (Hangul fillers, the blank Braille pattern).
 */
const INVISIBLE = /[\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0\u2800]/gu;

export const hasControlCharacter = (name: string): boolean => CONTROL.test(name);
export const hasDeceptiveFormat = (name: string): boolean => DECEPTIVE_FORMAT.test(name);
export const hasVisibleCharacter = (name: string): boolean => name.replace(INVISIBLE, '') !== '';

/** Whether a trimmed name may stand for a person: no control, direction or invisible-space characters, something visible. */
export const isCleanName = (name: string): boolean => !hasControlCharacter(name) && !hasDeceptiveFormat(name) && hasVisibleCharacter(name);
