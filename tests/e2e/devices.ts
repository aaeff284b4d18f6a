/**
 * The party's devices in the e2e files (tv, phone, party): the TV's QR code and
 * sound, and the phone controller (/game/{id}/play) driven by touch or keyboard.
 * harness.ts keeps the app and the browsers; this module what a TV and a phone do.
 */
import jsQRModule from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { assert, eventually, openBrowser, recordAnnouncements, t, type App, type Browser, type Lang } from './harness.ts';

/** jsqr is CommonJS: under Node's ESM its default import is the module, whose `default` is the decoder (or, when bundled, the decoder itself). */
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ?? jsQRModule) as unknown as typeof import('jsqr').default;

/** The TV's QR code read back from the screen's pixels (an element screenshot, decoded by jsQR). */
export async function readQr(page: Page): Promise<string | null> {
  const png = await page.getByTestId('tv-join').getByRole('img').screenshot();
  const { data, width, height } = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d') as CanvasRenderingContext2D;
    g.drawImage(img, 0, 0);
    return { data: [...g.getImageData(0, 0, c.width, c.height).data], width: c.width, height: c.height };
  }, png.toString('base64'));
  return jsQR(Uint8ClampedArray.from(data), width, height)?.data ?? null;
}

/** Howler's state for the sound whose URL contains `part`. */
export async function howl(page: Page, part: string): Promise<{ playing: boolean } | null> {
  return page.evaluate((p) => {
    type H = { _src: string | string[]; playing(): boolean };
    const h = (window as unknown as { Howler?: { _howls: H[] } }).Howler?._howls.find((x) => String(x._src).includes(p));
    return h ? { playing: h.playing() } : null;
  }, part);
}

/** As game.e2e.ts: headless Chromium lets every page play, so a phone's autoplay rule is emulated (sound only after a trusted gesture). */
export async function lockAudioUntilGesture(b: Browser): Promise<void> {
  await b.context.addInitScript(() => {
    const Native = window.AudioContext;
    let gesture = false;
    for (const type of ['pointerdown', 'keydown', 'click', 'touchend']) window.addEventListener(type, (e) => (gesture ||= e.isTrusted), true);
    window.AudioContext = class extends Native {
      constructor(options?: AudioContextOptions) {
        super(options);
        if (!gesture) void super.suspend();
      }
      override resume(): Promise<void> {
        return gesture ? super.resume() : Promise.resolve();
      }
    };
  });
}

/**
 * The colour scheme setting, as the settings dialog of another tab stores it
 * (the page follows through the storage event the other tab would cause).
 * `auto` is the default, with which the TV view is dark whatever the system's scheme.
 */
export async function setScheme(page: Page, scheme: 'auto' | 'light'): Promise<void> {
  await page.evaluate((s) => {
    localStorage.setItem('colorScheme', s);
    window.dispatchEvent(new StorageEvent('storage', { key: 'colorScheme', newValue: s }));
  }, scheme);
  await page.waitForFunction((s) => document.documentElement.classList.contains(s), scheme === 'light' ? 'light' : 'dark');
}

/** Requests of a game's hidden clip or a revealed hit. */
export const CLIP = /\/api\/games\/[^/]+\/hit(\/|\?|$)/;

export interface Seat {
  name: string;
  b: Browser;
  lang: Lang;
  /** A controller phone (else the host's game screen). */
  phone: boolean;
  /** Plays with the keyboard only. */
  keyboard?: boolean;
  /** Requests of the hidden clip or a revealed hit. */
  clips: string[];
  /** Moments already photographed. */
  shot: Set<string>;
  placed: number;
}

export const tr = (s: { lang: Lang }, key: string, vars: Record<string, string | number> = {}): string => t(s.lang, key, vars);
export const table = (s: { lang: Lang }, key: string, vars: Record<string, string | number> = {}): string => t(s.lang, key, vars, 'table');
export const people = (s: { lang: Lang }, key: string): string => t(s.lang, key, {}, 'people');

/** A person's browser: a phone (390×844, touch) unless `phone: false` (a laptop); its live regions recorded, its clip requests counted. */
export async function seat(
  a: App,
  name: string,
  options: { lang?: Lang; phone?: boolean; keyboard?: boolean; firstVisit?: boolean; scheme?: 'light' | 'dark' } = {},
): Promise<Seat> {
  const phone = options.phone ?? true;
  const lang = options.lang ?? 'en';
  const welcomeSeen = !options.firstVisit;
  const colorScheme = options.scheme ?? 'light';
  const b = await openBrowser(a, phone ? { width: 390, height: 844, touch: true, locale: lang, welcomeSeen, colorScheme } : { width: 1366, height: 800, locale: lang, colorScheme });
  await recordAnnouncements(b.context);
  const s: Seat = { name, b, lang, phone, keyboard: options.keyboard ?? false, clips: [], shot: new Set(), placed: 0 };
  b.page.on('request', (r) => {
    if (CLIP.test(r.url())) s.clips.push(r.url());
  });
  return s;
}

/** The name prompt of the controller at `url` (/game/{id}/play): a name, an emoji, Join (`before` runs before Join); then the controller. */
export async function joinOnPhone(s: Seat, url: string, emoji: string, before?: () => Promise<void>): Promise<void> {
  const page = s.b.page;
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: people(s, 'join.title_guest') }).waitFor();
  await page.getByRole('textbox').fill(s.name);
  await page.getByRole('radio', { name: people(s, `avatar.names.${emoji}`) }).check();
  await before?.();
  // exact: a toast about another phone's joining may carry "joined" in a button's name
  await page.getByRole('button', { name: people(s, 'join.submit'), exact: true }).click();
  await page.getByTestId('controller').waitFor();
  await page.getByRole('heading', { level: 1, name: s.name }).waitFor();
}

/** What the controller shows (`data-view`: waiting, guessing, …), null when it is not there. */
export const view = (s: Seat): Promise<string | null> => s.b.page.getByTestId('controller').getAttribute('data-view', { timeout: 1000 }).catch(() => null);

/** Tabs until the focus is on an element `is` accepts (keyboard only); false after `max` presses. */
export async function tabTo(page: Page, is: string, max = 40): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), is)) return true;
  }
  return false;
}

/** Picks a free gap: a tap on the row (the first or last free one), or by keyboard the radio group's arrows and Space. */
export async function pickGap(s: Seat, which: 'first' | 'last'): Promise<void> {
  const page = s.b.page;
  if (s.keyboard) {
    await page.locator('#guess-heading').focus();
    assert(await tabTo(page, '[aria-labelledby="guess-heading"] input[type=radio]'), `${s.name}: the gaps are reachable by Tab`);
    // the first radio of the group has the focus; an arrow moves to the next (and checks it), Space checks the one focused
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    await page.locator('#turn-row [data-gap][data-chosen]').waitFor();
    return;
  }
  const free = page.locator('#turn-row [data-gap][data-choosable]');
  const gap = which === 'first' ? free.first() : free.last();
  const id = (await gap.getAttribute('data-gap')) ?? '';
  await gap.click();
  await page.locator(`#turn-row [data-gap="${id}"][data-chosen]`).waitFor();
}

/**
 * Tabs until `target` has the focus (keyboard only); fails when 60 presses do
 * not reach it. False when it went away meanwhile: the page moved on (another
 * player's move, the room catching up), as a keyboard user would find.
 */
export async function tabToTarget(page: Page, target: Locator, what: string): Promise<boolean> {
  const focused = (): Promise<boolean | null> => target.evaluate((el) => el === document.activeElement, undefined, { timeout: 2000 }).catch(() => null);
  let on = await focused();
  for (let i = 0; i < 60 && on === false; i++) {
    await page.keyboard.press('Tab');
    on = await focused();
  }
  if (on === null) return false;
  assert(on, `${what} is reachable by Tab`);
  return true;
}

/** Tabs to the button named `name` and presses Enter (keyboard only); false when it went away first. */
export async function tabAndEnter(page: Page, name: string, who: string): Promise<boolean> {
  if (!(await tabToTarget(page, page.getByRole('button', { name, exact: true }), `${who}: "${name}"`))) return false;
  await page.keyboard.press('Enter');
  return true;
}

/** Presses a button: a click, or by keyboard Tab to it and Enter. */
export async function press(s: Seat, name: string): Promise<void> {
  if (!s.keyboard) return s.b.page.getByRole('button', { name, exact: true }).click();
  await tabAndEnter(s.b.page, name, s.name);
}

/**
 * A player's keys on a page whose room may be a moment behind the server (the
 * test reads the turn over REST): pressed again, up to five times, until
 * `changed` sees the game move on; as a player who is told "not right now"
 * presses again. Whether it moved on.
 */
export async function pressUntilTaken(keys: () => Promise<void>, changed: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await keys();
    const moved = await eventually(async () => assert(await changed(), 'the game moved on'), 3000).then(
      () => true,
      () => false,
    );
    if (moved) return true;
  }
  return false;
}
