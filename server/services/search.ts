import type { SortKey } from '../../shared/protocol/catalogue.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';

/**
 * Catalogue search (docs/api.md#b7, #search): what a search asks and answers, the
 * interface a database-specific index implements (SQLite FTS5 in
 * `search-sqlite.ts`, PostgreSQL full-text search in `search-postgres.ts`), and the parts
 * that do not depend on a database: splitting a query into words and the
 * vocabulary that tolerates one typo.
 *
 * Matching rules, the same for every implementation:
 * - the text is split into words; every word must match (AND), in title, artist
 *   or belongs_to;
 * - a word matches any indexed word it is a prefix of (search while typing), with
 *   case and Latin diacritics ignored ("bjo" finds "Björk");
 * - a word of {@link TYPO_MIN_LENGTH}+ characters also matches indexed words one
 *   edit away (insert, delete, substitute, or swap two neighbours: "beatels",
 *   "queeen");
 * - a text without any letter or digit is no filter at all.
 */

/** A word needs this many characters before a typo in it is tolerated. */
export const TYPO_MIN_LENGTH = 5;
/** At most this many distinct words of a query are used (each one narrows the result anyway). */
export const MAX_QUERY_WORDS = 10;
/** At most this many typo variants are added per word, so a query stays small. */
export const MAX_TYPO_VARIANTS = 24;

/** Validated search parameters (the route has applied the schema's defaults and limits). */
export interface HitQuery {
  /** Free text; "" (or only punctuation) = no text filter. */
  query: string;
  /**
   * Pack filter: absent = every hit; otherwise a hit in any listed pack (OR), and
   * "" stands for "hits without a pack" (so `['', id]` = unpacked or in `id`).
   */
  packs?: readonly string[] | undefined;
  /**
   * Sort keys, highest priority first; the keys left out follow in the default
   * order (title, artist, belongs_to, year), and the id breaks the remaining ties,
   * so every order is total and repeatable. null (or absent) means: by relevance
   * when there is a text (ties in the default order), the default order otherwise.
   */
  sortBy?: readonly SortKey[] | null | undefined;
  /** Applies to the sort keys and the id tie-break; relevance is always best first. */
  direction?: 'ascending' | 'descending' | undefined;
  /** Results to skip (0-based). */
  offset: number;
  /** Page size; null = every match (export). */
  limit: number | null;
  /** Only hits with at least one open report (the caller may read reports; docs/disputes.md#reports). */
  hasIssues?: boolean | undefined;
}

/** One hit of a result page, with its pack ids (ascending). */
export interface HitRecord {
  id: string;
  title: string;
  artist: string;
  belongs_to: string;
  year: number;
  yt_id: string | null;
  playback_offset: number;
  audio_state: string;
  packs: string[];
}

/** A page of results and how many hits matched in total. */
export interface HitSearchResult {
  total: number;
  hits: HitRecord[];
}

/**
 * A search index over the hits table. Implementations keep their own index in step
 * with every write (database triggers), so only the typo vocabulary needs telling:
 * {@link HitSearchIndex.noteWrite} for a single write, {@link HitSearchIndex.refresh}
 * after bulk writes.
 */
export interface HitSearchIndex {
  /** Runs one search. Each database statement is short (P6: ≤ 10 ms at 100,000 hits). */
  search(q: HitQuery): Promise<HitSearchResult>;
  /** Teaches the typo vocabulary the words of a written hit at once (cheap, in memory). */
  noteWrite(hit: { title: string; artist: string; belongs_to: string }): void;
  /**
   * Rebuilds the typo vocabulary from the index, in slices that never hold the
   * event loop for long; searches keep using the old one meanwhile. Concurrent
   * calls share one rebuild, and a call during a rebuild schedules one more.
   */
  refresh(): Promise<void>;
  /** Resolves once the first vocabulary is built. */
  ready(): Promise<void>;
}

// ---------------------------------------------------------------------------
// words

/** Where a query splits: anything but letters, digits, marks and private-use characters (FTS5 unicode61's separators). */
const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Co}]+/u;
const HAS_WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;
/** Combining marks on a Latin letter: what `remove_diacritics 2` drops (it leaves other scripts alone). */
const LATIN_DIACRITICS = /(?<=\p{Script=Latin}\p{M}*)\p{M}+/gu;

/**
 * The words of a search text as the user typed them (case and accents kept: the
 * index folds them itself), without duplicates, at most {@link MAX_QUERY_WORDS}.
 */
export function queryWords(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of text.normalize('NFC').split(SEPARATORS)) {
    if (!HAS_WORD_CHARACTER.test(word)) continue;
    const key = foldWord(word);
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
    if (words.length === MAX_QUERY_WORDS) break;
  }
  return words;
}

/**
 * A word as the index stores it (lower case, Latin diacritics removed), as far as
 * JavaScript can tell; used to look words up in the typo vocabulary. A word it
 * folds differently from the index only loses its typo tolerance.
 */
export function foldWord(word: string): string {
  // the indexes fold a final sigma to σ; toLowerCase() makes one at a word's end
  return word.normalize('NFD').replace(LATIN_DIACRITICS, '').normalize('NFC').toLowerCase().replaceAll('ς', 'σ');
}

/** The folded words of a stored text (title, artist or belongs_to), for {@link TypoVocabulary.add}. */
export function textTerms(text: string): string[] {
  return text
    .normalize('NFC')
    .split(SEPARATORS)
    .filter((w) => HAS_WORD_CHARACTER.test(w))
    .map(foldWord);
}

// ---------------------------------------------------------------------------
// typo tolerance

/**
 * True when `a` and `b` are at most one edit apart: one character inserted,
 * deleted or substituted, or two neighbours swapped (optimal string alignment).
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The distinct strings made by deleting one character of `word`. */
function deletions(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * The indexed words, with a symmetric-delete map (every word and every one-deletion
 * of it → the words it came from), so the words one edit away from a query word are
 * found with a handful of map look-ups instead of a scan: two words are one edit
 * apart only if they share a deletion or one is a deletion of the other.
 *
 * Words shorter than TYPO_MIN_LENGTH − 1 are left out: they can never be one edit
 * away from a word long enough to get typo tolerance. Removed words stay until the
 * next rebuild; a stale word only adds a variant that matches nothing.
 */
export class TypoVocabulary {
  private readonly map = new Map<string, string | string[]>();
  private readonly words = new Set<string>();

  /** Number of words held. */
  get size(): number {
    return this.words.size;
  }

  /** Adds an indexed word (already folded). */
  add(word: string): void {
    if (word.length < TYPO_MIN_LENGTH - 1 || this.words.has(word)) return;
    this.words.add(word);
    this.put(word, word);
    // a deletion of a word shorter than TYPO_MIN_LENGTH is never looked up
    if (word.length >= TYPO_MIN_LENGTH) for (const d of deletions(word)) this.put(d, word);
  }

  /** Indexed words one edit away from `word` (folded), itself excluded; nothing for short words. */
  variants(word: string): string[] {
    if (word.length < TYPO_MIN_LENGTH) return [];
    const found = new Set<string>();
    for (const key of [word, ...deletions(word)]) {
      const hit = this.map.get(key);
      if (hit === undefined) continue;
      for (const w of typeof hit === 'string' ? [hit] : hit) if (w !== word && withinOneEdit(word, w)) found.add(w);
    }
    return [...found].sort().slice(0, MAX_TYPO_VARIANTS);
  }

  private put(key: string, word: string): void {
    const old = this.map.get(key);
    if (old === undefined) this.map.set(key, word);
    else if (typeof old === 'string') {
      if (old !== word) this.map.set(key, [old, word]);
    } else if (!old.includes(word)) old.push(word);
  }
}

/**
 * The typo vocabulary of a search index, kept current: words of every write are
 * added at once, and `refresh()` rebuilds it from the index with `read` (one
 * rebuild at a time; a refresh asked for meanwhile runs once more after it, and
 * words noted while a rebuild reads are kept). Shared by the SQLite and the
 * PostgreSQL index, which differ only in how they read their words.
 */
export class LiveVocabulary {
  /** The vocabulary queries use now. */
  current = new TypoVocabulary();
  private readonly read: () => Promise<TypoVocabulary>;
  private readonly log: Logger;
  private building: Promise<void> | null = null;
  private again = false;
  private first: Promise<void> | null = null;
  /** Words noted while a rebuild runs: it may have read past them already. */
  private notedDuringBuild: string[] = [];

  constructor(read: () => Promise<TypoVocabulary>, log: Logger) {
    this.read = read;
    this.log = log;
  }

  /** Built on first use, so a catalogue loaded right after construction is in it. */
  ready(): Promise<void> {
    this.first ??= this.refresh();
    return this.first;
  }

  noteWrite(hit: { title: string; artist: string; belongs_to: string }): void {
    for (const text of [hit.title, hit.artist, hit.belongs_to]) {
      for (const term of textTerms(text)) {
        this.current.add(term);
        if (this.building) this.notedDuringBuild.push(term);
      }
    }
  }

  refresh(): Promise<void> {
    if (this.building) {
      this.again = true;
      return this.building;
    }
    this.building = (async () => {
      try {
        do {
          this.again = false;
          this.notedDuringBuild = [];
          const vocabulary = await this.read();
          for (const term of this.notedDuringBuild) vocabulary.add(term);
          this.current = vocabulary;
        } while (this.again);
      } catch (err) {
        this.log.error({ err }, 'building the search vocabulary failed; typo tolerance may miss new words');
      } finally {
        this.building = null;
        this.notedDuringBuild = [];
      }
    })();
    this.first ??= this.building;
    return this.building;
  }
}

/**
 * What the SQLite and the PostgreSQL index share: the database, the log and the
 * live typo vocabulary with its three calls. Each reads its words its own way
 * ({@link VocabularySearch.readVocabulary}) and searches its own way.
 */
export abstract class VocabularySearch implements HitSearchIndex {
  protected readonly db: Db;
  protected readonly log: Logger;
  protected readonly words: LiveVocabulary;

  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
    this.words = new LiveVocabulary(() => this.readVocabulary(), log);
  }

  abstract search(q: HitQuery): Promise<HitSearchResult>;

  /** Every indexed word long enough for typo tolerance, read without holding the event loop for long. */
  protected abstract readVocabulary(): Promise<TypoVocabulary>;

  ready(): Promise<void> {
    return this.words.ready();
  }

  noteWrite(hit: { title: string; artist: string; belongs_to: string }): void {
    this.words.noteWrite(hit);
  }

  refresh(): Promise<void> {
    return this.words.refresh();
  }
}
