/**
 * Honest words (issue 26 §6) in a real browser against the real server:
 *
 * * the welcome and the header say what is true of the demo catalogue (its hits
 *   counted once, played as cards while none has audio);
 * * a stale game link shows a friendly page with the way to the lobby (English
 *   and German), and a game deleted while open goes back to the lobby, saying so;
 * * on a touch screen the create menu shows no key hints (they keep their
 *   aria-keyshortcuts); on a phone the shortcuts table keeps its key column on screen;
 * * the import reads a corrected file picked again under the same name, and takes
 *   rows without an id as new hits.
 *
 *   npm run build && node tests/e2e/words.e2e.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ALL_PERMISSIONS } from '../../server/services/users.ts';
import { User } from '../server/harness.ts';
import { afterAll, assert, assertEqual, eventually, expectAccessible, gotoReady, openBrowser, runTests, screenshot, settle, startApp, t, test, type Lang } from './harness.ts';

const app = await startApp();
afterAll(() => app.stop());

const CURATOR = 'wordsmith';
const PASSWORD = 'correct horse battery';
const created = await app.server.users.createAccount(CURATOR, PASSWORD, ALL_PERMISSIONS);
assert(created.ok, `could not create the curator: ${JSON.stringify(created)}`);

const hl = (lang: Lang, key: string, vars: Record<string, string | number> = {}): string => t(lang, key, vars, 'hits');

async function logIn(page: Page): Promise<void> {
  await gotoReady(page, '/login');
  await page.getByLabel(t('en', 'auth.username')).fill(CURATOR);
  await page.getByLabel(t('en', 'auth.password'), { exact: false }).fill(PASSWORD);
  await page.getByRole('button', { name: t('en', 'login.submit'), exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: t('en', 'user.logged_in_as', { name: CURATOR }) }).waitFor();
}

test('words: the welcome and the header say what is true of the catalogue', async () => {
  const hits = Number((await app.server.db.selectFrom('hit_packs').select(({ fn }) => fn.count<number>('hit_id').distinct().as('n')).executeTakeFirstOrThrow()).n);
  // the demo catalogue's hits with a YouTube id: a DJ could play them (issue 27)
  const youtube = Number((await app.server.db.selectFrom('hits').innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id').where('hits.yt_id', 'is not', null).select(({ fn }) => fn.count<number>('hits.id').distinct().as('n')).executeTakeFirstOrThrow()).n);
  const links = Number((await app.server.db.selectFrom('hit_packs').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const packs = Number((await app.server.db.selectFrom('packs').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  assert(links > hits, `the demo catalogue has hits in several packs (${links} links, ${hits} hits)`);
  for (const lang of ['en', 'de'] as const) {
    const { page } = await openBrowser(app, { width: 390, height: 844, locale: lang, welcomeSeen: false });
    // not gotoReady: the welcome dialog may open before the page's heading is seen, and hides it (a modal)
    await page.goto('/');
    const welcome = page.getByRole('dialog', { name: t(lang, 'welcome.title') });
    const text = t(lang, 'welcome.catalogue_cards', { hits: t(lang, 'count.hits', { count: hits }), packs: t(lang, 'count.packs', { count: packs }) });
    await welcome.getByText(text).waitFor();
    await screenshot(page, `words-welcome-${lang}-390`);
    await welcome.getByRole('button', { name: t(lang, 'welcome.close') }).click();
    // no "ready" tick while no hit has audio
    const status = page.locator('header').getByRole('button', { name: t(lang, 'hit_status.no_audio') });
    await status.click();
    await page.getByRole('region', { name: t(lang, 'hit_status.no_audio') }).getByText(t(lang, 'hit_status.cards')).waitFor();
    assertEqual(await page.locator('header').getByRole('button', { name: t(lang, 'hit_status.finished') }).count(), 0, 'a "ready" button');
  }
}, { timeoutMs: 180_000 });

test('words: a stale game link says the game is over or never existed, with the way to the lobby', async () => {
  for (const lang of ['en', 'de'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await openBrowser(app, { width: 390, height: 844, locale: lang, colorScheme: scheme });
      await gotoReady(page, '/game/UNKNOWN1');
      await page.getByRole('heading', { level: 1, name: t(lang, 'game.gone_title') }).waitFor();
      await page.getByText(t(lang, 'game.gone_text')).waitFor();
      assertEqual(await page.getByText(t(lang, 'error_page.text')).count(), 0, 'the "unexpected error" text');
      assertEqual(await page.getByText(/404/).count(), 0, 'a 404');
      assert((await page.title()).startsWith(t(lang, 'game.gone_title')), `page title: ${await page.title()}`);
      await expectAccessible(page, `words-game-gone-${lang}-${scheme}`);
      await screenshot(page, `words-game-gone-${lang}-390-${scheme}`);
      await page.getByRole('link', { name: t(lang, 'error_page.back') }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { level: 1, name: t(lang, 'lobby.title') }).waitFor();
    }
  }
}, { timeoutMs: 180_000 });

test('words: a game deleted while it is open goes back to the lobby and says so', async () => {
  const creator = await User.guest(app.base);
  const made = await creator.request('POST', '/api/games', { mode: 'Public' });
  assertEqual(made.status, 201, 'game created');
  const id = (made.body as { id: string }).id;
  const { page } = await openBrowser(app, { width: 390, height: 844 });
  // a guest who opens the link is asked what to call him; the game goes away meanwhile
  await page.goto(`/game/${id}`);
  await page.getByRole('dialog', { name: t('en', 'join.title_guest', {}, 'people') }).waitFor();
  // the only player leaves: the game is deleted
  assertEqual((await creator.request('PATCH', `/api/games/${id}/leave`)).status, 200, 'leave');
  await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
  await page.getByText(t('en', 'game.gone')).first().waitFor({ state: 'attached' });
  // and its link, opened again, is a stale one
  await gotoReady(page, `/game/${id}`);
  await page.getByRole('heading', { level: 1, name: t('en', 'game.gone_title') }).waitFor();
}, { timeoutMs: 180_000 });

test('words: no key hints on a touch screen; the shortcuts table keeps its keys on a phone', async () => {
  const hint = (page: Page) => page.getByRole('menuitem', { name: new RegExp(t('en', 'lobby.create_Public')) });
  for (const touch of [false, true]) {
    const { page } = await openBrowser(app, { width: 390, height: 844, touch });
    await gotoReady(page, '/');
    await page.getByRole('button', { name: t('en', 'lobby.create') }).click();
    await hint(page).waitFor();
    assertEqual(await hint(page).getAttribute('aria-keyshortcuts'), 'Alt+Shift+U', `aria-keyshortcuts (touch: ${touch})`);
    const text = (await hint(page).innerText()).trim();
    assertEqual(text, touch ? t('en', 'lobby.create_Public') : `${t('en', 'lobby.create_Public')}\nAlt+Shift+U`, `the menu item's text (touch: ${touch})`);
    await screenshot(page, `words-create-menu-${touch ? 'touch' : 'mouse'}-390`);
  }
  {
    // the hint names the keys as the keyboard does; ARIA keeps its own names
    const { page } = await openBrowser(app, { width: 1366, height: 800, locale: 'de' });
    await gotoReady(page, '/');
    await page.getByRole('button', { name: t('de', 'lobby.create') }).click();
    const item = page.getByRole('menuitem', { name: new RegExp(t('de', 'lobby.create_Public')) });
    assertEqual((await item.innerText()).trim(), `${t('de', 'lobby.create_Public')}\nAlt+Umschalt+U`, 'the German hint');
    assertEqual(await item.getAttribute('aria-keyshortcuts'), 'Alt+Shift+U', 'aria-keyshortcuts in German');
  }
  for (const lang of ['en', 'de'] as const) {
    for (const width of [360, 390]) {
      const { page } = await openBrowser(app, { width, height: 844, locale: lang, touch: true });
      await gotoReady(page, '/shortcuts');
      await settle(page);
      const table = page.getByRole('table');
      // nothing scrolls away sideways: every key cap is on screen
      const overflow = await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
      assertEqual(overflow, 0, `sideways overflow of the table (${lang}, ${width} px)`);
      for (const cap of await table.locator('tbody kbd').all()) {
        if (!(await cap.isVisible())) continue;
        const box = await cap.boundingBox();
        assert(box && box.x >= 0 && box.x + box.width <= width, `key ${await cap.innerText()} is on screen (${lang}, ${width} px): ${JSON.stringify(box)}`);
      }
      // screen readers hear the whole combination
      const first = table.locator('tbody tr').first().locator('td').last();
      assertEqual((await first.textContent())?.replace(/\s+/g, ''), `Alt+${t(lang, 'shortcuts.key_names.Shift')}+E`, `the first row's keys (${lang})`);
      await expectAccessible(page, `words-shortcuts-${lang}-${width}`);
      await screenshot(page, `words-shortcuts-${lang}-${width}`);
    }
  }
}, { timeoutMs: 180_000 });

test('words: the import reads a file picked again under its name, and takes rows without an id as new hits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-e2e-words-'));
  try {
    const pack = (await app.server.db.selectFrom('packs').select(['id', 'name']).orderBy('name').executeTakeFirstOrThrow()) as { id: string; name: string };
    const file = join(dir, 'hits.yml');
    const write = (year: number): void =>
      writeFileSync(file, `hits:\n- artist: Wordsmith\n  title: Curated By Hand\n  belongs_to: ''\n  year: ${year}\n  packs:\n  - ${pack.id}\n  playback_offset: 0\npacks:\n- id: ${pack.id}\n  name: '${pack.name.replaceAll("'", "''")}'\n`);
    const { page } = await openBrowser(app, { width: 1366, height: 800 });
    await logIn(page);
    await gotoReady(page, '/hits');
    await page.getByRole('button', { name: hl('en', 'import.button') }).click();
    const dialog = page.getByRole('dialog', { name: hl('en', 'import.title') });
    const pick = async (): Promise<void> => {
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByLabel(hl('en', 'import.file')).click();
      await (await chooser).setFiles(file);
    };
    // a year to come: rejected with the reason
    write(2099);
    await pick();
    await dialog.getByText(hl('en', 'import.not_ok')).waitFor();
    await dialog.getByText(/year must be a whole number from 1 to \d{4} \(the current year\), not 2099/).waitFor();
    // corrected in the same file: picked again, it is read again; no id is needed for a new hit
    write(1999);
    await pick();
    await dialog.getByText(hl('en', 'import.ready', { count: 1, changed: 0 })).waitFor();
    await dialog.getByText(hl('en', 'import.hit', { artist: 'Wordsmith', title: 'Curated By Hand', year: 1999 })).waitFor();
    await dialog.getByRole('button', { name: hl('en', 'import.apply') }).click();
    await dialog.getByText(hl('en', 'import.applied', { count: 1, changed: 0 })).first().waitFor();
    await eventually(async () => {
      const rows = await app.server.db.selectFrom('hits').select(['id', 'year']).where('title', '=', 'Curated By Hand').execute();
      assertEqual(rows.map((r) => r.year), [1999], 'the imported hit');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, { timeoutMs: 180_000 });

test('words: the game settings count the hits that can be played with audio; an automatic game without them starts with cards', async () => {
  const hits = Number((await app.server.db.selectFrom('hit_packs').select(({ fn }) => fn.count<number>('hit_id').distinct().as('n')).executeTakeFirstOrThrow()).n);
  // the demo catalogue's hits with a YouTube id: a DJ could play them (issue 27)
  const youtube = Number((await app.server.db.selectFrom('hits').innerJoin('hit_packs', 'hit_packs.hit_id', 'hits.id').where('hits.yt_id', 'is not', null).select(({ fn }) => fn.count<number>('hits.id').distinct().as('n')).executeTakeFirstOrThrow()).n);
  for (const lang of ['en', 'de'] as const) {
    const { page } = await openBrowser(app, { width: 390, height: 844, locale: lang });
    await gotoReady(page, '/');
    await page.getByRole('button', { name: t(lang, 'lobby.create') }).click();
    await page.getByRole('menuitem', { name: new RegExp(t(lang, 'lobby.create_Public')) }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = page.url().split('/').pop() as string;
    const other = await User.guest(app.base);
    assertEqual((await other.request('PATCH', `/api/games/${id}/join`)).status, 200, 'the other player joins');
    await page.getByText(t(lang, 'game.summary_auto', { count: 20 }), { exact: false }).waitFor();
    await page.getByRole('button', { name: t(lang, 'game.settings_button') }).first().click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'game.settings.title') });
    const auto = dialog.getByRole('radio', { name: t(lang, 'game.settings.clue_auto') });
    assert(await auto.isChecked(), 'automatic is the choice of a new game');
    const count = dialog.getByTestId('playable-count');
    const expected = [
      t(lang, 'game.settings.playable', { audio: 0, hits }),
      t(lang, 'table:dj.settings.youtube', { youtube }),
      t(lang, 'game.settings.playable_short_auto', { players: 2, goal: 10, needed: 40 }),
      // enough videos: a DJ would bring music instead of cards
      t(lang, 'table:dj.settings.hint'),
    ].join(' ');
    await eventually(async () => assertEqual((await count.textContent())?.replace(/\u00a0/g, ' '), expected, 'the count'));
    await count.scrollIntoViewIfNeeded();
    await expectAccessible(page, `words-game-settings-${lang}`);
    await screenshot(page, `words-game-settings-${lang}-390`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: t(lang, 'game.start') }).click();
    await page.getByText(t(lang, 'game.summary_card'), { exact: false }).waitFor();
    assertEqual(((await other.request('GET', `/api/games/${id}`)).body as { clue_mode: string }).clue_mode, 'card', 'the clue mode the start decided');
  }
}, { timeoutMs: 180_000 });

await runTests(import.meta.filename);
