/**
 * The game screen end to end, through the UI only, against the real server
 * (in this process, with the demo catalogue: no audio, so games play in `card`
 * clue mode) in Debian's Chromium:
 *
 * * two browsers (two guests) play a whole Public game: create, join, settings,
 *   start, skip, claim, place, intercept, decline, confirm yes and no, to the
 *   game-ended dialog; screenshots at 375 and 1280 px, light and dark;
 * * a Local game with three players played with the keyboard only (Alt+Shift
 *   shortcuts, Tab, Return), checking what the live regions announce;
 * * a dropped socket mid-game: the screen says it reconnects, the seat stays,
 *   and the player goes on playing.
 *
 *   npm run build && node tests/e2e/game.e2e.ts     (exits non-zero on failure)
 *
 * Screenshots go to test-results/e2e/game-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, assert, assertEqual, eventually, expectAccessible, gotoReady, openBrowser, runTests, screenshot, settle, startApp, t, test, type App, type Browser } from './harness.ts';

const en = (key: string, vars: Record<string, string | number> = {}): string => t('en', key, vars);
const exact = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

let app: App | undefined;
const getApp = async (): Promise<App> => (app ??= await startApp());
afterAll(async () => {
  await app?.stop();
});

// ---------------------------------------------------------------------------
// helpers

/** Records every text the live regions receive (they keep only the last three), in `window.__said`. */
async function recordAnnouncements(b: Browser): Promise<void> {
  await b.context.addInitScript(() => {
    const w = window as unknown as { __said: string[] };
    w.__said = [];
    const watch = (): void => {
      const regions = document.querySelectorAll('[data-testid=live-polite], [data-testid=live-assertive]');
      if (regions.length < 2) {
        setTimeout(watch, 50);
        return;
      }
      const observer = new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n.textContent) w.__said.push(n.textContent);
      });
      regions.forEach((r) => observer.observe(r, { childList: true }));
    };
    watch();
  });
}

const said = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __said: string[] }).__said);

async function createGame(page: Page, mode: 'Public' | 'Local'): Promise<string> {
  await gotoReady(page, '/');
  await page.getByRole('button', { name: en('lobby.create') }).click();
  await page.getByRole('menuitem', { name: new RegExp(en(`lobby.create_${mode}`)) }).click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
  await page.getByRole('heading', { level: 1, name: /\(open\)$/ }).waitFor();
  return page.url().split('/').pop() as string;
}

const guessHeading = async (page: Page): Promise<string> => ((await page.locator('#guess-heading').textContent()) ?? '').trim();
const endDialog = (page: Page) => page.getByRole('dialog', { name: en('game.ended.title') });

/** Chooses a free slot (the first, or the last) with the mouse. */
async function chooseSlot(page: Page, which: 'first' | 'last'): Promise<string> {
  const free = page.locator('[data-scope=radio-group][data-part=item]:not([data-disabled])').filter({ hasNotText: en('game.guess.dont_intercept') });
  const item = which === 'first' ? free.first() : free.last();
  const text = ((await item.textContent()) ?? '').trim();
  await item.click();
  return text;
}

/** Every viewport and scheme of the brief, for the same moment of a page; axe finds nothing serious in either scheme. */
async function shots(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await screenshot(page, `game-${name}-${width}-${scheme}`);
      if (width === 1280) await expectAccessible(page, `game-${name}-${scheme}`);
      // the screen must never scroll sideways
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
    }
  }
  if (original) await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light' });
}

// ---------------------------------------------------------------------------

test(
  'two browsers play a public game to the end',
  async () => {
    const a = await openBrowser(await getApp(), { width: 1280 });
    const b = await openBrowser(await getApp(), { width: 375, colorScheme: 'dark' });
    await recordAnnouncements(a);
    await recordAnnouncements(b);
    const pa = a.page;
    const pb = b.page;

    // create (A), then B opens the link and joins
    const id = await createGame(pa, 'Public');
    await pa.getByRole('button', { name: en('game.not_enough_players') }).waitFor();
    await gotoReady(pb, `/game/${id}`);
    await pb.getByRole('button', { name: en('game.join') }).click();
    await pb.getByRole('button', { name: en('game.leave') }).waitFor();
    await eventually(async () => assertEqual(await pa.getByRole('table', { name: en('game.players.heading') }).locator('tbody tr').count(), 2, 'rows in A'));
    await eventually(async () => assert((await said(pa)).some((s) => / joined the game\.$/.test(s)), 'A hears that B joined'));
    // only the creator may start; B sees no start button
    assertEqual(await pb.getByRole('button', { name: en('game.start') }).count(), 0, 'start buttons for B');

    // settings (A): goal 4, 4 start tokens; the random picker, then every pack again with the tri-state box
    await pa.getByRole('button', { name: en('game.settings_button') }).click();
    const dialog = pa.getByRole('dialog', { name: en('game.settings.title') });
    await dialog.waitFor();
    await dialog.getByLabel(en('game.settings.goal')).fill('4');
    await dialog.getByLabel(en('game.settings.start_tokens')).fill('4');
    await dialog.getByRole('button', { name: en('game.settings.random') }).click();
    await eventually(async () => assertEqual(await dialog.locator('button[aria-pressed=true]').count(), 5, 'packs chosen at random'));
    const selectAll = dialog.locator('[data-scope=checkbox][data-part=root]').filter({ hasText: en('game.settings.all_packs') });
    assertEqual(await selectAll.getAttribute('data-state'), 'indeterminate', 'select-all with some packs');
    await selectAll.click();
    assertEqual(await selectAll.getAttribute('data-state'), 'checked', 'select-all after a click');
    await shots(pa, 'settings');
    await dialog.getByRole('button', { name: en('game.settings.save') }).click();
    await eventually(async () => assert(((await pb.getByText(/^Goal: 4 hits/).count()) ?? 0) > 0, 'B sees goal 4'));
    // B may look at the settings, not change them
    await pb.getByRole('button', { name: en('game.settings_button') }).click();
    await pb.getByRole('button', { name: en('game.settings.not_creator') }).waitFor();
    assert(await pb.getByRole('button', { name: en('game.settings.not_creator') }).isDisabled(), 'B cannot save');
    await pb.keyboard.press('Escape');
    await shots(pa, 'open');

    // start
    await pa.getByRole('button', { name: en('game.start') }).click();
    await eventually(async () => assert((await said(pb)).includes(en('notify.game_started')), 'B hears the start'));

    const done = { skipped: false, claimed: false, intercepted: false, declined: false, confirmedNo: false, shotGuess: false, shotIntercept: false, shotConfirm: false };
    const people = [pa, pb];
    for (let round = 0; round < 200; round++) {
      if ((await endDialog(pa).count()) && (await endDialog(pb).count())) break;
      let acted = false;
      for (const page of people) {
        if (await endDialog(page).count()) continue;
        const heading = await guessHeading(page);
        if (heading === en('game.guess.guessing_you')) {
          const skip = page.getByRole('button', { name: en('game.hit.skip') });
          const claim = page.getByRole('button', { name: en('game.hit.claim') });
          if (!done.skipped && (await skip.isEnabled())) {
            const before = await page.getByTestId('hit-card').textContent();
            await skip.click();
            await eventually(async () => assert((await page.getByTestId('hit-card').textContent()) !== before, 'a new card after the skip'));
            await eventually(async () => assert((await said(page)).some((s) => s.startsWith('You skipped ')), 'the skip is announced'));
            done.skipped = true;
          } else if (!done.claimed && done.intercepted && done.declined && done.confirmedNo && (await claim.isEnabled())) {
            // claimed last: a claimed card may end the game before the other actions were played
            await claim.click();
            await eventually(async () => assert((await said(page)).some((s) => s.startsWith('You claimed ')), 'the claim is announced'));
            done.claimed = true;
          } else {
            // nothing chosen: submit is disabled and says why
            const submit = page.getByRole('button', { name: en('game.guess.submit') });
            assert(await submit.isDisabled(), 'submit disabled without a slot');
            await page.getByText(en('game.guess.select_first')).waitFor();
            await chooseSlot(page, 'first');
            if (!done.shotGuess) {
              done.shotGuess = true;
              await shots(page, 'guessing');
            }
            await submit.click();
          }
          acted = true;
        } else if (heading.startsWith('Intercept ')) {
          if (!done.intercepted) {
            // the turn player's slot is taken and says by whom
            const taken = page.locator('[data-scope=radio-group][data-part=item][data-disabled]');
            assertEqual(await taken.count(), 1, 'taken slots while intercepting');
            assert(((await taken.textContent()) ?? '').includes('taken by'), 'a taken slot names its taker');
            if (!done.shotIntercept) {
              done.shotIntercept = true;
              await shots(page, 'intercepting');
            }
            await chooseSlot(page, 'last');
            done.intercepted = true;
          } else {
            await page.locator('[data-scope=radio-group][data-part=item]').filter({ hasText: en('game.guess.dont_intercept') }).click();
            done.declined = true;
          }
          await page.getByRole('button', { name: en('game.guess.submit') }).click();
          acted = true;
        } else if (await page.getByRole('button', { name: en('game.guess.yes'), exact: true }).count()) {
          if (!done.shotConfirm) {
            done.shotConfirm = true;
            await shots(page, 'confirming');
          }
          await page.getByRole('button', { name: done.confirmedNo ? en('game.guess.yes') : en('game.guess.no'), exact: true }).click();
          done.confirmedNo = true;
          acted = true;
        }
        if (acted) break;
      }
      // wait for the state to move on (or the game to end) before looking again
      await pa.waitForTimeout(acted ? 400 : 200);
    }

    for (const page of people) await endDialog(page).waitFor({ timeout: 15_000 });
    assert(done.skipped && done.claimed && done.intercepted && done.declined && done.confirmedNo, `every action was played: ${JSON.stringify(done)}`);
    const outcomes = await Promise.all(people.map((p) => p.getByTestId('end-outcome').textContent()));
    assert(outcomes.includes(en('game.ended.you')) && outcomes.some((o) => / wins!$/.test(o ?? '')), `one wins, the other sees the winner: ${JSON.stringify(outcomes)}`);
    assertEqual(await endDialog(pa).locator('tbody tr').count(), 2, 'rows in the final score table');
    for (const page of people) assert((await said(page)).some((s) => s.startsWith('Game over')), 'the end is announced');
    await shots(pa, 'ended');
    await shots(pb, 'ended-other');
  },
  { timeoutMs: 300_000 },
);

test(
  'a local game with three players, keyboard only',
  async () => {
    const a = await openBrowser(await getApp(), { width: 1280 });
    await recordAnnouncements(a);
    const page = a.page;
    const key = (k: string) => page.keyboard.press(`Alt+Shift+${k}`);

    await gotoReady(page, '/');
    await key('L');
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    await page.getByRole('heading', { level: 1, name: /\(open\)$/ }).waitFor();

    // Tab to "Add player", Return, type the name, Return
    const addPlayer = async (name: string): Promise<void> => {
      for (let i = 0; i < 60; i++) {
        const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
        if (focused === en('game.players.add')) break;
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: en('game.add_player.title') });
      await dialog.waitFor();
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => assert((await said(page)).includes(en('notify.joined', { name })), `${name} joined`));
    };
    await addPlayer('Ana');
    await addPlayer('Ben');

    // settings by keyboard: goal 3 in the first field, Return saves
    await key('E');
    const settings = page.getByRole('dialog', { name: en('game.settings.title') });
    await settings.waitFor();
    await eventually(async () => assert(await settings.getByLabel(en('game.settings.goal')).evaluate((el) => el === document.activeElement), 'goal has the focus'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await settings.waitFor({ state: 'detached' });
    await page.getByText(/^Goal: 3 hits/).waitFor();

    await key('S');
    await eventually(async () => assert((await said(page)).includes(en('notify.game_started')), 'the start is announced'));
    await eventually(async () => assert((await said(page)).some((s) => / turn\.$/.test(s)), 'whose turn it is is announced'));
    // Alt+Shift+1 speaks the first player's info
    await key('1');
    await eventually(async () => assert((await said(page)).some((s) => / tokens?, /.test(s) && s.endsWith('.')), 'player 1 is spoken'));
    await shots(page, 'local-guessing');

    let declines = 0;
    let confirms = 0;
    for (let round = 0; round < 200; round++) {
      if (await endDialog(page).count()) break;
      const heading = await guessHeading(page);
      if (/'s turn: where does the hit belong\?$/.test(heading)) {
        await key('ArrowDown');
        await eventually(async () => assert((await said(page)).some((s) => /^(before|after|between) /.test(s)), 'the slot is read'));
        await key('Enter');
      } else if (/: intercept .*'s guess\?/.test(heading)) {
        // from nothing, Up lands on the last entry: "don't intercept"
        await key('ArrowUp');
        await key('Enter');
        declines++;
      } else if (heading.startsWith('Did ')) {
        await key('Y');
        confirms++;
      }
      await page.waitForTimeout(300);
    }
    await endDialog(page).waitFor({ timeout: 15_000 });
    assert(declines > 0 && confirms > 0, `someone declined (${declines}) and confirmed (${confirms})`);
    const heard = await said(page);
    for (const expected of [/^The hit was /, / chose (before|after|between) /, /does not intercept\.$/, /^(Nobody scored\.|.* scored\.)$/, / received a token\.$/, /^Game over: .* wins\.$/]) {
      assert(heard.some((s) => expected.test(s)), `announced: ${expected} (heard ${JSON.stringify(heard.slice(-20))})`);
    }
    // local games have no "you": the end names the winner
    assert(/ wins!$/.test((await page.getByTestId('end-outcome').textContent()) ?? ''), 'the winner is named');
    await shots(page, 'local-ended');
    await page.keyboard.press('Escape');
    await endDialog(page).waitFor({ state: 'detached' });
    assert(await page.getByRole('button', { name: exact(en('game.show_results')) }).isVisible(), 'the last results stay reachable');
  },
  { timeoutMs: 300_000 },
);

test(
  'a dropped socket reconnects and the player keeps playing',
  async () => {
    const a = await openBrowser(await getApp(), { width: 1280 });
    const b = await openBrowser(await getApp(), { width: 375 });
    await recordAnnouncements(b);
    // keeps the page's WebSockets reachable, so the test can cut one
    await b.context.addInitScript(() => {
      const Native = window.WebSocket;
      const w = window as unknown as { __sockets: WebSocket[] };
      w.__sockets = [];
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          w.__sockets.push(this);
        }
      };
    });
    const id = await createGame(a.page, 'Public');
    await gotoReady(b.page, `/game/${id}`);
    await b.page.getByRole('button', { name: en('game.join') }).click();
    await a.page.getByRole('button', { name: en('game.start') }).click();
    await eventually(async () => assert((await said(b.page)).includes(en('notify.game_started')), 'B hears the start'));
    // the room must have been up a moment for the SDK to try a reconnection
    await b.page.waitForTimeout(2500);

    // 4010: "may try to reconnect", as a dropped connection looks to the SDK
    await b.page.evaluate(() => (window as unknown as { __sockets: WebSocket[] }).__sockets.filter((s) => s.readyState === 1).forEach((s) => s.close(4010)));
    await eventually(async () => assert((await said(b.page)).includes(en('game.reconnecting')), 'B is told it reconnects'));
    // (the live region keeps the words; the banner is in main)
    await eventually(async () => assertEqual(await b.page.locator('#main').getByText(en('game.reconnecting')).count(), 0, 'the reconnecting banner'), 15_000);
    // still seated, and the game goes on for B
    await b.page.getByRole('button', { name: en('game.leave') }).waitFor();
    for (let round = 0; round < 20; round++) {
      const [ha, hb] = [await guessHeading(a.page), await guessHeading(b.page)];
      if (hb === en('game.guess.guessing_you') || hb.startsWith('Intercept ')) {
        if (hb.startsWith('Intercept ')) await b.page.locator('[data-scope=radio-group][data-part=item]').filter({ hasText: en('game.guess.dont_intercept') }).click();
        else await chooseSlot(b.page, 'first');
        await b.page.getByRole('button', { name: en('game.guess.submit') }).click();
        // the server took it: B no longer has anything to submit
        await eventually(async () => assertEqual(await b.page.getByRole('button', { name: en('game.guess.submit') }).count(), 0, 'submit buttons after acting'));
        return;
      }
      if (ha === en('game.guess.guessing_you')) {
        await chooseSlot(a.page, 'first');
        await a.page.getByRole('button', { name: en('game.guess.submit') }).click();
      } else if (await a.page.getByRole('button', { name: en('game.guess.yes'), exact: true }).count()) {
        await a.page.getByRole('button', { name: en('game.guess.yes'), exact: true }).click();
      } else if (await b.page.getByRole('button', { name: en('game.guess.yes'), exact: true }).count()) {
        await b.page.getByRole('button', { name: en('game.guess.yes'), exact: true }).click();
        await eventually(async () => assert(!(await b.page.getByRole('button', { name: en('game.guess.yes'), exact: true }).count()), 'B confirmed'));
        return;
      }
      await a.page.waitForTimeout(400);
    }
    throw new Error('B never got to act after the reconnection');
  },
  { timeoutMs: 120_000 },
);

await runTests(import.meta.filename);
