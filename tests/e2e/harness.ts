/**
 * End-to-end harness: the real server (in this process, on a free port, with a
 * temporary SQLite database and audio folder, serving the built client from
 * dist/client) driven through Debian's Chromium with playwright-core.
 *
 * It builds nothing: run `npm run build` first (npm test does, in an earlier
 * stage). Each browser is a persistent context with its own fresh user-data
 * folder, which is one person: own cookies (own guest session), own
 * localStorage. Screenshots and axe reports go to test-results/e2e/ (ignored
 * by git).
 *
 * A test file registers tests with `test()` and ends with `await runTests()`;
 * it can be run on its own (`node tests/e2e/shell.e2e.ts`, E2E_GREP=words to
 * pick tests). tests/e2e/run.ts runs every file in turn.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Result as AxeResult } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { CHROMIUM_PATH } from './ensure-chromium.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const RESULTS_DIR = join(ROOT, 'test-results', 'e2e');
const CLIENT_DIR = join(ROOT, 'dist', 'client');

// ---------------------------------------------------------------------------
// the server

export interface App {
  /** http://127.0.0.1:<port> */
  base: string;
  server: RunningServer;
  stop(): Promise<void>;
}

/** Boots Hitline with the demo catalogue, a throw-away database and audio folder, and the built client. */
export async function startApp(env: Record<string, string> = {}): Promise<App> {
  if (!existsSync(join(CLIENT_DIR, 'index.html'))) throw new Error(`No client build in ${CLIENT_DIR}: run \`npm run build\` first.`);
  const dir = mkdtempSync(join(tmpdir(), 'hitline-e2e-'));
  const config = loadConfig({
    // never the internet: a yt-dlp on this machine's PATH stays unused
    YTDLP_PATH: 'off',
    // nor MusicBrainz or Wikidata: no year evidence is looked up
    EVIDENCE_SOURCES: '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'e2e.sqlite')}`,
    CLIENT_DIR,
    // never the repository's data/audio
    AUDIO_DIR: join(dir, 'audio'),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
    // the weakest allowed hashing cost and no rate limits: tests register and log in a lot
    ARGON2_MEMORY_KIB: '1024',
    RATE_LIMIT_FACTOR: '0',
    ...env,
  });
  const server = await startServer(config);
  return {
    server,
    base: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives every hit of the catalogue processed audio, as the audio pipeline
 * leaves it (server/services/audio/pipeline.ts): `<AUDIO_DIR>/<hit id>.opus`
 * and `.mp3`, and `audio_state` 'ready'. The file is one real tone made with
 * the server's own ffmpeg, `seconds` long, linked (not copied) for every hit.
 * With enough such hits (players × goal × 2) an automatic game starts in the `audio` clue mode.
 * Returns the number of hits.
 */
export async function giveHitsAudio(app: App, seconds = 30): Promise<number> {
  const dir = app.server.config.AUDIO_DIR;
  mkdirSync(dir, { recursive: true });
  const tone = join(dirname(dir), 'tone');
  const ff = ffmpegPath(app.server.config.FFMPEG_PATH);
  // a chord that changes pitch every second, so the clip is recognisably music-like and not silence
  const source = ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=660:duration=${seconds}`, '-filter_complex', 'amix=inputs=2'];
  execFileSync(ff, ['-v', 'error', '-nostdin', '-y', ...source, '-ar', '48000', '-ac', '2', '-c:a', 'libopus', '-b:a', '48k', `${tone}.opus`]);
  execFileSync(ff, ['-v', 'error', '-nostdin', '-y', ...source, '-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-q:a', '7', `${tone}.mp3`]);
  const hits = await app.server.db.selectFrom('hits').select('id').execute();
  for (const { id } of hits) {
    for (const ext of ['opus', 'mp3']) {
      const target = join(dir, `${id}.${ext}`);
      rmSync(target, { force: true });
      try {
        linkSync(`${tone}.${ext}`, target);
      } catch {
        copyFileSync(`${tone}.${ext}`, target);
      }
    }
  }
  await app.server.db.updateTable('hits').set({ audio_state: 'ready' }).execute();
  return hits.length;
}

// ---------------------------------------------------------------------------
// browsers

export type Lang = 'en' | 'de';
export type Scheme = 'light' | 'dark';

export interface BrowserOptions {
  width?: number;
  height?: number;
  /** The browser's language (navigator.languages, Accept-Language): the app detects it. */
  locale?: Lang;
  /** The system colour scheme: the app's default scheme ("auto") follows it. */
  colorScheme?: Scheme;
  /** Marks the welcome dialog as dismissed before the first page loads (default), as for a returning visitor. */
  welcomeSeen?: boolean;
  /** A touch screen without mouse or trackpad, as a phone (touch events; `pointer: coarse`, no `any-pointer: fine`). */
  touch?: boolean;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the pages: a test fails when there are any. */
  pageErrors: string[];
  /** Console errors, printed when a test fails (failed requests show up here too, so they do not fail a test). */
  consoleErrors: string[];
  close(): Promise<void>;
}

const open = new Set<Browser>();

// The flags the CI machine needs: no sandbox (root in a container), no GPU, and
// nothing that phones home or updates itself during a test.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts a browser (one person) with one page; it is closed after the test if the test does not close it. */
export async function openBrowser(app: App, options: BrowserOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: run \`node tests/e2e/ensure-chromium.ts\` first.`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'hitline-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL: app.base,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en',
    colorScheme: options.colorScheme ?? 'light',
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  context.setDefaultTimeout(10_000);
  if (options.welcomeSeen ?? true) {
    await context.addInitScript(() => {
      // a new tab starts at about:blank, which has no storage
      if (location.origin === 'null') return;
      if (localStorage.getItem('welcome') === null) localStorage.setItem('welcome', 'true');
    });
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const browser: Browser = {
    context,
    page,
    pageErrors: [],
    consoleErrors: [],
    async close() {
      if (!open.delete(browser)) return;
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  const watch = (p: Page): void => {
    p.on('pageerror', (err) => browser.pageErrors.push(`${p.url()}: ${err.stack ?? err.message}`));
    p.on('console', (msg) => {
      if (msg.type() === 'error') browser.consoleErrors.push(`${p.url()}: ${msg.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  open.add(browser);
  return browser;
}

/** Records every text the live regions receive (they keep only the last three), in `window.__said`, for every page of `context`. */
export async function recordAnnouncements(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
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

/** What the live regions of `page` received so far (see `recordAnnouncements`). */
export const said = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __said: string[] }).__said);

/** Navigates and waits until the shell is ready (the session is known, so `main` is there) and the page is still. */
export async function gotoReady(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('main#main').waitFor();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await settle(page);
}

/**
 * Opens a game's link as a guest who is not seated: the join dialog asks what
 * to call him; gives `name` (default: keeps his random one) and the emoji named
 * `emoji` (its label, default: his initials), joins, and waits for the seat.
 */
export async function joinByLink(page: Page, path: string, options: { lang?: Lang; name?: string; emoji?: string } = {}): Promise<void> {
  const lang = options.lang ?? 'en';
  await page.goto(path);
  const dialog = page.getByRole('dialog', { name: t(lang, 'join.title_guest', {}, 'people') });
  await dialog.waitFor();
  if (options.name !== undefined) await dialog.getByRole('textbox').fill(options.name);
  if (options.emoji !== undefined) await dialog.getByRole('radio', { name: options.emoji }).check();
  await dialog.getByRole('button', { name: t(lang, 'join.submit', {}, 'people') }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: t(lang, 'game.leave') }).waitFor();
}

/**
 * Waits for web fonts and for finite animations (dialogs and menus fading in)
 * to end, so screenshots and contrast checks see the final colours.
 * Spinners run forever and are not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
    .catch(() => undefined);
}

// ---------------------------------------------------------------------------
// artifacts

function ensureDir(file: string): string {
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

/** Saves a full-page screenshot as test-results/e2e/<name>.png; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = ensureDir(join(RESULTS_DIR, `${name}.png`));
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

export interface AxeProblem {
  label: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe on the page (WCAG 2.x A/AA and best-practice rules). Writes every
 * finding to test-results/e2e/axe/<label>.json and returns the serious and
 * critical ones, which a test treats as failures.
 */
export async function axeScan(page: Page, label: string): Promise<AxeProblem[]> {
  // Legacy mode runs axe in the page itself; the default opens an extra blank
  // page per scan to merge frame results, three times slower, and the app has no frames.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const all = results.violations.map((v: AxeResult) => ({
    label,
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ').trim()})` : ''}`),
  }));
  writeFileSync(ensureDir(join(RESULTS_DIR, 'axe', `${label}.json`)), JSON.stringify({ url: results.url, violations: all, incomplete: results.incomplete.length }, null, 2));
  return all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Throws when the scan finds serious or critical problems. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const problems = await axeScan(page, label);
  if (problems.length) throw new Error(formatAxe(problems));
}

export function formatAxe(problems: readonly AxeProblem[]): string {
  return problems
    .map((p) => `axe ${p.impact} ${p.id} on ${p.label}: ${p.help}\n${p.targets.slice(0, 5).map((t) => `    ${t}`).join('\n')}`)
    .join('\n');
}

/**
 * What sticks out of the viewport sideways (a horizontal scroll bar, or content
 * cut off by the page's `overflow-x: hidden`): the visible elements whose right
 * edge passes the viewport's, as short descriptions. Visually hidden text
 * (clipped to 1 px) does not count.
 */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const scroll = document.documentElement.scrollWidth - width;
    if (scroll > 0) found.push(`the page scrolls ${scroll} px sideways`);
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || r.right <= width + 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || style.position === 'fixed') continue;
      // inside something that clips it (a scrolling table, a hidden overflow)
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const ps = getComputedStyle(p);
        if (/(auto|scroll|hidden|clip)/.test(ps.overflowX) && p.getBoundingClientRect().right <= width + 1) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      found.push(`<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}" ends at ${Math.round(r.right)} px of ${width}`);
      if (found.length > 5) break;
    }
    return found;
  });
}

/**
 * Controls smaller than a fingertip (spec: touch targets of at least 44 px):
 * the visible buttons, form fields, radio and checkbox items, menu items and
 * links that stand alone. Links inside a line of text are exempt, as in WCAG
 * 2.5.8; a radio or checkbox row and a form field only need the height.
 */
export async function smallTouchTargets(page: Page, minPx = 44): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = [
      'button',
      'input:not([type=hidden]):not([type=radio]):not([type=checkbox])',
      'select',
      'textarea',
      '[role=menuitem]',
      '[data-scope=radio-group][data-part=item]',
      '[data-scope=checkbox][data-part=root]',
      'a[href]',
    ].join(', ');
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      // visually hidden (skip links until focused, sr-only text)
      if (r.width <= 1 || r.height <= 1 || style.clipPath !== 'none' || style.clip.startsWith('rect')) continue;
      if (el.tagName === 'A') {
        const block = el.parentElement;
        const inline = block && (block.textContent ?? '').trim().length > (el.textContent ?? '').trim().length + 1 && getComputedStyle(el).display.startsWith('inline');
        if (inline) continue;
      }
      const tallEnough = r.height >= min - 0.5;
      // a radio or checkbox row is as wide as its label; its height is what a finger hits
      const wideEnough = el.matches('[data-part=item], [data-part=root], input, select, textarea') || r.width >= min - 0.5;
      if (tallEnough && wideEnough) continue;
      const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30);
      found.push(`<${el.tagName.toLowerCase()}> "${name}" is ${Math.round(r.width)}×${Math.round(r.height)} px`);
    }
    return found;
  }, minPx);
}

// ---------------------------------------------------------------------------
// the app's own words, so tests find elements by what a person reads

type Messages = Record<string, unknown>;
const messages = new Map<string, Messages>();

/**
 * A translation from locales/ (`namespace` 'hits', or a key "hits:…": locales/hits.<lang>.json, 'table' and 'people' likewise) with
 * {{name}} interpolation, {{name, number}} grouped as the app groups it ("7,184",
 * "7.184"), and _one/_other plurals when `count` is given. A key missing from the
 * default namespace is looked up in 'table', as the app's fallback namespace.
 */
export function t(lang: Lang, key: string, vars: Record<string, string | number> = {}, namespace?: 'hits' | 'table' | 'people'): string {
  // "table:ended.title", as the app writes a key of another namespace
  const ns = /^(hits|table|people):(.+)$/.exec(key);
  if (ns && !namespace) return t(lang, ns[2] as string, vars, ns[1] as 'hits' | 'table' | 'people');
  const file = namespace ? `${namespace}.${lang}.json` : `${lang}.json`;
  let m = messages.get(file);
  if (!m) {
    m = JSON.parse(readFileSync(join(ROOT, 'locales', file), 'utf8')) as Messages;
    messages.set(file, m);
  }
  const lookup = (k: string): unknown => k.split('.').reduce<unknown>((v, part) => (v && typeof v === 'object' ? (v as Messages)[part] : undefined), m);
  const plural = typeof vars.count === 'number' ? lookup(`${key}_${vars.count === 1 ? 'one' : 'other'}`) : undefined;
  const text = plural ?? lookup(key);
  // the table namespace is the app's fallback namespace: the game screen's messages live there
  if (typeof text !== 'string' && !namespace) return t(lang, key, vars, 'table');
  if (typeof text !== 'string') throw new Error(`no message ${key} in ${file}`);
  return text.replace(/\{\{\s*(\w+)\s*(,\s*number\s*)?\}\}/g, (whole: string, name: string, number?: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return number && typeof value === 'number' ? new Intl.NumberFormat(lang).format(value) : String(value);
  });
}

// ---------------------------------------------------------------------------
// a small runner: sequential tests, one report per file

interface TestCase {
  name: string;
  fn: () => Promise<void>;
  timeoutMs: number;
}

export interface TestResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export interface FileReport {
  file: string;
  results: TestResult[];
}

const tests: TestCase[] = [];
const teardowns: (() => Promise<void>)[] = [];

export function test(name: string, fn: () => Promise<void>, options: { timeoutMs?: number } = {}): void {
  tests.push({ name, fn, timeoutMs: options.timeoutMs ?? 60_000 });
}

/** Runs after the file's last test (e.g. stopping the server). */
export function afterAll(fn: () => Promise<void>): void {
  teardowns.push(fn);
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs the registered tests in order; prints one line per test; sets the exit code; writes the report for run.ts. */
export async function runTests(file: string): Promise<void> {
  const grep = process.env.E2E_GREP?.toLowerCase();
  const results: TestResult[] = [];
  const name = file.replace(/^.*[\\/]/, '');
  console.log(`\n${name}`);
  try {
    for (const tc of tests) {
      if (grep && !tc.name.toLowerCase().includes(grep)) continue;
      const t0 = Date.now();
      let error: unknown;
      try {
        await withTimeout(tc.fn(), tc.timeoutMs, `"${tc.name}"`);
        const crashed = [...open].flatMap((b) => b.pageErrors);
        if (crashed.length) throw new Error(`uncaught errors in the page:\n${crashed.join('\n')}`);
      } catch (err) {
        error = err;
      }
      if (error) {
        // what each browser showed when it failed, and what its console said
        let i = 0;
        for (const b of open) {
          for (const p of b.context.pages()) {
            await p.screenshot({ path: ensureDir(join(RESULTS_DIR, 'failures', `${slug(tc.name)}-${++i}.png`)), fullPage: true }).catch(() => undefined);
          }
          if (b.consoleErrors.length) console.log(`    console errors:\n${b.consoleErrors.map((e) => `      ${e}`).join('\n')}`);
        }
      }
      await Promise.all([...open].map((b) => b.close()));
      const ms = Date.now() - t0;
      const text = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? undefined : String(error);
      results.push({ name: tc.name, ok: !error, ms, ...(text ? { error: text } : {}) });
      console.log(`  ${error ? '✗' : '✓'} ${tc.name} (${(ms / 1000).toFixed(1)} s)`);
      if (text) console.log(text.replace(/^/gm, '      '));
    }
  } finally {
    for (const fn of teardowns) await fn().catch((err: unknown) => console.error('teardown failed:', err));
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${name}: ${results.length - failed} passed, ${failed} failed`);
  if (process.env.E2E_REPORT) writeFileSync(process.env.E2E_REPORT, JSON.stringify({ file: name, results } satisfies FileReport));
  // no tests at all is a broken file, unless E2E_GREP picked none of them
  if (failed || (results.length === 0 && !grep)) process.exitCode = 1;
  // Everything is stopped, but a stopped server can leave timers behind (Colyseus keeps the
  // reconnection windows of sockets that dropped at the end, RECONNECT_SECONDS long): do not
  // wait for them. (unref: if nothing else is left, the process ends by itself before this.)
  setTimeout(() => process.exit(), 2000).unref();
}

/** Polls `check` until it returns without throwing (for state that arrives over the network). */
export async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
