/**
 * The catalogue screens end to end, through the UI only, against the real
 * server (in this process, with the demo catalogue) in Debian's Chromium:
 *
 * * a curator (all permissions) creates a pack, creates three hits (one with an
 *   uploaded audio file that the pipeline makes playable), finds them by prefix
 *   search, sorts by year descending, reorders the sort priority by keyboard,
 *   filters by two packs, edits one, deletes one, exports hits.yml and imports
 *   it again (changed) with the diff shown;
 * * an anonymous visitor browses without write controls, is sent away from
 *   /hits/create, and meets the 404 of an unknown hit;
 * * the header's download indicator leads to the status page, which moves on
 *   to the hit list once everything is ready;
 * * axe scans (no serious or critical findings) and screenshots at 375 and
 *   1280 px in light and dark of every catalogue screen.
 *
 *   npm run build && node tests/e2e/catalogue.e2e.ts     (exits non-zero on failure)
 *
 * Screenshots go to test-results/e2e/catalogue-*.png.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { ALL_PERMISSIONS } from '../../server/services/users.ts';
import { afterAll, assert, assertEqual, eventually, expectAccessible, gotoReady, openBrowser, ROOT, runTests, screenshot, settle, startApp, t, test, type App, type Browser } from './harness.ts';

const en = (key: string, vars: Record<string, string | number> = {}): string => t('en', key, vars);

/** The catalogue screens' own messages (namespace `hits`, locales/hits.en.json), as the harness's `t` reads the main ones. */
const hitsMessages = JSON.parse(readFileSync(join(ROOT, 'locales', 'hits.en.json'), 'utf8')) as Record<string, unknown>;
function h(key: string, vars: Record<string, string | number> = {}): string {
  const lookup = (k: string): unknown => k.split('.').reduce<unknown>((v, part) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined), hitsMessages);
  const plural = typeof vars.count === 'number' ? lookup(`${key}_${vars.count === 1 ? 'one' : 'other'}`) : undefined;
  const text = plural ?? lookup(key);
  if (typeof text !== 'string') throw new Error(`no message ${key} in hits.en.json`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`));
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (text: string): RegExp => new RegExp(`^${escape(text)}$`);

const CURATOR = 'curator';
const PASSWORD = 'correct horse battery';
/** A prefix no demo hit has, so the search finds exactly the hits made here. */
const PREFIX = 'Zyxq';
const PACK = 'E2E Pack';

const app: App = await startApp();
afterAll(() => app.stop());
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

/** Records every text the live regions receive (they keep only the last three), in `window.__said`. */
async function recordAnnouncements(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
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

async function logIn(page: Page): Promise<void> {
  await gotoReady(page, '/login');
  await page.getByLabel(en('auth.username')).fill(CURATOR);
  await page.getByLabel(en('auth.password'), { exact: false }).fill(PASSWORD);
  await page.getByRole('button', { name: en('login.submit'), exact: true }).last().click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: en('user.logged_in_as', { name: CURATOR }) }).waitFor();
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
async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: en('common.dismiss') });
  while ((await close.count()) > 0) await close.first().click();
}

/** Every catalogue screen at both widths and in both schemes; the page must never scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  await dismissToasts(page);
  const original = page.viewportSize();
  for (const width of [375, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await screenshot(page, `catalogue-${name}-${width}-${scheme}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
    }
  }
  if (original) await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
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
    await recordAnnouncements(page);
    try {
      await logIn(page);

      // ---- browse: the write controls are there
      await gotoReady(page, '/hits');
      await page.getByRole('link', { name: h('browse.create') }).waitFor();
      await page.getByRole('button', { name: h('export.button') }).waitFor();
      await page.getByRole('button', { name: h('import.button') }).waitFor();
      await summary(page).waitFor();
      await scan(page, 'browse');
      await shots(page, 'browse');

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
      await scan(page, 'pack-chooser');
      await shots(page, 'pack-chooser');
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
      await shots(page, 'create');

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
      await scan(page, 'detail');
      await shots(page, 'detail');

      // ---- the status page: this server has no YouTube downloader, so the two hits with a video failed
      await gotoReady(page, '/hits/status');
      const failures = page.getByRole('region', { name: h('status.failures', { count: 2 }) });
      await failures.waitFor();
      await failures.getByRole('link', { name: h('hit_name', { artist: 'E2E Band', title: `${PREFIX}a Morning` }) }).waitFor();
      await page.getByText(h('status.youtube_off')).waitFor();
      await scan(page, 'status-failures');
      await shots(page, 'status-failures');
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
      await page.keyboard.press('Space');
      // dnd-kit's own live region tells screen readers what happens
      const dndRegion = page.locator('[id^=DndLiveRegion]');
      await eventually(async () => assertEqual(await dndRegion.textContent(), h('sort.picked_up', { field: 'Year', position: 4, count: 4 }), 'pick-up announced'));
      for (let i = 0; i < 24; i++) {
        await page.keyboard.press('ArrowLeft');
        await page.waitForTimeout(40);
      }
      await page.keyboard.press('Space');
      await eventually(async () => assertEqual(await dndRegion.textContent(), h('sort.dropped', { field: 'Year', position: 1, count: 4 }), 'drop announced'));
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
      await shots(page, 'browse-filtered');
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
      await page.getByRole('link', { name: PACK }).waitFor();
      await page.getByRole('button', { name: h('detail.edit') }).click();
      const year = page.getByLabel(h('fields.year'));
      await year.fill('1992');
      await page.getByLabel(h('fields.video_url')).fill('https://www.youtube.com/v/AAAAAAAAAA');
      assert(await save.isDisabled(), 'Save disabled with a 10-character id');
      await page.getByLabel(h('fields.video_url')).fill('https://www.youtube.com/v/AAAAAAAAAA1');
      await shots(page, 'edit');
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
      await importDialog.getByText(h('import.ready', { added: 0, changed: 1 })).waitFor();
      await importDialog.getByRole('heading', { name: h('import.changed_hits', { count: 1 }) }).waitFor();
      await importDialog.getByText(h('import.change', { field: 'year', before: 1992, after: 1993 })).waitFor();
      await scan(page, 'import-diff');
      await shots(page, 'import-diff');
      await apply.click();
      await importDialog.getByText(h('import.applied', { added: 0, changed: 1 })).first().waitFor();
      await importDialog.getByRole('button', { name: h('common.close'), exact: true }).last().click();
      await importDialog.waitFor({ state: 'detached' });
      await eventually(async () => assert((await page.getByRole('table').innerText()).includes('1993'), 'the list shows the imported year'));
      // the same file again changes nothing
      await page.getByRole('button', { name: h('import.button') }).click();
      await importDialog.getByLabel(h('import.file')).setInputFiles({ name: 'hits.yml', mimeType: 'application/x-yaml', buffer: Buffer.from(changed) });
      await importDialog.getByText(h('import.nothing')).waitFor();
      assert(await apply.isDisabled(), 'nothing to apply the second time');
      await page.keyboard.press('Escape');
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
  await page.getByRole('button', { name: en('hit_status.finished') }).click();
  await page.getByRole('link', { name: h('status.link') }).click();
  await page.waitForURL('**/hits/status');
  await page.getByRole('heading', { level: 1, name: h('status.title') }).waitFor();
  await page.getByText(h('status.ready'), { exact: true }).waitFor();
  assertEqual(await page.getByRole('progressbar').count(), 2, 'progress bars');
  await screenshot(page, 'catalogue-status-ready-1280-light');
  await page.waitForURL((url) => url.pathname === '/hits', { timeout: 10_000 });
});

await runTests(import.meta.filename);
