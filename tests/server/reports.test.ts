import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Permission } from '../../server/services/users.ts';
import { AltchaChallengeSchema, ErrorBodySchema, FullHitPayloadSchema, HitSearchReplySchema } from '../../shared/protocol/index.ts';
import { HitHistorySchema, HitIssueSchema, ReviewQueueSchema, type HitIssue } from '../../shared/protocol/reports.ts';
import { bootServer, PACK_ONE, PACK_TWO, SseReader, User, type Reply, type TestServer } from './harness.ts';

/**
 * Reports about hits end to end over real HTTP, SQLite and SSE
 * (docs/disputes.md#reports): the reference server's hit issues with ALTCHA,
 * "report a problem" with its per-user limit, deleting, the review queue,
 * accepting (the year, its history, the search, the next game's deal) and
 * dismissing, `parts=issues` and `filters=has_issues` for read_issues callers
 * only, the year history of created and edited hits, and the report events,
 * which reach read_issues subscribers and nobody else.
 */

let t: TestServer;
let curator: User; // write_hits, read_issues, write_issues, delete_issues
let reader: User; // read_issues, write_issues
let guest: User; // a guest: write_issues only
let mute: User; // registered, no permission at all
let anonymous: User; // no session
/** Demo catalogue hits, by place in the title order. */
let hits: { id: string; year: number; title: string }[] = [];
const PASSWORD = 'correct horse battery';

async function account(name: string, bits: number): Promise<User> {
  const made = await t.server.users.createAccount(name, PASSWORD, bits);
  expect(made.ok).toBe(true);
  const u = await User.guest(t.base);
  const r = await u.request('POST', '/api/users/login', { username: name, password: PASSWORD });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await u.auth();
  return u;
}

/** A solved ALTCHA challenge, encoded as the widget sends it. */
async function altcha(as: User = guest): Promise<string> {
  const r = await as.request('GET', '/api/altcha');
  expect(r.status).toBe(200);
  const c = AltchaChallengeSchema.parse(r.body);
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('no solution found');
  return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature, took: solution.took }));
}

function expectError(r: Reply, status: number, code: string, message?: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(ErrorBodySchema.safeParse(r.body).success).toBe(true);
  expect(r.body.code).toBe(code);
  if (message !== undefined) expect(r.body.message).toBe(message);
}

async function problem(as: User, hitId: string, body: Record<string, unknown>): Promise<HitIssue> {
  const r = await as.request('POST', `/api/hits/${hitId}/reports`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return HitIssueSchema.parse(r.body);
}

async function yearOf(hitId: string): Promise<number> {
  const r = await anonymous.request('GET', `/api/hits/${hitId}`);
  return FullHitPayloadSchema.parse(r.body).year;
}

async function historyOf(hitId: string, as: User = curator) {
  const r = await as.request('GET', `/api/hits/${hitId}/history`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return HitHistorySchema.parse(r.body);
}

/** A new guest: "report a problem" is limited per user, and these tests file many. */
const someone = () => User.guest(t.base);

const events = (s: SseReader, name: string) => s.events.filter((e) => e.event === name).map((e) => e.data[name]);

beforeAll(async () => {
  // the captcha required, and the rate limits on (the reference API's issues need a solved challenge)
  t = await bootServer({ REGISTRATION_CAPTCHA: 'required', RATE_LIMIT_FACTOR: '1' });
  curator = await account('Curator', Permission.WRITE_HITS | Permission.READ_ISSUES | Permission.WRITE_ISSUES | Permission.DELETE_ISSUES);
  reader = await account('Reader', Permission.READ_ISSUES | Permission.WRITE_ISSUES);
  mute = await account('Mute', 0);
  guest = await User.guest(t.base);
  anonymous = new User(t.base);
  hits = await t.server.db.selectFrom('hits').select(['id', 'year', 'title']).orderBy('title').orderBy('id').execute();
});

afterAll(async () => {
  await t?.stop();
});

describe('POST /api/hits/{id}/issues (the reference API)', () => {
  it('checks permission, captcha, message and hit in that order, then files the report', async () => {
    const hit = hits[0]!;
    // no session: 401; a session without write_issues: 403 (docs/api.md#b4), before the captcha is looked at
    expectError(await anonymous.request('POST', `/api/hits/${hit.id}/issues`, { message: 'x' }), 401, 'unauthenticated');
    expectError(await mute.request('POST', `/api/hits/${hit.id}/issues`, { message: '' }), 403, 'permission_denied', 'permission denied');
    // captcha before message
    expectError(await guest.request('POST', `/api/hits/${hit.id}/issues`, { message: '' }), 403, 'captcha_failed', 'altcha solution incorrect');
    expectError(await guest.request('POST', `/api/hits/${hit.id}/issues`, { message: 'x', altcha_token: 'bm90IGEgdG9rZW4=' }), 403, 'captcha_failed');
    // message before hit
    const unknown = '99999999-9999-4999-8999-999999999999';
    expectError(await guest.request('POST', `/api/hits/${unknown}/issues`, { message: '   ', altcha_token: await altcha() }), 400, 'issue_message_required', 'issue message is required');
    expectError(await guest.request('POST', `/api/hits/${unknown}/issues`, { message: 'wrong', altcha_token: await altcha() }), 404, 'hit_not_found', 'hit not found');
    expect(await t.server.db.selectFrom('hit_issues').selectAll().execute()).toEqual([]);

    const token = await altcha();
    const r = await guest.request('POST', `/api/hits/${hit.id}/issues`, { message: '  the year is off  ', altcha_token: token, kind: 'wrong_year', year: 1999 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const issue = HitIssueSchema.parse(r.body);
    expect(issue).toMatchObject({ hit_id: hit.id, type: 'custom', message: 'the year is off', kind: 'wrong_year', year: 1999, status: 'open', reporter: guest.name, resolution: null });
    // a solution counts once
    expectError(await guest.request('POST', `/api/hits/${hit.id}/issues`, { message: 'again', altcha_token: token }), 403, 'captcha_failed');
    await t.server.db.deleteFrom('hit_issues').execute();
  });
});

describe('events, DELETE, report a problem', () => {
  it('sends create_hit_issue and delete_hit_issue to read_issues subscribers only', async () => {
    const hit = hits[1]!;
    const cookie = (u: User) => ({ cookie: u.cookieHeader() });
    const theReader = new SseReader(`${t.base}/api/events`, cookie(reader));
    const theGuest = new SseReader(`${t.base}/api/events`, cookie(guest));
    const nobody = new SseReader(`${t.base}/api/events`);
    try {
      for (const s of [theReader, theGuest, nobody]) await s.until((e) => e.some((x) => x.event === 'process_hits'));
      const issue = await problem(guest, hit.id, { kind: 'wrong_song', message: 'this is a cover' });
      await theReader.until(() => events(theReader, 'create_hit_issue').length === 1);
      expect(HitIssueSchema.parse(events(theReader, 'create_hit_issue')[0])).toEqual(issue);

      // deleting: guests may not, a delete_issues user may, once
      expectError(await guest.request('DELETE', `/api/hits/${hit.id}/issues/${issue.id}`), 403, 'permission_denied');
      expectError(await curator.request('DELETE', `/api/hits/${hits[2]!.id}/issues/${issue.id}`), 404, 'issue_not_found', 'issue not found');
      const gone = await curator.request('DELETE', `/api/hits/${hit.id}/issues/${issue.id}`);
      expect(gone.body).toEqual({ type: 'success', message: 'issue deleted successfully' });
      expectError(await curator.request('DELETE', `/api/hits/${hit.id}/issues/${issue.id}`), 404, 'issue_not_found');
      await theReader.until(() => events(theReader, 'delete_hit_issue').length === 1);
      expect(events(theReader, 'delete_hit_issue')).toEqual([{ hit_id: hit.id, issue_id: issue.id }]);

      // a global event everybody gets, published after those two: the others would have had them by now
      await t.server.bus.publishGlobal({ event: 'hits_changed', data: {} });
      for (const s of [theReader, theGuest, nobody]) await s.until(() => events(s, 'hits_changed').length > 0);
      for (const s of [theGuest, nobody]) {
        expect(events(s, 'create_hit_issue')).toEqual([]);
        expect(events(s, 'delete_hit_issue')).toEqual([]);
      }
    } finally {
      for (const s of [theReader, theGuest, nobody]) s.close();
    }
  });

  it('files a problem from a signed-in user, refuses bad input, and limits each user to 5 in 10 minutes', async () => {
    const hit = hits[3]!;
    const unknown = '99999999-9999-4999-8999-999999999999';
    expectError(await anonymous.request('POST', `/api/hits/${hit.id}/reports`, { kind: 'other', message: 'x' }), 401, 'unauthenticated');
    expectError(await mute.request('POST', `/api/hits/${hit.id}/reports`, { kind: 'other', message: 'x' }), 403, 'permission_denied');
    const spammer = await User.guest(t.base);
    expectError(await spammer.request('POST', `/api/hits/${hit.id}/reports`, { kind: 'wrong_year', message: 'x' }), 400, 'invalid_input');
    expectError(await spammer.request('POST', `/api/hits/${hit.id}/reports`, { kind: 'nonsense' }), 400, 'invalid_input');
    expectError(await spammer.request('POST', `/api/hits/${unknown}/reports`, { kind: 'other', message: 'x' }), 404, 'hit_not_found');
    await problem(spammer, hit.id, { kind: 'wrong_year', year: 1960, message: 'older' });
    await problem(spammer, hit.id, { kind: 'bad_audio' });
    const limited = await spammer.request('POST', `/api/hits/${hit.id}/reports`, { kind: 'other', message: 'sixth' });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // per user: another user still may
    const other = await problem(guest, hit.id, { kind: 'other', message: 'fine' });
    expect(other.reporter).toBe(guest.name);
    const stored = await t.server.db.selectFrom('hit_issues').select(['message', 'kind', 'year']).where('hit_id', '=', hit.id).orderBy('created_at').execute();
    expect(stored).toEqual([
      { message: 'older', kind: 'wrong_year', year: 1960 },
      { message: '', kind: 'bad_audio', year: null },
      { message: 'fine', kind: 'other', year: null },
    ]);
  });
});

describe('parts=issues and filters=has_issues', () => {
  it('shows open reports oldest first to read_issues callers and leaves them out for anybody else', async () => {
    const hit = hits[3]!; // three open reports from the test before
    const one = await reader.request('GET', `/api/hits/${hit.id}?parts=issues&parts=downloaded`);
    const mine = FullHitPayloadSchema.parse(one.body);
    expect(mine.issues?.map((i) => i.message)).toEqual(['older', '', 'fine']);
    expect(mine.downloaded).toBe(false);
    for (const who of [guest, anonymous]) {
      const theirs = FullHitPayloadSchema.parse((await who.request('GET', `/api/hits/${hit.id}?parts=issues`)).body);
      expect('issues' in theirs).toBe(false);
    }
    const noParts = FullHitPayloadSchema.parse((await reader.request('GET', `/api/hits/${hit.id}`)).body);
    expect('issues' in noParts).toBe(false);

    const filtered = HitSearchReplySchema.parse((await reader.request('GET', '/api/hits/search?filters=has_issues&parts=issues')).body);
    expect(filtered.results.map((h) => h.id)).toEqual([hit.id]);
    expect(filtered.total).toBe(1);
    expect(filtered.results[0]!.issues?.length).toBe(3);
    // with a text and a pack filter too
    const packOf = (await t.server.catalogue.hit(hit.id))!.packs[0]!;
    const other = packOf === PACK_ONE ? PACK_TWO : PACK_ONE;
    const word = hit.title.split(' ')[1]!;
    const texted = HitSearchReplySchema.parse((await reader.request('GET', `/api/hits/search?filters=has_issues&query=${encodeURIComponent(`song ${word}`)}&packs=${packOf}`)).body);
    expect(texted.results.map((h) => h.id)).toEqual([hit.id]);
    const elsewhere = HitSearchReplySchema.parse((await reader.request('GET', `/api/hits/search?filters=has_issues&packs=${other}`)).body);
    expect(elsewhere.total).toBe(0);
    // without read_issues the filter is ignored and no issues are added
    const all = HitSearchReplySchema.parse((await guest.request('GET', '/api/hits/search?filters=has_issues&parts=issues&amount=5')).body);
    expect(all.total).toBe(hits.length);
    expect(all.results.every((h) => !('issues' in h))).toBe(true);
    // a reader's page of unreported hits gets empty lists
    const page = HitSearchReplySchema.parse((await reader.request('GET', '/api/hits/search?parts=issues&amount=3')).body);
    expect(page.results.map((h) => h.issues)).toEqual(page.results.map((h) => (h.id === hit.id ? expect.any(Array) : [])));
  });
});

describe('the review queue, accept and dismiss', () => {
  it('lists hits with open reports, the most reported first, then the newest report, each newest first', async () => {
    expectError(await guest.request('GET', '/api/reports'), 403, 'permission_denied');
    expectError(await reader.request('GET', '/api/reports'), 403, 'permission_denied');
    const late = await problem(await someone(), hits[5]!.id, { kind: 'other', message: 'newest single' });
    const r = await curator.request('GET', '/api/reports');
    expect(r.status).toBe(200);
    const q = ReviewQueueSchema.parse(r.body);
    expect(q.items.map((i) => i.hit.id)).toEqual([hits[3]!.id, hits[5]!.id]);
    expect(q.items[0]!.reports.map((i) => i.message)).toEqual(['fine', '', 'older']);
    expect(q.items[1]!.reports).toEqual([late]);
    expect(q.open).toBe(4);
    expect(q.items[0]!.hit).toMatchObject({ id: hits[3]!.id, title: hits[3]!.title, year: hits[3]!.year });
  });

  it('accept sets the year (history, search, the next deal) and closes the reports proposing it', async () => {
    const hit = hits[6]!;
    const proposed = hit.year === 1900 ? 1901 : 1900;
    const packs = (await t.server.catalogue.hit(hit.id))!.packs;
    // the deal of a game starting now, cached as games starting together share it
    const before = await t.server.catalogue.playableHits(packs, 'card');
    expect(before.find((h) => h.id === hit.id)?.year).toBe(hit.year);

    const a = await problem(await someone(), hit.id, { kind: 'wrong_year', year: proposed, message: 'first' });
    const b = await problem(await someone(), hit.id, { kind: 'wrong_year', year: proposed, message: 'same year' });
    const c = await problem(await someone(), hit.id, { kind: 'wrong_year', year: proposed + 1, message: 'another year' });
    const watcher = new SseReader(`${t.base}/api/events`, { cookie: reader.cookieHeader() });
    try {
      await watcher.until((e) => e.some((x) => x.event === 'process_hits'));
      expectError(await reader.request('POST', `/api/hits/${hit.id}/issues/${a.id}/accept`, {}), 403, 'permission_denied');
      expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${a.id}/accept`, { year: 0 }), 400, 'invalid_input');
      expect(await yearOf(hit.id)).toBe(hit.year);

      const r = await curator.request('POST', `/api/hits/${hit.id}/issues/${a.id}/accept`, { reason: 'the single came out then' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const accepted = HitIssueSchema.parse(r.body);
      expect(accepted).toMatchObject({ id: a.id, status: 'accepted', resolution: { by: 'Curator', reason: 'the single came out then' } });
      expect(await yearOf(hit.id)).toBe(proposed);

      const history = await historyOf(hit.id);
      expect(history.year).toBe(proposed);
      expect(history.changes.at(-1)).toMatchObject({ from: hit.year, to: proposed, by: 'Curator', reason: 'the single came out then' });
      const status = new Map(history.reports.map((i) => [i.id, i.status]));
      expect([status.get(a.id), status.get(b.id), status.get(c.id)]).toEqual(['accepted', 'accepted', 'open']);

      await watcher.until(() => events(watcher, 'delete_hit_issue').length === 2 && events(watcher, 'hits_changed').length > 0);
      expect(events(watcher, 'delete_hit_issue')).toEqual(expect.arrayContaining([{ hit_id: hit.id, issue_id: a.id }, { hit_id: hit.id, issue_id: b.id }]));

      // the search and the next game's deal have the new year
      const found = HitSearchReplySchema.parse((await anonymous.request('GET', `/api/hits/search?query=${encodeURIComponent(hit.title)}&sort_by=year`)).body);
      expect(found.results.find((h) => h.id === hit.id)?.year).toBe(proposed);
      const after = await t.server.catalogue.playableHits(packs, 'card');
      expect(after.find((h) => h.id === hit.id)?.year).toBe(proposed);

      // once only
      expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${a.id}/accept`, {}), 409, 'issue_closed');
      expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${b.id}/dismiss`, { reason: 'late' }), 409, 'issue_closed');
      expectError(await curator.request('POST', `/api/hits/${hits[7]!.id}/issues/${c.id}/accept`, {}), 404, 'issue_not_found');
    } finally {
      watcher.close();
    }
  });

  it('accepting a report without a year closes it and changes nothing; the default reason is "report accepted"', async () => {
    const hit = hits[8]!;
    const plain = await problem(await someone(), hit.id, { kind: 'wrong_song', message: 'a cover' });
    const r = await curator.request('POST', `/api/hits/${hit.id}/issues/${plain.id}/accept`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(HitIssueSchema.parse(r.body).status).toBe('accepted');
    expect(await yearOf(hit.id)).toBe(hit.year);
    expect((await historyOf(hit.id)).changes).toEqual([]);

    const year = await problem(await someone(), hit.id, { kind: 'wrong_year', year: hit.year + 1 });
    expect((await curator.request('POST', `/api/hits/${hit.id}/issues/${year.id}/accept`, {})).status).toBe(200);
    expect((await historyOf(hit.id)).changes).toEqual([{ at: expect.any(String), from: hit.year, to: hit.year + 1, by: 'Curator', reason: 'report accepted' }]);
  });

  it('dismiss needs a reason, keeps the year and the reason', async () => {
    const hit = hits[9]!;
    const d = await problem(await someone(), hit.id, { kind: 'wrong_year', year: 2001 });
    expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${d.id}/dismiss`, {}), 400, 'invalid_input');
    expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${d.id}/dismiss`, { reason: '' }), 400, 'invalid_input');
    expectError(await guest.request('POST', `/api/hits/${hit.id}/issues/${d.id}/dismiss`, { reason: 'no' }), 403, 'permission_denied');
    const r = await curator.request('POST', `/api/hits/${hit.id}/issues/${d.id}/dismiss`, { reason: 'the original is from then' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(HitIssueSchema.parse(r.body)).toMatchObject({ status: 'dismissed', resolution: { by: 'Curator', reason: 'the original is from then' } });
    expect(await yearOf(hit.id)).toBe(hit.year);
    const history = await historyOf(hit.id);
    expect(history.changes).toEqual([]);
    expect(history.reports[0]).toMatchObject({ id: d.id, status: 'dismissed', resolution: { reason: 'the original is from then' } });
    expectError(await curator.request('POST', `/api/hits/${hit.id}/issues/${d.id}/dismiss`, { reason: 'again' }), 409, 'issue_closed');
    // closed reports are no longer open: neither in the queue nor in parts=issues
    const q = ReviewQueueSchema.parse((await curator.request('GET', '/api/reports')).body);
    expect(q.items.some((i) => i.hit.id === hit.id)).toBe(false);
  });
});

describe('GET /api/hits/{id}/history', () => {
  it('records creation and year edits with the user, lists reports only for read_issues or write_hits', async () => {
    const made = await curator.request('POST', '/api/hits', { title: 'History Song', artist: 'Historians', year: 1970, packs: [PACK_ONE] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = FullHitPayloadSchema.parse(made.body).id;
    const body = { title: 'History Song', artist: 'Historians', year: 1971, packs: [PACK_ONE] };
    expect((await curator.request('PATCH', `/api/hits/${id}`, body)).status).toBe(200);
    // an edit that keeps the year adds nothing
    expect((await curator.request('PATCH', `/api/hits/${id}`, { ...body, title: 'History Song (Remaster)' })).status).toBe(200);
    await problem(await someone(), id, { kind: 'other', message: 'hello' });

    const full = await historyOf(id, reader);
    expect(full.changes).toEqual([
      { at: expect.any(String), from: null, to: 1970, by: 'Curator', reason: 'created' },
      { at: expect.any(String), from: 1970, to: 1971, by: 'Curator', reason: 'edited' },
    ]);
    expect(full.reports.map((r) => r.message)).toEqual(['hello']);
    const limited = await historyOf(id, anonymous);
    expect(limited.changes).toEqual(full.changes);
    expect(limited.reports).toEqual([]);
    expect((await historyOf(id, guest)).reports).toEqual([]);
    expectError(await anonymous.request('GET', '/api/hits/99999999-9999-4999-8999-999999999999/history'), 404, 'hit_not_found', 'hit id not found');
    expectError(await anonymous.request('GET', '/api/hits/nope/history'), 400, 'invalid_input');
  });
});
