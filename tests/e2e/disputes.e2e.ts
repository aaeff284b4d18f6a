/**
 * Year disputes end to end (docs/rules.md#disputes, docs/disputes.md): three
 * players in Debian's Chromium against the real server, with local stand-ins
 * of MusicBrainz and Wikidata as the outside sources.
 *
 * * Ana (laptop, English) creates a Public game of a pack of eighteen hits, Ben
 *   (phone, German) and Cem (phone, English, dark) join by link; the game
 *   starts and the turn player places the first card by tapping a gap.
 * * After the reveal a player who did not place disputes the year on his
 *   phone: the revealed card's "Wrong year?" opens the evidence (the
 *   catalogue's year, both sources' answers, the rule of thumb) with a year
 *   field; he proposes a year chosen so that the card must move (into the
 *   turn player's gap when the card was lost, out of it when it was won).
 * * Everybody sees the vote; Cem keeps the year, Ana takes the proposed one:
 *   two of three take it, the turn is re-judged, the card moves (the timelines
 *   over REST and the decision on every screen), the live regions say it.
 * * A curator opens the review queue, finds the dispute with its votes and
 *   evidence and accepts it; the hit's page shows the year change.
 * * The next game deals the corrected year: Ana and Ben sit at a new table
 *   dealt from a pack of four hits, the disputed one among them; it is a
 *   starting card, or the turn player skips until it is the mystery card,
 *   places it, and its reveal shows the new year.
 *
 * Screenshots: test-results/e2e/disputes/.
 *
 *   npm run build && npm run e2e -- disputes
 */
import type { Page } from 'playwright-core';
import type { GamePayload, PlayerPayload } from '../../shared/protocol/game.ts';
import { ALL_PERMISSIONS } from '../../server/services/users.ts';
import { musicBrainzStandIn, wikidataStandIn, type StandIn } from '../support/evidence-standins.ts';
import { User } from '../server/harness.ts';
import { afterAll, assert, assertEqual, eventually, expectAccessible, gotoReady, joinByLink, openBrowser, runTests, said, screenshot, settle, startApp, t, test, type Lang } from './harness.ts';
import { seat, table, type Seat } from './devices.ts';

const PASSWORD = 'correct horse battery';
const PACK = 'Dispute Pack';

/** Eighteen hits (three players × goal 3 × 2: every start deals them all), years apart; the sources date each two years earlier. */
const HITS = Array.from({ length: 18 }, (_, i) => ({ title: `Quarrel Song ${String.fromCharCode(65 + i)}`, artist: 'The Disputants', year: 1960 + i * 3 }));

const sources: StandIn[] = [];
const mb = await musicBrainzStandIn({
  recordings: HITS.map((h, i) => ({ id: `d0000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: h.title, artist: h.artist, 'first-release-date': `${h.year - 2}-05-01`, groups: [[]] })),
  releases: [],
});
const wd = await wikidataStandIn(HITS.map((h, i) => ({ id: `Q9${i}`, title: h.title, performer: h.artist, date: `${h.year - 2}-05-01T00:00:00Z`, precision: 11 })));
sources.push(mb, wd);
const app = await startApp({ EVIDENCE_SOURCES: 'musicbrainz,wikidata', MUSICBRAINZ_URL: mb.url, WIKIDATA_URL: wd.url, EVIDENCE_CONTACT: 'e2e@hitline.test' });
afterAll(async () => {
  await app.stop();
  for (const s of sources) await s.close();
});

const created = await app.server.users.createAccount('curator', PASSWORD, ALL_PERMISSIONS);
assert(created.ok, `could not create the curator: ${JSON.stringify(created)}`);

const shot = async (page: Page, name: string): Promise<void> => {
  await settle(page);
  await screenshot(page, `disputes/${name}`);
};

async function gameOf(page: Page, id: string): Promise<GamePayload> {
  const r = await page.request.get(`/api/games/${id}`);
  assertEqual(r.status(), 200, `GET /api/games/${id}`);
  return (await r.json()) as GamePayload;
}

async function until(page: Page, id: string, ok: (g: GamePayload) => boolean, what: string, ms = 15_000): Promise<GamePayload> {
  let g = await gameOf(page, id);
  const end = Date.now() + ms;
  while (!ok(g)) {
    assert(Date.now() < end, `${what}: ${JSON.stringify({ state: g.state, players: g.players.map((p) => [p.name, p.state]) })}`);
    await new Promise((r) => setTimeout(r, 150));
    g = await gameOf(page, id);
  }
  return g;
}

/** A year inside `slot` (the card is right there), or outside every slot guessed this turn (the card is lost). */
function yearFor(slot: { from_year: number; to_year: number }, inside: boolean, card: number): number {
  if (inside) {
    const y = slot.from_year > 0 ? slot.from_year : slot.to_year;
    return y === card ? (slot.to_year > 0 ? slot.to_year : slot.from_year + 1) : y;
  }
  // the card was right in the slot: a year just outside it
  return slot.from_year > 1 ? slot.from_year - 1 : slot.to_year + 1;
}

const lang = (s: Seat): Lang => s.lang;

test(
  'three players dispute a year, vote, the card moves; a curator accepts; the next game deals the corrected year',
  async () => {
    // the pack, as the curator makes it through the API
    const curator = new User(app.base);
    await curator.auth();
    assertEqual((await curator.request('POST', '/api/users/login', { username: 'curator', password: PASSWORD })).status, 200, 'the curator logs in');
    await curator.auth();
    const pack = await curator.request<{ id: string }>('POST', '/api/hits/packs', { name: PACK });
    assertEqual(pack.status, 200, 'the pack');
    const hitIds = new Map<string, string>();
    for (const h of HITS) {
      const r = await curator.request<{ id: string }>('POST', '/api/hits', { ...h, belongs_to: '', packs: [pack.body.id], yt_id: null, playback_offset: 0 });
      assertEqual(r.status, 200, `hit ${h.title}`);
      hitIds.set(h.title, r.body.id);
    }

    const ana = await seat(app, 'Ana', { phone: false });
    const ben = await seat(app, 'Ben', { lang: 'de' });
    const cem = await seat(app, 'Cem', { scheme: 'dark' });
    const seats = [ana, ben, cem];
    // each seat's user id, the key players are found by (Ana's guest name is made up)
    const ids = new Map<Seat, string>();
    for (const s of seats) {
      await gotoReady(s.b.page, '/');
      ids.set(s, ((await (await s.b.page.request.get('/api/users/me')).json()) as { id: string }).id);
    }
    const seatOf = (p: PlayerPayload): Seat => {
      const s = seats.find((x) => ids.get(x) === p.id);
      assert(s, `a browser for ${p.name}`);
      return s;
    };

    // Ana's Public game of the pack, goal 3, ten tokens each (the next game skips to the disputed hit)
    await gotoReady(ana.b.page, '/');
    const made = await ana.b.page.request.post('/api/games', { data: { mode: 'Public', settings: { packs: [pack.body.id], goal: 3, start_tokens: 10, reveal_time: 15 } } });
    assertEqual(made.status(), 201, 'the game');
    const id = ((await made.json()) as GamePayload).id;
    await gotoReady(ana.b.page, `/game/${id}`);
    await joinByLink(ben.b.page, `/game/${id}`, { lang: 'de', name: 'Ben' });
    await joinByLink(cem.b.page, `/game/${id}`, { name: 'Cem' });
    await ana.b.page.keyboard.press('Alt+Shift+S');
    let g = await until(ana.b.page, id, (x) => x.state === 'Guessing', 'the game starts');
    assertEqual(g.clue_mode, 'card', 'hits without audio: card clue mode');

    // the turn player taps the first gap and places; the others decline
    const turn = g.players.find((p) => p.turn_player) as PlayerPayload;
    const placer = seatOf(turn);
    const gap = placer.b.page.locator('#turn-row [data-gap][data-choosable]').first();
    await gap.click();
    await placer.b.page.getByRole('button', { name: table(placer, 'action.place'), exact: true }).click();
    g = await until(ana.b.page, id, (x) => x.state === 'Intercepting' || x.state === 'Confirming', 'the placement');
    for (const p of g.players.filter((q) => q.state === 'Intercepting')) {
      const s = seatOf(p);
      await s.b.page.getByRole('button', { name: t(lang(s), 'game.guess.dont_intercept'), exact: true }).click();
    }
    g = await until(ana.b.page, id, (x) => x.state === 'Confirming' && !!x.disputable, 'the reveal');
    const card = g.hit as NonNullable<GamePayload['hit']>;
    const won = g.last_scored?.id === turn.id;
    const slot = g.players.find((p) => p.id === turn.id)?.guess as NonNullable<PlayerPayload['guess']>;
    const proposed = yearFor(slot, !won, card.year);
    assert(proposed !== card.year, 'the proposed year differs');

    // a player who did not place disputes on his phone; the evidence shows both sources
    const disputer = seats.find((s) => s !== placer && s.b.page.viewportSize()!.width < 500) as Seat;
    const dp = disputer.b.page;
    await dp.getByRole('button', { name: table(disputer, 'dispute.button') }).first().click();
    const dialog = dp.getByRole('dialog', { name: table(disputer, 'dispute.title') });
    await dialog.waitFor();
    await eventually(async () => {
      const text = (await dialog.textContent()) ?? '';
      assert(text.includes('MusicBrainz') && text.includes('Wikidata'), `the evidence names both sources: ${text}`);
      assert(text.includes(String(card.year - 2)), `the sources' year shows: ${text}`);
    }, 15_000);
    await shot(dp, `dialog-${disputer.name}`);
    await expectAccessible(dp, 'the dispute dialog');
    const field = dialog.getByLabel(table(disputer, 'dispute.year'));
    assertEqual(await field.inputValue(), String(card.year - 2), 'the year field holds the sources\' year');
    await field.fill(String(proposed));
    await dialog.getByRole('button', { name: table(disputer, 'dispute.submit'), exact: true }).click();
    g = await until(ana.b.page, id, (x) => !!x.dispute && x.dispute.outcome === null, 'the dispute opens');

    // everybody sees the vote; Cem keeps, Ana takes: two of three
    for (const s of seats.filter((x) => x !== disputer)) await s.b.page.getByRole('button', { name: table(s, 'dispute.keep', { year: card.year }) }).first().waitFor();
    await shot(ana.b.page, 'vote-Ana');
    await shot(cem.b.page, 'vote-Cem');
    const keeper = seats.find((s) => s !== disputer && s !== ana) ?? cem;
    await keeper.b.page.getByRole('button', { name: table(keeper, 'dispute.keep', { year: card.year }) }).first().click();
    await until(ana.b.page, id, (x) => (x.dispute?.votes.length ?? 0) === 2, 'the keep vote');
    const taker = disputer === ana ? cem : ana;
    await taker.b.page.getByRole('button', { name: table(taker, 'dispute.take', { year: proposed }) }).first().click();
    g = await until(ana.b.page, id, (x) => x.dispute?.outcome === 'changed', 'the table takes the year');

    // the card moved: into the turn player's timeline when it was lost, out of it when it was won
    const owner = g.players.find((p) => p.id === turn.id) as PlayerPayload;
    const has = owner.hits.find((h) => h.id === card.id);
    if (won) assert(!has, `the card left ${turn.name}'s timeline`);
    else assert(has?.year === proposed, `the card is in ${turn.name}'s timeline with ${proposed}`);
    for (const s of seats) {
      await eventually(async () => {
        const heard = (await said(s.b.page)).join('\n');
        assert(heard.includes(String(proposed)), `${s.name} heard the decision: ${heard.slice(-400)}`);
      }, 10_000);
    }
    await shot(ana.b.page, 'decided-Ana');
    await shot(ben.b.page, 'decided-Ben');

    // the curator accepts the report in the review queue
    const cb = await openBrowser(app, { width: 1366, height: 800 });
    await cb.context.addCookies([...curator.cookies].map(([name, value]) => ({ name, value, url: app.base })));
    await gotoReady(cb.page, '/hits/reports');
    const hl = (key: string, vars: Record<string, string | number> = {}) => t('en', key, vars, 'hits');
    const item = cb.page.getByRole('listitem').filter({ hasText: card.title }).first();
    await item.waitFor();
    await shot(cb.page, 'queue');
    await expectAccessible(cb.page, 'the review queue');
    await item.getByRole('button', { name: hl('reports.queue.accept') }).first().click();
    const accept = cb.page.getByRole('dialog', { name: hl('reports.accept.title') });
    await accept.waitFor();
    assertEqual(await accept.getByLabel(hl('reports.accept.year')).inputValue(), String(proposed), 'the accept dialog holds the proposed year');
    await accept.getByRole('button', { name: hl('reports.accept.submit'), exact: true }).click();
    await accept.waitFor({ state: 'detached' });
    await eventually(async () => {
      const r = await curator.request<{ year: number }>('GET', `/api/hits/${card.id}`);
      assertEqual(r.body.year, proposed, 'the catalogue holds the corrected year');
    });
    await gotoReady(cb.page, `/hits/${card.id}`);
    await cb.page.getByText(String(proposed)).first().waitFor();
    await shot(cb.page, 'hit-history');
    await cb.close();

    // the next game: Ana and Ben sit at a new table dealt from a pack of four hits, the disputed one among them
    // (2 players × goal 1 × 2: all four are dealt); the turn player skips until it is the mystery card
    const rematch = await curator.request<{ id: string }>('POST', '/api/hits/packs', { name: 'Rematch Pack' });
    assertEqual(rematch.status, 200, 'the rematch pack');
    const four = [card.title, ...HITS.map((h) => h.title).filter((x) => x !== card.title).slice(0, 3)];
    for (const title of four) {
      const hid = hitIds.get(title) as string;
      const full = (await curator.request<Record<string, unknown> & { packs: string[] }>('GET', `/api/hits/${hid}`)).body;
      const r = await curator.request('PATCH', `/api/hits/${hid}`, { ...full, packs: [...full.packs, rematch.body.id] });
      assertEqual(r.status, 200, `${title} joins the rematch pack`);
    }
    const again = await ana.b.page.request.post('/api/games', { data: { mode: 'Public', settings: { packs: [rematch.body.id], goal: 1, start_tokens: 5 } } });
    assertEqual(again.status(), 201, 'the next game');
    const next = ((await again.json()) as GamePayload).id;
    await gotoReady(ana.b.page, `/game/${next}`);
    await joinByLink(ben.b.page, `/game/${next}`, { lang: 'de', name: 'Ben' });
    await ana.b.page.keyboard.press('Alt+Shift+S');
    g = await until(ana.b.page, next, (x) => x.state === 'Guessing', 'the next game runs');
    const dealt = g.players.flatMap((p) => p.hits).find((h) => h.id === card.id);
    if (dealt) {
      assertEqual(dealt.year, proposed, 'a starting card with the corrected year');
    } else {
      const ns = seatOf(g.players.find((p) => p.turn_player) as PlayerPayload);
      for (let i = 0; i < 3 && g.clue?.title !== card.title; i++) {
        assertEqual((await ns.b.page.request.post(`/api/games/${next}/skip`)).status(), 200, 'a skip');
        g = await gameOf(ana.b.page, next);
      }
      assertEqual(g.clue?.title, card.title, 'the disputed hit is the mystery card');
      await ns.b.page.locator('#turn-row [data-gap][data-choosable]').first().click();
      await ns.b.page.getByRole('button', { name: table(ns, 'action.place'), exact: true }).click();
      await until(ana.b.page, next, (x) => x.state !== 'Guessing', 'placed');
      for (const p of (await gameOf(ana.b.page, next)).players.filter((q) => q.state === 'Intercepting')) {
        await seatOf(p).b.page.request.post(`/api/games/${next}/guess`, { data: { id: null } });
      }
      g = await until(ana.b.page, next, (x) => x.hit?.id === card.id || x.standings !== null, 'the reveal of the disputed hit');
      assertEqual(g.hit?.year ?? g.standings?.flatMap((p) => p.hits).find((h) => h.id === card.id)?.year, proposed, 'the next game dealt the corrected year');
      await ns.b.page.getByText(String(proposed)).first().waitFor();
      await shot(ns.b.page, 'next-game-reveal');
    }
    for (const s of seats) await s.b.close();
  },
  { timeoutMs: 240_000 },
);

await runTests(import.meta.url);
