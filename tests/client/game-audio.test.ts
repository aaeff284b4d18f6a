import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { currentSource, play, prepare, release, useHitAudio } from '../../client/src/routes/game/hit-audio.ts';
import { useSettings } from '../../client/src/stores/settings.ts';
import { game, hit, player } from './game-fixtures.ts';

/** Howler, recorded: which files were loaded (and when), which played, stopped, unloaded. */
const fake = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => void;
  class FakeHowl {
    static all: FakeHowl[] = [];
    src: string[];
    preload: boolean;
    playing = false;
    unloaded = false;
    vol: number;
    private handlers = new Map<string, Handler[]>();
    constructor(o: { src: string[]; preload?: boolean; volume?: number }) {
      this.src = o.src;
      this.preload = !!o.preload;
      this.vol = o.volume ?? 1;
      FakeHowl.all.push(this);
    }
    on(event: string, fn: Handler) {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
      return this;
    }
    once(event: string, fn: Handler) {
      const wrapped: Handler = (...args) => {
        this.handlers.set(event, (this.handlers.get(event) ?? []).filter((h) => h !== wrapped));
        fn(...args);
      };
      return this.on(event, wrapped);
    }
    play() {
      this.playing = true;
      for (const h of this.handlers.get('play') ?? []) h(1);
      return 1;
    }
    stop() {
      this.playing = false;
      return this;
    }
    volume(v?: number) {
      if (v !== undefined) this.vol = v;
      return this;
    }
    stereo() {
      return this;
    }
    unload() {
      this.unloaded = true;
    }
  }
  return { FakeHowl };
});

vi.mock('howler', () => ({ Howl: fake.FakeHowl, Howler: { codecs: (c: string) => c === 'opus', autoSuspend: true, ctx: null } }));

const hitHowls = () => fake.FakeHowl.all.filter((h) => h.src.some((s) => s.startsWith('/api/games/')));
const flush = () => vi.advanceTimersByTimeAsync(0);

let cues: string[] = [];
let off = (): void => undefined;

beforeEach(() => {
  vi.useFakeTimers();
  fake.FakeHowl.all = [];
  cues = [];
  off = onNotification((n: Notification) => {
    if (n.sfx) cues.push(n.sfx);
  });
  useSettings.setState({ musicVolume: '0.5', sfxVolume: '1' });
});
afterEach(() => {
  release();
  off();
  vi.useRealTimers();
});

const ana = player('ana', { creator: true, years: [1980], turn_player: true, state: 'Guessing' });
const ben = player('ben', { years: [1990] });

describe('what the hit section plays', () => {
  it('the hidden clip of the draw, cut to hit_duration; 0 means no limit', () => {
    const g = game([ana, ben], { id: 'AbCd1234', state: 'Guessing', draws: 3, hit_duration: 15 });
    expect(currentSource(g, true)).toEqual({ key: 'draw:AbCd1234:3', path: '/api/games/AbCd1234/hit?draw=3', limitSeconds: 15 });
    expect(currentSource({ ...g, hit_duration: 0 }, true)?.limitSeconds).toBeNull();
  });

  it('the revealed hit in full while Confirming, whatever hit_duration says', () => {
    const card = hit(1985);
    const g = game([ana, ben], { state: 'Confirming', hit: card, hit_duration: 15 });
    expect(currentSource(g, false)).toEqual({ key: `hit:${card.id}`, path: `/api/games/AbCd1234/hit/${card.id}`, limitSeconds: null });
  });

  it('nothing while Open, in card mode, or for a spectator of a Private game before the reveal', () => {
    expect(currentSource(game([ana, ben]), true)).toBeNull();
    expect(currentSource(game([ana, ben], { state: 'Guessing', clue_mode: 'card' }), true)).toBeNull();
    // a DJ plays the hits from YouTube on his own device: the server has no clip, not even of the revealed hit
    expect(currentSource(game([ana, ben], { state: 'Guessing', clue_mode: 'dj', dj_seat: { id: ana.id, plays: true } }), true)).toBeNull();
    expect(currentSource(game([ana, ben], { state: 'Confirming', clue_mode: 'dj', hit: hit(1990), dj_seat: { id: ana.id, plays: true } }), true)).toBeNull();
    expect(currentSource(game([ana, ben], { state: 'Guessing', mode: 'Private' }), false)).toBeNull();
    expect(currentSource(game([ana, ben], { state: 'Guessing', mode: 'Private' }), true)).not.toBeNull();
  });
});

describe('the hit player', () => {
  const clip = { key: 'draw:AbCd1234:3', path: '/api/games/AbCd1234/hit?draw=3', limitSeconds: 15 };

  it('loads a new draw as soon as it exists (before anyone presses play), as Opus where the browser can play it', async () => {
    prepare(clip);
    await flush();
    expect(hitHowls().map((h) => [h.src, h.preload, h.playing])).toEqual([[['/api/games/AbCd1234/hit?draw=3'], true, false]]);
    // the next draw replaces (and unloads) it
    prepare({ ...clip, key: 'draw:AbCd1234:4', path: '/api/games/AbCd1234/hit?draw=4' });
    await flush();
    expect(hitHowls().map((h) => [h.src[0], h.unloaded])).toEqual([
      ['/api/games/AbCd1234/hit?draw=3', true],
      ['/api/games/AbCd1234/hit?draw=4', false],
    ]);
  });

  it('plays the play-hit cue 250 ms before the hit, at the music volume, and stops after hit_duration with the stop cue', async () => {
    prepare(clip);
    await flush();
    play(clip);
    expect(useHitAudio.getState().playing).toBe(clip.key);
    expect(cues).toEqual(['play_hit']);
    const [h] = hitHowls();
    await vi.advanceTimersByTimeAsync(249);
    expect(h?.playing).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(h?.playing).toBe(true);
    expect(h?.vol).toBe(0.5);
    // the same Howl that was preloaded: nothing fetched anew
    expect(hitHowls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(15_000 - 1);
    expect(h?.playing).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(h?.playing).toBe(false);
    expect(useHitAudio.getState().playing).toBeNull();
    expect(cues).toEqual(['play_hit', 'stop_hit']);
  });

  it('no limit: the revealed hit plays on', async () => {
    const full = { key: 'hit:x', path: '/api/games/AbCd1234/hit/x', limitSeconds: null };
    play(full);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(hitHowls()[0]?.playing).toBe(true);
    expect(useHitAudio.getState().playing).toBe('hit:x');
  });
});
