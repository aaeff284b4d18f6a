import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** True for a `postgres://` or `postgresql://` URL (DATABASE_URL selects PostgreSQL with it). */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** True when `db` talks to PostgreSQL (otherwise it is SQLite). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The SQLite file named by a `sqlite:` URL or a plain path (`:memory:` allowed). */
export function sqlitePath(url: string): string {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') : url;
}

export interface OpenOptions {
  /** PostgreSQL: most connections of this process's pool. */
  poolSize?: number;
  /** PostgreSQL: called when an idle pooled connection fails (the pool replaces it). */
  onPoolError?: (err: Error) => void;
}

/**
 * Opens the database named by `url` and runs pending migrations: PostgreSQL for a
 * `postgres://` URL (a connection pool; the database must exist), SQLite otherwise
 * (the file and its folder are created when missing, WAL, foreign keys and
 * recursive triggers on). Several processes may open the same PostgreSQL database
 * at once: migrations take an advisory lock.
 */
export async function openDatabase(url: string, opts: OpenOptions = {}): Promise<Db> {
  const db = isPostgresUrl(url) ? openPostgres(url, opts) : openSqlite(url);
  // Each migration that must be atomic opens its own transaction (SQLite runs DDL
  // outside one); kysely's PostgreSQL default of one transaction around all of them
  // would make those nested, so both engines run migrations the same way.
  const migrator = new Migrator({ db, provider: migrationProvider, disableTransactions: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return db;
}

/**
 * Type parsers of the pool: 64-bit integers (what count(*) returns) as numbers,
 * as SQLite gives them, instead of pg's strings (counts stay far below 2^53).
 */
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function openPostgres(url: string, opts: OpenOptions): Db {
  const pool = new Pool({ connectionString: url, max: opts.poolSize ?? 10, types: PG_TYPES }, opts.onPoolError);
  // without a listener, an idle connection that breaks (server restart) would crash the process
  pool.on('error', (err) => opts.onPoolError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/**
 * The pool, plus one connection of its own that writes the game log (budget P1
 * with several processes: every accepted action is one insert). A connection
 * held for it costs less client CPU per insert than taking one from the pool and
 * giving it back each time (paced micro-benchmark: ~95 against ~110 µs). The log
 * store sends one insert at a time, so one connection is enough. A connection
 * that breaks is dropped and the next write opens a new one; `end()` (kysely's
 * destroy) closes it with the pool.
 */
class Pool extends pg.Pool {
  private writer: Promise<pg.Client> | null = null;
  private closed = false;
  private readonly onWriterError: ((err: Error) => void) | undefined;

  constructor(config: pg.PoolConfig, onWriterError?: (err: Error) => void) {
    super(config);
    this.onWriterError = onWriterError;
  }

  /** Runs `text` on the log connection, as the prepared statement `name` if one is given. */
  async writeLog(name: string | null, text: string, values: unknown[]): Promise<void> {
    const opened = this.writer ?? this.openWriter();
    const client = await opened;
    try {
      await client.query(name ? { name, text, values } : { text, values });
    } catch (err) {
      // a refused statement leaves the connection as it was; anything else (the server
      // ended the session, the socket broke) may be noticed only now: a new one next time
      if (!(err instanceof pg.DatabaseError && err.severity === 'ERROR') && this.writer === opened) {
        this.writer = null;
        void client.end().catch(() => undefined);
      }
      throw err;
    }
  }

  private openWriter(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the database was closed'));
    const { connectionString, types } = this.options;
    const client = new pg.Client({ connectionString, types });
    const opened = client.connect().then(() => client);
    this.writer = opened;
    const drop = () => {
      if (this.writer === opened) this.writer = null;
    };
    client.on('error', (err) => {
      drop();
      this.onWriterError?.(err);
    });
    client.on('end', drop);
    // the caller gets the failure; the next write tries a new connection
    opened.catch(drop);
    return opened;
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    const writer = this.writer;
    this.writer = null;
    this.closed = true;
    const closed = (async () => {
      await writer?.then((c) => c.end()).catch(() => undefined);
      await super.end();
    })();
    if (!callback) return closed;
    void closed.then(callback, callback);
  }
}

/** Each PostgreSQL database's pool, for `writeLog`. */
const pools = new WeakMap<Db, Pool>();

/**
 * PostgreSQL: runs `write` on the connection that writes the game log, as the
 * prepared statement `name` if one is given (parsed once per connection; the
 * same name must always carry the same SQL), and returns its promise; null on
 * SQLite, having done nothing. For the game log, written on every action: kysely's connection
 * handling, taking a pooled connection and the parse of every insert cost
 * about a third of the insert's client CPU (budget P1 with several processes).
 */
export function writeLog(db: Db, name: string | null, write: Write): Promise<unknown> | null {
  const pool = pools.get(db);
  return pool ? pool.writeLog(name, write.sql, write.parameters as unknown[]) : null;
}

function openSqlite(url: string): Db {
  const file = sqlitePath(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // rows deleted by INSERT OR REPLACE fire delete triggers only with this on; the search index's triggers need them
  sqlite.pragma('recursive_triggers = ON');
  // up to 32 MiB of pages in memory (default 2 MiB): a 100,000-hit catalogue with its search indexes stays hot (P6)
  sqlite.pragma('cache_size = -32768');
  const connection = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  direct.set(db, { sqlite, prepare: connection.prepare });
  return db;
}

/** Each SQLite database's connection, for `writeNowIfIdle`. */
const direct = new WeakMap<Db, { sqlite: Sqlite.Database; prepare(sql: string): Sqlite.Statement }>();

/** One statement for `writeNowIfIdle`: SQL as kysely compiles it, and its parameters. */
export interface Write {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Runs `writes` at once and synchronously on `db`'s SQLite connection, in one
 * transaction, and returns true; or returns false, having done nothing, on
 * PostgreSQL or while a transaction is open on the connection (kysely runs its
 * transactions over several turns of the event loop; a write slipped into one
 * would commit or roll back with it). The caller then goes through kysely,
 * which waits for the connection. For the game log, written on every action:
 * kysely's connection handling cost more CPU and garbage than the insert itself
 * (budget P1). A statement that fails rolls back the others and throws.
 */
export function writeNowIfIdle(db: Db, writes: readonly Write[]): boolean {
  const conn = direct.get(db);
  if (!conn || conn.sqlite.inTransaction) return false;
  const run = () => {
    for (const w of writes) conn.prepare(w.sql).run(...w.parameters);
  };
  if (writes.length === 1) run();
  else conn.sqlite.transaction(run)();
  return true;
}

/** Most compiled statements kept per SQLite connection. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as kysely sees it, with its compiled statements kept: kysely
 * prepares every query it runs, and better-sqlite3 compiles SQL anew on each
 * prepare(), which cost more than running the statement (budget P1: every game
 * action writes a row). Statements are looked up by their SQL text, the most
 * recently used 256 are kept. Sharing one is safe because kysely runs them with
 * all() or run(), which finish synchronously (the project never streams).
 */
function withStatementCache(sqlite: Sqlite.Database): { close(): void; prepare(sql: string): Sqlite.Statement } {
  const cache = new Map<string, Sqlite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const known = cache.get(sql);
      if (known) {
        // most recent last: the first entry is the one to drop
        cache.delete(sql);
        cache.set(sql, known);
        return known;
      }
      const statement = sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * Runs `fn` while holding the database-wide lock `name`, so processes sharing a
 * PostgreSQL database do start-up work (e.g. loading the demo catalogue into an
 * empty database) one after the other: a session advisory lock on one pooled
 * connection, which `fn` gets to use. On SQLite `fn` just runs.
 */
export async function withDatabaseLock<T>(db: Db, name: string, fn: (db: Db) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn(db);
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext(${name}))`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${name}))`.execute(conn);
    }
  });
}

/** ISO-8601 UTC timestamp for the database. */
export const isoNow = (ms = Date.now()) => new Date(ms).toISOString();
