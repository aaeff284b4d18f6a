/**
 * The `dj` clue mode end to end (issue 27 §2), in Debian's Chromium against the
 * real server (demo catalogue: no audio, YouTube ids for most hits) and a local
 * stand-in of YouTube's IFrame Player API (youtube-standin.ts; the server's
 * YOUTUBE_IFRAME_API and YOUTUBE_PLAYER_HOST point at it, so nothing reaches
 * YouTube):
 *
 * * the creator chooses a DJ in the settings and starts; his page (the DJ's)
 *   loads the API (through the page's CSP), shows the player visible and at
 *   least 200×200, plays the hidden hit from its playback offset when he presses
 *   play (onStateChange PLAYING at the offset), stops it after hit_duration by
 *   itself, plays and stops it with Alt+Shift+H, and cues the next hit after a
 *   turn;
 * * the other player's page says who the DJ is, has no player and no play
 *   button, says so on Alt+Shift+H, and in every WebSocket frame and every
 *   HTTP answer it got, never a hidden hit's YouTube id;
 * * both pages pass axe; the DJ's screens are photographed in English and
 *   German, light and dark, on a phone and a laptop.
 *
 *   npm run build && node tests/e2e/dj.e2e.ts
 */
import { matchMaker } from '@colyseus/core';
import type { Page } from 'playwright-core';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import type { Game } from '../../shared/rules/types.ts';
import {
  afterAll,
  assert,
  assertEqual,
  axeScan,
  eventually,
  formatAxe,
  gotoReady,
  joinByLink,
  openBrowser,
  runTests,
  screenshot,
  settle,
  sidewaysOverflow,
  smallTouchTargets,
  startApp,
  t,
  test,
  type App,
  type Lang,
} from './harness.ts';
import { startYoutubeStandin, type YoutubeStandin } from './youtube-standin.ts';

let standin: YoutubeStandin | undefined;
let app: App | undefined;
async function getApp(): Promise<App> {
  standin ??= await startYoutubeStandin();
  app ??= await startApp({ YOUTUBE_IFRAME_API: standin.api, YOUTUBE_PLAYER_HOST: standin.origin });
  return app;
}
afterAll(async () => {
  await app?.stop();
  await standin?.close();
});

const HIT_SECONDS = 3;
const engine = (id: string): Game => (matchMaker.getLocalRoomById(id) as GameRoom).game;
const people = (key: string, vars: Record<string, string | number> = {}, lang: Lang = 'en'): string => t(lang, key, vars, 'people');

interface LogEntry {
  state: number;
  time: number;
  videoId: string;
  at: number;
}
const standinLog = (page: Page): Promise<LogEntry[]> => page.evaluate(() => (window as unknown as { __ytStandin?: { log: LogEntry[] } }).__ytStandin?.log ?? []);
const PLAYING = 1;
const PAUSED = 2;

/** Creates a Public game from the lobby; returns its id. */
async function createGame(page: Page, lang: Lang): Promise<string> {
  await gotoReady(page, '/');
  await page.getByRole('button', { name: t(lang, 'lobby.create') }).click();
  await page.getByRole('menuitem', { name: new RegExp(t(lang, 'lobby.create_Public')) }).click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
  await page.getByRole('heading', { level: 1, name: people('headline.start_you', {}, lang) }).waitFor();
  return page.url().split('/').pop() as string;
}

/** The creator chooses a DJ (himself, playing along unless `sitOut`) and a short hit duration. */
async function chooseDj(page: Page, lang: Lang, sitOut = false, shot?: string): Promise<void> {
  await page.getByRole('button', { name: t(lang, 'game.settings_button') }).click();
  const dialog = page.getByRole('dialog', { name: t(lang, 'game.settings.title') });
  await dialog.waitFor();
  await dialog.getByLabel(t(lang, 'game.settings.hit_duration')).fill(String(HIT_SECONDS));
  await dialog.getByLabel(t(lang, 'game.settings.goal')).fill('3');
  // a person clicks the choice's label (the radio control itself is drawn over the input)
  await dialog.getByText(t(lang, 'table:dj.settings.choice'), { exact: true }).click();
  assert(await dialog.getByRole('radio', { name: t(lang, 'table:dj.settings.choice') }).isChecked(), 'the DJ is chosen');
  await dialog.getByRole('radiogroup', { name: t(lang, 'table:dj.settings.who') }).waitFor();
  if (sitOut) {
    await dialog.getByText(t(lang, 'table:dj.settings.plays'), { exact: true }).click();
    assert(!(await dialog.getByRole('checkbox', { name: t(lang, 'table:dj.settings.plays') }).isChecked()), 'the DJ sits out');
  }
  if (shot) {
    // the dialog as the creator sees it with a DJ chosen: what the DJ mode trusts, who, and whether he plays
    await dialog.getByText(t(lang, 'table:dj.settings.trust')).scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, `screens/${shot}`);
    const problems = await axeScan(page, shot);
    if (problems.length) throw new Error(formatAxe(problems));
  }
  await dialog.getByRole('button', { name: t(lang, 'game.settings.save') }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The player frame on the DJ's page: visible, at least 200×200, and nothing on top of its middle. */
async function checkPlayerVisible(page: Page, what: string): Promise<void> {
  const frame = page.getByTestId('dj-player').locator('iframe');
  await frame.waitFor();
  const box = await frame.boundingBox();
  assert(box && box.width >= 200 && box.height >= 200, `${what}: the player is ${box?.width}×${box?.height} px, at least 200×200 needed`);
  const onTop = await frame.evaluate((el) => {
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: hit === el, visible: style.visibility !== 'hidden' && style.opacity !== '0' && style.display !== 'none' };
  });
  assert(onTop.visible && onTop.top, `${what}: the player is hidden or covered`);
}

test('the DJ plays the hidden hit from YouTube (the stand-in) from its offset for hit_duration; the other player never receives its video', async () => {
  const a = await openBrowser(await getApp(), { width: 1280 });
  const b = await openBrowser(await getApp(), { width: 390, height: 844, touch: true });
  // everything B's page receives: WebSocket frames and HTTP answers
  const received: { what: string; text: string }[] = [];
  b.page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => received.push({ what: `ws ${ws.url()}`, text: typeof f.payload === 'string' ? f.payload : f.payload.toString('latin1') }));
  });
  b.page.on('response', (r) => {
    void r
      .body()
      .then((body) => received.push({ what: `${r.status()} ${r.url()}`, text: body.toString('latin1') }))
      .catch(() => undefined);
  });
  const pa = a.page;
  const pb = b.page;

  const id = await createGame(pa, 'en');
  await chooseDj(pa, 'en');
  await joinByLink(pb, `/game/${id}`, { name: 'Bea' });
  const creator = await pa.evaluate(async () => ((await (await fetch('/api/users/me')).json()) as { name: string }).name);
  await pa.getByRole('button', { name: t('en', 'game.start') }).click();

  // the DJ's page: the player, visible, and what the DJ must know
  await pa.getByRole('heading', { name: t('en', 'table:dj.you_are') }).waitFor();
  await pa.getByText(t('en', 'table:dj.turn_away', { count: HIT_SECONDS })).waitFor();
  await checkPlayerVisible(pa, 'the DJ at 1280 px');
  const videos = new Set<string>();
  const first = engine(id).current!;
  videos.add(first.yt_id!);
  // cued at the hidden hit's offset, not playing
  await eventually(async () => assert((await standinLog(pa)).some((e) => e.state === 5 && e.videoId === first.yt_id), 'the hidden hit is cued'));
  assertEqual(await pa.getByTestId('dj-player').locator('iframe').getAttribute('src').then((s) => new URL(s ?? '').origin), standin!.origin, 'the frame comes from the player host');

  // play: after the cue's lead the stand-in reports PLAYING at the offset; it stops by itself after hit_duration
  const play = pa.getByTestId('dj-play');
  assertEqual((await play.textContent())?.trim(), t('en', 'game.hit.play'), 'the play button');
  await play.click();
  await eventually(async () => assert((await standinLog(pa)).some((e) => e.state === PLAYING), 'PLAYING'));
  const log1 = await standinLog(pa);
  const playing = log1.find((e) => e.state === PLAYING)!;
  assertEqual(playing.videoId, first.yt_id, 'the video played');
  assert(Math.abs(playing.time - (first.playback_offset ?? 0)) < 0.5, `PLAYING at ${playing.time} s, the offset is ${first.playback_offset}`);
  await eventually(async () => assertEqual((await play.textContent())?.trim(), t('en', 'game.hit.stop'), 'the stop button while it plays'));
  await eventually(async () => assert((await standinLog(pa)).some((e) => e.state === PAUSED && e.at > playing.at), 'stopped'), (HIT_SECONDS + 3) * 1000);
  const stopped = (await standinLog(pa)).find((e) => e.state === PAUSED && e.at > playing.at)!;
  const played = (stopped.at - playing.at) / 1000;
  assert(played >= HIT_SECONDS - 0.1 && played < HIT_SECONDS + 1, `played ${played} s, hit_duration is ${HIT_SECONDS}`);
  assert(Math.abs(stopped.time - (first.playback_offset ?? 0) - HIT_SECONDS) < 1, `stopped at ${stopped.time} s`);
  await eventually(async () => assertEqual((await play.textContent())?.trim(), t('en', 'game.hit.play'), 'the play button again'));

  // Alt+Shift+H plays it again from the offset, and stops it
  const before = (await standinLog(pa)).length;
  await pa.keyboard.press('Alt+Shift+H');
  await eventually(async () => assert((await standinLog(pa)).slice(before).some((e) => e.state === PLAYING), 'PLAYING after Alt+Shift+H'));
  const again = (await standinLog(pa)).slice(before).find((e) => e.state === PLAYING)!;
  assert(Math.abs(again.time - (first.playback_offset ?? 0)) < 0.5, `again from the offset: ${again.time}`);
  await pa.keyboard.press('Alt+Shift+H');
  await eventually(async () => assert((await standinLog(pa)).slice(before).some((e) => e.state === PAUSED), 'stopped by Alt+Shift+H'));

  // the other player: who the DJ is, no player, no play button; Alt+Shift+H says whose device plays
  await pb.getByText(t('en', 'table:dj.other', { name: creator })).waitFor();
  assertEqual(await pb.getByTestId('dj-player').count(), 0, 'no player on B');
  assertEqual(await pb.getByRole('button', { name: t('en', 'game.hit.play') }).count(), 0, 'no play button on B');
  await pb.keyboard.press('Alt+Shift+H');
  await pb.getByText(t('en', 'table:dj.not_dj', { name: creator })).first().waitFor();
  assertEqual(await pb.evaluate(() => 'YT' in window), false, 'B never loads the player API');
  // the players list says who the DJ is
  await pa.getByTestId('dj-badge').first().waitFor();

  // a turn passes: the DJ's player cues the next hidden hit
  const turnPlayer = engine(id).players.find((p) => p.turn_player)!;
  const turnPage = (await pa.evaluate(async () => ((await (await fetch('/api/users/me')).json()) as { id: string }).id)) === turnPlayer.id ? pa : pb;
  const act = (path: string, body: unknown) => turnPage.request.post(`/api/games/${id}/${path}`, { data: body, headers: { Origin: app!.base } });
  assertEqual((await act('skip', {})).status(), 200, 'skip');
  const next = engine(id).current!;
  videos.add(next.yt_id!);
  assert(next.yt_id !== first.yt_id, 'a new hidden hit');
  await eventually(async () => assert((await standinLog(pa)).some((e) => e.state === 5 && e.videoId === next.yt_id), 'the next hit is cued'));

  await settle(pa);
  const problems = [...(await axeScan(pa, 'dj-page')), ...(await axeScan(pb, 'dj-other-page'))];
  if (problems.length) throw new Error(formatAxe(problems));

  // nothing B received ever named a hidden video (checked against A's answers, which did)
  await pb.waitForTimeout(500);
  assert(received.length > 20, `B received ${received.length} frames and answers`);
  for (const video of videos) {
    const leaks = received.filter((r) => r.text.includes(video)).map((r) => r.what);
    assertEqual(leaks, [], `B received the hidden video ${video}`);
  }
  assert(standin!.requests.includes('/iframe_api') && standin!.requests.some((p) => p.startsWith('/s/player/')), 'the API and its player script came from the stand-in');
}, { timeoutMs: 120_000 });

test('the DJ screens in English and German, light and dark, phone and laptop: visible player, axe, nothing sideways, 44 px targets', async () => {
  for (const lang of ['en', 'de'] as const) {
    for (const [width, height, scheme] of [[390, 844, 'dark'], [1366, 800, 'light'], [390, 844, 'light'], [1366, 800, 'dark']] as const) {
      const touch = width < 500;
      const a = await openBrowser(await getApp(), { width, height, locale: lang, colorScheme: scheme, touch });
      const b = await openBrowser(await getApp(), { width: 390, height: 844, locale: lang });
      const id = await createGame(a.page, lang);
      await chooseDj(a.page, lang, width === 390 && scheme === 'dark', `dj-settings-${lang}-${width}-${scheme}`);
      await joinByLink(b.page, `/game/${id}`, { lang, name: 'Bea' });
      // a DJ who sits out needs two other players
      const c = width === 390 && scheme === 'dark' ? await openBrowser(await getApp(), { width: 390, height: 844, locale: lang }) : null;
      if (c) await joinByLink(c.page, `/game/${id}`, { lang, name: 'Cem' });
      await a.page.getByRole('button', { name: t(lang, 'game.start') }).click();
      const out = width === 390 && scheme === 'dark';
      await a.page.getByRole('heading', { name: t(lang, out ? 'table:dj.you_are_out' : 'table:dj.you_are') }).waitFor();
      await checkPlayerVisible(a.page, `${lang} ${width} ${scheme}`);
      await eventually(async () => assert((await standinLog(a.page)).some((e) => e.state === 5), 'cued'));
      await settle(a.page);
      const name = `dj-${lang}-${width}-${scheme}`;
      await screenshot(a.page, `screens/${name}`);
      await screenshot(b.page, `screens/${name}-other`);
      const problems = await axeScan(a.page, name);
      if (problems.length) throw new Error(formatAxe(problems));
      const sideways = await sidewaysOverflow(a.page);
      assertEqual(sideways, [], `${name}: sideways`);
      if (touch) {
        const small = (await smallTouchTargets(a.page)).filter((s) => !s.includes('iframe'));
        assertEqual(small, [], `${name}: small touch targets`);
      }
      await a.close();
      await b.close();
      await c?.close();
    }
  }
}, { timeoutMs: 300_000 });

await runTests(import.meta.url);
