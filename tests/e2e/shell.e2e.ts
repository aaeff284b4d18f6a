/**
 * The shell in a real browser against the real server: every screen and shell
 * dialog in both colour schemes, both languages, phone and desktop width
 * (screenshot + axe), the lobby by keyboard alone, the account forms, and the
 * lobby's live updates across two browsers; the sound cues decode in the browser.
 *
 *   npm run build && node tests/e2e/shell.e2e.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SURFACES } from '../../client/src/theme-design.ts';
import { User } from '../server/harness.ts';
import {
  afterAll,
  assert,
  assertEqual,
  axeScan,
  eventually,
  formatAxe,
  gotoReady,
  openBrowser,
  ROOT,
  runTests,
  screenshot,
  settle,
  startApp,
  t,
  test,
  type AxeProblem,
  type Lang,
  type Scheme,
} from './harness.ts';

const app = await startApp();
afterAll(() => app.stop());

// A public game by someone else, so the lobby shows its table rather than "no games yet".
const someone = await User.guest(app.base);
const seeded = await someone.request('POST', '/api/games', { mode: 'Public' });
assert(seeded.status === 201 || seeded.status === 200, `could not create the lobby's game: ${seeded.status} ${JSON.stringify(seeded.body)}`);

const GAME_PATH = /\/game\/([A-Za-z0-9_-]+)$/;

/** Opens an item of the main menu (the menu button keeps its aria-label on phones, where its text is hidden). */
async function openMenuItem(page: Page, lang: Lang, item: string): Promise<void> {
  await page.getByRole('button', { name: t(lang, 'nav.menu'), exact: true }).click();
  await page.getByRole('menuitem', { name: t(lang, item), exact: true }).click();
}

async function openDialog(page: Page, lang: Lang, item: string, title: string): Promise<void> {
  await gotoReady(page, '/');
  await openMenuItem(page, lang, item);
  await page.getByRole('dialog', { name: t(lang, title) }).waitFor();
  await settle(page);
}

interface Screen {
  name: string;
  open(page: Page, lang: Lang): Promise<void>;
  /** Leaves the screen as it found the app (a dialog closed again). */
  close?(page: Page): Promise<void>;
}

/** Escape closes a shell dialog (and closing the welcome dialog stores it as seen again). */
async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Every screen and shell dialog there is so far (the game screen is built elsewhere and gets its own tests). */
const SCREENS: readonly Screen[] = [
  { name: 'lobby', open: (page) => gotoReady(page, '/') },
  { name: 'login', open: (page) => gotoReady(page, '/login') },
  { name: 'register', open: (page) => gotoReady(page, '/register') },
  { name: 'changelog', open: (page) => gotoReady(page, '/changelog') },
  { name: 'shortcuts', open: (page) => gotoReady(page, '/shortcuts') },
  { name: 'how-to-play', open: (page) => gotoReady(page, '/how-to-play') },
  { name: 'error-page', open: (page) => gotoReady(page, '/no-such-page') },
  { name: 'welcome-dialog', open: (page, lang) => openDialog(page, lang, 'nav.welcome', 'welcome.title'), close: closeDialog },
  { name: 'settings-dialog', open: (page, lang) => openDialog(page, lang, 'nav.settings', 'settings.title'), close: closeDialog },
  { name: 'shortcuts-dialog', open: (page, lang) => openDialog(page, lang, 'nav.shortcuts', 'shortcuts.title'), close: closeDialog },
];
const WIDTHS = [1280, 375] as const;

for (const scheme of ['light', 'dark'] as const satisfies readonly Scheme[]) {
  for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
    test(
      `every screen in ${scheme}, ${lang}, ${WIDTHS.join(' and ')} px: screenshot and axe`,
      async () => {
        const { page } = await openBrowser(app, { locale: lang, colorScheme: scheme, width: WIDTHS[0] });
        const problems: AxeProblem[] = [];
        const other: string[] = [];
        for (const screen of SCREENS) {
          await page.setViewportSize({ width: WIDTHS[0], height: 800 });
          await screen.open(page, lang);
          // the app detected the browser's language and followed the system's scheme
          const doc = await page.evaluate(() => ({ lang: document.documentElement.lang, dark: document.documentElement.classList.contains('dark') }));
          if (doc.lang !== lang || doc.dark !== (scheme === 'dark')) other.push(`${screen.name}: <html lang="${doc.lang}"> dark=${doc.dark}`);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
            await settle(page);
            const label = `${screen.name}-${scheme}-${lang}-${width}`;
            await screenshot(page, `screens/${label}`);
            problems.push(...(await axeScan(page, label)));
            // spec: responsive down to phones, never a horizontal scroll bar
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            if (overflow > 0) other.push(`${label}: ${overflow} px of horizontal scrolling`);
          }
          await screen.close?.(page);
        }
        if (problems.length || other.length) throw new Error([formatAxe(problems), ...other].filter(Boolean).join('\n'));
      },
      { timeoutMs: 120_000 },
    );
  }
}

test('a first visit shows the welcome dialog; once closed it stays closed', async () => {
  const { page } = await openBrowser(app, { welcomeSeen: false });
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: t('en', 'welcome.title') });
  await dialog.waitFor();
  // the catalogue's counts arrive from the server
  await dialog.getByText(/\d+ hits in \d+ packs/).waitFor();
  await dialog.getByRole('button', { name: t('en', 'welcome.close') }).click();
  await dialog.waitFor({ state: 'detached' });
  await gotoReady(page, '/');
  assertEqual(await page.getByRole('dialog').count(), 0, 'dialogs after reload');
});

test('the static shell paints before the app, in the right scheme and language, and the app replaces it without a layout shift', async () => {
  const { page } = await openBrowser(app, { welcomeSeen: false, locale: 'de', colorScheme: 'dark', width: 412, height: 823 });
  // budget P10: the page itself asks for the app's scripts at low priority
  const served = await (await page.request.get('/')).text();
  assert(/<script fetchpriority="low" type="module"[^>]*src="\/assets\/app-/.test(served), 'the app script is served at low fetch priority');
  // layout shifts (CLS, as Lighthouse counts them: not after input) from the first paint on
  await page.addInitScript(() => {
    const w = window as unknown as { e2eShifts: number[] };
    w.e2eShifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.e2eShifts.push(e.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // hold the app's script back: what shows meanwhile is the page alone
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // (not domcontentloaded: that waits for module scripts, which are deferred)
  await page.goto('/', { waitUntil: 'commit' });
  const name = page.locator('.hl-splash-name');
  await name.waitFor();
  await page.getByText(t('de', 'app.loading'), { exact: true }).waitFor();
  assert(!(await page.getByText(t('en', 'app.loading'), { exact: true }).isVisible()), 'only the German label shows');
  const shell = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dark: document.documentElement.classList.contains('dark'),
    background: getComputedStyle(document.documentElement).backgroundColor,
  }));
  // the theme's dark stage (theme-design.ts), from theme.css, before any script
  const stage = SURFACES.bg.dark.match(/[0-9a-f]{2}/gi)?.map((h) => parseInt(h, 16)).join(', ');
  assertEqual(shell, { lang: 'de', dark: true, background: `rgb(${stage})` }, 'the shell before the app runs');
  await screenshot(page, 'flows/static-shell-dark-de');
  const problems = await axeScan(page, 'static-shell');
  if (problems.length) throw new Error(formatAxe(problems));

  release();
  await page.locator('main#main').waitFor();
  await page.getByRole('dialog', { name: t('de', 'welcome.title') }).waitFor();
  await settle(page);
  const after = await page.evaluate(() => ({
    shell: document.querySelectorAll('.hl-splash').length,
    mains: document.querySelectorAll('main, [role=main]').length,
    h1: document.querySelectorAll('h1').length,
    navs: document.querySelectorAll('nav').length,
    shifts: (window as unknown as { e2eShifts: number[] }).e2eShifts,
  }));
  assertEqual([after.shell, after.mains, after.h1, after.navs], [0, 1, 1, 1], 'shell gone; one main, one h1, one nav (shell, main, h1, nav)');
  const cls = after.shifts.reduce((a, b) => a + b, 0);
  assert(cls <= 0.1, `cumulative layout shift ${cls.toFixed(3)} (${after.shifts.map((s) => s.toFixed(3)).join(', ')}) over 0.1`);
});

/** The accessible name of the focused element, as a screen reader would announce it (roughly). */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '(body)';
    return (el.getAttribute('aria-label') ?? el.innerText ?? '').trim() || `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>`;
  });
}

test('the lobby with the keyboard only: tab order, the create menu, Alt+Shift+U', async () => {
  const { page } = await openBrowser(app);
  // Keys about as far apart as a fast typist's. (Escape within ~10 ms of an arrow
  // key loses the focus: the menu's deferred focus lands on the closed menu.)
  const press = async (key: string): Promise<void> => {
    await page.keyboard.press(key);
    await page.waitForTimeout(60);
  };
  await gotoReady(page, '/');
  const userLabel = await page.locator('header').getByRole('button', { name: /^Known as / }).getAttribute('aria-label');
  assert(userLabel, 'the user menu names the guest');

  const order: string[] = [];
  for (let i = 0; i < 7; i++) {
    await press('Tab');
    order.push(await focusedName(page));
  }
  const hits = [t('en', 'hit_status.finished'), t('en', 'hit_status.no_audio'), t('en', 'hit_status.unknown')];
  const preparing = new RegExp(`^${t('en', 'hit_status.preparing', { ready: 999_999, total: 999_999 }).replace(/999,999/g, '[\\d,]+')}$`);
  assert(hits.includes(order[2] ?? '') || preparing.test(order[2] ?? ''), `third stop is the hit status, got ${order[2]}`);
  assertEqual(
    [order[0], order[1], order[3], order[4], order[5]],
    [t('en', 'app.skip_to_content'), t('en', 'app.name'), t('en', 'nav.menu'), userLabel, t('en', 'lobby.create')],
    `tab order (${order.join(' → ')})`,
  );
  assert(order[6]?.startsWith('Game '), `after the create button come the games, got ${order[6]}`);

  // the skip link jumps to the content
  await gotoReady(page, '/');
  await press('Tab');
  await press('Enter');
  assertEqual(await page.evaluate(() => document.activeElement?.id), 'main', 'focus after the skip link');

  // Enter opens the create menu on its first item; arrows move; Escape closes it and returns focus
  const create = page.getByRole('button', { name: t('en', 'lobby.create') });
  await create.focus();
  await press('Enter');
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const highlighted = () => menu.locator('[role=menuitem][data-highlighted]').innerText();
  assert((await highlighted()).startsWith(t('en', 'lobby.create_Public')), `first item highlighted, got ${await highlighted()}`);
  await press('ArrowDown');
  assert((await highlighted()).startsWith(t('en', 'lobby.create_Private')), `ArrowDown moves to private, got ${await highlighted()}`);
  await press('Escape');
  await menu.waitFor({ state: 'hidden' });
  await eventually(async () => assertEqual(await focusedName(page), t('en', 'lobby.create'), 'focus after Escape'), 2_000);

  // Enter on an item creates that game
  await press('Enter');
  await menu.waitFor();
  await press('ArrowDown');
  await press('ArrowDown');
  await press('Enter');
  await page.waitForURL(GAME_PATH);
  const local = GAME_PATH.exec(new URL(page.url()).pathname)?.[1] ?? '';
  const localGame = await page.request.get(`/api/games/${local}`);
  assertEqual(((await localGame.json()) as { mode: string }).mode, 'Local', 'mode of the game made from the menu');

  // Alt+Shift+U from the lobby: a public game, and we are in it
  await gotoReady(page, '/');
  await page.keyboard.press('Alt+Shift+KeyU');
  await page.waitForURL(GAME_PATH);
  const id = GAME_PATH.exec(new URL(page.url()).pathname)?.[1] ?? '';
  assert(id !== local, 'a new game');
  const game = (await (await page.request.get(`/api/games/${id}`)).json()) as { mode: string };
  assertEqual(game.mode, 'Public', 'mode of the Alt+Shift+U game');
});

test('register, log out and log in through the forms', async () => {
  const { page } = await openBrowser(app);
  await gotoReady(page, '/');
  const header = page.locator('header');
  const userMenu = header.getByRole('button', { name: /^(Known as|Logged in as) / });

  await userMenu.click();
  await page.getByRole('menuitem', { name: t('en', 'user.register') }).click();
  await page.waitForURL('**/register');
  const username = page.getByRole('textbox', { name: t('en', 'auth.username') });
  assert((await username.inputValue()) !== '', 'the form starts with the guest name');

  const name = `e2e${Date.now().toString(36)}`;
  const password = 'correct horse battery';
  const submit = page.getByRole('button', { name: t('en', 'register.submit'), exact: true });
  await username.fill(name);
  await page.getByLabel(t('en', 'auth.password'), { exact: false }).first().fill(password);
  await page.getByLabel(t('en', 'register.repeat')).fill(`${password}!`);
  assert(await submit.isDisabled(), 'submit stays disabled while the passwords differ');
  await page.getByLabel(t('en', 'register.repeat')).fill(password);
  await submit.click();
  // on to the lobby, as after logging in, with the welcome said and shown
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByText(t('en', 'register.success', { name })).first().waitFor({ state: 'attached' });
  await header.getByRole('button', { name: t('en', 'user.logged_in_as', { name }) }).waitFor();

  // log out: back in the lobby as a (new) guest, told so politely
  await userMenu.click();
  await page.getByRole('menuitem', { name: t('en', 'user.logout') }).click();
  await header.getByRole('button', { name: /^Known as / }).waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByText(t('en', 'user.logged_out')).first().waitFor({ state: 'attached' });

  // log in: a wrong password is reported in the form's live region; the right one goes to the lobby
  await userMenu.click();
  await page.getByRole('menuitem', { name: t('en', 'user.login') }).click();
  await page.waitForURL('**/login');
  await page.getByRole('textbox', { name: t('en', 'auth.username') }).fill(name);
  const pw = page.getByLabel(t('en', 'auth.password'), { exact: false });
  await pw.fill('wrong password');
  const loginButton = page.getByRole('button', { name: t('en', 'login.submit'), exact: true }).last();
  await loginButton.click();
  // the form's own live region (the app-wide one in the shell is a status too)
  const status = page.locator('main').getByRole('status').filter({ hasText: /\S/ });
  await status.waitFor();
  assert((await status.innerText()).startsWith(t('en', 'auth.error', { message: '' }).trim()), `error text, got ${await status.innerText()}`);
  await pw.fill(password);
  await loginButton.click();
  await page.waitForURL((url) => url.pathname === '/');
  await header.getByRole('button', { name: t('en', 'user.logged_in_as', { name }) }).waitFor();
});

test('a second browser sees a new game appear in its lobby live', async () => {
  const watcher = await openBrowser(app);
  const creator = await openBrowser(app);
  await gotoReady(watcher.page, '/');
  // set on the page: still there afterwards means the list updated without a reload
  await watcher.page.evaluate(() => Object.assign(window, { e2eNoReload: true }));
  await gotoReady(creator.page, '/');
  await creator.page.keyboard.press('Alt+Shift+KeyU');
  await creator.page.waitForURL(GAME_PATH);
  const id = GAME_PATH.exec(new URL(creator.page.url()).pathname)?.[1] ?? '';
  await watcher.page.getByRole('link', { name: new RegExp(`^Game ${id},`) }).waitFor({ timeout: 10_000 });
  await eventually(async () => {
    assert(await watcher.page.evaluate(() => 'e2eNoReload' in window), 'the lobby page was not reloaded');
  });
  await screenshot(watcher.page, 'flows/lobby-live-update');
});

test('the sound cues are served as files and decode in the browser', async () => {
  // the build's manifest maps each cue to its hashed file name
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'client', '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const cues = Object.entries(manifest).filter(([src]) => /assets\/sfx\/[a-z_]+\.opus$/.test(src));
  assertEqual(cues.length, 16, "sound cue files in the build (the fifteen of docs/product.md#states and the countdown's tick)");
  const { page } = await openBrowser(app);
  await gotoReady(page, '/');
  const decoded = await page.evaluate(async (files) => {
    const ctx = new OfflineAudioContext(1, 48_000, 48_000);
    const out: { file: string; type: string; seconds: number }[] = [];
    for (const file of files) {
      const res = await fetch(`/${file}`);
      out.push({ file, type: res.headers.get('content-type') ?? '', seconds: (await ctx.decodeAudioData(await res.arrayBuffer())).duration });
    }
    return out;
  }, cues.map(([, c]) => c.file));
  for (const d of decoded) {
    assert(d.type.startsWith('audio/ogg'), `${d.file} is served as ${d.type}`);
    assert(d.seconds >= 0.1 && d.seconds <= 1.5, `${d.file} decodes to ${d.seconds} s`);
  }
});

await runTests(import.meta.filename);
