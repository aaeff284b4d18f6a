/**
 * The TV view (/game/{id}/tv) of a party in the `audio` clue mode, against a
 * catalogue with processed audio (the harness's tone as every hit). One host's
 * browser at 1920×1080 has the game screen and, opened by "Show on TV", the TV
 * view; a second player joins over REST; a German viewer watches on a laptop.
 *
 * * the TV shows the game with its QR code, which decodes (jsQR, from the
 *   screen's own pixels) to the controller address the server's join address gives;
 * * it asks for a tap or key press before sound, then each draw's hidden clip
 *   is requested and plays on the TV by itself;
 * * the creator's shortcuts start the game from the TV, and a seated host places
 *   and confirms by keyboard there; the TV's live region says the turn, and
 *   what its feed shows was said;
 * * a reload comes back to the same turn; axe finds nothing serious in dark and
 *   light; screenshots of Open, mid-turn, the reveal and the win (dark/light,
 *   en/de, 1920×1080 and 1366×800) go to test-results/e2e/tv/.
 */
import type { Page } from 'playwright-core';
import type { GamePayload, JoinAddress } from '../../shared/protocol/game.ts';
import { User } from '../server/harness.ts';
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
import { howl, lockAudioUntilGesture, pressUntilTaken, readQr, setScheme } from './devices.ts';

/** A message as the app finds it: the shell's, else the game screen's `table` namespace (the fallback namespace). */
function msg(lang: 'en' | 'de', key: string, vars: Record<string, string | number> = {}): string {
  try {
    return t(lang, key, vars);
  } catch {
    return t(lang, key, vars, 'table');
  }
}
const en = (key: string, vars: Record<string, string | number> = {}): string => msg('en', key, vars);
const de = (key: string, vars: Record<string, string | number> = {}): string => msg('de', key, vars);

let app: App | undefined;
afterAll(async () => {
  await app?.stop();
});

async function gameOf(user: User, id: string): Promise<GamePayload> {
  const r = await user.request<GamePayload>('GET', `/api/games/${id}`);
  assertEqual(r.status, 200, `GET /api/games/${id}`);
  return r.body;
}

async function until(user: User, id: string, ok: (g: GamePayload) => boolean, what: string, ms = 15_000): Promise<GamePayload> {
  let now: GamePayload | undefined;
  await eventually(async () => {
    now = await gameOf(user, id);
    assert(ok(now), `${what}: the game is ${now.state}`);
  }, ms);
  return now as GamePayload;
}

const shot = async (page: Page, name: string): Promise<void> => {
  await settle(page);
  await screenshot(page, `tv/${name}`);
};

/** axe in both schemes (the default dark stage, the light setting); problems collected. */
async function scan(page: Page, label: string, problems: string[]): Promise<void> {
  for (const scheme of ['auto', 'light'] as const) {
    await setScheme(page, scheme);
    await settle(page);
    const found = await axeScan(page, `tv-${label}-${scheme === 'auto' ? 'dark' : 'light'}`);
    if (found.length) problems.push(formatAxe(found));
  }
  await setScheme(page, 'auto');
}

/** The next move: the host's by the TV's keyboard (he plays from the TV page; declining on his game screen), the other's over REST. */
async function move(tv: Page, screen: Page, other: User, id: string, g: GamePayload): Promise<void> {
  const host = g.players.find((p) => p.id !== other.id);
  const guest = g.players.find((p) => p.id === other.id);
  // (the TV's room may be a moment behind the REST answer: keys pressed again until taken, as a player told "not right now")
  const before = JSON.stringify(g);
  const changed = async (): Promise<boolean> => JSON.stringify(await gameOf(other, id)) !== before;
  if (host?.state === 'Guessing') {
    const keys = async (): Promise<void> => {
      await tv.keyboard.press('Alt+Shift+ArrowDown');
      await tv.keyboard.press('Alt+Shift+Enter');
    };
    assert(await pressUntilTaken(keys, changed), 'the host placed from the TV');
  } else if (host?.state === 'Intercepting') {
    await screen.getByRole('button', { name: en('game.guess.dont_intercept'), exact: true }).click();
  } else if (host?.state === 'Confirming') {
    assert(await pressUntilTaken(() => tv.keyboard.press('Alt+Shift+Y'), changed), 'the host confirmed from the TV');
  } else if (guest?.state === 'Guessing') {
    assertEqual((await other.request('POST', `/api/games/${id}/guess`, { id: guest.slots[0]?.id ?? null })).status, 200, 'guest guesses');
  } else if (guest?.state === 'Intercepting') {
    assertEqual((await other.request('POST', `/api/games/${id}/guess`, { id: null })).status, 200, 'guest declines');
  } else if (guest?.state === 'Confirming') {
    assertEqual((await other.request('POST', `/api/games/${id}/confirm`, { confirm: true })).status, 200, 'guest confirms');
  }
}

test(
  'a party on the TV: QR code, sound after one key, the clip plays by itself, shortcuts and live region, reload, reveal and win',
  async () => {
    app = await startApp();
    await giveHitsAudio(app, 30);
    const problems: string[] = [];
    // the system prefers light: the TV is dark all the same (its default stage)
    const host = await openBrowser(app, { width: 1920, height: 1080, colorScheme: 'light' });
    await lockAudioUntilGesture(host);
    await recordAnnouncements(host.context);
    // what the page asks the browser's speech to say (recorded, then spoken as asked)
    await host.context.addInitScript(() => {
      const w = window as unknown as { __spoken: string[] };
      w.__spoken = [];
      const speak = speechSynthesis.speak.bind(speechSynthesis);
      speechSynthesis.speak = (u: SpeechSynthesisUtterance) => {
        w.__spoken.push(`${u.lang}|${u.text}`);
        speak(u);
      };
    });
    const page = host.page;

    // a Public game; short goal and enough tokens to end it by a claim
    await gotoReady(page, '/');
    await page.getByRole('button', { name: en('lobby.create') }).click();
    await page.getByRole('menuitem', { name: new RegExp(en('lobby.create_Public')) }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = page.url().split('/').pop() as string;
    await page.getByRole('button', { name: en('game.settings_button') }).click();
    const settings = page.getByRole('dialog', { name: en('game.settings.title') });
    await settings.getByLabel(en('game.settings.goal')).fill('3');
    await settings.getByLabel(en('game.settings.start_tokens')).fill('6');
    await settings.getByLabel(en('game.settings.hit_duration')).fill('6');
    await settings.getByLabel(en('game.settings.confirm_timeout')).fill('600');
    await settings.getByLabel(en('game.settings.reveal_time')).fill('4');
    await settings.getByRole('button', { name: en('game.settings.save') }).click();
    await settings.waitFor({ state: 'detached' });
    const other = await User.guest(app.base);
    assertEqual((await other.request('PATCH', `/api/games/${id}/join`)).status, 200, 'the other player joins');

    // "Show on TV": a link to the TV view, in a new window
    const showOnTv = page.getByRole('link', { name: new RegExp(en('tv.show')) });
    assertEqual(await showOnTv.getAttribute('href'), `/game/${id}/tv`, 'Show on TV');
    const [tvPage] = await Promise.all([host.context.waitForEvent('page'), showOnTv.click()]);
    const tv = tvPage;
    const clips: string[] = [];
    tv.on('request', (r) => {
      if (r.url().includes(`/api/games/${id}/hit?draw=`)) clips.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await tv.getByTestId('tv-screen').waitFor();
    await tv.getByTestId('tv-sound-prompt').waitFor();
    assertEqual(await tv.locator('header').count(), 0, 'no app header on the TV');
    assertEqual(await tv.evaluate(() => document.documentElement.classList.contains('dark')), true, 'the TV is dark by default');

    // the QR code: the controller view at the address phones can reach (this browser is on 127.0.0.1)
    const join = (await (await tv.request.get('/api/join-address')).json()) as JoinAddress;
    const origin = join.public_url ?? join.lan[0] ?? app.base;
    const expected = `${new URL(origin).origin}/game/${id}/play`;
    await eventually(async () => assertEqual(await readQr(tv), expected, 'the QR code'));
    assert(((await tv.getByTestId('tv-join-address').textContent()) ?? '').includes(`/game/${id}/play`), 'the address is written under the code');
    // a TV does not scroll: the Open table fits 1920×1080
    assertEqual(await tv.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, 'the Open TV fits the screen');
    await shot(tv, 'open-dark-en-1920');
    await scan(tv, 'open', problems);

    // spoken announcements: off until switched on, then remembered on this device
    const speech = tv.getByRole('checkbox', { name: en('tv.speech') });
    assertEqual(await speech.isChecked(), false, 'speech is off by default');
    await speech.check({ force: true });

    // one key unlocks the sound; the creator's shortcut starts the game from the TV
    await tv.keyboard.press('Shift');
    await tv.getByTestId('tv-sound-prompt').waitFor({ state: 'detached' });
    await tv.keyboard.press('Alt+Shift+S');
    let g = await until(other, id, (x) => x.state !== 'Open', 'started from the TV');
    assertEqual(g.clue_mode, 'audio', 'clue mode');
    const clip = `/api/games/${id}/hit?draw=${g.draws}`;
    // the TV itself asks for the hidden clip and plays it without a press
    await eventually(async () => assert(clips.includes(clip), `the TV requested ${clip}: ${JSON.stringify(clips)}`));
    await eventually(async () => assert((await howl(tv, clip))?.playing, 'the clip plays on the TV'));

    // the live region says whose turn it is, and the feed's entries were said
    const turn = g.players.find((p) => p.turn_player);
    assert(turn, 'a turn player');
    // the TV names the turn player, its own user too: nobody at the table is "you" on a shared screen
    const turnText = en('game.announce.turn_other', { name: turn.name });
    await eventually(async () => assert((await said(tv)).includes(turnText), `the TV said "${turnText}": ${JSON.stringify(await said(tv))}`));
    const feed = await tv.getByTestId('event-feed').locator('li').allTextContents();
    const heard = await said(tv);
    for (const entry of feed) assert(heard.some((s) => s.includes(entry.trim()) || entry.includes(s)), `shown and said: "${entry}" (said: ${JSON.stringify(heard)})`);
    // the same text, aloud, in the UI language
    await eventually(async () => {
      const spoken = await tv.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
      assert(spoken.includes(`en|${turnText}`), `spoken: ${JSON.stringify(spoken)}`);
    });
    await shot(tv, 'turn-dark-en-1920');
    await scan(tv, 'turn', problems);

    // a reload comes back to the same turn (and asks for sound again)
    const heading = await tv.getByRole('heading', { level: 1 }).textContent();
    await tv.reload();
    await tv.getByTestId('tv-screen').waitFor();
    await eventually(async () => assertEqual(await tv.getByRole('heading', { level: 1 }).textContent(), heading, 'heading after the reload'));
    // (once the reloaded table stopped moving: a click that lands beside the button would unlock the sound by itself)
    await settle(tv);
    await tv.getByTestId('tv-sound-prompt').getByRole('button').click();
    assertEqual(await tv.getByRole('checkbox', { name: en('tv.speech') }).isChecked(), true, 'speech stays on after the reload');

    // a German viewer on a laptop: not seated, sees the same game
    const viewer = await openBrowser(app, { width: 1366, height: 800, locale: 'de' });
    await gotoReady(viewer.page, `/game/${id}/tv`);
    await viewer.page.getByText(de('tv.join_heading')).first().waitFor();
    await shot(viewer.page, 'turn-dark-de-1366');
    await viewer.page.setViewportSize({ width: 1920, height: 1080 });
    await shot(viewer.page, 'turn-dark-de-1920');
    await setScheme(viewer.page, 'light');
    await shot(viewer.page, 'turn-light-de-1920');
    await viewer.page.setViewportSize({ width: 390, height: 844 });
    await shot(viewer.page, 'turn-light-de-390');

    // play to the reveal: the host places and confirms from the TV's keyboard
    let revealShot = false;
    for (let step = 0; step < 40 && g.state !== 'Open'; step++) {
      if (g.state === 'Confirming' && !revealShot) {
        await tv.getByTestId('reveal-moment').waitFor();
        assertEqual(await tv.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, 'the reveal fits the screen');
        await shot(tv, 'reveal-dark-en-1920');
        await setScheme(tv, 'light');
        await shot(tv, 'reveal-light-en-1920');
        await setScheme(tv, 'auto');
        revealShot = true;
      }
      const guest = g.players.find((p) => p.id === other.id);
      // once a reveal was seen, the guest ends the game by claims on his turns
      if (revealShot && guest?.turn_player && guest.state === 'Guessing' && guest.tokens >= 3) {
        assertEqual((await other.request('POST', `/api/games/${id}/claim`)).status, 200, 'the guest claims');
      } else {
        await move(tv, page, other, id, g);
      }
      const before = JSON.stringify(g);
      g = await until(other, id, (x) => JSON.stringify(x) !== before, `step ${step}`, 20_000);
    }
    assert(revealShot, 'a reveal was seen on the TV');
    assertEqual(g.state, 'Open', 'the game ended');
    const ended = tv.getByRole('dialog', { name: en('table:ended.title') });
    await ended.waitFor();
    await shot(tv, 'win-dark-en-1920');
    await scan(tv, 'win', problems);
    await setScheme(tv, 'light');
    await shot(tv, 'win-light-en-1920');
    await viewer.close();

    assert(problems.length === 0, problems.join('\n'));
  },
  { timeoutMs: 300_000 },
);

test('a Local game: the TV\'s QR code carries the seat key the creator\'s device has', async () => {
  app ??= await startApp();
  const host = await openBrowser(app, { width: 1366, height: 800 });
  const page = host.page;
  await gotoReady(page, '/');
  await page.getByRole('button', { name: en('lobby.create') }).click();
  await page.getByRole('menuitem', { name: new RegExp(en('lobby.create_Local')) }).click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
  const id = page.url().split('/').pop() as string;
  await gotoReady(page, `/game/${id}/tv`);
  const reply = await host.context.request.get(`/api/games/${id}/seat-key`);
  assertEqual(reply.status(), 200, 'the creator gets the seat key');
  const { key } = (await reply.json()) as { key: string };
  const join = (await (await host.context.request.get('/api/join-address')).json()) as JoinAddress;
  const origin = new URL(join.public_url ?? join.lan[0] ?? app.base).origin;
  await eventually(async () => assertEqual(await readQr(page), `${origin}/game/${id}/play?key=${encodeURIComponent(key)}`, 'the QR code'));
  await shot(page, 'local-open-dark-en-1366');
  const problems: string[] = [];
  await scan(page, 'local-open', problems);
  assert(problems.length === 0, problems.join('\n'));
});

await runTests(import.meta.filename);
