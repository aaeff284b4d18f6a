import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { link, mkdir, readdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import { probeAudio } from '../services/audio/transcode.ts';

/**
 * Hidden clips (docs/rules.md#a12): for each turn of each game, `seconds` of the hit's
 * processed file, re-encoded without any tag, cached under
 * `<AUDIO_DIR>/clips/<game>/` by names that say nothing about the hit (HMACs
 * under a secret kept beside them).
 *
 * A clip must not be recognisable from its bytes or its size: the full file of
 * every revealed hit can be downloaded, so a stream copy (a byte-exact prefix of
 * it) could be looked up in files collected in earlier games. Each clip therefore
 * starts a random fraction of a second into the file, is a random fraction of a
 * second shorter than `seconds`, and is encoded anew: its frames line up with
 * neither the full file's nor another clip's, and its length in bytes differs.
 * What every clip would share (Ogg serial, the encoder's comment and padded last
 * packets, MP3's Xing table) is randomised or left out.
 */

/** The two processed formats of a hit (the pipeline's contract: `<hitId>.opus` and `<hitId>.mp3`). */
export type AudioFormat = 'opus' | 'mp3';

/** The processed file of a hit, as stat'ed by the caller (its identity keys the clip). */
export interface ClipSource {
  hitId: string;
  format: AudioFormat;
  path: string;
  size: number;
  mtimeMs: number;
}

/** The turn a clip is for: each draw of each game gets clips of its own. */
export interface ClipTurn {
  game: string;
  draw: number;
}

/** A clip on disk. */
export interface Clip {
  path: string;
  /** Its file name (the turn's draw and an HMAC). */
  name: string;
  size: number;
  mtimeMs: number;
}

/** What the cache did since it was made (tests and the report read it). */
export interface ClipStats {
  /** Clips cut by ffmpeg. */
  created: number;
  /** Clips asked for (by a request or a draw) and found on disk. */
  hits: number;
  /** Clips asked for while another request (or the draw) was cutting them: they waited for that cut. */
  joined: number;
  failed: number;
}

/**
 * The random cut, µs. The start shift is never 0, so the clip's frames never line
 * up with the full file's; shift and trim are drawn to the µs (a sample at 48 kHz
 * is 20.8 µs), so two clips of one hit practically never get the same cut. The
 * processed file is at least 1 s long (MIN_OUTPUT_SECONDS) and starts at the hit's
 * playback offset: the shift stays inside it, and is capped for short files.
 */
const SHIFT_US = { min: 40_000, max: 400_000 } as const;
/** At most this much shorter than `seconds` (the client stops at `seconds` anyway). */
const TRIM_MAX_US = 250_000;
/**
 * libopus complexity of the clip (0–10, default 10): 5 keeps the pitch pre-filter
 * and costs ~0.6 s of CPU per 20 s clip against ~0.8 s at 10; the clip is cut on
 * every draw of every game.
 */
const OPUS_COMPLEXITY = 5;
/** ffmpeg gets this long, plus CUT_MS_PER_SECOND for each second of the clip (255 s at most). */
const CUT_TIMEOUT_MS = 15_000;
const CUT_MS_PER_SECOND = 500;
/** Cuts at once: each keeps a core busy for most of a second. More wait their turn. */
const MAX_CUTS = Math.max(1, availableParallelism());
/** Clips are encoded below the server's priority: players' moves come first. */
const NICENESS = 10;
/**
 * Clips older than this are removed at start-up. A room removes its game's clips
 * of earlier draws at each draw, and all of them when the game ends; this is for
 * what a crash left behind (a clip removed early is cut again when asked for).
 */
const CLIP_MAX_AGE_MS = 2 * 24 * 3600_000;
/** Temporary files older than this are leftovers of a crash, never a cut in progress. */
const TMP_MAX_AGE_MS = 10 * 60_000;
const SECRET_FILE = '.secret';
/** Games remembered as asking for MP3 (see ClipCache.mp3Games). */
const MAX_MP3_GAMES = 10_000;

const OUTPUT: Record<AudioFormat, { muxer: string; ext: string; codec: string[]; container: string[] }> = {
  opus: {
    muxer: 'ogg',
    ext: 'ogg',
    codec: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '96k', '-compression_level', String(OPUS_COMPLEXITY)],
    container: [],
  },
  mp3: {
    muxer: 'mp3',
    ext: 'mp3',
    // as the pipeline encodes
    codec: ['-ar', '44100', '-c:a', 'libmp3lame', '-q:a', '4'],
    // No ID3 tags (the muxer writes an empty ID3v2 header by default) and no Xing frame:
    // its table of where each percent of the clip starts is nearly the same bytes in
    // every clip of steady music. Players decode the whole clip (Web Audio) anyway.
    container: ['-id3v2_version', '0', '-write_id3v1', '0', '-write_xing', '0'],
  },
};

/** Where a clip starts in the processed file and how long it is, seconds. */
export interface ClipCut {
  start: number;
  length: number;
}

/**
 * A random cut of `seconds` from a file `duration` seconds long (null: unknown,
 * taken as long enough): shifted by SHIFT_US, shortened by up to TRIM_MAX_US,
 * never past the file's end.
 */
export function randomCut(seconds: number, duration: number | null): ClipCut {
  const playable = duration === null ? Infinity : Math.max(0, Math.floor(duration * 1e6));
  const wanted = Math.min(Math.round(seconds * 1e6), playable);
  const length = wanted - randomInt(0, Math.min(TRIM_MAX_US, Math.floor(wanted / 4)) + 1);
  const room = playable - length;
  const start = randomInt(Math.min(SHIFT_US.min, room), Math.min(SHIFT_US.max, room) + 1);
  return { start: start / 1e6, length: length / 1e6 };
}

/**
 * Audio encoded past the clip's end and then dropped: the encoder's last packets
 * hold the silence it pads its input with, the same bytes in every clip; the
 * clip ends before them (an MP3 encoder's delay and last frame span ~50 ms).
 */
const TAIL_SECONDS = 0.2;

/**
 * The ffmpeg arguments of the clip's first step: encodes `cut` of `input` (a
 * processed file), and TAIL_SECONDS more, into `output`, without metadata,
 * chapters or any stream but the audio. `+bitexact` keeps ffmpeg's version out
 * of the headers.
 */
export function encodeArgs(input: string, output: string, cut: ClipCut, format: AudioFormat): string[] {
  const o = OUTPUT[format];
  const end = (cut.start + cut.length + TAIL_SECONDS).toFixed(6);
  return [
    '-v', 'error', '-nostdin', '-y',
    // read no further than the cut needs; the format is the pipeline's, never guessed
    '-t', (cut.start + cut.length + TAIL_SECONDS + 1).toFixed(3), '-f', o.muxer, '-i', input,
    '-map', '0:a:0',
    // decoded from the file's start (no seek), so the cut is sample-exact
    '-af', `asetpts=PTS-STARTPTS,atrim=start=${cut.start.toFixed(6)}:end=${end},asetpts=PTS-STARTPTS`,
    '-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact',
    ...o.codec,
    '-f', o.muxer, output,
  ];
}

/**
 * The second step: copies the packets of the first step's `input` up to the clip's
 * length into `output`, without the encoder's tail (see TAIL_SECONDS), without
 * any comment (ffmpeg's Opus encoder writes an ENCODER line, the same in every
 * clip) and, in Ogg, with stream serial `serial`.
 */
export function finishArgs(input: string, output: string, cut: ClipCut, format: AudioFormat, serial: number): string[] {
  const o = OUTPUT[format];
  return [
    '-v', 'error', '-nostdin', '-y', '-f', o.muxer, '-i', input,
    '-map', '0:a:0', '-c', 'copy', '-t', cut.length.toFixed(6),
    '-map_metadata', '-1', '-map_metadata:s:a:0', '-1', '-fflags', '+bitexact',
    // +bitexact alone would give every Ogg stream serial 0
    ...(format === 'opus' ? ['-serial_offset', String(serial)] : []),
    ...o.container,
    '-f', o.muxer, output,
  ];
}

/** The processed file of `hitId` in `format` when it is there (the pipeline's `<audioDir>/<hitId>.<format>`). */
export async function processedSource(audioDir: string, hitId: string, format: AudioFormat): Promise<ClipSource | undefined> {
  const path = join(audioDir, `${hitId}.${format}`);
  const st = await stat(path).catch(() => undefined);
  return st?.isFile() && st.size > 0 ? { hitId, format, path, size: st.size, mtimeMs: st.mtimeMs } : undefined;
}

export class ClipCache {
  readonly dir: string;
  readonly stats: ClipStats = { created: 0, hits: 0, joined: 0, failed: 0 };
  private readonly audioDir: string;
  private readonly ffmpeg: string;
  private readonly log: Logger | undefined;
  /** Clips being cut, by path: whoever asks for one meanwhile waits for the same run. */
  private readonly inflight = new Map<string, Promise<Clip>>();
  /** Cuts running, and those waiting for a free slot (first come, first served). */
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Games whose players asked for MP3 clips: their next draws cut MP3 ahead too (Opus always). */
  private readonly mp3Games = new Set<string>();
  private secretP: Promise<Buffer> | undefined;

  constructor(audioDir: string, ffmpeg: string, log?: Logger) {
    this.audioDir = audioDir;
    this.dir = join(audioDir, 'clips');
    this.ffmpeg = ffmpeg;
    this.log = log;
    void this.sweep().catch((err: unknown) => this.log?.warn({ err }, 'sweeping old clips failed'));
    // ready before the first clip is asked for (it is on that request's path otherwise)
    void this.secret().catch((err: unknown) => this.log?.warn({ err }, 'the clip secret could not be read or created yet'));
  }

  /** Clips being cut or waiting to be. */
  get cutting(): number {
    return this.inflight.size;
  }

  /**
   * The server's secret for clip names and hidden-clip ETags: 32 random bytes kept
   * in `clips/.secret`, so cached clips survive a restart and every process sharing
   * the folder agrees. Created once: written aside, then hard-linked into place,
   * which fails if another process won the race (then its secret is used).
   */
  secret(): Promise<Buffer> {
    this.secretP ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const file = join(this.dir, SECRET_FILE);
      const read = async () => Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
      try {
        const existing = await read();
        if (existing.length >= 32) return existing;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, randomBytes(32).toString('hex'), { mode: 0o600 });
      try {
        await link(tmp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        await unlink(tmp).catch(() => undefined);
      }
      return read();
    })();
    // a failure (disk full, permissions) must not stick: the next request tries again
    this.secretP.catch(() => {
      this.secretP = undefined;
    });
    return this.secretP;
  }

  /** A keyed digest of `parts` (base64url), never reversible to a hit without the secret. */
  async digest(...parts: (string | number)[]): Promise<string> {
    return createHmac('sha256', await this.secret()).update(parts.join('\0')).digest('base64url');
  }

  /** The folder of `game`'s clips (its name an HMAC of the game id). */
  async gameDir(game: string): Promise<string> {
    return join(this.dir, (await this.digest('game', game)).slice(0, 22));
  }

  /**
   * The clip of `source` for `turn`, `seconds` long: from disk when already cut,
   * else cut now (once, however many ask at the same time). Rejects when ffmpeg fails.
   */
  async clip(source: ClipSource, seconds: number, turn: ClipTurn): Promise<Clip> {
    if (source.format === 'mp3' && !this.mp3Games.has(turn.game)) {
      this.mp3Games.add(turn.game);
      // a game played on another process is never released here: the oldest are forgotten
      if (this.mp3Games.size > MAX_MP3_GAMES) this.mp3Games.delete(this.mp3Games.values().next().value!);
    }
    const dir = await this.gameDir(turn.game);
    // the source's size and mtime are part of the key: a hit re-processed meanwhile gets a new clip
    const key = await this.digest('clip', turn.game, turn.draw, source.hitId, seconds, source.format, source.size, Math.trunc(source.mtimeMs));
    const name = `${turn.draw}.${key.slice(0, 32)}.${OUTPUT[source.format].ext}`;
    const file = join(dir, name);
    // checked and registered synchronously, so a request arriving while the clip is cut joins the same run
    let pending = this.inflight.get(file);
    if (pending) {
      this.stats.joined++;
    } else {
      pending = this.ensure(dir, name, source, seconds).finally(() => this.inflight.delete(file));
      this.inflight.set(file, pending);
    }
    return pending;
  }

  /**
   * A card was drawn: removes the game's clips of earlier draws, makes sure this
   * draw's clip is there (Opus, and MP3 where this game's players asked for it),
   * then cuts the clip of the card that comes next (`next`, when the deck says),
   * so that one is ready when it is drawn.
   */
  async prepare(turn: ClipTurn, hitId: string, seconds: number, next?: string): Promise<void> {
    await this.release(turn.game, [turn.draw, turn.draw + 1]);
    const formats: AudioFormat[] = this.mp3Games.has(turn.game) ? ['opus', 'mp3'] : ['opus'];
    const cut = (draw: number, hit: string) =>
      Promise.all(
        formats.map(async (format) => {
          const source = await processedSource(this.audioDir, hit, format);
          if (source) await this.clip(source, seconds, { game: turn.game, draw });
        }),
      );
    // this draw's first: the next one must not hold up a clip the players wait for
    await cut(turn.draw, hitId);
    if (next !== undefined) await cut(turn.draw + 1, next);
  }

  /**
   * Removes `game`'s clips but those of the draws in `keep` (all of them, and the
   * folder, without). A clip still being cut is left; a later release or the start-up sweep takes it.
   */
  async release(game: string, keep?: number[]): Promise<void> {
    const dir = await this.gameDir(game);
    const names = await readdir(dir).catch(() => [] as string[]);
    const stale = names.filter((n) => !n.endsWith('.tmp') && !keep?.includes(Number(n.slice(0, n.indexOf('.')))));
    await Promise.all(stale.map((n) => unlink(join(dir, n)).catch(() => undefined)));
    if (keep === undefined) {
      this.mp3Games.delete(game);
      await rmdir(dir).catch(() => undefined);
    }
  }

  private async ensure(dir: string, name: string, source: ClipSource, seconds: number): Promise<Clip> {
    const file = join(dir, name);
    const existing = await stat(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      return undefined;
    });
    if (existing && existing.size > 0) {
      this.stats.hits++;
      return { path: file, name, size: existing.size, mtimeMs: existing.mtimeMs };
    }
    await mkdir(dir, { recursive: true });
    // cut aside, then linked into place: a reader never sees half a clip, and when
    // another process cut the same clip meanwhile, the first one stays (the link fails)
    const tmp = join(dir, `${name}.${process.pid}.${randomBytes(6).toString('hex')}`);
    await this.slot();
    const started = performance.now();
    try {
      const probe = await probeAudio({ ffmpeg: this.ffmpeg, timeoutMs: CUT_TIMEOUT_MS }, source.path);
      const cut = randomCut(seconds, probe.duration);
      const timeoutMs = CUT_TIMEOUT_MS + seconds * CUT_MS_PER_SECOND;
      await this.run(encodeArgs(source.path, `${tmp}.enc.tmp`, cut, source.format), timeoutMs);
      await this.run(finishArgs(`${tmp}.enc.tmp`, `${tmp}.tmp`, cut, source.format, randomInt(1, 2 ** 31 - 1)), timeoutMs);
      if ((await stat(`${tmp}.tmp`)).size === 0) throw new Error('ffmpeg wrote an empty clip');
      try {
        await link(`${tmp}.tmp`, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const st = await stat(file);
      this.stats.created++;
      this.log?.debug({ clip: name, ms: Math.round(performance.now() - started), start: cut.start, length: cut.length }, 'hidden clip cut');
      return { path: file, name, size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      this.stats.failed++;
      throw err;
    } finally {
      this.freeSlot();
      await Promise.all([unlink(`${tmp}.tmp`), unlink(`${tmp}.enc.tmp`)].map((p) => p.catch(() => undefined)));
    }
  }

  /** Waits for one of the MAX_CUTS slots. */
  private slot(): Promise<void> {
    if (this.running < MAX_CUTS) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Frees a slot: the next waiting cut takes it over. */
  private freeSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Runs ffmpeg with `args` below the server's priority; rejects with its last error lines on failure or timeout. */
  private run(args: string[], timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      if (child.pid !== undefined) {
        try {
          setPriority(child.pid, Math.min(19, getPriority() + NICENESS));
        } catch {
          // not allowed here: it runs at the server's priority
        }
      }
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-2000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`ffmpeg ${signal ? `killed by ${signal}` : `exited with ${code}`}: ${stderr.trim() || 'no output'}`));
      });
    });
  }

  /** Removes leftovers of crashed cuts, and clips that outlived their game (see CLIP_MAX_AGE_MS). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const clean = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (e.name.startsWith('.') && !e.name.endsWith('.tmp')) continue; // the secret
        const path = join(dir, e.name);
        if (e.isDirectory()) {
          if (dir !== this.dir) continue;
          await clean(path);
          await rmdir(path).catch(() => undefined); // only when empty
          continue;
        }
        const st = await stat(path).catch(() => undefined);
        if (!st?.isFile()) continue;
        const limit = e.name.endsWith('.tmp') ? TMP_MAX_AGE_MS : CLIP_MAX_AGE_MS;
        if (now - st.mtimeMs > limit) await unlink(path).catch(() => undefined);
      }
    };
    await clean(this.dir);
  }
}

const caches = new Map<string, ClipCache>();

/**
 * The clip cache of `audioDir`: one per folder and process, so the audio routes and
 * the game rooms on the same folder share the cuts in flight (and tests can read its stats).
 */
export function clipCache(audioDir: string, ffmpeg: string, log?: Logger): ClipCache {
  let cache = caches.get(audioDir);
  if (!cache) {
    cache = new ClipCache(audioDir, ffmpeg, log);
    caches.set(audioDir, cache);
  }
  return cache;
}
