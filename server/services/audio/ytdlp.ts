import { accessSync, constants, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { formatSeconds, JobAborted, permanentError, transientError } from './errors.ts';
import { lastLines, runProcess, type RunResult } from './process.ts';
import type { FailureCause } from '../../../shared/protocol/catalogue.ts';

/**
 * The YouTube source: the external `yt-dlp` command (YTDLP_PATH, else the one on
 * the PATH). Hitline never talks to YouTube itself; without the command this
 * source is off.
 */

/** Which yt-dlp the server runs, or why none. */
export type YtdlpChoice = { command: string; reason?: undefined } | { command?: undefined; reason: string };

/** Why YouTube downloads are off when nothing runs them (said by the status page and in failed jobs). */
export const YTDLP_OFF = 'YTDLP_PATH=off: YouTube downloads are switched off';
export const YTDLP_MISSING = 'no yt-dlp on the PATH (install it, or set YTDLP_PATH): YouTube downloads are off';

/**
 * The yt-dlp to run: YTDLP_PATH when set ("off" switches the source off), else
 * the first executable `yt-dlp` on `path` (the environment's PATH), so a host
 * who installed it needs no configuration.
 */
export function chooseYtdlp(setting: string | undefined, path: string | undefined = process.env.PATH): YtdlpChoice {
  const value = setting?.trim();
  if (value && value.toLowerCase() === 'off') return { reason: YTDLP_OFF };
  if (value) return { command: value };
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'yt-dlp');
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return { command: candidate };
    } catch {
      // not there, or not executable: the next directory
    }
  }
  return { reason: YTDLP_MISSING };
}

/** yt-dlp messages that will not change by trying again (the video is gone, private, blocked…). */
const PERMANENT = [
  /video unavailable/i,
  /this video is (private|unavailable|not available)/i,
  /private video/i,
  /has been removed/i,
  /account .* (terminated|closed)/i,
  // "not available in your country", "The uploader has not made this video available in your country"
  /available in your country/i,
  /confirm your age/i,
  /members-only/i,
  /copyright/i,
  /unsupported url/i,
  /requested format is not available/i,
  /is not a valid url/i,
];

const CAUSES: readonly [FailureCause, RegExp][] = [
  ['no_ytdlp', /yt-dlp on the PATH|YTDLP_PATH=off/],
  ['country', /available in your country|blocked it in your country|geo.?restrict/i],
  ['age', /confirm your age|age.?restrict/i],
  ['unavailable', /video unavailable|is (private|unavailable|not available)|private video|has been removed|account .* (terminated|closed)|members-only|copyright/i],
  ['network', /unable to download|http error|timed out|did not finish within|temporary failure|connection (reset|refused)|name resolution/i],
  ['too_long', /longer than|past the end of the audio/i],
];

/** The cause of a failed job's reason (its stored `error`). */
export function failureCause(reason: string): FailureCause {
  return CAUSES.find(([, re]) => re.test(reason))?.[0] ?? 'other';
}

/** The arguments of the download: best audio only, this one video, to `<dir>/download.<ext>`. */
export function ytdlpArgs(ytId: string, dir: string): string[] {
  return ['-f', 'bestaudio', '--no-playlist', '--no-progress', '-o', join(dir, 'download.%(ext)s'), '--', `https://www.youtube.com/watch?v=${ytId}`];
}

/** The most useful line of yt-dlp's stderr: its last `ERROR:` line, else its last line. */
function errorLine(stderr: string, dir: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== '');
  const error = lines.filter((l) => l.startsWith('ERROR:')).at(-1);
  return lastLines(error ?? lines.at(-1) ?? '', 1, 300).split(dir).join('…');
}

/**
 * Downloads the audio of YouTube video `ytId` into `dir` with `ytdlp` and returns
 * the file. Network trouble and timeouts are transient (retried later); a video
 * that is gone, and a yt-dlp that ends without writing a file, are permanent.
 */
export async function downloadYoutube(ytdlp: string, ytId: string, dir: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  let r: RunResult;
  try {
    r = await runProcess(ytdlp, ytdlpArgs(ytId, dir), { timeoutMs, ...(signal ? { signal } : {}) });
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    throw permanentError(`yt-dlp could not be started (${ytdlp}): ${code}`);
  }
  if (r.aborted) throw new JobAborted();
  if (r.timedOut) throw transientError(`yt-dlp did not finish within ${formatSeconds(timeoutMs / 1000)}`);
  if (r.code !== 0) {
    const line = errorLine(r.stderr, dir) || 'no message';
    const message = `yt-dlp failed (${r.code === null ? `signal ${r.signal}` : `exit ${r.code}`}): ${line}`;
    throw PERMANENT.some((re) => re.test(r.stderr)) ? permanentError(message) : transientError(message);
  }
  // yt-dlp picks the extension; leftovers of an interrupted download are not the file
  const names = (await readdir(dir)).filter((n) => n.startsWith('download.') && !/\.(part|ytdl|temp|tmp)$/.test(n));
  let best: { file: string; size: number } | undefined;
  for (const n of names) {
    const file = join(dir, n);
    const size = (await stat(file)).size;
    if (size > 0 && (!best || size > best.size)) best = { file, size };
  }
  if (!best) throw permanentError('yt-dlp finished without writing an audio file');
  return best.file;
}
