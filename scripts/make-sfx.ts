/**
 * Synthesises the fifteen sound cues of docs/product.md#states ("Sound cues") and the
 * countdown's tick into `assets/sfx/<name>.opus`, the names
 * `client/src/audio/sfx.ts` looks for.
 * Nothing is downloaded: every cue is additive synthesis written as one ffmpeg
 * `aevalsrc` expression (sine partials with exponential envelopes, pitch sweeps
 * and vibrato as closed-form phase integrals), plus seeded `anoisesrc` bursts
 * shaped with `afade` for the percussive bits. The files are committed; run this
 * again only to change a cue:
 *
 *   node scripts/make-sfx.ts [--out assets/sfx] [--only you_win,popup]
 *
 * Every cue is normalised to the same loudness, TARGET_LUFS, measured with
 * ffmpeg's EBU R128 meter (`ebur128`) on the cue played back to back for a few
 * seconds: the meter integrates over 400 ms blocks, so most cues (0.1–0.7 s)
 * have no integrated loudness of their own, and looping measures "how loud is it
 * while it sounds", which is what the ear compares between cues. The true peak
 * must stay at or below MAX_TRUE_PEAK. Output: mono, 48 kHz, Opus ~48 kbit/s,
 * bit-exact flags so the same ffmpeg build writes the same bytes every time.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ffmpegPath } from '../server/services/audio/ffmpeg.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RATE = 48_000;
const TARGET_LUFS = -20;
const MAX_TRUE_PEAK_DBTP = -1;
/** The loudness may land this far from the target (Opus changes it a little; one correction pass follows). */
const LUFS_TOLERANCE = 0.3;
const MIN_SECONDS = 0.1;
const MAX_SECONDS = 1.5;

// ---------------------------------------------------------------------------
// the synthesis vocabulary

/** One sine component of a note: frequency ratio to the fundamental, amplitude, extra decay (1/s). */
interface Partial {
  ratio: number;
  amp: number;
  decay?: number;
}

interface Note {
  /** Start (s) within the cue. */
  at: number;
  /** Length (s); the note is silent outside [at, at + dur]. */
  dur: number;
  /** Fundamental (Hz) at the start. */
  freq: number;
  /** Fundamental at the end: an exponential glide (constant speed in semitones). */
  to?: number;
  amp?: number;
  /** Time constant of the onset (s): 1 − e^(−u/attack). */
  attack?: number;
  /** Exponential decay rate (1/s) of the whole note. */
  decay?: number;
  /** Linear fade (s) to zero at the note's end, so no note ends in a click. */
  release?: number;
  /** Vibrato: rate (Hz) and depth (fraction of the frequency). */
  vibrato?: { rate: number; depth: number };
  partials?: readonly Partial[];
}

/** A burst of filtered noise: the strike of a mallet, the chink of a coin. */
interface Burst {
  at: number;
  /** Exponential fade-out length (s). */
  dur: number;
  amp: number;
  /** ffmpeg filters that colour the noise (e.g. `highpass=f=4000`). */
  filter: string;
  color?: 'white' | 'pink';
}

interface Cue {
  name: string;
  /** What it sounds like and why: printed with the measurements, and the documentation of the cue. */
  how: string;
  /** The file's length (s). */
  dur: number;
  notes: readonly Note[];
  bursts?: readonly Burst[];
  /** Filters applied to the mix (tone colour, a little room). */
  post?: readonly string[];
}

/** Equal temperament, A4 = 440 Hz. */
const NOTE_INDEX: Record<string, number> = { C: -9, 'C#': -8, D: -7, 'D#': -6, E: -5, F: -4, 'F#': -3, G: -2, 'G#': -1, A: 0, 'A#': 1, B: 2 };
function hz(name: string): number {
  const m = /^([A-G]#?)(\d)$/.exec(name);
  if (!m) throw new Error(`bad note name ${name}`);
  const semitones = (NOTE_INDEX[m[1] as string] as number) + (Number(m[2]) - 4) * 12;
  return 440 * 2 ** (semitones / 12);
}

// Timbres. Upper partials decay faster than the fundamental, as in struck and
// plucked instruments; that is most of what makes a sine sound "real".
const BELL: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2, amp: 0.35, decay: 4 },
  { ratio: 3, amp: 0.12, decay: 8 },
  { ratio: 4.2, amp: 0.06, decay: 14 },
];
const MARIMBA: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 3.93, amp: 0.22, decay: 22 },
  { ratio: 9.2, amp: 0.05, decay: 45 },
];
const PLUCK: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2, amp: 0.5, decay: 6 },
  { ratio: 3, amp: 0.28, decay: 12 },
  { ratio: 4, amp: 0.14, decay: 18 },
  { ratio: 5, amp: 0.07, decay: 24 },
];
/** A soft horn: a full harmonic series, rounded off by a low-pass in `post`. */
const HORN: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2, amp: 0.62 },
  { ratio: 3, amp: 0.42 },
  { ratio: 4, amp: 0.26 },
  { ratio: 5, amp: 0.16 },
  { ratio: 6, amp: 0.1 },
];
/** Odd harmonics: the square-ish tone of an old game console's coin. */
const CHIP: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2, amp: 0.15 },
  { ratio: 3, amp: 0.28 },
  { ratio: 5, amp: 0.1 },
];
/** Inharmonic ratios of a small metal plate: reads as "coin", not as "note". */
const METAL: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2.76, amp: 0.5, decay: 10 },
  { ratio: 5.4, amp: 0.28, decay: 20 },
  { ratio: 8.93, amp: 0.14, decay: 30 },
];
const WOOD: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 2.57, amp: 0.3, decay: 40 },
  { ratio: 4.1, amp: 0.1, decay: 60 },
];
const BUZZ: readonly Partial[] = [
  { ratio: 1, amp: 1 },
  { ratio: 3, amp: 0.45 },
  { ratio: 5, amp: 0.25 },
  { ratio: 7, amp: 0.12 },
];

/** A little room (two early reflections): makes the musical cues sound less like a test tone. */
const ROOM = 'aecho=1:1:29|53:0.14|0.08';

// ---------------------------------------------------------------------------
// the cues (docs/product.md#states, in its order)

const CUES: readonly Cue[] = [
  {
    name: 'join_game',
    how: 'rising fourth G4 → C5 on a bell (two struck notes 110 ms apart): someone arrives',
    dur: 0.5,
    notes: [
      { at: 0, dur: 0.5, freq: hz('G4'), decay: 7, partials: BELL },
      { at: 0.11, dur: 0.39, freq: hz('C5'), decay: 6, partials: BELL },
    ],
    post: [ROOM],
  },
  {
    name: 'leave_game',
    how: 'the join cue mirrored: falling fourth C5 → G4 on the same bell',
    dur: 0.5,
    notes: [
      { at: 0, dur: 0.5, freq: hz('C5'), decay: 7, partials: BELL },
      { at: 0.11, dur: 0.39, freq: hz('G4'), decay: 6, partials: BELL },
    ],
    post: [ROOM],
  },
  {
    name: 'no_interception',
    how: 'two dry wood-block knocks (A5, then G5) with a noise strike each: a neutral "tok-tok", nothing happened',
    dur: 0.3,
    notes: [
      { at: 0, dur: 0.14, freq: hz('A5'), decay: 32, attack: 0.001, partials: WOOD },
      { at: 0.12, dur: 0.18, freq: hz('G5'), decay: 30, attack: 0.001, partials: WOOD },
    ],
    bursts: [
      { at: 0, dur: 0.012, amp: 0.25, filter: 'bandpass=f=2500:width_type=q:w=1.2' },
      { at: 0.12, dur: 0.012, amp: 0.25, filter: 'bandpass=f=2500:width_type=q:w=1.2' },
    ],
  },
  {
    name: 'pay_token',
    how: 'two metallic clinks falling E6 → B5 (inharmonic plate partials, a bright noise chink on each): a coin leaves you',
    dur: 0.4,
    notes: [
      { at: 0, dur: 0.3, freq: hz('E6'), decay: 14, attack: 0.001, partials: METAL },
      { at: 0.09, dur: 0.31, freq: hz('B5'), decay: 13, attack: 0.001, partials: METAL },
    ],
    bursts: [
      { at: 0, dur: 0.01, amp: 0.2, filter: 'highpass=f=5000' },
      { at: 0.09, dur: 0.01, amp: 0.2, filter: 'highpass=f=5000' },
    ],
    post: ['lowpass=f=9000'],
  },
  {
    name: 'receive_token',
    how: 'the classic coin pick-up: a short B5 jumping to a ringing E6, square-ish (odd harmonics): a coin comes to you',
    dur: 0.5,
    notes: [
      { at: 0, dur: 0.075, freq: hz('B5'), attack: 0.002, release: 0.008, partials: CHIP },
      { at: 0.07, dur: 0.43, freq: hz('E6'), decay: 7, attack: 0.002, partials: CHIP },
    ],
    post: ['lowpass=f=7000'],
  },
  {
    name: 'play_hit',
    how: 'a soft upward glide 330 → 990 Hz (plucked timbre) over 0.26 s, like a turntable coming up to speed: the hit starts',
    dur: 0.28,
    notes: [{ at: 0, dur: 0.28, freq: 330, to: 990, attack: 0.03, decay: 3, release: 0.05, partials: PLUCK }],
    post: ['lowpass=f=5000'],
  },
  {
    name: 'stop_hit',
    how: 'the play cue reversed: a downward glide 880 → 260 Hz, a tape stopping: the hit stops',
    dur: 0.28,
    notes: [{ at: 0, dur: 0.28, freq: 880, to: 260, attack: 0.01, decay: 4, release: 0.06, partials: PLUCK }],
    post: ['lowpass=f=5000'],
  },
  {
    name: 'popup',
    how: 'a bubble "blip": a sine rushing up 420 → 1250 Hz in 0.14 s with a fast decay: something opened',
    dur: 0.14,
    notes: [
      {
        at: 0,
        dur: 0.14,
        freq: 420,
        to: 1250,
        attack: 0.003,
        decay: 22,
        release: 0.02,
        partials: [
          { ratio: 1, amp: 1 },
          { ratio: 2, amp: 0.18, decay: 10 },
        ],
      },
    ],
  },
  {
    name: 'select_slot',
    how: 'a short tick: A6 sine decaying in ~25 ms with a tiny high noise click: the cursor moved to a slot',
    dur: 0.1,
    notes: [
      {
        at: 0,
        dur: 0.1,
        freq: hz('A6'),
        attack: 0.0008,
        decay: 45,
        release: 0.02,
        partials: [
          { ratio: 1, amp: 1 },
          { ratio: 2.4, amp: 0.2, decay: 40 },
        ],
      },
    ],
    bursts: [{ at: 0, dur: 0.004, amp: 0.3, filter: 'highpass=f=3000' }],
  },
  {
    name: 'tick',
    how: 'a soft clock tick: a dry wood knock at D6 with a tiny noise click, over in 0.1 s: a second of a time limit passes',
    dur: 0.1,
    notes: [{ at: 0, dur: 0.1, freq: hz('D6'), attack: 0.0008, decay: 55, release: 0.02, partials: WOOD }],
    bursts: [{ at: 0, dur: 0.006, amp: 0.2, filter: 'bandpass=f=3500:width_type=q:w=1.5' }],
  },
  {
    name: 'slot_unavailable',
    how: 'a low double buzz (G3, odd harmonics, low-passed): "nope-nope", the slot is taken',
    dur: 0.32,
    notes: [
      { at: 0, dur: 0.12, freq: hz('G3'), attack: 0.004, decay: 8, release: 0.03, partials: BUZZ },
      { at: 0.16, dur: 0.14, freq: hz('G3'), attack: 0.004, decay: 8, release: 0.04, partials: BUZZ },
    ],
    post: ['lowpass=f=1800'],
  },
  {
    name: 'claim_hit',
    how: 'a sparkle: C6 E6 G6 C7 bells struck 45 ms apart over a C5 bell: you claimed the hit',
    dur: 0.7,
    notes: [
      { at: 0, dur: 0.7, freq: hz('C5'), amp: 0.5, decay: 4, partials: BELL },
      { at: 0, dur: 0.7, freq: hz('C6'), amp: 0.55, decay: 6, partials: BELL },
      { at: 0.045, dur: 0.655, freq: hz('E6'), amp: 0.5, decay: 6, partials: BELL },
      { at: 0.09, dur: 0.61, freq: hz('G6'), amp: 0.45, decay: 6, partials: BELL },
      { at: 0.135, dur: 0.565, freq: hz('C7'), amp: 0.4, decay: 5, partials: BELL },
    ],
    post: [ROOM],
  },
  {
    name: 'you_fail',
    how: 'an "uh-oh": plucked D5 falling a tritone to G#4: your guess was wrong',
    dur: 0.55,
    notes: [
      { at: 0, dur: 0.2, freq: hz('D5'), decay: 6, attack: 0.004, release: 0.04, partials: PLUCK },
      { at: 0.16, dur: 0.39, freq: hz('G#4'), decay: 5, attack: 0.004, partials: PLUCK },
    ],
    post: ['lowpass=f=3500', ROOM],
  },
  {
    name: 'you_lose',
    how: 'the sad trombone: muted horn G4, F#4, then a long F4 with vibrato: the game is lost',
    dur: 1.4,
    notes: [
      { at: 0, dur: 0.28, freq: hz('G4'), attack: 0.03, decay: 1.5, release: 0.05, partials: HORN },
      { at: 0.3, dur: 0.28, freq: hz('F#4'), attack: 0.03, decay: 1.5, release: 0.05, partials: HORN },
      { at: 0.6, dur: 0.8, freq: hz('F4'), attack: 0.04, decay: 1.6, release: 0.25, vibrato: { rate: 5.5, depth: 0.012 }, partials: HORN },
    ],
    post: ['lowpass=f=1800', ROOM],
  },
  {
    name: 'you_score',
    how: 'a rising C major arpeggio on bells (C5 E5 G5 C6, 70 ms apart), left ringing: your guess was right',
    dur: 0.6,
    notes: [
      { at: 0, dur: 0.6, freq: hz('C5'), amp: 0.7, decay: 6, partials: BELL },
      { at: 0.07, dur: 0.53, freq: hz('E5'), amp: 0.7, decay: 6, partials: BELL },
      { at: 0.14, dur: 0.46, freq: hz('G5'), amp: 0.7, decay: 5, partials: BELL },
      { at: 0.21, dur: 0.39, freq: hz('C6'), amp: 0.8, decay: 4.5, partials: BELL },
    ],
    post: [ROOM],
  },
  {
    name: 'you_win',
    how: 'a horn fanfare: G4 C5 E5 pick-ups, then a held C major chord (C5 E5 G5 C6, vibrato) crowned by a C7 bell: you won',
    dur: 1.5,
    notes: [
      { at: 0, dur: 0.11, freq: hz('G4'), attack: 0.01, release: 0.02, partials: HORN },
      { at: 0.11, dur: 0.11, freq: hz('C5'), attack: 0.01, release: 0.02, partials: HORN },
      { at: 0.22, dur: 0.11, freq: hz('E5'), attack: 0.01, release: 0.02, partials: HORN },
      ...(['C5', 'E5', 'G5', 'C6'] as const).map((n, i) => ({
        at: 0.33,
        dur: 1.17,
        freq: hz(n),
        amp: i === 3 ? 0.8 : 0.6,
        attack: 0.02,
        decay: 1.3,
        release: 0.35,
        vibrato: { rate: 5 + i * 0.3, depth: 0.006 },
        partials: HORN,
      })),
      { at: 0.33, dur: 1.17, freq: hz('C7'), amp: 0.25, decay: 3, partials: BELL },
    ],
    post: ['lowpass=f=4500', ROOM],
  },
];

// ---------------------------------------------------------------------------
// expressions and filter graphs

/** A number for an ffmpeg expression: fixed-point, never exponent notation (deterministic text). */
function num(x: number): string {
  const s = x.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

/** The phase (radians) of one partial at local time `u`, for a steady tone, a glide and/or vibrato. */
function phase(n: Note, ratio: number, u: string): string {
  const f = n.freq * ratio;
  let p: string;
  if (n.to !== undefined && n.to !== n.freq) {
    // exponential glide f(u) = f·e^(k·u); its integral is f·(e^(k·u) − 1)/k
    const k = Math.log(n.to / n.freq) / n.dur;
    p = `2*PI*${num(f / k)}*(exp(${num(k)}*${u})-1)`;
  } else {
    p = `2*PI*${num(f)}*${u}`;
  }
  if (n.vibrato) {
    // f·(1 + d·sin(2πru)) integrates to f·u + f·d·(1 − cos(2πru))/(2πr)
    const { rate, depth } = n.vibrato;
    p += `+${num((f * depth) / rate)}*(1-cos(2*PI*${num(rate)}*${u}))`;
  }
  return p;
}

function noteExpr(n: Note): string {
  const u = `(t-${num(n.at)})`;
  const attack = n.attack ?? 0.004;
  const release = n.release ?? 0.03;
  const top = Math.max(n.freq, n.to ?? n.freq);
  const terms = (n.partials ?? [{ ratio: 1, amp: 1 }])
    // nothing above 20 kHz: it would only alias
    .filter((p) => top * p.ratio < 20_000)
    .map((p) => `${num(p.amp)}*exp(-${num((n.decay ?? 0) + (p.decay ?? 0))}*${u})*sin(${phase(n, p.ratio, u)})`);
  const envelope = `(1-exp(-${u}/${num(attack)}))*min(1,(${num(n.dur)}-${u})/${num(release)})`;
  return `${num(n.amp ?? 1)}*between(t,${num(n.at)},${num(n.at + n.dur)})*${envelope}*(${terms.join('+')})`;
}

/** The filter graph that renders `cue` (label `[out]`). Seeds are fixed, so the noise is the same on every run. */
function cueGraph(cue: Cue): string {
  const d = num(cue.dur);
  // amerge needs every input's channel layout spelt out
  const mono = 'aformat=sample_fmts=flt:channel_layouts=mono';
  const chains = [`aevalsrc='${cue.notes.map(noteExpr).join('+')}':s=${RATE}:d=${d},${mono}[tone]`];
  const bursts = cue.bursts ?? [];
  bursts.forEach((b, i) => {
    chains.push(
      `anoisesrc=d=${d}:c=${b.color ?? 'white'}:seed=${1000 + i}:a=${num(b.amp)}:r=${RATE},${b.filter},` +
        // silent before the strike, a 1 ms onset, then an exponential fade; silent afterwards
        `afade=t=in:st=${num(b.at)}:d=0.001,afade=t=out:st=${num(b.at + 0.001)}:d=${num(b.dur)}:curve=exp,${mono}[n${i}]`,
    );
  });
  // amerge + pan sums the inputs exactly (amix would rescale them)
  const mix = bursts.length
    ? `[tone]${bursts.map((_, i) => `[n${i}]`).join('')}amerge=inputs=${bursts.length + 1},pan=mono|c0=${['c0', ...bursts.map((_, i) => `c${i + 1}`)].join('+')}`
    : '[tone]anull';
  // Scaled by the largest value the sum could reach, because aecho clips at ±1
  // (it distorts the onsets into broadband clicks otherwise). The level is set
  // by the loudness normalisation afterwards anyway.
  const bound =
    cue.notes.reduce((s, n) => s + (n.amp ?? 1) * (n.partials ?? [{ ratio: 1, amp: 1 }]).reduce((a, p) => a + p.amp, 0), 0) +
    bursts.reduce((s, b) => s + b.amp, 0);
  // the echo would run past the end: cut to length and fade the last 10 ms so nothing clicks
  const tail = [`volume=${num(1 / bound)}`, ...(cue.post ?? []), `atrim=end=${d}`, `afade=t=out:st=${num(cue.dur - 0.01)}:d=0.01`, mono];
  chains.push(`${mix},${tail.join(',')}[out]`);
  return chains.join(';');
}

// ---------------------------------------------------------------------------
// running ffmpeg and measuring

const FFMPEG = ffmpegPath(process.env.FFMPEG_PATH);

function ffmpeg(args: readonly string[]): string {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-nostdin', '-y', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stderr.slice(-3000)}`);
  return r.stderr;
}

interface Measurement {
  /** Decoded length (s). */
  seconds: number;
  /** Integrated loudness of the cue played back to back (LUFS). */
  lufs: number;
  /** True peak of the cue (dBTP). */
  truePeak: number;
}

/** The value after `label` in the Summary block of ffmpeg's ebur128 filter. */
function summaryValue(stderr: string, label: string): number {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const m = new RegExp(`${label}:\\s+(-?[\\d.]+|-inf)`).exec(summary);
  if (!m) throw new Error(`no ${label} in ebur128 summary:\n${summary}`);
  return m[1] === '-inf' ? -Infinity : Number(m[1]);
}

/** Decodes `file` and measures it as described at the top (any format ffmpeg reads). */
function measure(file: string, scratch: string): Measurement {
  const raw = join(scratch, 'measure.f32');
  ffmpeg(['-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', raw]);
  const seconds = statSync(raw).size / 4 / RATE;
  const loopFor = Math.max(4, seconds * 3);
  const looped = ffmpeg(['-nostats', '-stream_loop', '-1', '-f', 'f32le', '-ar', String(RATE), '-ac', '1', '-i', raw, '-t', num(loopFor), '-af', 'ebur128', '-f', 'null', '-']);
  const once = ffmpeg(['-nostats', '-f', 'f32le', '-ar', String(RATE), '-ac', '1', '-i', raw, '-af', 'ebur128=peak=true', '-f', 'null', '-']);
  return { seconds, lufs: summaryValue(looped, 'I'), truePeak: summaryValue(once, 'Peak') };
}

function encode(wav: string, gainDb: number, out: string): void {
  ffmpeg([
    '-i', wav,
    '-af', `volume=${num(gainDb)}dB`,
    '-ac', '1', '-ar', String(RATE),
    '-c:a', 'libopus', '-b:a', '48k', '-vbr', 'constrained', '-application', 'audio',
    // no random Ogg serial number, no encoder version tag: the same bytes on every run
    '-fflags', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1',
    out,
  ]);
}

/** Renders, normalises and encodes one cue; returns the final file's measurements. */
function makeCue(cue: Cue, outDir: string, scratch: string): Measurement {
  if (cue.dur < MIN_SECONDS || cue.dur > MAX_SECONDS) throw new Error(`${cue.name}: ${cue.dur} s is outside ${MIN_SECONDS}–${MAX_SECONDS} s`);
  const wav = join(scratch, `${cue.name}.wav`);
  ffmpeg(['-filter_complex', cueGraph(cue), '-map', '[out]', '-c:a', 'pcm_f32le', wav]);
  const raw = measure(wav, scratch);
  const out = join(outDir, `${cue.name}.opus`);
  let gain = TARGET_LUFS - raw.lufs;
  encode(wav, gain, out);
  let m = measure(out, scratch);
  if (Math.abs(m.lufs - TARGET_LUFS) > LUFS_TOLERANCE / 2) {
    // the codec moved the loudness a little: correct once
    gain += TARGET_LUFS - m.lufs;
    encode(wav, gain, out);
    m = measure(out, scratch);
  }
  if (Math.abs(m.lufs - TARGET_LUFS) > LUFS_TOLERANCE) throw new Error(`${cue.name}: ${m.lufs} LUFS, target ${TARGET_LUFS}`);
  if (m.truePeak > MAX_TRUE_PEAK_DBTP) throw new Error(`${cue.name}: true peak ${m.truePeak} dBTP over ${MAX_TRUE_PEAK_DBTP}: soften its attack`);
  if (m.seconds < MIN_SECONDS || m.seconds > MAX_SECONDS) throw new Error(`${cue.name}: decodes to ${m.seconds} s`);
  return m;
}

const CUE_NAMES: readonly string[] = CUES.map((c) => c.name);

function main(): void {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: join(ROOT, 'assets', 'sfx') }, only: { type: 'string' } },
  });
  const outDir = resolve(values.out);
  const only = values.only ? new Set(values.only.split(',')) : null;
  const unknown = [...(only ?? [])].filter((n) => !CUE_NAMES.includes(n));
  if (unknown.length) throw new Error(`unknown cue(s): ${unknown.join(', ')}; known: ${CUE_NAMES.join(', ')}`);
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'hitline-sfx-'));
  try {
    console.log(`cue               length  loudness  true peak   bytes   (target ${TARGET_LUFS} LUFS, peak ≤ ${MAX_TRUE_PEAK_DBTP} dBTP)`);
    for (const cue of CUES) {
      if (only && !only.has(cue.name)) continue;
      const m = makeCue(cue, outDir, scratch);
      const bytes = readFileSync(join(outDir, `${cue.name}.opus`)).length;
      console.log(
        `${cue.name.padEnd(17)} ${m.seconds.toFixed(3)} s ${m.lufs.toFixed(1).padStart(6)} LUFS ${m.truePeak.toFixed(1).padStart(6)} dBTP ${String(bytes).padStart(6)}   ${cue.how}`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) main();
