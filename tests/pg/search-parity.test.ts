/**
 * The PostgreSQL search behaves as the SQLite one (docs/api.md#b7): the same generated
 * catalogue (3,000 hits with diacritics, common words and packs, from the
 * benchmark's generator) is written to both engines, and hundreds of queries as
 * people type them (prefixes, several words, typos, accents, case, pack filters)
 * must give the same totals and, with sort keys, the same hits in the same order
 * on every page. Relevance order differs by design (bm25 vs ts_rank), so there
 * the sets must match.
 *
 * Runs in the `server-pg` project of vitest.scale.config.ts (it needs PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateCatalogue, queryMaker, QUERY_KINDS, type GeneratedCatalogue } from '../../bench/lib/catalogue-data.ts';
import { isPostgres, openDatabase, type Db } from '../../server/db/index.ts';
import { createLogger } from '../../server/logger.ts';
import type { HitQuery, HitSearchIndex } from '../../server/services/search.ts';
import { PostgresHitSearch } from '../../server/services/search-postgres.ts';
import { SqliteHitSearch } from '../../server/services/search-sqlite.ts';
import type { SortKey } from '../../shared/protocol/catalogue.ts';
import { freshDatabase } from '../infra/services.ts';

const HITS = 3000;
let dir = '';
let lite: Db;
let pg: Db;
let dropPg: (() => Promise<void>) | undefined;
let engines: { sqlite: HitSearchIndex; postgres: HitSearchIndex };
let catalogue: GeneratedCatalogue;

async function fill(db: Db, c: GeneratedCatalogue): Promise<void> {
  const now = '2025-01-01T00:00:00.000Z';
  await db.insertInto('packs').values(c.packs.map((p) => ({ id: p.id, name: p.name, name_key: p.name.toLowerCase(), created_at: now, updated_at: now }))).execute();
  for (let i = 0; i < c.hits.length; i += 500) {
    const chunk = c.hits.slice(i, i + 500);
    await db
      .insertInto('hits')
      .values(chunk.map((h) => ({ id: h.id, title: h.title, artist: h.artist, belongs_to: h.belongs_to, year: h.year, yt_id: h.yt_id ?? null, playback_offset: h.playback_offset, created_at: now, updated_at: now })))
      .execute();
    const links = chunk.flatMap((h) => h.packs.map((pack_id) => ({ hit_id: h.id, pack_id })));
    if (links.length > 0) await db.insertInto('hit_packs').values(links).execute();
  }
}

describe('search on PostgreSQL and on SQLite', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hitline-parity-'));
    lite = await openDatabase(`sqlite:${join(dir, 'parity.sqlite')}`);
    const fresh = await freshDatabase(inject('pgUrl'));
    dropPg = fresh.drop;
    pg = await openDatabase(fresh.url);
    expect(isPostgres(pg) && !isPostgres(lite)).toBe(true);
    catalogue = generateCatalogue(HITS, 12, 7);
    // a few hits with what folding must agree on: case, accents both ways, punctuation
    const extra = [
      ['Björk', 'Army of Me'],
      ['MÖTLEY CRÜE', 'Kickstart My Heart'],
      ['Sigur Rós', 'Hoppípolla'],
      ['AC/DC', "Rock 'n' Roll Train"],
      ['Beyoncé', 'Crazy in Love'],
      ['Zoë & Chloé', 'Ça plane pour moi'],
      ['ΣΊΣΥΦΟΣ', 'Σίσυφος'],
      ['КИНО', 'Группа крови'],
      ['Straße', 'Ærøskøbing'],
    ].map(([artist, title], i) => ({ ...catalogue.hits[i]!, id: `00000000-0000-4000-8000-00000000000${i}`, artist: artist!, title: title!, yt_id: null }));
    catalogue = { ...catalogue, hits: [...catalogue.hits, ...extra] };
    await fill(lite, catalogue);
    await fill(pg, catalogue);
    const log = createLogger('silent');
    engines = { sqlite: new SqliteHitSearch(lite, log), postgres: new PostgresHitSearch(pg, log) };
    await Promise.all([engines.sqlite.ready(), engines.postgres.ready()]);
  });

  afterAll(async () => {
    await lite?.destroy();
    await pg?.destroy();
    await dropPg?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Both engines' answers to `q`. */
  async function both(q: HitQuery) {
    const [a, b] = await Promise.all([engines.sqlite.search(q), engines.postgres.search(q)]);
    return { sqlite: a, postgres: b };
  }

  function queries(): { query: string; packs?: string[] }[] {
    const make = queryMaker(catalogue, 11);
    const out: { query: string; packs?: string[] }[] = [];
    for (const { kind } of QUERY_KINDS) for (let i = 0; i < 20; i++) out.push(make(kind));
    const [p1, p2] = catalogue.packs.map((p) => p.id);
    out.push(
      { query: 'bjork' },
      { query: 'BJÖRK army' },
      { query: 'motley crue' },
      { query: 'hoppipolla ros' },
      { query: 'ac dc' },
      { query: "rock 'n' roll" },
      { query: 'beyonce' },
      { query: 'zoe chloe ca' },
      { query: 'kickstrat' },
      { query: 'σίσυφος' },
      { query: 'ΣΙΣΥΦ' },
      { query: 'кино группа' },
      { query: 'straße' },
      { query: 'strasse' },
      { query: 'ærø' },
      { query: 'aero' },
      { query: '' },
      { query: '  -- !! ' },
      { query: '', packs: [''] },
      { query: '', packs: [] },
      { query: '', packs: [p1!, p2!, ''] },
      { query: 'the', packs: [p1!] },
    );
    return out;
  }

  it('finds the same hits, in the same order whenever sort keys are given, on every page', async () => {
    const orders: { sortBy: SortKey[]; direction: 'ascending' | 'descending' }[] = [
      { sortBy: ['title'], direction: 'ascending' },
      { sortBy: ['year', 'artist'], direction: 'descending' },
      { sortBy: ['belongs_to'], direction: 'ascending' },
    ];
    let compared = 0;
    let nonEmpty = 0;
    for (const q of queries()) {
      const base = { query: q.query, packs: q.packs, offset: 0, limit: 1000 };
      const all = await both({ ...base, sortBy: null, limit: null });
      expect(all.postgres.total, JSON.stringify(q)).toBe(all.sqlite.total);
      // relevance: each engine ranks its own way, the matches are the same
      expect(all.postgres.hits.map((h) => h.id).sort(), JSON.stringify(q)).toEqual(all.sqlite.hits.map((h) => h.id).sort());
      if (all.sqlite.total > 0) nonEmpty++;
      const { sortBy, direction } = orders[compared++ % orders.length]!;
      const sorted = await both({ ...base, sortBy, direction });
      expect(sorted.postgres.hits, `${JSON.stringify(q)} by ${sortBy.join()} ${direction}`).toEqual(sorted.sqlite.hits);
      // a page in the middle and one past it (read from the other end)
      for (const offset of [Math.floor(all.sqlite.total / 3), Math.max(0, all.sqlite.total - 7)]) {
        const page = await both({ ...base, sortBy, direction, offset, limit: 5 });
        expect(page.postgres, `${JSON.stringify(q)} at ${offset}`).toEqual(page.sqlite);
      }
    }
    // the queries really found things (not a comparison of empty results)
    expect(nonEmpty).toBeGreaterThan(120);
  });

  it('folds case and accents the same way in every script, and keeps letters that are no accented ones', async () => {
    const expected: [string, string[]][] = [
      ['bjork', ['Army of Me']],
      ['MÖTLEY crue', ['Kickstart My Heart']],
      ['hoppipolla rós', ['Hoppípolla']],
      ['zoe chloe ca', ['Ça plane pour moi']],
      ['σίσυφος', ['Σίσυφος']],
      ['ΣΊΣΥΦ', ['Σίσυφος']],
      // only Latin diacritics are ignored (search.ts): a Greek accent counts, but as one typo in a long word
      ['σισυ', []],
      ['σισυφος', ['Σίσυφος']],
      ['кино группа', ['Группа крови']],
      ['straße ærø', ['Ærøskøbing']],
      ['strasse', []],
      ['aeroskobing', []],
    ];
    for (const [query, titles] of expected) {
      const r = await both({ query, offset: 0, limit: 10 });
      expect(r.sqlite.hits.map((h) => h.title), `${query} (SQLite)`).toEqual(titles);
      expect(r.postgres.hits.map((h) => h.title), `${query} (PostgreSQL)`).toEqual(titles);
    }
  });

  it('keeps only the hits with an open report the same way (filters=has_issues)', async () => {
    const now = '2025-01-01T00:00:00.000Z';
    const reported = catalogue.hits.filter((_, i) => i % 71 === 0);
    const closed = catalogue.hits.filter((_, i) => i % 71 === 1);
    const row = (hitId: string, n: number, status: string) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      hit_id: hitId,
      type: 'custom' as const,
      message: 'wrong year',
      created_at: now,
      last_modified: now,
      status,
    });
    const rows = [...reported.map((h, i) => row(h.id, i, 'open')), ...reported.slice(0, 5).map((h, i) => row(h.id, 1000 + i, 'open')), ...closed.map((h, i) => row(h.id, 2000 + i, 'dismissed'))];
    for (const db of [lite, pg]) await db.insertInto('hit_issues').values(rows).execute();
    try {
      const wanted = new Set(reported.map((h) => h.id));
      const [p1] = catalogue.packs.map((p) => p.id);
      const make = queryMaker(catalogue, 5);
      const qs: { query: string; packs?: string[] }[] = [{ query: '' }, { query: '', packs: [p1!] }, { query: '', packs: [''] }, { query: 'the' }, ...QUERY_KINDS.map(({ kind }) => make(kind))];
      for (const q of qs) {
        const base = { query: q.query, packs: q.packs, hasIssues: true, offset: 0 };
        const all = await both({ ...base, sortBy: null, limit: null });
        const without = await both({ ...base, hasIssues: false, sortBy: null, limit: null });
        // the filter is the plain search narrowed to reported hits, on each engine
        const expected = without.sqlite.hits.map((h) => h.id).filter((id) => wanted.has(id)).sort();
        expect(all.sqlite.hits.map((h) => h.id).sort(), JSON.stringify(q)).toEqual(expected);
        expect(all.postgres.hits.map((h) => h.id).sort(), JSON.stringify(q)).toEqual(expected);
        expect([all.sqlite.total, all.postgres.total]).toEqual([expected.length, expected.length]);
        const sorted = await both({ ...base, sortBy: ['year'], direction: 'descending', limit: 7 });
        expect(sorted.postgres, JSON.stringify(q)).toEqual(sorted.sqlite);
        const page = await both({ ...base, sortBy: ['title'], offset: Math.max(0, expected.length - 4), limit: 3 });
        expect(page.postgres, JSON.stringify(q)).toEqual(page.sqlite);
      }
      expect((await both({ query: '', hasIssues: true, offset: 0, limit: null })).sqlite.total).toBe(reported.length);
    } finally {
      for (const db of [lite, pg]) await db.deleteFrom('hit_issues').execute();
    }
  });

  it('learns new words for the typo tolerance the same way', async () => {
    const now = '2025-01-01T00:00:00.000Z';
    for (const db of [lite, pg]) {
      await db.insertInto('hits').values({ id: '00000000-0000-4000-8000-0000000000ff', title: 'Zyxomatic Quintessence', artist: 'Parity', year: 2001, belongs_to: '', yt_id: null, playback_offset: 0, created_at: now, updated_at: now }).execute();
    }
    for (const q of ['zyxomatc', 'quintesence parity']) expect((await both({ query: q, offset: 0, limit: 10 })).postgres.total, q).toBe(0);
    await Promise.all([engines.sqlite.refresh(), engines.postgres.refresh()]);
    for (const q of ['zyxomatc', 'quintesence parity', 'zyxo']) {
      const r = await both({ query: q, offset: 0, limit: 10 });
      expect(r.postgres.hits.map((h) => h.title), q).toEqual(['Zyxomatic Quintessence']);
      expect(r.sqlite.hits.map((h) => h.title), q).toEqual(['Zyxomatic Quintessence']);
    }
  });
});
