import type { Room } from '@colyseus/core';
import { roomServices } from './services.ts';

/**
 * One process-wide timer for the clocks of every game room.
 *
 * Colyseus ticks a room's clock 60 times a second unless the room has a
 * simulation interval. The games' own timers are Node's (game-host.ts); a room's
 * clock only serves Colyseus' message rate limit (maxMessagesPerSecond reads its
 * time, and a frozen clock would count every message toward one endless second),
 * for which a tick a second is enough.
 *
 * All rooms tick in one turn of the event loop (budget P12: parked games must
 * not matter). With two timers per room (its clock ticking every second, its idle
 * check), 2,050 parked games woke an idle server up to about 2,000 times a
 * second: 3.3 % of a core against 1.7 % with the shared timer (`npm run bench --
 * idle`, its meter sampling every 10 ms).
 */

/** Interval of the rooms' Colyseus clocks, ms. */
const CLOCK_TICK_MS = 1000;

const ticking = new Map<Room, () => void>();
let ticker: ReturnType<typeof setInterval> | undefined;
/** The time of the shared timer's last tick (Date.now() ms), every room's clock time since. */
let tickedAt = 0;

/** Ticks `room` with the shared timer from now on: its clock, then `also`. */
export function startTicking(room: Room, also: () => void): void {
  // a simulation interval keeps Colyseus from starting its 60 Hz one when the
  // patch rate is null; cleared at once, it leaves no timer of the room's own
  room.setSimulationInterval(() => undefined, CLOCK_TICK_MS);
  room.setSimulationInterval();
  ticking.set(room, also);
  if (!ticker) {
    tickedAt = Date.now();
    ticker = setInterval(tickRooms, CLOCK_TICK_MS);
  }
  // The rate limit counts a client's messages from the clock time of his first until
  // a tick a second later or more: a clock that started between two ticks would count
  // up to two seconds as one, so the room's clock starts at the last tick
  room.clock.currentTime = tickedAt;
}

function tickRooms(): void {
  // at least a second after the last tick: Date.now() and the timer's clock may
  // disagree by a millisecond, and 999 ms would make the rate limit's second last two
  tickedAt = Math.max(Date.now(), tickedAt + CLOCK_TICK_MS);
  for (const [room, also] of ticking) {
    try {
      room.clock.tick();
      room.clock.currentTime = tickedAt;
      also();
    } catch (err) {
      // one room's failure must not stop the others' clocks
      roomServices().log.error({ err, game: room.roomId }, 'room tick failed');
    }
  }
}

export function stopTicking(room: Room): void {
  ticking.delete(room);
  if (ticking.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}
