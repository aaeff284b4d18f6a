import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { bootServer, PACK_ONE, User, waitFor, type TestServer } from './harness.ts';

/**
 * The hit editor's changes reach the audio pipeline: a hit created with a YouTube id
 * is downloaded (a fake yt-dlp that writes a generated tone) and processed, a new
 * offset re-cuts it, and deleting the hit removes its files.
 */

let t: TestServer;
let editor: User;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-ytdlp-'));
  const ytdlp = join(dir, 'yt-dlp');
  // "downloads" by generating a 12 s tone where yt-dlp would write the file
  writeFileSync(
    ytdlp,
    `#!/bin/sh
out=""
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
target=$(echo "$out" | sed 's/%(ext)s/mp3/')
exec "${ffmpegPath(undefined)}" -v error -nostdin -y -f lavfi -i sine=frequency=440:duration=12 "$target"
`,
  );
  chmodSync(ytdlp, 0o755);
  t = await bootServer({ YTDLP_PATH: ytdlp });
  editor = await User.guest(t.base);
  const name = `editor${Date.now() % 100000}`;
  expect((await editor.request('POST', '/api/users/register', { username: name, password: 'correct horse battery' })).status).toBe(200);
  expect((await t.server.users.setPermissions(name, { set: 3 })).ok).toBe(true);
  await editor.auth();
});
afterAll(async () => {
  await t?.stop();
});

const audioState = async (id: string) => (await editor.request('GET', `/api/hits/${id}`)).body.audio as string;
const files = (id: string) => [join(t.server.config.AUDIO_DIR, `${id}.opus`), join(t.server.config.AUDIO_DIR, `${id}.mp3`)];

describe('catalogue edits drive the audio pipeline', () => {
  it('create with a YouTube id → ready; new offset → processed again; delete → files gone', async () => {
    const created = await editor.request('POST', '/api/hits', {
      title: 'Test Tone',
      artist: 'Generator',
      year: 1999,
      belongs_to: '',
      packs: [PACK_ONE],
      yt_id: 'AbCdEfGhIj0',
      playback_offset: 0,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    let state = '';
    const poll = async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        state = await audioState(id);
        if (state === 'ready' || state === 'failed') return state;
        await new Promise((r) => setTimeout(r, 200));
      }
      return state;
    };
    expect(await poll()).toBe('ready');
    for (const f of files(id)) expect(existsSync(f), f).toBe(true);

    const hit = (await editor.request('GET', `/api/hits/${id}`)).body;
    const moved = await editor.request('PATCH', `/api/hits/${id}`, { ...hit, playback_offset: 5 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await audioState(id)).not.toBe('ready');
    expect(await poll()).toBe('ready');

    expect((await editor.request('DELETE', `/api/hits/${id}`)).status).toBe(200);
    await waitFor(() => files(id).every((f) => !existsSync(f)), 10_000, 'files removed');
  }, 120_000);
});
