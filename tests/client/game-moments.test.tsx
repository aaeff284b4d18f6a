import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followGameNews } from '../../client/src/a11y/game-news.ts';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { applyLanguage } from '../../client/src/i18n.ts';
import { Countdown } from '../../client/src/routes/game/Countdown.tsx';
import { EventFeed, FEED_SHOWN } from '../../client/src/routes/game/EventFeed.tsx';
import { GameEndedDialog } from '../../client/src/routes/game/GameEndedDialog.tsx';
import { RevealMoment } from '../../client/src/routes/game/RevealMoment.tsx';
import { TvStage } from '../../client/src/routes/game/table/stage.ts';
import { shouldTick, TICK_SECONDS } from '../../client/src/routes/game/game-logic.ts';
import { SettingsDialog } from '../../client/src/components/SettingsDialog.tsx';
import { gameClock } from '../../client/src/stores/game-clock.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { useSettings } from '../../client/src/stores/settings.ts';
import { useUi } from '../../client/src/stores/ui.ts';
import type { GamePayload, GameUpdate } from '../../shared/protocol/game.ts';
import { roomEvent, type RoomEvent } from '../../shared/protocol/room.ts';
import { game, hit, player, roomJson, users } from './game-fixtures.ts';
import { renderApp, spokenText } from './render.tsx';

/**
 * The game's moments on screen (issue 26): the event feed, the reveal, the
 * celebration at the end, and the ticking countdown.
 */

const sent: { type: string; payload: unknown }[] = [];
let heard: Notification[] = [];
let off = (): void => undefined;
let stopNews = (): void => undefined;

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useGame.getState().reset('AbCd1234');
  // the game route's wiring: what the store's events mean is said and fed
  stopNews = followGameNews();
  sent.length = 0;
  useGame.getState().setSender((type, payload) => sent.push({ type, payload }));
  useGame.getState().setStatus('connected');
  heard = [];
  off = onNotification((n) => heard.push(n));
});
afterEach(() => {
  off();
  useGame.getState().reset(null);
  stopNews();
  useSettings.setState({ countdownTicks: false });
});

let seq = 1;
const ev = (event: RoomEvent['event'], data: GameUpdate): RoomEvent => roomEvent(++seq, { event, data });
function step(next: GamePayload, ...events: RoomEvent[]): void {
  act(() => {
    useGame.getState().applyState(roomJson(next, seq));
    for (const e of events) useGame.getState().applyEvent(e);
  });
}

const ana = player('ana', { creator: true, years: [1980], tokens: 2 });
const ben = player('ben', { years: [1990], tokens: 2 });

/** Both placements of the game screen (the strip on top, the side column), as GameScreen has them. */
const Feeds = () => (
  <>
    <EventFeed />
    <EventFeed at="side" />
  </>
);

describe('EventFeed', () => {
  it('is on the page once: on top on a phone, beside the players on a desktop', () => {
    const viewport = (width: number) => (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({ width, height: 800 });
    step(game([ana]));
    step(game([ana, ben]), ev('join', { players: [ben] }));
    try {
      viewport(390);
      const { unmount } = renderApp(<Feeds />);
      expect(screen.getAllByRole('region', { name: 'What just happened' })).toHaveLength(1);
      expect(screen.getByTestId('event-feed').getAttribute('data-at')).toBe('top');
      unmount();
      viewport(1366);
      renderApp(<Feeds />);
      expect(screen.getAllByRole('region', { name: 'What just happened' })).toHaveLength(1);
      expect(screen.getByTestId('event-feed').getAttribute('data-at')).toBe('side');
    } finally {
      viewport(1024);
    }
  });

  it('shows what was said, newest first, as a plain list (no second live region), readable by its heading', () => {
    renderApp(<Feeds />);
    expect(screen.queryByTestId('event-feed')).toBeNull();
    step(game([ana]));
    step(game([ana, ben]), ev('join', { players: [ben] }));
    const cleo = player('cleo');
    step(game([ana, ben, cleo]), ev('join', { players: [cleo] }));
    step(game([ana, cleo]), ev('leave', { players: [ben], removed_by: ana }));
    const said = heard.filter((n) => n.text).map((n) => n.text);
    expect(said).toEqual(['Ben joined the game.', 'Cleo joined the game.', 'You removed Ben from the game.']);
    const feed = screen.getByRole('region', { name: 'What just happened' });
    const items = within(feed).getAllByRole('listitem').map(spokenText);
    expect(items).toEqual([...said].reverse());
    // nothing in it announces by itself: the live region already did
    for (const el of [feed, ...feed.querySelectorAll('*')]) {
      expect(el.getAttribute('aria-live'), el.outerHTML.slice(0, 60)).toBeNull();
      expect(['status', 'log', 'alert']).not.toContain(el.getAttribute('role'));
    }
    // the names are set apart, as text (never markup)
    expect(within(feed).getAllByText('Ben').map((b) => b.tagName)).toEqual(['SPAN', 'SPAN']);
  });

  it(`shows the newest ${FEED_SHOWN} only`, () => {
    renderApp(<Feeds />);
    step(game([ana]));
    const seats = ['ben', 'cleo'] as const;
    for (let i = 0; i < FEED_SHOWN + 3; i++) {
      const p = player(seats[i % 2]!);
      step(game([ana, p]), ev(i % 2 === 0 ? 'join' : 'leave', { players: [p] }));
    }
    const items = within(screen.getByTestId('event-feed')).getAllByRole('listitem');
    expect(items).toHaveLength(FEED_SHOWN);
    expect(items[0] && spokenText(items[0])).toBe(useGame.getState().feed.at(-1)?.text);
  });

  it('speaks German when the game does', async () => {
    await applyLanguage('de');
    try {
      renderApp(<Feeds />);
      step(game([ana]));
      step(game([ana, ben]), ev('join', { players: [ben] }));
      expect(screen.getByRole('region', { name: 'Was gerade passiert ist' }).textContent).toContain('Ben ist dem Spiel beigetreten.');
    } finally {
      await applyLanguage('en');
    }
  });
});

describe('RevealMoment', () => {
  const card = hit(1984, 'Born in the U.S.A.');
  const placed = { ...ana, turn_player: true, guess: ana.slots[1] ?? null };

  function reveal(winner: typeof ana | null): void {
    step(game([placed, { ...ben, state: 'Intercepting' }], { state: 'Intercepting', reveal_time: 3, draws: 1 }));
    const won = winner && { ...winner, hits: [...winner.hits, card] };
    const players = [won?.id === placed.id ? won : placed, { ...(won?.id === ben.id ? won : ben), state: 'Confirming' as const }];
    step(
      game(players, { state: 'Confirming', hit: card, ...(won ? { last_scored: won } : {}), reveal_time: 3, draws: 1 }),
      ev('change_state', { state: 'Confirming', hit: card, ...(won ? { last_scored: won } : {}) }),
    );
  }

  it('shows the year, who placed it right and that it goes to their timeline', () => {
    vi.useFakeTimers();
    try {
      renderApp(<RevealMoment />);
      reveal(placed);
      const moment = screen.getByTestId('reveal-moment');
      expect(moment.getAttribute('data-outcome')).toBe('won');
      // face down for a frame, then turned over with its mark
      act(() => vi.advanceTimersByTime(50));
      expect(within(moment).getByTestId('hit-card').getAttribute('aria-label')).toBe('1984: Born in the U.S.A. by Artist 1984, placed correctly');
      expect(within(moment).getByTestId('reveal-result').textContent).toBe('You placed it right!');
      expect(moment.textContent).toContain('You guessed after 1980');
      expect(moment.textContent).toContain('Goes to your timeline');
      // not a live region: the live region said it
      expect(moment.querySelector('[aria-live], [role=status], [role=alert]')).toBeNull();
      // it stays for the pause, and (the confirmation not yet given) after it
      act(() => vi.advanceTimersByTime(10_000));
      expect(screen.getByTestId('reveal-moment')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('on the TV names the player, the device\'s own user too: nobody at the table is "you" there', () => {
    vi.useFakeTimers();
    try {
      renderApp(
        <TvStage.Provider value>
          <RevealMoment />
        </TvStage.Provider>,
      );
      reveal(placed);
      const moment = screen.getByTestId('reveal-moment');
      expect(within(moment).getByTestId('reveal-result').textContent).toBe('Ana placed it right!');
      expect(moment.textContent).toContain('Ana guessed after 1980');
      expect(moment.textContent).toContain("Goes to Ana's timeline");
      expect(moment.textContent).not.toMatch(/\byour?\b/i);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says when nobody placed it right, and an interceptor's win", () => {
    vi.useFakeTimers();
    try {
      renderApp(<RevealMoment />);
      reveal(null);
      expect(screen.getByTestId('reveal-moment').getAttribute('data-outcome')).toBe('discarded');
      expect(screen.getByTestId('reveal-result').textContent).toBe('Nobody placed it right.');
      expect(screen.getByTestId('reveal-moment').textContent).toContain('Goes to the discard pile');
      act(() => vi.advanceTimersByTime(3000));
      useGame.getState().reset('AbCd1234');
      reveal(ben);
      expect(screen.getByTestId('reveal-result').textContent).toBe('Ben intercepted it!');
      expect(screen.getByTestId('reveal-moment').textContent).toContain("Goes to Ben's timeline");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('GameEndedDialog: the celebration', () => {
  const card = hit(1990, 'Strangers');
  const benWon = player('ben', { hits: [hit(2001), hit(1970), card], tokens: 0 });
  const standings = [player('ana', { years: [1970, 1980], tokens: 1 }), benWon];
  const table = (creator: 'ana' | 'ben') => game([player('ana', { creator: creator === 'ana' }), player('ben', { creator: creator === 'ben' })], { winner: benWon, standings });

  function celebrate(creator: 'ana' | 'ben' = 'ana'): void {
    act(() => useGame.setState({ game: table(creator) }));
    act(() => useGame.getState().showEnded({ winner: benWon, standings, hit: card, celebrate: true }));
  }

  it("names the winner first (focused), lays out the winner's timeline in year order, and the creator plays again with one button", async () => {
    celebrate();
    renderApp(<GameEndedDialog />);
    const dialog = await screen.findByRole('dialog', { name: 'Game over' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Ben wins!'));
    const timeline = within(dialog).getByRole('region', { name: "Ben's timeline" });
    expect(within(timeline).getAllByRole('img').map((card) => card.getAttribute('aria-label'))).toEqual(['1970: Song 1970 by Artist 1970', '1990: Strangers by Artist 1990', '2001: Song 2001 by Artist 2001']);
    // the card that won it is marked
    expect(within(timeline).getAllByRole('listitem').map((li) => li.getAttribute('data-last'))).toEqual([null, 'true', null]);
    expect(screen.getByTestId('confetti')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Play again' }));
    expect(sent).toEqual([{ type: 'start', payload: {} }]);
  });

  it('tells the others whom they wait for; Back to the lobby leaves the game and goes there', async () => {
    celebrate('ben');
    renderApp(
      <Routes>
        <Route path="/game/:gameId" element={<GameEndedDialog />} />
        <Route path="/" element={<p>the lobby</p>} />
      </Routes>,
      '/game/AbCd1234',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Game over' });
    expect(within(dialog).queryByRole('button', { name: 'Play again' })).toBeNull();
    expect(within(dialog).getByTestId('waiting-for-creator').textContent).toBe('Waiting for Ben to start the next game');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back to the lobby' }));
    expect(sent).toEqual([{ type: 'leave', payload: {} }]);
    expect(await screen.findByText('the lobby')).toBeTruthy();
    expect(useGame.getState().ended).toBeNull();
  });

  it('no confetti with reduced motion, nor when the results are looked at again; Play again waits for two players', async () => {
    const real = window.matchMedia;
    window.matchMedia = (query: string) => {
      const list = real.call(window, query);
      if (query.includes('prefers-reduced-motion: reduce')) Object.defineProperty(list, 'matches', { value: true });
      return list;
    };
    try {
      celebrate();
      renderApp(<GameEndedDialog />);
      await screen.findByRole('dialog', { name: 'Game over' });
      expect(screen.queryByTestId('confetti')).toBeNull();
    } finally {
      window.matchMedia = real;
    }
    act(() => useGame.getState().showEnded({ winner: benWon, standings }));
    expect(screen.queryByTestId('confetti')).toBeNull();
    act(() => useGame.setState({ game: game([player('ana', { creator: true })], { winner: benWon, standings }) }));
    expect((screen.getByRole('button', { name: 'Not enough players' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the ticking countdown', () => {
  it(`ticks in the last ${TICK_SECONDS} seconds, once a second`, () => {
    expect([11, 10, 9, 1, 0].map((s) => shouldTick(s, null))).toEqual([false, true, true, true, false]);
    expect(shouldTick(9, 9)).toBe(false);
  });

  it('ticks only when turned on in the settings (off by default), quietly', () => {
    vi.useFakeTimers();
    try {
      gameClock.reset();
      const ticks = (): Notification[] => heard.filter((n) => n.sfx === 'tick');
      const deadline = Date.now() + 12_000;
      renderApp(<Countdown deadline={deadline} speak={false} />);
      for (let i = 0; i < 20; i++) act(() => vi.advanceTimersByTime(250));
      expect(ticks()).toHaveLength(0);
      act(() => useSettings.getState().setCountdownTicks(true));
      for (let i = 0; i < 40; i++) act(() => vi.advanceTimersByTime(250));
      // 7 s left when turned on: 7 … 1
      expect(ticks()).toHaveLength(7);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is a switch in the settings dialog', async () => {
    act(() => useUi.getState().openDialog('settings'));
    renderApp(<SettingsDialog />);
    const toggle = await screen.findByRole('checkbox', { name: 'Ticking countdown' });
    expect(useSettings.getState().countdownTicks).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(useSettings.getState().countdownTicks).toBe(true));
    expect(localStorage.getItem('countdownTicks')).toBe('true');
  });
});

