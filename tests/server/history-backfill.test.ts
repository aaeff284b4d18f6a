import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isPostgresUrl, openDatabase, sqlitePath } from '../../server/db/index.ts';
import { migrationProvider } from '../../server/db/migrations.ts';
import type { Database } from '../../server/db/schema.ts';
import { testDatabase } from './harness.ts';

/**
 * A catalogue made before hits had a year history gets one on the upgrade
 * (docs/disputes.md#reports): each hit's year as it was made, when it was made,
 * so a table's evidence says since when the catalogue holds the year.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the year history of hits made before it', () => {
  it('is filled on migration: one "created" row per hit, at its creation, by nobody known', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hitline-history-'));
    dirs.push(dir);
    const database = await testDatabase(dir);
    const raw = isPostgresUrl(database.url)
      ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }) })
      : new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(sqlitePath(database.url)) }) });
    const migrator = new Migrator({ db: raw, provider: migrationProvider, disableTransactions: true });
    expect((await migrator.migrateTo('0008_name_skeletons')).error).toBeUndefined();
    const hits = [
      { id: '00000000-0000-4000-8000-0000000000a1', title: 'Old One', artist: 'Band', year: 1971, belongs_to: '', yt_id: null, playback_offset: 0, created_at: '2025-01-02T03:04:05.000Z', updated_at: '2025-01-02T03:04:05.000Z' },
      { id: '00000000-0000-4000-8000-0000000000a2', title: 'Old Two', artist: 'Band', year: 1984, belongs_to: '', yt_id: null, playback_offset: 0, created_at: '2025-06-07T08:09:10.000Z', updated_at: '2025-06-07T08:09:10.000Z' },
    ];
    await raw.insertInto('hits').values(hits).execute();
    await raw.destroy();

    const db = await openDatabase(database.url);
    try {
      const rows = await db.selectFrom('hit_history').select(['hit_id', 'at', 'from_year', 'to_year', 'by_name', 'reason']).orderBy('hit_id').execute();
      expect(rows).toEqual(hits.map((h) => ({ hit_id: h.id, at: h.created_at, from_year: null, to_year: h.year, by_name: null, reason: 'created' })));
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
