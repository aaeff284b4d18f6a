/**
 * What makes a person's name (an account, a Local player) acceptable beyond its
 * length: names are read in lists, by screen readers and in logs, so they must
 * say what they look like.
 */

/** Control characters (tabs, newlines, NUL, escape…). */
const CONTROL = /\p{Cc}/u;
/**
 * Format characters that make a name read or look other than it is: text
 * direction overrides and isolates, zero-width spaces and joiners between
 * words, the byte-order mark (the zero-width joiners U+200C/U+200D stay: emoji
 * and some scripts need them).
 */
const DECEPTIVE_FORMAT = /[\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;
/** Format characters, separators and white space: what is left without them is what shows. */
const INVISIBLE = /[\p{Cf}\p{Z}\s]/gu;

export const hasControlCharacter = (name: string): boolean => CONTROL.test(name);
export const hasDeceptiveFormat = (name: string): boolean => DECEPTIVE_FORMAT.test(name);
export const hasVisibleCharacter = (name: string): boolean => name.replace(INVISIBLE, '') !== '';

/** Whether a trimmed name may stand for a person: no control, direction or invisible-space characters, something visible. */
export const isCleanName = (name: string): boolean => !hasControlCharacter(name) && !hasDeceptiveFormat(name) && hasVisibleCharacter(name);
