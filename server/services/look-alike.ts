import { CONFUSABLES } from './confusables-data.ts';

/**
 * Whole names that look alike: "асе" in Cyrillic letters and "ace" in Latin
 * ones, "0liver" and "Oliver", "rnary" and "mary". Unicode's confusable
 * skeleton (UTS #39 §4) maps each such character to one prototype, so two
 * strings that look the same get the same skeleton. The mixed-script rule of
 * shared/rules/names.ts refuses one name that mixes look-alike scripts; this
 * compares a whole name with the names already there (accounts, seated
 * players). Server only: the table is large, and only the server knows the
 * other names.
 */

let prototypes: Map<number, string> | undefined;

/** The table of confusables-data.ts, read on first use. */
function table(): Map<number, string> {
  if (prototypes) return prototypes;
  const map = new Map<number, string>();
  for (const entry of CONFUSABLES.split(',')) {
    const colon = entry.indexOf(':');
    const [from, count] = entry.slice(0, colon).split('+');
    const to = entry
      .slice(colon + 1)
      .split(' ')
      .map((c) => parseInt(c, 36));
    const start = parseInt(from!, 36);
    const run = count === undefined ? 1 : parseInt(count, 36);
    for (let i = 0; i < run; i++) map.set(start + i, run === 1 ? String.fromCodePoint(...to) : String.fromCodePoint(to[0]! + i));
  }
  prototypes = map;
  return map;
}

/** Characters that render as nothing; UTS #39 drops them from a skeleton. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The UTS #39 skeleton: NFD, without default ignorables, each character by its prototype, NFD again. */
export function skeleton(text: string): string {
  const map = table();
  let out = '';
  for (const ch of text.normalize('NFD').replace(IGNORABLE, '')) out += map.get(ch.codePointAt(0)!) ?? ch;
  return out.normalize('NFD');
}

/**
 * What two names that look alike have in common, case ignored as names are
 * compared ("Асе" and "ace"): the skeleton, in NFKC and lower case, skeleton'd
 * again. The skeleton goes first: "AIice" with a capital I is "Alice" (the
 * prototype of "I" is "l") before the case is folded, and NFKC would turn a
 * lunate sigma "Ϲ", which looks like a C, into a "Σ". NFKC then folds what
 * confusables.txt leaves to it (full-width "ｂｏｂ" is "bob", as account names
 * are compared); the second skeleton maps what lower-casing produced. Stored in
 * users.name_skeleton: a change here needs a migration that recomputes them.
 */
export function lookAlikeKey(name: string): string {
  return skeleton(skeleton(name.trim()).normalize('NFKC').toLowerCase());
}
