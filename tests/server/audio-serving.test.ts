import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipCache } from '../../server/http/audio-clips.ts';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import type { Game, Hit } from '../../shared/rules/index.ts';
import { bootServer, User, type TestServer } from './harness.ts';

/**
 * Serving the audio of a game (rules.md A12, api.md B10, issue 6 "Serving") over real
 * HTTP, on processed files made here with the static ffmpeg as the pipeline would
 * leave them: `<AUDIO_DIR>/<hitId>.opus` (Ogg Opus, 96 kbit/s) and `.mp3`, 60 s long.
 * Unlike the pipeline's output, these fixtures carry tags naming the hit (title,
 * artist, yt_id, hit id), to prove the hidden clip drops whatever the file holds.
 */

const FFMPEG = ffmpegPath(undefined);
/** Hits given audio; the rest of the catalogue stays without (never dealt in audio mode). */
const READY = 40;
const TRACK_SECONDS = 60;
/** A clip may end up to one packet (Opus 20 ms, MP3 26 ms) past the cut, plus container rounding. */
const FRAME_TOLERANCE = 0.1;
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
    ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${TRACK_SECONDS}`, '-ac', '2', '-ar', '48000', '-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg', `${base}.opus`]),
    ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${TRACK_SECONDS}`, '-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', `${base}.mp3`]),
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
    expect(seconds).toBeGreaterThan(20 - FRAME_TOLERANCE);
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
    expect(mp3Seconds).toBeGreaterThan(20 - FRAME_TOLERANCE);
    expect(mp3Seconds).toBeLessThanOrEqual(20 + FRAME_TOLERANCE);
    expect((await parseBuffer(mp3.bytes, { mimeType: 'audio/mpeg' })).common.title).toBeUndefined();
    expectNoTrace(mp3, url, hit);
    expect(mp3.headers.get('etag')).not.toBe(r.headers.get('etag'));
  });

  it('follows hit_duration, and a track shorter than it is served whole', async () => {
    const id = await runningGame({ settings: { hit_duration: 5 } });
    const r = await fetchAudio(bob, await clipUrl(id));
    expect(r.status).toBe(200);
    const seconds = await duration(r.bytes, 'audio/ogg');
    expect(seconds).toBeGreaterThan(5 - FRAME_TOLERANCE);
    expect(seconds).toBeLessThanOrEqual(5 + FRAME_TOLERANCE);

    const long = await runningGame({ settings: { hit_duration: 255 } });
    const whole = await fetchAudio(bob, await clipUrl(long));
    expect(whole.status).toBe(200);
    expect(Math.abs((await duration(whole.bytes, 'audio/ogg')) - TRACK_SECONDS)).toBeLessThan(FRAME_TOLERANCE);
  });

  it('names the turn by its draw: stale or future → 409, none (Part B\'s ?key=) → the current card; the URL changes on skip and confirm', async () => {
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

  it('is cut once however many ask at the same time, then served from the cache', async () => {
    // a duration no other test uses: this clip cannot exist yet
    const id = await runningGame({ settings: { hit_duration: 17 } });
    const url = await clipUrl(id);
    const cache = clipCache(audioDir, FFMPEG);
    const clipsBefore = existsSync(cache.dir) ? readdirSync(cache.dir).length : 0;
    const before = { ...cache.stats };
    const replies = await Promise.all(Array.from({ length: 10 }, () => fetchAudio(alice, url)));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.bytes.equals(replies[0]!.bytes)).toBe(true);
    }
    expect(cache.stats.created - before.created).toBe(1);
    expect(cache.stats.joined - before.joined + cache.stats.hits - before.hits).toBe(9);
    expect(cache.stats.failed).toBe(before.failed);
    const names = readdirSync(cache.dir);
    expect(names.length).toBe(clipsBefore + 1);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // clip names say nothing about the hit
    const hit = engine(id).current!;
    for (const n of names) for (const s of secretsOf(hit)) expect(n).not.toContain(s);

    const again = await fetchAudio(alice, url);
    expect(cache.stats.created - before.created).toBe(1);
    expect(again.bytes.equals(replies[0]!.bytes)).toBe(true);
  });

  it('starts quickly: first byte of a cached clip well within the 250 ms budget', async () => {
    const id = await runningGame({ settings: { hit_duration: 19 } });
    const url = await clipUrl(id);
    const cold = await fetchAudio(alice, url);
    expect(cold.status).toBe(200);
    const cached: number[] = [];
    for (let i = 0; i < 5; i++) cached.push((await fetchAudio(alice, url)).ttfb);
    cached.sort((a, b) => a - b);
    // generous bounds: the budget is for the whole path to playback, on a loaded CI box
    expect(cold.ttfb).toBeLessThan(1000);
    expect(cached[2]!).toBeLessThan(250);
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
