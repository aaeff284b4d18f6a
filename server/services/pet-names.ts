import { randomInt } from 'node:crypto';

/**
 * Three-word guest names, adverb-adjective-noun ("gladly-brave-otter"), as the reference server's
 * guests are named (docs/api.md#sessions). Words are short, friendly and unambiguous when
 * read aloud by a screen reader; names need not be unique (identity is the user id).
 */

const ADVERBS = [
  'boldly', 'briskly', 'calmly', 'cheerily', 'deftly', 'eagerly', 'easily', 'fairly',
  'finely', 'gently', 'gladly', 'grandly', 'happily', 'jointly', 'keenly', 'kindly',
  'lightly', 'loudly', 'lovingly', 'luckily', 'merrily', 'mildly', 'neatly', 'nicely',
  'openly', 'politely', 'proudly', 'quickly', 'quietly', 'rarely', 'readily', 'safely',
  'simply', 'slowly', 'smoothly', 'softly', 'swiftly', 'truly', 'warmly', 'wisely',
] as const;

const ADJECTIVES = [
  'amber', 'bold', 'brave', 'bright', 'busy', 'clever', 'cosmic', 'curious',
  'daring', 'dapper', 'eager', 'fancy', 'fluffy', 'funky', 'gentle', 'golden',
  'groovy', 'happy', 'jazzy', 'jolly', 'lively', 'lucky', 'mellow', 'merry',
  'mighty', 'nimble', 'noble', 'plucky', 'polite', 'proud', 'quiet', 'rapid',
  'shiny', 'silver', 'snappy', 'sunny', 'swift', 'tidy', 'vivid', 'witty',
] as const;

const NOUNS = [
  'badger', 'beaver', 'bison', 'cobra', 'condor', 'corgi', 'crane', 'dingo',
  'dolphin', 'falcon', 'ferret', 'finch', 'gecko', 'gopher', 'heron', 'ibis',
  'jaguar', 'koala', 'lemur', 'lynx', 'magpie', 'marmot', 'moose', 'narwhal',
  'ocelot', 'orca', 'otter', 'panda', 'parrot', 'pelican', 'puffin', 'quokka',
  'raven', 'robin', 'salmon', 'sparrow', 'tapir', 'toucan', 'walrus', 'wombat',
] as const;

const pick = (words: readonly string[]): string => words[randomInt(words.length)] as string;

/** A random guest name: three lower-case words joined by "-". */
export function petName(): string {
  return `${pick(ADVERBS)}-${pick(ADJECTIVES)}-${pick(NOUNS)}`;
}

const WORDS = [new Set<string>(ADVERBS), new Set<string>(ADJECTIVES), new Set<string>(NOUNS)];

/** Whether `name` (lower case) is shaped like a guest name: an adverb, adjective and noun of the lists. */
export function isPetName(name: string): boolean {
  const parts = name.split('-');
  return parts.length === 3 && parts.every((w, i) => WORDS[i]!.has(w));
}
