import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';

/**
 * Hidden clips (rules.md A12): the first `seconds` of a hit's processed file, cut
 * without re-encoding and without any tag, cached under `<AUDIO_DIR>/clips/` by a
 * name that says nothing about the hit (an HMAC under a secret kept beside them).
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

/** What the cache did since it was made (tests and the report read it). */
export interface ClipStats {
  /** Clips cut by ffmpeg. */
  created: number;
  /** Requests answered from a clip already on disk. */
  hits: number;
  /** Requests that waited for a clip another request was already cutting. */
  joined: number;
  failed: number;
}

/** ffmpeg gets this long to copy a few seconds of packets; it normally takes ~10 ms. */
const CUT_TIMEOUT_MS = 15_000;
/** Clips unused for this long are removed at start-up (a re-processed hit gets a new clip name). */
const CLIP_MAX_IDLE_MS = 30 * 24 * 3600_000;
/** A clip's mtime is refreshed on use at most this often (it is the "last used" mark of the sweep). */
const TOUCH_EVERY_MS = 24 * 3600_000;
/** Temporary files older than this are leftovers of a crash, never a cut in progress. */
const TMP_MAX_AGE_MS = 10 * 60_000;
const SECRET_FILE = '.secret';

const OUTPUT: Record<AudioFormat, { muxer: string; ext: string; extra: string[] }> = {
  // bitexact: no "Lavf x.y" vendor/encoder strings and a fixed Ogg serial, so equal input gives equal bytes
  opus: { muxer: 'ogg', ext: 'ogg', extra: [] },
  // no ID3 tags at all (the mp3 muxer writes an empty ID3v2 header by default)
  mp3: { muxer: 'mp3', ext: 'mp3', extra: ['-id3v2_version', '0', '-write_id3v1', '0'] },
};

/** The ffmpeg arguments that cut `seconds` of `input` into `output` without re-encoding or tags. */
export function clipArgs(input: string, output: string, seconds: number, format: AudioFormat): string[] {
  const o = OUTPUT[format];
  return [
    '-v', 'error', '-nostdin', '-y',
    '-i', input,
    // the audio only (no cover art stream), no metadata, no chapters
    '-map', '0:a:0', '-t', String(seconds), '-c', 'copy',
    '-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact',
    ...o.extra,
    '-f', o.muxer, output,
  ];
}

export class ClipCache {
  readonly dir: string;
  readonly stats: ClipStats = { created: 0, hits: 0, joined: 0, failed: 0 };
  private readonly ffmpeg: string;
  private readonly log: Logger | undefined;
  /** Clips being cut, by file name: concurrent requests for one clip share one ffmpeg run. */
  private readonly inflight = new Map<string, Promise<string>>();
  private secretP: Promise<Buffer> | undefined;

  constructor(audioDir: string, ffmpeg: string, log?: Logger) {
    this.dir = join(audioDir, 'clips');
    this.ffmpeg = ffmpeg;
    this.log = log;
    void this.sweep().catch((err: unknown) => this.log?.warn({ err }, 'sweeping old clips failed'));
    // ready before the first clip is asked for (it is on that request's path otherwise)
    void this.secret().catch((err: unknown) => this.log?.warn({ err }, 'the clip secret could not be read or created yet'));
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

  /**
   * The clip file of `source` cut to `seconds`: from disk when already cut, else cut
   * now (once, however many requests ask at the same time). Rejects when ffmpeg fails.
   */
  async clip(source: ClipSource, seconds: number): Promise<{ path: string; name: string }> {
    // the source's size and mtime are part of the key: a re-processed hit gets a new clip
    const key = await this.digest('clip', source.hitId, seconds, source.format, source.size, Math.trunc(source.mtimeMs));
    const name = `${key.slice(0, 32)}.${OUTPUT[source.format].ext}`;
    // checked and registered synchronously, so a request arriving while the clip is cut joins the same run
    let pending = this.inflight.get(name);
    if (pending) {
      this.stats.joined++;
    } else {
      pending = this.ensure(name, source, seconds).finally(() => this.inflight.delete(name));
      this.inflight.set(name, pending);
    }
    return { path: await pending, name };
  }

  private async ensure(name: string, source: ClipSource, seconds: number): Promise<string> {
    const file = join(this.dir, name);
    try {
      const st = await stat(file);
      if (st.size > 0) {
        this.stats.hits++;
        if (Date.now() - st.mtimeMs > TOUCH_EVERY_MS) void utimes(file, new Date(), new Date()).catch(() => undefined);
        return file;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    await mkdir(this.dir, { recursive: true });
    // cut aside and rename into place: a reader (or another process) never sees half a clip
    const tmp = join(this.dir, `${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const started = performance.now();
    try {
      await this.run(clipArgs(source.path, tmp, seconds, source.format));
      const st = await stat(tmp);
      if (st.size === 0) throw new Error('ffmpeg wrote an empty clip');
      await rename(tmp, file);
    } catch (err) {
      this.stats.failed++;
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    this.stats.created++;
    this.log?.debug({ clip: name, ms: Math.round(performance.now() - started) }, 'hidden clip cut');
    return file;
  }

  /** Runs ffmpeg with `args`; rejects with its last error lines on failure or timeout. */
  private run(args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-2000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), CUT_TIMEOUT_MS);
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

  /** Removes leftovers of crashed cuts and clips nobody asked for in a month. */
  private async sweep(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return; // no clip yet
    }
    const now = Date.now();
    for (const n of names) {
      if (n.startsWith('.') && !n.endsWith('.tmp')) continue; // the secret
      const file = join(this.dir, n);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const limit = n.endsWith('.tmp') ? TMP_MAX_AGE_MS : CLIP_MAX_IDLE_MS;
      if (now - st.mtimeMs > limit) await unlink(file).catch(() => undefined);
    }
  }
}

const caches = new Map<string, ClipCache>();

/**
 * The clip cache of `audioDir`: one per folder and process, so every router on the
 * same folder shares the in-flight cuts (and tests can read its stats).
 */
export function clipCache(audioDir: string, ffmpeg: string, log?: Logger): ClipCache {
  let cache = caches.get(audioDir);
  if (!cache) {
    cache = new ClipCache(audioDir, ffmpeg, log);
    caches.set(audioDir, cache);
  }
  return cache;
}
