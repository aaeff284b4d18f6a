import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** The SQLite file named by a `sqlite:` URL or a plain path (`:memory:` allowed). */
export function sqlitePath(url: string): string {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') : url;
}

/**
 * Opens the database named by `url` (SQLite by default: the file and its folder are
 * created when missing, WAL, foreign keys and recursive triggers on) and runs pending migrations.
 */
export async function openDatabase(url: string): Promise<Db> {
  if (/^postgres(ql)?:/.test(url)) throw new Error('DATABASE_URL: PostgreSQL support is not built yet (issue 10); use a sqlite: URL or a file path');
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return db;
}

/** ISO-8601 UTC timestamp for the database. */
export const isoNow = (ms = Date.now()) => new Date(ms).toISOString();
