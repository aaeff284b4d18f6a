import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { parseFile } from 'music-metadata';
import { AudioJobError, formatSeconds, JobAborted, permanentError, transientError } from './errors.ts';
import { lastLines, runProcess, type RunResult } from './process.ts';

/**
 * ffmpeg steps of the audio pipeline: look at a source, measure its loudness,
 * normalise and encode it to the two served formats, and check the results.
 *
 * Loudness: every hit is brought to the same EBU R128 programme loudness
 * ({@link LOUDNESS_TARGET}). The loudness of the part that will be served (from
 * `playback_offset`, at most {@link MAX_OUTPUT_SECONDS}) is measured with ffmpeg's
 * `ebur128` filter, then one constant gain brings it to the target. When that gain
 * would push the true peak above the ceiling (quiet, peaky recordings: much of the
 * music before the loudness war), a peak limiter follows the gain and the gain is
 * corrected once or twice for what the limiter took away. No dynamic gain riding:
 * `loudnorm`'s dynamic mode pumps on music and upsamples to 192 kHz, which made it
 * slower than this (measured in the tests; figures in bench/HISTORY.md).
 */

/** The one loudness every processed hit has. */
export const LOUDNESS_TARGET = {
  /** Integrated loudness, LUFS (what streaming services use for music). */
  integrated: -16,
  /** True-peak ceiling, dBTP. */
  truePeak: -1.5,
} as const;

/** Longest processed file: from the offset to the end, but never more than this (seconds). */
export const MAX_OUTPUT_SECONDS = 600;
/** Less audio than this after the offset is refused. */
export const MIN_OUTPUT_SECONDS = 1;
/** Longer sources are refused before any decoding (an album rip, a 10-hour loop). */
export const MAX_SOURCE_SECONDS = 30 * 60;

/** Sample-peak ceiling of the limiter: 0.5 dB under the true-peak ceiling leaves room for inter-sample peaks. */
const LIMITER_CEILING = 10 ** ((LOUDNESS_TARGET.truePeak - 0.5) / 20);
/** Below this the integrated loudness is ebur128's "nothing above the gate" (-70 LUFS): silence. */
const SILENCE_LUFS = -69.5;

/** What every ffmpeg step needs. */
export interface FfmpegContext {
  /** The ffmpeg executable. */
  ffmpeg: string;
  /** Per-invocation time limit, ms. */
  timeoutMs: number;
  /** Cancels the running step. */
  signal?: AbortSignal;
}

/** What ffmpeg says about a file without decoding it. */
export interface ProbeResult {
  /** Container duration in seconds; null when the container does not say (raw streams). */
  duration: number | null;
  /** ffmpeg's demuxer name (`mp3`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`, …). */
  format: string;
}

/** EBU R128 measurement of the part to be served. */
export interface Loudness {
  /** Integrated loudness, LUFS. */
  integrated: number;
  /** True peak, dBTP (-Infinity for digital silence). */
  truePeak: number;
  /** Loudness range, LU. */
  range: number;
  /** Seconds decoded (the part's length); null when ffmpeg did not report it. */
  decodedSeconds: number | null;
}

/** One processed hit, still under temporary names. */
export interface EncodeResult {
  /** Opus in Ogg, 48 kHz, ~96 kbit/s. */
  opus: string;
  /** MP3, 44.1 kHz, LAME VBR quality 4. */
  mp3: string;
  /** Duration of the processed audio, seconds. */
  duration: number;
  /** Loudness of the source part before processing. */
  input: Loudness;
  /** Gain applied, dB. */
  gainDb: number;
  /** Whether the peak limiter was needed. */
  limited: boolean;
}

/** Hides the server's folders in reasons shown to editors: only the file's own name stays. */
function scrub(text: string, file: string): string {
  return text.split(file).join(basename(file));
}

/** Runs ffmpeg; turns "could not start", a timeout and cancellation into job errors. */
async function ffmpeg(ctx: FfmpegContext, args: string[], what: string): Promise<RunResult> {
  let r: RunResult;
  try {
    r = await runProcess(ctx.ffmpeg, args, { timeoutMs: ctx.timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    throw permanentError(`ffmpeg could not be started (${ctx.ffmpeg}): ${code}`);
  }
  if (r.aborted) throw new JobAborted();
  if (r.timedOut) throw transientError(`ffmpeg did not finish ${what} within ${formatSeconds(ctx.timeoutMs / 1000)}`);
  return r;
}

/**
 * The demuxers a source may be read with: audio files and the containers audio
 * comes in. Given before every `-i` of a source, so ffmpeg never reads one as a
 * playlist or script (HLS, concat…), which would open other files of the
 * server (a "song" that is an HLS playlist naming a local file would otherwise
 * be processed into playable audio), nor as images or devices.
 */
const SOURCE_FORMATS = ['-format_whitelist', 'mp3,ogg,wav,flac,aac,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,aiff,caf,w64,wv,ape,asf,au,amr'];

/** `HH:MM:SS.xx` → seconds. */
const hms = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);

/**
 * Looks at `file` with `ffmpeg -i` (there is no ffprobe in the npm package): is it
 * audio at all, and how long is it. Refuses what is not audio, and sources longer
 * than {@link MAX_SOURCE_SECONDS}, before any decoding.
 */
export async function probeAudio(ctx: FfmpegContext, file: string): Promise<ProbeResult> {
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0) throw permanentError('the source file is missing');
  if (size === 0) throw permanentError('the source file is empty');
  // Without an output ffmpeg prints the input's description and exits 1; that is the answer, not a failure.
  const r = await ffmpeg(ctx, ['-hide_banner', '-nostdin', ...SOURCE_FORMATS, '-i', file], 'reading the file');
  const text = r.stderr;
  const input = /^Input #0, (.+?), from /m.exec(text);
  if (!input || !/Stream #0:\d+.*: Audio: /.test(text)) {
    // "Invalid argument": none of SOURCE_FORMATS matched (a picture, a playlist…)
    const why = input
      ? 'it has no audio stream'
      : /: Invalid argument$/m.test(text)
        ? 'not in an audio format'
        : scrub(lastLines(text.replace(/^At least one output file must be specified$/m, '')), file) || 'ffmpeg cannot read it';
    throw permanentError(`not an audio file (${why})`);
  }
  const d = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(text);
  const duration = d ? hms(d[1]!, d[2]!, d[3]!) : null;
  if (duration !== null && duration > MAX_SOURCE_SECONDS) {
    throw permanentError(`the audio is too long (${formatSeconds(duration)}; the limit is ${formatSeconds(MAX_SOURCE_SECONDS)})`);
  }
  return { duration, format: input[1]! };
}

/** Parses the summary `ebur128` prints when it ends; null when there is none. */
export function parseEbur128(stderr: string): Omit<Loudness, 'decodedSeconds'> | null {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const num = (re: RegExp) => {
    const m = re.exec(summary);
    if (!m) return NaN;
    return m[1] === '-inf' ? -Infinity : Number(m[1]);
  };
  const integrated = num(/\bI:\s+(-?[\d.]+|-inf) LUFS/);
  const range = num(/\bLRA:\s+(-?[\d.]+) LU/);
  const truePeak = num(/\bPeak:\s+(-?[\d.]+|-inf) dBFS/);
  if (Number.isNaN(integrated) || Number.isNaN(truePeak)) return null;
  return { integrated, truePeak, range: Number.isNaN(range) ? 0 : range };
}

/** The last `time=` of ffmpeg's final report: how much was decoded. */
function decodedSeconds(stderr: string): number | null {
  const all = [...stderr.matchAll(/time=\s*(\d+):(\d\d):(\d\d(?:\.\d+)?)/g)];
  const last = all.at(-1);
  return last ? hms(last[1]!, last[2]!, last[3]!) : null;
}

/** Reads no further than the end of the part to serve. */
const inputArgs = (file: string, offset: number) => [...SOURCE_FORMATS, '-t', String(offset + MAX_OUTPUT_SECONDS), '-i', file];
/**
 * The cut, sample-accurate: everything before the offset is decoded and dropped.
 * (Seeking the input with `-ss` is faster but not exact: after a seek in an MP3 the
 * decoder lacks its bit reservoir and puts out ~0.15 s of silence.) Timestamps start
 * at 0 first, as some sources start a little later (MP3 encoder delay).
 */
const cutFilter = (offset: number) => `asetpts=PTS-STARTPTS,atrim=start=${offset}:duration=${MAX_OUTPUT_SECONDS},asetpts=PTS-STARTPTS`;
/** Mono stays mono; everything else becomes stereo (browsers and phones play no 5.1 Opus). */
const LAYOUT = 'aformat=channel_layouts=mono|stereo';
const gainFilter = (gainDb: number, limited: boolean) =>
  `volume=${gainDb.toFixed(2)}dB${limited ? `,alimiter=limit=${LIMITER_CEILING.toFixed(4)}:level=false:attack=5:release=50` : ''}`;

/**
 * Measures the loudness of `file` from `offset` on (at most the served length),
 * after `chain` when given. Fails permanently when ffmpeg cannot decode it, when
 * nothing is left after the offset, or when what is left is silent.
 */
export async function measureLoudness(ctx: FfmpegContext, file: string, offset: number, duration: number | null, chain?: string): Promise<Loudness> {
  const filters = [cutFilter(offset), LAYOUT, ...(chain ? [chain] : []), 'ebur128=peak=true:framelog=verbose'].join(',');
  const r = await ffmpeg(ctx, ['-hide_banner', '-nostdin', '-nostats', ...inputArgs(file, offset), '-map', '0:a:0', '-vn', '-sn', '-dn', '-af', filters, '-f', 'null', '-'], 'measuring the loudness');
  const decoded = decodedSeconds(r.stderr);
  const pastEnd = () =>
    permanentError(`the playback offset (${formatSeconds(offset)}) is past the end of the audio${duration !== null ? ` (${formatSeconds(duration)} long)` : ''}`);
  if (r.code !== 0) {
    const why = scrub(lastLines(r.stderr.split('Summary:')[0] ?? r.stderr, 1), file);
    if (/Output file is empty|nothing was encoded/.test(r.stderr)) throw pastEnd();
    throw permanentError(`ffmpeg could not decode the audio (${why || `exit ${r.code ?? r.signal}`})`);
  }
  if (/Output file is empty|nothing was encoded/.test(r.stderr) || (decoded !== null && decoded <= 0)) throw pastEnd();
  // what is left is too short to be heard as a song, or to be measured (EBU R128 blocks are 0.4 s)
  if (chain === undefined && decoded !== null && decoded < MIN_OUTPUT_SECONDS) {
    throw permanentError(`the playback offset (${formatSeconds(offset)}) leaves only ${formatSeconds(decoded)} of audio${duration !== null ? ` (${formatSeconds(duration)} long)` : ''}`);
  }
  const loudness = parseEbur128(r.stderr);
  if (!loudness) throw permanentError('ffmpeg did not report the loudness of the audio');
  if (loudness.integrated <= SILENCE_LUFS || loudness.truePeak === -Infinity) {
    throw permanentError(`the audio is silent from the playback offset (${formatSeconds(offset)}) on`);
  }
  return { ...loudness, decodedSeconds: decoded };
}

/**
 * The gain that brings `measured` to the target. A plain gain when the true peak
 * stays under the ceiling; otherwise gain plus limiter, with the gain corrected for
 * the loudness the limiter removes (measured again, at most twice).
 */
export async function planGain(ctx: FfmpegContext, file: string, offset: number, measured: Loudness): Promise<{ gainDb: number; limited: boolean }> {
  let gainDb = LOUDNESS_TARGET.integrated - measured.integrated;
  if (measured.truePeak + gainDb <= LOUDNESS_TARGET.truePeak) return { gainDb, limited: false };
  for (let round = 0; round < 2; round++) {
    const after = await measureLoudness(ctx, file, offset, null, gainFilter(gainDb, true));
    const shortfall = LOUDNESS_TARGET.integrated - after.integrated;
    if (Math.abs(shortfall) <= 0.3) break;
    // More gain into the limiter gives less back each time; a source that needs more than
    // 6 dB of extra gain is all peaks (a click track) and stays a little quiet.
    gainDb += Math.max(-6, Math.min(6, shortfall));
  }
  return { gainDb, limited: true };
}

/**
 * Checks one output: ffmpeg decodes it without an error, music-metadata finds a
 * duration > 0 and no tags. Returns the duration.
 */
export async function verifyOutput(ctx: FfmpegContext, file: string, label: string): Promise<number> {
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size === 0) throw permanentError(`ffmpeg wrote no ${label} file`);
  const r = await ffmpeg(ctx, ['-hide_banner', '-nostdin', '-v', 'error', '-xerror', ...SOURCE_FORMATS, '-i', file, '-map', '0:a:0', '-f', 'null', '-'], `checking the ${label} file`);
  if (r.code !== 0 || r.stderr.trim() !== '') {
    throw permanentError(`the ${label} file is not decodable (${scrub(lastLines(r.stderr), file) || `exit ${r.code ?? r.signal}`})`);
  }
  let duration: number | undefined;
  try {
    const meta = await parseFile(file, { duration: true, skipCovers: false });
    if (meta.common.title || meta.common.artist || meta.common.album || (meta.common.picture?.length ?? 0) > 0) {
      throw permanentError(`the ${label} file still has tags`);
    }
    duration = meta.format.duration;
  } catch (err) {
    if (err instanceof AudioJobError) throw err;
    throw permanentError(`the ${label} file is not readable (${(err as Error).message})`);
  }
  if (duration === undefined || !(duration > 0)) throw permanentError(`the ${label} file has no duration`);
  return duration;
}

/**
 * Processes `file` into `<outBase>.opus` and `<outBase>.mp3`: cut from `offset`
 * to the end (at most {@link MAX_OUTPUT_SECONDS}), normalised to
 * {@link LOUDNESS_TARGET}, every tag, picture, chapter and non-audio stream
 * dropped, then both outputs checked. The caller renames them into place.
 */
export async function transcode(ctx: FfmpegContext, file: string, offset: number, outBase: string): Promise<EncodeResult> {
  const probe = await probeAudio(ctx, file);
  if (probe.duration !== null && offset >= probe.duration) {
    throw permanentError(`the playback offset (${formatSeconds(offset)}) is past the end of the audio (${formatSeconds(probe.duration)} long)`);
  }
  const input = await measureLoudness(ctx, file, offset, probe.duration);
  const { gainDb, limited } = await planGain(ctx, file, offset, input);

  const encoded = `${outBase}.enc.opus`;
  const opus = `${outBase}.opus`;
  const mp3 = `${outBase}.mp3`;
  // No tags of any kind: the hidden hit must not be identifiable from its bytes (docs/rules.md#a12).
  const clean = ['-map_metadata', '-1', '-map_chapters', '-1', '-vn', '-sn', '-dn', '-fflags', '+bitexact', '-flags:a', '+bitexact'];
  const r = await ffmpeg(
    ctx,
    [
      '-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-y',
      ...inputArgs(file, offset),
      '-filter_complex', `[0:a:0]${cutFilter(offset)},${LAYOUT},${gainFilter(gainDb, limited)},asplit=2[opus][mp3]`,
      // -ar is needed on each output: never let a filter's internal rate leak out
      '-map', '[opus]', ...clean, '-ar', '48000', '-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg', encoded,
      '-map', '[mp3]', ...clean, '-ar', '44100', '-c:a', 'libmp3lame', '-q:a', '4', '-id3v2_version', '0', '-write_id3v1', '0', '-f', 'mp3', mp3,
    ],
    'encoding',
  );
  if (r.code !== 0) throw permanentError(`ffmpeg failed to encode the audio (${scrub(lastLines(r.stderr), file) || `exit ${r.code ?? r.signal}`})`);
  // ffmpeg's Opus encoder always writes an ENCODER comment; a stream copy leaves it behind.
  const remux = await ffmpeg(
    ctx,
    ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', encoded, '-map', '0:a:0', '-c', 'copy', '-map_metadata', '-1', '-map_metadata:s:a:0', '-1', '-fflags', '+bitexact', '-f', 'ogg', opus],
    'writing the Opus file',
  );
  if (remux.code !== 0) throw permanentError(`ffmpeg failed to write the Opus file (${lastLines(remux.stderr) || `exit ${remux.code ?? remux.signal}`})`);

  const opusSeconds = await verifyOutput(ctx, opus, 'Opus');
  const mp3Seconds = await verifyOutput(ctx, mp3, 'MP3');
  const expected = input.decodedSeconds;
  if (expected !== null) {
    const tolerance = 0.5 + expected * 0.01;
    for (const [label, got] of [['Opus', opusSeconds], ['MP3', mp3Seconds]] as const) {
      if (Math.abs(got - expected) > tolerance) {
        throw permanentError(`the ${label} file is ${formatSeconds(got)} long instead of ${formatSeconds(expected)}`);
      }
    }
  }
  return { opus, mp3, duration: opusSeconds, input, gainDb, limited };
}
