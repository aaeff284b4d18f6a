import { sql, type RawBuilder } from 'kysely';
import type { SortKey } from '../../shared/protocol/catalogue.ts';
import { FTS_TABLE, FTS_TERMS_TABLE, NO_PACK, PACK_FTS_TABLE, SQLITE_SORT_INDEXES } from '../db/search-schema.ts';
import {
  foldWord,
  queryWords,
  TypoVocabulary,
  VocabularySearch,
  type HitQuery,
  type HitRecord,
  type HitSearchResult,
} from './search.ts';

/**
 * The SQLite implementation of the catalogue search: an FTS5 index over title,
 * artist and belongs_to (external content: the text lives only in `hits`) and a
 * second FTS5 table of pack memberships, both kept in step by triggers, so every
 * write path (the API, the import, the demo loader, a hand-run SQL statement)
 * stays indexed. The tables, triggers and indexes are created by migration 0003
 * (db/search-schema.ts); every SQLite-specific query of the catalogue lives here.
 *
 * Speed (budget P6: ≤ 10 ms at 100,000 hits): totals are counted on the FTS
 * indexes alone; a page is read either by walking the sort index until it is full
 * (many matches) or by sorting the matches (few), as rowids only, and the page's
 * rows are read afterwards; a page past the middle is read from the other end;
 * relevance scores (bm25) are computed only for result tiers of at most
 * RANK_LIMIT hits; a text search in packs reads its matches' rowids once (when
 * few) and its later statements test those instead of the pack index (measured
 * by `npm run bench -- catalogue`). Each statement is one short synchronous call
 * into better-sqlite3.
 *
 * The FTS tables are tied to the hits' implicit rowids. SQLite keeps those through
 * VACUUM, but a dump restored without `.dump --preserve-rowids` renumbers them:
 * rebuildSqliteSearchIndexes (db/search-schema.ts) after such a restore.
 */

/** Weights of title, artist and belongs_to in the bm25 relevance (a film title matters less). */
const BM25 = `bm25(${FTS_TABLE}, 2.0, 2.0, 1.0)`;
const SORT_SQL: Record<SortKey, string> = {
  title: 'h.title COLLATE NOCASE',
  artist: 'h.artist COLLATE NOCASE',
  belongs_to: 'h.belongs_to COLLATE NOCASE',
  year: 'h.year',
};
const DEFAULT_ORDER: readonly SortKey[] = ['title', 'artist', 'belongs_to', 'year'];
const HIT_COLUMNS = 'h.rowid AS r, h.id, h.title, h.artist, h.belongs_to, h.year, h.yt_id, h.playback_offset, h.audio_state';

/**
 * A relevance tier with more matches than this is listed in the sort order instead:
 * bm25 scores every match, which would break P6 for a prefix that matches a good
 * part of the catalogue (and a ranking over thousands of hits says little anyway).
 */
const RANK_LIMIT = 3000;
/**
 * The walk plan reads about (offset + limit) × hits / matches index entries; the
 * sort plan reads and sorts every match. An index step costs a fraction of a
 * sorted row, hence the factor (measured at 100,000 hits).
 */
const WALK_STEPS_PER_SORTED_ROW = 8;
/** Vocabulary words read per slice of a rebuild: about 10 ms of work each at 60,000 words. */
const VOCABULARY_SLICE = 2000;

type Row = Omit<HitRecord, 'packs'> & { r: number };
type Direction = 'ASC' | 'DESC';

/** An FTS5 string literal (the words hold no quotes, but a literal must never break out). */
const ftsString = (s: string): string => `"${s.replaceAll('"', '""')}"`;
const FTS = sql.raw(FTS_TABLE);

/**
 * The pack filter as an FTS5 query on the pack table: a hit in any listed pack, or
 * (for "") in none. absent = no filter.
 */
function packMatch(packs: readonly string[] | undefined): string | null {
  if (packs === undefined) return null;
  const tokens = [...new Set(packs.map((p) => (p === '' ? NO_PACK : p.toLowerCase())))];
  // an empty list matches nothing: the token of no pack that exists
  return tokens.length === 0 ? ftsString('-') : tokens.map(ftsString).join(' OR ');
}

const PACK_FTS = sql.raw(PACK_FTS_TABLE);

/**
 * Which rows a search may return besides matching its text: the hits in the listed
 * packs (an FTS5 query of the pack table), or rowids read already (see
 * {@link ROWID_LIMIT}, and the hits with open reports). null = no such filter.
 */
type Within = { packs: string } | { rowids: readonly number[] } | null;

/**
 * The filter as a condition on `column` (`h.rowid`, or `f.rowid` where the FTS
 * table is scanned first: then rows outside the filter are dropped before their
 * hit is looked up). A pack filter is a rowid set the pack index builds once per
 * statement. The unary `+` matters: without it SQLite hands the rowid list to an
 * FTS5 table it is joined with, which then runs its query once per listed rowid
 * (a hundred times slower).
 */
function withinCondition(within: NonNullable<Within>, column: 'h.rowid' | 'f.rowid' | 'rowid'): RawBuilder<unknown> {
  const c = sql.raw(column);
  if ('packs' in within) return sql`+${c} IN (SELECT rowid FROM ${PACK_FTS} WHERE ${PACK_FTS} MATCH ${within.packs})`;
  // integers read from SQLite, written into the statement: no limit on bound parameters to mind
  return sql`+${c} IN (${sql.raw(within.rowids.map((r) => String(Math.trunc(Number(r)))).join(',') || 'NULL')})`;
}

/**
 * A text search with a pack filter reads the rowids of its matches first when
 * they are at most this many (up to this many ranked ones are what relevance
 * lists anyway), and its later statements (tier count, ranking, page) test those
 * instead: building the pack index's rowid set (thousands of hits per pack) in
 * every statement cost up to 3 ms each and broke P6 for pack-filtered searches.
 */
const ROWID_LIMIT = RANK_LIMIT;

/** One slice of an ordered result: what to match, in which order, which rows. */
interface Slice {
  match: string | null;
  /** Pack filter or known rowids, or null. */
  within: Within;
  keys: readonly SortKey[];
  dir: Direction;
  offset: number;
  limit: number;
  /** How many rows match (known from the count). */
  total: number;
}

/** Search over FTS5; see the file comment. */
export class SqliteHitSearch extends VocabularySearch {
  /** Reads every indexed word in slices, yielding to the event loop between them. */
  protected async readVocabulary(): Promise<TypoVocabulary> {
    const vocabulary = new TypoVocabulary();
    let after = '';
    for (;;) {
      const { rows } = await sql<{ term: string }>`
        SELECT term FROM ${sql.raw(FTS_TERMS_TABLE)} WHERE term > ${after} ORDER BY term LIMIT ${VOCABULARY_SLICE}`.execute(this.db);
      for (const r of rows) vocabulary.add(r.term);
      const last = rows.at(-1);
      if (!last || rows.length < VOCABULARY_SLICE) return vocabulary;
      after = last.term;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The FTS5 query: all words must match; each as a prefix (`prefix` true) or as a
   * whole word, or as one of its typo variants (always whole words).
   */
  private matchExpression(words: readonly string[], prefix: boolean): string {
    return words
      .map((word) => {
        const options = [prefix ? `${ftsString(word)}*` : ftsString(word), ...this.words.current.variants(foldWord(word)).map(ftsString)];
        return options.length === 1 ? options[0] : `(${options.join(' OR ')})`;
      })
      .join(' AND ');
  }

  /**
   * Relevance (a text and no sort keys) lists two tiers: hits where every word
   * matched a whole word (or a typo variant), then hits where some word only
   * matched the start of a longer one; each tier best bm25 first, ties in the sort
   * order. A tier over RANK_LIMIT hits is listed in the sort order.
   */
  async search(q: HitQuery): Promise<HitSearchResult> {
    await this.ready();
    const words = queryWords(q.query);
    const match = words.length > 0 ? this.matchExpression(words, true) : null;
    const packs = packMatch(q.packs);
    let within: Within = packs === null ? null : { packs };
    let total: number;
    if (q.hasIssues) {
      // hits with open reports are few (a curator's to-do list): their rowids stand in for every other filter
      within = { rowids: await this.reportedRowids(packs) };
      total = await this.count(match, within);
    } else if (match !== null && packs !== null) {
      const rowids = await this.matchingRowids(match, packs, ROWID_LIMIT + 1);
      if (rowids.length <= ROWID_LIMIT) {
        total = rowids.length;
        within = { rowids };
      } else total = await this.count(match, within);
    } else total = await this.count(match, within);
    const offset = Math.max(0, q.offset);
    if (total === 0 || offset >= total) return { total, hits: [] };
    const limit = q.limit === null ? total - offset : Math.min(q.limit, total - offset);
    const dir: Direction = q.direction === 'descending' ? 'DESC' : 'ASC';
    // the keys asked for, then the rest of the default order: every order but five starts like a sort index
    const keys = [...(q.sortBy ?? []), ...DEFAULT_ORDER.filter((k) => !q.sortBy?.includes(k))];

    let ids: number[];
    if (match === null || (q.sortBy !== null && q.sortBy !== undefined)) {
      ids = await this.orderedIds({ match, within, keys, dir, offset, limit, total });
    } else {
      const whole = this.matchExpression(words, false);
      // with known rowids (few matches) the first tier is ranked whole: scoring it costs what counting it would, and counts it
      const first = within !== null && 'rowids' in within ? await this.rankedIds({ match: whole, within, keys, dir, offset: 0, limit: total, total }) : null;
      const wholeCount = first ? first.length : await this.count(whole, within);
      const tiers = [
        { match: whole, total: wholeCount, ranked: first },
        { match: `(${match}) NOT (${whole})`, total: total - wholeCount, ranked: null },
      ];
      ids = [];
      let skip = offset;
      for (const tier of tiers) {
        const want = limit - ids.length;
        if (want <= 0) break;
        if (skip >= tier.total) {
          skip -= tier.total;
          continue;
        }
        const slice: Slice = { match: tier.match, within, keys, dir, offset: skip, limit: Math.min(want, tier.total - skip), total: tier.total };
        const got = tier.ranked
          ? tier.ranked.slice(skip, skip + slice.limit)
          : tier.total <= RANK_LIMIT
            ? await this.rankedIds(slice)
            : await this.orderedIds(slice);
        for (const id of got) ids.push(id); // not push(...got): an export may take 100,000 ids
        skip = 0;
      }
    }
    return { total, hits: await this.hitsByRowid(ids) };
  }

  /** Matches of the filter, counted on the FTS indexes alone. */
  private async count(match: string | null, within: Within): Promise<number> {
    let query: RawBuilder<{ n: number }>;
    if (match !== null) {
      query = sql`SELECT count(*) AS n FROM ${FTS} WHERE ${FTS} MATCH ${match} ${within !== null ? sql`AND ${withinCondition(within, 'rowid')}` : sql``}`;
    } else if (within !== null && 'packs' in within) {
      query = sql`SELECT count(*) AS n FROM ${PACK_FTS} WHERE ${PACK_FTS} MATCH ${within.packs}`;
    } else if (within !== null) {
      return within.rowids.length;
    } else {
      query = sql`SELECT count(*) AS n FROM hits`;
    }
    const { rows } = await this.runMatch(query);
    return Number(rows[0]?.n ?? 0);
  }

  /** Rowids of the hits with an open report (in the packs `packs`, when given). */
  private async reportedRowids(packs: string | null): Promise<number[]> {
    const { rows } = await this.runMatch(sql<{ r: number }>`
      SELECT h.rowid AS r FROM hits h WHERE h.id IN (SELECT hit_id FROM hit_issues WHERE status = 'open')
      ${packs !== null ? sql`AND ${withinCondition({ packs }, 'h.rowid')}` : sql``}`);
    return rows.map((r) => r.r);
  }

  /** Rowids of the hits matching `match` in the packs `packs`, at most `limit` of them (in rowid order). */
  private async matchingRowids(match: string, packs: string, limit: number): Promise<number[]> {
    const { rows } = await this.runMatch(sql<{ r: number }>`
      SELECT rowid AS r FROM ${FTS} WHERE ${FTS} MATCH ${match} AND ${withinCondition({ packs }, 'rowid')} LIMIT ${limit}`);
    return rows.map((r) => r.r);
  }

  /** Best bm25 first, ties in the sort order: scores every match of the slice. */
  private async rankedIds(s: Slice): Promise<number[]> {
    const order = [`score ASC`, ...s.keys.map((k) => `${SORT_SQL[k]} ${s.dir}`), `h.id ${s.dir}`].join(', ');
    const { rows } = await this.runMatch(sql<{ r: number }>`
      SELECT h.rowid AS r, ${sql.raw(BM25)} AS score FROM ${FTS} f CROSS JOIN hits h ON h.rowid = f.rowid
      WHERE ${FTS} MATCH ${s.match} ${s.within !== null ? sql`AND ${withinCondition(s.within, 'f.rowid')}` : sql``}
      ORDER BY ${sql.raw(order)} LIMIT ${s.limit} OFFSET ${s.offset}`);
    return rows.map((r) => r.r);
  }

  /**
   * The slice in the sort order (keys, then id). Many matches: walk the sort index
   * of the leading key, keeping matching rows, until the page is full. Few matches:
   * read them all (from the FTS index or the pack index) and sort them. A page past
   * the middle is read from the other end, so no walk covers more than half.
   */
  private async orderedIds(s: Slice): Promise<number[]> {
    const reversed = s.offset > s.total - s.offset - s.limit;
    const skip = reversed ? s.total - s.offset - s.limit : s.offset;
    const dir = reversed ? (s.dir === 'ASC' ? 'DESC' : 'ASC') : s.dir;
    const order = sql.raw([...s.keys.map((k) => `${SORT_SQL[k]} ${dir}`), `h.id ${dir}`].join(', '));
    const tail = sql`ORDER BY ${order} LIMIT ${s.limit} OFFSET ${skip}`;

    const hits = await this.approximateHitCount();
    const walk = s.match === null && s.within === null ? true : ((skip + s.limit) * hits) / s.total < s.total * WALK_STEPS_PER_SORTED_ROW;
    let query: RawBuilder<{ r: number }>;
    if (walk) {
      const conditions: RawBuilder<unknown>[] = [];
      if (s.match !== null) conditions.push(sql`+h.rowid IN (SELECT rowid FROM ${FTS} WHERE ${FTS} MATCH ${s.match})`);
      if (s.within !== null) conditions.push(withinCondition(s.within, 'h.rowid'));
      // only rowids: the sort index covers the walk (it holds every key, the id and the rowid)
      query = sql`SELECT h.rowid AS r FROM hits h INDEXED BY ${sql.raw(SQLITE_SORT_INDEXES[s.keys[0] ?? 'title'].name)}
        ${conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``} ${tail}`;
    } else if (s.match !== null) {
      query = sql`SELECT h.rowid AS r FROM ${FTS} f CROSS JOIN hits h ON h.rowid = f.rowid
        WHERE ${FTS} MATCH ${s.match} ${s.within !== null ? sql`AND ${withinCondition(s.within, 'f.rowid')}` : sql``} ${tail}`;
    } else if (s.within !== null && 'packs' in s.within) {
      query = sql`SELECT h.rowid AS r FROM ${PACK_FTS} p CROSS JOIN hits h ON h.rowid = p.rowid WHERE ${PACK_FTS} MATCH ${s.within.packs} ${tail}`;
    } else if (s.within !== null) {
      query = sql`SELECT h.rowid AS r FROM hits h WHERE ${withinCondition(s.within, 'h.rowid')} ${tail}`;
    } else {
      throw new Error('unreachable: no filter always walks');
    }
    const ids = (await this.runMatch(query)).rows.map((r) => r.r);
    return reversed ? ids.reverse() : ids;
  }

  /** Rows of the hits table, cheaply (the largest rowid; deletions leave it a little high). */
  private async approximateHitCount(): Promise<number> {
    const { rows } = await sql<{ n: number | null }>`SELECT max(rowid) AS n FROM hits`.execute(this.db);
    return Math.max(1, Number(rows[0]?.n ?? 1));
  }

  /** Runs a statement with an FTS5 query; a query FTS5 cannot parse matches nothing instead of failing. */
  private async runMatch<T>(query: RawBuilder<T>): Promise<{ rows: T[] }> {
    try {
      return await query.execute(this.db);
    } catch (err) {
      if (err instanceof Error && /fts5/i.test(err.message)) {
        this.log.warn({ err }, 'search query rejected by FTS5');
        return { rows: [] };
      }
      throw err;
    }
  }

  /** The hits of a page in the given order, each with its pack ids (ascending). */
  private async hitsByRowid(ids: readonly number[]): Promise<HitRecord[]> {
    if (ids.length === 0) return [];
    const byRowid = new Map<number, HitRecord>();
    // in slices: SQLite limits the number of bound parameters
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      const { rows } = await sql<Row>`SELECT ${sql.raw(HIT_COLUMNS)} FROM hits h WHERE h.rowid IN (${sql.join(slice)})`.execute(this.db);
      const hits = new Map<string, HitRecord>();
      for (const r of rows) {
        const hit: HitRecord = {
          id: r.id,
          title: r.title,
          artist: r.artist,
          belongs_to: r.belongs_to,
          year: Number(r.year),
          yt_id: r.yt_id,
          playback_offset: Number(r.playback_offset),
          audio_state: r.audio_state,
          packs: [],
        };
        byRowid.set(Number(r.r), hit);
        hits.set(r.id, hit);
      }
      if (hits.size === 0) continue; // deleted meanwhile
      const links = await this.db.selectFrom('hit_packs').select(['hit_id', 'pack_id']).where('hit_id', 'in', [...hits.keys()]).orderBy('pack_id').execute();
      for (const l of links) hits.get(l.hit_id)?.packs.push(l.pack_id);
    }
    return ids.flatMap((id) => byRowid.get(id) ?? []);
  }
}
