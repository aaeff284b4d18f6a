/**
 * Party mode end to end (docs/product.md#screens "TV" and "Controller"): the TV
 * shows the game and plays the hits, every phone is a controller.
 *
 * * A TV (the creator's device, 1920×1080) and three phones (390×844, touch,
 *   English and German, light and dark) play a whole game in the `audio` clue
 *   mode: the phones open the address the TV's QR code decodes to (read from the
 *   screen's pixels), type a name and join; a fourth phone scans the same code
 *   and joins while the game is Open; the creator starts from the TV with
 *   Alt+Shift+S and plays his own turns from his device (REST, the TV being a
 *   viewer); the phones place, intercept, decline, confirm and claim on their
 *   controllers to the end. The TV asks for one key press, then requests the
 *   hidden clip and plays it; no phone ever requests a clip; a reload of the TV
 *   and of a phone mid-turn come back to the same turn; axe finds nothing
 *   serious on the TV and a controller, light and dark; the TV and every phone
 *   show the end.
 * * A keyboard-only host runs a game from the TV page (Alt+Shift shortcuts, Tab
 *   and Enter), with one phone played by keyboard too; the live regions of both
 *   say the turns, the placements and the reveals.
 *
 * Screenshots: test-results/e2e/party/.
 *
 *   npm run build && npm run e2e -- party
 */
import type { Locator, Page } from 'playwright-core';
import type { GamePayload, JoinAddress } from '../../shared/protocol/game.ts';
import {
  afterAll,
  assert,
  assertEqual,
  axeScan,
  eventually,
  formatAxe,
  giveHitsAudio,
  gotoReady,
  openBrowser,
  recordAnnouncements,
  runTests,
  said,
  screenshot,
  settle,
  startApp,
  t,
  test,
  type App,
  type Browser,
} from './harness.ts';
import { CLIP, howl, joinOnPhone, lockAudioUntilGesture, pickGap, press, pressUntilTaken, readQr, seat, setScheme, tabAndEnter, tabToTarget, table, tr, view, type Seat } from './devices.ts';

let app: App | undefined;
const getApp = async (): Promise<App> => (app ??= await startApp());
afterAll(async () => {
  await app?.stop();
});

const en = (key: string, vars: Record<string, string | number> = {}): string => t('en', key, vars);

const shot = async (page: Page, name: string): Promise<void> => {
  await settle(page);
  await screenshot(page, `party/${name}`);
};

/** The TV: the creator's browser at 1920×1080, sound locked until a gesture (as a real TV's browser), its live region and clip requests recorded. */
async function openTv(a: App): Promise<{ b: Browser; clips: string[] }> {
  const b = await openBrowser(a, { width: 1920, height: 1080 });
  await lockAudioUntilGesture(b);
  await recordAnnouncements(b.context);
  const clips: string[] = [];
  b.context.on('request', (r) => {
    if (CLIP.test(r.url())) clips.push(new URL(r.url()).pathname + new URL(r.url()).search);
  });
  return { b, clips };
}

async function gameOf(page: Page, id: string): Promise<GamePayload> {
  const r = await page.request.get(`/api/games/${id}`);
  assertEqual(r.status(), 200, `GET /api/games/${id}`);
  return (await r.json()) as GamePayload;
}

/** The settings of a short game: goal 3 with 6 tokens (two claims end it), short clips and reveals, confirmations that wait. */
const SHORT = { goal: '3', start_tokens: '6', hit_duration: '4', confirm_timeout: '600', reveal_time: '2' } as const;
/**
 * The party's game: goal 4, so nobody can reach it before the first phone's second turn
 * (one start card, at most one interception and one placement each in the first round),
 * and that phone claims there (after its own placement): every way of playing is met in
 * every run, whatever the seat order and the cards.
 */
const PARTY = { ...SHORT, goal: '4' } as const;

/** The controller's end: the ended dialog. */
const ended = (s: Seat): Locator => s.b.page.getByRole('dialog', { name: table(s, 'ended.title') });

/** axe on a page in its current state; problems collected. */
async function axe(page: Page, label: string, problems: string[]): Promise<void> {
  await settle(page);
  const found = await axeScan(page, label);
  if (found.length) problems.push(formatAxe(found));
}

/**
 * One move of a phone on its controller, if it has one: a claim (after a
 * placement of its own, while it can pay), a placement, an interception (once,
 * by `interceptor`) or a decline, a confirmation. Whether it acted.
 */
async function phoneMove(s: Seat, interceptor: Seat | null, counts: { intercepted: number; claimed: number; declined: number; confirmed: number }): Promise<boolean> {
  const page = s.b.page;
  if (await ended(s).count()) return false;
  const place = page.getByRole('button', { name: table(s, 'action.place'), exact: true });
  const decline = page.getByRole('button', { name: tr(s, 'game.guess.dont_intercept'), exact: true });
  const yes = page.getByRole('button', { name: tr(s, 'game.guess.yes'), exact: true });
  const claim = page.getByRole('button', { name: tr(s, 'game.hit.claim'), exact: true });
  if (await place.count()) {
    if (s.placed > 0 && (await claim.count()) && (await claim.isEnabled())) {
      await press(s, tr(s, 'game.hit.claim'));
      const ask = page.getByRole('alertdialog', { name: table(s, 'claim_dialog.title') });
      await ask.waitFor();
      if (s.keyboard) await tabAndEnter(page, table(s, 'claim_dialog.yes'), s.name);
      else await ask.getByRole('button', { name: table(s, 'claim_dialog.yes'), exact: true }).click();
      await ask.waitFor({ state: 'detached' });
      counts.claimed++;
    } else {
      await pickGap(s, 'first');
      await press(s, table(s, 'action.place'));
      s.placed++;
    }
    return true;
  }
  if (await decline.count()) {
    if (s === interceptor && counts.intercepted === 0 && (await page.locator('#turn-row [data-gap][data-choosable]').count())) {
      await pickGap(s, 'last');
      await press(s, table(s, 'action.intercept'));
      counts.intercepted++;
    } else {
      await press(s, tr(s, 'game.guess.dont_intercept'));
      counts.declined++;
    }
    return true;
  }
  if (await yes.count()) {
    await press(s, tr(s, 'game.guess.yes'));
    counts.confirmed++;
    return true;
  }
  return false;
}

test(
  'TV and phones play a whole game: QR code, late joiner, the TV alone plays the clip, reloads, axe, the end everywhere',
  async () => {
    const a = await getApp();
    await giveHitsAudio(a, 10);
    const problems: string[] = [];
    const tv = await openTv(a);
    const ana = await seat(a, 'Ana', { scheme: 'light' });
    const ben = await seat(a, 'Ben', { lang: 'de', scheme: 'dark' });
    const cleo = await seat(a, 'Cleo', { scheme: 'dark' });
    const dora = await seat(a, 'Dora', { lang: 'de', scheme: 'light' });
    const phones = [ana, ben, cleo, dora];
    try {
      // the creator's device creates a Public game with a short goal, then shows the TV view
      const page = tv.b.page;
      await gotoReady(page, '/');
      await page.getByRole('button', { name: en('lobby.create') }).click();
      await page.getByRole('menuitem', { name: new RegExp(en('lobby.create_Public')) }).click();
      await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
      const id = page.url().split('/').pop() as string;
      await page.getByRole('button', { name: en('game.settings_button') }).click();
      const settings = page.getByRole('dialog', { name: en('game.settings.title') });
      for (const [key, value] of Object.entries(PARTY)) await settings.getByLabel(en(`game.settings.${key}`)).fill(value);
      await settings.getByRole('button', { name: en('game.settings.save') }).click();
      await settings.waitFor({ state: 'detached' });
      await gotoReady(page, `/game/${id}/tv`);
      await page.getByTestId('tv-sound-prompt').waitFor();

      // the phones open what the QR code on the screen says: the controller at the address phones can reach
      const join = (await (await page.request.get('/api/join-address')).json()) as JoinAddress;
      const expected = `${new URL(join.public_url ?? join.lan[0] ?? a.base).origin}/game/${id}/play`;
      let scanned = '';
      await eventually(async () => {
        scanned = (await readQr(page)) ?? '';
        assertEqual(scanned, expected, 'the QR code');
      });
      // the test's browsers reach the server on the loopback: the scanned path, on the server's own origin
      const url = new URL(scanned).pathname;
      await joinOnPhone(ana, url, 'fox');
      await joinOnPhone(ben, url, 'panda');
      await joinOnPhone(cleo, url, 'frog');
      await eventually(async () => assert((await page.getByTestId('tv-screen').getByText('Cleo').count()) > 0, 'the TV shows Cleo'));
      // a late joiner scans the same code while the game is still Open
      assertEqual((await gameOf(page, id)).state, 'Open', 'still Open');
      await joinOnPhone(dora, url, 'rocket');
      await eventually(async () => assert((await page.getByTestId('tv-screen').getByText('Dora').count()) > 0, 'the TV shows Dora'));
      await shot(page, 'tv-open-qr');
      await shot(ben.b.page, 'phone-lobby-de-dark');

      // one key for the sound, then the creator's shortcut starts the game from the TV
      await page.keyboard.press('Shift');
      await page.getByTestId('tv-sound-prompt').waitFor({ state: 'detached' });
      await page.keyboard.press('Alt+Shift+S');
      let g: GamePayload | undefined;
      await eventually(async () => {
        g = await gameOf(page, id);
        assert(g.state !== 'Open', 'started from the TV');
      });
      assertEqual(g?.clue_mode, 'audio', 'clue mode');
      assertEqual(g?.players.length, 5, 'the creator and four phones are seated');
      const clip = `/api/games/${id}/hit?draw=${g?.draws}`;
      await eventually(async () => assert(tv.clips.includes(clip), `the TV requested ${clip}: ${JSON.stringify(tv.clips)}`));
      await eventually(async () => assert((await howl(page, clip))?.playing, 'the clip plays on the TV'));
      await shot(page, 'tv-turn');

      // axe on the TV (its dark stage and the light setting)
      await axe(page, 'party-tv-dark', problems);
      await setScheme(page, 'light');
      await axe(page, 'party-tv-light', problems);
      await setScheme(page, 'auto');

      const counts = { intercepted: 0, claimed: 0, declined: 0, confirmed: 0 };
      let tvReloaded = false;
      let phoneReloaded = false;
      let creatorMoves = 0;
      const me = g?.players.find((p) => p.creator)?.id;
      for (let round = 0; round < 300; round++) {
        if ((await ended(ana).count()) && (await ended(dora).count())) break;
        let acted = false;
        const now = await gameOf(page, id);
        if (now.state === 'Open') break;
        // the creator plays his seat from his device (the TV is a viewer): the first gap, never intercepting, always confirming
        const creator = now.players.find((p) => p.id === me);
        if (creator?.state === 'Guessing' || creator?.state === 'Intercepting' || creator?.state === 'Confirming') {
          const [path, body] =
            creator.state === 'Confirming' ? ['confirm', { confirm: true }] : ['guess', { id: creator.state === 'Guessing' ? (creator.slots[0]?.id ?? null) : null }];
          const r = await page.request.post(`/api/games/${id}/${path}`, { data: body });
          assert(r.ok() || r.status() === 409, `the creator's ${path}: ${r.status()} ${await r.text()}`);
          creatorMoves++;
          acted = true;
        }
        // a reload of the TV in the middle of a phone's turn: the same turn, and one key for the sound again
        const guessing = now.players.find((p) => p.turn_player && p.id !== me && p.state === 'Guessing');
        if (!tvReloaded && guessing) {
          tvReloaded = true;
          // (once the TV has this turn too: its room may be a moment behind the server's REST answer)
          const heading = t('en', 'headline.turn', { name: guessing.name }, 'people');
          await eventually(async () => assertEqual(await page.getByRole('heading', { level: 1 }).textContent(), heading, 'the TV heading before the reload'));
          await page.reload();
          await page.getByTestId('tv-screen').waitFor();
          await eventually(async () => assertEqual(await page.getByRole('heading', { level: 1 }).textContent(), heading, 'the TV heading after the reload'));
          await page.getByTestId('tv-sound-prompt').waitFor();
          await page.keyboard.press('Shift');
          await page.getByTestId('tv-sound-prompt').waitFor({ state: 'detached' });
        }
        for (const s of phones) {
          if (!phoneReloaded && s === cleo && (await view(s)) === 'guessing') {
            // a reload of a phone in its own turn: the same prompt, still its move
            phoneReloaded = true;
            const heading = await s.b.page.locator('#guess-heading').textContent();
            await shot(s.b.page, 'phone-turn-en-dark');
            await axe(s.b.page, 'party-controller-dark', problems);
            await s.b.page.emulateMedia({ colorScheme: 'light' });
            await axe(s.b.page, 'party-controller-light', problems);
            await s.b.page.emulateMedia({ colorScheme: 'dark' });
            await shot(page, 'tv-phone-turn');
            // a TV does not scroll: five players, the feed and the QR corner fit 1920×1080 mid-turn
            const fit = await page.evaluate(() => ({
              page: document.documentElement.scrollHeight,
              screen: window.innerHeight,
              side: [...(document.querySelector('[data-testid=tv-screen] aside')?.children ?? [])].map((c) => Math.round(c.getBoundingClientRect().height)),
            }));
            if (fit.page > fit.screen) problems.push(`the TV mid-turn is ${fit.page} px high on a ${fit.screen} px screen (side column: ${JSON.stringify(fit.side)})`);
            await s.b.page.reload();
            await s.b.page.getByTestId('controller').waitFor();
            await eventually(async () => assertEqual(await view(s), 'guessing', 'after the reload, still her move'));
            assertEqual(await s.b.page.locator('#guess-heading').textContent(), heading, 'the same prompt after the reload');
          }
          acted = (await phoneMove(s, ben, counts)) || acted;
        }
        if (!acted) await page.waitForTimeout(250);
      }
      // the end: the celebration on the TV, the ended dialog on every phone
      await page.getByRole('dialog', { name: t('en', 'ended.title', {}, 'table') }).waitFor();
      for (const s of phones) await ended(s).waitFor();
      await shot(page, 'tv-end');
      await shot(ben.b.page, 'phone-end-de-dark');
      await shot(ana.b.page, 'phone-end-en-light');

      assert(tvReloaded && phoneReloaded, `both reloads were made (TV ${tvReloaded}, phone ${phoneReloaded})`);
      assert(
        counts.intercepted > 0 && counts.declined > 0 && counts.claimed > 0 && creatorMoves > 0 && phones.some((s) => s.placed > 0),
        `every way was played: ${JSON.stringify({ ...counts, creatorMoves, placed: phones.map((s) => s.placed) })}`,
      );
      // the TV played every turn's clip; no phone ever asked for one
      assert(tv.clips.length > 1, `the TV requested each turn's clip: ${JSON.stringify(tv.clips)}`);
      for (const s of phones) assertEqual(s.clips, [], `${s.name}: no clip requested`);
      for (const b of [tv.b, ...phones.map((s) => s.b)]) assertEqual(b.pageErrors, [], 'page errors');
      assert(problems.length === 0, problems.join('\n'));
    } finally {
      for (const b of [tv.b, ...phones.map((s) => s.b)]) await b.close();
    }
  },
  { timeoutMs: 180_000 },
);

test(
  'a keyboard-only host runs a game from the TV page and one phone; both live regions say turns, placements and reveals',
  async () => {
    const a = await getApp();
    await giveHitsAudio(a, 10);
    const tv = await openTv(a);
    const ben = await seat(a, 'Ben', { keyboard: true, scheme: 'dark' });
    try {
      const page = tv.b.page;
      await gotoReady(page, '/');
      // Alt+Shift+U creates a Public game; Alt+Shift+E opens its settings, filled by Tab and typing
      await page.keyboard.press('Alt+Shift+U');
      await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
      const id = page.url().split('/').pop() as string;
      await page.getByRole('button', { name: en('game.settings_button') }).waitFor();
      await page.keyboard.press('Alt+Shift+E');
      const settings = page.getByRole('dialog', { name: en('game.settings.title') });
      await settings.waitFor();
      for (const [key, value] of Object.entries(SHORT)) {
        assert(await tabToTarget(page, settings.getByLabel(en(`game.settings.${key}`)), `the setting ${key}`), `the setting ${key} is there`);
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(value);
      }
      await tabAndEnter(page, en('game.settings.save'), 'host');
      await settings.waitFor({ state: 'detached' });
      await eventually(async () => assertEqual((await gameOf(page, id)).goal, 3, 'the goal was saved'));

      // "Show on TV" by Tab and Enter: the TV view in a new window
      const showOnTv = page.getByRole('link', { name: new RegExp(en('tv.show')) });
      assert(await tabToTarget(page, showOnTv, '"Show on TV"'), '"Show on TV" is there');
      const [screen] = await Promise.all([tv.b.context.waitForEvent('page'), page.keyboard.press('Enter')]);
      await screen.getByTestId('tv-screen').waitFor();
      await joinOnPhone(ben, `/game/${id}/play`, 'panda');
      await eventually(async () => assert((await screen.getByText('Ben').count()) > 0, 'the TV shows Ben'));

      await screen.keyboard.press('Shift');
      await screen.getByTestId('tv-sound-prompt').waitFor({ state: 'detached' });
      await screen.keyboard.press('Alt+Shift+S');
      await eventually(async () => assert((await gameOf(screen, id)).state !== 'Open', 'started from the TV'));

      const counts = { intercepted: 0, claimed: 0, declined: 0, confirmed: 0 };
      let hostMoves = 0;
      const hostName = (await gameOf(screen, id)).players.find((p) => p.creator)?.name ?? '';
      for (let round = 0; round < 200; round++) {
        const g = await gameOf(screen, id);
        if (g.state === 'Open') break;
        const host = g.players.find((p) => p.creator);
        let acted = false;
        // the host by the TV's keyboard: the shortcuts for placing and confirming, Tab and Enter to decline
        // (pressed again when the TV had not yet seen the turn the server already has: it says "not right now")
        const keys: Record<string, (() => Promise<void>) | undefined> = {
          Guessing: async () => {
            await screen.keyboard.press('Alt+Shift+ArrowDown');
            await screen.keyboard.press('Alt+Shift+Enter');
          },
          Intercepting: async () => {
            await screen.getByRole('button', { name: en('game.guess.dont_intercept'), exact: true }).waitFor();
            await tabAndEnter(screen, en('game.guess.dont_intercept'), 'the host on the TV');
          },
          Confirming: () => screen.keyboard.press('Alt+Shift+Y'),
        };
        const act = host && keys[host.state];
        if (act) {
          const before = JSON.stringify(g);
          const taken = await pressUntilTaken(act, async () => JSON.stringify(await gameOf(screen, id)) !== before);
          assert(taken, `the host's keys were taken (${host.state}): ${JSON.stringify((await said(screen)).slice(-6))}`);
          hostMoves++;
          acted = true;
        }
        acted = (await phoneMove(ben, null, counts)) || acted;
        if (!acted) await screen.waitForTimeout(250);
      }
      await screen.getByRole('dialog', { name: t('en', 'ended.title', {}, 'table') }).waitFor();
      await ended(ben).waitFor();
      assert(hostMoves > 0 && ben.placed > 0, `both played: host ${hostMoves}, Ben ${ben.placed}`);

      // the TV's live region said each turn, the placements and the reveals
      const tvSaid = await said(screen);
      const has = (list: string[], text: string): boolean => list.some((x) => x.includes(text));
      // (it names every player, its own user too: nobody at the table is "you" on a shared screen)
      for (const name of [hostName, 'Ben']) {
        const text = en('game.announce.turn_other', { name });
        assert(has(tvSaid, text), `the TV said "${text}": ${JSON.stringify(tvSaid)}`);
        const chose = en('notify.guessed', { name, slot: '@' }).split('@')[0] as string;
        assert(has(tvSaid, chose), `the TV said ${name}'s placement: ${JSON.stringify(tvSaid)}`);
      }
      assert(!has(tvSaid, en('game.announce.turn_you')), `the TV never says "your turn": ${JSON.stringify(tvSaid)}`);
      const revealed = en('notify.hit_revealed', { hit: '@' }).split('@')[0] as string;
      assert(has(tvSaid, revealed), `the TV said the reveal: ${JSON.stringify(tvSaid)}`);
      // the phone's: its turn prompt and the outcomes
      const benSaid = await said(ben.b.page);
      assert(has(benSaid, en('game.announce.turn_you')), `Ben's phone said his turn: ${JSON.stringify(benSaid)}`);
      assert(has(benSaid, revealed), `Ben's phone said the reveal: ${JSON.stringify(benSaid)}`);
      assertEqual(ben.clips, [], 'Ben: no clip requested');
      for (const b of [tv.b, ben.b]) assertEqual(b.pageErrors, [], 'page errors');
    } finally {
      for (const b of [tv.b, ben.b]) await b.close();
    }
  },
  { timeoutMs: 120_000 },
);

await runTests(import.meta.filename);
