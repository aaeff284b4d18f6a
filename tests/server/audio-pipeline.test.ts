/**
 * The audio pipeline (issue 6, docs/api.md#b9) with the real ffmpeg on real audio made
 * here: loudness, cut, tags, sizes; a fake yt-dlp in every way it can go wrong;
 * bad sources; a restart in the middle of the queue; the folder import; and the
 * HTTP side (upload, status, retry, progress events).
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { parseFile } from 'music-metadata';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { AudioQueuedSchema, AudioStatusSchema } from '../../server/http/audio-admin.ts';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { AudioPipeline, processedFiles, type AudioPipelineOptions } from '../../server/services/audio/pipeline.ts';
import { LOUDNESS_TARGET, parseEbur128, transcode } from '../../server/services/audio/transcode.ts';
import type { GlobalEventEnvelope } from '../../server/events/bus.ts';
import { DOWNLOAD_FAILED_MESSAGE, ReportsService } from '../../server/services/reports.ts';
import { chooseYtdlp, failureCause, YTDLP_MISSING, YTDLP_OFF } from '../../server/services/audio/ytdlp.ts';
import { bootServer, PACK_ONE, SseReader, User, waitFor, type TestServer } from './harness.ts';
import { stringify } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FF = ffmpegPath(undefined);
const work = mkdtempSync(join(tmpdir(), 'hitline-audio-'));
const inputs = join(work, 'inputs');
mkdirSync(inputs);
const silent = pino({ level: 'silent' });

afterAll(() => rmSync(work, { recursive: true, force: true }));

// --- helpers ------------------------------------------------------------------

/** Runs the real ffmpeg; rejects with its stderr on failure. */
function ff(args: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(FF, ['-hide_banner', '-nostdin', '-y', ...args], { maxBuffer: 64 << 20 }, (err, _stdout, stderr) => (err ? fail(new Error(stderr)) : ok(stderr)));
  });
}

/** Makes `name` in the inputs folder from lavfi `source` (+ extra output options). */
async function gen(name: string, source: string, extra: string[] = []): Promise<string> {
  const file = join(inputs, name);
  await ff(['-f', 'lavfi', '-i', source, ...extra, file]);
  return file;
}

/** EBU R128 integrated loudness and true peak, measured by ffmpeg's ebur128 filter. */
async function loudness(file: string): Promise<{ I: number; TP: number }> {
  const stderr = await new Promise<string>((ok) => execFile(FF, ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'], (_e, _o, se) => ok(se)));
  const r = parseEbur128(stderr);
  if (!r) throw new Error(`no loudness for ${file}`);
  return { I: r.integrated, TP: r.truePeak };
}

/** Main frequency of `seconds` of `file` from `start`, by zero crossings of the decoded mono signal. */
async function frequency(file: string, start: number, seconds: number): Promise<number> {
  const pcm = await new Promise<Buffer>((ok, fail) =>
    // -ss after -i: decoded from the start and cut exactly (an input seek in an MP3 begins with silence)
    execFile(FF, ['-v', 'error', '-i', file, '-ss', String(start), '-t', String(seconds), '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], { encoding: 'buffer', maxBuffer: 64 << 20 }, (e, out) =>
      e ? fail(e) : ok(out),
    ),
  );
  const samples = new Float32Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 4));
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / 2 / (samples.length / 16000);
}

/** Whether process `pid` still runs (a zombie nobody reaped does not: PID 1 of a container may not reap). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Writes an executable shell script. */
function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A logger whose lines the test can read. */
function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info', base: undefined }, sink), lines };
}

const opened: Db[] = [];
async function db(dir: string): Promise<Db> {
  const d = await openDatabase(`sqlite:${join(dir, 'hitline.sqlite')}`);
  opened.push(d);
  return d;
}
afterAll(async () => {
  for (const d of opened) await d.destroy().catch(() => undefined);
});

let hitNo = 0;
async function addHit(d: Db, fields: { title?: string; artist?: string; yt_id?: string | null; playback_offset?: number } = {}): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  hitNo++;
  await d
    .insertInto('hits')
    .values({ id, title: fields.title ?? `Song ${hitNo}`, artist: fields.artist ?? `Artist ${hitNo}`, year: 1990, belongs_to: '', yt_id: fields.yt_id ?? null, playback_offset: fields.playback_offset ?? 0, created_at: now, updated_at: now })
    .execute();
  return id;
}

const pipelines: AudioPipeline[] = [];
function pipeline(d: Db, audioDir: string, options: Partial<AudioPipelineOptions> = {}): AudioPipeline {
  const p = new AudioPipeline({ db: d, log: silent, audioDir, ffmpeg: FF, pollMs: 100, backoffMs: 50, maxAttempts: 3, processTimeoutMs: 30_000, fetchTimeoutMs: 10_000, ...options });
  pipelines.push(p);
  return p;
}
afterAll(async () => {
  await Promise.all(pipelines.map((p) => p.stop()));
});

async function state(d: Db, hitId: string): Promise<string> {
  return (await d.selectFrom('hits').select('audio_state').where('id', '=', hitId).executeTakeFirstOrThrow()).audio_state;
}
async function job(d: Db, hitId: string) {
  return d.selectFrom('audio_jobs').selectAll().where('hit_id', '=', hitId).executeTakeFirstOrThrow();
}
/** Waits until every hit is in a final state (ready or failed); returns the states. */
async function settle(d: Db, hitIds: string[], ms = 30_000): Promise<Record<string, string>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await d.selectFrom('hits').select(['id', 'audio_state']).where('id', 'in', hitIds).execute();
    const states = Object.fromEntries(rows.map((r) => [r.id, r.audio_state]));
    if (rows.every((r) => r.audio_state === 'ready' || r.audio_state === 'failed')) return states;
    if (Date.now() > deadline) throw new Error(`not settled in ${ms} ms: ${JSON.stringify(states)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A processed hit's outputs are real audio at the target loudness, without tags. */
async function expectProcessed(audioDir: string, hitId: string, seconds: number): Promise<void> {
  const files = processedFiles(audioDir, hitId);
  for (const [file, rate] of [
    [files.opus, 48000],
    [files.mp3, 44100],
  ] as const) {
    const meta = await parseFile(file, { duration: true });
    expect(meta.format.sampleRate, file).toBe(rate);
    expect(meta.format.duration!, file).toBeGreaterThan(seconds - 0.2);
    expect(meta.format.duration!, file).toBeLessThan(seconds + 0.2);
    const { I } = await loudness(file);
    expect(Math.abs(I - LOUDNESS_TARGET.integrated), `${file}: ${I} LUFS`).toBeLessThanOrEqual(1);
  }
}

// --- inputs -------------------------------------------------------------------

let espeak: string | null = null;
let espeakSkip = '';
const src: Record<string, string> = {};

beforeAll(async () => {
  // speech from espeak-ng: installed here when apt-get can, else that case is skipped with the reason
  const has = () => spawnSync('espeak-ng', ['--version']).status === 0;
  if (!has()) {
    const apt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
    if (apt && process.getuid?.() === 0) {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'espeak-ng'], { env, timeout: 180_000 });
      if (r.status !== 0) {
        spawnSync('apt-get', ['update'], { env, timeout: 180_000 });
        r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'espeak-ng'], { env, timeout: 180_000 });
      }
      if (r.status !== 0) espeakSkip = `apt-get could not install espeak-ng: ${String(r.stderr).trim().split('\n').at(-1)}`;
    } else espeakSkip = apt ? 'espeak-ng is missing and apt-get needs root' : 'espeak-ng is missing and there is no apt-get';
  }
  if (has()) {
    espeak = join(inputs, 'speech.wav');
    spawnSync('espeak-ng', ['-w', espeak, 'The quick brown fox jumps over the lazy dog. Hitline plays the songs of your life, one year at a time.']);
  } else console.warn(`skipping the speech case: ${espeakSkip}`);

  const cover = join(inputs, 'cover.png');
  await ff(['-f', 'lavfi', '-i', 'color=red:size=64x64:duration=1', '-frames:v', '1', cover]);
  const [quiet, normal, loud, dynamic, step, tagged, flac, twenty, short, silence] = await Promise.all([
    gen('quiet.wav', 'sine=frequency=440:duration=6', ['-af', 'volume=-40dB']),
    gen('normal.mp3', 'sine=frequency=523:duration=6', ['-af', 'volume=-12dB', '-c:a', 'libmp3lame', '-q:a', '2']),
    gen('loud.wav', 'anoisesrc=color=pink:duration=6:amplitude=0.95'),
    // quiet verse, loud chorus
    ff([
      '-f', 'lavfi', '-i', 'sine=frequency=330:duration=4', '-f', 'lavfi', '-i', 'anoisesrc=color=pink:duration=4:amplitude=0.8',
      '-filter_complex', '[0]volume=-30dB[a];[a][1]concat=n=2:v=0:a=1', join(inputs, 'dynamic.wav'),
    ]).then(() => join(inputs, 'dynamic.wav')),
    // 440 Hz for 4 s, then 880 Hz for 8 s: the offset must land on the change
    ff([
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4', '-f', 'lavfi', '-i', 'sine=frequency=880:duration=8',
      '-filter_complex', '[0][1]concat=n=2:v=0:a=1', '-ar', '44100', join(inputs, 'step.wav'),
    ]).then(() => join(inputs, 'step.wav')),
    // ID3v2 tags and a cover picture
    ff([
      '-f', 'lavfi', '-i', 'sine=frequency=600:duration=5', '-i', cover, '-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-c:v', 'png', '-disposition:v', 'attached_pic',
      '-id3v2_version', '3', '-metadata', 'title=Secret Title', '-metadata', 'artist=Secret Artist', '-metadata', 'album=Secret Album', '-metadata', 'date=1987',
      join(inputs, 'tagged.mp3'),
    ]).then(() => join(inputs, 'tagged.mp3')),
    // Vorbis comments and a picture block
    ff([
      '-f', 'lavfi', '-i', 'sine=frequency=700:duration=5', '-i', cover, '-map', '0:a', '-map', '1:v', '-c:a', 'flac', '-c:v', 'png', '-disposition:v', 'attached_pic',
      '-metadata', 'TITLE=Secret Flac', '-metadata', 'ARTIST=Secret Flac Artist', '-metadata', 'DATE=1969', join(inputs, 'tagged.flac'),
    ]).then(() => join(inputs, 'tagged.flac')),
    gen('twenty.wav', 'anoisesrc=color=white:duration=20:amplitude=0.5', ['-ac', '2']),
    gen('short.wav', 'sine=frequency=440:duration=3'),
    gen('silence.wav', 'anullsrc=r=44100:cl=mono', ['-t', '5']),
  ]);
  Object.assign(src, { quiet, normal, loud, dynamic, step, tagged, flac, twenty, short, silence });
}, 240_000);

// --- processing ---------------------------------------------------------------

describe('processing with the real ffmpeg', () => {
  it('brings every input to the same loudness (within 1 LU of the target), whatever its level', async () => {
    const cases: Array<[string, string]> = [
      ['quiet tone (-40 dBFS)', src.quiet!],
      ['normal tone (MP3)', src.normal!],
      ['loud pink noise', src.loud!],
      ['quiet verse, loud chorus', src.dynamic!],
    ];
    if (espeak) {
      cases.push(['speech (espeak-ng)', espeak]);
      const quietSpeech = join(inputs, 'speech-quiet.wav');
      await ff(['-i', espeak, '-af', 'volume=-25dB', quietSpeech]);
      cases.push(['quiet speech', quietSpeech]);
    }
    const table: string[] = [];
    const ctx = { ffmpeg: FF, timeoutMs: 30_000 };
    await Promise.all(
      cases.map(async ([label, file], i) => {
        const input = await loudness(file);
        const out = await transcode(ctx, file, 0, join(work, `loud-${i}`));
        const opus = await loudness(out.opus);
        const mp3 = await loudness(out.mp3);
        table[i] = `${label.padEnd(26)} in ${input.I.toFixed(1).padStart(6)} LUFS  gain ${out.gainDb.toFixed(1).padStart(5)} dB${out.limited ? ' +limiter' : '          '}  opus ${opus.I.toFixed(1)} LUFS ${opus.TP.toFixed(1)} dBTP  mp3 ${mp3.I.toFixed(1)} LUFS ${mp3.TP.toFixed(1)} dBTP`;
        for (const m of [opus, mp3]) {
          expect(Math.abs(m.I - LOUDNESS_TARGET.integrated), `${label}: ${m.I} LUFS`).toBeLessThanOrEqual(1);
          // the ceiling, plus what a lossy codec may add to inter-sample peaks
          expect(m.TP, `${label}: ${m.TP} dBTP`).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak + 0.5);
        }
      }),
    );
    console.info(`loudness (target ${LOUDNESS_TARGET.integrated} LUFS, ${LOUDNESS_TARGET.truePeak} dBTP):\n${table.join('\n')}`);
    if (!espeak) console.warn(`speech case skipped: ${espeakSkip}`);
  }, 60_000);

  it('cuts at the playback offset and keeps the rest: duration and content right', async () => {
    const ctx = { ffmpeg: FF, timeoutMs: 30_000 };
    const cut = await transcode(ctx, src.step!, 4, join(work, 'step-4'));
    expect(cut.duration).toBeGreaterThan(7.9);
    expect(cut.duration).toBeLessThan(8.1);
    for (const file of [cut.opus, cut.mp3]) {
      // the first half second after the offset is already the second tone
      expect(await frequency(file, 0.05, 0.5)).toBeGreaterThan(860);
      expect(await frequency(file, 0.05, 0.5)).toBeLessThan(900);
      expect(await frequency(file, 7, 0.5)).toBeGreaterThan(860);
    }
    const whole = await transcode(ctx, src.step!, 0, join(work, 'step-0'));
    expect(whole.duration).toBeGreaterThan(11.9);
    expect(whole.duration).toBeLessThan(12.1);
    expect(Math.abs((await frequency(whole.opus, 0.5, 1)) - 440)).toBeLessThan(20);
    expect(Math.abs((await frequency(whole.opus, 6, 1)) - 880)).toBeLessThan(20);
  }, 60_000);

  it('strips every tag and picture (ID3v2 + APIC, Vorbis comments + picture block)', async () => {
    const ctx = { ffmpeg: FF, timeoutMs: 30_000 };
    for (const [i, file] of [src.tagged!, src.flac!].entries()) {
      const before = await parseFile(file);
      expect(before.common.title).toMatch(/^Secret/);
      expect(before.common.picture?.length).toBe(1);
      const out = await transcode(ctx, file, 1, join(work, `tags-${i}`));
      for (const f of [out.opus, out.mp3]) {
        const meta = await parseFile(f, { duration: true });
        expect(meta.common.title, f).toBeUndefined();
        expect(meta.common.artist, f).toBeUndefined();
        expect(meta.common.album, f).toBeUndefined();
        expect(meta.common.year, f).toBeUndefined();
        expect(meta.common.picture, f).toBeUndefined();
        // not even an encoder comment
        expect(Object.values(meta.native).flat(), f).toEqual([]);
        const bytes = readFileSync(f).toString('latin1');
        expect(bytes, f).not.toMatch(/Secret|1987|1969/);
        // ffmpeg sees a single audio stream and no picture
        const probe = await ff(['-i', f]).catch((e: Error) => e.message);
        expect(probe.match(/Stream #0:\d+/g)?.length, f).toBe(1);
        expect(probe, f).not.toMatch(/Video:/);
      }
    }
  }, 60_000);

  it('makes small files: Opus ~96 kbit/s (20 s ≤ 400 KB) at 48 kHz, MP3 at 44.1 kHz', async () => {
    const out = await transcode({ ffmpeg: FF, timeoutMs: 30_000 }, src.twenty!, 0, join(work, 'twenty'));
    const opus = statSync(out.opus).size;
    const mp3 = statSync(out.mp3).size;
    console.info(`20 s of white noise: Opus ${Math.round(opus / 1024)} KB, MP3 ${Math.round(mp3 / 1024)} KB`);
    expect(opus).toBeLessThanOrEqual(400 * 1024);
    expect((await parseFile(out.opus, { duration: true })).format.sampleRate).toBe(48000);
    expect((await parseFile(out.mp3, { duration: true })).format.sampleRate).toBe(44100);
  }, 30_000);
});

// --- the queue: sources, failures, retries, restarts ---------------------------

describe('the pipeline with local sources', () => {
  let dir: string;
  let d: Db;
  let audioDir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(work, 'local-'));
    d = await db(dir);
    audioDir = join(dir, 'audio');
  });

  it('processes file sources to ready, each output in place and checked', async () => {
    const p = pipeline(d, audioDir, { concurrency: 2 });
    await p.start();
    const cut = await addHit(d, { playback_offset: 4 });
    const plain = await addHit(d);
    expect(await p.enqueue(cut, { kind: 'file', path: src.step! })).toEqual({ ok: true, state: 'queued' });
    expect(await p.enqueue(plain, { kind: 'file', path: src.short! })).toEqual({ ok: true, state: 'queued' });
    expect(await settle(d, [cut, plain])).toEqual({ [cut]: 'ready', [plain]: 'ready' });
    await expectProcessed(audioDir, cut, 8);
    await expectProcessed(audioDir, plain, 3);
    expect(await frequency(processedFiles(audioDir, cut).opus, 0.05, 0.5)).toBeGreaterThan(860);
    const row = await job(d, cut);
    expect(row).toMatchObject({ source: 'file', source_path: src.step, claim: null, error: null });
    expect(row.duration).toBeGreaterThan(7.9);
    // no temporary files left next to the served ones
    expect(readdirSync(audioDir).filter((n) => !['sources', '.tmp'].includes(n)).sort()).toEqual([`${cut}.mp3`, `${cut}.opus`, `${plain}.mp3`, `${plain}.opus`].sort());
    expect(readdirSync(join(audioDir, '.tmp'))).toEqual([]);
    await p.stop();
  }, 60_000);

  it('fails bad sources with a readable reason, never ready and never stuck', async () => {
    const p = pipeline(d, audioDir, { concurrency: 2 });
    await p.start();
    const text = join(inputs, 'not-audio.mp3');
    writeFileSync(text, 'this is not audio, just text pretending to be an mp3\n'.repeat(20));
    const empty = join(inputs, 'empty.mp3');
    writeFileSync(empty, '');
    // two hours of 8 kHz 8-bit PCM: really that long, refused by its length before any decoding
    const long = join(inputs, 'two-hours.wav');
    const seconds = 2 * 3600;
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + seconds * 8000, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(8000, 24);
    header.writeUInt32LE(8000, 28);
    header.writeUInt16LE(1, 32);
    header.writeUInt16LE(8, 34);
    header.write('data', 36);
    header.writeUInt32LE(seconds * 8000, 40);
    writeFileSync(long, Buffer.concat([header, Buffer.alloc(seconds * 8000, 0x80)]));
    // an HLS playlist naming a real audio file of the server: never followed
    const playlist = join(inputs, 'playlist.mp3');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,\nfile://${src.short!}\n#EXT-X-ENDLIST\n`);
    const cases: Array<[string, string, number, RegExp]> = [
      ['text', text, 0, /^not an audio file/],
      ['empty', empty, 0, /^the source file is empty$/],
      ['hours', long, 0, /^the audio is too long \(2 h 0 min; the limit is 30 min\)$/],
      ['past end', src.short!, 30, /^the playback offset \(30 s\) is past the end of the audio \(3 s long\)$/],
      ['silence', src.silence!, 0, /^the audio is silent/],
      ['picture', join(inputs, 'cover.png'), 0, /^not an audio file \(not in an audio format\)$/],
      ['missing', join(inputs, 'no-such-file.mp3'), 0, /^the source file is missing$/],
      ['playlist', playlist, 0, /^not an audio file \(not in an audio format\)$/],
    ];
    const ids: string[] = [];
    for (const [, file, offset] of cases) {
      const id = await addHit(d, { playback_offset: offset });
      ids.push(id);
      await p.enqueue(id, { kind: 'file', path: file });
    }
    const t0 = Date.now();
    const states = await settle(d, ids);
    const elapsed = Date.now() - t0;
    for (const [i, [label, , , reason]] of cases.entries()) {
      expect(states[ids[i]!], label).toBe('failed');
      const row = await job(d, ids[i]!);
      expect(row.error, label).toMatch(reason);
      // permanent: failed at the first attempt, no retry
      expect(row.attempts, label).toBe(1);
      expect(existsSync(processedFiles(audioDir, ids[i]!).opus), label).toBe(false);
    }
    // the two-hour file never got decoded: everything was refused quickly
    expect(elapsed).toBeLessThan(5000);
    const status = await p.status();
    expect(status.failures.map((f) => f.id)).toEqual(expect.arrayContaining(ids));
    expect(status.failures.find((f) => f.id === ids[2])).toMatchObject({ reason: expect.stringMatching(/too long/), attempts: 1, source: 'file', title: expect.any(String), artist: expect.any(String) });
    await p.stop();
    rmSync(long);
  }, 60_000);

  it('fails when ffmpeg fails, hangs or writes a broken file: never ready', async () => {
    const crash = script(join(work, 'ffmpeg-crash.sh'), `case "$*" in *libopus*) echo "Simulated encoder crash: Invalid argument" >&2; exit 1;; esac\nexec "${FF}" "$@"`);
    // exits 0 but the MP3 it "wrote" is garbage
    const garbage = script(
      join(work, 'ffmpeg-garbage.sh'),
      `"${FF}" "$@" || exit $?\ncase "$*" in *libmp3lame*) for last in "$@"; do :; done; printf 'garbage, not mp3 frames' > "$last";; esac\nexit 0`,
    );
    const hang = script(join(work, 'ffmpeg-hang.sh'), `case "$*" in *libopus*) sleep 30;; esac\nexec "${FF}" "$@"`);
    const results: Record<string, { state: string; error: string | null; attempts: number }> = {};
    for (const [label, bin] of [
      ['crash', crash],
      ['garbage', garbage],
      ['hang', hang],
    ] as const) {
      const p = pipeline(d, audioDir, { ffmpeg: bin, processTimeoutMs: 1500, maxAttempts: 2 });
      await p.start();
      const id = await addHit(d);
      await p.enqueue(id, { kind: 'file', path: src.short! });
      const states = await settle(d, [id], 20_000);
      const row = await job(d, id);
      results[label] = { state: states[id]!, error: row.error, attempts: row.attempts };
      expect(existsSync(processedFiles(audioDir, id).opus), label).toBe(false);
      expect(existsSync(processedFiles(audioDir, id).mp3), label).toBe(false);
      await p.stop();
    }
    expect(results.crash).toEqual({ state: 'failed', error: 'ffmpeg failed to encode the audio (Simulated encoder crash: Invalid argument)', attempts: 1 });
    expect(results.garbage).toMatchObject({ state: 'failed', error: expect.stringMatching(/^the MP3 file is not decodable/), attempts: 1 });
    // a timeout is transient: tried again, then failed for good
    expect(results.hang).toEqual({ state: 'failed', error: 'ffmpeg did not finish encoding within 1.5 s', attempts: 2 });
  }, 60_000);
});

describe('the YouTube source through a fake yt-dlp', () => {
  let dir: string;
  let d: Db;
  let audioDir: string;
  let calls: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(work, 'yt-'));
    d = await db(dir);
    audioDir = join(dir, 'audio');
    calls = join(dir, 'calls.log');
  });

  /** One fake yt-dlp; the video id picks the behaviour. */
  function fakeYtdlp(): string {
    return script(
      join(dir, 'yt-dlp'),
      `echo "$(date +%s%N) $*" >> "${calls}"
out=""; url=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift;; --) url="$2"; shift;; esac
  shift
done
id="\${url##*v=}"
target=$(echo "$out" | sed 's/%(ext)s/mp3/')
case "$id" in
  okokokokok1) cp "${src.tagged}" "$target";;
  unavailabl1) echo "ERROR: [youtube] unavailabl1: Video unavailable. This video has been removed by the uploader" >&2; exit 1;;
  netfailnet1) echo "ERROR: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>" >&2; exit 1;;
  flakyflaky1)
    if [ -e "${dir}/flaky-once" ]; then cp "${src.short}" "$target"; else touch "${dir}/flaky-once"; echo "ERROR: HTTP Error 503: Service Unavailable" >&2; exit 1; fi;;
  hanghanghan) echo $$ > "${dir}/hang.pid"; sleep 60 & echo $! > "${dir}/sleep.pid"; wait;;
  nothingnoth) echo "[download] nothing to do";;
  partpartpar) printf 'half' > "$target.part"; exit 0;;
esac
exit 0`,
    );
  }

  it('each behaviour ends in the right state with a readable reason, and the queue moves on', async () => {
    const bin = fakeYtdlp();
    const p = pipeline(d, audioDir, { ytdlp: bin, concurrency: 2, fetchTimeoutMs: 1000, maxAttempts: 3, backoffMs: 100, queueYoutubeOnStart: true });
    const ids: Record<string, string> = {};
    for (const yt of ['okokokokok1', 'unavailabl1', 'netfailnet1', 'flakyflaky1', 'hanghanghan', 'nothingnoth', 'partpartpar']) ids[yt] = await addHit(d, { yt_id: yt, playback_offset: 1 });
    // on start, every hit with a YouTube id and no audio is queued
    await p.start();
    const states = await settle(d, Object.values(ids), 30_000);
    const rows = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([yt, id]) => [yt, { state: states[id], ...(await job(d, id)) }] as const)));

    expect(rows.okokokokok1).toMatchObject({ state: 'ready', source: 'youtube', error: null });
    expect(rows.okokokokok1!.source_path).toBe(join(audioDir, 'sources', `${ids.okokokokok1}.mp3`));
    expect(existsSync(rows.okokokokok1!.source_path!)).toBe(true);
    await expectProcessed(audioDir, ids.okokokokok1!, 4);

    expect(rows.unavailabl1).toMatchObject({ state: 'failed', attempts: 1, error: 'yt-dlp failed (exit 1): ERROR: [youtube] unavailabl1: Video unavailable. This video has been removed by the uploader' });
    expect(rows.netfailnet1).toMatchObject({ state: 'failed', attempts: 3, error: expect.stringMatching(/^yt-dlp failed \(exit 1\): ERROR: Unable to download webpage/) });
    expect(rows.flakyflaky1).toMatchObject({ state: 'ready', attempts: 1 });
    expect(rows.hanghanghan).toMatchObject({ state: 'failed', attempts: 3, error: 'yt-dlp did not finish within 1 s' });
    expect(rows.nothingnoth).toMatchObject({ state: 'failed', attempts: 1, error: 'yt-dlp finished without writing an audio file' });
    expect(rows.partpartpar).toMatchObject({ state: 'failed', attempts: 1, error: 'yt-dlp finished without writing an audio file' });

    // the real command line, as argv
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    const ok = lines.find((l) => l.includes('v=okokokokok1'))!.split(' ').slice(1);
    expect(ok.slice(0, 5)).toEqual(['-f', 'bestaudio', '--no-playlist', '--no-progress', '-o']);
    expect(ok[5]).toMatch(/\/\.tmp\/[0-9a-f-]{36}-[\w-]+\/download\.%\(ext\)s$/);
    expect(ok.slice(6)).toEqual(['--', 'https://www.youtube.com/watch?v=okokokokok1']);
    // retries back off exponentially (100 ms, then 200 ms)
    const times = lines.filter((l) => l.includes('v=netfailnet1')).map((l) => Number(BigInt(l.split(' ')[0]!) / 1_000_000n));
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(100);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(200);
    // the hung yt-dlp and what it started were killed
    for (const f of ['hang.pid', 'sleep.pid']) expect(alive(Number(readFileSync(join(dir, f), 'utf8'))), f).toBe(false);
    // nothing left in the work folder
    expect(readdirSync(join(audioDir, '.tmp'))).toEqual([]);
    await p.stop();
  }, 60_000);

  it('a download that fails for good files the automatic report "hit failed to download" once; audio ready clears it', async () => {
    // a video that fails until the marker file exists
    const marker = join(dir, 'video-back');
    const bin = script(
      join(dir, 'yt-dlp-toggle'),
      `out=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift;; esac
  shift
done
if [ -e "${marker}" ]; then cp "${src.short}" "$(echo "$out" | sed 's/%(ext)s/mp3/')"; exit 0; fi
echo "ERROR: [youtube] togglefail1: Video unavailable" >&2; exit 1`,
    );
    const published: GlobalEventEnvelope[] = [];
    const reports = new ReportsService(d, silent, { events: { publishGlobal: async (e) => void published.push(e) } });
    const p = pipeline(d, audioDir, { ytdlp: bin, maxAttempts: 1, queueYoutubeOnStart: false, reports });
    const id = await addHit(d, { yt_id: 'togglefail1' });
    const processedOnly = await addHit(d, { yt_id: 'togglefail2' });
    await p.start();
    const openAuto = () => d.selectFrom('hit_issues').selectAll().where('hit_id', '=', id).execute();

    expect(await p.enqueue(id)).toEqual({ ok: true, state: 'queued' });
    expect((await settle(d, [id]))[id]).toBe('failed');
    const [first] = await openAuto();
    expect(first).toMatchObject({ type: 'auto', kind: 'bad_audio', message: DOWNLOAD_FAILED_MESSAGE, status: 'open', reporter: null });
    expect(published.map((e) => [e.event, e.permission])).toEqual([['create_hit_issue', 'read_issues']]);

    // failing again: the same report, only its last_modified moves
    await new Promise((r) => setTimeout(r, 5));
    expect((await p.retry(id)).ok).toBe(true);
    expect((await settle(d, [id]))[id]).toBe('failed');
    const again = await openAuto();
    expect(again).toHaveLength(1);
    expect(again[0]!.id).toBe(first!.id);
    expect(again[0]!.last_modified > first!.last_modified).toBe(true);
    expect(published).toHaveLength(1);

    // the video is back: ready, and the report is gone with a delete_hit_issue
    writeFileSync(marker, '');
    expect((await p.retry(id)).ok).toBe(true);
    expect((await settle(d, [id]))[id]).toBe('ready');
    expect(await openAuto()).toEqual([]);
    expect(published.at(-1)).toEqual({ event: 'delete_hit_issue', data: { hit_id: id, issue_id: first!.id }, permission: 'read_issues' });

    // a job that fails after its download (ffmpeg on a broken source) files nothing
    rmSync(marker);
    const brokenSource = join(dir, 'broken.mp3');
    writeFileSync(brokenSource, 'not audio at all');
    expect((await p.enqueue(processedOnly, { kind: 'file', path: brokenSource })).ok).toBe(true);
    expect((await settle(d, [processedOnly]))[processedOnly]).toBe('failed');
    expect(await d.selectFrom('hit_issues').selectAll().where('hit_id', '=', processedOnly).execute()).toEqual([]);
    await p.stop();
  }, 60_000);

  it('names the cause of a failure in a word: no yt-dlp, unavailable, blocked in the country, age, network, too long, other', () => {
    const cases: [string, string][] = [
      [YTDLP_MISSING, 'no_ytdlp'],
      [YTDLP_OFF, 'no_ytdlp'],
      ['yt-dlp failed (exit 1): ERROR: [youtube] unavailabl1: Video unavailable. This video has been removed by the uploader', 'unavailable'],
      ['yt-dlp failed (exit 1): ERROR: [youtube] abc: Private video. Sign in if you\'ve been granted access to this video', 'unavailable'],
      ['yt-dlp failed (exit 1): ERROR: [youtube] abc: The uploader has not made this video available in your country', 'country'],
      ['yt-dlp failed (exit 1): ERROR: [youtube] abc: Video unavailable. This video is not available in your country', 'country'],
      ['yt-dlp failed (exit 1): ERROR: [youtube] abc: Sign in to confirm your age. This video may be inappropriate for some users.', 'age'],
      ['yt-dlp failed (exit 1): ERROR: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>', 'network'],
      ['yt-dlp did not finish within 1 s', 'network'],
      ['the playback offset (300 s) is past the end of the audio (3 min 20 s long)', 'too_long'],
      ['yt-dlp finished without writing an audio file', 'other'],
    ];
    expect(cases.map(([reason]) => failureCause(reason))).toEqual(cases.map(([, cause]) => cause));
  });

  it('finds yt-dlp on the PATH when YTDLP_PATH is unset; YTDLP_PATH overrides it, and "off" switches the source off', () => {
    const bin = fakeYtdlp();
    const empty = mkdtempSync(join(dir, 'empty-'));
    // a yt-dlp that cannot run (not executable) is passed over for the next directory's
    const broken = mkdtempSync(join(dir, 'broken-'));
    writeFileSync(join(broken, 'yt-dlp'), '#!/bin/sh\n');
    chmodSync(join(broken, 'yt-dlp'), 0o644);
    const path = ['relative/dir', empty, broken, dir].join(':');
    expect(chooseYtdlp(undefined, path)).toEqual({ command: bin });
    expect(chooseYtdlp('', path)).toEqual({ command: bin });
    expect(chooseYtdlp('  ', path)).toEqual({ command: bin });
    expect(chooseYtdlp('/opt/yt/yt-dlp', path)).toEqual({ command: '/opt/yt/yt-dlp' });
    expect(chooseYtdlp('off', path)).toEqual({ reason: YTDLP_OFF });
    expect(chooseYtdlp('OFF', path)).toEqual({ reason: YTDLP_OFF });
    expect(chooseYtdlp(undefined, [empty, broken].join(':'))).toEqual({ reason: YTDLP_MISSING });
  });

  it('without a yt-dlp the source is off, and says so', async () => {
    const p = pipeline(d, audioDir, { ytdlp: undefined });
    await p.start();
    const id = await addHit(d, { yt_id: 'offoffoffo1' });
    expect(await state(d, id)).toBe('none');
    expect(await p.enqueue(id)).toEqual({ ok: true, state: 'failed' });
    expect((await job(d, id)).error).toBe(YTDLP_MISSING);
    expect((await p.status()).sources.youtube).toEqual({ enabled: false, reason: YTDLP_MISSING });
    // a hit without any source cannot be queued
    const bare = await addHit(d);
    expect(await p.enqueue(bare)).toMatchObject({ ok: false, code: 'no_audio_source' });
    await p.stop();
  });
});

describe('restarts', () => {
  /** ffmpeg that logs each run (start and end) and encodes slowly, so a test can stop a worker mid-job. */
  function slowFfmpeg(dir: string): { bin: string; log: string } {
    const log = join(dir, 'ffmpeg.log');
    const bin = script(
      join(dir, 'ffmpeg-slow.sh'),
      `case "$*" in *libopus*) echo "start $*" >> "${log}"; sleep 0.4;; esac\n"${FF}" "$@"; rc=$?\ncase "$*" in *libopus*) echo "end $rc $*" >> "${log}";; esac\nexit $rc`,
    );
    return { bin, log };
  }
  const encodes = (log: string, hitId: string, kind: 'start' | 'end 0') =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith(kind) && l.includes(`/.tmp/${hitId}-`)).length : 0;
  const readies = (lines: Array<Record<string, unknown>>, hitId: string) => lines.filter((l) => l.msg === 'audio ready' && l.hit === hitId).length;

  it('a worker stopped mid-queue: a new one on the same database finishes it; nothing lost, nothing processed twice', async () => {
    const dir = mkdtempSync(join(work, 'restart-'));
    const audioDir = join(dir, 'audio');
    const { bin, log } = slowFfmpeg(dir);
    const a = await db(dir);
    const cap = capturingLogger();
    const first = pipeline(a, audioDir, { ffmpeg: bin, concurrency: 1, log: cap.log });
    await first.start();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await addHit(a);
      ids.push(id);
      await first.enqueue(id, { kind: 'file', path: src.short! });
    }
    // stop while the second job is being encoded
    const starts = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('start')).length : 0);
    await waitFor(() => starts() === 2, 20_000, 'the second encode');
    const before = await Promise.all(ids.map((id) => state(a, id)));
    expect([...before].sort()).toEqual(['processing', 'queued', 'queued', 'ready']);
    const interrupted = ids[before.indexOf('processing')]!;
    await first.stop();
    const afterStop = await Promise.all(ids.map((id) => state(a, id)));
    expect(afterStop).toEqual(before.map((s) => (s === 'processing' ? 'queued' : s)));
    expect(await job(a, interrupted)).toMatchObject({ claim: null, attempts: 0 });
    await a.destroy();

    // "restart": a new connection and a new worker
    const b = await db(dir);
    const second = pipeline(b, audioDir, { ffmpeg: bin, concurrency: 2, log: cap.log });
    await second.start();
    expect(await settle(b, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'ready'])));
    for (const id of ids) {
      expect(readies(cap.lines, id), id).toBe(1);
      // the interrupted encode was killed before it ended; every other hit was encoded once
      expect(encodes(log, id, 'end 0'), id).toBe(1);
      expect(encodes(log, id, 'start'), id).toBe(id === interrupted ? 2 : 1);
    }
    await second.stop();
  }, 60_000);

  it('after a crash, jobs left fetching or processing go back to the queue on start', async () => {
    const dir = mkdtempSync(join(work, 'crash-'));
    const audioDir = join(dir, 'audio');
    const d = await db(dir);
    const store = pipeline(d, audioDir).store;
    const ids = [await addHit(d), await addHit(d), await addHit(d, { yt_id: 'crashcrash1' })];
    for (const id of ids.slice(0, 2)) await store.enqueue(id, 'file', src.short!);
    // what a killed server leaves behind: claimed jobs mid-way, a queued hit without a job row
    await d.updateTable('hits').set({ audio_state: 'fetching' }).where('id', '=', ids[0]!).execute();
    await d.updateTable('hits').set({ audio_state: 'processing' }).where('id', '=', ids[1]!).execute();
    await d.updateTable('audio_jobs').set({ claim: 'dead-worker' }).execute();
    await d.updateTable('hits').set({ audio_state: 'queued' }).where('id', '=', ids[2]!).execute();
    // "ready" hits whose files are gone: processed again from their source, or back to no audio
    const lost = await addHit(d);
    await store.enqueue(lost, 'file', src.short!);
    const bare = await addHit(d);
    await d.updateTable('hits').set({ audio_state: 'ready' }).where('id', 'in', [lost, bare]).execute();
    const p = pipeline(d, audioDir);
    await p.start();
    expect(await state(d, bare)).toBe('none');
    const states = await settle(d, [...ids, lost]);
    expect([states[ids[0]!], states[ids[1]!], states[lost]]).toEqual(['ready', 'ready', 'ready']);
    expect(existsSync(processedFiles(audioDir, lost).opus)).toBe(true);
    // the orphan got a YouTube job, which fails readably with yt-dlp off
    expect(states[ids[2]!]).toBe('failed');
    expect((await job(d, ids[2]!)).error).toBe(YTDLP_MISSING);
    await p.stop();
  }, 30_000);

  it('two workers on one database never take the same job', async () => {
    const dir = mkdtempSync(join(work, 'twins-'));
    const audioDir = join(dir, 'audio');
    const { bin, log } = slowFfmpeg(dir);
    const cap = capturingLogger();
    const a = await db(dir);
    const b = await db(dir);
    const pa = pipeline(a, audioDir, { ffmpeg: bin, concurrency: 2, log: cap.log, pollMs: 30 });
    const pb = pipeline(b, audioDir, { ffmpeg: bin, concurrency: 2, log: cap.log, pollMs: 30 });
    await pa.start();
    await pb.start();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await addHit(a));
    // queued behind both workers' backs (as the CLI does), all at once
    for (const id of ids) await pa.store.enqueue(id, 'file', src.short!);
    expect(await settle(a, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'ready'])));
    for (const id of ids) {
      expect(readies(cap.lines, id), id).toBe(1);
      expect(encodes(log, id, 'start'), id).toBe(1);
    }
    await Promise.all([pa.stop(), pb.stop()]);
  }, 60_000);
});

// --- folder import ------------------------------------------------------------

/** Runs the real CLI (`npm run cli -- …`) against `dbUrl`. */
function cli(dbUrl: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(process.execPath, ['server/cli/index.ts', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'silent' } }, (error, stdout, stderr) =>
      ok({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('import-folder', () => {
  it('imports a folder of good and bad files, reports the skipped ones, and the worker processes the rest', async () => {
    const dir = mkdtempSync(join(work, 'folder-'));
    const music = join(dir, 'My Music');
    mkdirSync(join(music, 'Sixties'), { recursive: true });
    const tone = (f: number, secs = 3) => ['-f', 'lavfi', '-i', `sine=frequency=${f}:duration=${secs}`];
    await Promise.all([
      ff([...tone(300), '-c:a', 'libmp3lame', '-id3v2_version', '3', '-metadata', 'title=Good Vibrations', '-metadata', 'artist=The Beach Boys', '-metadata', 'date=1966-10-10', join(music, 'good vibrations.mp3')]),
      ff([...tone(350), '-c:a', 'flac', '-metadata', 'TITLE=Space Oddity', '-metadata', 'ARTIST=David Bowie', '-metadata', 'DATE=1969', join(music, 'Sixties', 'space oddity.flac')]),
      ff([...tone(400), '-c:a', 'libvorbis', '-metadata', 'TITLE=Hey Ya!', '-metadata', 'ARTIST=OutKast', '-metadata', 'DATE=2003', join(music, 'hey ya.ogg')]),
      // the catalogue already has this one (other case): linked, not duplicated
      ff([...tone(450), '-c:a', 'libmp3lame', '-metadata', 'title=existing song', '-metadata', 'artist=the EXISTING artist', '-metadata', 'date=1999', join(music, 'existing.mp3')]),
      ff([...tone(500), '-c:a', 'libmp3lame', '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact', join(music, 'no tags.mp3')]),
      ff([...tone(550), '-c:a', 'libmp3lame', '-metadata', 'title=Yearless', '-metadata', 'artist=Nobody Knows', join(music, 'no year.mp3')]),
      ff([...tone(575), '-c:a', 'libmp3lame', '-metadata', 'title=Tomorrow', '-metadata', 'artist=Typo', '-metadata', 'date=2099', join(music, 'future.mp3')]),
      ff([...tone(600), '-c:a', 'flac', '-metadata', 'TITLE=GOOD VIBRATIONS', '-metadata', 'ARTIST=the beach boys', '-metadata', 'DATE=1966', join(music, 'Sixties', 'good vibrations (mono).flac')]),
    ]);
    writeFileSync(join(music, 'broken.mp3'), 'not an mp3 at all'.repeat(100));
    writeFileSync(join(music, 'empty.wav'), '');
    writeFileSync(join(music, 'cover.jpg'), 'jpeg?');
    writeFileSync(join(music, 'playlist.m3u'), 'good vibrations.mp3\n');

    const d = await db(dir);
    const existing = await addHit(d, { title: 'Existing Song', artist: 'The Existing Artist' });
    const url = `sqlite:${join(dir, 'hitline.sqlite')}`;
    const r = await cli(url, ['import-folder', music, '--pack', 'Road Trip']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain(`${music}: 10 audio files (2 other files ignored)`);
    expect(out).toMatch(/new hits: +3/);
    expect(out).toMatch(/linked to hits: +1/);
    expect(out).toMatch(/skipped: +6/);
    expect(out).toContain('+ good vibrations.mp3: The Beach Boys – Good Vibrations (1966)');
    expect(out).toContain('+ Sixties/space oddity.flac: David Bowie – Space Oddity (1969)');
    expect(out).toContain('= existing.mp3: The Existing Artist – Existing Song (1990); the tags say 1999; the catalogue\'s 1990 is kept');
    expect(out).toContain('! no tags.mp3: skipped, no tags (title, artist and year are missing)');
    expect(out).toContain('! no year.mp3: skipped, no year in the tags');
    expect(out).toContain("! future.mp3: skipped, the tags' year 2099 is after the current year");
    expect(out).toMatch(/! broken\.mp3: skipped, unreadable/);
    expect(out).toMatch(/! empty\.wav: skipped, unreadable/);
    expect(out).toContain('! Sixties/good vibrations (mono).flac: skipped, duplicate of good vibrations.mp3 (same title and artist)');
    expect(out).toMatch(/pack "Road Trip" \(new\): [0-9a-f-]{36}/);
    expect(out).toContain('4 hits queued for processing');

    const hits = await d.selectFrom('hits').select(['id', 'title', 'artist', 'year', 'audio_state']).orderBy('title').execute();
    expect(hits.map((h) => [h.title, h.year, h.audio_state])).toEqual([
      ['Existing Song', 1990, 'queued'],
      ['Good Vibrations', 1966, 'queued'],
      ['Hey Ya!', 2003, 'queued'],
      ['Space Oddity', 1969, 'queued'],
    ]);
    const pack = await d.selectFrom('packs').select(['id', 'name']).executeTakeFirstOrThrow();
    expect(pack.name).toBe('Road Trip');
    expect((await d.selectFrom('hit_packs').select('hit_id').where('pack_id', '=', pack.id).execute()).length).toBe(4);
    expect(await job(d, existing)).toMatchObject({ source: 'file', source_path: join(music, 'existing.mp3') });

    // the server's worker picks the queue up
    const audioDir = join(dir, 'audio');
    const p = pipeline(d, audioDir);
    await p.start();
    const states = await settle(
      d,
      hits.map((h) => h.id),
    );
    expect(Object.values(states)).toEqual(['ready', 'ready', 'ready', 'ready']);
    for (const h of hits) await expectProcessed(audioDir, h.id, 3);
    await p.stop();

    // a second run finds everything imported already
    const again = await cli(url, ['import-folder', music, '--pack', 'road trip']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/new hits: +0/);
    expect(again.stdout).toMatch(/already imported: +4/);
    expect(again.stdout).toContain('nothing queued');
    expect(again.stdout).toMatch(/pack "Road Trip": /);

    const missing = await cli(url, ['import-folder', join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`error: not a folder: ${join(dir, 'nope')}\n`);
  }, 90_000);
});

// --- HTTP: upload, status, retry, progress ------------------------------------

describe('the first start with a yt-dlp on the PATH', () => {
  it('needs no configuration: the catalogue\'s YouTube hits are prepared in the background, with progress, and the rest stay cards', async () => {
    const dir = mkdtempSync(join(work, 'first-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // a fake yt-dlp that "downloads" a local file (the internet stands in)
    script(
      join(bin, 'yt-dlp'),
      `out=""
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
cp "${src.tagged}" "$(echo "$out" | sed 's/%(ext)s/mp3/')"`,
    );
    const ids = ['firstAAAAA1', 'firstBBBBB2', 'firstCCCCC3', 'firstDDDDD4'];
    const catalogue = join(dir, 'hits.yml');
    const row = (i: number, yt?: string) => ({
      artist: `Band ${i}`, title: `Song ${i}`, belongs_to: '', year: 1960 + i, packs: [PACK_ONE], playback_offset: yt ? 1 : 0, id: randomUUID(), ...(yt ? { yt_id: yt } : {}),
    });
    writeFileSync(catalogue, stringify({ hits: [...ids.map((id, i) => row(i, id)), row(8), row(9)], packs: [{ id: PACK_ONE, name: 'One' }] }));
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    let t: TestServer | undefined;
    try {
      // YTDLP_PATH left empty, as on a new host's machine
      t = await bootServer({ YTDLP_PATH: '', DEMO_CATALOGUE: catalogue });
    } finally {
      process.env.PATH = path;
    }
    try {
      const events = new SseReader(`${t.base}/api/events`);
      // the first event already says what is being prepared: 4 of the 6, the other 2 are cards
      await events.until((e) => e.some((x) => x.event === 'process_hits'));
      const first = events.events.find((e) => e.event === 'process_hits')!.data.process_hits;
      expect(first).toMatchObject({ failed: 0, cards: 2, youtube: true });
      expect(first.available + first.downloading + first.processing).toBe(4);
      await events.until((e) => e.some((x) => x.event === 'process_hits' && x.data.process_hits.available === 4), 30_000);
      const seen = events.events.filter((e) => e.event === 'process_hits').map((e) => e.data.process_hits);
      // progress on the way: something was still being prepared before all four were ready
      expect(seen.some((p) => p.available < 4 && p.downloading + p.processing > 0)).toBe(true);
      expect(seen.at(-1)).toEqual({ available: 4, downloading: 0, processing: 0, failed: 0, cards: 2, youtube: true });
      events.close();
      const editor = await User.guest(t.base);
      await t.server.db.updateTable('users').set({ permissions: 1 }).where('id', '=', editor.id).execute();
      const status = await editor.request('GET', '/api/hits/audio/status');
      expect(status.body.sources.youtube).toEqual({ enabled: true });
    } finally {
      await t.stop();
    }
  }, 60_000);
});

describe('HTTP', () => {
  let t: TestServer;
  let editor: User;
  let guest: User;
  let hitIds: string[];
  beforeAll(async () => {
    t = await bootServer({ AUDIO_UPLOAD_MAX_MB: '1' });
    [editor, guest] = await Promise.all([User.guest(t.base), User.guest(t.base)]);
    await t.server.db.updateTable('users').set({ permissions: 1 }).where('id', '=', editor.id).execute();
    hitIds = (await t.server.db.selectFrom('hits').select('id').orderBy('id').limit(20).execute()).map((r) => r.id);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const upload = (u: User, hitId: string, body: Buffer | string, type = 'audio/mpeg', headers: Record<string, string> = {}) =>
    fetch(`${t.base}/api/hits/${hitId}/audio`, { method: 'POST', headers: { cookie: u.cookieHeader(), 'content-type': type, ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> });

  it('upload: write_hits only, audio only, within the size limit; a good file becomes ready', async () => {
    const mp3 = readFileSync(src.tagged!);
    expect((await json(await fetch(`${t.base}/api/hits/${hitIds[0]}/audio`, { method: 'POST', headers: { 'content-type': 'audio/mpeg' }, body: mp3 }))).status).toBe(401);
    expect(await json(await upload(guest, hitIds[0]!, mp3))).toEqual({ status: 403, body: { type: 'error', code: 'permission_denied', message: 'permission denied' } });
    expect((await json(await upload(editor, hitIds[0]!, mp3, 'audio/mpeg', { origin: 'https://evil.example' }))).body.code).toBe('csrf');
    expect((await json(await upload(editor, hitIds[0]!, 'hello', 'text/plain'))).body).toEqual({ type: 'error', code: 'unsupported_media_type', message: 'the body must be an audio file with an audio content type (e.g. audio/mpeg)' });
    expect((await json(await upload(editor, 'not-a-uuid', mp3))).status).toBe(400);
    expect(await json(await upload(editor, randomUUID(), mp3))).toEqual({ status: 404, body: { type: 'error', code: 'hit_not_found', message: 'hit not found' } });
    expect(await json(await upload(editor, hitIds[0]!, ''))).toEqual({ status: 400, body: { type: 'error', code: 'empty_body', message: 'the audio file is empty' } });
    expect((await json(await upload(editor, hitIds[0]!, 'just some text, not audio'.repeat(50)))).body).toMatchObject({ code: 'not_audio', message: expect.stringMatching(/^not an audio file/) });
    expect(await json(await upload(editor, hitIds[0]!, Buffer.alloc(1.5 * 1024 * 1024, 1)))).toEqual({
      status: 413,
      body: { type: 'error', code: 'body_too_large', message: 'the audio file is too large: at most 1 MB' },
    });
    // nothing of the refused uploads is left
    expect(readdirSync(join(t.dir, 'audio', '.tmp'))).toEqual([]);
    expect(await state(t.server.db, hitIds[0]!)).toBe('none');

    const events = new SseReader(`${t.base}/api/events`, { cookie: editor.cookieHeader() });
    await events.until((e) => e.some((x) => x.event === 'process_hits'));
    // The reference server's wire format wraps the counts: {"process_hits":{…}}
    expect(events.events.find((e) => e.event === 'process_hits')?.data).toEqual({ process_hits: { available: 0, downloading: 0, processing: 0, failed: 0, cards: 200, youtube: false } }); // the test catalogue's 200 hits: none has audio yet

    const ok = await json(await upload(editor, hitIds[0]!, mp3));
    expect(ok).toEqual({ status: 202, body: { type: 'success', message: 'audio uploaded; processing queued', audio_state: 'queued' } });
    expect(AudioQueuedSchema.safeParse(ok.body).success).toBe(true);
    await settle(t.server.db, [hitIds[0]!]);
    expect(await state(t.server.db, hitIds[0]!)).toBe('ready');
    await expectProcessed(join(t.dir, 'audio'), hitIds[0]!, 5);
    expect(readdirSync(join(t.dir, 'audio', 'sources'))).toEqual([`${hitIds[0]}.mp3`]);
    await events.until((e) => e.some((x) => x.event === 'process_hits' && x.data.process_hits.available === 1));
    events.close();
  }, 30_000);

  it('status and retry for write_hits users', async () => {
    expect((await new User(t.base).request('GET', '/api/hits/audio/status')).status).toBe(401);
    expect((await guest.request('GET', '/api/hits/audio/status')).status).toBe(403);
    // a hit whose local file is gone fails; once the file is back, a retry makes it ready
    const file = join(t.dir, 'later.mp3');
    const hit = hitIds[1]!;
    await t.server.audio.enqueue(hit, { kind: 'file', path: file });
    await settle(t.server.db, [hit]);
    const status = await editor.request('GET', '/api/hits/audio/status');
    expect(status.status).toBe(200);
    expect(status.headers.get('cache-control')).toBe('no-store');
    expect(status.body).toMatchObject({
      available: 1,
      downloading: 0,
      processing: 0,
      states: { ready: 1, failed: 1, queued: 0, fetching: 0, processing: 0 },
      sources: { youtube: { enabled: false, reason: YTDLP_OFF }, upload: { enabled: true, max_bytes: 1024 * 1024 }, folder: { enabled: true } },
      processing_settings: { loudness_lufs: -16, true_peak_dbtp: -1.5, max_seconds: 600 },
    });
    const row = await t.server.db.selectFrom('hits').select(['title', 'artist']).where('id', '=', hit).executeTakeFirstOrThrow();
    // the answer is what the API reference says
    expect(AudioStatusSchema.parse(status.body)).toEqual(status.body);
    expect(status.body.failures).toEqual([{ id: hit, title: row.title, artist: row.artist, source: 'file', reason: 'the source file is missing', cause: 'other', attempts: 1, failed_at: expect.any(String) }]);

    expect((await guest.request('POST', `/api/hits/${hit}/audio/retry`)).status).toBe(403);
    expect(await editor.request('POST', `/api/hits/${hitIds[0]}/audio/retry`).then((r) => r.body)).toEqual({
      type: 'error',
      code: 'audio_not_failed',
      message: 'only a hit whose audio failed can be retried (this one is ready)',
    });
    expect((await editor.request('POST', `/api/hits/${randomUUID()}/audio/retry`)).status).toBe(404);
    writeFileSync(file, readFileSync(src.short!));
    const retried = await editor.request('POST', `/api/hits/${hit}/audio/retry`);
    expect(retried).toMatchObject({ status: 202, body: { type: 'success', message: 'audio queued again', audio_state: 'queued' } });
    await settle(t.server.db, [hit]);
    expect(await state(t.server.db, hit)).toBe('ready');
    expect((await editor.request('GET', '/api/hits/audio/status')).body.failures).toEqual([]);
  }, 30_000);

  it('process_hits is coalesced (at most ~4 per second) and the server keeps answering during work', async () => {
    // when each event is published (the pipeline publishes on the bus)
    const published: Array<{ at: number; data: unknown }> = [];
    const hub = t.server.bus;
    const original = hub.publishGlobal.bind(hub);
    hub.publishGlobal = (e) => {
      if (e.event === 'process_hits') published.push({ at: performance.now(), data: e.data });
      return original(e);
    };
    const events = new SseReader(`${t.base}/api/events`, {});
    await events.until((e) => e.some((x) => x.event === 'process_hits'));
    // an update of the previous test's work may still be waiting out its quarter second:
    // past it, the stream and the record both start from here
    await new Promise((r) => setTimeout(r, 400));
    const start = events.events.length;
    published.length = 0;
    // a burst of changes: 15 hits fail at once (YouTube is off), 3 files get processed
    const burst = hitIds.slice(2, 17);
    await Promise.all(burst.map((id, i) => t.server.db.updateTable('hits').set({ yt_id: `burstburst${String.fromCharCode(97 + i)}` }).where('id', '=', id).execute()));
    await Promise.all(burst.map((id) => t.server.audio.enqueue(id)));
    const work3 = hitIds.slice(17, 20);
    await Promise.all(work3.map((id) => t.server.audio.enqueue(id, { kind: 'file', path: src.normal! })));
    // the server answers at once while ffmpeg works
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      expect((await fetch(`${t.base}/api/hits/packs`)).status).toBe(200);
      latencies.push(performance.now() - t0);
    }
    expect(Math.max(...latencies)).toBeLessThan(500);
    await settle(t.server.db, work3);
    await events.until((e) => e.some((x) => x.event === 'process_hits' && x.data.process_hits.available === 5), 5000);
    hub.publishGlobal = original;
    const seen = events.events.slice(start).filter((e) => e.event === 'process_hits');
    // 18 jobs made dozens of transitions; the stream got a few coalesced events, each with new counts
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.length).toBeLessThan(20);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.data).not.toEqual(seen[i - 1]!.data);
    expect(seen.at(-1)!.data).toMatchObject({ process_hits: { available: 5, downloading: 0, processing: 0, youtube: false } });
    expect(seen.map((e) => e.data.process_hits)).toEqual(published.map((p) => p.data));
    // never two within a quarter second
    for (let i = 1; i < published.length; i++) expect(published[i]!.at - published[i - 1]!.at).toBeGreaterThanOrEqual(240);
    events.close();
  }, 30_000);
});
