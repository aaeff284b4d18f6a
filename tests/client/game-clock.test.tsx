import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from '../../client/src/routes/game/Countdown.tsx';
import { createServerClock, gameClock, phaseMs } from '../../client/src/stores/game-clock.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { game, player, roomJson, users } from './game-fixtures.ts';
import { renderApp } from './render.tsx';

/** A browser clock the test moves by hand. */
function fakeClock(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('the server clock estimate', () => {
  const SERVER = 1_800_000_000_000;

  it('is the browser clock until a deadline tells otherwise', () => {
    const c = fakeClock(SERVER);
    const clock = createServerClock(c.now);
    expect(clock.offset()).toBe(0);
    expect(clock.now()).toBe(SERVER);
  });

  it('learns the offset from a deadline armed just now, whichever way the browser clock is off', () => {
    for (const off of [-90_000, -1500, 0, 2000, 300_000]) {
      // the browser's clock reads server time + off; the event takes 40 ms to arrive
      const c = fakeClock(SERVER + 40 + off);
      const clock = createServerClock(c.now);
      clock.armed(SERVER + 30_000, 30_000);
      expect(clock.offset()).toBe(-off - 40);
      // the estimate lags by the delay: it shows the whole 30 s phase (29.96 s are truly left)
      expect(SERVER + 30_000 - clock.now()).toBe(30_000);
    }
  });

  it('keeps the sample with the least delay, among the last few', () => {
    const c = fakeClock(SERVER + 300);
    const clock = createServerClock(c.now);
    clock.armed(SERVER + 30_000, 30_000); // 300 ms delay
    c.advance(60_000 - 300 + 20);
    clock.armed(SERVER + 60_000 + 45_000, 45_000); // 20 ms delay
    c.advance(10_000);
    clock.armed(SERVER + 69_520 + 20_000, 20_000); // 500 ms delay
    expect(clock.offset()).toBe(-20);
    // eight slower samples later, the old good one has aged out
    for (let i = 0; i < 8; i++) {
      c.advance(1000);
      clock.armed(c.now() - 100 + 20_000, 20_000);
    }
    expect(clock.offset()).toBe(-100);
  });

  it('a deadline from a snapshot only moves a clock that is provably behind', () => {
    // joined mid-phase: the deadline was armed 12 s before we saw it
    const behind = fakeClock(SERVER - 120_000);
    const clock = createServerClock(behind.now);
    clock.seen(SERVER - 12_000 + 30_000, 30_000);
    // the browser is 2 minutes behind: at least 108 s of that is certain, so no countdown shows more than 30 s
    expect(clock.offset()).toBe(108_000);
    expect(SERVER + 18_000 - clock.now()).toBe(30_000);

    const right = fakeClock(SERVER);
    const ok = createServerClock(right.now);
    ok.seen(SERVER - 12_000 + 30_000, 30_000);
    // nothing provable: the browser clock stays (18 s left, correctly)
    expect(ok.offset()).toBe(0);
    // then a live sample takes over
    right.advance(20_000);
    ok.armed(SERVER + 20_000 + 45_000, 45_000);
    expect(ok.offset()).toBe(0);
  });

  it('ignores phases without a deadline and forgets everything on reset', () => {
    const c = fakeClock(SERVER);
    const clock = createServerClock(c.now);
    clock.armed(SERVER + 5000, 0);
    clock.seen(0, 30_000);
    expect(clock.offset()).toBe(0);
    clock.armed(SERVER + 60_000, 30_000);
    expect(clock.offset()).toBe(30_000);
    clock.reset();
    expect(clock.offset()).toBe(0);
  });

  it("knows each phase's timeout", () => {
    const g = { guess_timeout: 0, intercept_timeout: 30, confirm_timeout: 60 };
    expect([phaseMs(g, 'Open'), phaseMs(g, 'Guessing'), phaseMs(g, 'Intercepting'), phaseMs(g, 'Confirming')]).toEqual([0, 0, 30_000, 60_000]);
  });
});

describe('countdowns run on the server clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetSessionForTests();
    useSession.setState({ user: users.ana, ready: true });
    useGame.getState().reset('AbCd1234');
  });
  afterEach(() => {
    useGame.getState().reset(null);
    vi.useRealTimers();
  });

  it('a phone whose clock is 2 minutes behind still counts down the 30 seconds the server gave', () => {
    const server = 1_800_000_000_000;
    vi.setSystemTime(server - 120_000);
    const ana = player('ana', { creator: true, years: [1980] });
    const ben = player('ben', { years: [1990], turn_player: true, guess: { id: 1, from_year: 0, to_year: 1990 } });
    const open = game([ana, ben], { state: 'Guessing' });
    useGame.getState().applyState(roomJson(open, 5));
    // Ben placed his card: Intercepting, deadline armed now for intercept_timeout (30 s)
    const deadline = server + 30_000;
    const next = game([{ ...ana, state: 'Intercepting' }, { ...ben, state: 'Waiting' }], { state: 'Intercepting', deadline });
    useGame.getState().applyState(roomJson(next, 6));
    useGame.getState().applyEvent({ seq: 6, event: 'change_state', data: { state: 'Intercepting', players: next.players, deadline } });
    expect(gameClock.offset()).toBe(120_000);

    renderApp(<Countdown deadline={deadline} speak={false} />);
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe('Time left: 30 seconds');
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe('Time left: 20 seconds');
    expect(screen.getByRole('timer').textContent).toContain('0:20');
  });
});
