import type { ExportHit, ExportPack } from '../../server/services/catalogue-yaml/export.ts';

/**
 * A generated catalogue that searches like a real one, and the queries people
 * type into it. Everything comes from one seed, so two runs measure the same
 * work and their figures can be compared.
 *
 * Words are built from syllables (so prefixes spread the way real words' do: a
 * 3-character prefix matches a few hundred hits of 100,000, not half of them),
 * about one word in ten carries a Latin diacritic, and word and artist
 * frequencies follow Zipf's law with a few very common real words ("the",
 * "love", "de") on top: the heavy prefixes a real catalogue has are there too.
 *
 * Calibrated against the reference catalogue (7,184 real hits): there a typed
 * prefix matches 25 % (1 character), 4 % (2), 0.5 % (3; p90 2 %) and 0.06 % (5)
 * of the hits (medians); here about 22 %, 5 %, 0.9 % (p90 2.4 %) and 0.03 %:
 * 3-character prefixes are a little heavier than real ones, never lighter.
 */

export type Random = () => number;

/** mulberry32: small, fast, good enough to spread test data. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: Random, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const int = (rand: Random, min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

/** Samples indexes 0..n-1 with weight 1 / (rank + 1)^s. */
function zipf(rand: Random, n: number, s: number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1) ** s;
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

// onsets repeat to weight them: "st" and "m" start more words than "zw"
const ONSETS = ['b', 'br', 'bl', 'd', 'dr', 'f', 'fr', 'fl', 'g', 'gr', 'gl', 'h', 'j', 'k', 'kr', 'kl', 'l', 'm', 'm', 'n', 'p', 'pr', 'pl', 'ph', 'r', 'r', 's', 's', 'st', 'sk', 'sn', 'sch', 'sh', 'sl', 'sp', 'sw', 't', 't', 'tr', 'th', 'v', 'w', 'wr', 'y', 'z', 'ch', 'c', 'cr', 'cl', 'qu', 'zw', 'x', '', ''];
const VOWELS = ['a', 'a', 'a', 'e', 'e', 'e', 'i', 'i', 'o', 'o', 'u', 'u', 'y', 'ie', 'ou', 'ai', 'ea', 'ee', 'oo'];
const CODAS = ['', '', '', '', '', '', 'n', 'n', 'r', 'r', 's', 's', 'l', 'm', 't', 'nd', 'ng', 'st', 'k', 'x', 'rt', 'ck', 'nt', 'll'];
/** What a Latin letter may turn into: the diacritics folded away by the search ("bjork" finds "Björk"). */
const MARKED: Record<string, string[]> = {
  a: ['á', 'à', 'ä', 'å', 'â', 'ã'],
  e: ['é', 'è', 'ë', 'ê'],
  i: ['í', 'ï', 'î'],
  o: ['ó', 'ö', 'ø', 'ô', 'õ'],
  u: ['ú', 'ü', 'û'],
  n: ['ñ'],
  c: ['ç'],
  s: ['š'],
  z: ['ž'],
};
/** Words every real catalogue is full of (several languages), most frequent first, some one or two letters long. */
const COMMON = ['the', 'a', 'i', 'you', 'of', 'me', 'la', 'love', 'in', 'de', 'my', 'on', 'it', 'to', 'die', 'and', 'is', 'christmas', 'for', 'don\'t', 'your', 'baby', 'night', 'heart', 'girl', 'dance', 'oh', 'no', 'el', 'le', 'der', 'das', 'und', 'amor', 'mi', 'tu', 'ich', 'du'];
const ARTIST_EXTRAS = ['The', 'DJ', 'MC', 'Los', 'Die', 'Les', 'Lil', 'Big'];

function syllable(rand: Random): string {
  return pick(rand, ONSETS) + pick(rand, VOWELS) + pick(rand, CODAS);
}

/** A word of 1–3 syllables (about 5 letters, as in the reference catalogue), one in ten marked with a diacritic. */
function word(rand: Random): string {
  const r = rand();
  const n = r < 0.4 ? 1 : r < 0.9 ? 2 : 3;
  let w = '';
  for (let i = 0; i < n; i++) w += syllable(rand);
  if (w.length < 2) w += syllable(rand);
  if (rand() < 0.1) {
    const at = [...w].map((c, i) => (MARKED[c] ? i : -1)).filter((i) => i >= 0);
    if (at.length > 0) {
      const i = pick(rand, at);
      w = w.slice(0, i) + pick(rand, MARKED[w[i]!]!) + w.slice(i + 1);
    }
  }
  return w;
}

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** A random version-4 UUID drawn from `rand` (so ids repeat between runs). */
function uuid(rand: Random): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(rand() * 16).toString(16);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const YT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** An 11-character YouTube-like id that is unique per `n`. */
function ytId(n: number, rand: Random): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += YT_ALPHABET[Math.floor(rand() * 64)];
  let x = n;
  for (let i = 0; i < 6; i++) {
    s += YT_ALPHABET[x % 64];
    x = Math.floor(x / 64);
  }
  return s;
}

export interface GeneratedCatalogue {
  hits: ExportHit[];
  packs: ExportPack[];
}

/** `count` hits in `packCount` packs: most hits in 1–3 packs, a few in none; most with a yt_id. */
export function generateCatalogue(count: number, packCount: number, seed = 1): GeneratedCatalogue {
  const rand = seededRandom(seed);
  const lexiconSize = Math.max(2000, Math.round(count * 0.4));
  const lexicon = new Set<string>();
  while (lexicon.size < lexiconSize) lexicon.add(word(rand));
  const words = [...lexicon];
  // flat (s = 0.5: the most frequent generated word is in ~1 % of the hits); the real common words make the heavy tail ("the": ~12 %)
  const nextWord = zipf(rand, words.length, 0.5);
  const nextCommon = zipf(rand, COMMON.length, 1);
  const titleWord = () => (rand() < 0.15 ? COMMON[nextCommon()]! : words[nextWord()]!);

  // artists repeat: a popular one has dozens of hits, most have one or two
  const artists = Array.from({ length: Math.max(50, Math.round(count / 4)) }, () => {
    const r = rand();
    if (r < 0.45) return `${capital(words[nextWord()]!)} ${capital(words[nextWord()]!)}`; // a person
    if (r < 0.8) return `${rand() < 0.3 ? `${pick(rand, ARTIST_EXTRAS)} ` : ''}${capital(words[nextWord()]!)}${rand() < 0.4 ? ` ${capital(words[nextWord()]!)}` : ''}`; // a band
    if (r < 0.92) return capital(words[nextWord()]!); // one name
    return `${capital(words[nextWord()]!)} ${rand() < 0.5 ? '&' : 'feat.'} ${capital(words[nextWord()]!)}`;
  });
  const nextArtist = zipf(rand, artists.length, 0.7);
  const films = Array.from({ length: Math.max(10, Math.round(count / 200)) }, () =>
    Array.from({ length: int(rand, 1, 4) }, () => capital(titleWord())).join(' '),
  );

  const stamp = '2025-01-01T00:00:00.000Z';
  const packs: ExportPack[] = Array.from({ length: packCount }, (_, i) => ({
    id: uuid(rand),
    name: `${capital(words[nextWord()]!)} ${i + 1}`,
    last_modified: stamp,
  }));
  const hits: ExportHit[] = [];
  for (let i = 0; i < count; i++) {
    const titleWords = Array.from({ length: pick(rand, [1, 1, 2, 2, 2, 3, 3, 4, 5]) }, titleWord);
    let title = titleWords.map((w, j) => (j === 0 || rand() < 0.7 ? capital(w) : w)).join(' ');
    if (rand() < 0.05) title += pick(rand, [' (Remix)', ' (Live)', '!', '?', ' - Radio Edit', ' Pt. 2']);
    const inPacks = rand() < 0.03 ? 0 : pick(rand, [1, 1, 1, 2, 2, 3]);
    const hitPacks = new Set<string>();
    while (hitPacks.size < inPacks) hitPacks.add(packs[int(rand, 0, packCount - 1)]!.id);
    hits.push({
      id: uuid(rand),
      artist: artists[nextArtist()]!,
      title,
      belongs_to: rand() < 0.05 ? pick(rand, films) : '',
      year: int(rand, 1950, 2025),
      packs: [...hitPacks].sort(),
      playback_offset: rand() < 0.8 ? 0 : int(rand, 1, 60),
      yt_id: rand() < 0.85 ? ytId(i, rand) : null,
      last_modified: stamp,
    });
  }
  return { hits, packs };
}

// ---------------------------------------------------------------------------
// queries

/** The kinds of search the benchmark times; `budget` = P6 applies (3+ characters typed). */
export const QUERY_KINDS = [
  { kind: 'prefix1', label: '1-character prefix', budget: false },
  { kind: 'prefix2', label: '2-character prefix', budget: false },
  { kind: 'prefix3', label: '3-character prefix', budget: true },
  { kind: 'prefix5', label: '5-character prefix', budget: true },
  { kind: 'words', label: 'multi-word', budget: true },
  { kind: 'typo', label: 'one typo (word of 6+)', budget: true },
  { kind: 'packs', label: '3+ chars in 1-3 packs', budget: true },
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number]['kind'];

export interface BenchQuery {
  query: string;
  packs?: string[];
}

const WORD = /[\p{L}\p{N}]+/gu;
/** What most people type: no accents ("bjork" for "Björk"); half the queries keep them. */
const plain = (w: string): string => w.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');

/**
 * Queries as people type them: the start of a word of a real hit (so popular
 * words are typed more often), lower or mixed case, with or without accents.
 */
export function queryMaker(catalogue: GeneratedCatalogue, seed = 2): (kind: QueryKind) => BenchQuery {
  const rand = seededRandom(seed);
  const { hits, packs } = catalogue;
  const wordsOf = (h: ExportHit): string[] => `${h.title} ${h.artist}`.match(WORD) ?? [];
  /** A word of a random hit with at least `min` characters. */
  const someWord = (min: number): string => {
    for (;;) {
      const ws = wordsOf(pick(rand, hits)).filter((w) => [...w].length >= min);
      if (ws.length > 0) return pick(rand, ws);
    }
  };
  const typed = (w: string): string => {
    const v = rand() < 0.5 ? plain(w) : w;
    return rand() < 0.7 ? v.toLowerCase() : v;
  };
  const prefix = (n: number): string => typed([...someWord(n)].slice(0, n).join(''));
  const typo = (w: string): string => {
    const cs = [...plain(w).toLowerCase()];
    const at = int(rand, 1, cs.length - 2); // people rarely miss the first letter
    const letter = String.fromCharCode(97 + int(rand, 0, 25));
    switch (int(rand, 0, 3)) {
      case 0:
        cs[at] = cs[at] === letter ? 'q' : letter;
        break;
      case 1:
        cs.splice(at, 1);
        break;
      case 2:
        cs.splice(at, 0, letter);
        break;
      default:
        [cs[at], cs[at + 1]] = [cs[at + 1]!, cs[at]!];
    }
    return cs.join('');
  };
  return (kind) => {
    switch (kind) {
      case 'prefix1':
        return { query: prefix(1) };
      case 'prefix2':
        return { query: prefix(2) };
      case 'prefix3':
        return { query: prefix(3) };
      case 'prefix5':
        return { query: prefix(5) };
      case 'words': {
        // words of one hit (artist and title, the last one still being typed), or of two hits (often nothing matches)
        const h = pick(rand, hits);
        const ws = wordsOf(h);
        const n = Math.min(ws.length, int(rand, 2, 3));
        const chosen = rand() < 0.8 ? ws.slice(-n) : [pick(rand, ws), someWord(3)];
        const last = chosen.length - 1;
        return { query: chosen.map((w, i) => (i === last ? [...w].slice(0, Math.max(3, int(rand, 3, [...w].length))).join('') : typed(w))).join(' ') };
      }
      case 'typo': {
        const w = someWord(6);
        return { query: rand() < 0.7 ? typo(w) : `${typo(w)} ${typed(someWord(3))}` };
      }
      case 'packs': {
        const n = int(rand, 1, 3);
        const chosen = new Set<string>();
        while (chosen.size < n) chosen.add(rand() < 0.05 ? '' : pick(rand, packs).id);
        return { query: prefix(rand() < 0.5 ? 3 : 5), packs: [...chosen] };
      }
    }
  };
}
