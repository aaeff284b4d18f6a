import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { bootServer, PACK_ONE, User, type TestServer } from './harness.ts';

/**
 * `GET /api/hits/{hitId}/audio` (issue 8, the hit detail page's player) over real
 * HTTP, on files the real pipeline made: a tone made with the static ffmpeg is
 * uploaded through `POST /api/hits/{hitId}/audio` and processed (loudness, Opus and
 * MP3) before these tests look at it. Editors (write_hits) hear it; guests, plain
 * accounts and anonymous visitors do not (a player who could fetch any hit's
 * audio by id could look up the hidden clip by its sound).
 */

const TONE_SECONDS = 8;

let t: TestServer;
let editor: User;
let guest: User;
let plain: User;
/** A hit whose audio the pipeline processed from an upload. */
let readyId: string;
/** A hit without audio. */
let noneId: string;

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(undefined), ['-v', 'error', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${err}`))));
  });
}

async function register(name: string, bits?: number): Promise<User> {
  const u = await User.guest(t.base);
  expect((await u.request('POST', '/api/users/register', { username: name, password: 'correct horse battery' })).status).toBe(200);
  if (bits !== undefined) expect((await t.server.users.setPermissions(name, { set: bits })).ok).toBe(true);
  await u.auth();
  return u;
}

const audioState = async (id: string): Promise<string> => (await editor.request('GET', `/api/hits/${id}`)).body.audio as string;

/** Polls the hit's audio state until it is ready or failed. */
async function settled(id: string, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  let state = '';
  while (Date.now() < deadline) {
    state = await audioState(id);
    if (state === 'ready' || state === 'failed') return state;
    await new Promise((r) => setTimeout(r, 150));
  }
  return state;
}

async function createHit(title: string): Promise<string> {
  const r = await editor.request('POST', '/api/hits', { title, artist: 'Generator', year: 2001, belongs_to: '', packs: [PACK_ONE], yt_id: null, playback_offset: 0 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as string;
}

interface AudioReply {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json?: { type: string; code: string; message: string };
}

async function get(u: User | null, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<AudioReply> {
  const res = await fetch(t.base + path, { method, headers: { ...(u ? { cookie: u.cookieHeader() } : {}), ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const reply: AudioReply = { status: res.status, headers: res.headers, bytes };
  if (res.headers.get('content-type')?.startsWith('application/json') && bytes.length > 0) reply.json = JSON.parse(bytes.toString('utf8'));
  return reply;
}

const file = (id: string, format: 'opus' | 'mp3'): Buffer => readFileSync(join(t.server.config.AUDIO_DIR, `${id}.${format}`));
const url = (id: string, query = ''): string => `/api/hits/${id}/audio${query}`;
/** What a browser sends when it revalidates (fetch() would add `no-cache`, which forbids a 304). */
const revalidate = { 'cache-control': 'max-age=0' };
const error = (status: number, code: string) => expect.objectContaining({ status, json: expect.objectContaining({ type: 'error', code }) });

beforeAll(async () => {
  t = await bootServer();
  const stamp = Date.now() % 100000;
  [editor, plain, guest] = await Promise.all([register(`editor${stamp}`, 1), register(`plain${stamp}`), User.guest(t.base)]);

  const tone = join(t.dir, 'tone.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${TONE_SECONDS}`, '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', tone]);
  readyId = await createHit('Uploaded Tone');
  noneId = await createHit('Silent Hit');
  const upload = await fetch(t.base + url(readyId), {
    method: 'POST',
    headers: { cookie: editor.cookieHeader(), 'content-type': 'audio/mpeg' },
    body: new Uint8Array(readFileSync(tone)),
  });
  expect(upload.status, await upload.clone().text()).toBe(202);
  expect(await settled(readyId)).toBe('ready');
}, 90_000);

afterAll(async () => {
  await t?.stop();
});

describe('GET /api/hits/{hitId}/audio: who may hear it', () => {
  it('an editor gets the processed file; anonymous visitors 401; guests and accounts without write_hits 403', async () => {
    expect(await get(null, url(readyId))).toEqual(error(401, 'unauthenticated'));
    expect(await get(guest, url(readyId))).toEqual(error(403, 'permission_denied'));
    expect(await get(plain, url(readyId))).toEqual(error(403, 'permission_denied'));
    const ok = await get(editor, url(readyId));
    expect(ok.status).toBe(200);
    expect(ok.bytes.length).toBeGreaterThan(1000);
  });

  it('the refusals carry no audio and are never cached, ranges and HEAD included', async () => {
    const fileTag = (await get(editor, url(readyId))).headers.get('etag');
    for (const u of [null, guest, plain]) {
      for (const [method, headers] of [['GET', {}], ['GET', { range: 'bytes=0-99' }], ['HEAD', {}]] as const) {
        const r = await get(u, url(readyId), headers, method);
        expect(r.status).toBe(u ? 403 : 401);
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
        expect(r.headers.get('cache-control')).toBe('no-store');
        expect(r.headers.get('etag')).not.toBe(fileTag);
        expect(r.headers.get('accept-ranges')).toBeNull();
        expect(r.headers.get('content-range')).toBeNull();
      }
    }
  });
});

describe('GET /api/hits/{hitId}/audio: serving', () => {
  it('is the whole processed Opus file, per user and revalidated, with ETag, Last-Modified and ranges', async () => {
    const r = await get(editor, url(readyId));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(r.headers.get('cache-control')).toBe('private, no-cache');
    expect(r.headers.get('vary')).toMatch(/accept/i);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toBeTruthy();
    expect(r.headers.get('last-modified')).toBeTruthy();
    expect(r.bytes.equals(file(readyId, 'opus'))).toBe(true);
    const meta = await parseBuffer(r.bytes, { mimeType: 'audio/ogg', size: r.bytes.length }, { duration: true });
    expect(meta.format.codec?.toLowerCase()).toContain('opus');
    expect(meta.format.duration).toBeGreaterThan(TONE_SECONDS - 0.5);
    expect(meta.format.duration).toBeLessThan(TONE_SECONDS + 0.5);
  });

  it('negotiates MP3 by Accept (q-values), and ?format= overrides it; an unknown format is a 400', async () => {
    const mp3 = file(readyId, 'mp3');
    const opus = file(readyId, 'opus');
    const cases: [Record<string, string>, string, Buffer][] = [
      [{ accept: 'audio/mpeg' }, '', mp3],
      [{ accept: 'audio/ogg;q=0.5, audio/mpeg' }, '', mp3],
      [{ accept: 'audio/webm' }, '', opus],
      [{ accept: '*/*' }, '', opus],
      [{ accept: 'audio/mpeg' }, '?format=opus', opus],
      [{}, '?format=mp3', mp3],
    ];
    for (const [headers, query, expected] of cases) {
      const r = await get(editor, url(readyId, query), headers);
      expect(r.status, `${JSON.stringify(headers)} ${query}`).toBe(200);
      expect(r.headers.get('content-type')).toBe(expected === mp3 ? 'audio/mpeg' : 'audio/ogg; codecs=opus');
      expect(r.bytes.equals(expected), `${JSON.stringify(headers)} ${query}`).toBe(true);
    }
    const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
    expect(meta.format.duration).toBeGreaterThan(TONE_SECONDS - 0.5);
    expect(await get(editor, url(readyId, '?format=wav'))).toEqual(error(400, 'invalid_input'));
  });

  it('HEAD: the headers without a body', async () => {
    const size = file(readyId, 'opus').length;
    const r = await get(editor, url(readyId), {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(0);
    expect(r.headers.get('content-length')).toBe(String(size));
    expect(r.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(r.headers.get('etag')).toBeTruthy();
  });

  it('Range: exact, suffix, open; past the end → 416 with Content-Range bytes */size', async () => {
    const whole = file(readyId, 'opus');
    const size = whole.length;
    const exact = await get(editor, url(readyId), { range: 'bytes=0-99' });
    expect(exact.status).toBe(206);
    expect(exact.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(exact.bytes.equals(whole.subarray(0, 100))).toBe(true);
    const suffix = await get(editor, url(readyId), { range: 'bytes=-100' });
    expect(suffix.status).toBe(206);
    expect(suffix.bytes.equals(whole.subarray(size - 100))).toBe(true);
    const open = await get(editor, url(readyId), { range: `bytes=${size - 10}-` });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    // longer than the file: all of it (RFC 9110 §14.1.2)
    const longSuffix = await get(editor, url(readyId), { range: `bytes=-${size + 50}` });
    expect(longSuffix.status).toBe(206);
    expect(longSuffix.bytes.equals(whole)).toBe(true);
    const past = await get(editor, url(readyId), { range: `bytes=${size}-` });
    expect(past).toEqual(error(416, 'range_not_satisfiable'));
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(past.headers.get('cache-control')).toBe('no-store');
  });

  it('If-None-Match with the ETag → 304; a stale If-Range → the whole file', async () => {
    const first = await get(editor, url(readyId));
    const etag = first.headers.get('etag')!;
    const again = await get(editor, url(readyId), { 'if-none-match': etag, ...revalidate });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect((await get(editor, url(readyId), { 'if-none-match': '"something-else"', ...revalidate })).status).toBe(200);
    const ranged = await get(editor, url(readyId), { range: 'bytes=0-9', 'if-range': etag });
    expect(ranged.status).toBe(206);
    const stale = await get(editor, url(readyId), { range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(first.bytes.length);
  });
});

describe('GET /api/hits/{hitId}/audio: no processed audio', () => {
  it('a hit without audio → 404 audio_not_ready; an unknown hit → 404 "hit id not found"; a malformed id → 400', async () => {
    const none = await get(editor, url(noneId));
    expect(none).toEqual(error(404, 'audio_not_ready'));
    expect(none.json?.message).toBe('this hit has no processed audio (its audio is none)');
    const unknown = await get(editor, url('00000000-0000-4000-8000-000000000000'));
    expect(unknown).toEqual(error(404, 'hit_not_found'));
    expect(unknown.json?.message).toBe('hit id not found');
    expect(await get(editor, url('not-a-hit'))).toEqual(error(400, 'invalid_input'));
  });

  it('ready in the database but the files are gone → 404 hit_file_missing; one format left → that one', async () => {
    const id = await createHit('Lost Files');
    await t.server.db.updateTable('hits').set({ audio_state: 'ready' }).where('id', '=', id).execute();
    expect(await get(editor, url(id))).toEqual(error(404, 'hit_file_missing'));
    // only an MP3 left: served even to a client that prefers Opus
    const mp3 = file(readyId, 'mp3');
    writeFileSync(join(t.server.config.AUDIO_DIR, `${id}.mp3`), mp3);
    const r = await get(editor, url(id), { accept: 'audio/ogg, audio/mpeg;q=0.5' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/mpeg');
    expect(await get(editor, url(id, '?format=opus'))).toEqual(error(404, 'hit_file_missing'));
    rmSync(join(t.server.config.AUDIO_DIR, `${id}.mp3`), { force: true });
  });

  it('a new offset re-processes the hit: 404 while it works, then the new file under the same URL with a new ETag', async () => {
    const before = await get(editor, url(readyId));
    const hit = (await editor.request('GET', `/api/hits/${readyId}`)).body;
    const moved = await editor.request('PATCH', `/api/hits/${readyId}`, { ...hit, playback_offset: 3 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const during = await get(editor, url(readyId));
    // the pipeline may already be done on a fast machine; until then it is not ready
    if (during.status !== 200) expect(during).toEqual(error(404, 'audio_not_ready'));
    expect(await settled(readyId)).toBe('ready');
    const after = await get(editor, url(readyId));
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    // the browser's cached copy is stale: revalidating with the old tag gets the new file
    expect((await get(editor, url(readyId), { 'if-none-match': before.headers.get('etag')!, ...revalidate })).status).toBe(200);
    expect((await get(editor, url(readyId), { 'if-none-match': after.headers.get('etag')!, ...revalidate })).status).toBe(304);
    const meta = await parseBuffer(after.bytes, { mimeType: 'audio/ogg', size: after.bytes.length }, { duration: true });
    expect(meta.format.duration).toBeLessThan(TONE_SECONDS - 2);
  }, 90_000);
});
