import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import { announce } from '../../client/src/a11y/game-meaning.ts';
import { errorText, i18next, loadNamespace } from '../../client/src/i18n.ts';
import * as actions from '../../client/src/routes/game/game-actions.ts';
import { releaseDj } from '../../client/src/routes/game/dj-player.ts';
import { HitSection } from '../../client/src/routes/game/HitSection.tsx';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { DjClip, GamePayload, PlayerPayload } from '../../shared/protocol/game.ts';
import { game, ids, player, users } from './game-fixtures.ts';
import { renderApp } from './render.tsx';

/**
 * The DJ's device and the others' (issue 27 §2): only the DJ asks the server
 * for the hidden hit's video and shows YouTube's player (here a stand-in of
 * YT.Player in the page: the tests never reach YouTube); the others are told
 * who the DJ is, and Alt+Shift+H says whose device plays.
 */

const CLIP: DjClip = { draws: 1, yt_id: 'dQw4w9WgXcQ', start: 42, seconds: 3, hidden: true, player_api: 'https://www.youtube.com/iframe_api', player_host: 'https://www.youtube-nocookie.com' };

/** Calls the page made of YouTube's player, and its options. */
const calls: { name: string; args: unknown[] }[] = [];
class FakePlayer {
  constructor(element: HTMLElement, options: { videoId: string; host: string; playerVars: Record<string, unknown>; events: { onReady: (e: unknown) => void } }) {
    calls.push({ name: 'new', args: [options.videoId, options.host, options.playerVars.start] });
    // YouTube's frame (a div: happy-dom loads no frames)
    element.replaceWith(document.createElement('div'));
    setTimeout(() => options.events.onReady({ target: this, data: undefined }), 0);
  }
  playVideo() { calls.push({ name: 'playVideo', args: [] }); }
  pauseVideo() { calls.push({ name: 'pauseVideo', args: [] }); }
  stopVideo() { calls.push({ name: 'stopVideo', args: [] }); }
  seekTo(s: number, ahead: boolean) { calls.push({ name: 'seekTo', args: [s, ahead] }); }
  cueVideoById(o: unknown) { calls.push({ name: 'cueVideoById', args: [o] }); }
  setVolume() {}
  getPlayerState() { return -1; }
  destroy() { calls.push({ name: 'destroy', args: [] }); }
}

/** Every request the page made, answered as the server would for the DJ. */
let asked: string[] = [];

beforeAll(async () => {
  await loadNamespace('people');
});
beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useGame.getState().reset('AbCd1234');
  useGame.getState().setStatus('connected');
  useGame.getState().setSender(() => undefined);
  calls.length = 0;
  asked = [];
  (window as unknown as { YT: unknown }).YT = { Player: FakePlayer };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Response(JSON.stringify(CLIP), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  releaseDj();
  useGame.getState().reset(null);
  vi.unstubAllGlobals();
  delete (window as unknown as { YT?: unknown }).YT;
});

const show = (g: GamePayload): void => {
  act(() => useGame.setState({ game: g }));
};
const djGame = (dj: string, plays = true, facts: Partial<GamePayload> = {}): GamePayload =>
  game([player('ana', { creator: true, years: [1980] }), player('ben', { years: [1990], turn_player: true, state: 'Guessing' })], {
    state: 'Guessing',
    clue_mode: 'dj',
    draws: 1,
    dj_seat: { id: dj, plays },
    hit_duration: 3,
    ...facts,
  });

describe('the DJ device', () => {
  it('asks for the hidden hit of each draw, shows the player, and plays it from the offset after the cue', async () => {
    show(djGame(ids.ana));
    renderApp(<HitSection />);
    expect(await screen.findByRole('heading', { name: 'You are the DJ' })).toBeTruthy();
    expect(screen.getByText(/^Keep this screen turned away from the table: YouTube's player shows the song's title\./)).toBeTruthy();
    await waitFor(() => expect(asked).toEqual(['/api/games/AbCd1234/dj']));
    // the player: the hidden hit at its offset, from the host the server named
    await waitFor(() => expect(calls[0]).toEqual({ name: 'new', args: ['dQw4w9WgXcQ', 'https://www.youtube-nocookie.com', 42] }));
    const play = screen.getByRole('button', { name: 'Play hit' });
    expect(play.getAttribute('aria-keyshortcuts')).toBe('Alt+Shift+H');
    await new Promise((r) => setTimeout(r, 20));
    fireEvent.click(play);
    await waitFor(() => expect(calls.map((c) => c.name)).toContain('playVideo'));
    expect(calls.find((c) => c.name === 'seekTo')?.args).toEqual([42, true]);
    expect(screen.getByRole('button', { name: 'Stop hit' })).toBeTruthy();
    // the shortcut's action stops it
    act(() => actions.togglePlay());
    expect(calls.at(-1)?.name).toBe('pauseVideo');
    expect(screen.getByRole('button', { name: 'Play hit' })).toBeTruthy();
    // the next draw is asked for once
    show(djGame(ids.ana, true, { draws: 2 }));
    await waitFor(() => expect(asked).toHaveLength(2));
    show(djGame(ids.ana, true, { draws: 2, deadline: 5 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toHaveLength(2);
  });

  it('a DJ who sits out is told so', async () => {
    show(djGame(ids.ana, false));
    renderApp(<HitSection />);
    expect(await screen.findByRole('heading', { name: 'You are the DJ and sit this round out' })).toBeTruthy();
  });
});

describe('every other device', () => {
  it('never asks for the video; says who the DJ is; Alt+Shift+H says whose device plays', async () => {
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    show(djGame(ids.ana));
    renderApp(<HitSection />);
    expect(await screen.findByText('Ana is the DJ and plays the hit on their device.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Play hit' })).toBeNull();
    expect(screen.queryByTestId('dj-player')).toBeNull();
    act(() => announcer.clear());
    act(() => actions.togglePlay());
    expect(announcer.getSnapshot().assertive.at(-1)?.text).toBe("Ana is the DJ: the hit plays on the DJ's device.");
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    // a DJ who sits out
    show(djGame(ids.ana, false));
    expect(await screen.findByText('Ana is the DJ, sits this round out and plays the hits on their device.')).toBeTruthy();
  });

  it('hears who the new DJ is when the DJ leaves, and why nothing plays while the DJ is away', async () => {
    const g = djGame(ids.ana);
    const [ana, ben] = g.players as [PlayerPayload, PlayerPayload];
    const leave = (userId: string) =>
      announce({ state: 'Guessing', players: g.players, settings: null, asked: null }, { seq: 9, event: 'leave', data: { players: [{ ...ben, state: 'Waiting' }], dj: ana } }, g, userId);
    expect(leave(ids.ben).meanings.map((m) => m.text)).toContain('Ana is now the DJ and plays the hits on their device.');
    const mine = leave(ids.ana).meanings.find((m) => m.text.startsWith('You are now the DJ'));
    expect(mine?.text).toBe('You are now the DJ: play each hit on your device, turned away from the table.');
    expect(mine?.interrupt).toBe(true);
    // the DJ's connection dropped: the others are told why no hit plays
    useSession.setState({ user: { ...users.ana, id: ids.ben, name: 'Ben' } });
    show({ ...g, players: [{ ...ana, connected: false }, ben] });
    renderApp(<HitSection />);
    expect(await screen.findByText('Ana, the DJ, is not connected: no hit plays until they are back.')).toBeTruthy();
  });

  it("names the DJ in a player's spoken info", () => {
    const g = djGame(ids.ana);
    expect(actions.playerInfo(g.players[0]!, g, ids.ben)).toMatch(/^Ana \(creator, DJ\)/);
    expect(actions.playerInfo(g.players[0]!, djGame(ids.ana, false), ids.ben)).toMatch(/^Ana \(creator, DJ, sits out\)/);
  });

  it('hears who the DJ is when the game starts', () => {
    const started = djGame(ids.ana);
    const out = announce({ state: 'Open', players: started.players, settings: null, asked: null }, { seq: 3, event: 'change_state', data: { state: 'Guessing' } }, started, ids.ben);
    expect(out.meanings.map((m) => m.text)).toContain('Ana is the DJ and plays the hits on their device.');
    const mine = announce({ state: 'Open', players: started.players, settings: null, asked: null }, { seq: 3, event: 'change_state', data: { state: 'Guessing' } }, started, ids.ana);
    expect(mine.meanings.map((m) => m.text)).toContain('You are the DJ: play each hit on your device, turned away from the table.');
  });
});

describe('errors of the DJ mode', () => {
  it('are translated from the game screen\'s namespace', async () => {
    await i18next.changeLanguage('de');
    try {
      await loadNamespace('table');
      expect(errorText({ code: 'dj_only', message: "only the DJ's device receives the hidden hit's video" })).toBe('Nur das Gerät des DJs bekommt den verdeckten Hit.');
      expect(errorText({ code: 'not_enough_players_dj', message: 'x' })).toBe('Außer dem DJ, der aussetzt, braucht es mindestens zwei Personen.');
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
