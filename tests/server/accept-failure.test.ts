import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../server/db/index.ts';
import { bootServer, type TestServer } from './harness.ts';

/**
 * Accepting a report never loses it (docs/disputes.md#reports): when the hit's
 * new year cannot be written, the report is back in the open list and the
 * hit keeps its year, so a curator can accept it again.
 */

let t: TestServer;
beforeAll(async () => {
  t = await bootServer();
});
afterAll(async () => {
  await t?.stop();
});

describe('an accept whose year cannot be written', () => {
  it('puts the report back in the queue and changes nothing of the hit', async (ctx) => {
    // a real write failure of SQLite: a trigger refuses every change of a year (PostgreSQL's triggers are written otherwise)
    if (isPostgres(t.server.db)) ctx.skip();
    const hit = await t.server.db.selectFrom('hits').select(['id', 'year']).orderBy('id').executeTakeFirstOrThrow();
    const filed = await t.server.reports.fileReport({ hit_id: hit.id, type: 'custom', kind: 'wrong_year', message: 'it is older', year: hit.year - 1, reporter: 'Ana' });
    expect(filed).not.toBeNull();
    await sql`CREATE TRIGGER no_year_change BEFORE UPDATE OF year ON hits BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`.execute(t.server.db);
    try {
      await expect(t.server.reports.accept(hit.id, filed!.id, { reason: 'right' }, 'Curator')).rejects.toThrow(/disk is full/);
    } finally {
      await sql`DROP TRIGGER no_year_change`.execute(t.server.db);
    }
    const row = await t.server.db.selectFrom('hit_issues').selectAll().where('id', '=', filed!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'open', resolved_by: null, resolved_at: null, reason: null });
    expect((await t.server.db.selectFrom('hits').select('year').where('id', '=', hit.id).executeTakeFirstOrThrow()).year).toBe(hit.year);
    // and accepting it again works
    const again = await t.server.reports.accept(hit.id, filed!.id, { reason: 'right' }, 'Curator');
    expect(again).toMatchObject({ ok: true, issue: { status: 'accepted' } });
    expect((await t.server.db.selectFrom('hits').select('year').where('id', '=', hit.id).executeTakeFirstOrThrow()).year).toBe(hit.year - 1);
  });
});
