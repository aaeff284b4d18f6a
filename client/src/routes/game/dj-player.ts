import { create } from 'zustand';
import type { DjClip } from '../../../../shared/protocol/game.ts';
import { notify } from '../../a11y/notify.ts';
import { i18next } from '../../i18n.ts';
import { api as apiCall, ApiError } from '../../net/api.ts';
import { useSettings, volumeToNumber } from '../../stores/settings.ts';
import { HIT_LEAD_MS } from './hit-audio.ts';

/**
 * The DJ's player (`dj` clue mode): on the DJ's device alone, each
 * hit plays through YouTube's embedded player (the IFrame Player API), from the
 * hit's playback offset, for `hit_duration` seconds while it is hidden, with the
 * play-hit and stop-hit cues around it, as the audio mode's player
 * (hit-audio.ts) does. What to play comes from `GET /api/games/{id}/dj`, asked
 * for each new draw: the only answer that names the hidden hit's video, and
 * only the DJ gets it. The API script comes from where that answer says (the
 * server's YOUTUBE_IFRAME_API; a stand-in in the tests), loaded on first use.
 *
 * YouTube's terms want the player visible and at least 200×200: DjPlayer.tsx
 * shows it, on the DJ's device, which the DJ keeps turned away from the table.
 */

/** The part of YouTube's IFrame Player API this module uses. */
interface YtPlayer {
  playVideo(): void;
  pauseVideo(): void;
  stopVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  cueVideoById(options: { videoId: string; startSeconds?: number }): void;
  setVolume(volume: number): void;
  getPlayerState(): number;
  destroy(): void;
}
interface YtEvent {
  target: YtPlayer;
  data: number;
}
interface YtNamespace {
  Player: new (
    element: HTMLElement,
    options: {
      width: string | number;
      height: string | number;
      host?: string;
      videoId?: string;
      playerVars?: Record<string, string | number>;
      events?: { onReady?: (e: YtEvent) => void; onStateChange?: (e: YtEvent) => void; onError?: (e: YtEvent) => void };
    },
  ) => YtPlayer;
}
type YtWindow = Window & { YT?: Partial<YtNamespace>; onYouTubeIframeAPIReady?: () => void };

/** YT.PlayerState.PLAYING and BUFFERING (the documented values). */
const PLAYING = 1;
const BUFFERING = 3;
/** How long the API script may take to load before the player counts as failed. */
export const API_TIMEOUT_MS = 15_000;

export type DjStatus = 'idle' | 'loading' | 'ready' | 'failed';

interface DjState {
  /** What the DJ plays now (the server's answer for the current draw), or null. */
  clip: DjClip | null;
  /** The player: not made yet, loading (script or video), ready, or failed (script, video or answer). */
  status: DjStatus;
  /** Why it failed: an i18n key of the table namespace. */
  problem: string | null;
  /** The draw whose clip is playing (or about to, during the cue's lead), null when silent. */
  playing: number | null;
}

export const useDj = create<DjState>()(() => ({ clip: null, status: 'idle', problem: null, playing: null }));

let api: Promise<YtNamespace> | null = null;
let apiUrl: string | null = null;

/** Loads the IFrame Player API from `url` once (YouTube's own way: a script tag, then onYouTubeIframeAPIReady). */
function loadApi(url: string): Promise<YtNamespace> {
  if (api && apiUrl === url) return api;
  apiUrl = url;
  api = new Promise<YtNamespace>((resolve, reject) => {
    const w = window as YtWindow;
    if (w.YT?.Player) {
      resolve(w.YT as YtNamespace);
      return;
    }
    const timer = setTimeout(() => reject(new Error('the YouTube player API did not load in time')), API_TIMEOUT_MS);
    const before = w.onYouTubeIframeAPIReady;
    w.onYouTubeIframeAPIReady = () => {
      before?.();
      clearTimeout(timer);
      if (w.YT?.Player) resolve(w.YT as YtNamespace);
      else reject(new Error('the YouTube player API loaded without YT.Player'));
    };
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`the YouTube player API could not be loaded from ${url}`));
    };
    document.head.appendChild(script);
  });
  // a failed load is tried again next time
  api.catch(() => {
    api = null;
  });
  return api;
}

let player: YtPlayer | null = null;
let playerReady = false;
/** The element the player lives in (DjPlayer's), while it is shown. */
let host: HTMLElement | null = null;
/** The clip cued into the player. */
let cued: DjClip | null = null;
let leadTimer: ReturnType<typeof setTimeout> | undefined;
let limitTimer: ReturnType<typeof setTimeout> | undefined;
/** Which game and draw the clip was asked for; a newer question makes an older answer stale. */
let asked: string | null = null;

const musicVolume = (): number => Math.round(volumeToNumber(useSettings.getState().musicVolume) * 100);

useSettings.subscribe((s, prev) => {
  if (s.musicVolume !== prev.musicVolume && player && playerReady) player.setVolume(Math.round(volumeToNumber(s.musicVolume) * 100));
});

function fail(problem: string): void {
  clearTimers();
  useDj.setState({ status: 'failed', problem, playing: null });
}

function clearTimers(): void {
  clearTimeout(leadTimer);
  clearTimeout(limitTimer);
  leadTimer = undefined;
  limitTimer = undefined;
}

/** Cues `clip` into the player at its offset (a new draw, or the revealed hit), silently. */
function cue(clip: DjClip): void {
  if (!player || !playerReady) return;
  if (cued?.yt_id === clip.yt_id && cued.start === clip.start && cued.draws === clip.draws && cued.hidden === clip.hidden) return;
  cued = clip;
  player.cueVideoById({ videoId: clip.yt_id, startSeconds: clip.start });
  useDj.setState({ status: 'ready' });
}

/** Makes the player inside `element` (DjPlayer mounts it) for the current clip. */
async function makePlayer(element: HTMLElement, clip: DjClip): Promise<void> {
  useDj.setState({ status: 'loading', problem: null });
  let yt: YtNamespace;
  try {
    yt = await loadApi(clip.player_api);
  } catch (err) {
    console.warn(err);
    if (host === element) fail('dj.failed');
    return;
  }
  if (host !== element || player) return;
  // YouTube replaces the element it is given with its frame: a child of ours, not React's
  const slot = document.createElement('div');
  element.replaceChildren(slot);
  playerReady = false;
  cued = clip;
  player = new yt.Player(slot, {
    width: '100%',
    height: '100%',
    host: clip.player_host,
    videoId: clip.yt_id,
    playerVars: { start: clip.start, playsinline: 1, rel: 0, origin: window.location.origin },
    events: {
      onReady: (e) => {
        playerReady = true;
        e.target.setVolume(musicVolume());
        useDj.setState({ status: 'ready' });
        const now = useDj.getState().clip;
        if (now) cue(now);
      },
      onStateChange: (e) => onState(e.data),
      onError: () => {
        // 2, 5, 100, 101, 150: bad id, HTML5 error, removed, or not embeddable
        fail('dj.video_failed');
      },
    },
  });
}

function onState(state: number): void {
  const { playing, clip } = useDj.getState();
  if (playing === null || !clip || playing !== clip.draws) return;
  if (state === PLAYING) {
    // the hidden clip runs hit_duration seconds from when it really plays (buffering not counted)
    if (clip.seconds !== null && limitTimer === undefined) limitTimer = setTimeout(() => stop(), clip.seconds * 1000);
  } else if (state !== BUFFERING && leadTimer === undefined) {
    // paused or ended by YouTube's own controls: the clip is over
    clearTimers();
    useDj.setState({ playing: null });
  }
}

/** DjPlayer shows the player's place; the player is made there once there is a clip. */
export function attach(element: HTMLElement): void {
  host = element;
  const clip = useDj.getState().clip;
  if (clip) void makePlayer(element, clip);
}

/** DjPlayer leaves: the player goes with it. */
export function detach(element: HTMLElement): void {
  if (host !== element) return;
  stop(false);
  player?.destroy();
  player = null;
  playerReady = false;
  cued = null;
  host = null;
  element.replaceChildren();
  useDj.setState({ status: 'idle' });
}

/**
 * Asks the server what the DJ plays for draw `draws` of game `gameId` (on each
 * new draw, and for the reveal), and cues it. `null` forgets the clip (not the
 * DJ, not running, another mode).
 */
export async function follow(gameId: string | null, draws = 0, revealed = false): Promise<void> {
  const key = gameId ? `${gameId}:${draws}:${revealed}` : null;
  if (key === asked) return;
  asked = key;
  if (useDj.getState().playing !== null) stop(false);
  if (!gameId) {
    useDj.setState({ clip: null, problem: null });
    return;
  }
  let clip: DjClip;
  try {
    clip = await apiCall('get', '/api/games/{id}/dj', { params: { id: gameId }, schema: (s) => s.DjClipSchema });
  } catch (err) {
    if (asked !== key) return;
    console.warn('the DJ clip could not be loaded', err);
    // not the DJ (any more): nothing to play; anything else is a failure to say
    if (err instanceof ApiError && err.code === 'dj_only') useDj.setState({ clip: null });
    else fail('dj.clip_failed');
    return;
  }
  if (asked !== key) return;
  useDj.setState({ clip, problem: useDj.getState().status === 'failed' ? useDj.getState().problem : null });
  if (player) cue(clip);
  else if (host) void makePlayer(host, clip);
}

/** Plays the current clip from its offset after the play-hit cue. */
export function play(): void {
  const { clip } = useDj.getState();
  if (!clip || !player || !playerReady) {
    notify.notification(i18next.t('table:dj.not_ready'), { interrupt: true, toast: 'warning' });
    return;
  }
  if (useDj.getState().playing !== null) stop(false);
  const p = player;
  useDj.setState({ playing: clip.draws });
  notify.playSfx('play_hit');
  leadTimer = setTimeout(() => {
    leadTimer = undefined;
    if (useDj.getState().playing !== clip.draws) return;
    p.setVolume(musicVolume());
    p.seekTo(clip.start, true);
    p.playVideo();
  }, HIT_LEAD_MS);
}

/** Stops the clip (the player pauses, ready to play it again from its offset); `cue` plays the stop-hit sound. */
export function stop(sound = true): void {
  const was = useDj.getState().playing;
  clearTimers();
  useDj.setState({ playing: null });
  if (player && playerReady && was !== null) player.pauseVideo();
  if (was !== null && sound) notify.playSfx('stop_hit');
}

export function toggle(): void {
  if (useDj.getState().playing !== null) stop();
  else play();
}

/** Leaves the game screen: silence, and the next game asks afresh. */
export function releaseDj(): void {
  stop(false);
  asked = null;
  useDj.setState({ clip: null, problem: null });
}
