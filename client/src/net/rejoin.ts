import type { Room } from '@colyseus/sdk';
import { FLOODING_CLOSE_CODE } from '../../../shared/protocol/room.ts';

/**
 * Keeps a viewer in a game room through anything short of the game ending:
 * a dropped socket (the SDK reconnects to the same seat within the window), and
 * a server that restarted or crashed (the SDK's reconnection cannot succeed, the
 * room is gone; the game comes back under the same id, so this joins it again,
 * and the session cookie finds the seat by user id). Used by the game screen and
 * by the restart tests, with the same SDK in Node.
 */

/**
 * Where the connection stands, for the game screen: 'lost' = still trying after
 * `lostAfterMs` (the screen offers "try again"; the attempts go on meanwhile),
 * or closed by the server for flooding it (FLOODING_CLOSE_CODE: no attempts
 * until "try again"), 'gone' = the game no longer exists.
 */
export type LinkStatus = 'connected' | 'reconnecting' | 'lost' | 'gone';

export interface RejoinOptions {
  /** Joins the room anew (`client.joinById(gameId)`). */
  join: () => Promise<Room>;
  /** Every room joined, the first one included: wire its listeners here. */
  onRoom: (room: Room) => void;
  onStatus?: (status: LinkStatus) => void;
  /** How long "game not found" counts as "not restored yet" before the game counts as gone (ms). */
  notFoundGraceMs?: number;
  /** How long the rejoin attempts go on before the status says 'lost' (ms). */
  lostAfterMs?: number;
  /** First retry delay (ms), doubled up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface RoomLink {
  /** The room currently joined. */
  readonly room: Room;
  /** Leaves for good (consented: no reconnection, no rejoin). */
  leave(): Promise<void>;
  /**
   * "Try again": while rejoining, the next attempt starts now and the clocks
   * start over (the 'lost' one: the status says 'reconnecting' again; and the
   * grace in which "not found" means "not restored yet"); the attempts go on as
   * before if it fails. After a close for flooding it starts the attempts.
   * Does nothing while the room is joined.
   */
  retryNow(): void;
}

/** The SDK's own reconnection attempts (0.2 + 0.4 + 0.8 + 1.6 s) before a fresh join. */
const SDK_RETRIES = 4;

/** The close code of a leave the client asked for, or of a game that ended (`room.disconnect()`). */
const CONSENTED = 4000;

/** Matchmaking answers that mean "no such game for you": not found (an unknown game, or onAuth's 404), not allowed. */
const GONE_CODES = new Set([403, 404]);
export const isGone = (err: unknown): boolean => GONE_CODES.has(Number((err as { code?: unknown } | null)?.code));

/** Joins once (rejecting like `join` does), then keeps the link up as described above. */
export async function joinAndKeep(options: RejoinOptions): Promise<RoomLink> {
  const { join, onRoom, onStatus = () => undefined, notFoundGraceMs = 30_000, lostAfterMs = 30_000, minDelayMs = 250, maxDelayMs = 3000 } = options;
  let stopped = false;
  let current = await join();
  /** While rejoining: when the attempts started (the 'lost' clock), whether 'lost' was said, and the wait's early end. */
  let rejoining: { since: number; lost: boolean; wake: () => void } | null = null;
  /** The server closed the room on this client for flooding it: only "try again" joins again. */
  let halted = false;

  const attach = (room: Room): void => {
    current = room;
    // The SDK retries the same seat a few times (a phone's short blip: back within a second
    // or two); after that it gives up and this joins anew, which also works when the server
    // restarted and the old seat cannot come back (the SDK alone would keep trying for a minute).
    room.reconnection.maxRetries = SDK_RETRIES;
    room.onDrop(() => onStatus('reconnecting'));
    room.onReconnect(() => {
      // an SDK attempt that was under way when the player left: leave the seat it got back
      if (stopped) void room.leave(true).catch(() => undefined);
      else onStatus('connected');
    });
    room.onLeave((code: number) => {
      if (stopped || room !== current) return;
      if (code === CONSENTED) {
        onStatus('gone');
        return;
      }
      if (code === FLOODING_CLOSE_CODE) {
        halted = true;
        onStatus('lost');
        return;
      }
      onStatus('reconnecting');
      void rejoin();
    });
    onRoom(room);
    onStatus('connected');
  };

  const rejoin = async (): Promise<void> => {
    if (rejoining) return;
    const state = { since: Date.now(), lost: false, wake: (): void => undefined };
    rejoining = state;
    let delay = minDelayMs;
    try {
      while (!stopped) {
        if (!state.lost && Date.now() - state.since > lostAfterMs) {
          state.lost = true;
          onStatus('lost');
        }
        try {
          const room = await join();
          if (stopped) {
            await room.leave(true).catch(() => undefined);
            return;
          }
          rejoining = null;
          attach(room);
          return;
        } catch (err) {
          // not found right after a restart: the server listens before it restored every game
          if (isGone(err) && Date.now() - state.since > notFoundGraceMs) {
            onStatus('gone');
            return;
          }
        }
        let woken = false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          state.wake = () => {
            clearTimeout(timer);
            woken = true;
            resolve();
          };
        });
        // after "try again" the waits start short again
        delay = woken ? minDelayMs : Math.min(maxDelayMs, delay * 2);
      }
    } finally {
      if (rejoining === state) rejoining = null;
    }
  };

  attach(current);
  return {
    get room() {
      return current;
    },
    async leave() {
      stopped = true;
      rejoining?.wake();
      // a closed socket (the game is gone, or the SDK waits between attempts) has no seat to
      // leave: sending on it only logs an error, and the SDK's promise would never settle
      if (!current.connection?.isOpen) {
        current.reconnection.enabled = false;
        return;
      }
      await current.leave(true).catch(() => undefined);
    },
    retryNow() {
      if (halted && !stopped) {
        halted = false;
        onStatus('reconnecting');
        void rejoin();
        return;
      }
      if (!rejoining || stopped) return;
      rejoining.since = Date.now();
      rejoining.lost = false;
      onStatus('reconnecting');
      rejoining.wake();
    },
  };
}
