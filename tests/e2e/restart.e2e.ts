/**
 * A party survives a server crash (issue 10), in Chromium against the real
 * server process: two browsers play a Public game; the server is killed with
 * `kill -9` in the middle of a turn and started again on the same database and
 * port. Both pages, and the creator's TV view, say they reconnect, come back by
 * themselves (session cookie, seat found by user id) with the game where it
 * was, and play on — nobody touches anything until the game has continued.
 *
 *   npm run build && node tests/e2e/restart.e2e.ts     (exits non-zero on failure)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, spawnServer, type ServerProcess } from '../server/harness.ts';
import { afterAll, assert, assertEqual, eventually, gotoReady, joinByLink, openBrowser, ROOT, runTests, screenshot, t, test, type App } from './harness.ts';

const en = (key: string, vars: Record<string, string | number> = {}): string => t('en', key, vars);

const dir = mkdtempSync(join(tmpdir(), 'hitline-e2e-restart-'));
let server: ServerProcess | undefined;
let port = 0;

/** The server as its own process (the demo catalogue, card mode), on the same database and port every time. */
async function startServerProcess(): Promise<void> {
  port ||= await freePort();
  server = await spawnServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    CLIENT_DIR: join(ROOT, 'dist', 'client'),
    AUDIO_DIR: join(dir, 'audio'),
    LOG_LEVEL: 'info',
    ARGON2_MEMORY_KIB: '1024',
    RATE_LIMIT_FACTOR: '0',
  });
}

async function kill(): Promise<void> {
  await server!.stop('SIGKILL');
  server = undefined;
}

afterAll(async () => {
  if (server) await kill();
  rmSync(dir, { recursive: true, force: true });
});

const guessHeading = async (page: Page): Promise<string> => ((await page.locator('#guess-heading').textContent()) ?? '').trim();
const heading = async (page: Page): Promise<string> => ((await page.getByRole('heading', { level: 1 }).first().textContent()) ?? '').trim();
const tokens = async (page: Page): Promise<string> => ((await page.locator('table').first().textContent()) ?? '').replace(/\s+/g, ' ');

test(
  'kill -9 mid-game: both pages come back by themselves, the game is where it was and goes on',
  async () => {
    await startServerProcess();
    const app = { base: `http://127.0.0.1:${port}` } as App;
    const a = await openBrowser(app, { width: 1280 });
    const b = await openBrowser(app, { width: 375 });

    await gotoReady(a.page, '/');
    await a.page.getByRole('button', { name: en('lobby.create') }).click();
    await a.page.getByRole('menuitem', { name: new RegExp(en('lobby.create_Public')) }).click();
    await a.page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = a.page.url().split('/').pop()!;
    await joinByLink(b.page, `/game/${id}`);
    // the creator's TV view, a viewer beside his game screen
    const tv = await a.page.context().newPage();
    await tv.setViewportSize({ width: 1920, height: 1080 });
    await gotoReady(tv, `/game/${id}/tv`);
    await a.page.getByRole('button', { name: en('game.start') }).click();

    // the turn player places a card: the game is Intercepting for the other one
    const yourTurn = en('game.guess.guessing_you');
    await eventually(async () => assert((await guessHeading(a.page)) === yourTurn || (await guessHeading(b.page)) === yourTurn, 'one of them has the turn'));
    const [turnPage, otherPage] = (await guessHeading(a.page)) === yourTurn ? [a.page, b.page] : [b.page, a.page];
    // a tap on the first gap of the row, then "Place it here"
    await turnPage.locator('#turn-row [data-gap][data-choosable]').first().click();
    await turnPage.getByRole('button', { name: t('en', 'action.place', {}, 'table'), exact: true }).click();
    await eventually(async () => assert((await guessHeading(otherPage)).startsWith('Intercept '), 'the other player may intercept'));
    // the TV names the interceptor ("Ben: intercept Ana's guess?"), or waits for him when its own user placed the card
    await eventually(async () => assert(/intercept|^Waiting for/.test(await guessHeading(tv)), `the TV shows the interception round: ${await guessHeading(tv)}`));
    const before = { a: await heading(a.page), b: await heading(b.page), table: await tokens(a.page), other: await guessHeading(otherPage), tv: await heading(tv), tvPanel: await guessHeading(tv) };

    await kill();
    // both pages notice
    for (const p of [a.page, b.page, tv]) await p.locator('#main').getByText(en('game.reconnecting')).first().waitFor({ timeout: 15_000 });
    await screenshot(b.page, 'flows/restart-reconnecting');
    await startServerProcess();

    // ... and come back by themselves: the banner goes, the game is where it was
    for (const p of [a.page, b.page, tv]) {
      await eventually(async () => assertEqual(await p.locator('#main').getByText(en('game.reconnecting')).count(), 0, 'the reconnecting banner'), 30_000);
    }
    assertEqual(await heading(tv), before.tv, 'TV: the game heading');
    assertEqual(await guessHeading(tv), before.tvPanel, 'TV: the pending interception');
    assertEqual(await heading(a.page), before.a, 'A: the game heading');
    assertEqual(await heading(b.page), before.b, 'B: the game heading');
    assertEqual(await tokens(a.page), before.table, 'the player table');
    assertEqual(await guessHeading(otherPage), before.other, 'the pending interception');
    await screenshot(b.page, 'flows/restart-back');

    // the game goes on: the other player declines, the card is revealed for both and on the TV
    await otherPage.getByRole('button', { name: en('game.guess.dont_intercept'), exact: true }).click();
    for (const p of [a.page, b.page]) {
      await eventually(async () => assert((await guessHeading(p)) !== before.other && !(await guessHeading(p)).startsWith('Intercept '), 'the turn moved on'), 15_000);
    }
    // and on the TV the card is turned over (its panel may wait for the same player again, now to confirm)
    await tv.getByTestId('reveal-moment').waitFor({ timeout: 15_000 });
  },
  { timeoutMs: 120_000 },
);

await runTests(import.meta.filename);
