import { describe, expect, it } from 'vitest';
import type { Room } from '@colyseus/sdk';
import { isGone, joinAndKeep, type LinkStatus } from '../../client/src/net/rejoin.ts';

/**
 * "Try again" while the server is still down: the rejoin
 * attempts must go on after the manual attempt fails, and the status must
 * follow. The rooms here are stand-ins with the SDK's hooks that joinAndKeep
 * uses; the real SDK against a restarted server is tests/server/restart.test.ts.
 */

interface FakeRoom {
  room: Room;
  /** The server closes the room's socket with `code`. */
  leave: (code: number) => void;
  /** How often the client sent its leave. */
  leaves: () => number;
}

function fakeRoom(): FakeRoom {
  let onLeave: (code: number) => void = () => undefined;
  let leaves = 0;
  const connection = { isOpen: true };
  const room = {
    connection,
    reconnection: { maxRetries: 0, enabled: true },
    onDrop: () => undefined,
    onReconnect: () => undefined,
    onLeave: (fn: (code: number) => void) => {
      onLeave = fn;
    },
    leave: async () => {
      leaves++;
    },
  } as unknown as Room;
  return {
    room,
    leave: (code) => {
      connection.isOpen = false;
      onLeave(code);
    },
    leaves: () => leaves,
  };
}

const until = async (pred: () => boolean, ms = 2000): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('joinAndKeep', () => {
  it('retryNow while the server is down: tries at once, says reconnecting, and keeps trying until the room is back', async () => {
    const first = fakeRoom();
    const second = fakeRoom();
    let serverUp = true;
    let joins = 0;
    const statuses: LinkStatus[] = [];
    const rooms: Room[] = [];
    const link = await joinAndKeep({
      join: async () => {
        joins++;
        if (joins === 1) return first.room;
        if (!serverUp) throw Object.assign(new Error('offline'), { code: 0 });
        return second.room;
      },
      onRoom: (room) => rooms.push(room),
      onStatus: (s) => statuses.push(s),
      lostAfterMs: 300,
      minDelayMs: 100,
      maxDelayMs: 1000,
    });
    serverUp = false;
    first.leave(1006); // the server went away
    await until(() => statuses.at(-1) === 'lost');
    // the waits have grown to about a second by now: "try again" does not wait for them
    const before = joins;
    const pressed = Date.now();
    link.retryNow();
    expect(statuses.at(-1)).toBe('reconnecting');
    await until(() => joins > before); // the attempt starts now, and fails
    expect(Date.now() - pressed).toBeLessThan(80);
    await until(() => joins > before + 2); // the attempts go on after it
    await until(() => statuses.at(-1) === 'lost'); // and the clock ran out again
    serverUp = true;
    await until(() => statuses.at(-1) === 'connected');
    expect(rooms).toEqual([first.room, second.room]);
    await link.leave();
  });

  it('retryNow while joined does nothing', async () => {
    const only = fakeRoom();
    let joins = 0;
    const statuses: LinkStatus[] = [];
    const link = await joinAndKeep({ join: async () => (joins++, only.room), onRoom: () => undefined, onStatus: (s) => statuses.push(s) });
    link.retryNow();
    expect(joins).toBe(1);
    expect(statuses).toEqual(['connected']);
    await link.leave();
    expect(only.leaves()).toBe(1);
  });

  it('does not join again by itself after the server closed the room for flooding; "try again" does', async () => {
    const first = fakeRoom();
    const second = fakeRoom();
    let joins = 0;
    const statuses: LinkStatus[] = [];
    const link = await joinAndKeep({
      join: async () => (++joins === 1 ? first.room : second.room),
      onRoom: () => undefined,
      onStatus: (s) => statuses.push(s),
      minDelayMs: 10,
    });
    first.leave(1008);
    expect(statuses.at(-1)).toBe('lost');
    await new Promise((r) => setTimeout(r, 100));
    expect(joins).toBe(1);
    link.retryNow();
    await until(() => statuses.at(-1) === 'connected');
    expect(joins).toBe(2);
    expect(link.room).toBe(second.room);
    expect(statuses).toEqual(['connected', 'lost', 'reconnecting', 'connected']);
    await link.leave();
  });

  it('counts "not found" and "not allowed" from the matchmaker as a game that is gone', () => {
    expect([404, 403, 500, 503, 0].map((code) => isGone({ code }))).toEqual([true, true, false, false, false]);
  });

  it('leaving after the server closed the room sends nothing and settles', async () => {
    const only = fakeRoom();
    const statuses: LinkStatus[] = [];
    const link = await joinAndKeep({ join: async () => only.room, onRoom: () => undefined, onStatus: (s) => statuses.push(s) });
    only.leave(4000); // the player's own leave deleted the game: the server closes every socket
    expect(statuses.at(-1)).toBe('gone');
    await link.leave();
    expect(only.leaves()).toBe(0);
    expect(only.room.reconnection.enabled).toBe(false);
  });
});
