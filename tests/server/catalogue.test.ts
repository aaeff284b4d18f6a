import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../server/db/index.ts';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { DEAL_MAX } from '../../server/services/catalogue.ts';
import { Permission } from '../../server/services/users.ts';
import {
  ErrorBodySchema,
  FullHitPayloadSchema,
  HitSearchReplySchema,
  PackListSchema,
  PackPayloadSchema,
  PlayableCountsSchema,
  SORT_KEYS,
  type CatalogueHit,
  type FullHitPayload,
  type SortKey,
} from '../../shared/protocol/index.ts';
import { latestHitYear, remainingDeck } from '../../shared/rules/index.ts';
import { bootServer, SseReader, User, type Reply, type TestServer } from './harness.ts';

/**
 * The catalogue API end to end over real HTTP (docs/api.md#b4, #b6, #b7, #endpoints):
 * search (diacritics, prefixes, one typo, several words, every sort key and
 * direction, ties, pagination, pack filters), packs and hits with and without
 * each permission, bad input that writes nothing, the global `hits_changed`
 * event, bulk writes through the database, and running games that keep their deck.
 */

let t: TestServer;
let editor: User; // write_hits + write_packs
let hitsOnly: User; // write_hits
let packsOnly: User; // write_packs
let guest: User; // no catalogue permission
let anonymous: User; // no session at all

const ids = { rock: '', pop: '', film: '' };
/** Every hit created through the API in beforeAll, by title. */
const seeded = new Map<string, FullHitPayload>();

async function member(name: string, bits: number): Promise<User> {
  const u = await User.guest(t.base);
  const r = await u.request('POST', '/api/users/register', { username: name, password: 'correct horse battery' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const set = await t.server.users.setPermissions(name, { set: bits });
  expect(set.ok).toBe(true);
  await u.auth();
  return u;
}

function expectError(r: Reply, status: number, code: string, message: string | RegExp, what = ''): void {
  expect(r.status, `${what} ${JSON.stringify(r.body)}`).toBe(status);
  expect(ErrorBodySchema.safeParse(r.body).success, what).toBe(true);
  expect(r.body.code, what).toBe(code);
  if (typeof message === 'string') expect(r.body.message, what).toBe(message);
  else expect(r.body.message, what).toMatch(message);
}

const expectSuccess = (r: Reply, message: string) => expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { type: 'success', message } });

async function createPack(name: string): Promise<string> {
  const r = await editor.request('POST', '/api/hits/packs', { name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return PackPayloadSchema.parse(r.body).id;
}

interface NewHit {
  title: string;
  artist: string;
  year: number;
  belongs_to?: string;
  packs?: string[];
  yt_id?: string | null;
  playback_offset?: number;
}

async function createHit(hit: NewHit, as: User = editor): Promise<FullHitPayload> {
  const r = await as.request('POST', '/api/hits', hit);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return FullHitPayloadSchema.parse(r.body);
}

/** A search as the client sends it; checks the reply's shape and its start/end arithmetic. */
async function search(params: Record<string, string | number | (string | number)[]>, as: User = guest) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) qs.append(k, String(one));
  const r = await as.request('GET', `/api/hits/search?${qs}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const reply = HitSearchReplySchema.parse(r.body);
  expect(reply.end).toBe(reply.start + reply.results.length - 1);
  return reply;
}

const titles = (results: CatalogueHit[]) => results.map((h) => h.title);

async function countRows(table: 'hits' | 'packs' | 'hit_packs'): Promise<number> {
  const row = await t.server.db.selectFrom(table).select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------------------
// the order the API promises, written out independently: the sort keys, then the
// rest of the default order, then the id; text compared with A–Z folded (SQLite's
// NOCASE), then by code point; descending reverses the whole order

const asciiFold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function expectedOrder(hits: CatalogueHit[], sortBy: SortKey[], direction: 'ascending' | 'descending'): string[] {
  const keys = [...sortBy, ...SORT_KEYS.filter((k) => !sortBy.includes(k))];
  const sorted = [...hits].sort((a, b) => {
    for (const k of keys) {
      const d = k === 'year' ? cmp(a.year, b.year) : cmp(asciiFold(a[k]), asciiFold(b[k]));
      if (d !== 0) return d;
    }
    return cmp(a.id, b.id);
  });
  if (direction === 'descending') sorted.reverse();
  return sorted.map((h) => h.id);
}

// ---------------------------------------------------------------------------

beforeAll(async () => {
  // no demo catalogue: every hit of these tests is made here
  t = await bootServer({ DEMO_CATALOGUE: join(process.cwd(), 'no-such-catalogue.yml') });
  [editor, hitsOnly, packsOnly, guest] = await Promise.all([
    member('Eddie Editor', Permission.WRITE_HITS | Permission.WRITE_PACKS),
    member('Hilda Hits', Permission.WRITE_HITS),
    member('Paco Packs', Permission.WRITE_PACKS),
    User.guest(t.base),
  ]);
  anonymous = new User(t.base);

  ids.rock = await createPack('Rock');
  ids.pop = await createPack('Pop');
  ids.film = await createPack('Film');
  const hits: NewHit[] = [
    { title: 'Let It Be', artist: 'The Beatles', year: 1970, packs: [ids.rock], yt_id: 'QDYfEBY9NM4' },
    { title: 'Yesterday', artist: 'The Beatles', year: 1965, packs: [ids.rock, ids.pop] },
    { title: 'Hey Jude', artist: 'The Beatles', year: 1968, packs: [ids.pop] },
    { title: 'Beat It', artist: 'Michael Jackson', year: 1982, packs: [ids.pop] },
    { title: 'Army of Me', artist: 'Björk', year: 1995, packs: [ids.pop] },
    { title: 'Kickstart My Heart', artist: 'Mötley Crüe', year: 1989, packs: [ids.rock] },
    { title: 'Bohemian Rhapsody', artist: 'Queen', year: 1975, packs: [ids.rock], playback_offset: 12 },
    { title: "You're the One That I Want", artist: 'John Travolta & Olivia Newton-John', belongs_to: 'Grease', year: 1978, packs: [ids.film, ids.pop] },
    { title: 'Hoppípolla', artist: 'Sigur Rós', year: 2005 },
    { title: 'apple', artist: 'Zed', year: 2001 },
    { title: 'Apricot', artist: 'zed', year: 2001 },
    { title: 'Banana', artist: 'Ant', belongs_to: 'a film', year: 1999, packs: [ids.film] },
    // twins: equal in every sort key, told apart only by id
    { title: 'Twin', artist: 'Same', year: 2000, packs: [ids.film] },
    { title: 'Twin', artist: 'Same', year: 2000, packs: [ids.film] },
  ];
  for (const h of hits) seeded.set(`${h.title}|${seeded.size}`, await createHit(h));
});

afterAll(async () => {
  await t?.stop();
});

const seededHit = (title: string) => [...seeded.values()].find((h) => h.title === title) as FullHitPayload;

// ---------------------------------------------------------------------------

describe('search: matching', () => {
  it('finds by prefix while typing, on every word', async () => {
    const beat = await search({ query: 'beat' });
    expect(titles(beat.results).sort()).toEqual(['Beat It', 'Hey Jude', 'Let It Be', 'Yesterday']);
    expect(titles((await search({ query: 'bo rha' })).results)).toEqual(['Bohemian Rhapsody']);
    expect(titles((await search({ query: 'B' })).results)).toContain('Banana');
  });

  it('ignores case and diacritics, both ways', async () => {
    for (const query of ['bjork', 'BJÖRK', 'Bjö', 'björk army']) expect(titles((await search({ query })).results), query).toEqual(['Army of Me']);
    for (const query of ['motley', 'motley crue', 'MÖTLEY', 'crüe']) expect(titles((await search({ query })).results), query).toEqual(['Kickstart My Heart']);
    expect(titles((await search({ query: 'hoppipolla ros' })).results)).toEqual(['Hoppípolla']);
  });

  it('tolerates one typo in a word of five or more characters', async () => {
    expect(titles((await search({ query: 'beatels' })).results).sort()).toEqual(['Hey Jude', 'Let It Be', 'Yesterday']); // swapped letters
    expect(titles((await search({ query: 'queeen' })).results)).toEqual(['Bohemian Rhapsody']); // one letter too many
    expect(titles((await search({ query: 'bohemain rapsody' })).results)).toEqual(['Bohemian Rhapsody']); // one typo in each word
    expect(titles((await search({ query: 'yesterdya' })).results)).toEqual(['Yesterday']);
    // shorter words must be right, and two typos are too many
    expect((await search({ query: 'qeen' })).total).toBe(0);
    expect((await search({ query: 'bohemnai' })).total).toBe(0);
  });

  it('needs every word to match, in title, artist or belongs_to', async () => {
    expect(titles((await search({ query: 'beatles yesterday' })).results)).toEqual(['Yesterday']);
    expect(titles((await search({ query: 'grease one' })).results)).toEqual(["You're the One That I Want"]);
    expect(titles((await search({ query: 'olivia travolta want' })).results)).toEqual(["You're the One That I Want"]);
    expect((await search({ query: 'queen yesterday' })).total).toBe(0);
  });

  it('treats a text without letters or digits as no filter, and never fails on FTS syntax', async () => {
    const all = (await search({})).total;
    expect(all).toBe(seeded.size);
    expect((await search({ query: '   ' })).total).toBe(all);
    expect((await search({ query: '-- !!' })).total).toBe(all);
    for (const query of ['"', 'NOT', 'beat AND', '(let', 'it*', 'title:let', '^let', 'NEAR(a b)']) {
      const r = await guest.request('GET', `/api/hits/search?query=${encodeURIComponent(query)}`);
      expect(r.status, query).toBe(200);
    }
    // no column filters: "title:let" is the two words "title" and "let"
    expect((await search({ query: 'title:let' })).total).toBe(0);
  });

  it('ranks a text by relevance when no sort_by is given: whole words first', async () => {
    const beat = await search({ query: 'beat' });
    expect(beat.results[0]?.title).toBe('Beat It');
    // with sort keys the order is theirs alone
    const sorted = await search({ query: 'beat', sort_by: 'title' });
    expect(titles(sorted.results)).toEqual(['Beat It', 'Hey Jude', 'Let It Be', 'Yesterday']);
    // an unknown sort key still means "sorted" (the default order), as the spec says
    expect(titles((await search({ query: 'beat', sort_by: 'loudness' })).results)).toEqual(['Beat It', 'Hey Jude', 'Let It Be', 'Yesterday']);
  });
});

describe('search: order and pages', () => {
  it('sorts by each key in both directions, case-insensitively, ties by the default order and the id', async () => {
    const all = (await search({ amount: 1000 })).results;
    expect(all).toHaveLength(seeded.size);
    for (const key of SORT_KEYS) {
      for (const direction of ['ascending', 'descending'] as const) {
        const r = await search({ sort_by: key, sort_direction: direction, amount: 1000 });
        expect(r.results.map((h) => h.id), `${key} ${direction}`).toEqual(expectedOrder(all, [key], direction));
      }
    }
    // apple < Apricot < Banana: case does not count
    const byTitle = titles((await search({ sort_by: 'title', amount: 1000 })).results);
    expect(byTitle.indexOf('apple')).toBeLessThan(byTitle.indexOf('Apricot'));
    expect(byTitle.indexOf('Apricot')).toBeLessThan(byTitle.indexOf('Banana'));
  });

  it('sorts by several keys in the given priority, and defaults like the client', async () => {
    const all = (await search({ amount: 1000 })).results;
    const orders: SortKey[][] = [['year', 'artist'], ['artist', 'year', 'title'], ['belongs_to', 'artist'], ['belongs_to', 'title', 'artist', 'year']];
    for (const sortBy of orders) {
      const r = await search({ sort_by: sortBy, sort_direction: 'descending', amount: 1000 });
      expect(r.results.map((h) => h.id), sortBy.join()).toEqual(expectedOrder(all, sortBy, 'descending'));
    }
    // no sort_by, unknown keys only, an unknown direction: title, artist, belongs_to, year ascending
    const byDefault = expectedOrder(all, [...SORT_KEYS], 'ascending');
    expect(all.map((h) => h.id)).toEqual(byDefault);
    expect((await search({ sort_by: ['bogus', ''], sort_direction: 'sideways', amount: 1000 })).results.map((h) => h.id)).toEqual(byDefault);
  });

  it('breaks ties by id, the same way every time', async () => {
    const twins = [...seeded.values()].filter((h) => h.title === 'Twin').map((h) => h.id).sort();
    expect(twins).toHaveLength(2);
    for (let i = 0; i < 3; i++) {
      expect((await search({ query: 'twin', sort_by: 'title' })).results.map((h) => h.id)).toEqual(twins);
      expect((await search({ query: 'twin', sort_by: 'year', sort_direction: 'descending' })).results.map((h) => h.id)).toEqual([...twins].reverse());
      expect((await search({ query: 'twin' })).results.map((h) => h.id)).toEqual(twins);
    }
  });

  it('pages with start (1-based) and amount; the last page is short; past the end is empty', async () => {
    const all = (await search({ amount: 1000 })).results.map((h) => h.id);
    const n = all.length;
    const pages: string[] = [];
    for (let start = 1; start <= n; start += 4) {
      const page = await search({ start, amount: 4 });
      expect(page.total).toBe(n);
      expect(page.start).toBe(start);
      expect(page.results.length).toBe(Math.min(4, n - start + 1));
      pages.push(...page.results.map((h) => h.id));
    }
    expect(pages).toEqual(all);
    const last = await search({ start: n, amount: 50 });
    expect(last).toMatchObject({ total: n, start: n, end: n });
    const beyond = await search({ start: n + 1, amount: 50 });
    expect(beyond).toEqual({ results: [], total: n, start: n + 1, end: n });
    expect(await search({ start: 9999 })).toEqual({ results: [], total: n, start: 9999, end: 9998 });
    // a page past the middle (read from the other end) is the same page
    expect((await search({ start: n - 2, amount: 2, sort_by: 'artist' })).results.map((h) => h.id)).toEqual(
      (await search({ amount: 1000, sort_by: 'artist' })).results.slice(n - 3, n - 1).map((h) => h.id),
    );
  });

  it('refuses start 0 or below and amounts outside 1..1000, naming the parameter', async () => {
    const bad: [string, string][] = [
      ['start=0', 'start'],
      ['start=-1', 'start'],
      ['start=abc', 'start'],
      ['amount=0', 'amount'],
      ['amount=1001', 'amount'],
      ['packs=rock', 'packs[0]'],
      ['pack=rock', 'packs[0]'],
    ];
    for (const [qs, field] of bad) {
      const r = await guest.request('GET', `/api/hits/search?${qs}`);
      expectError(r, 400, 'invalid_input', new RegExp(`^${field.replace(/[[\]]/g, '\\$&')} `), qs);
    }
    expect((await search({ amount: 1000 })).results.length).toBe(seeded.size);
    expect((await search({ amount: 1 })).results.length).toBe(1);
  });

  it('is open to everybody, guests and visitors without a session', async () => {
    expect((await search({ query: 'queen' }, anonymous)).total).toBe(1);
  });

  it('adds downloaded on request (parts=downloaded) and never shows yt_id or offset', async () => {
    const plain = await guest.request('GET', '/api/hits/search?query=let+it+be');
    expect(plain.body.results[0]).not.toHaveProperty('downloaded');
    expect(plain.body.results[0]).not.toHaveProperty('yt_id');
    expect(plain.body.results[0]).not.toHaveProperty('playback_offset');
    const parts = await guest.request('GET', '/api/hits/search?query=let+it+be&parts=downloaded');
    expect(parts.body.results[0]).toMatchObject({ title: 'Let It Be', downloaded: false });
  });
});

describe('search: pack filter', () => {
  it('keeps hits in any listed pack (OR), under either parameter name', async () => {
    const rock = titles((await search({ packs: ids.rock, amount: 1000 })).results).sort();
    expect(rock).toEqual(['Bohemian Rhapsody', 'Kickstart My Heart', 'Let It Be', 'Yesterday']);
    const film = titles((await search({ packs: ids.film, amount: 1000 })).results).sort();
    const both = await search({ packs: [ids.rock, ids.film], amount: 1000 });
    expect(titles(both.results).sort()).toEqual([...rock, ...film].sort());
    expect(both.total).toBe(rock.length + film.length);
    expect((await search({ pack: [ids.rock, ids.film], amount: 1000 })).total).toBe(both.total);
    expect((await search({ pack: ids.rock, packs: ids.film, amount: 1000 })).total).toBe(both.total);
    // a hit in two listed packs is listed once
    expect((await search({ packs: [ids.rock, ids.pop] })).results.filter((h) => h.title === 'Yesterday')).toHaveLength(1);
  });

  it('an empty value means hits without a pack, alone or with packs', async () => {
    const unpacked = await search({ packs: '', amount: 1000 });
    expect(titles(unpacked.results).sort()).toEqual(['apple', 'Apricot', 'Hoppípolla'].sort());
    for (const h of unpacked.results) expect(h.packs).toEqual([]);
    expect((await search({ pack: '' })).total).toBe(3);
    expect((await search({ packs: ['', ids.rock] })).total).toBe(3 + 4);
  });

  it('combines with a text and with sort keys', async () => {
    expect(titles((await search({ query: 'beatles', packs: ids.rock, sort_by: 'year' })).results)).toEqual(['Yesterday', 'Let It Be']);
    expect(titles((await search({ query: 'beatles', packs: ids.pop })).results).sort()).toEqual(['Hey Jude', 'Yesterday']);
    expect((await search({ query: 'queen', packs: '' })).total).toBe(0);
    expect((await search({ packs: randomUUID() })).total).toBe(0);
  });

  // a text search in packs reads its matches' rowids first and ranks those (search-sqlite.ts, P6): same order as without packs (PostgreSQL too)
  it('ranks a text in packs exactly as the text alone, restricted to those packs, on every page', async () => {
    for (const query of ['be', 'the', 'it']) {
      const packs = [ids.rock, ids.pop];
      const all = (await search({ query, amount: 1000 })).results;
      const expected = all.filter((h) => h.packs.some((p) => packs.includes(p))).map((h) => h.id);
      expect(expected.length, query).toBeGreaterThanOrEqual(2);
      const whole = await search({ query, packs, amount: 1000 });
      expect(whole.results.map((h) => h.id), query).toEqual(expected);
      const paged: string[] = [];
      for (let start = 1; start <= expected.length; start += 2) paged.push(...(await search({ query, packs, amount: 2, start })).results.map((h) => h.id));
      expect(paged, query).toEqual(expected);
    }
  });
});

describe('packs', () => {
  it('lists packs with hit counts in natural order, for everybody', async () => {
    for (const name of ['Pack 10', 'pack 2', 'Pack 1']) await createPack(name);
    const r = await anonymous.request('GET', '/api/hits/packs');
    expect(r.status).toBe(200);
    const { packs } = PackListSchema.parse(r.body);
    expect(packs.map((p) => p.name)).toEqual(['Film', 'Pack 1', 'pack 2', 'Pack 10', 'Pop', 'Rock']);
    expect(packs.find((p) => p.name === 'Rock')?.hits).toBe(4);
    expect(packs.find((p) => p.name === 'Pack 1')?.hits).toBe(0);
  });

  it('says how many hits are in packs, each counted once (a hit in two packs is one hit)', async () => {
    const { packs, total } = PackListSchema.parse((await anonymous.request('GET', '/api/hits/packs')).body);
    const packed = [...seeded.values()].filter((h) => h.packs.length > 0);
    expect(total).toBe(packed.length);
    // two seeded hits are in two packs each: the packs' counts added up say two more
    expect(packs.reduce((sum, p) => sum + p.hits, 0)).toBe(packed.length + 2);
  });

  it('needs a session and write_packs to create, rename or delete', async () => {
    const someId = ids.film;
    for (const u of [anonymous, guest, hitsOnly]) {
      const [status, code, message] = u === anonymous ? [401, 'unauthenticated', 'not authenticated'] : [403, 'permission_denied', 'permission denied'];
      expectError(await u.request('POST', '/api/hits/packs', { name: 'Nope' }), status, code, message);
      expectError(await u.request('PATCH', `/api/hits/packs/${someId}`, { name: 'Nope' }), status, code, message);
      expectError(await u.request('DELETE', `/api/hits/packs/${someId}`), status, code, message);
    }
    const made = await packsOnly.request('POST', '/api/hits/packs', { name: '  Jazz  ' });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ id: expect.any(String), name: 'Jazz', hits: 0 });
    expectSuccess(await packsOnly.request('PATCH', `/api/hits/packs/${made.body.id}`, { name: 'Smooth Jazz' }), 'pack updated successfully');
    expectSuccess(await packsOnly.request('DELETE', `/api/hits/packs/${made.body.id}`), 'pack deleted successfully');
  });

  it('refuses a second pack of the same name, case-insensitively', async () => {
    const before = await countRows('packs');
    expectError(await editor.request('POST', '/api/hits/packs', { name: 'rock' }), 409, 'pack_name_taken', 'a pack with that name already exists');
    expectError(await editor.request('POST', '/api/hits/packs', { name: ' ROCK ' }), 409, 'pack_name_taken', 'a pack with that name already exists');
    expect(await countRows('packs')).toBe(before);
  });

  it('refuses renaming to another pack\'s name, allows changing the case of its own', async () => {
    expectError(await editor.request('PATCH', `/api/hits/packs/${ids.pop}`, { name: 'ROCK' }), 409, 'pack_name_taken', 'a pack with that name already exists');
    expectSuccess(await editor.request('PATCH', `/api/hits/packs/${ids.pop}`, { name: 'POP' }), 'pack updated successfully');
    expectSuccess(await editor.request('PATCH', `/api/hits/packs/${ids.pop}`, { name: 'Pop' }), 'pack updated successfully');
    expectError(await editor.request('PATCH', `/api/hits/packs/${randomUUID()}`, { name: 'Whatever' }), 404, 'pack_not_found', "a pack with that id doesn't exist");
  });

  it('validates names and ids', async () => {
    const before = await countRows('packs');
    expectError(await editor.request('POST', '/api/hits/packs', { name: '   ' }), 400, 'invalid_input', 'name must not be empty');
    expectError(await editor.request('POST', '/api/hits/packs', { name: 'x'.repeat(101) }), 400, 'invalid_input', 'name must be at most 100 characters long');
    expectError(await editor.request('POST', '/api/hits/packs', {}), 400, 'invalid_input', 'name is required');
    // a name shows what it says: no direction overrides, nothing invisible
    const deceptive = 'name must not contain invisible or text-direction characters';
    expectError(await editor.request('POST', '/api/hits/packs', { name: 'kcoR\u202E' }), 400, 'invalid_input', deceptive);
    expectError(await editor.request('PATCH', `/api/hits/packs/${ids.pop}`, { name: 'P\u200Bop' }), 400, 'invalid_input', deceptive);
    expectError(await editor.request('PATCH', `/api/hits/packs/${ids.pop}`, { name: '\u3164' }), 400, 'invalid_input', /^name must not contain characters that do not show/);
    expect((await editor.request('GET', '/api/hits/packs')).body.packs.find((p: { id: string }) => p.id === ids.pop).name).toBe('Pop');
    expectError(await editor.request('PATCH', '/api/hits/packs/not-a-uuid', { name: 'X' }), 400, 'invalid_input', 'packId must be a UUID');
    expectError(await editor.request('DELETE', '/api/hits/packs/not-a-uuid'), 400, 'invalid_input', 'packId must be a UUID');
    expect(await countRows('packs')).toBe(before);
  });

  it('deleting a pack keeps its hits, without that pack', async () => {
    const id = await createPack('Short-lived');
    const a = await createHit({ title: 'Ephemeral One', artist: 'Packer', year: 2010, packs: [id, ids.rock] });
    const b = await createHit({ title: 'Ephemeral Two', artist: 'Packer', year: 2011, packs: [id] });
    expect((await search({ packs: id })).total).toBe(2);
    const hitsBefore = await countRows('hits');
    expectSuccess(await editor.request('DELETE', `/api/hits/packs/${id}`), 'pack deleted successfully');
    expect(await countRows('hits')).toBe(hitsBefore);
    expect((await editor.request('GET', `/api/hits/${a.id}`)).body.packs).toEqual([ids.rock]);
    expect((await editor.request('GET', `/api/hits/${b.id}`)).body.packs).toEqual([]);
    // the search follows: b is now a hit without a pack
    expect(titles((await search({ packs: '', query: 'ephemeral' })).results)).toEqual(['Ephemeral Two']);
    expect((await search({ packs: id })).total).toBe(0);
    expectError(await editor.request('DELETE', `/api/hits/packs/${id}`), 404, 'pack_not_found', 'pack not found');
    for (const h of [a, b]) expectSuccess(await editor.request('DELETE', `/api/hits/${h.id}`), 'hit deleted successfully');
  });
});

describe('hits', () => {
  it('reads a hit for the editor: yt_id, offset and audio state included; 404 and 400 otherwise', async () => {
    const queen = seededHit('Bohemian Rhapsody');
    const r = await editor.request('GET', `/api/hits/${queen.id}`);
    expect(r.status).toBe(200);
    // a hit without a video: "" (the reference server's client reads yt_id as a string)
    expect(FullHitPayloadSchema.parse(r.body)).toEqual({
      id: queen.id,
      title: 'Bohemian Rhapsody',
      artist: 'Queen',
      belongs_to: '',
      year: 1975,
      packs: [ids.rock],
      yt_id: '',
      playback_offset: 12,
      audio: 'none',
    });
    expect((await anonymous.request('GET', `/api/hits/${queen.id}?parts=downloaded`)).body.downloaded).toBe(false);
    expectError(await anonymous.request('GET', `/api/hits/${randomUUID()}`), 404, 'hit_not_found', 'hit id not found');
    expectError(await anonymous.request('GET', '/api/hits/12345'), 400, 'invalid_input', 'hitId must be a UUID');
  });

  it('shows the video and offset only to write_hits users, as "" and 0 to anybody else (same shape)', async () => {
    const letItBe = seededHit('Let It Be');
    const queen = seededHit('Bohemian Rhapsody');
    expect(letItBe.yt_id).toBe('QDYfEBY9NM4');
    for (const u of [editor, hitsOnly]) {
      const r = await u.request('GET', `/api/hits/${letItBe.id}?parts=downloaded`);
      expect(FullHitPayloadSchema.parse(r.body)).toMatchObject({ yt_id: 'QDYfEBY9NM4', playback_offset: 0, downloaded: false });
      expect(FullHitPayloadSchema.parse((await u.request('GET', `/api/hits/${queen.id}`)).body)).toMatchObject({ yt_id: '', playback_offset: 12 });
      expect(r.headers.get('cache-control')).toBe('private, no-cache');
    }
    for (const u of [anonymous, guest, packsOnly]) {
      for (const hit of [letItBe, queen]) {
        const r = await u.request('GET', `/api/hits/${hit.id}?parts=downloaded`);
        expect(r.status).toBe(200);
        expect(FullHitPayloadSchema.parse(r.body)).toEqual({ ...hit, yt_id: '', playback_offset: 0, audio: expect.any(String), downloaded: false });
        expect(r.headers.get('cache-control')).toBe('private, no-cache');
      }
    }
  });

  it('takes back a fetched hit without a video: yt_id "" is none', async () => {
    const made = await createHit({ title: 'Round Trip', artist: 'Echo', year: 1987, playback_offset: 4 });
    expect(made).toMatchObject({ yt_id: '', playback_offset: 4 });
    expectSuccess(await editor.request('PATCH', `/api/hits/${made.id}`, { ...made, title: 'Round Trip 2' }), 'hit updated successfully');
    const row = await t.server.db.selectFrom('hits').select(['title', 'yt_id', 'playback_offset']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Round Trip 2', yt_id: null, playback_offset: 4 });
    expectSuccess(await editor.request('DELETE', `/api/hits/${made.id}`), 'hit deleted successfully');
  });

  it('needs a session and write_hits to create, edit or delete', async () => {
    const target = seededHit('Hey Jude');
    const body = { title: 'Nope', artist: 'Nobody', year: 2000 };
    for (const u of [anonymous, guest, packsOnly]) {
      const [status, code, message] = u === anonymous ? [401, 'unauthenticated', 'not authenticated'] : [403, 'permission_denied', 'permission denied'];
      expectError(await u.request('POST', '/api/hits', body), status, code, message);
      expectError(await u.request('PATCH', `/api/hits/${target.id}`, body), status, code, message);
      expectError(await u.request('DELETE', `/api/hits/${target.id}`), status, code, message);
    }
    expect((await editor.request('GET', `/api/hits/${target.id}`)).body.title).toBe('Hey Jude');
    const made = await createHit({ title: 'Hilda Song', artist: 'Hilda', year: 2020, yt_id: 'abcdefghijk' }, hitsOnly);
    expect(made).toMatchObject({ title: 'Hilda Song', packs: [], belongs_to: '', playback_offset: 0, yt_id: 'abcdefghijk', audio: 'none' });
    expectSuccess(await hitsOnly.request('PATCH', `/api/hits/${made.id}`, { ...body, yt_id: 'abcdefghijk' }), 'hit updated successfully');
    expectSuccess(await hitsOnly.request('DELETE', `/api/hits/${made.id}`), 'hit deleted successfully');
    expectError(await hitsOnly.request('DELETE', `/api/hits/${made.id}`), 404, 'hit_not_found', 'hit not found');
  });

  it('creates with a new id, ignoring the id, downloaded and issues a client sends back', async () => {
    const sent = { id: randomUUID(), downloaded: true, issues: [], title: 'Sent Back', artist: 'Client', year: 1990, packs: [ids.pop, ids.pop] };
    const made = await createHit(sent);
    expect(made.id).not.toBe(sent.id);
    expect(made.packs).toEqual([ids.pop]);
    expect((await editor.request('GET', `/api/hits/${made.id}`)).body).toEqual(made);
    expectSuccess(await editor.request('DELETE', `/api/hits/${made.id}`), 'hit deleted successfully');
  });

  it('replaces every field on PATCH, packs included; the search follows', async () => {
    const made = await createHit({ title: 'Original Title', artist: 'Someone', belongs_to: 'Some Film', year: 1999, packs: [ids.rock], yt_id: 'zzzzzzzzzzz', playback_offset: 5 });
    const r = await editor.request('PATCH', `/api/hits/${made.id}`, { title: 'Replaced Title', artist: 'Someone Else', year: 2001, packs: [ids.pop, ids.film] });
    expectSuccess(r, 'hit updated successfully');
    const now = (await editor.request('GET', `/api/hits/${made.id}`)).body;
    expect(now).toEqual({
      id: made.id,
      title: 'Replaced Title',
      artist: 'Someone Else',
      belongs_to: '',
      year: 2001,
      packs: [ids.film, ids.pop].sort(),
      yt_id: '',
      playback_offset: 0,
      audio: 'none',
    });
    expect((await search({ query: 'original' })).total).toBe(0);
    expect(titles((await search({ query: 'replaced', packs: ids.film })).results)).toEqual(['Replaced Title']);
    expectError(await editor.request('PATCH', `/api/hits/${randomUUID()}`, { title: 'X', artist: 'Y', year: 1 }), 404, 'hit_not_found', 'hit not found');
    expectSuccess(await editor.request('DELETE', `/api/hits/${made.id}`), 'hit deleted successfully');
    expect((await search({ query: 'replaced' })).total).toBe(0);
  });

  it('refuses a yt_id another hit has, on create and on edit', async () => {
    const before = await countRows('hits');
    const letItBe = seededHit('Let It Be');
    expectError(await editor.request('POST', '/api/hits', { title: 'Copy', artist: 'Cat', year: 1970, yt_id: 'QDYfEBY9NM4' }), 409, 'yt_id_taken', 'a hit for that YouTube ID already exists');
    expect(await countRows('hits')).toBe(before);
    const other = seededHit('Hey Jude');
    expectError(
      await editor.request('PATCH', `/api/hits/${other.id}`, { title: 'Hey Jude', artist: 'The Beatles', year: 1968, packs: [ids.pop], yt_id: 'QDYfEBY9NM4' }),
      409,
      'yt_id_taken',
      'a hit for that YouTube ID already exists',
    );
    expect((await editor.request('GET', `/api/hits/${other.id}`)).body.yt_id).toBe('');
    // keeping its own yt_id is fine
    expectSuccess(
      await editor.request('PATCH', `/api/hits/${letItBe.id}`, { title: 'Let It Be', artist: 'The Beatles', year: 1970, packs: [ids.rock], yt_id: 'QDYfEBY9NM4' }),
      'hit updated successfully',
    );
  });

  it('refuses bad fields with 400 naming the field, and writes nothing', async () => {
    const good = { title: 'Good', artist: 'Fine', year: 1999, packs: [ids.rock], yt_id: 'dQw4w9WgXcQ', playback_offset: 3 };
    const target = seededHit('Yesterday');
    const counts = async () => [await countRows('hits'), await countRows('hit_packs'), await countRows('packs')];
    const before = await counts();
    const targetBefore = (await editor.request('GET', `/api/hits/${target.id}`)).body;
    const cases: [unknown, RegExp][] = [
      [{ ...good, yt_id: 'short' }, /^yt_id must be 11 characters/],
      [{ ...good, yt_id: 'https://youtu.be/dQw4w9WgXcQ' }, /^yt_id /],
      [{ ...good, year: 0 }, /^year must be at least 1/],
      [{ ...good, year: 10_000 }, /^year must be at most \d{4} \(the current year\)$/],
      [{ ...good, year: latestHitYear() + 1 }, new RegExp(`^year must be at most ${latestHitYear()} \\(the current year\\)$`)],
      [{ ...good, year: 2099 }, /^year must be at most \d{4} \(the current year\)$/],
      [{ ...good, year: '1999' }, /^year must be /],
      [{ ...good, playback_offset: -1 }, /^playback_offset must be at least 0/],
      [{ ...good, title: '  ' }, /^title must not be empty/],
      [{ ...good, artist: undefined }, /^artist is required/],
      [{ ...good, packs: ['nope'] }, /^packs\[0\] must be a UUID/],
      [{ ...good, packs: [ids.rock, randomUUID()] }, /^packs\[1\] must be the id of an existing pack/],
      [{ ...good, title: 'Good\u202Edoog' }, /^title must not contain invisible or text-direction characters$/],
      [{ ...good, artist: 'Fi\u200Bne' }, /^artist must not contain invisible or text-direction characters$/],
      [{ ...good, belongs_to: 'Film\uFE0F' }, /^belongs_to must not contain characters that do not show/],
      ['"not an object"', /^body must be an object/],
    ];
    for (const [body, message] of cases) {
      expectError(await editor.request('POST', '/api/hits', body), 400, 'invalid_input', message, `POST ${JSON.stringify(body)}`);
      expectError(await editor.request('PATCH', `/api/hits/${target.id}`, body), 400, 'invalid_input', message, `PATCH ${JSON.stringify(body)}`);
    }
    expectError(await editor.request('PATCH', '/api/hits/not-a-uuid', good), 400, 'invalid_input', 'hitId must be a UUID');
    expectError(await editor.request('DELETE', '/api/hits/not-a-uuid'), 400, 'invalid_input', 'hitId must be a UUID');
    expect(await counts()).toEqual(before);
    expect((await editor.request('GET', `/api/hits/${target.id}`)).body).toEqual(targetBefore);
  });

  it("takes this year's hits (a year to come is refused above)", async () => {
    const made = await createHit({ title: 'Brand New', artist: 'Fresh', year: latestHitYear() });
    expect(made.year).toBe(latestHitYear());
    expectSuccess(await editor.request('DELETE', `/api/hits/${made.id}`), 'hit deleted successfully');
  });

  it('leaves export and import to their own routes (static segments beat the id)', async () => {
    // catalogue-io answers these; the hit routes never read them as a malformed id
    expect((await anonymous.request('GET', '/api/hits/export')).status).toBe(401);
    expect((await guest.request('GET', '/api/hits/export')).status).toBe(403);
    const patch = await editor.request('PATCH', '/api/hits/export', { title: 'X', artist: 'Y', year: 1 });
    expectError(patch, 404, 'not_found', /^no API endpoint/);
    expectError(await editor.request('DELETE', '/api/hits/search'), 404, 'not_found', /^no API endpoint/);
  });
});

describe('changes', () => {
  it('publishes hits_changed on the global stream after each change', async () => {
    const events = new SseReader(`${t.base}/api/events`);
    try {
      await events.until((e) => e.some((x) => x.event === 'process_hits'));
      const count = () => events.events.filter((e) => e.event === 'hits_changed').length;
      const id = await createPack('Announced');
      await events.until(() => count() >= 1);
      const hit = await createHit({ title: 'Announced Hit', artist: 'Herald', year: 2003, packs: [id] });
      await events.until(() => count() >= 2);
      expectSuccess(await editor.request('PATCH', `/api/hits/${hit.id}`, { title: 'Announced Again', artist: 'Herald', year: 2003 }), 'hit updated successfully');
      await events.until(() => count() >= 3);
      expectSuccess(await editor.request('DELETE', `/api/hits/${hit.id}`), 'hit deleted successfully');
      expectSuccess(await editor.request('DELETE', `/api/hits/packs/${id}`), 'pack deleted successfully');
      await events.until(() => count() >= 5);
      // refused writes change nothing and announce nothing
      expectError(await editor.request('POST', '/api/hits/packs', { name: 'rock' }), 409, 'pack_name_taken', 'a pack with that name already exists');
      await new Promise((r) => setTimeout(r, 100));
      expect(count()).toBe(5);
      expect(events.events.find((e) => e.event === 'hits_changed')?.data).toEqual({ hits_changed: {} });
    } finally {
      events.close();
    }
  });

  it('reuses the hits a game may deal for a moment, and forgets them on every change', async () => {
    const catalogue = t.server.catalogue;
    const id = await createPack('Dealt');
    try {
      const first = await createHit({ title: 'Dealt One', artist: 'Dealer', year: 1991, packs: [id] });
      const a = await catalogue.playableHits([id], 'card');
      expect(a.map((h) => h.title)).toEqual(['Dealt One']);
      // the same selection again (in any order): the same answer, the same Hit objects
      expect(await catalogue.playableHits([id, id], 'card')).toBe(a);
      // written straight to the database: not seen until the answer is forgotten (or 5 s pass)
      const now = new Date().toISOString();
      const bulk = randomUUID();
      await t.server.db.insertInto('hits').values({ id: bulk, title: 'Dealt Bulk', artist: 'Dealer', year: 1992, belongs_to: '', yt_id: null, playback_offset: 0, created_at: now, updated_at: now }).execute();
      await t.server.db.insertInto('hit_packs').values({ hit_id: bulk, pack_id: id }).execute();
      expect((await catalogue.playableHits([id], 'card')).length).toBe(1);
      catalogue.forgetPlayable();
      expect((await catalogue.playableHits([id], 'card')).map((h) => h.title).sort()).toEqual(['Dealt Bulk', 'Dealt One']);
      // a change through the service (the editor) is seen at once
      expectSuccess(await editor.request('PATCH', `/api/hits/${first.id}`, { title: 'Dealt Renamed', artist: 'Dealer', year: 1991, packs: [id] }), 'hit updated successfully');
      expect((await catalogue.playableHits([id], 'card')).map((h) => h.title).sort()).toEqual(['Dealt Bulk', 'Dealt Renamed']);
      // audio mode is its own answer: none of these has audio
      expect(await catalogue.playableHits([id], 'audio')).toEqual([]);
      await t.server.db.deleteFrom('hits').where('id', '=', bulk).execute();
      expectSuccess(await editor.request('DELETE', `/api/hits/${first.id}`), 'hit deleted successfully');
    } finally {
      expectSuccess(await editor.request('DELETE', `/api/hits/packs/${id}`), 'pack deleted successfully');
    }
  });

  it('deals a start from a random sample of DEAL_MAX hits when the selection is larger, each hit once', async () => {
    const catalogue = t.server.catalogue;
    const db = t.server.db;
    const a = await createPack('Big A');
    const b = await createPack('Big B');
    const now = new Date().toISOString();
    const made = Array.from({ length: DEAL_MAX + 300 }, (_, i) => ({ id: randomUUID(), title: `Big ${i}`, artist: 'Sampler', year: 1950 + (i % 70), belongs_to: '', yt_id: null, playback_offset: 0, created_at: now, updated_at: now }));
    try {
      for (let i = 0; i < made.length; i += 500) await db.insertInto('hits').values(made.slice(i, i + 500)).execute();
      // every hit in pack A, a third of them in pack B too
      const links = made.flatMap((h, i) => [{ hit_id: h.id, pack_id: a }, ...(i % 3 === 0 ? [{ hit_id: h.id, pack_id: b }] : [])]);
      for (let i = 0; i < links.length; i += 500) await db.insertInto('hit_packs').values(links.slice(i, i + 500)).execute();
      catalogue.forgetPlayable();
      const ids = new Set<string>(made.map((h) => h.id));
      const first = await catalogue.playableHits([a, b], 'card');
      expect(first).toHaveLength(DEAL_MAX);
      expect(new Set(first.map((h) => h.id)).size).toBe(DEAL_MAX);
      expect(first.every((h) => ids.has(h.id))).toBe(true);
      // a hit's selected packs come with it
      const inBoth = first.find((h) => made.findIndex((m) => m.id === h.id) % 3 === 0)!;
      expect([...inBoth.packs].sort()).toEqual([a, b].sort());
      // another sample next time: the 300 left out are not always the same
      catalogue.forgetPlayable();
      const second = await catalogue.playableHits([a, b], 'card');
      expect(second.map((h) => h.id).sort()).not.toEqual(first.map((h) => h.id).sort());
      // a selection within the limit is dealt whole, in id order (games starting together share it)
      const small = await catalogue.playableHits([b], 'card');
      const inB = made.filter((_, i) => i % 3 === 0).map((h) => h.id).sort();
      expect(small.map((h) => h.id)).toEqual(inB);
    } finally {
      await db.deleteFrom('hit_packs').where('pack_id', 'in', [a, b]).execute();
      for (let i = 0; i < made.length; i += 500) await db.deleteFrom('hits').where('id', 'in', made.slice(i, i + 500).map((h) => h.id)).execute();
      catalogue.forgetPlayable();
      expectSuccess(await editor.request('DELETE', `/api/hits/packs/${a}`), 'pack deleted successfully');
      expectSuccess(await editor.request('DELETE', `/api/hits/packs/${b}`), 'pack deleted successfully');
    }
  });

  it('indexes hits written straight to the database; catalogue.changed() teaches the typo tolerance', async () => {
    const db = t.server.db;
    const now = new Date().toISOString();
    const id = randomUUID();
    await db.insertInto('hits').values({ id, title: 'Quixotically Bulk', artist: 'Importer', year: 2015, belongs_to: '', yt_id: null, playback_offset: 0, created_at: now, updated_at: now }).execute();
    await db.insertInto('hit_packs').values({ hit_id: id, pack_id: ids.film }).execute();
    // the full-text and pack indexes follow by triggers at once
    expect(titles((await search({ query: 'quixo', packs: ids.film })).results)).toEqual(['Quixotically Bulk']);
    await t.server.catalogue.changed();
    expect(titles((await search({ query: 'quixoticaly' })).results)).toEqual(['Quixotically Bulk']);
    // SQLite's INSERT OR REPLACE deletes the old row first (PostgreSQL's upsert updates it): the index must drop its words
    if (isPostgres(db)) {
      await sql`INSERT INTO hits (id, title, artist, year, belongs_to, yt_id, playback_offset, created_at, updated_at)
        VALUES (${id}, 'Replaced Bulk', 'Importer', 2015, '', NULL, 0, ${now}, ${now})
        ON CONFLICT (id) DO UPDATE SET title = excluded.title`.execute(db);
    } else {
      await sql`INSERT OR REPLACE INTO hits (id, title, artist, year, belongs_to, yt_id, playback_offset, created_at, updated_at)
        VALUES (${id}, 'Replaced Bulk', 'Importer', 2015, '', NULL, 0, ${now}, ${now})`.execute(db);
    }
    expect((await search({ query: 'quixo' })).total).toBe(0);
    expect(titles((await search({ query: 'replaced bulk' })).results)).toEqual(['Replaced Bulk']);
    await db.deleteFrom('hits').where('id', '=', id).execute();
    expect((await search({ query: 'bulk' })).total).toBe(0);
  });

  it('pages through a bigger catalogue written in bulk', async () => {
    const db = t.server.db;
    const now = new Date().toISOString();
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: randomUUID(),
      title: `Filler ${String(i + 1).padStart(3, '0')}`,
      artist: 'Padding',
      year: 1950 + (i % 70),
      belongs_to: '',
      yt_id: null,
      playback_offset: 0,
      created_at: now,
      updated_at: now,
    }));
    await db.insertInto('hits').values(rows).execute();
    try {
      await t.server.catalogue.changed();
      const seen: string[] = [];
      for (const start of [1, 51, 101]) {
        const page = await search({ query: 'filler', sort_by: 'title', start });
        expect(page.total).toBe(120);
        expect(page.results.length).toBe(start === 101 ? 20 : 50);
        seen.push(...titles(page.results));
      }
      expect(seen).toEqual(rows.map((r) => r.title));
      expect(await search({ query: 'filler', start: 121 })).toEqual({ results: [], total: 120, start: 121, end: 120 });
      // relevance pages too (the same set, another order), deep pages from the other end
      const ranked: string[] = [];
      for (const start of [1, 51, 101]) ranked.push(...titles((await search({ query: 'padding', start })).results));
      expect([...ranked].sort()).toEqual(rows.map((r) => r.title));
      const byYear = (await search({ query: 'padding', sort_by: 'year', sort_direction: 'descending', amount: 1000 })).results;
      expect(titles((await search({ query: 'padding', sort_by: 'year', sort_direction: 'descending', start: 100, amount: 10 })).results)).toEqual(titles(byYear.slice(99, 109)));
    } finally {
      await db.deleteFrom('hits').where('id', 'in', rows.map((r) => r.id)).execute();
    }
  });

  it('never changes the deck of a running game', async () => {
    const host = await User.guest(t.base);
    const created = await host.request('POST', '/api/games', { mode: 'Local', settings: { goal: 1, clue_mode: 'card', guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gameId = created.body.id as string;
    expectSuccess(await host.request('PATCH', `/api/games/${gameId}/join/Bob`), 'joined the game successfully');
    expectSuccess(await host.request('PATCH', `/api/games/${gameId}/start`), 'started game');
    const room = matchMaker.getLocalRoomById(gameId) as unknown as GameRoom;
    const deckBefore = structuredClone(remainingDeck(room.game));
    const currentBefore = structuredClone(room.game.current);
    const gameBefore = (await host.request('GET', `/api/games/${gameId}`)).body;
    expect(deckBefore.length).toBeGreaterThan(0);

    // edit every hit the game holds, delete one, drop a pack
    const held = [...deckBefore, ...(currentBefore ? [currentBefore] : []), ...gameBefore.players.flatMap((p: { hits: { id: string }[] }) => p.hits)];
    for (const h of held) {
      const full = (await editor.request('GET', `/api/hits/${h.id}`)).body as FullHitPayload;
      expectSuccess(await editor.request('PATCH', `/api/hits/${h.id}`, { ...full, title: `${full.title} (edited)`, year: full.year + 1 }), 'hit updated successfully');
    }
    const gone = deckBefore[0] as { id: string };
    const full = (await editor.request('GET', `/api/hits/${gone.id}`)).body as FullHitPayload;
    expectSuccess(await editor.request('DELETE', `/api/hits/${gone.id}`), 'hit deleted successfully');

    expect(remainingDeck(room.game)).toEqual(deckBefore);
    expect(room.game.current).toEqual(currentBefore);
    expect((await host.request('GET', `/api/games/${gameId}`)).body.players).toEqual(gameBefore.players);

    // put the catalogue back for the other tests
    for (const h of held) {
      if (h.id === gone.id) continue;
      const now = (await editor.request('GET', `/api/hits/${h.id}`)).body as FullHitPayload;
      expectSuccess(await editor.request('PATCH', `/api/hits/${h.id}`, { ...now, title: now.title.replace(' (edited)', ''), year: now.year - 1 }), 'hit updated successfully');
    }
    await t.server.db
      .insertInto('hits')
      .values({ id: gone.id, title: full.title.replace(' (edited)', ''), artist: full.artist, belongs_to: full.belongs_to, year: full.year - 1, yt_id: full.yt_id, playback_offset: full.playback_offset, created_at: '2020-01-01T00:00:00.000Z', updated_at: '2020-01-01T00:00:00.000Z' })
      .execute();
    if (full.packs.length > 0) await t.server.db.insertInto('hit_packs').values(full.packs.map((pack_id) => ({ hit_id: gone.id, pack_id }))).execute();
    expectSuccess(await host.request('PATCH', `/api/games/${gameId}/stop`), 'stopped game');
  });
});

describe('the clue mode of a game: decided at its start, from its packs, unless the creator chose one', () => {
  const NO_TIMERS = { guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 } as const;
  let withAudio = '';
  let cardsOnly = '';
  const made: string[] = [];

  beforeAll(async () => {
    withAudio = await createPack('Auto With Audio');
    cardsOnly = await createPack('Auto Cards Only');
    const db = t.server.db;
    const audioDir = t.server.config.AUDIO_DIR;
    mkdirSync(audioDir, { recursive: true });
    const now = new Date().toISOString();
    // 8 hits whose audio is ready (their processed files are there), 8 without audio
    for (let i = 0; i < 16; i++) {
      const id = randomUUID();
      made.push(id);
      const ready = i < 8;
      await db.insertInto('hits').values({ id, title: `Auto ${i}`, artist: 'Automaton', year: 1960 + i, belongs_to: '', yt_id: null, playback_offset: 0, audio_state: ready ? 'ready' : 'none', created_at: now, updated_at: now }).execute();
      await db.insertInto('hit_packs').values({ hit_id: id, pack_id: ready ? withAudio : cardsOnly }).execute();
      if (ready) for (const ext of ['opus', 'mp3']) writeFileSync(join(audioDir, `${id}.${ext}`), 'stands in for processed audio');
    }
    t.server.catalogue.forgetPlayable();
  });

  afterAll(async () => {
    await t.server.db.deleteFrom('hits').where('id', 'in', made).execute();
    for (const id of [withAudio, cardsOnly]) expectSuccess(await editor.request('DELETE', `/api/hits/packs/${id}`), 'pack deleted successfully');
  });

  it('counts what a pack selection can deal, with cards and with audio, each hit once', async () => {
    const counts = async (query: string) => {
      const r = await anonymous.request('GET', `/api/hits/playable${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-cache');
      return PlayableCountsSchema.parse(r.body);
    };
    expect(await counts(`?packs=${withAudio}`)).toEqual({ hits: 8, audio: 8, youtube: 0 });
    expect(await counts(`?packs=${cardsOnly}`)).toEqual({ hits: 8, audio: 0, youtube: 0 });
    expect(await counts(`?packs=${withAudio}&packs=${cardsOnly}&packs=${withAudio}`)).toEqual({ hits: 16, audio: 8, youtube: 0 });
    // no selection: every pack (what a new game plays with)
    const all = await counts('');
    expect(all.audio).toBe(8);
    expect(all.hits).toBe((await anonymous.request('GET', '/api/hits/packs')).body.total);
    expect(await counts(`?packs=${randomUUID()}`)).toEqual({ hits: 0, audio: 0, youtube: 0 });
    expectError(await anonymous.request('GET', '/api/hits/playable?packs=nope'), 400, 'invalid_input', /^packs/);
  });

  it('plays audio when enough hits of the chosen packs have audio (players × goal × 2), else cards; a chosen mode stays', async () => {
    const host = await User.guest(t.base);
    const created = await host.request('POST', '/api/games', { mode: 'Local', settings: { goal: 2, packs: [cardsOnly], ...NO_TIMERS } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.clue_mode_auto).toBe(true);
    const id = created.body.id as string;
    expectSuccess(await host.request('PATCH', `/api/games/${id}/join/Bob`), 'joined the game successfully');
    const game = async () => (await host.request('GET', `/api/games/${id}`)).body as { state: string; clue_mode: string; clue_mode_auto: boolean; clue: unknown };
    /** Starts, reads the clue mode the game plays in, stops. */
    const playedWith = async (): Promise<string> => {
      expectSuccess(await host.request('PATCH', `/api/games/${id}/start`), 'started game');
      const g = await game();
      expect(g.state).not.toBe('Open');
      // card mode shows the card to the table; audio mode never does
      expect(g.clue !== null).toBe(g.clue_mode === 'card');
      expectSuccess(await host.request('PATCH', `/api/games/${id}/stop`), 'stopped game');
      return g.clue_mode;
    };
    const update = async (settings: Record<string, unknown>) => expectSuccess(await host.request('PATCH', `/api/games/${id}/update`, settings), 'game updated successfully');

    // 2 players to a goal of 2 need 8 hits: the cards-only pack has no audio
    expect(await playedWith()).toBe('card');
    // the creator picks the pack with audio: the next start plays it
    await update({ packs: [withAudio] });
    expect(await playedWith()).toBe('audio');
    expect((await game()).clue_mode_auto).toBe(true);
    // a goal of 3 needs 12 with audio, there are 8: cards (from both packs)
    await update({ packs: [withAudio, cardsOnly], goal: 3 });
    expect(await playedWith()).toBe('card');
    // the creator's choice is kept, enough audio or not
    await update({ packs: [withAudio], goal: 2, clue_mode: 'card' });
    expect((await game()).clue_mode_auto).toBe(false);
    expect(await playedWith()).toBe('card');
    await update({ clue_mode: 'audio' });
    await update({ packs: [cardsOnly] });
    // (an audio game without audio cannot be dealt)
    const refused = await host.request('PATCH', `/api/games/${id}/start`);
    expectError(refused, 409, 'not_enough_hits', /\(0 individual hits in the currently selected packs, 8 hits are required\)/);
    // back to automatic
    await update({ clue_mode_auto: true, packs: [withAudio] });
    expect(await playedWith()).toBe('audio');
    expectError(await host.request('PATCH', `/api/games/${id}/update`, { clue_mode_auto: 'yes' }), 400, 'invalid_input', /^clue_mode_auto/);
  });
});
