/**
 * Audio benchmark: budget P11 of docs/budgets.md (a 20 s hidden clip
 * ≤ 400 kB; playback starts ≤ 250 ms after "play" when the clip was prefetched).
 *
 *   npm run bench -- audio [--smoke] [--tries N]
 *
 * 1. Makes four 60 s source recordings with ffmpeg (stereo pink noise under two
 *    tones: dense, so Opus's VBR spends its full rate, as on loud pop music)
 *    and puts them through the real audio pipeline (the server's AudioPipeline:
 *    loudness measurement, normalisation, Opus and MP3 encodes) as "file" sources
 *    of a four-hit catalogue.
 * 2. Two guests start a Public game in audio mode with `hit_duration` 20, and the
 *    first player fetches the hidden clip of the current draw through the real
 *    route `GET /api/games/{id}/hit?draw=N`: its size, length and bit rate, and
 *    the time to the first byte, the first request right after the game's first
 *    draw (it waits for the cut the draw started) and repeated ones (cut
 *    already). Then, in five more games, nobody asks until the cuts are done: the
 *    time from the start to the draw's clip on disk, the CPU time per cut (of its
 *    ffmpeg processes), the first request's time to the first byte, and, after
 *    a skip, the time to the first byte of the new draw's clip (cut during the
 *    turn before, as the next card's).
 * 3. In Debian's Chromium (autoplay allowed, as after the player's first tap), a
 *    page on the server's origin with the player's session prefetches the clip
 *    and, once it is ready, calls play(): with an HTML audio element (time to its
 *    `playing` event, the budget's figure) and with Howler, as the game screen
 *    does (Web Audio: time until the audio clock passed the start, i.e. the first
 *    samples were rendered). Each try loads the clip anew (it is `no-store`).
 *
 * `--smoke` (5 tries) checks the path; its budgets are shown but not enforced.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseBuffer } from 'music-metadata';
import { chromium } from 'playwright-core';
import { stringify } from 'yaml';
import { loadConfig } from '../server/config.ts';
import { clipCache } from '../server/http/audio-clips.ts';
import { startServer, type RunningServer } from '../server/index.ts';
import { ffmpegPath } from '../server/services/audio/ffmpeg.ts';
import { loadAverage, percentiles, type BenchResult, type Figure } from './lib/bench.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumVersion } from './lib/chromium.ts';
import { guestCookie } from './lib/server-process.ts';

/** P11. */
const CLIP_MAX_KB = 400;
/** Games whose clip is cut at the draw before anybody asks. */
const AHEAD_GAMES = 5;
const START_MAX_MS = 250;
const HIT_SECONDS = 20;
const SOURCE_SECONDS = 60;
const HITS = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round1 = (n: number): number => Math.round(n * 10) / 10;

export async function run(args: string[]): Promise<BenchResult> {
  const { values } = parseArgs({ args, options: { smoke: { type: 'boolean' }, tries: { type: 'string' } } });
  const smoke = values.smoke ?? false;
  const enforced = !smoke;
  const tries = values.tries !== undefined ? Number(values.tries) : smoke ? 5 : 50;
  if (!Number.isInteger(tries) || tries < 1) throw new Error(`--tries must be a positive integer, got "${values.tries}"`);
  const figures: Figure[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'hitline-bench-audio-'));
  const ffmpeg = ffmpegPath(process.env.FFMPEG_PATH);

  try {
    // ---- a catalogue of four hits in one pack, and their source recordings
    const pack = randomUUID();
    const hits = Array.from({ length: HITS }, (_, i) => ({
      artist: `Benchmark Artist ${i}`,
      title: `Benchmark Song ${i}`,
      belongs_to: '',
      year: 1970 + i * 10,
      packs: [pack],
      playback_offset: 0,
      id: randomUUID(),
    }));
    writeFileSync(join(dir, 'hits.yml'), stringify({ hits, packs: [{ id: pack, name: 'Benchmark' }] }));
    const sources = await Promise.all(hits.map((_, i) => makeSource(ffmpeg, join(dir, `source-${i}.wav`), i)));

    const server = await startServer(
      loadConfig({
        // never the internet: a yt-dlp on this machine's PATH stays unused
        YTDLP_PATH: 'off',
        // nor MusicBrainz or Wikidata: no year evidence is looked up
        EVIDENCE_SOURCES: '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, 'hitline.sqlite')}`,
        DEMO_CATALOGUE: join(dir, 'hits.yml'),
        CLIENT_DIR: join(dir, 'no-client'),
        AUDIO_DIR: join(dir, 'audio'),
        LOG_LEVEL: 'silent',
        RATE_LIMIT_FACTOR: '0',
        ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
      }),
    );
    const base = `http://127.0.0.1:${server.port}`;
    try {
      // ---- 1. the real pipeline
      const t0 = performance.now();
      for (const [i, hit] of hits.entries()) {
        const queued = await server.audio.enqueue(hit.id, { kind: 'file', path: sources[i]! });
        if (!queued.ok) throw new Error(`queueing ${hit.id} failed: ${queued.message}`);
      }
      await processed(server, hits.map((h) => h.id));
      const pipelineMs = performance.now() - t0;
      figures.push({ label: `audio pipeline: ${HITS} hits of ${SOURCE_SECONDS} s, both formats`, unit: 'ms', value: Math.round(pipelineMs), note: `${server.config.AUDIO_CONCURRENCY} jobs at a time` });

      // ---- 2. a game in audio mode; the hidden clip through the real route
      const [alice, bob] = [await guestCookie(base), await guestCookie(base)];
      const game = await startGame(base, alice!, bob!);
      const url = `${base}/api/games/${game.id}/hit?draw=${game.draws}`;
      const cold = await fetchTimed(url, alice!);
      if (cold.status !== 200) throw new Error(`the hidden clip answered ${cold.status}: ${cold.bytes.toString('utf8', 0, 300)}`);
      const seconds = await duration(cold.bytes, cold.type);
      if (!(Math.abs(seconds - HIT_SECONDS) < 0.5)) throw new Error(`the hidden clip is ${seconds} s long, ${HIT_SECONDS} s expected`);
      const warm: number[] = [];
      for (let i = 0; i < (smoke ? 10 : 100); i++) {
        const r = await fetchTimed(url, alice!);
        if (r.status !== 200 || r.bytes.length !== cold.bytes.length) throw new Error(`repeated clip request: ${r.status}, ${r.bytes.length} bytes`);
        warm.push(r.ttfb);
      }
      const mp3 = await fetchTimed(`${url}&format=mp3`, alice!);
      figures.push(
        {
          label: `hidden clip (${cold.type}), ${HIT_SECONDS} s`,
          unit: 'kB',
          value: round1(cold.bytes.length / 1000),
          budget: { id: 'P11', stat: 'value', max: CLIP_MAX_KB, enforced },
          note: `${round1(seconds)} s, ${Math.round((cold.bytes.length * 8) / seconds / 1000)} kbit/s`,
        },
        {
          label: 'hidden clip as MP3 (where Opus cannot play)',
          unit: 'kB',
          value: round1(mp3.bytes.length / 1000),
          note: `${mp3.type}, ${Math.round((mp3.bytes.length * 8) / (await duration(mp3.bytes, mp3.type)) / 1000)} kbit/s`,
        },
        { label: "clip TTFB, first request right after the game's first draw", unit: 'ms', value: round1(cold.ttfb), note: 'waits for the cut the draw started; from this process, which also runs the server' },
        { label: 'clip TTFB, cut already', unit: 'ms', stats: percentiles(warm) },
      );

      // ---- 2b. clips cut ahead: at the draw, and the next card's during the turn before
      const clips = clipCache(server.config.AUDIO_DIR, ffmpeg);
      const ids = new Map<string, string>();
      for (const cookie of [alice!, bob!]) ids.set((await api(base, cookie, 'GET', '/api/users/me')).body.id as string, cookie);
      const ready: number[] = [];
      const cpu: number[] = [];
      const afterCut: number[] = [];
      const nextDraw: number[] = [];
      for (let i = 0; i < AHEAD_GAMES; i++) {
        const created = clips.stats.created;
        const cpu0 = childCpuMs();
        const t0 = performance.now();
        const ahead = await startGame(base, alice!, bob!);
        const dir = await clips.gameDir(ahead.id);
        const until = async (what: string, done: () => boolean) => {
          while (!done()) {
            if (performance.now() - t0 > 30_000) throw new Error(`${what}: not within 30 s`);
            await sleep(5);
          }
        };
        // (the game's folder is made by its first cut)
        await until("the draw's clip", () => existsSync(dir) && readdirSync(dir).some((n) => n.startsWith(`${ahead.draws}.`) && n.endsWith('.ogg')));
        ready.push(performance.now() - t0);
        await until("the next card's clip", () => clips.cutting === 0);
        cpu.push((childCpuMs() - cpu0) / (clips.stats.created - created));
        const r = await fetchTimed(`${base}/api/games/${ahead.id}/hit?draw=${ahead.draws}`, alice!);
        if (r.status !== 200) throw new Error(`the clip cut ahead answered ${r.status}`);
        afterCut.push(r.ttfb);
        // the turn player skips: the next card's clip was cut during this turn
        const g = await api(base, alice!, 'GET', `/api/games/${ahead.id}`);
        const turnPlayer = (g.body.players as { id: string; turn_player: boolean }[]).find((p) => p.turn_player)!;
        const skipped = await api(base, ids.get(turnPlayer.id)!, 'POST', `/api/games/${ahead.id}/skip`);
        if (skipped.status !== 200) throw new Error(`skip: ${skipped.status} ${JSON.stringify(skipped.body)}`);
        const next = await fetchTimed(`${base}/api/games/${ahead.id}/hit?draw=${ahead.draws + 1}`, alice!);
        if (next.status !== 200) throw new Error(`the next draw's clip answered ${next.status}`);
        nextDraw.push(next.ttfb);
        await until('the cuts after the skip', () => clips.cutting === 0);
      }
      figures.push(
        { label: "start → the draw's clip cut (probe, encode, finish)", unit: 'ms', stats: percentiles(ready), note: `${AHEAD_GAMES} games; the start's request included` },
        { label: '  CPU per cut (its ffmpeg processes)', unit: 'ms', stats: percentiles(cpu), note: "the draw's clip and the next card's; user + system, 10 ms ticks" },
        { label: 'clip TTFB, first request after the cut', unit: 'ms', stats: percentiles(afterCut) },
        { label: 'clip TTFB, right after a later draw', unit: 'ms', stats: percentiles(nextDraw), note: 'a skip, then the new draw at once: its clip was cut during the turn before' },
      );

      // ---- 3. prefetched, then play(), in Chromium
      const played = await playInChromium(base, alice!, url, tries);
      figures.push(
        {
          label: 'play() → playing, HTML audio, prefetched',
          unit: 'ms',
          stats: percentiles(played.html.map((t) => t.startMs)),
          budget: { id: 'P11', stat: 'p99', max: START_MAX_MS, enforced },
          note: `${tries} tries; each prefetched until canplaythrough`,
        },
        { label: '  prefetch (src set → canplaythrough)', unit: 'ms', stats: percentiles(played.html.map((t) => t.prefetchMs)) },
        {
          label: 'play() → first samples rendered, Howler (Web Audio), prefetched',
          unit: 'ms',
          stats: percentiles(played.howler.map((t) => t.startMs)),
          budget: { id: 'P11', stat: 'p99', max: START_MAX_MS, enforced },
          note: `as the game screen plays; audio output latency ${round1(played.outputLatencyMs)} ms follows`,
        },
        { label: '  prefetch (new Howl → load: download and decode)', unit: 'ms', stats: percentiles(played.howler.map((t) => t.prefetchMs)) },
      );
      notes.push(
        `sources: ${SOURCE_SECONDS} s stereo pink noise under two tones (44.1 kHz WAV), processed by the server's audio pipeline with ${ffmpeg.includes('@ffmpeg-installer') ? 'the static ffmpeg of @ffmpeg-installer' : ffmpeg}`,
        `browser: ${played.version}, --autoplay-policy=no-user-gesture-required (the game screen unlocks audio on the player's first tap); the game screen adds its ${250} ms play-hit cue before the music on purpose`,
        `load average at the end: ${loadAverage()}`,
      );
      if (smoke) notes.push('smoke run: budgets shown but not enforced');
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { title: `audio: a real ${HIT_SECONDS} s hidden clip, its size and its playback start (P11)`, figures, notes, data: { tries } };
}

/** Writes a `seconds`-long stereo WAV at `file`: independent pink noise per channel under two tremolo tones. */
function makeSource(ffmpeg: string, file: string, variant: number): Promise<string> {
  const f = 196 * 2 ** (variant / 12);
  const graph =
    `anoisesrc=d=${SOURCE_SECONDS}:c=pink:r=44100:a=0.25:s=${variant * 2 + 1}[l];` +
    `anoisesrc=d=${SOURCE_SECONDS}:c=pink:r=44100:a=0.25:s=${variant * 2 + 2}[r];` +
    `[l][r]amerge=inputs=2[noise];` +
    `sine=f=${f.toFixed(1)}:d=${SOURCE_SECONDS}:r=44100,tremolo=f=2:d=0.6,aformat=channel_layouts=stereo[a];` +
    `sine=f=${(f * 1.5).toFixed(1)}:d=${SOURCE_SECONDS}:r=44100,aformat=channel_layouts=stereo[b];` +
    `[noise][a][b]amix=inputs=3,volume=2[out]`;
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-v', 'error', '-nostdin', '-y', '-filter_complex', graph, '-map', '[out]', '-ar', '44100', '-c:a', 'pcm_s16le', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(file) : reject(new Error(`ffmpeg (source) exited ${code}: ${err}`))));
  });
}

/** Waits until every hit's audio is ready; throws with the reason when one fails. */
async function processed(server: RunningServer, ids: string[]): Promise<void> {
  const end = Date.now() + 180_000;
  for (;;) {
    const rows = await server.db.selectFrom('hits').select(['id', 'audio_state']).where('id', 'in', ids).execute();
    if (rows.length === ids.length && rows.every((r) => r.audio_state === 'ready')) return;
    const failed = rows.find((r) => r.audio_state === 'failed');
    if (failed) {
      const reasons = await server.audio.store.failures(10);
      throw new Error(`the audio pipeline failed hit ${failed.id}: ${JSON.stringify(reasons.find((f) => f.id === failed.id) ?? reasons[0] ?? 'no reason')}`);
    }
    if (Date.now() > end) throw new Error(`audio not ready after 180 s: ${rows.map((r) => r.audio_state).join(', ')}`);
    await sleep(200);
  }
}

/** CPU time of this process's ended child processes (user + system, ms): fields 16 and 17 of /proc/self/stat. */
function childCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // fields[0] is field 3 (state); the kernel counts in ticks of 10 ms (USER_HZ 100)
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function api(base: string, cookie: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A running two-player Public game in audio mode with 20 s clips; its id and draw count. */
async function startGame(base: string, alice: string, bob: string): Promise<{ id: string; draws: number }> {
  const settings = { clue_mode: 'audio', goal: 1, hit_duration: HIT_SECONDS, guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 };
  const created = await api(base, alice, 'POST', '/api/games', { mode: 'Public', settings });
  if (created.status !== 201) throw new Error(`creating the game: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  for (const [who, method, path] of [
    [bob, 'PATCH', `/api/games/${id}/join`],
    [alice, 'PATCH', `/api/games/${id}/start`],
  ] as const) {
    const r = await api(base, who, method, path);
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const game = await api(base, alice, 'GET', `/api/games/${id}`);
  if (game.body?.clue_mode !== 'audio') throw new Error(`the game is in ${game.body?.clue_mode} mode, not audio`);
  return { id, draws: game.body.draws as number };
}

/** GET with the session; time to the first body byte, the body and its type. */
async function fetchTimed(url: string, cookie: string): Promise<{ status: number; type: string; bytes: Buffer; ttfb: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const chunks: Buffer[] = [];
  let ttfb = NaN;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (chunks.length === 0) ttfb = performance.now() - t0;
    chunks.push(Buffer.from(chunk));
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.concat(chunks), ttfb };
}

async function duration(bytes: Buffer, mimeType: string): Promise<number> {
  const meta = await parseBuffer(bytes, { mimeType, size: bytes.length }, { duration: true });
  return meta.format.duration ?? NaN;
}

interface Try {
  prefetchMs: number;
  startMs: number;
}

/** The browser side of step 3 (see the module comment). */
async function playInChromium(base: string, cookie: string, clipUrl: string, tries: number): Promise<{ html: Try[]; howler: Try[]; outputLatencyMs: number; version: string }> {
  const version = chromiumVersion();
  const profile = mkdtempSync(join(tmpdir(), 'hitline-bench-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    await ctx.addCookies(
      cookie.split('; ').map((pair) => {
        const eq = pair.indexOf('=');
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: base };
      }),
    );
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    // a blank page on the server's origin (the clip is same-origin, as in the app)
    const pageUrl = `${base}/__bench/audio`;
    await page.route(pageUrl, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>audio bench</title>' }));
    await page.goto(pageUrl);
    await page.addScriptTag({ content: readFileSync(join(import.meta.dirname, '..', 'node_modules', 'howler', 'dist', 'howler.min.js'), 'utf8') });

    const html = await page.evaluate(
      async ({ url, tries }) => {
        const out: { prefetchMs: number; startMs: number }[] = [];
        for (let i = 0; i < tries; i++) {
          const a = new Audio();
          a.preload = 'auto';
          const loading = performance.now();
          const ready = new Promise<void>((resolve, reject) => {
            a.addEventListener('canplaythrough', () => resolve(), { once: true });
            a.addEventListener('error', () => reject(new Error(`media error ${a.error?.code}: ${a.error?.message}`)), { once: true });
          });
          a.src = url;
          await ready;
          const prefetchMs = performance.now() - loading;
          await new Promise((r) => setTimeout(r, 50));
          const playing = new Promise<number>((resolve) => a.addEventListener('playing', () => resolve(performance.now()), { once: true }));
          const t0 = performance.now();
          await a.play();
          const t1 = await playing;
          out.push({ prefetchMs, startMs: t1 - t0 });
          a.pause();
          a.removeAttribute('src');
          a.load();
        }
        return out;
      },
      { url: clipUrl, tries },
    );

    const howler = await page.evaluate(
      async ({ url, tries }) => {
        type H = {
          once(e: string, fn: (...a: unknown[]) => void): void;
          play(): number;
          stop(): void;
          unload(): void;
          _soundById(id: number): { _playStart: number };
        };
        const w = window as unknown as { Howl: new (o: object) => H; Howler: { ctx: AudioContext } };
        const out: { prefetchMs: number; startMs: number }[] = [];
        for (let i = 0; i < tries; i++) {
          const loading = performance.now();
          const h = new w.Howl({ src: [url], format: ['opus'], preload: true });
          await new Promise<void>((resolve, reject) => {
            h.once('load', () => resolve());
            h.once('loaderror', (_id, err) => reject(new Error(`Howler loaderror: ${String(err)}`)));
          });
          const prefetchMs = performance.now() - loading;
          await new Promise((r) => setTimeout(r, 50));
          const ctx = w.Howler.ctx;
          if (ctx.state !== 'running') await ctx.resume();
          const t0 = performance.now();
          const id = h.play();
          const start = h._soundById(id)._playStart;
          // the audio clock passes the start once the first samples of the clip are rendered
          while (ctx.currentTime <= start) await new Promise((r) => setTimeout(r, 0));
          out.push({ prefetchMs, startMs: performance.now() - t0 });
          h.stop();
          h.unload();
        }
        return { out, latency: ((w.Howler.ctx.outputLatency || 0) + (w.Howler.ctx.baseLatency || 0)) * 1000 };
      },
      { url: clipUrl, tries },
    );
    return { html, howler: howler.out, outputLatencyMs: howler.latency, version };
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
