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

/**
 * Latin, Cyrillic and Greek share look-alike letters ("a" and "а", "o" and "ο"), so
 * one name never mixes them, as in Unicode's moderately restrictive identifier
 * profile (UTS #39): "Аlice" with a Cyrillic "А" would pass for "Alice".
 */
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

export const hasControlCharacter = (name: string): boolean => CONTROL.test(name);
export const hasDeceptiveFormat = (name: string): boolean => DECEPTIVE_FORMAT.test(name);
export const hasVisibleCharacter = (name: string): boolean => name.replace(INVISIBLE, '') !== '';
export const mixesLookAlikeScripts = (name: string): boolean => LOOK_ALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1;

/**
 * Whether a trimmed name may stand for a person: no control, direction or
 * invisible-space characters, something visible. The engine checks this on
 * every join_local, stored ones too when a game is restored. Mixed look-alike
 * scripts (a later rule) are refused where names come in (the zod schema of
 * account and player names, the REST join route), so a game stored with such a
 * name before the rule still replays.
 */
export const isCleanName = (name: string): boolean => !hasControlCharacter(name) && !hasDeceptiveFormat(name) && hasVisibleCharacter(name);
