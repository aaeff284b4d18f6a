import type { GamePayload, GameState } from '../../../shared/protocol/game.ts';

/**
 * The server's clock as this browser estimates it, for the countdowns: a
 * deadline is absolute server time (epoch ms), and a phone's clock may be
 * minutes off.
 *
 * The room sends no clock of its own, but every deadline tells one: the server
 * arms a phase's deadline at `now + timeout` (docs/rules.md#a5), so when the deadline
 * arrives the server's time was `deadline - timeout` a network delay ago.
 *
 * * A deadline that comes with a game event was armed just now (events are
 *   sent once, live, right after the action): `deadline - timeout - receivedAt`
 *   is the clock offset minus the one-way delay. The largest of the last few
 *   such samples (the one with the least delay) is the estimate.
 * * A deadline seen in a snapshot (joining or reconnecting mid-phase) was armed
 *   at some earlier moment, which only bounds the offset from below: the server
 *   is at least at `deadline - timeout`. Until a live sample exists, the browser's
 *   clock is used, moved forward when it is provably behind (so a countdown
 *   never shows more than the phase's whole length).
 *
 * Only the last few live samples count, so a browser clock set anew during a
 * long game is followed within a few turns.
 */

/** Live samples kept: the clock may be adjusted during a long game. */
const KEEP = 8;

export interface ServerClock {
  /** The server's time now (epoch ms), as estimated. */
  now(): number;
  /** Estimated server time minus browser time (ms). */
  offset(): number;
  /** A deadline armed just now (it came with an event), `phaseMs` after the moment it was armed. */
  armed(deadline: number, phaseMs: number): void;
  /** A deadline seen in a state snapshot, armed at some unknown earlier moment. */
  seen(deadline: number, phaseMs: number): void;
  /** Forgets every sample (another game). */
  reset(): void;
}

export function createServerClock(clientNow: () => number = () => Date.now()): ServerClock {
  let live: number[] = [];
  let lowerBound = -Infinity;

  const offset = (): number => {
    if (live.length > 0) return Math.max(...live);
    return Math.max(0, lowerBound);
  };

  return {
    now: () => clientNow() + offset(),
    offset,
    armed(deadline, phaseMs) {
      if (!(deadline > 0) || !(phaseMs > 0)) return;
      const sample = deadline - phaseMs - clientNow();
      live = [...live.slice(-(KEEP - 1)), sample];
    },
    seen(deadline, phaseMs) {
      if (!(deadline > 0) || !(phaseMs > 0)) return;
      lowerBound = Math.max(lowerBound, deadline - phaseMs - clientNow());
    },
    reset() {
      live = [];
      lowerBound = -Infinity;
    },
  };
}

/** How long a phase's deadline is armed for (docs/rules.md#a5), in ms; 0 when the phase has none. */
export function phaseMs(game: Pick<GamePayload, 'guess_timeout' | 'intercept_timeout' | 'confirm_timeout'>, state: GameState): number {
  switch (state) {
    case 'Guessing':
      return game.guess_timeout * 1000;
    case 'Intercepting':
      return game.intercept_timeout * 1000;
    case 'Confirming':
      return game.confirm_timeout * 1000;
    case 'Open':
      return 0;
  }
}

/** The game screen's server clock (the game store feeds it). */
export const gameClock = createServerClock();
