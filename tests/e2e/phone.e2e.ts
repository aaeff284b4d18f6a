/**
 * The phone as a controller (/game/{id}/play), end to end in Debian's Chromium
 * against the real server, with audio for every hit (so the game plays in the
 * `audio` clue mode and there is a hidden clip a phone could fetch):
 *
 * * a host on the normal game screen (1366×800) and two phones (390×844, one
 *   English, one German) play a whole short game: the phones join by the name
 *   prompt, place by tapping a gap (one by keyboard only: focus, arrows, Space
 *   and Enter), intercept, decline, confirm and claim with the controller's
 *   buttons, to the end;
 * * the phones never request the hidden clip nor the revealed hit, and load no
 *   sound at all (the host's screen does fetch the clip: the check can fail);
 * * a reload of a phone in the middle of its turn comes back to the same move;
 * * a late joiner scanning while the game is Open joins (and leaves by the
 *   menu); once it runs, an unseated phone is told that it has started and can
 *   watch;
 * * every moment (name prompt, waiting, my turn with a gap picked,
 *   intercepting, the reveal's outcome, the end) as a screenshot in light and
 *   dark, English and German, with axe finding nothing serious, nothing
 *   sticking out sideways and 44 px targets:
 *   test-results/e2e/screens/phone-<moment>-<lang>-<scheme>.png.
 *
 *   npm run build && node tests/e2e/phone.e2e.ts
 */
import {
  afterAll,
  assert,
  assertEqual,
  axeScan,
  eventually,
  formatAxe,
  giveHitsAudio,
  gotoReady,
  runTests,
  said,
  screenshot,
  settle,
  sidewaysOverflow,
  smallTouchTargets,
  startApp,
  test,
  type App,
} from './harness.ts';
import { joinOnPhone, people, pickGap, press, seat, table, tr, view, type Seat } from './devices.ts';

let app: App | undefined;
const getApp = async (): Promise<App> => (app ??= await startApp());
afterAll(async () => {
  await app?.stop();
});

/**
 * One moment of the controller in light and dark: a screenshot each, axe,
 * nothing sticking out sideways, 44 px targets. Problems are collected.
 */
async function shoot(s: Seat, moment: string, problems: string[]): Promise<void> {
  if (s.shot.has(moment) || !s.phone) return;
  s.shot.add(moment);
  const page = s.b.page;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await settle(page);
    const label = `phone-${moment}-${s.lang}-${scheme}`;
    await screenshot(page, `screens/${label}`);
    const axe = await axeScan(page, label);
    if (axe.length) problems.push(formatAxe(axe));
    for (const o of await sidewaysOverflow(page)) problems.push(`${label}: ${o}`);
    if (scheme === 'light') for (const small of await smallTouchTargets(page)) problems.push(`${label}: touch target ${small}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test(
  'a host and two phones play a whole game; the phones stay silent, survive a reload, and a late joiner joins',
  async () => {
    const a = await getApp();
    await giveHitsAudio(a, 10);
    const host = await seat(a, 'Host', { phone: false });
    const ana = await seat(a, 'Ana');
    const ben = await seat(a, 'Ben', { lang: 'de', keyboard: true });
    // a first visit: the welcome tour must not stand in front of the name prompt
    const late = await seat(a, 'Cleo', { firstVisit: true });
    const seats = [host, ana, ben];
    const problems: string[] = [];
    try {
      // the host creates a Public game on the normal screen: goal 5, 10 tokens (claims end it in a bounded number of turns)
      const hp = host.b.page;
      await gotoReady(hp, '/');
      await hp.getByRole('button', { name: tr(host, 'lobby.create') }).click();
      await hp.getByRole('menuitem', { name: new RegExp(tr(host, 'lobby.create_Public')) }).click();
      await hp.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
      const id = hp.url().split('/').pop() as string;
      await hp.getByRole('button', { name: tr(host, 'game.settings_button') }).click();
      const settings = hp.getByRole('dialog', { name: tr(host, 'game.settings.title') });
      await settings.getByLabel(tr(host, 'game.settings.goal')).fill('5');
      await settings.getByLabel(tr(host, 'game.settings.start_tokens')).fill('10');
      await settings.getByLabel(tr(host, 'game.settings.hit_duration')).fill('3');
      await settings.getByRole('button', { name: tr(host, 'game.settings.save') }).click();
      await settings.waitFor({ state: 'detached' });

      await joinOnPhone(ana, `/game/${id}/play`, 'fox', () => shoot(ana, 'name-prompt', problems));
      await joinOnPhone(ben, `/game/${id}/play`, 'panda', () => shoot(ben, 'name-prompt', problems));
      // a late joiner scanning while the game is Open joins, and can leave again from the menu
      await joinOnPhone(late, `/game/${id}/play`, 'rocket', () => shoot(late, 'name-prompt', problems));
      await late.b.page.getByRole('button', { name: table(late, 'controller.menu') }).click();
      await late.b.page.getByRole('menuitem', { name: tr(late, 'game.leave') }).click();
      await late.b.page.getByRole('heading', { level: 1, name: people(late, 'join.title_guest') }).waitFor();
      await shoot(ana, 'lobby', problems);

      await hp.getByRole('button', { name: tr(host, 'game.start') }).click();
      // a silent phone's Alt+Shift+H says how to hear the hit here
      await ana.b.page.getByTestId('hit-card').waitFor();
      // (asked again until heard: the start's own announcements may talk over it)
      await eventually(async () => {
        await ana.b.page.keyboard.press('Alt+Shift+H');
        await ana.b.page.waitForTimeout(300);
        assert((await said(ana.b.page)).includes(table(ana, 'controller.listen_needed')), `Alt+Shift+H on a silent phone says how to listen: ${JSON.stringify((await said(ana.b.page)).slice(-4))}`);
      });
      // once it runs, an unseated phone is told so, and can watch
      await late.b.page.getByRole('heading', { level: 1, name: table(late, 'controller.started_title') }).waitFor();
      await late.b.page.getByRole('link', { name: table(late, 'controller.watch') }).waitFor();
      await shoot(late, 'started', problems);

      let reloaded = false;
      let intercepted = 0;
      let claimed = 0;
      const ended = (s: Seat) => s.b.page.getByRole('dialog', { name: table(s, 'ended.title') });
      for (let round = 0; round < 400; round++) {
        if ((await Promise.all(seats.map(async (s) => (await ended(s).count()) > 0))).every(Boolean)) break;
        let acted = false;
        for (const s of seats) {
          if (await ended(s).count()) continue;
          const page = s.b.page;
          const place = page.getByRole('button', { name: table(s, 'action.place'), exact: true });
          const decline = page.getByRole('button', { name: tr(s, 'game.guess.dont_intercept'), exact: true });
          const yes = page.getByRole('button', { name: tr(s, 'game.guess.yes'), exact: true });
          const claim = page.getByRole('button', { name: tr(s, 'game.hit.claim'), exact: true });
          if (s.phone && (await view(s)) === 'waiting') await shoot(s, 'waiting', problems);
          if (s.phone && (await page.getByTestId('outcome').count())) await shoot(s, 'outcome', problems);
          if (await place.count()) {
            if (s.placed > 0 && (await claim.count()) && (await claim.isEnabled())) {
              // after a placement of his own, each claims a card for 3 tokens (asked first)
              await claim.click();
              const ask = page.getByRole('alertdialog', { name: table(s, 'claim_dialog.title') });
              await ask.getByRole('button', { name: table(s, 'claim_dialog.yes'), exact: true }).click();
              await ask.waitFor({ state: 'detached' });
              claimed++;
            } else {
              await pickGap(s, 'first');
              if (s === ana && !reloaded) {
                // a reload in the middle of the turn comes back to the same move
                reloaded = true;
                const heading = await page.locator('#guess-heading').textContent();
                await page.reload();
                await page.getByTestId('controller').waitFor();
                await eventually(async () => assertEqual(await view(s), 'guessing', 'after the reload, still his move'));
                assertEqual(await page.locator('#guess-heading').textContent(), heading, 'the same prompt after the reload');
                await pickGap(s, 'first');
              }
              await shoot(s, 'my-turn', problems);
              await press(s, table(s, 'action.place'));
              s.placed++;
            }
            acted = true;
          } else if (await decline.count()) {
            await shoot(s, 'intercepting', problems);
            if (s === ana && intercepted === 0 && (await page.locator('#turn-row [data-gap][data-choosable]').count())) {
              await pickGap(s, 'last');
              await press(s, table(s, 'action.intercept'));
              intercepted++;
            } else await press(s, tr(s, 'game.guess.dont_intercept'));
            acted = true;
          } else if (await yes.count()) {
            await press(s, tr(s, 'game.guess.yes'));
            acted = true;
          }
        }
        if (!acted) await hp.waitForTimeout(300);
      }
      for (const s of seats) await ended(s).waitFor();
      for (const s of [ana, ben]) await shoot(s, 'end', problems);
      assert(claimed > 0 && ana.placed > 0 && ben.placed > 0 && intercepted > 0, `every way was played (claims ${claimed}, Ana ${ana.placed}, Ben ${ben.placed}, interceptions ${intercepted})`);

      // silent: the phones fetched no clip and loaded no sound; the host's screen did fetch the clip
      assert(host.clips.length > 0, 'the host screen fetched the hidden clip (the check sees such requests)');
      for (const s of [ana, ben, late]) {
        assertEqual(s.clips, [], `${s.name}: no clip requested`);
        assertEqual(await s.b.page.evaluate(() => typeof (window as unknown as { Howler?: unknown }).Howler), 'undefined', `${s.name}: no sound loaded`);
      }
      // the phones said each turn's prompt and outcome through the live region
      const anaSaid = await said(ana.b.page);
      assert(anaSaid.some((x) => x.length > 0), `Ana's live region spoke: ${JSON.stringify(anaSaid.slice(-5))}`);
      for (const s of [ana, ben, late]) assertEqual(s.b.pageErrors, [], `${s.name}: page errors`);
      assert(problems.length === 0, problems.join('\n'));
    } finally {
      for (const s of [...seats, late]) await s.b.close();
    }
  },
  { timeoutMs: 240_000 },
);

test(
  'a one-device game on phones: the join link lists the seats, a phone takes one or adds its own and plays it',
  async () => {
    const a = await getApp();
    await giveHitsAudio(a, 10);
    const host = await seat(a, 'Ana', { phone: false });
    const ben = await seat(a, 'Ben');
    const cleo = await seat(a, 'Cleo', { lang: 'de' });
    const phones = [ben, cleo];
    const problems: string[] = [];
    try {
      // the host creates a Local game on his screen, answers "Who is playing?" as Ana, and adds Ben (a name-only seat)
      const hp = host.b.page;
      await gotoReady(hp, '/');
      await hp.getByRole('button', { name: tr(host, 'lobby.create') }).click();
      await hp.getByRole('menuitem', { name: new RegExp(tr(host, 'lobby.create_Local')) }).click();
      await hp.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
      const id = hp.url().split('/').pop() as string;
      const who = hp.getByRole('dialog', { name: people(host, 'who.title') });
      await who.getByRole('textbox').fill('Ana');
      await who.getByRole('button', { name: people(host, 'who.next') }).click();
      const add = hp.getByRole('dialog', { name: tr(host, 'game.add_player.title') });
      await add.waitFor();
      await hp.keyboard.press('Escape');
      await add.waitFor({ state: 'detached' });
      assertEqual((await hp.request.patch(`/api/games/${id}/join/Ben`, { data: { avatar: '🐼' } })).status(), 200, 'Ben is seated');
      const reply = await hp.request.get(`/api/games/${id}/seat-key`);
      assertEqual(reply.status(), 200, 'the creator gets the seat key');
      const { key } = (await reply.json()) as { key: string };

      // Ben's phone: "Which one are you?" lists Ben; a tap plays his seat
      await ben.b.page.goto(`/game/${id}/play?key=${key}`);
      await ben.b.page.getByRole('heading', { level: 1, name: table(ben, 'controller.seats_title') }).waitFor();
      await shoot(ben, 'local-seats', problems);
      await ben.b.page.getByRole('button', { name: /Ben/ }).click();
      await ben.b.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
      // Cleo's phone: Ben's seat is marked as played on another phone; she adds her own
      await cleo.b.page.goto(`/game/${id}/play?key=${key}`);
      await cleo.b.page.getByRole('button', { name: `Ben ${table(cleo, 'controller.seat_elsewhere')}` }).waitFor();
      await shoot(cleo, 'local-seats', problems);
      await cleo.b.page.getByRole('button', { name: table(cleo, 'controller.seat_new') }).click();
      await cleo.b.page.getByRole('textbox').fill('Cleo');
      await cleo.b.page.getByRole('radio', { name: people(cleo, 'avatar.names.frog') }).check();
      await shoot(cleo, 'local-new-seat', problems);
      await cleo.b.page.getByRole('button', { name: people(cleo, 'join.submit') }).click();
      await cleo.b.page.getByRole('heading', { level: 1, name: 'Cleo' }).waitFor();
      await eventually(async () => assertEqual((await hp.getByText('Cleo').count()) > 0, true, 'the host screen shows Cleo'));

      await hp.getByRole('button', { name: tr(host, 'game.start') }).click();
      // the phones play their own seats; the host's screen plays Ana's and answers the confirmations
      const moves = new Map<Seat, number>(phones.map((p) => [p, 0]));
      for (let round = 0; round < 200 && [...moves.values()].some((n) => n === 0); round++) {
        let acted = false;
        for (const s of [host, ...phones]) {
          const page = s.b.page;
          const heading = ((await page.locator('#guess-heading').textContent({ timeout: 500 }).catch(() => '')) ?? '').trim();
          // on the host's screen only Ana's moves and the confirmations (the phones play their own seats)
          if (!s.phone && heading && !heading.startsWith('Ana') && !(await page.getByRole('button', { name: tr(s, 'game.guess.yes'), exact: true }).count())) continue;
          const place = page.getByRole('button', { name: table(s, 'action.place'), exact: true });
          const decline = page.getByRole('button', { name: tr(s, 'game.guess.dont_intercept'), exact: true });
          const yes = page.getByRole('button', { name: tr(s, 'game.guess.yes'), exact: true });
          if (await place.count()) {
            await pickGap(s, 'first');
            if (s.phone) await shoot(s, 'local-my-turn', problems);
            await place.click();
          } else if (await decline.count()) await decline.click();
          else if (await yes.count()) await yes.click();
          else continue;
          if (s.phone) moves.set(s, (moves.get(s) ?? 0) + 1);
          acted = true;
        }
        if (!acted) await hp.waitForTimeout(300);
      }
      for (const p of phones) assert((moves.get(p) ?? 0) > 0, `${p.name} played his seat on his phone`);

      for (const p of phones) assertEqual(p.clips, [], `${p.name}: no clip requested`);
      // on a bigger screen the controller keeps its column
      await ben.b.page.setViewportSize({ width: 1366, height: 800 });
      await settle(ben.b.page);
      await screenshot(ben.b.page, 'screens/phone-local-1366-en-light');
      await ben.b.page.setViewportSize({ width: 390, height: 844 });

      // "Listen on this phone": the hit is loaded and can be played here; the choice is remembered on the device
      const cp = cleo.b.page;
      await cp.getByRole('button', { name: table(cleo, 'controller.menu') }).click();
      await cp.getByRole('menuitemcheckbox', { name: table(cleo, 'controller.listen') }).click();
      await cp.getByRole('button', { name: new RegExp(`^(${tr(cleo, 'game.hit.play')}|${tr(cleo, 'game.hit.stop')})$`) }).waitFor();
      await eventually(async () => assert(cleo.clips.length > 0, 'the listening phone loads the hit'));
      await cp.reload();
      await cp.getByRole('heading', { level: 1, name: 'Cleo' }).waitFor();
      await cp.getByRole('button', { name: table(cleo, 'controller.menu') }).click();
      assertEqual(await cp.getByRole('menuitemcheckbox', { name: table(cleo, 'controller.listen') }).getAttribute('aria-checked'), 'true', 'listening is remembered');
      await cp.keyboard.press('Escape');

      // Ben gives his seat back: the phone asks again which one
      await ben.b.page.getByRole('button', { name: table(ben, 'controller.menu') }).click();
      await ben.b.page.getByRole('menuitem', { name: table(ben, 'controller.release') }).click();
      await ben.b.page.getByRole('heading', { level: 1, name: table(ben, 'controller.seats_title') }).waitFor();
      assertEqual(ben.clips, [], 'Ben: no clip requested');
      for (const p of phones) assertEqual(p.b.pageErrors, [], `${p.name}: page errors`);
      assert(problems.length === 0, problems.join('\n'));
    } finally {
      for (const s of [host, ...phones]) await s.b.close();
    }
  },
  { timeoutMs: 180_000 },
);

await runTests(import.meta.filename);
