/**
 * What makes a person's name (an account, a Local player) acceptable beyond its
 * length: names are read in lists, by screen readers and in logs, so they must
 * say what they look like. Catalogue text (hit titles, pack names) keeps the
 * same rules of shown text ({@link CLEAN_TEXT_RULES}), not the script rule.
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

/**
 * What renders as nothing, or as a blank, wherever it stands: the default
 * ignorable code points (joiners, variation selectors, tag characters, the
 * Hangul fillers, the grapheme joiner U+034F, the Khmer inherent vowels…), the
 * blank Braille pattern and the object replacement character. "Victim" and
 * "Victim" + one of them would be two names that look the same.
 */
const HIDDEN = /[\p{Default_Ignorable_Code_Point}\u2800\uFFFC]/u;
/**
 * One emoji, where some of those characters are part of what shows (UTS #51):
 * a pictograph with a skin tone, or with a variation selector (phone keyboards
 * add U+FE0F after ⚡ or ⭐ too, where it changes nothing: refusing it would
 * refuse what people type), a keycap, or the black flag with the tag
 * characters of a subdivision (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
const EMOJI = String.raw`(?:\u{1F3F4}[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,4}\u{E007F}|[#*0-9]\uFE0F\u20E3|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|[\uFE0E\uFE0F])?)`;
/** Emoji joined by U+200D into one (👩‍🎤, 🏳️‍🌈). */
const EMOJI_SEQUENCE = new RegExp(`${EMOJI}(?:\\u200D${EMOJI})*`, 'gu');
/** Scripts whose letters take the zero-width (non-)joiner (Persian words, Indic conjuncts and half forms). */
const JOINING_SCRIPTS = String.raw`\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}`;
/**
 * Characters that show only through the letter they follow, where they do: a
 * joiner after a letter or sign of those scripts, before another of them or at
 * a word's end (older Malayalam chillu and Bengali khanda ta end in one), not
 * in a Latin, Greek, Cyrillic or CJK name, where it would not show; Mongolian's
 * free variation selectors after Mongolian; the ideographic variation selectors
 * after a Han character (葛󠄀: a different glyph). (The letter is captured, not
 * looked behind at: the web client shares this file, and older Safari refuses
 * lookbehind.)
 */
const SHOWN_SELECTORS = [
  new RegExp(`([${JOINING_SCRIPTS}])[\\u200C\\u200D]+(?=[${JOINING_SCRIPTS}]|\\s|$)`, 'gu'),
  /(\p{Script=Mongolian})[\u180B-\u180F]/gu,
  /(\p{Script=Han})[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu,
];
const withoutShownSelectors = (name: string): string => SHOWN_SELECTORS.reduce((s, re) => s.replace(re, '$1'), name);

/** Control characters and the format characters of DECEPTIVE_FORMAT, wherever they are. */
const UNSAFE = /\p{Cc}|(?![\u200C\u200D\u{E0020}-\u{E007F}])[\p{Cf}\p{Zl}\p{Zp}]/gu;

export const hasControlCharacter = (name: string): boolean => CONTROL.test(name);
/** `text` with control, direction and invisible-space characters shown as U+FFFD: for refused text quoted in reports and logs. */
export const shownSafely = (text: string): string => text.replace(UNSAFE, '\uFFFD');
export const hasDeceptiveFormat = (name: string): boolean => DECEPTIVE_FORMAT.test(name);
export const hasVisibleCharacter = (name: string): boolean => name.replace(INVISIBLE, '') !== '';
export const hasHiddenCharacter = (name: string): boolean => HIDDEN.test(withoutShownSelectors(name).replace(EMOJI_SEQUENCE, ''));
export const mixesLookAlikeScripts = (name: string): boolean => LOOK_ALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1;

/**
 * What a text shown to others (a name, a hit's title or artist, a pack's name)
 * must not be, beyond control characters: a rule and what its refusal says
 * after the field's name. Text that is there at all must show something.
 */
export const CLEAN_TEXT_RULES: readonly { ok: (text: string) => boolean; message: string }[] = [
  { ok: (s) => !hasDeceptiveFormat(s), message: 'must not contain invisible or text-direction characters' },
  // (direction and invisible-space characters do not show either: said once, by the rule above)
  { ok: (s) => hasDeceptiveFormat(s) || !hasHiddenCharacter(s), message: 'must not contain characters that do not show (fillers, joiners or variation selectors outside emoji)' },
  { ok: (s) => s === '' || hasVisibleCharacter(s), message: 'must contain a visible character' },
];

/** What is wrong with a trimmed text by {@link CLEAN_TEXT_RULES} (control characters first), or undefined. */
export function textProblem(text: string): string | undefined {
  if (hasControlCharacter(text)) return 'must not contain control characters';
  return CLEAN_TEXT_RULES.find((rule) => !rule.ok(text))?.message;
}

/**
 * Whether a trimmed name may stand for a person: no control, direction or
 * invisible-space characters, something visible. The engine checks this on
 * every join_local, stored ones too when a game is restored. Mixed look-alike
 * scripts and hidden characters outside emoji (later rules) are refused where
 * names come in (the zod schema of account and player names, the REST join
 * route), so a game stored with such a name before the rule still replays.
 */
export const isCleanName = (name: string): boolean => !hasControlCharacter(name) && !hasDeceptiveFormat(name) && hasVisibleCharacter(name);

/** A flag: two regional indicator letters (🇩🇪). */
const FLAG = String.raw`\p{Regional_Indicator}{2}`;
/** One emoji and nothing else: emoji joined by U+200D into one (👩‍🎤), or a flag. */
const ONE_EMOJI = new RegExp(`^(?:${EMOJI}(?:\\u200D${EMOJI})*|${FLAG})$`, 'u');
/**
 * What shows a pictograph as a picture: © ™ ↔ are pictographs too, but text
 * symbols unless a variation selector, a skin tone, a keycap or a tag makes
 * them emoji.
 */
const SHOWN_AS_EMOJI = /[\p{Emoji_Presentation}\uFE0F\p{Emoji_Modifier}\p{Regional_Indicator}\u20E3\u{E007F}]/u;
/** Unassigned code points: Extended_Pictographic reserves whole blocks for emoji to come, which show as boxes today. */
const UNASSIGNED = /\p{Cn}/u;
/** More UTF-16 units than any single emoji has (a family is 11, a subdivision flag 14): bounds the work on long input. */
const AVATAR_MAX_UNITS = 32;

let graphemes: Intl.Segmenter | undefined;

/**
 * Whether `avatar` may stand for a player: '' (his initials are shown) or a
 * single emoji, one grapheme (Intl.Segmenter) that is an emoji by the rules
 * above (a pictograph with its skin tone or variation selector, a ZWJ
 * sequence, a keycap, a flag). Letters, digits, symbols such as © and two
 * emoji are refused.
 */
export function isAvatar(avatar: string): boolean {
  if (avatar === '') return true;
  if (avatar.length > AVATAR_MAX_UNITS || !ONE_EMOJI.test(avatar) || !SHOWN_AS_EMOJI.test(avatar) || UNASSIGNED.test(avatar)) return false;
  // (a browser without Intl.Segmenter leaves the check to the server, which has it)
  if (typeof Intl.Segmenter !== 'function') return true;
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  let count = 0;
  for (const _ of graphemes.segment(avatar)) if (++count > 1) return false;
  return true;
}
