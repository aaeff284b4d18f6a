import { sql, type Kysely } from 'kysely';
import type { SortKey } from '../../shared/protocol/catalogue.ts';

/**
 * The catalogue search's tables, triggers, functions and indexes, one part per
 * database: what migration 0003 creates and the search modules query
 * (services/search-sqlite.ts and services/search-postgres.ts explain how they
 * are used). Frozen: change them only through a new migration.
 */

// ---------------------------------------------------------------------------
// SQLite: FTS5

/** Name of the FTS5 table. */
export const FTS_TABLE = 'hits_fts';
/** Its fts5vocab table (one row per indexed word), read to build the typo vocabulary. */
export const FTS_TERMS_TABLE = 'hits_fts_terms';
/**
 * Pack membership as a second, contentless FTS5 table: one row per hit (same rowid),
 * its pack ids as tokens, or {@link NO_PACK} for a hit without a pack. A pack filter
 * then costs what a word does (a merge of rowid lists), where joining the link table
 * on UUID text costs microseconds per row.
 */
export const PACK_FTS_TABLE = 'hits_pack_fts';
/** The token of a hit in no pack (never a UUID). */
export const NO_PACK = 'none';

/**
 * The sort indexes, one per leading key, each followed by the rest of the default
 * order and the id, so the default order (and every order starting like an index)
 * is read straight off an index. Text sorts case-insensitively (NOCASE folds A–Z).
 */
export const SQLITE_SORT_INDEXES: Record<SortKey, { name: string; columns: string }> = {
  title: { name: 'hits_order_title', columns: 'title COLLATE NOCASE, artist COLLATE NOCASE, belongs_to COLLATE NOCASE, year, id' },
  artist: { name: 'hits_order_artist', columns: 'artist COLLATE NOCASE, title COLLATE NOCASE, belongs_to COLLATE NOCASE, year, id' },
  belongs_to: { name: 'hits_order_belongs_to', columns: 'belongs_to COLLATE NOCASE, title COLLATE NOCASE, artist COLLATE NOCASE, year, id' },
  year: { name: 'hits_order_year', columns: 'year, title COLLATE NOCASE, artist COLLATE NOCASE, belongs_to COLLATE NOCASE, id' },
};

/** Rewrites the pack row of the hit with id `hitId` (an SQL expression) from its links. */
const repackHit = (hitId: string) => `
       DELETE FROM ${PACK_FTS_TABLE} WHERE rowid = (SELECT rowid FROM hits WHERE id = ${hitId});
       INSERT INTO ${PACK_FTS_TABLE}(rowid, packs)
         SELECT h.rowid, coalesce((SELECT group_concat(pack_id, ' ') FROM hit_packs WHERE hit_id = h.id), '${NO_PACK}') FROM hits h WHERE h.id = ${hitId};`;

/**
 * Creates the FTS5 indexes, their triggers, the vocabulary table and the sort
 * indexes, and indexes the hits already there. `unicode61 remove_diacritics 2`
 * folds case and Latin diacritics ("Mötley" is stored as "motley"); prefix indexes
 * of 1–3 characters make short prefixes cheap. The triggers need
 * `recursive_triggers` on (openDatabase sets it) for INSERT OR REPLACE.
 */
export async function installSqliteSearchSchema(db: Kysely<any>): Promise<void> {
  const statements = [
    `CREATE VIRTUAL TABLE ${FTS_TABLE} USING fts5(
       title, artist, belongs_to,
       content='hits', content_rowid='rowid',
       tokenize='unicode61 remove_diacritics 2',
       prefix='1 2 3'
     )`,
    `CREATE VIRTUAL TABLE ${FTS_TERMS_TABLE} USING fts5vocab(${FTS_TABLE}, row)`,
    `CREATE VIRTUAL TABLE ${PACK_FTS_TABLE} USING fts5(packs, content='', contentless_delete=1, detail=none, tokenize="unicode61 tokenchars '-'")`,
    `CREATE TRIGGER hits_search_insert AFTER INSERT ON hits BEGIN
       INSERT INTO ${FTS_TABLE}(rowid, title, artist, belongs_to) VALUES (new.rowid, new.title, new.artist, new.belongs_to);
       INSERT INTO ${PACK_FTS_TABLE}(rowid, packs) VALUES (new.rowid, '${NO_PACK}');
     END`,
    `CREATE TRIGGER hits_search_delete AFTER DELETE ON hits BEGIN
       INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rowid, title, artist, belongs_to) VALUES ('delete', old.rowid, old.title, old.artist, old.belongs_to);
       DELETE FROM ${PACK_FTS_TABLE} WHERE rowid = old.rowid;
     END`,
    `CREATE TRIGGER hits_search_update AFTER UPDATE OF title, artist, belongs_to ON hits BEGIN
       INSERT INTO ${FTS_TABLE}(${FTS_TABLE}, rowid, title, artist, belongs_to) VALUES ('delete', old.rowid, old.title, old.artist, old.belongs_to);
       INSERT INTO ${FTS_TABLE}(rowid, title, artist, belongs_to) VALUES (new.rowid, new.title, new.artist, new.belongs_to);
     END`,
    `CREATE TRIGGER hit_packs_search_insert AFTER INSERT ON hit_packs BEGIN ${repackHit('new.hit_id')} END`,
    `CREATE TRIGGER hit_packs_search_delete AFTER DELETE ON hit_packs BEGIN ${repackHit('old.hit_id')} END`,
    `CREATE TRIGGER hit_packs_search_update AFTER UPDATE ON hit_packs BEGIN ${repackHit('old.hit_id')} ${repackHit('new.hit_id')} END`,
    ...Object.values(SQLITE_SORT_INDEXES).map(({ name, columns }) => `CREATE INDEX ${name} ON hits (${columns})`),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
  await rebuildSqliteSearchIndexes(db);
}

/**
 * Re-reads both FTS indexes from the hits and their links (seconds at 100,000
 * hits). Needed only when rowids changed behind the triggers' back, e.g. after
 * restoring a dump made without `--preserve-rowids`; then call
 * CatalogueService.changed() for the vocabulary.
 */
export async function rebuildSqliteSearchIndexes(db: Kysely<any>): Promise<void> {
  await sql.raw(`INSERT INTO ${FTS_TABLE}(${FTS_TABLE}) VALUES ('rebuild')`).execute(db);
  await sql.raw(`INSERT INTO ${PACK_FTS_TABLE}(${PACK_FTS_TABLE}) VALUES ('delete-all')`).execute(db);
  await sql
    .raw(
      `INSERT INTO ${PACK_FTS_TABLE}(rowid, packs)
         SELECT h.rowid, coalesce((SELECT group_concat(pack_id, ' ') FROM hit_packs WHERE hit_id = h.id), '${NO_PACK}') FROM hits h`,
    )
    .execute(db);
}

// ---------------------------------------------------------------------------
// PostgreSQL: a generated tsvector column


/** The generated tsvector column of `hits`. */
export const SEARCH_COLUMN = 'search_doc';
/** The SQL function that folds a text into space-separated index words. */
export const FOLD_FUNCTION = 'hitline_search_text';

const POSTGRES_SORT_INDEXES: Record<SortKey, { name: string; columns: string }> = {
  title: { name: 'hits_order_title', columns: 'lower(title COLLATE "C"), lower(artist COLLATE "C"), lower(belongs_to COLLATE "C"), year, (id COLLATE "C")' },
  artist: { name: 'hits_order_artist', columns: 'lower(artist COLLATE "C"), lower(title COLLATE "C"), lower(belongs_to COLLATE "C"), year, (id COLLATE "C")' },
  belongs_to: { name: 'hits_order_belongs_to', columns: 'lower(belongs_to COLLATE "C"), lower(title COLLATE "C"), lower(artist COLLATE "C"), year, (id COLLATE "C")' },
  year: { name: 'hits_order_year', columns: 'year, lower(title COLLATE "C"), lower(artist COLLATE "C"), lower(belongs_to COLLATE "C"), (id COLLATE "C")' },
};

/** Combining marks (the blocks of Latin diacritics) and Latin base letters, as PostgreSQL regex classes. */
const MARKS = '\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f';
const LATIN = 'A-Za-z\\u00c0-\\u024f\\u1e00-\\u1eff\\u2c60-\\u2c7f\\ua720-\\ua7ff';

/**
 * Creates the folding function, the generated search column with its GIN index,
 * and the sort indexes. Folding: NFD, combining marks after a Latin letter
 * removed, NFC, lower case (ICU's root locale when the server has it, so every
 * script folds whatever the database's locale; final sigma as sigma, as FTS5),
 * then every run of characters that are not letters or digits becomes one space.
 * The database must use UTF8.
 */
export async function installPostgresSearchSchema(db: Kysely<any>): Promise<void> {
  const { rows: enc } = await sql<{ encoding: string }>`SELECT current_setting('server_encoding') AS encoding`.execute(db);
  if (enc[0]?.encoding !== 'UTF8') throw new Error(`the PostgreSQL database must use the UTF8 encoding (it uses ${enc[0]?.encoding}): CREATE DATABASE … ENCODING 'UTF8'`);
  const { rows: icu } = await sql`SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu' LIMIT 1`.execute(db);
  const stripped = `normalize(regexp_replace(normalize(t, NFD), '([${LATIN}])[${MARKS}]+', '\\1', 'g'), NFC)`;
  const lowered = `translate(lower(${stripped}${icu.length > 0 ? ' COLLATE "und-x-icu"' : ''}), 'ς', 'σ')`;
  const statements = [
    `CREATE FUNCTION ${FOLD_FUNCTION}(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
       AS $$ SELECT btrim(regexp_replace(${lowered}, '[^[:alnum:]]+', ' ', 'g')) $$`,
    `ALTER TABLE hits ADD COLUMN ${SEARCH_COLUMN} tsvector GENERATED ALWAYS AS (
       setweight(to_tsvector('simple'::regconfig, ${FOLD_FUNCTION}(title)), 'A') ||
       setweight(to_tsvector('simple'::regconfig, ${FOLD_FUNCTION}(artist)), 'A') ||
       setweight(to_tsvector('simple'::regconfig, ${FOLD_FUNCTION}(belongs_to)), 'B')) STORED`,
    `CREATE INDEX hits_search ON hits USING gin (${SEARCH_COLUMN})`,
    ...Object.values(POSTGRES_SORT_INDEXES).map(({ name, columns }) => `CREATE INDEX ${name} ON hits (${columns})`),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
