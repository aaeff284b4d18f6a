import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipCache, randomCut } from '../../server/http/audio-clips.ts';
import { newGameId } from '../../server/http/games.ts';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import type { Game, Hit } from '../../shared/rules/index.ts';
import { bootServer, User, waitFor, type TestServer } from './harness.ts';
import { testSeed } from '../rules/helpers.ts';

/**
 * Serving the audio of a game (docs/rules.md#a12, docs/api.md#b10, issue 6 "Serving") over real
 * HTTP, on processed files made here with the static ffmpeg as the pipeline would
 * leave them: `<AUDIO_DIR>/<hitId>.opus` (Ogg Opus, 96 kbit/s) and `.mp3`, 60 s of
 * pink noise under a tone (dense like music: a pure tone codes into frames that
 * repeat). Unlike the pipeline's output, these fixtures carry tags naming the hit
 * (title, artist, yt_id, hit id), to prove the hidden clip drops whatever the file holds.
 */

const FFMPEG = ffmpegPath(undefined);
/** Hits given audio; the rest of the catalogue stays without (never dealt in audio mode). */
const READY = 40;
const TRACK_SECONDS = 60;
/** A clip may end up to one packet (Opus 20 ms, MP3 26 ms) past the cut, plus container rounding. */
const FRAME_TOLERANCE = 0.1;
/** A clip is up to this much shorter than hit_duration (its random trim). */
const TRIM = 0.25;
/** The recording: pink noise under a tone, the same in both formats. */
const MUSIC = `anoisesrc=d=${TRACK_SECONDS}:c=pink:a=0.2:s=7[n];sine=f=330:d=${TRACK_SECONDS}[t];[n][t]amix=inputs=2,volume=2[out]`;
const NO_TIMERS = { guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 } as const;

let t: TestServer;
let audioDir: string;
let alice: User;
let bob: User;
let carol: User;
/** The ready hits with the secrets a clip must not carry. */
const ready = new Map<string, { title: string; artist: string; yt_id: string }>();

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, ['-v', 'error', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${err}`))));
  });
}

beforeAll(async () => {
  audioDir = mkdtempSync(join(tmpdir(), 'hitline-audio-'));
  t = await bootServer({ AUDIO_DIR: audioDir });
  const base = join(audioDir, 'base');
  await Promise.all([
    ffmpeg(['-filter_complex', MUSIC, '-map', '[out]', '-ac', '2', '-ar', '48000', '-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg', `${base}.opus`]),
    ffmpeg(['-filter_complex', MUSIC, '-map', '[out]', '-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', `${base}.mp3`]),
  ]);
  const rows = await t.server.db.selectFrom('hits').select(['id']).orderBy('id').limit(READY).execute();
  for (const [i, { id }] of rows.entries()) {
    const secret = { title: `Secret Title ${id.slice(0, 8)}`, artist: `Hidden Artist ${i}`, yt_id: `Yt${String(i).padStart(9, '0')}` };
    ready.set(id, secret);
    await t.server.db.updateTable('hits').set({ ...secret, audio_state: 'ready' }).where('id', '=', id).execute();
  }
  // remuxed (no re-encoding) with tags naming the hit
  const ids = [...ready.keys()];
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids.slice(i, i + 8).flatMap((id) => {
        const s = ready.get(id)!;
        const tags = ['-metadata', `title=${s.title}`, '-metadata', `artist=${s.artist}`, '-metadata', `comment=${s.yt_id} ${id}`];
        return [
          ffmpeg(['-i', `${base}.opus`, '-c', 'copy', ...tags, '-f', 'ogg', join(audioDir, `${id}.opus`)]),
          ffmpeg(['-i', `${base}.mp3`, '-c', 'copy', ...tags, '-f', 'mp3', join(audioDir, `${id}.mp3`)]),
        ];
      }),
    );
  }
  [alice, bob, carol] = await Promise.all([User.guest(t.base), User.guest(t.base), User.guest(t.base)]);
}, 60_000);

afterAll(async () => {
  await t?.stop();
  if (audioDir) rmSync(audioDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// helpers

interface AudioReply {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** ms from sending the request to the first body byte (or the end of an empty body). */
  ttfb: number;
  json?: { type: string; code: string; message: string };
}

async function fetchAudio(u: User | null, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<AudioReply> {
  const started = performance.now();
  const res = await fetch(t.base + path, { method, headers: { ...(u ? { cookie: u.cookieHeader() } : {}), ...headers } });
  const chunks: Buffer[] = [];
  let ttfb = 0;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!chunks.length) ttfb = performance.now() - started;
      chunks.push(Buffer.from(chunk));
    }
  }
  if (!chunks.length) ttfb = performance.now() - started;
  const bytes = Buffer.concat(chunks);
  const reply: AudioReply = { status: res.status, headers: res.headers, bytes, ttfb };
  if (res.headers.get('content-type')?.startsWith('application/json')) reply.json = JSON.parse(bytes.toString('utf8'));
  return reply;
}

function engine(id: string): Game {
  const room = matchMaker.getLocalRoomById(id) as unknown as GameRoom | undefined;
  if (!room) throw new Error(`no room ${id} in this process`);
  return room.game;
}

const users = () => new Map([alice, bob, carol].map((u) => [u.id, u]));

async function game(id: string): Promise<any> {
  return (await alice.request('GET', `/api/games/${id}`)).body;
}

/** Games alice created, oldest first: she leaves the old ones, as a user creates at most 10 at once. */
const aliceGames: string[] = [];

async function runningGame(opts: { mode?: 'Public' | 'Private'; settings?: Record<string, unknown> } = {}): Promise<string> {
  while (aliceGames.length >= 5) expect((await alice.request('PATCH', `/api/games/${aliceGames.shift()!}/leave`)).status).toBe(200);
  const created = await alice.request('POST', '/api/games', {
    mode: opts.mode ?? 'Public',
    settings: { clue_mode: 'audio', goal: 3, ...NO_TIMERS, ...opts.settings },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  aliceGames.push(id);
  expect((await bob.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
  expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
  return id;
}

/** The turn player guesses his first slot; anyone asked to intercept declines: the game is Confirming. */
async function toConfirming(id: string): Promise<void> {
  let g = await game(id);
  const tp = g.players.find((p: any) => p.turn_player);
  expect((await users().get(tp.id)!.request('POST', `/api/games/${id}/guess`, { id: tp.slots[0].id })).status).toBe(200);
  g = await game(id);
  for (const p of g.players.filter((q: any) => q.state === 'Intercepting')) {
    expect((await users().get(p.id)!.request('POST', `/api/games/${id}/guess`, { id: null })).status).toBe(200);
  }
  expect((await game(id)).state).toBe('Confirming');
}

async function confirm(id: string): Promise<void> {
  const g = await game(id);
  const confirmer = g.players.find((p: any) => p.state === 'Confirming');
  expect((await users().get(confirmer.id)!.request('POST', `/api/games/${id}/confirm`, { confirm: true })).status).toBe(200);
}

async function skip(id: string): Promise<void> {
  const g = await game(id);
  const tp = g.players.find((p: any) => p.turn_player);
  expect((await users().get(tp.id)!.request('POST', `/api/games/${id}/skip`)).status).toBe(200);
}

const clipUrl = async (id: string) => `/api/games/${id}/hit?draw=${(await game(id)).draws}`;

async function duration(bytes: Buffer, mimeType: string): Promise<number> {
  const meta = await parseBuffer(bytes, { mimeType, size: bytes.length }, { duration: true });
  return meta.format.duration ?? NaN;
}

/** Every string that would give the hit away, in the forms it could take in bytes or headers. */
function secretsOf(hit: Hit): string[] {
  const s = ready.get(hit.id)!;
  return [hit.id, hit.id.replaceAll('-', ''), Buffer.from(hit.id.replaceAll('-', ''), 'hex').toString('latin1'), s.title, s.artist, s.yt_id];
}

function expectNoTrace(reply: AudioReply, url: string, hit: Hit): void {
  const headerText = [...reply.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  const latin1 = reply.bytes.toString('latin1');
  const utf16 = reply.bytes.toString('utf16le');
  for (const secret of secretsOf(hit)) {
    expect(url).not.toContain(secret);
    expect(headerText).not.toContain(secret);
    expect(latin1).not.toContain(secret);
    expect(utf16).not.toContain(secret);
  }
}

/** A Public audio game of alice and bob whose deck is shuffled by the keys of `seed` (the REST route draws random ones). */
async function seededGame(seed: number): Promise<string> {
  const gameId = newGameId();
  await matchMaker.createRoom('game', {
    gameId,
    mode: 'Public',
    creator: { id: alice.id, name: alice.name },
    seed: testSeed(seed),
    packIds: await t.server.catalogue.packIds(),
    settings: { clue_mode: 'audio', goal: 3, hit_duration: 20, ...NO_TIMERS },
  });
  expect((await bob.request('PATCH', `/api/games/${gameId}/join`)).status).toBe(200);
  expect((await alice.request('PATCH', `/api/games/${gameId}/start`)).status).toBe(200);
  return gameId;
}

const CONTENT_TYPE = { opus: 'audio/ogg', mp3: 'audio/mpeg' } as const;

/** Where `a` and `b` share a run of `length` bytes or more: its offsets in `a` and `b` and its length (the first 5). */
function sharedRuns(a: Buffer, b: Buffer, length = 64): [number, number, number][] {
  const W = length / 2;
  // every run of `length` or more holds a window of W bytes starting at a multiple of W in b
  const index = new Map<string, number[]>();
  for (let q = 0; q + W <= b.length; q += W) {
    const key = b.toString('latin1', q, q + W);
    const at = index.get(key);
    if (at) at.push(q);
    else index.set(key, [q]);
  }
  const found: [number, number, number][] = [];
  for (let i = 0; i + W <= a.length && found.length < 5; i++) {
    let end = i;
    for (const q of index.get(a.toString('latin1', i, i + W)) ?? []) {
      let back = 0;
      while (i - back > 0 && q - back > 0 && a[i - back - 1] === b[q - back - 1]) back++;
      let ahead = W;
      while (i + ahead < a.length && q + ahead < b.length && a[i + ahead] === b[q + ahead]) ahead++;
      end = Math.max(end, i + ahead);
      if (back + ahead >= length) found.push([i - back, q - back, back + ahead]);
    }
    // the windows inside a run just measured are not looked up again
    i = Math.max(i, end - W);
  }
  return found;
}

const error = (status: number, code: string) => expect.objectContaining({ status, json: expect.objectContaining({ type: 'error', code }) });

// ---------------------------------------------------------------------------

describe('the hidden clip', () => {
  it('is at most hit_duration long, ≤ 400 KB for 20 s, tag-free, no-store, with no trace of the hit', async () => {
    const id = await runningGame({ settings: { hit_duration: 20 } });
    const hit = engine(id).current!;
    const url = await clipUrl(id);
    const r = await fetchAudio(alice, url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('vary')).toMatch(/accept/i);
    expect(r.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(r.headers.get('last-modified')).toBeNull();
    expect(r.headers.get('content-disposition')).toBeNull();
    expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
    expect(r.bytes.length).toBeLessThanOrEqual(400 * 1024);
    const seconds = await duration(r.bytes, 'audio/ogg');
    expect(seconds).toBeGreaterThan(20 - TRIM - FRAME_TOLERANCE);
    expect(seconds).toBeLessThanOrEqual(20 + FRAME_TOLERANCE);
    const meta = await parseBuffer(r.bytes, { mimeType: 'audio/ogg' });
    expect(meta.common.title).toBeUndefined();
    expect(meta.common.artist).toBeUndefined();
    expect(meta.common.comment).toBeUndefined();
    expectNoTrace(r, url, hit);

    // the MP3 fallback too
    const mp3 = await fetchAudio(alice, url, { accept: 'audio/mpeg' });
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(mp3.bytes.subarray(0, 3).toString('latin1')).not.toBe('ID3');
    const mp3Seconds = await duration(mp3.bytes, 'audio/mpeg');
    expect(mp3Seconds).toBeGreaterThan(20 - TRIM - FRAME_TOLERANCE);
    expect(mp3Seconds).toBeLessThanOrEqual(20 + FRAME_TOLERANCE);
    expect((await parseBuffer(mp3.bytes, { mimeType: 'audio/mpeg' })).common.title).toBeUndefined();
    expectNoTrace(mp3, url, hit);
    expect(mp3.headers.get('etag')).not.toBe(r.headers.get('etag'));
  });

  it('follows hit_duration, and a track shorter than it is served (almost) whole', async () => {
    const id = await runningGame({ settings: { hit_duration: 5 } });
    const r = await fetchAudio(bob, await clipUrl(id));
    expect(r.status).toBe(200);
    const seconds = await duration(r.bytes, 'audio/ogg');
    expect(seconds).toBeGreaterThan(5 - TRIM - FRAME_TOLERANCE);
    expect(seconds).toBeLessThanOrEqual(5 + FRAME_TOLERANCE);

    // the random shift and trim stay inside the file: it loses at most the trim
    const long = await runningGame({ settings: { hit_duration: 255 } });
    const whole = await fetchAudio(bob, await clipUrl(long));
    expect(whole.status).toBe(200);
    const wholeSeconds = await duration(whole.bytes, 'audio/ogg');
    expect(wholeSeconds).toBeGreaterThan(TRACK_SECONDS - TRIM - FRAME_TOLERANCE);
    expect(wholeSeconds).toBeLessThanOrEqual(TRACK_SECONDS + FRAME_TOLERANCE);
  });

  it('names the turn by its draw: stale or future → 409, none (the reference server\'s ?key=) → the current card; the URL changes on skip and confirm', async () => {
    const id = await runningGame({ settings: { hit_duration: 20 } });
    const d0 = (await game(id)).draws as number;
    expect(await fetchAudio(alice, `/api/games/${id}/hit?draw=abc`)).toEqual(error(400, 'invalid_input'));
    expect(await fetchAudio(alice, `/api/games/${id}/hit?draw=${d0 + 1}`)).toEqual(error(409, 'stale_clip'));
    const first = await fetchAudio(alice, `/api/games/${id}/hit?draw=${d0}`);
    expect(first.status).toBe(200);
    // a client of the spec's API: a random key, ignored; the same clip, never stored
    const keyed = await fetchAudio(alice, `/api/games/${id}/hit?key=0.8123`);
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('cache-control')).toBe('no-store');
    expect(keyed.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(keyed.bytes.equals(first.bytes)).toBe(true);

    // skip: a new card, a new URL; the old one is refused with a message naming the current draw
    await skip(id);
    const d1 = (await game(id)).draws as number;
    expect(d1).toBe(d0 + 1);
    const stale = await fetchAudio(alice, `/api/games/${id}/hit?draw=${d0}`);
    expect(stale).toEqual(error(409, 'stale_clip'));
    expect(stale.json!.message).toBe(`this clip's turn is over: the game is at draw ${d1}, ask for ?draw=${d1}`);
    const second = await fetchAudio(alice, `/api/games/${id}/hit?draw=${d1}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));

    // revealed (Confirming): the whole file; pinned by its draw it may be cached for good
    await toConfirming(id);
    const revealed = await fetchAudio(alice, `/api/games/${id}/hit?draw=${d1}`);
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Math.abs((await duration(revealed.bytes, 'audio/ogg')) - TRACK_SECONDS)).toBeLessThan(FRAME_TOLERANCE);
    // without a draw the URL names "whatever is current": never cached
    const unpinned = await fetchAudio(alice, `/api/games/${id}/hit`);
    expect(unpinned.status).toBe(200);
    expect(unpinned.headers.get('cache-control')).toBe('no-store');
    expect(await fetchAudio(alice, `/api/games/${id}/hit?draw=${d0}`)).toEqual(error(409, 'stale_clip'));

    // confirm: the next turn's clip, the revealed one's draw is over
    await confirm(id);
    const d2 = (await game(id)).draws as number;
    expect(d2).toBe(d1 + 1);
    expect(await fetchAudio(alice, `/api/games/${id}/hit?draw=${d1}`)).toEqual(error(409, 'stale_clip'));
    const third = await fetchAudio(alice, `/api/games/${id}/hit?draw=${d2}`);
    expect(third.status).toBe(200);
    expect(third.headers.get('cache-control')).toBe('no-store');
    expect(await duration(third.bytes, 'audio/ogg')).toBeLessThanOrEqual(20 + FRAME_TOLERANCE);
    expect(third.bytes.equals(second.bytes)).toBe(false);
  });

  it("a Private game's clip is for its players only (403), spectators of a Public game may hear it", async () => {
    const id = await runningGame({ mode: 'Private' });
    const url = await clipUrl(id);
    expect((await fetchAudio(bob, url)).status).toBe(200);
    expect(await fetchAudio(carol, url)).toEqual(error(403, 'audio_members_only'));
    expect(await fetchAudio(null, url)).toEqual(error(403, 'audio_members_only'));
    // the check comes first: an outsider learns nothing from a wrong draw either
    expect(await fetchAudio(carol, `/api/games/${id}/hit?draw=999`)).toEqual(error(403, 'audio_members_only'));

    const pub = await runningGame();
    expect((await fetchAudio(carol, await clipUrl(pub))).status).toBe(200);
    expect((await fetchAudio(null, await clipUrl(pub))).status).toBe(200);
  });

  it('is cut once, when the card is drawn: requests meanwhile wait for that cut, later ones get it from the cache', async () => {
    const cache = clipCache(audioDir, FFMPEG);
    // cuts of earlier tests' draws finish first: the counts below are this game's alone
    await waitFor(() => cache.cutting === 0, 30_000, 'earlier cuts');
    const before = { ...cache.stats };
    const id = await runningGame({ settings: { hit_duration: 17 } });
    const url = await clipUrl(id);
    const replies = await Promise.all(Array.from({ length: 10 }, () => fetchAudio(alice, url)));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.bytes.equals(replies[0]!.bytes)).toBe(true);
      expect(r.headers.get('etag')).toBe(replies[0]!.headers.get('etag'));
    }
    await waitFor(() => cache.cutting === 0, 30_000, "the next card's clip");
    // one cut of this clip (the draw's or the first request's, whichever came first): the other
    // ten of the eleven waited for it or found it done; and one of the next card's
    expect(cache.stats.created - before.created).toBe(2);
    expect(cache.stats.joined - before.joined + cache.stats.hits - before.hits).toBe(10);
    expect(cache.stats.failed).toBe(before.failed);
    const dir = await cache.gameDir(id);
    const names = readdirSync(dir).sort((a, b) => parseInt(a) - parseInt(b));
    const draws = (await game(id)).draws as number;
    expect(names).toEqual([expect.stringMatching(new RegExp(`^${draws}\\.[A-Za-z0-9_-]{32}\\.ogg$`)), expect.stringMatching(new RegExp(`^${draws + 1}\\.[A-Za-z0-9_-]{32}\\.ogg$`))]);
    // clip names say nothing about the hit, nor the game's folder about the game
    const hit = engine(id).current!;
    for (const n of [...names, dir.slice(cache.dir.length)]) for (const s of [...secretsOf(hit), id]) expect(n).not.toContain(s);

    const again = await fetchAudio(alice, url);
    expect(cache.stats.created - before.created).toBe(2);
    expect(again.bytes.equals(replies[0]!.bytes)).toBe(true);
  });

  it('is ready before anybody asks: cut when the card is drawn, the first request gets it at once', async () => {
    const cache = clipCache(audioDir, FFMPEG);
    await waitFor(() => cache.cutting === 0, 30_000, 'earlier cuts');
    const before = cache.stats.created;
    const id = await runningGame({ settings: { hit_duration: 19 } });
    // nobody asked for the clip: the draw alone has it cut (and the next card's)
    await waitFor(() => cache.stats.created >= before + 2 && cache.cutting === 0, 30_000, 'the clips cut at the draw');
    const dir = await cache.gameDir(id);
    expect(readdirSync(dir).filter((n) => n.endsWith('.ogg'))).toHaveLength(2);
    const url = await clipUrl(id);
    const first = await fetchAudio(alice, url);
    expect(first.status).toBe(200);
    expect(cache.stats.created).toBe(before + 2);
    const cached: number[] = [first.ttfb];
    for (let i = 0; i < 4; i++) cached.push((await fetchAudio(alice, url)).ttfb);
    cached.sort((a, b) => a - b);
    // generous bounds: the budget is for the whole path to playback, on a loaded CI box
    expect(cached[2]!).toBeLessThan(250);
    expect(first.ttfb).toBeLessThan(1000);
  });

  it('differs in every game: two games on the same card share no run of 64 bytes with each other or with the full file, nor their size', async () => {
    // two games dealt alike (the same seed and players): the same card is drawn first in both
    const seed = randomInt(2 ** 32);
    const [one, two] = [await seededGame(seed), await seededGame(seed)];
    const hit = engine(one).current!;
    expect(engine(two).current!.id).toBe(hit.id);
    for (const format of ['opus', 'mp3'] as const) {
      const full = readFileSync(join(audioDir, `${hit.id}.${format}`));
      const [a, b] = [await fetchAudio(carol, `${await clipUrl(one)}&format=${format}`), await fetchAudio(carol, `${await clipUrl(two)}&format=${format}`)];
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(sharedRuns(a.bytes, b.bytes), `${format}: the two clips`).toEqual([]);
      expect(sharedRuns(a.bytes, full), `${format}: the first clip and the file`).toEqual([]);
      expect(sharedRuns(b.bytes, full), `${format}: the second clip and the file`).toEqual([]);
      // the size, as one byte's Content-Range tells it
      const sizeOf = async (id: string) => (await fetchAudio(carol, `${await clipUrl(id)}&format=${format}`, { range: 'bytes=0-0' })).headers.get('content-range');
      const sizes = [await sizeOf(one), await sizeOf(two)];
      expect(sizes).toEqual([`bytes 0-0/${a.bytes.length}`, `bytes 0-0/${b.bytes.length}`]);
      expect(new Set([a.bytes.length, b.bytes.length, full.length]).size).toBe(3);
      // and both are still the game's setting long, tag-free
      for (const r of [a, b]) {
        const seconds = await duration(r.bytes, CONTENT_TYPE[format]);
        expect(seconds).toBeGreaterThan(20 - TRIM - FRAME_TOLERANCE);
        expect(seconds).toBeLessThanOrEqual(20 + FRAME_TOLERANCE);
        expectNoTrace(r, '', hit);
      }
    }
    for (const id of [one, two]) for (const u of [alice, bob]) expect((await u.request('PATCH', `/api/games/${id}/leave`)).status).toBe(200);
  });

  it("the next card's clip is cut during the turn before: the first request after the draw gets the clip made before it", async () => {
    const cache = clipCache(audioDir, FFMPEG);
    const id = await runningGame({ settings: { hit_duration: 12 } });
    const dir = await cache.gameDir(id);
    const d0 = (await game(id)).draws as number;
    const next = engine(id).deck[engine(id).deck_at]!;
    // (the folder is made by the first cut)
    await waitFor(() => cache.cutting === 0 && existsSync(dir) && readdirSync(dir).some((n) => n.startsWith(`${d0 + 1}.`)), 30_000, "the next card's clip");
    const ahead = readFileSync(join(dir, readdirSync(dir).find((n) => n.startsWith(`${d0 + 1}.`))!));

    await skip(id);
    expect(engine(id).current!.id).toBe(next.id);
    const r = await fetchAudio(alice, await clipUrl(id));
    expect(r.status).toBe(200);
    expect(r.bytes.equals(ahead)).toBe(true);
    expect(r.ttfb).toBeLessThan(1000);
  });

  it("goes when its turn is over: a draw removes the earlier draws' clips (and cuts MP3 ahead where it was asked for), the game's end all of them", async () => {
    const cache = clipCache(audioDir, FFMPEG);
    const id = await runningGame({ settings: { hit_duration: 10 } });
    const dir = await cache.gameDir(id);
    const d0 = (await game(id)).draws as number;
    expect((await fetchAudio(alice, await clipUrl(id))).status).toBe(200);
    expect((await fetchAudio(bob, `${await clipUrl(id)}&format=mp3`)).status).toBe(200);
    const clips = () => readdirSync(dir).map((n) => `${n.split('.')[0]}.${n.split('.').at(-1)}`).sort();
    await waitFor(() => cache.cutting === 0, 30_000, 'the cuts');
    expect(clips()).toEqual([`${d0 + 1}.ogg`, `${d0}.mp3`, `${d0}.ogg`].sort());

    await skip(id);
    const d1 = (await game(id)).draws as number;
    expect(d1).toBe(d0 + 1);
    // nobody asks: this draw's MP3 and the next draw's clips are cut, as this game's players asked for both formats
    const expected = [`${d1}.mp3`, `${d1}.ogg`, `${d1 + 1}.mp3`, `${d1 + 1}.ogg`].sort();
    await waitFor(() => cache.cutting === 0 && clips().join() === expected.join(), 30_000, `the clips ${expected.join(', ')} alone`);

    aliceGames.splice(aliceGames.indexOf(id), 1);
    for (const u of [alice, bob]) expect((await u.request('PATCH', `/api/games/${id}/leave`)).status).toBe(200);
    await waitFor(() => !existsSync(dir), 10_000, "the game's clip folder to go");
  });
});

describe('the random cut', () => {
  it('starts a random 40–400 ms in, is up to 250 ms short of hit_duration, and never leaves the file', () => {
    for (const [seconds, duration] of [[20, 60], [20, null], [20, 20.1], [20, 5], [255, 60], [1, 1]] as const) {
      const starts = new Set<number>();
      for (let i = 0; i < 500; i++) {
        const { start, length } = randomCut(seconds, duration);
        const wanted = Math.min(seconds, duration ?? Infinity);
        expect(length).toBeLessThanOrEqual(wanted);
        expect(length).toBeGreaterThanOrEqual(wanted - Math.min(TRIM, wanted / 4) - 1e-6);
        expect(start).toBeGreaterThanOrEqual(0);
        expect(start).toBeLessThanOrEqual(0.4);
        if (duration !== null) expect(start + length).toBeLessThanOrEqual(duration + 1e-6);
        // a file with room for it: never where the file's own frames start
        if (duration === null || duration - wanted >= 0.4) expect(start).toBeGreaterThanOrEqual(0.04);
        starts.add(start);
      }
      expect(starts.size, `${seconds} s of ${duration}`).toBeGreaterThan(400);
    }
  });
});

describe('files, ranges, caching', () => {
  let id: string;
  let owned: string;
  let url: string;
  let size: number;
  let whole: Buffer;

  beforeAll(async () => {
    id = await runningGame();
    owned = (await game(id)).players[0].hits[0].id;
    url = `/api/games/${id}/hit/${owned}`;
    whole = (await fetchAudio(carol, url)).bytes;
    size = statSync(join(audioDir, `${owned}.opus`)).size;
  });

  it('a hit a player owns: the whole processed file, cached for good, with an ETag and Last-Modified', async () => {
    const r = await fetchAudio(carol, url);
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(size);
    expect(r.headers.get('content-length')).toBe(String(size));
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(r.headers.get('last-modified')).toBeTruthy();
    expect(r.headers.get('vary')).toMatch(/accept/i);
    // a query (a client's cache buster, even a stale draw) does not matter here
    expect((await fetchAudio(carol, `${url}?key=0.123&draw=0`)).status).toBe(200);
  });

  it('HEAD: the headers without a body', async () => {
    const r = await fetchAudio(carol, url, {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(0);
    expect(r.headers.get('content-length')).toBe(String(size));
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    const clip = await fetchAudio(alice, await clipUrl(id), {}, 'HEAD');
    expect(clip.status).toBe(200);
    expect(clip.bytes.length).toBe(0);
    expect(clip.headers.get('cache-control')).toBe('no-store');
    expect(Number(clip.headers.get('content-length'))).toBeGreaterThan(0);
  });

  // what a browser sends when it revalidates (fetch() would add `no-cache`, which forbids a 304)
  const revalidate = { 'cache-control': 'max-age=0' };

  it('If-None-Match → 304 (file and hidden clip), a changed tag → 200', async () => {
    const etag = (await fetchAudio(carol, url)).headers.get('etag')!;
    const r = await fetchAudio(carol, url, { 'if-none-match': etag, ...revalidate });
    expect(r.status).toBe(304);
    expect(r.bytes.length).toBe(0);
    expect(r.headers.get('etag')).toBe(etag);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetchAudio(carol, url, { 'if-none-match': 'W/"other"', ...revalidate })).status).toBe(200);

    const clip = await clipUrl(id);
    const clipTag = (await fetchAudio(alice, clip)).headers.get('etag')!;
    expect((await fetchAudio(alice, clip, { 'if-none-match': clipTag, ...revalidate })).status).toBe(304);
    // If-Match that fails → 412 (as JSON, without the file's headers)
    const failed = await fetchAudio(carol, url, { 'if-match': '"nope"', ...revalidate });
    expect(failed).toEqual(error(412, 'precondition_failed'));
    expect(failed.headers.get('etag')).not.toBe(etag);
    expect(failed.headers.get('content-range')).toBeNull();
  });

  const range = async (value: string, extra: Record<string, string> = {}) => fetchAudio(carol, url, { range: value, ...extra });
  const expect206 = (r: AudioReply, start: number, end: number) => {
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
    expect(r.headers.get('content-length')).toBe(String(end - start + 1));
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(r.bytes.equals(whole.subarray(start, end + 1))).toBe(true);
  };
  const expect416 = (r: AudioReply) => {
    expect(r).toEqual(error(416, 'range_not_satisfiable'));
    expect(r.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(r.headers.get('cache-control')).toBe('no-store');
  };

  it('Range: exact, first byte, last byte, open, suffix, past the end clamped', async () => {
    expect206(await range('bytes=0-99'), 0, 99);
    expect206(await range('bytes=0-0'), 0, 0);
    expect206(await range(`bytes=${size - 1}-${size - 1}`), size - 1, size - 1);
    expect206(await range('bytes=100-'), 100, size - 1);
    expect206(await range('bytes=-500'), size - 500, size - 1);
    expect206(await range(`bytes=1000-${size + 5000}`), 1000, size - 1);
    // RFC 9110 §14.1.2: a suffix longer than the file selects all of it
    expect206(await range(`bytes=-${size + 1}`), 0, size - 1);
    // overlapping ranges are merged into one
    expect206(await range('bytes=0-9,5-19'), 0, 19);
  });

  it('Range: unsatisfiable → 416 with Content-Range bytes */size', async () => {
    expect416(await range(`bytes=${size}-`));
    expect416(await range(`bytes=${size + 10}-${size + 20}`));
    expect416(await range('bytes=-0'));
    expect416(await range('bytes=5-1'));
  });

  it('Range: malformed, unknown unit, several ranges, stale If-Range → the whole file (200)', async () => {
    for (const value of ['bytes=abc', 'bytes=1-2,', 'items=0-5', 'bytes=0-9,20-29']) {
      const r = await range(value);
      expect(r.status, value).toBe(200);
      expect(r.bytes.equals(whole), value).toBe(true);
      expect(r.headers.get('content-range'), value).toBeNull();
    }
    const etag = (await fetchAudio(carol, url)).headers.get('etag')!;
    expect206(await range('bytes=10-19', { 'if-range': etag }), 10, 19);
    expect((await range('bytes=10-19', { 'if-range': '"other"' })).status).toBe(200);
  });

  it('Range on the hidden clip: 206, still no-store', async () => {
    const clip = await clipUrl(id);
    const full = await fetchAudio(alice, clip);
    const part = await fetchAudio(alice, clip, { range: 'bytes=-500' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${full.bytes.length - 500}-${full.bytes.length - 1}/${full.bytes.length}`);
    expect(part.headers.get('cache-control')).toBe('no-store');
    expect(part.bytes.equals(full.bytes.subarray(-500))).toBe(true);
    const beyond = await fetchAudio(alice, clip, { range: `bytes=${full.bytes.length}-` });
    expect(beyond).toEqual(error(416, 'range_not_satisfiable'));
    expect(beyond.headers.get('content-range')).toBe(`bytes */${full.bytes.length}`);
  });
});

describe('content negotiation', () => {
  let url: string;
  let clip: string;
  beforeAll(async () => {
    const id = await runningGame();
    url = `/api/games/${id}/hit/${(await game(id)).players[1].hits[0].id}`;
    clip = await clipUrl(id);
  });

  const typeFor = async (path: string, accept?: string) => {
    const r = await fetchAudio(alice, path, accept === undefined ? {} : { accept });
    expect(r.status, `${path} ${accept}`).toBe(200);
    expect(r.headers.get('vary')).toMatch(/accept/i);
    return r.headers.get('content-type');
  };
  const OPUS = 'audio/ogg; codecs=opus';
  const MP3 = 'audio/mpeg';

  it('Opus unless the client prefers or only takes MP3', async () => {
    for (const path of [url, clip]) {
      expect(await typeFor(path)).toBe(OPUS);
      expect(await typeFor(path, '*/*')).toBe(OPUS);
      expect(await typeFor(path, 'audio/*')).toBe(OPUS);
      expect(await typeFor(path, 'audio/ogg')).toBe(OPUS);
      expect(await typeFor(path, 'audio/webm')).toBe(OPUS);
      expect(await typeFor(path, 'audio/webm,audio/ogg,audio/wav,audio/*;q=0.9,application/ogg;q=0.7,video/*;q=0.6,*/*;q=0.5')).toBe(OPUS);
      expect(await typeFor(path, 'audio/mpeg')).toBe(MP3);
      expect(await typeFor(path, 'audio/mpeg, audio/ogg;q=0.5')).toBe(MP3);
      expect(await typeFor(path, 'audio/ogg;q=0, */*')).toBe(MP3);
      // a client that accepts neither still gets audio (HTTP lets a server ignore Accept)
      expect(await typeFor(path, 'application/json')).toBe(OPUS);
    }
  });

  it('?format= overrides Accept; an unknown format is a 400', async () => {
    const sep = (p: string) => (p.includes('?') ? '&' : '?');
    for (const path of [url, clip]) {
      expect(await typeFor(`${path}${sep(path)}format=mp3`, 'audio/ogg')).toBe(MP3);
      expect(await typeFor(`${path}${sep(path)}format=opus`, 'audio/mpeg')).toBe(OPUS);
      const bad = await fetchAudio(alice, `${path}${sep(path)}format=flac`);
      expect(bad).toEqual(error(400, 'invalid_input'));
      expect(bad.json!.message).toBe('format must be opus or mp3');
    }
  });
});

describe('hits without audio', () => {
  it('not ready or files gone → 404 hit_file_missing; the other format is used when only one is left', async () => {
    const id = await runningGame();
    const g = await game(id);
    const [a, b] = [g.players[0].hits[0].id as string, g.players[1].hits[0].id as string];
    const missing = { status: 404, code: 'hit_file_missing', message: "hit file couldn't be found" };

    await t.server.db.updateTable('hits').set({ audio_state: 'processing' }).where('id', '=', a).execute();
    const notReady = await fetchAudio(alice, `/api/games/${id}/hit/${a}`);
    expect(notReady).toEqual(expect.objectContaining({ status: 404, json: { type: 'error', code: missing.code, message: missing.message } }));
    expect(notReady.headers.get('cache-control')).toBe('no-store');
    await t.server.db.updateTable('hits').set({ audio_state: 'ready' }).where('id', '=', a).execute();

    const opus = join(audioDir, `${b}.opus`);
    renameSync(opus, `${opus}.away`);
    try {
      expect(await fetchAudio(alice, `/api/games/${id}/hit/${b}?format=opus`)).toEqual(error(404, 'hit_file_missing'));
      // by Accept, a client that takes both gets the MP3 that is there
      expect((await fetchAudio(alice, `/api/games/${id}/hit/${b}`)).headers.get('content-type')).toBe('audio/mpeg');
      expect(await fetchAudio(alice, `/api/games/${id}/hit/${b}`, { accept: 'audio/ogg' })).toEqual(error(404, 'hit_file_missing'));
    } finally {
      renameSync(`${opus}.away`, opus);
    }
  });

  it('card clue mode: 404 no_audio_card_mode, whatever the draw', async () => {
    const id = await runningGame({ settings: { clue_mode: 'card' } });
    expect(await fetchAudio(alice, await clipUrl(id))).toEqual(error(404, 'no_audio_card_mode'));
    expect(await fetchAudio(alice, `/api/games/${id}/hit`)).toEqual(error(404, 'no_audio_card_mode'));
  });
});
