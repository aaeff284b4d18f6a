import { useSettings, volumeToNumber } from '../stores/settings.ts';

/**
 * The sound-effect player (docs/product.md#states "Sound cues", plus the countdown's tick). Effects play only while the
 * effects volume is above 0. Howler and the files load on first use, so neither
 * weighs on the first page load; Howler suspends its audio context after 30 s
 * of silence (its autoSuspend), which is the spec's idle-out.
 *
 * Files: `assets/sfx/<name>.opus`, picked up at build time. A cue whose file is
 * missing is skipped silently, so screens can call every cue already.
 */

export const SFX_NAMES = [
  'claim_hit',
  'join_game',
  'leave_game',
  'no_interception',
  'pay_token',
  'play_hit',
  'popup',
  'receive_token',
  'select_slot',
  'slot_unavailable',
  'stop_hit',
  'tick',
  'you_fail',
  'you_lose',
  'you_score',
  'you_win',
] as const;
export type SfxName = (typeof SFX_NAMES)[number];

// no-inline: files under Vite's 4 kB limit would otherwise become base64 data URIs,
// which the CSP's media-src does not allow (Howler's HTML5 fallback) and which
// the spec does not want: cues are opus files from the static assets path.
const files = import.meta.glob<string>('../../../assets/sfx/*.opus', { query: '?url&no-inline', import: 'default' });
const fileOf = (name: SfxName): (() => Promise<string>) | undefined => files[`../../../assets/sfx/${name}.opus`];

type HowlerModule = typeof import('howler');
let howler: Promise<HowlerModule> | null = null;
const howls = new Map<SfxName, Promise<InstanceType<HowlerModule['Howl']> | null>>();
const endedListeners = new Set<(name: SfxName) => void>();

function load(name: SfxName) {
  let howl = howls.get(name);
  if (!howl) {
    const file = fileOf(name);
    howl = file
      ? Promise.all([(howler ??= import('howler')), file()]).then(([{ Howl }, src]) => {
          const h = new Howl({ src: [src], format: ['opus'], preload: true });
          h.on('end', () => endedListeners.forEach((l) => l(name)));
          return h;
        })
      : Promise.resolve(null);
    howls.set(name, howl);
  }
  return howl;
}

export interface PlaySfxOptions {
  /** Stereo position, -1 (left) … 1 (right): local games can place players around the table. */
  pan?: number;
  /** A share of the effects volume (0..1): a cue repeated every second (the countdown's tick) stays in the background. */
  gain?: number;
}

let silenced = false;
/** A phone used as a controller stays silent (the TV plays the cues) unless its player listens on it. */
export function silenceSfx(on: boolean): void {
  silenced = on;
}

/** Plays a cue at the effects volume; resolves when it started (or was skipped). */
export async function playSfx(name: SfxName, options: PlaySfxOptions = {}): Promise<void> {
  if (silenced) return;
  const volume = volumeToNumber(useSettings.getState().sfxVolume) * Math.max(0, Math.min(1, options.gain ?? 1));
  if (volume <= 0) return;
  try {
    const howl = await load(name);
    if (!howl) return;
    howl.volume(volume);
    if (options.pan !== undefined) howl.stereo(Math.max(-1, Math.min(1, options.pan)));
    howl.play();
  } catch (err) {
    // a sound is a cue, never a reason to break the screen
    console.warn(`sound effect ${name} failed`, err);
  }
}

/** Called when a cue finished playing ("sfx ended"); e.g. the hit starts after the play-hit cue. */
export function onSfxEnded(listener: (name: SfxName) => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/** Loads Howler on a user gesture: phones only allow audio after one (the game screen calls it on its first tap). */
export async function unlockAudio(): Promise<void> {
  const { Howler } = await (howler ??= import('howler'));
  Howler.autoSuspend = true;
  await Howler.ctx?.resume?.().catch(() => undefined);
}
