/**
 * The game screen as a table (issue 26, sections 1 and 4), end to end in
 * Debian's Chromium against the real server (demo catalogue: `card` clue mode):
 *
 * * two phones (390×844, one dark, one German) and a laptop (1366×800) play a
 *   whole Public game through the table only: a tap on a gap and "Place it
 *   here", the mystery card dragged into a gap with the mouse (laptop) and
 *   with a finger (touch events, on a phone), an interception by tap,
 *   "Don't intercept", yes on the confirmations, to the end;
 * * on the phones, whenever it is their move, the card, the turn player's row
 *   and the action are on the screen without scrolling (the action in the
 *   bottom bar), and no automatic scroll pushed the card off screen;
 * * every phase (open, guessing, chosen, intercepting, confirming, reveal,
 *   waiting, game over) is kept as a screenshot at both sizes:
 *   test-results/e2e/table/<phase>-<device>.png.
 *
 *   npm run build && node tests/e2e/table.e2e.ts
 */
import type { Page } from 'playwright-core';
import { User } from '../server/harness.ts';
import { afterAll, assert, eventually, gotoReady, joinByLink, openBrowser, runTests, screenshot, settle, startApp, t, test, type App, type Browser, type Lang } from './harness.ts';

let app: App | undefined;
const getApp = async (): Promise<App> => (app ??= await startApp());
afterAll(async () => {
  await app?.stop();
});

interface Seat {
  name: string;
  b: Browser;
  lang: Lang;
  phone: boolean;
  /** Phases already kept as a screenshot. */
  shot: Set<string>;
  /** Plays with the choices as a list (Settings). */
  asList?: boolean;
}

const tr = (s: Seat, key: string, vars: Record<string, string | number> = {}): string => t(s.lang, key, vars);
const table = (s: Seat, key: string): string => t(s.lang, key, {}, 'table');
const msg = (s: Seat, key: string): string => t(s.lang, key, {}, 'people');

async function shoot(s: Seat, phase: string): Promise<void> {
  if (s.shot.has(phase)) return;
  s.shot.add(phase);
  await settle(s.b.page);
  await s.b.page.waitForTimeout(200);
  // the first screen as the player sees it (not the full page): what is on it without scrolling
  await s.b.page.screenshot({ path: `test-results/e2e/table/${phase}-${s.name}.png` });
}

/**
 * On a phone, when the player has to act: the card, the turn player's row (its
 * first gap or card at least) and the action are all inside the first screen,
 * between the header and the bottom bar.
 */
async function firstScreenHasTheTable(s: Seat, what: string): Promise<void> {
  const page = s.b.page;
  await eventually(async () => {
    const box = await page.evaluate(() => {
      const rect = (el: Element | null) => (el ? el.getBoundingClientRect() : null);
      const header = rect(document.querySelector('header'));
      const bar = rect(document.querySelector('section[aria-labelledby="guess-heading"]'));
      const card = rect(document.querySelector('[data-testid="hit-card"]'));
      const row = rect(document.querySelector('#turn-row [data-row-item]'));
      const action = rect(document.querySelector('section[aria-labelledby="guess-heading"] button'));
      return { header: header?.bottom ?? 0, bar: bar?.top ?? innerHeight, card, row, action, height: innerHeight };
    });
    assert(box.card && box.card.top >= box.header - 1 && box.card.bottom <= box.bar + 1, `${s.name}, ${what}: the card is on the first screen (${JSON.stringify(box)})`);
    assert(box.row && box.row.top >= box.header - 1 && box.row.bottom <= box.bar + 1, `${s.name}, ${what}: the turn row is on the first screen (${JSON.stringify(box)})`);
    assert(box.action && box.action.bottom <= box.height + 1 && box.action.top >= box.bar - 1, `${s.name}, ${what}: the action is in the bottom bar (${JSON.stringify(box)})`);
  }, 5_000);
}

const center = (r: { x: number; y: number; width: number; height: number }) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

/** Drags the mystery card onto the turn row's first free gap with the mouse; returns the gap's slot id. */
async function mouseDrag(page: Page): Promise<string> {
  const card = await page.getByTestId('hit-card').boundingBox();
  assert(card, 'the card has a box');
  const from = center(card);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  // past the 5 px that start a drag; the free gaps then widen to take the card
  await page.mouse.move(from.x + 12, from.y + 12, { steps: 3 });
  const gap = page.locator('#turn-row [data-gap][data-choosable]').first();
  const id = (await gap.getAttribute('data-gap')) ?? '';
  await page.waitForTimeout(250);
  const box = await gap.boundingBox();
  assert(box, 'the gap has a box');
  const to = center(box);
  await page.mouse.move(to.x, to.y, { steps: 12 });
  // the gap grows under the card
  await eventually(async () => assert((await gap.evaluate((el) => el.getBoundingClientRect().width)) > 60, 'the hovered gap grows'), 2_000);
  await page.mouse.up();
  return id;
}

/** The same with a finger: touch events (a press, then a move), as a phone sends them. */
async function touchDrag(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const card = await page.getByTestId('hit-card').boundingBox();
  assert(card, 'the card has a box');
  const from = center(card);
  const gap = page.locator('#turn-row [data-gap][data-choosable]').last();
  const id = (await gap.getAttribute('data-gap')) ?? '';
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(x), y: Math.round(y) }] });
  await touch('touchStart', from.x, from.y);
  // a short press starts the drag (a swipe scrolls the page instead)
  await page.waitForTimeout(300);
  await touch('touchMove', from.x + 3, from.y + 3);
  await page.waitForTimeout(100);
  const box = await gap.boundingBox();
  assert(box, 'the gap has a box');
  const to = center(box);
  for (let i = 1; i <= 12; i++) {
    await touch('touchMove', from.x + ((to.x - from.x) * i) / 12, from.y + ((to.y - from.y) * i) / 12);
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(100);
  await touch('touchEnd');
  await cdp.detach();
  return id;
}

/**
 * The keyboard's way with the list visually hidden: Tab from the card's buttons
 * lands on the radio buttons (the gaps are no tab stops), the arrows move the
 * choice, the focused radio's gap shows the focus ring, Tab reaches "Place it here".
 */
async function keyboardChoice(page: Page): Promise<string> {
  await page.getByRole('button', { name: t('en', 'game.hit.skip') }).focus();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type === 'radio')) break;
  }
  const first = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? '');
  assert(/^\d+$/.test(first), `Tab reaches the first slot's radio button (focus on ${first})`);
  await page.locator(`#turn-row [data-gap="${first}"][data-focused]`).waitFor();
  await page.keyboard.press('ArrowDown');
  const slot = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? '');
  assert(slot !== first, 'the arrow moved to the next slot');
  // the gap shows the focus (the list itself is visually hidden) and the choice
  const gap = page.locator(`#turn-row [data-gap="${slot}"][data-focused][data-chosen]`);
  await gap.waitFor();
  const ring = await gap.locator('> div').last().evaluate((el) => getComputedStyle(el).outlineStyle);
  assert(ring === 'solid', `the focused gap shows a ring (outline ${ring})`);
  await page.screenshot({ path: 'test-results/e2e/table/keyboard-focus-laptop.png' });
  // the next Tab stop is the action (not another gap or radio)
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
  assert(focused === t('en', 'action.place', {}, 'table'), `after the radios, Tab reaches "Place it here" (focus on "${focused}")`);
  return slot;
}

test(
  'two phones and a laptop play a whole game on the table: taps, a mouse drag and a finger drag; the card stays on the first screen',
  async () => {
    const a = await getApp();
    const seats: Seat[] = [
      { name: 'laptop', b: await openBrowser(a, { width: 1366, height: 800 }), lang: 'en', phone: false, shot: new Set() },
      { name: 'phone-dark', b: await openBrowser(a, { width: 390, height: 844, colorScheme: 'dark' }), lang: 'en', phone: true, shot: new Set() },
      { name: 'phone-de', b: await openBrowser(a, { width: 390, height: 844, locale: 'de' }), lang: 'de', phone: true, shot: new Set() },
    ];
    const [laptop, ...phones] = seats as [Seat, Seat, Seat];
    const lp = laptop.b.page;

    // the laptop creates the game; the open table says it waits for more players
    await gotoReady(lp, '/');
    await lp.getByRole('button', { name: t('en', 'lobby.create') }).click();
    await lp.getByRole('menuitem', { name: new RegExp(t('en', 'lobby.create_Public')) }).click();
    await lp.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = lp.url().split('/').pop() as string;
    await lp.getByText(t('en', 'waiting.too_few', { count: 2 }, 'table')).waitFor();
    // the phones open the link: the table names whom it waits for
    // (a guest is asked what to call him: the first phone picks an emoji, the second keeps his initials)
    for (const s of phones) {
      const fox = phones.indexOf(s) === 0;
      await joinByLink(s.b.page, `/game/${id}`, { lang: s.lang, name: fox ? 'Ana' : 'Ben', ...(fox ? { emoji: msg(s, 'avatar.names.fox') } : {}) });
      // seated: the table counts him among those here
      const here = t(s.lang, 'waiting.players', { count: 2 + phones.indexOf(s) }, 'table');
      await eventually(async () => assert(((await s.b.page.getByTestId('open-table').textContent()) ?? '').includes(here), `${s.name}: the open table says "${here}"`));
    }
    // the German phone prefers the choices as a list (Settings, in the user menu)
    const de = phones[1];
    await de.b.page.getByRole('button', { name: tr(de, 'nav.menu') }).click();
    await de.b.page.getByRole('menuitem', { name: tr(de, 'nav.settings') }).click();
    const prefs = de.b.page.getByRole('dialog', { name: tr(de, 'settings.title') });
    await prefs.getByText(tr(de, 'settings.choices_as_list')).click();
    await eventually(async () => assert((await de.b.page.evaluate(() => localStorage.getItem('choicesAsList'))) === 'true', 'the setting is kept'));
    await prefs.getByRole('button', { name: tr(de, 'common.close') }).first().click();
    de.asList = true;
    await shoot(laptop, 'open');
    await shoot(phones[0], 'open');
    // goal 4: a short game, with turns enough for every way of placing; 10 tokens, so that once every
    // way was used the turn player claims cards and the game ends (placing at random can take 30 turns and more)
    await lp.getByRole('button', { name: t('en', 'game.settings_button') }).click();
    const settings = lp.getByRole('dialog', { name: t('en', 'game.settings.title') });
    await settings.getByLabel(t('en', 'game.settings.goal')).fill('4');
    await settings.getByLabel(t('en', 'game.settings.start_tokens')).fill('10');
    await settings.getByRole('button', { name: t('en', 'game.settings.save') }).click();
    await settings.waitFor({ state: 'detached' });
    await lp.getByRole('button', { name: t('en', 'game.start') }).click();

    const done = { tapped: false, mouseDragged: false, fingerDragged: false, keyboard: false, list: false, intercepted: false, declined: false, confirmed: 0, claimed: 0 };
    const watcher = await User.guest(a.base);
    const ended = (s: Seat) => s.b.page.getByRole('dialog', { name: tr(s, 'table:ended.title') });
    for (let round = 0; round < 300; round++) {
      const open = await Promise.all(seats.map(async (s) => (await ended(s).count()) === 0));
      if (!open.some(Boolean)) break;
      let acted = false;
      for (const s of seats) {
        if (!open[seats.indexOf(s)]) continue;
        const page = s.b.page;
        const place = page.getByRole('button', { name: table(s, 'action.place'), exact: true });
        const intercept = page.getByRole('button', { name: table(s, 'action.intercept'), exact: true });
        const yes = page.getByRole('button', { name: tr(s, 'game.guess.yes'), exact: true });
        const everyWay = done.tapped && done.mouseDragged && done.fingerDragged && done.keyboard && done.list && done.intercepted && done.declined && done.confirmed > 0;
        const claim = page.getByRole('button', { name: tr(s, 'game.hit.claim'), exact: true });
        if (everyWay && (await place.count()) && (await claim.count()) && (await claim.isEnabled())) {
          // the end: a card for 3 tokens, asked first
          await claim.click();
          const ask = page.getByRole('alertdialog', { name: table(s, 'claim_dialog.title') });
          await shoot(s, 'claim');
          await ask.getByRole('button', { name: table(s, 'claim_dialog.yes'), exact: true }).click();
          await ask.waitFor({ state: 'detached' });
          done.claimed++;
          acted = true;
        } else if (await place.count()) {
          if (s.phone && !s.asList) await firstScreenHasTheTable(s, 'guessing');
          await shoot(s, 'guessing');
          let slot: string;
          if (s.asList) {
            // the list the player asked for in Settings: the radio buttons, tapped
            const item = page.locator('[data-scope=radio-group][data-part=item]:not([data-disabled])').first();
            await item.click();
            slot = (await item.locator('input').getAttribute('value')) ?? '';
            done.list = true;
          } else if (!s.phone && done.mouseDragged && !done.keyboard) {
            slot = await keyboardChoice(page);
            done.keyboard = true;
          } else if (!s.phone && !done.mouseDragged) {
            slot = await mouseDrag(page);
            done.mouseDragged = true;
          } else if (s.phone && !done.fingerDragged) {
            slot = await touchDrag(page);
            done.fingerDragged = true;
          } else {
            const gap = page.locator('#turn-row [data-gap][data-choosable]').first();
            slot = (await gap.getAttribute('data-gap')) ?? '';
            await gap.click();
            done.tapped = true;
          }
          // the drop or the tap chose the gap: the gap and its radio button say so
          await page.locator(`#turn-row [data-gap="${slot}"][data-chosen]`).waitFor();
          assert(await page.locator(`section[aria-labelledby="guess-heading"] input[type=radio][value="${slot}"]`).isChecked(), 'the radio of the chosen gap is checked');
          await shoot(s, 'chosen');
          if (s.phone && !s.asList) await firstScreenHasTheTable(s, 'a gap chosen');
          await place.click();
          acted = true;
        } else if (await intercept.count()) {
          if (s.phone && !s.asList) await firstScreenHasTheTable(s, 'intercepting');
          await shoot(s, 'intercepting');
          // the turn player's gap shows his name
          assert((await page.locator('#turn-row [data-gap][data-taken]').count()) >= 1, 'the turn player\'s gap is marked');
          if (!done.intercepted && !s.asList) {
            await page.locator('#turn-row [data-gap][data-choosable]').last().click();
            await intercept.click();
            done.intercepted = true;
            done.tapped = true;
          } else {
            await page.getByRole('button', { name: tr(s, 'game.guess.dont_intercept'), exact: true }).click();
            done.declined = true;
          }
          acted = true;
        } else if (await yes.count()) {
          if (s.phone && !s.asList) await firstScreenHasTheTable(s, 'confirming');
          await shoot(s, 'confirming');
          await yes.click();
          done.confirmed++;
          // the card as revealed (held on the table for a moment)
          await page.waitForTimeout(300);
          await shoot(s, 'reveal');
          acted = true;
        } else {
          await shoot(s, 'waiting');
        }
        if (acted) break;
      }
      await lp.waitForTimeout(acted ? 350 : 200);
    }
    for (const s of seats) {
      await ended(s).waitFor({ timeout: 20_000 }).catch(async (err: unknown) => {
        const g = await watcher.request('GET', `/api/games/${id}`);
        throw new Error(`${s.name}: no end (${JSON.stringify(done)}; game ${JSON.stringify(g.body).slice(0, 400)}): ${String(err)}`);
      });
      await shoot(s, 'game-over');
    }
    assert(done.tapped && done.mouseDragged && done.fingerDragged && done.keyboard && done.list && done.intercepted && done.confirmed > 0, `every way of playing was used: ${JSON.stringify(done)}`);
    assert(done.declined, `someone declined: ${JSON.stringify(done)}`);
    assert(done.claimed > 0, `someone claimed a card: ${JSON.stringify(done)}`);
    await screenshot(lp, 'table/game-over-laptop-full');
  },
  { timeoutMs: 360_000 },
);

await runTests(import.meta.filename);
