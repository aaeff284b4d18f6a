import type { Howl } from 'howler';
import { create } from 'zustand';
import type { GamePayload } from '../../../../shared/protocol/game.ts';
import { notify } from '../../a11y/notify.ts';
import { i18next } from '../../i18n.ts';
import { useSettings, volumeToNumber } from '../../stores/settings.ts';

/**
 * The music player of the game screen (docs/product.md#states "audio"): one hit at a time,
 * with Howler, at the music volume. The hidden clip stops after `hit_duration`
 * seconds (the server cuts it that short as well), a revealed hit plays in
 * full; the play-hit cue sounds 250 ms before the music starts and the stop-hit
 * cue when it stops. The clip of a new draw is loaded as soon as the draw
 * exists, so pressing play starts at once.
 */

/** docs/product.md#limits: the sound effect's lead before the hit. */
export const HIT_LEAD_MS = 250;

export interface HitSource {
  /** Identifies what is loaded: `draw:<game>:<n>` for the hidden clip, `hit:<id>` for a revealed hit. */
  key: string;
  /** Path without the format parameter (audioPath adds it). */
  path: string;
  /** Stop after this many seconds; null = play to the end. */
  limitSeconds: number | null;
}

interface HitAudioState {
  /** Key of the source playing (or about to, during the cue's lead); null when silent. */
  playing: string | null;
}

export const useHitAudio = create<HitAudioState>()(() => ({ playing: null }));

type HowlerModule = typeof import('howler');
/**
 * Howler is imported on first use, as sfx.ts does: a static import here would
 * make Howler a chunk shared with the first page's dynamic import, and the
 * bundler then moves its CommonJS helpers into that chunk, which the first page
 * would load up front (budget P9).
 */
let lib: Promise<HowlerModule> | null = null;
const howler = (): Promise<HowlerModule> => (lib ??= import('howler'));

/** The served formats are Ogg Opus and MP3; MP3 where the browser cannot play Opus (older Safari). */
function format({ Howler }: HowlerModule): 'opus' | 'mp3' {
  return Howler.codecs('opus') ? 'opus' : 'mp3';
}

export function audioUrl(path: string, fmt: 'opus' | 'mp3'): string {
  if (fmt === 'opus') return path;
  return `${path}${path.includes('?') ? '&' : '?'}format=mp3`;
}

/** The hidden clip of a draw, or the revealed current hit. */
export const clipPath = (gameId: string, draws: number): string => `/api/games/${encodeURIComponent(gameId)}/hit?draw=${draws}`;
export const hitPath = (gameId: string, hitId: string): string => `/api/games/${encodeURIComponent(gameId)}/hit/${encodeURIComponent(hitId)}`;

/**
 * What the hit section plays now: the hidden clip of the current draw (cut to
 * `hit_duration`; docs/product.md#states: 0 means no limit), the revealed hit in full while
 * Confirming (no limit while confirming), nothing while Open, in `card` clue
 * mode (the table reads the card instead) or in `dj` clue mode (the DJ's
 * device plays it from YouTube, dj-player.ts), nor to a spectator of a Private
 * game while the hit is hidden.
 */
export function currentSource(game: Pick<GamePayload, 'id' | 'mode' | 'state' | 'clue_mode' | 'draws' | 'hit_duration' | 'hit'>, seated: boolean): HitSource | null {
  // cards are read aloud; a DJ plays the hits from YouTube on his own device (dj-player.ts)
  if (game.state === 'Open' || game.clue_mode !== 'audio') return null;
  // a Private game's hidden clip is for its players only (docs/rules.md#a12)
  if (game.mode === 'Private' && !seated && game.state !== 'Confirming') return null;
  if (game.state === 'Confirming') return game.hit ? { key: `hit:${game.hit.id}`, path: hitPath(game.id, game.hit.id), limitSeconds: null } : null;
  return { key: `draw:${game.id}:${game.draws}`, path: clipPath(game.id, game.draws), limitSeconds: game.hit_duration > 0 ? game.hit_duration : null };
}

/** The loaded source's Howl; a promise because Howler itself loads on first use. */
let howl: Promise<Howl | null> = Promise.resolve(null);
let loaded: HitSource | null = null;
let leadTimer: ReturnType<typeof setTimeout> | undefined;
let limitTimer: ReturnType<typeof setTimeout> | undefined;

const musicVolume = (): number => volumeToNumber(useSettings.getState().musicVolume);

// the slider in the settings dialog changes a playing hit's volume at once
useSettings.subscribe((s, prev) => {
  if (s.musicVolume !== prev.musicVolume) void howl.then((h) => h?.volume(volumeToNumber(s.musicVolume)));
});

function clearTimers(): void {
  clearTimeout(leadTimer);
  clearTimeout(limitTimer);
  leadTimer = undefined;
  limitTimer = undefined;
}

function newHowl(mod: HowlerModule, source: HitSource): Howl {
  const fmt = format(mod);
  const h = new mod.Howl({ src: [audioUrl(source.path, fmt)], format: [fmt], preload: true, volume: musicVolume() });
  const key = source.key;
  const failed = (_id: number, err: unknown): void => {
    if (useHitAudio.getState().playing !== key) return; // a preload nobody asked to hear
    clearTimers();
    useHitAudio.setState({ playing: null });
    console.warn(`hit audio ${key} failed`, err);
    notify.notification(i18next.t('game.hit.audio_failed'), { toast: 'error' });
  };
  h.on('loaderror', failed);
  h.on('playerror', failed);
  h.on('end', () => {
    if (useHitAudio.getState().playing !== key) return;
    clearTimers();
    useHitAudio.setState({ playing: null });
    notify.playSfx('stop_hit');
  });
  return h;
}

/** Makes `source` the loaded one (loading it now); null unloads. A playing source is kept only if it stays. */
export function prepare(source: HitSource | null): void {
  if (source && loaded?.key === source.key) return;
  if (useHitAudio.getState().playing) stop(false);
  void howl.then((h) => h?.unload());
  loaded = source;
  howl = source
    ? howler().then(
        (mod) => newHowl(mod, source),
        (err: unknown) => {
          console.warn('howler could not be loaded', err);
          return null;
        },
      )
    : Promise.resolve(null);
}

/** Plays `source` after the play-hit cue; whatever played before stops. */
export function play(source: HitSource): void {
  if (useHitAudio.getState().playing) stop(false);
  if (loaded?.key !== source.key) prepare(source);
  const ready = howl;
  const key = source.key;
  useHitAudio.setState({ playing: key });
  notify.playSfx('play_hit');
  leadTimer = setTimeout(async () => {
    leadTimer = undefined;
    const h = await ready;
    if (useHitAudio.getState().playing !== key) return;
    if (!h) {
      useHitAudio.setState({ playing: null });
      notify.notification(i18next.t('game.hit.audio_failed'), { toast: 'error' });
      return;
    }
    h.volume(musicVolume());
    h.stop();
    h.once('play', () => {
      if (source.limitSeconds === null || useHitAudio.getState().playing !== key) return;
      limitTimer = setTimeout(() => stop(), source.limitSeconds * 1000);
    });
    h.play();
  }, HIT_LEAD_MS);
}

/** Stops the music; `cue` plays the stop-hit sound (not when another hit takes over). */
export function stop(cue = true): void {
  const was = useHitAudio.getState().playing;
  clearTimers();
  void howl.then((h) => h?.stop());
  useHitAudio.setState({ playing: null });
  if (was && cue) notify.playSfx('stop_hit');
}

export function toggle(source: HitSource): void {
  if (useHitAudio.getState().playing === source.key) stop();
  else play(source);
}

/** Leaves the game screen: silence and nothing loaded. */
export function release(): void {
  stop(false);
  prepare(null);
}
