/**
 * The catalogue screens end to end, through the UI only, against the real
 * server (in this process, with the demo catalogue) in Debian's Chromium:
 *
 * * a curator (all permissions) creates a pack (and renames and deletes
 *   others, in natural order), creates three hits (one with an uploaded audio
 *   file that the pipeline makes playable: the detail page's player loads and
 *   plays it), finds them by prefix search, sorts by year descending, reorders
 *   the sort priority by keyboard, filters by two packs, edits one (its YouTube
 *   player cannot load offline: the placeholder shows), deletes one, exports
 *   hits.yml and imports it again (changed) with the diff shown;
 * * an anonymous visitor browses without write controls, is sent away from
 *   /hits/create, and meets the 404 of an unknown hit;
 * * the header's download indicator leads to the status page, which moves on
 *   to the hit list once everything is ready;
 * * every catalogue screen and dialog in English and German, light and dark,
 *   at 375 and 1280 px: a screenshot, an axe scan (no serious or critical
 *   findings), no sideways scrolling, and no control smaller than 44 px.
 *
 *   npm run build && node tests/e2e/catalogue.e2e.ts     (exits non-zero on failure)
 *
 * Screenshots go to test-results/e2e/catalogue/<screen>-<lang>-<width>-<scheme>.png,
 * axe reports to test-results/e2e/axe/.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { ALL_PERMISSIONS } from '../../server/services/users.ts';
import { User } from '../server/harness.ts';
import {
  afterAll,
  assert,
  assertEqual,
  axeScan,
  eventually,
  expectAccessible,
  formatAxe,
  gotoReady,
  openBrowser,
  recordAnnouncements,
  RESULTS_DIR,
  runTests,
  said,
  screenshot,
  settle,
  startApp,
  t,
  test,
  type App,
  type AxeProblem,
  type Browser,
  type Lang,
} from './harness.ts';

const en = (key: string, vars: Record<string, string | number> = {}): string => t('en', key, vars);

/** The catalogue screens' own messages (namespace `hits`, locales/hits.<lang>.json). */
const hl = (lang: Lang, key: string, vars: Record<string, string | number> = {}): string => t(lang, key, vars, 'hits');
const h = (key: string, vars: Record<string, string | number> = {}): string => hl('en', key, vars);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (text: string): RegExp => new RegExp(`^${escape(text)}$`);

const CURATOR = 'curator';
const PASSWORD = 'correct horse battery';
/** A prefix no demo hit has, so the search finds exactly the hits made here. */
const PREFIX = 'Zyxq';
const PACK = 'E2E Pack';

// the import by address may reach this machine's 127.0.0.1 (where the test's own file server listens), nothing else of its networks
const app: App = await startApp({ IMPORT_ALLOW_PRIVATE: '127.0.0.1' });
afterAll(() => app.stop());

/** Another server's catalogue, served over HTTP on 127.0.0.1 (the text is set by the test). */
let served = '';
const fileServer = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/x-yaml; charset=utf-8' });
  res.end(served);
});
await new Promise<void>((ok) => fileServer.listen(0, '127.0.0.1', ok));
const servedAt = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/api/hits/export`;
afterAll(() => new Promise<void>((ok) => fileServer.close(() => ok())));
const created = await app.server.users.createAccount(CURATOR, PASSWORD, ALL_PERMISSIONS);
assert(created.ok, `could not create the curator: ${JSON.stringify(created)}`);

/** A five-second sine tone as MP3, made with the ffmpeg the server uses. */
function makeMp3(): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-e2e-audio-'));
  const file = join(dir, 'tone.mp3');
  const ffmpeg = ffmpegPath(app.server.config.FFMPEG_PATH);
  const r = spawnSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', file], { encoding: 'utf8' });
  assert(r.status === 0, `ffmpeg could not make the test tone: ${r.stderr || r.error?.message}`);
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------
// helpers


/**
 * A browser whose welcome dialog was already dismissed. Not the harness's
 * `welcomeSeen` script: it also runs in the blank page axe opens to finish a
 * scan, where reading localStorage throws, and the test would count that as an
 * uncaught page error.
 */
async function browserFor(options: Parameters<typeof openBrowser>[1] = {}): Promise<Browser> {
  const b = await openBrowser(app, { ...options, welcomeSeen: false });
  await b.context.addInitScript(() => {
    try {
      if (localStorage.getItem('welcome') === null) localStorage.setItem('welcome', 'true');
    } catch {
      // about:blank has no storage
    }
  });
  return b;
}

async function logIn(page: Page, lang: Lang = 'en'): Promise<void> {
  await gotoReady(page, '/login');
  await page.getByLabel(t(lang, 'auth.username')).fill(CURATOR);
  await page.getByLabel(t(lang, 'auth.password'), { exact: false }).fill(PASSWORD);
  await page.getByRole('button', { name: t(lang, 'login.submit'), exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: t(lang, 'user.logged_in_as', { name: CURATOR }) }).waitFor();
}

/** The summary line above the table ("Hits 1–3 of 3"). */
const summary = (page: Page): Locator => page.locator('main').getByRole('status').filter({ hasText: /^Hits \d|^No hits/ });

/** The titles in the result table, top to bottom (by CSS: an open dialog hides the page from role queries). */
const titles = async (page: Page): Promise<string[]> => (await page.locator('main table tbody tr td:first-child').allInnerTexts()).map((s) => s.trim());

/** Types into the search box and waits for the debounced search's answer. */
async function search(page: Page, text: string, total: number): Promise<void> {
  await page.getByLabel(h('browse.search_label')).fill(text);
  await summary(page).filter({ hasText: exact(total ? h('browse.summary', { start: 1, end: total, total }) : h('browse.none')) }).waitFor();
  await eventually(async () => assertEqual((await titles(page)).length, total, `rows for "${text}"`));
}

const params = (page: Page): URLSearchParams => new URL(page.url()).searchParams;

/** Closes the toasts a quick test piles up (a person meets them one at a time), so screenshots show the page. */
async function dismissToasts(page: Page, lang: Lang = 'en'): Promise<void> {
  const close = page.getByRole('button', { name: t(lang, 'common.dismiss') });
  while ((await close.count()) > 0) await close.first().click();
}

/** axe in both schemes (contrast differs). */
async function scan(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await expectAccessible(page, `catalogue-${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

interface NewHit {
  title: string;
  artist: string;
  year: number;
  packs: string[];
  url?: string;
  offset?: number;
  audio?: string;
}

/** The box of a pack in a pack list (its input is visually hidden: a person clicks the box or its label). */
const packCheckbox = (scope: Page | Locator, name: string): Locator =>
  scope.locator('[data-scope=checkbox][data-part=root]').filter({ hasText: new RegExp(`^${escape(name)} \\(`) });

async function setPack(scope: Page | Locator, name: string, checked: boolean): Promise<void> {
  const root = packCheckbox(scope, name);
  if ((await root.getAttribute('data-state')) !== (checked ? 'checked' : 'unchecked')) await root.click();
  await eventually(async () => assertEqual(await root.getAttribute('data-state'), checked ? 'checked' : 'unchecked', `${name} checked`));
}

async function fillHit(page: Page, hit: NewHit): Promise<void> {
  await page.getByLabel(h('fields.title')).fill(hit.title);
  await page.getByLabel(h('fields.artist')).fill(hit.artist);
  await page.getByLabel(h('fields.year')).fill(String(hit.year));
  await page.getByLabel(h('fields.video_url')).fill(hit.url ?? '');
  await page.getByLabel(h('form.offset_label')).fill(String(hit.offset ?? 0));
  const packs = page.getByRole('list', { name: h('fields.packs') });
  for (const name of hit.packs) await setPack(packs, name, true);
  if (hit.audio) await page.getByLabel(h('fields.audio_file')).setInputFiles(hit.audio);
}

// ---------------------------------------------------------------------------

test(
  'a curator creates, finds, sorts, filters, edits, deletes, exports and imports hits',
  async () => {
    const tone = makeMp3();
    const b = await browserFor({ width: 1280 });
    const page = b.page;
    await recordAnnouncements(page.context());
    const audioResponses: { url: string; status: number; type: string }[] = [];
    page.on('response', (r) => {
      if (/\/api\/hits\/[^/]+\/audio(\?|$)/.test(r.url()) && r.request().method() === 'GET') audioResponses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] ?? '' });
    });
    try {
      await logIn(page);

      // ---- browse: the write controls are there
      await gotoReady(page, '/hits');
      await page.getByRole('link', { name: h('browse.create') }).waitFor();
      await page.getByRole('button', { name: h('export.button') }).waitFor();
      await page.getByRole('button', { name: h('import.button') }).waitFor();
      await summary(page).waitFor();
      await scan(page, 'browse');

      // ---- a pack, from the pack chooser's create-pack dialog
      await page.getByRole('button', { name: h('filter.button_all') }).click();
      const chooser = page.getByRole('dialog', { name: h('filter.title') });
      await chooser.waitFor();
      await chooser.getByRole('button', { name: h('packs.create') }).click();
      const createPack = page.getByRole('dialog', { name: h('packs.create_title') });
      await createPack.waitFor();
      const createButton = createPack.getByRole('button', { name: h('packs.create_submit'), exact: true });
      assert(await createButton.isDisabled(), 'create is disabled while the name is empty');
      await createPack.getByLabel(h('packs.name')).fill(PACK);
      await createButton.click();
      await createPack.waitFor({ state: 'detached' });
      // the new pack is listed, empty, with rename and delete
      await chooser.getByRole('checkbox', { name: h('packs.entry', { name: PACK, count: 0 }) }).waitFor();
      await chooser.getByRole('button', { name: h('packs.rename_label', { name: PACK }) }).waitFor();
      // two more, to rename and delete; listed in natural order (9 before 10)
      for (const name of ['E2E Spare 10', 'E2E Spare 9']) {
        await chooser.getByRole('button', { name: h('packs.create') }).click();
        await createPack.getByLabel(h('packs.name')).fill(name);
        await createButton.click();
        await createPack.waitFor({ state: 'detached' });
        await chooser.getByRole('checkbox', { name: h('packs.entry', { name, count: 0 }) }).waitFor();
      }
      const packOrder = async (): Promise<string[]> =>
        (await chooser.locator('[data-scope=checkbox][data-part=label]').allInnerTexts()).map((s) => s.replace(/ \(.*$/, '')).filter((s) => s.startsWith('E2E '));
      assertEqual(await packOrder(), [PACK, 'E2E Spare 9', 'E2E Spare 10'], 'packs in natural order');
      // rename in place: "10" becomes "1", which sorts first of the spares
      await chooser.getByRole('button', { name: h('packs.rename_label', { name: 'E2E Spare 10' }) }).click();
      const renameBox = chooser.getByRole('textbox', { name: h('packs.rename_label', { name: 'E2E Spare 10' }) });
      assert(await renameBox.evaluate((el) => el === document.activeElement), 'the rename field has the focus');
      await renameBox.fill('E2E Spare 1');
      await chooser.getByRole('button', { name: h('common.save'), exact: true }).click();
      await chooser.getByRole('checkbox', { name: h('packs.entry', { name: 'E2E Spare 1', count: 0 }) }).waitFor();
      assertEqual(await packOrder(), [PACK, 'E2E Spare 1', 'E2E Spare 9'], 'packs after the rename');
      // delete asks first: No keeps the pack, Yes removes it
      const deletePack = page.getByRole('alertdialog', { name: h('packs.delete_title') });
      await chooser.getByRole('button', { name: h('packs.delete_label', { name: 'E2E Spare 9' }) }).click();
      await deletePack.getByText(h('packs.delete_question', { name: 'E2E Spare 9', count: 0 })).waitFor();
      await deletePack.getByRole('button', { name: h('common.no') }).click();
      await deletePack.waitFor({ state: 'detached' });
      assertEqual(await packOrder(), [PACK, 'E2E Spare 1', 'E2E Spare 9'], 'packs after saying no');
      await chooser.getByRole('button', { name: h('packs.delete_label', { name: 'E2E Spare 9' }) }).click();
      await deletePack.getByRole('button', { name: h('common.yes') }).click();
      await deletePack.waitFor({ state: 'detached' });
      await eventually(async () => assertEqual(await packOrder(), [PACK, 'E2E Spare 1'], 'packs after the delete'));
      assert((await page.request.get('/api/hits/packs').then((r) => r.json()) as { packs: { name: string }[] }).packs.every((p) => p.name !== 'E2E Spare 9'), 'the server deleted the pack');
      await scan(page, 'pack-chooser');
      await chooser.getByRole('button', { name: h('filter.done') }).click();
      await chooser.waitFor({ state: 'detached' });

      // ---- three hits
      await page.getByRole('link', { name: h('browse.create') }).click();
      await page.waitForURL('**/hits/create');
      await page.getByRole('heading', { level: 1, name: h('create.title') }).waitFor();
      const save = page.getByRole('button', { name: h('common.save'), exact: true });
      const hits: NewHit[] = [
        { title: `${PREFIX}a Morning`, artist: 'E2E Band', year: 1991, packs: [PACK], url: 'https://www.youtube.com/watch?v=AAAAAAAAAA1', offset: 30 },
        { title: `${PREFIX}b Noon`, artist: 'E2E Band', year: 2005, packs: [PACK, '1980s'], url: 'https://youtu.be/BBBBBBBBBB2' },
        { title: `${PREFIX}c Night`, artist: 'E2E Tones', year: 1978, packs: ['1970s'], audio: tone.file },
      ];
      // an invalid video URL shows the message and disables Save
      await fillHit(page, { ...hits[0]!, url: 'https://youtu.be/short' });
      await page.getByText(h('form.errors.video_url')).waitFor();
      assert(await save.isDisabled(), 'Save is disabled while the video URL is invalid');
      await scan(page, 'create-invalid-url');
      await page.getByLabel(h('fields.video_url')).fill('https://www.youtube.com/embed/AAAAAAAAAA1');
      assert(await save.isEnabled(), 'Save is enabled with an embed URL');
      await page.getByLabel(h('fields.video_url')).fill(hits[0]!.url!);

      const formPacks = page.getByRole('list', { name: h('fields.packs') });
      const packBox = (name: string) => formPacks.getByRole('checkbox', { name: new RegExp(`^${escape(name)} \\(`) });
      for (const [i, hit] of hits.entries()) {
        if (i > 0) {
          // the packs of the previous hit are kept; this one chooses its own
          for (const name of hits[i - 1]!.packs) if (!hit.packs.includes(name)) await setPack(formPacks, name, false);
          await fillHit(page, hit);
        }
        await save.click();
        const text = h('create.created', { hit: h('hit_name', { artist: hit.artist, title: hit.title }) });
        await eventually(async () => assert((await said(page)).includes(text), `"${text}" is announced`));
        // the form is empty again, keeps the packs, and the title field has the focus
        await eventually(async () => assertEqual(await page.getByLabel(h('fields.title')).inputValue(), '', 'title after saving'));
        assertEqual(await page.getByLabel(h('fields.year')).inputValue(), '', 'year after saving');
        for (const name of hit.packs) assert(await packBox(name).isChecked(), `${name} still checked after saving`);
        assert(await page.getByLabel(h('fields.title')).evaluate((el) => el === document.activeElement), 'focus is back on the title');
      }

      // ---- the uploaded audio becomes playable
      await page.getByRole('link', { name: h('create.open_created') }).click();
      await page.getByRole('heading', { level: 1, name: h('detail.title', { artist: 'E2E Tones', title: `${PREFIX}c Night` }) }).waitFor();
      await eventually(async () => {
        await page.getByText(h('audio.state.ready'), { exact: true }).waitFor({ timeout: 1000 });
      }, 60_000);
      await page.getByText(h('video.none')).waitFor();
      // the player loads the processed file over the editors' route and plays it
      const player = page.locator(`audio[aria-label="${h('audio.player_label', { hit: h('hit_name', { artist: 'E2E Tones', title: `${PREFIX}c Night` }) })}"]`);
      await player.waitFor();
      await eventually(async () => assert(await player.evaluate((a: HTMLAudioElement) => a.readyState >= HTMLMediaElement.HAVE_METADATA), 'the audio metadata loaded'), 15_000);
      const media = await player.evaluate((a: HTMLAudioElement) => ({ duration: a.duration, src: a.currentSrc, error: a.error?.code ?? null }));
      assert(media.error === null, `the audio element failed: ${media.error}`);
      assert(/\/api\/hits\/[0-9a-f-]{36}\/audio\?format=opus$/.test(media.src), `the player plays the processed Opus file, got ${media.src}`);
      assert(Math.abs(media.duration - 5) < 0.5, `the 5 s tone lasts ${media.duration} s`);
      assert(audioResponses.some((r) => r.url === media.src && (r.status === 200 || r.status === 206) && r.type.startsWith('audio/ogg')), `the media request answered audio: ${JSON.stringify(audioResponses)}`);
      await player.evaluate((a: HTMLAudioElement) => a.play());
      await eventually(async () => assert(await player.evaluate((a: HTMLAudioElement) => a.currentTime > 0.2 && !a.paused), 'the audio plays'), 10_000);
      await player.evaluate((a: HTMLAudioElement) => a.pause());
      // the clip as a game plays it: a named button, from the start of the file (the offset), the position shown, Stop rewinds
      // (the 5 s tone is shorter than a game's 20 s clip: its clip is the whole file)
      const clipButton = page.getByRole('button', { name: h('audio.clip_play', { count: 5 }) });
      await clipButton.focus();
      await page.keyboard.press('Enter');
      const stopClip = page.getByRole('button', { name: h('audio.clip_stop') });
      await stopClip.waitFor();
      await eventually(async () => assert(await player.evaluate((a: HTMLAudioElement) => a.currentTime > 0.3 && !a.paused), 'the clip plays'), 10_000);
      const bar = page.getByRole('progressbar', { name: h('audio.position_label') });
      await eventually(async () => assert(/^0:0[1-5] /.test((await bar.getAttribute('aria-valuetext')) ?? ''), `the position moves: ${await bar.getAttribute('aria-valuetext')}`), 10_000);
      assert(((await bar.getAttribute('aria-valuetext')) ?? '').endsWith(h('audio.position', { position: '', length: '0:05' }).trim()), 'a 5 s file is a 5 s clip');
      await stopClip.press('Enter');
      await clipButton.waitFor();
      const stopped = await player.evaluate((a: HTMLAudioElement) => ({ paused: a.paused, at: a.currentTime }));
      assert(stopped.paused && stopped.at === 0, `Stop pauses and rewinds: ${JSON.stringify(stopped)}`);
      await scan(page, 'detail');

      // ---- the status page: this server has no YouTube downloader, so the two hits with a video failed
      await gotoReady(page, '/hits/status');
      const failures = page.getByRole('region', { name: h('status.failures', { count: 2 }) });
      await failures.waitFor();
      await failures.getByRole('link', { name: h('hit_name', { artist: 'E2E Band', title: `${PREFIX}a Morning` }) }).waitFor();
      await page.getByText(h('status.youtube_off')).waitFor();
      // each failure says its cause in a word, in the reader's language
      assertEqual(await failures.getByText(h('status.cause.no_ytdlp'), { exact: true }).count(), 2, 'the causes');
      await scan(page, 'status-failures');
      await failures.getByRole('button', { name: h('status.retry_label', { hit: h('hit_name', { artist: 'E2E Band', title: `${PREFIX}a Morning` }) }) }).click();
      await eventually(async () => assert((await said(page)).includes(h('audio.retried')), 'the retry is announced'));
      assert(new URL(page.url()).pathname === '/hits/status', 'no redirect while hits failed');

      // ---- prefix search
      await gotoReady(page, '/hits');
      await search(page, PREFIX.toLowerCase(), 3);
      assertEqual(params(page).get('q'), PREFIX.toLowerCase(), 'q in the address');
      assertEqual(params(page).get('p'), '1', 'p in the address');
      assertEqual(await titles(page), [`${PREFIX}a Morning`, `${PREFIX}b Noon`, `${PREFIX}c Night`], 'by title');

      // ---- year descending: the direction, then year to the top of the priority, by keyboard
      await page.getByLabel(h('sort.direction'), { exact: true }).selectOption('descending');
      await page.waitForURL(/sort_direction=descending/);
      const yearChip = page.getByRole('button', { name: /^4\. Year$/ });
      await yearChip.focus();
      // dnd-kit's own live region tells screen readers what happens; every text it shows is kept, since the next step replaces it
      const dndRegion = page.locator('[id^=DndLiveRegion]');
      await page.evaluate(() => {
        const w = window as unknown as { dndSaid: string[] };
        w.dndSaid = [];
        new MutationObserver(() => {
          const text = document.querySelector('[id^=DndLiveRegion]')?.textContent ?? '';
          if (text && w.dndSaid.at(-1) !== text) w.dndSaid.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const dndSaid = (): Promise<string[]> => page.evaluate(() => (window as unknown as { dndSaid: string[] }).dndSaid);
      await page.keyboard.press('Space');
      await eventually(async () => assertEqual((await dndSaid())[0], h('sort.picked_up', { field: 'Year', position: 4, count: 4 }), 'pick-up announced'));
      for (let i = 0; i < 24; i++) {
        await page.keyboard.press('ArrowLeft');
        await page.waitForTimeout(40);
      }
      await page.keyboard.press('Space');
      await eventually(async () => assertEqual(await dndRegion.textContent(), h('sort.dropped', { field: 'Year', position: 1, count: 4 }), 'drop announced'));
      assert(!(await dndSaid()).includes(h('sort.moved', { field: 'Year', position: 4, count: 4 })), `the field's own place is not announced as a move: ${(await dndSaid()).join(' | ')}`);
      await page.waitForURL(/sort_by=year/);
      assertEqual(params(page).getAll('sort_by'), ['year', 'title', 'artist', 'belongs_to'], 'sort priority after the keyboard drag');
      await page.getByRole('button', { name: /^1\. Year$/ }).waitFor();
      await eventually(async () => assertEqual(await titles(page), [`${PREFIX}b Noon`, `${PREFIX}a Morning`, `${PREFIX}c Night`], 'by year, descending'));
      assertEqual(params(page).get('p'), '1', 'sorting restarts at page 1');

      // ---- two packs: any of them
      await page.getByRole('button', { name: h('filter.button_all') }).click();
      await chooser.waitFor();
      await setPack(chooser, PACK, true);
      await eventually(async () => assertEqual(await titles(page), [`${PREFIX}b Noon`, `${PREFIX}a Morning`], 'one pack'));
      await setPack(chooser, '1970s', true);
      await eventually(async () => assertEqual(params(page).getAll('pack').length, 2, 'two pack params'));
      await chooser.getByRole('button', { name: h('filter.done') }).click();
      await eventually(async () => assertEqual(await titles(page), [`${PREFIX}b Noon`, `${PREFIX}a Morning`, `${PREFIX}c Night`], 'two packs'));
      await page.getByRole('button', { name: h('filter.button', { count: 2 }) }).waitFor();
      // the address is the state: a reload shows the same
      await page.reload();
      await eventually(async () => assertEqual(await titles(page), [`${PREFIX}b Noon`, `${PREFIX}a Morning`, `${PREFIX}c Night`], 'after a reload'));
      assertEqual(await page.getByLabel(h('browse.search_label')).inputValue(), PREFIX.toLowerCase(), 'search box after a reload');
      await scan(page, 'browse-filtered');
      // a hit's packs button opens its packs as links
      await page.getByRole('button', { name: h('table.packs_button', { count: 2, title: `${PREFIX}b Noon` }) }).click();
      const packsDialog = page.getByRole('dialog', { name: h('table.packs_title', { artist: 'E2E Band', title: `${PREFIX}b Noon` }) });
      await packsDialog.getByRole('link', { name: h('packs.entry', { name: PACK, count: 2 }) }).waitFor();
      await packsDialog.getByRole('link', { name: /^1980s \(/ }).waitFor();
      await page.keyboard.press('Escape');
      await packsDialog.waitFor({ state: 'detached' });

      // ---- edit one
      await page.getByRole('link', { name: `${PREFIX}a Morning` }).click();
      await page.getByRole('heading', { level: 1, name: h('detail.title', { artist: 'E2E Band', title: `${PREFIX}a Morning` }) }).waitFor();
      const frame = page.locator('iframe');
      assert((await frame.getAttribute('src'))?.startsWith('https://www.youtube-nocookie.com/embed/AAAAAAAAAA1?start=30'), 'the player starts at the offset');
      // this machine has no internet: the player never answers, and the placeholder says so
      await page.getByText(h('video.failed')).waitFor({ timeout: 20_000 });
      assertEqual(await frame.count(), 0, 'the dead frame is gone');
      await page.getByRole('link', { name: h('video.open') }).waitFor();
      await page.getByRole('link', { name: PACK }).waitFor();
      await page.getByRole('button', { name: h('detail.edit') }).click();
      const year = page.getByLabel(h('fields.year'));
      await year.fill('1992');
      await page.getByLabel(h('fields.video_url')).fill('https://www.youtube.com/v/AAAAAAAAAA');
      assert(await save.isDisabled(), 'Save disabled with a 10-character id');
      await page.getByLabel(h('fields.video_url')).fill('https://www.youtube.com/v/AAAAAAAAAA1');
      await save.click();
      await page.getByRole('button', { name: h('detail.edit') }).waitFor();
      await page.getByText('1992', { exact: true }).waitFor();

      // ---- delete one (asks first, then back to the list)
      await gotoReady(page, `/hits?q=${PREFIX.toLowerCase()}`);
      await page.getByRole('link', { name: `${PREFIX}b Noon` }).click();
      await page.getByRole('button', { name: h('detail.delete') }).click();
      const confirm = page.getByRole('alertdialog', { name: h('detail.delete_title') });
      await confirm.waitFor();
      await scan(page, 'delete-confirm');
      await confirm.getByRole('button', { name: h('common.no') }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: h('detail.delete') }).click();
      await confirm.getByRole('button', { name: h('common.yes') }).click();
      await page.waitForURL((url) => url.pathname === '/hits');
      await search(page, PREFIX.toLowerCase(), 2);

      // ---- export the two, change one in the file, import it with the diff shown
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: h('export.button') }).click()]);
      assertEqual(download.suggestedFilename(), 'hits.yml', 'export file name');
      const stream = await download.createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const yaml = Buffer.concat(chunks).toString('utf8');
      assert(yaml.includes(`${PREFIX}a Morning`) && yaml.includes(`${PREFIX}c Night`), 'the export has the two hits');
      assert(!yaml.includes(`${PREFIX}b Noon`), 'the export has not the deleted hit');
      assert(!yaml.includes('Africa'), 'the export has only the searched hits');
      assert(/year: 1992/.test(yaml), 'the export has the edited year');
      const changed = yaml.replace('year: 1992', 'year: 1993');

      await page.getByRole('button', { name: h('import.button') }).click();
      const importDialog = page.getByRole('dialog', { name: h('import.title') });
      await importDialog.waitFor();
      const apply = importDialog.getByRole('button', { name: h('import.apply') });
      assert(await apply.isDisabled(), 'nothing to apply before a file is chosen');
      await importDialog.getByLabel(h('import.file')).setInputFiles({ name: 'hits.yml', mimeType: 'application/x-yaml', buffer: Buffer.from(changed) });
      await importDialog.getByText(h('import.ready', { count: 0, changed: 1 })).waitFor();
      await importDialog.getByRole('heading', { name: h('import.changed_hits', { count: 1 }) }).waitFor();
      await importDialog.getByText(h('import.change', { field: 'year', before: 1992, after: 1993 })).waitFor();
      await scan(page, 'import-diff');
      await apply.click();
      await importDialog.getByText(h('import.applied', { count: 0, changed: 1 })).first().waitFor();
      await importDialog.getByRole('button', { name: h('common.close'), exact: true }).last().click();
      await importDialog.waitFor({ state: 'detached' });
      await eventually(async () => assert((await page.getByRole('table').innerText()).includes('1993'), 'the list shows the imported year'));
      // the same file again changes nothing
      await page.getByRole('button', { name: h('import.button') }).click();
      await importDialog.getByLabel(h('import.file')).setInputFiles({ name: 'hits.yml', mimeType: 'application/x-yaml', buffer: Buffer.from(changed) });
      await importDialog.getByText(h('import.nothing')).waitFor();
      assert(await apply.isDisabled(), 'nothing to apply the second time');
      await page.keyboard.press('Escape');
      await importDialog.waitFor({ state: 'detached' });

      // ---- the same from an address: typed, checked with Enter, the same diff, applied
      served = changed.replace('year: 1993', 'year: 1994');
      await page.getByRole('button', { name: h('import.button') }).click();
      const fromAddress = importDialog.getByRole('region', { name: h('import.from_address') });
      const addressField = fromAddress.getByLabel(h('import.address'));
      await addressField.fill('http://10.0.0.1/hits.yml');
      await addressField.press('Enter');
      const refusedAlert = importDialog.getByRole('alert');
      await refusedAlert.waitFor();
      assert((await refusedAlert.innerText()).includes('10.0.0.1 is a private network address'), `a private address is refused, saying why: ${await refusedAlert.innerText()}`);
      assert(await apply.isDisabled(), 'nothing to apply after a refusal');
      await scan(page, 'import-address-refused');
      await addressField.fill(servedAt);
      await addressField.press('Enter');
      await importDialog.getByText(h('import.ready', { count: 0, changed: 1 })).waitFor();
      await importDialog.getByText(h('import.change', { field: 'year', before: 1993, after: 1994 })).waitFor();
      await importDialog.getByText(h('import.from', { url: servedAt })).waitFor();
      await scan(page, 'import-address');
      await apply.click();
      await importDialog.getByText(h('import.applied', { count: 0, changed: 1 })).first().waitFor();
      await importDialog.getByRole('button', { name: h('common.close'), exact: true }).last().click();
      await importDialog.waitFor({ state: 'detached' });
      await eventually(async () => assert((await page.getByRole('table').innerText()).includes('1994'), 'the list shows the year imported from the address'));
    } finally {
      tone.cleanup();
    }
  },
  { timeoutMs: 240_000 },
);

test('an anonymous visitor browses without write controls', async () => {
  const b = await browserFor({ width: 375, colorScheme: 'dark' });
  const page = b.page;
  await gotoReady(page, '/hits/');
  await summary(page).waitFor();
  for (const name of [h('browse.create'), h('export.button'), h('import.button')]) {
    assertEqual(await page.getByRole('link', { name }).or(page.getByRole('button', { name })).count(), 0, `"${name}" for a visitor`);
  }
  // the pack chooser without create, rename or delete
  await page.getByRole('button', { name: h('filter.button_all') }).click();
  const chooser = page.getByRole('dialog', { name: h('filter.title') });
  await chooser.waitFor();
  assertEqual(await chooser.getByRole('button', { name: h('packs.create') }).count(), 0, 'create pack for a visitor');
  assertEqual(await chooser.getByRole('button', { name: /^Delete / }).count(), 0, 'delete pack for a visitor');
  // browse mode: each pack links to its list
  await chooser.getByRole('link', { name: `${h('packs.only')} ${h('packs.only_hidden', { name: '1980s' })}` }).click();
  await page.waitForURL((url) => url.pathname === '/hits/' && url.searchParams.getAll('pack').length === 1);
  await page.getByRole('button', { name: h('filter.button', { count: 1 }) }).waitFor();

  // a hit without Edit and Delete
  await page.getByRole('list', { name: h('table.caption') }).getByRole('link').first().click();
  await page.getByRole('heading', { level: 1, name: /: / }).waitFor();
  assertEqual(await page.getByRole('button', { name: h('detail.edit') }).count(), 0, 'Edit for a visitor');
  assertEqual(await page.getByRole('button', { name: h('detail.delete') }).count(), 0, 'Delete for a visitor');

  // a hit whose audio is ready: its state, but no player, and the file itself is refused (no looking up hidden clips)
  const found = (await (await page.request.get(`/api/hits/search?query=${PREFIX.toLowerCase()}c`)).json()) as { results: { id: string; title: string }[] };
  const night = found.results.find((r) => r.title === `${PREFIX}c Night`);
  if (night) {
    await gotoReady(page, `/hits/${night.id}`);
    await page.getByText(h('audio.state.ready'), { exact: true }).waitFor();
    assertEqual(await page.locator('audio').count(), 0, 'audio player for a visitor');
    assertEqual((await page.request.get(`/api/hits/${night.id}/audio`)).status(), 403, 'the processed file for a visitor');
  } else {
    assert(process.env.E2E_GREP, 'the curator test left its ready hit');
  }

  // no create page: back to the list
  await page.goto('/hits/create');
  await page.waitForURL((url) => url.pathname === '/hits');
  await page.getByRole('heading', { level: 1, name: h('browse.title') }).waitFor();

  // an unknown hit, and a malformed id
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-hit']) {
    await gotoReady(page, `/hits/${id}`);
    await page.getByText(`404 ${h('detail.not_found')}`).waitFor();
  }
  await scan(page, 'not-found');
});

test('the download indicator leads to the status page, which moves on when everything is ready', async () => {
  const b = await browserFor({ width: 1280 });
  const page = b.page;
  await gotoReady(page, '/');
  // "ready" once a hit has audio (the curator's upload above), "no audio yet" before
  await page.getByRole('button', { name: new RegExp(`^(${escape(en('hit_status.finished'))}|${escape(en('hit_status.no_audio'))})$`) }).click();
  await page.getByRole('link', { name: h('status.link') }).click();
  await page.waitForURL('**/hits/status');
  await page.getByRole('heading', { level: 1, name: h('status.title') }).waitFor();
  await page.getByText(h('status.ready'), { exact: true }).waitFor();
  assertEqual(await page.getByRole('progressbar').count(), 2, 'progress bars');
  await screenshot(page, 'catalogue-status-ready-1280-light');
  await page.waitForURL((url) => url.pathname === '/hits', { timeout: 10_000 });
});

// ---------------------------------------------------------------------------
// every screen: English and German, light and dark, 375 and 1280 px

const MATRIX = { prefix: 'Qmx', packs: ['Matrix Pack 2', 'Matrix Pack 10'], video: 'QQQQQQQQQQ1' } as const;
interface MatrixData {
  /** A hit with a YouTube id: its audio failed (no downloader here), its player shows the placeholder. */
  sunrise: string;
  /** A hit with an uploaded, processed audio file. */
  sunset: string;
  /** An export of the matrix hits with one year changed (an import with one change). */
  yaml: string;
}
let matrixData: Promise<MatrixData> | undefined;

/** The matrix's hits and packs, made once through the API as the curator. */
function matrixSetup(): Promise<MatrixData> {
  matrixData ??= (async () => {
    const curator = new User(app.base);
    await curator.auth();
    const login = await curator.request('POST', '/api/users/login', { username: CURATOR, password: PASSWORD });
    assert(login.status === 200, `API login: ${login.status}`);
    await curator.auth();
    const packs: string[] = [];
    for (const name of MATRIX.packs) {
      const r = await curator.request('POST', '/api/hits/packs', { name });
      assert(r.status === 200, `pack ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      packs.push(r.body.id as string);
    }
    const hit = async (title: string, body: Record<string, unknown>): Promise<string> => {
      const r = await curator.request('POST', '/api/hits', { title, artist: 'Matrix Band', belongs_to: '', packs, yt_id: null, playback_offset: 0, ...body });
      assert(r.status === 200, `hit ${title}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id as string;
    };
    const sunrise = await hit(`${MATRIX.prefix} Sunrise`, { year: 1984, belongs_to: 'Matrix Film', yt_id: MATRIX.video, playback_offset: 42 });
    const sunset = await hit(`${MATRIX.prefix} Sunset`, { year: 1986, packs: packs.slice(0, 1) });
    const tone = makeMp3();
    try {
      const r = await fetch(`${app.base}/api/hits/${sunset}/audio`, { method: 'POST', headers: { cookie: curator.cookieHeader(), 'content-type': 'audio/mpeg' }, body: new Uint8Array(readFileSync(tone.file)) });
      assert(r.status === 202, `upload: ${r.status} ${await r.text()}`);
    } finally {
      tone.cleanup();
    }
    await eventually(async () => {
      const states = await Promise.all([sunrise, sunset].map(async (id) => (await curator.request('GET', `/api/hits/${id}`)).body.audio as string));
      assertEqual(states, ['failed', 'ready'], 'audio of the matrix hits');
    }, 60_000);
    const exported = await curator.request('GET', `/api/hits/export?query=${MATRIX.prefix.toLowerCase()}`);
    assert(exported.status === 200 && typeof exported.body === 'string' && exported.body.includes('year: 1984'), `export: ${exported.status}`);
    return { sunrise, sunset, yaml: (exported.body as string).replace('year: 1984', 'year: 1985') };
  })();
  return matrixData;
}

interface MatrixScreen {
  name: string;
  open(page: Page, lang: Lang, data: MatrixData): Promise<void>;
  /** Leaves the page as a next screen can start from (dialogs closed). */
  close?(page: Page, lang: Lang): Promise<void>;
}

const escapeAll = async (page: Page): Promise<void> => {
  for (let i = 0; i < 3 && (await page.locator('[role=dialog], [role=alertdialog]').count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(150);
  }
  await page.locator('[role=dialog], [role=alertdialog]').first().waitFor({ state: 'detached' });
};

async function browseMatrix(page: Page, lang: Lang): Promise<void> {
  await gotoReady(page, `/hits?q=${MATRIX.prefix.toLowerCase()}`);
  await page.getByRole('link', { name: `${MATRIX.prefix} Sunrise` }).waitFor();
}

async function packFilter(page: Page, lang: Lang): Promise<Locator> {
  await browseMatrix(page, lang);
  await page.getByRole('button', { name: hl(lang, 'filter.button_all') }).click();
  const dialog = page.getByRole('dialog', { name: hl(lang, 'filter.title') });
  await dialog.getByRole('checkbox', { name: hl(lang, 'packs.entry', { name: MATRIX.packs[1], count: 1 }) }).waitFor();
  return dialog;
}

async function detail(page: Page, lang: Lang, id: string): Promise<void> {
  await gotoReady(page, `/hits/${id}`);
  await page.getByRole('button', { name: hl(lang, 'detail.edit') }).waitFor();
}

const SCREENS: readonly MatrixScreen[] = [
  {
    name: 'browse',
    // the whole catalogue: the table and the pager with ellipses
    open: async (page, lang) => {
      await gotoReady(page, '/hits?p=3');
      await page.getByRole('navigation', { name: hl(lang, 'pager.label') }).waitFor();
      await page.locator('main').getByRole('link').nth(3).waitFor();
    },
  },
  { name: 'browse-search', open: (page, lang) => browseMatrix(page, lang) },
  {
    name: 'pack-filter',
    open: async (page, lang) => void (await packFilter(page, lang)),
    close: escapeAll,
  },
  {
    name: 'pack-create',
    open: async (page, lang) => {
      const dialog = await packFilter(page, lang);
      await dialog.getByRole('button', { name: hl(lang, 'packs.create') }).click();
      await page.getByRole('dialog', { name: hl(lang, 'packs.create_title') }).getByLabel(hl(lang, 'packs.name')).fill('Matrix Pack 3');
    },
    close: escapeAll,
  },
  {
    name: 'pack-rename',
    open: async (page, lang) => {
      const dialog = await packFilter(page, lang);
      await dialog.getByRole('button', { name: hl(lang, 'packs.rename_label', { name: MATRIX.packs[1] }) }).click();
      await dialog.getByRole('textbox', { name: hl(lang, 'packs.rename_label', { name: MATRIX.packs[1] }) }).waitFor();
    },
    close: escapeAll,
  },
  {
    name: 'pack-delete',
    open: async (page, lang) => {
      const dialog = await packFilter(page, lang);
      await dialog.getByRole('button', { name: hl(lang, 'packs.delete_label', { name: MATRIX.packs[1] }) }).click();
      await page.getByRole('alertdialog', { name: hl(lang, 'packs.delete_title') }).waitFor();
    },
    close: async (page, lang) => {
      await page.getByRole('alertdialog').getByRole('button', { name: hl(lang, 'common.no') }).click();
      await escapeAll(page);
    },
  },
  {
    // the pack chooser in browse mode: one hit's packs as links
    name: 'hit-packs',
    open: async (page, lang) => {
      await browseMatrix(page, lang);
      await page.getByRole('button', { name: hl(lang, 'table.packs_button', { count: 2, title: `${MATRIX.prefix} Sunrise` }) }).first().click();
      const dialog = page.getByRole('dialog', { name: hl(lang, 'table.packs_title', { artist: 'Matrix Band', title: `${MATRIX.prefix} Sunrise` }) });
      await dialog.getByRole('link', { name: hl(lang, 'packs.entry', { name: MATRIX.packs[0], count: 2 }) }).waitFor();
    },
    close: escapeAll,
  },
  {
    name: 'import-diff',
    open: async (page, lang, data) => {
      await browseMatrix(page, lang);
      await page.getByRole('button', { name: hl(lang, 'import.button') }).click();
      const dialog = page.getByRole('dialog', { name: hl(lang, 'import.title') });
      await dialog.getByLabel(hl(lang, 'import.file')).setInputFiles({ name: 'hits.yml', mimeType: 'application/x-yaml', buffer: Buffer.from(data.yaml) });
      await dialog.getByText(hl(lang, 'import.ready', { count: 0, changed: 1 })).waitFor();
    },
    close: escapeAll,
  },
  {
    name: 'import-address',
    // the same diff, fetched from an address (the test's file server), with where it came from
    open: async (page, lang, data) => {
      served = data.yaml;
      await browseMatrix(page, lang);
      await page.getByRole('button', { name: hl(lang, 'import.button') }).click();
      const dialog = page.getByRole('dialog', { name: hl(lang, 'import.title') });
      const field = dialog.getByRole('region', { name: hl(lang, 'import.from_address') }).getByLabel(hl(lang, 'import.address'));
      await field.fill(servedAt);
      await dialog.getByRole('button', { name: hl(lang, 'import.check_address') }).click();
      await dialog.getByText(hl(lang, 'import.ready', { count: 0, changed: 1 })).waitFor();
      await dialog.getByText(hl(lang, 'import.from', { url: servedAt })).waitFor();
    },
    close: escapeAll,
  },
  {
    name: 'create',
    // filled in, with an invalid video URL: its message and the disabled Save
    open: async (page, lang) => {
      await gotoReady(page, '/hits/create');
      await page.getByLabel(hl(lang, 'fields.title')).fill(`${MATRIX.prefix} Draft`);
      await page.getByLabel(hl(lang, 'fields.artist')).fill('Matrix Band');
      await page.getByLabel(hl(lang, 'fields.year')).fill('1999');
      await page.getByLabel(hl(lang, 'fields.video_url')).fill('https://youtu.be/short');
      await page.getByText(hl(lang, 'form.errors.video_url')).waitFor();
    },
  },
  {
    name: 'detail-audio',
    open: async (page, lang, data) => {
      await detail(page, lang, data.sunset);
      const player = page.locator('audio');
      await eventually(async () => assert(await player.evaluate((a: HTMLAudioElement) => a.readyState >= HTMLMediaElement.HAVE_METADATA), 'the audio metadata loaded'));
    },
  },
  {
    name: 'detail-video',
    // a failed download with its reason and retry, and the YouTube placeholder (no internet here)
    open: async (page, lang, data) => {
      await detail(page, lang, data.sunrise);
      await page.getByText(hl(lang, 'audio.state.failed'), { exact: true }).waitFor();
      await page.getByText(hl(lang, 'video.failed')).waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'edit',
    open: async (page, lang, data) => {
      await detail(page, lang, data.sunrise);
      await page.getByRole('button', { name: hl(lang, 'detail.edit') }).click();
      await page.getByText(hl(lang, 'video.failed')).waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'delete-confirm',
    open: async (page, lang, data) => {
      await detail(page, lang, data.sunset);
      await page.getByRole('button', { name: hl(lang, 'detail.delete') }).click();
      await page.getByRole('alertdialog', { name: hl(lang, 'detail.delete_title') }).waitFor();
    },
    close: async (page, lang) => {
      await page.getByRole('alertdialog').getByRole('button', { name: hl(lang, 'common.no') }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'status',
    open: async (page, lang, data) => {
      await gotoReady(page, '/hits/status');
      await page.getByRole('link', { name: hl(lang, 'hit_name', { artist: 'Matrix Band', title: `${MATRIX.prefix} Sunrise` }) }).waitFor();
    },
  },
  {
    name: 'not-found',
    open: async (page, lang) => {
      await gotoReady(page, '/hits/00000000-0000-4000-8000-000000000000');
      await page.getByText(`404 ${hl(lang, 'detail.not_found')}`).waitFor();
    },
  },
];
const WIDTHS = [1280, 375] as const;

/**
 * The harness's full-page screenshot, except with a dialog open: the viewport
 * alone, as a person sees it (a full page would show the page running on below
 * the modal, which nobody can scroll to).
 */
async function shoot(page: Page, name: string): Promise<void> {
  if ((await page.locator('[role=dialog], [role=alertdialog]').count()) === 0) {
    await screenshot(page, name);
    return;
  }
  const file = join(RESULTS_DIR, `${name}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
}

/**
 * Interactive elements a finger cannot hit: buttons, form controls and
 * checkboxes smaller than 44 × 44 px, and links that stand alone (not inside
 * running text) less than 44 px high.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MIN = 44;
    const out: string[] = [];
    const candidates = document.querySelectorAll<HTMLElement>('button, a[href], select, input:not([type=hidden]), textarea, audio[controls], [role=button], [data-scope=checkbox][data-part=root]');
    for (const el of candidates) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // visually hidden inputs (the checkbox's own input): the visible root is the target
      if (r.width <= 2 || r.height <= 2) continue;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) continue;
      const link = el.tagName === 'A';
      // a link in a sentence is exempt (WCAG 2.5.5 "inline"): its parent has text of its own
      if (link && [...(el.parentElement?.childNodes ?? [])].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '')) continue;
      // a text link is as wide as its words ("Help!"); its height is what a finger needs
      if (r.height < MIN - 0.5 || (!link && r.width < MIN - 0.5)) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        out.push(`<${el.tagName.toLowerCase()}> "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return out;
  });
}

for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  test(
    `every catalogue screen in ${lang}, light and dark, ${WIDTHS.join(' and ')} px: screenshot, axe, no sideways scrolling, 44 px targets`,
    async () => {
      const data = await matrixSetup();
      const b = await browserFor({ locale: lang, width: WIDTHS[0] });
      const page = b.page;
      await logIn(page, lang);
      const problems: AxeProblem[] = [];
      const other: string[] = [];
      for (const screen of SCREENS) {
        await page.setViewportSize({ width: WIDTHS[0], height: 900 });
        await page.emulateMedia({ colorScheme: 'light' });
        await screen.open(page, lang, data);
        await dismissToasts(page, lang);
        const docLang = await page.evaluate(() => document.documentElement.lang);
        if (docLang !== lang) other.push(`${screen.name}: <html lang="${docLang}">`);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: width < 600 ? 800 : 900 });
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            // the app follows the system's scheme on its media query's change event, a frame later
            const followed = await page
              .waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark', { timeout: 3_000 })
              .then(() => true, () => false);
            if (!followed) other.push(`${screen.name} at ${width} px: the page did not follow the ${scheme} scheme`);
            await settle(page);
            const label = `${screen.name}-${lang}-${width}-${scheme}`;
            await shoot(page, `catalogue/${label}`);
            problems.push(...(await axeScan(page, `catalogue-${label}`)));
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            if (overflow > 0) other.push(`${label}: ${overflow} px of horizontal scrolling`);
            if (scheme === 'light') for (const small of await smallTargets(page)) other.push(`${label}: small touch target ${small}`);
          }
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await screen.close?.(page, lang);
      }
      if (problems.length || other.length) throw new Error([formatAxe(problems), ...other].filter(Boolean).join('\n'));
    },
    { timeoutMs: 300_000 },
  );
}

await runTests(import.meta.filename);
