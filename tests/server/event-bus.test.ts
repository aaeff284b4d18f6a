/**
 * The event bus (server/events/bus.ts) on the in-process Colyseus presence:
 * a game's events reach that game's subscribers only, global updates published
 * later wait together and leave ahead of the next event, a closed bus drops what
 * waits, and a failing presence never rejects a publish.
 */
import { LocalPresence } from '@colyseus/core';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus, type GameEventEnvelope, type PubSub } from '../../server/events/bus.ts';
import { createLogger } from '../../server/logger.ts';

const log = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const buses: EventBus[] = [];
afterEach(() => {
  for (const b of buses.splice(0)) b.close();
});

function bus(pubsub: PubSub = new LocalPresence(), coalesceMs = 40): EventBus {
  const b = new EventBus(pubsub, log, { coalesceMs });
  buses.push(b);
  return b;
}

const event = (game: string, seq: number): GameEventEnvelope => ({ game, seq, event: 'change_state', data: { deadline: seq } });

describe('event bus', () => {
  it("delivers a game's events to that game's subscribers only, until they unsubscribe", async () => {
    const presence = new LocalPresence();
    const b = bus(presence);
    const one: unknown[] = [];
    const two: unknown[] = [];
    const global: unknown[] = [];
    const onOne = (m: unknown) => one.push(m);
    await b.subscribe('Game0001', onOne);
    await b.subscribe('Game0002', (m) => two.push(m));
    await b.subscribe(null, (m) => global.push(m));
    // the topics other processes of a cluster use
    expect((await presence.channels('hitline:sse:*')).sort()).toEqual(['hitline:sse:game:Game0001', 'hitline:sse:game:Game0002', 'hitline:sse:global']);

    await b.publishGame(event('Game0001', 1));
    await b.publishGame(event('Game0002', 1));
    await b.publishGame(event('Game0001', 2));
    expect(one).toEqual([event('Game0001', 1), event('Game0001', 2)]);
    expect(two).toEqual([event('Game0002', 1)]);
    expect(global).toEqual([]);

    await b.unsubscribe('Game0001', onOne);
    await b.publishGame(event('Game0001', 3));
    expect(one).toHaveLength(2);
  });

  it('sends global events in batches: updates wait, the newest per key, and leave ahead of the next event', async () => {
    const b = bus();
    const batches: unknown[] = [];
    await b.subscribe(null, (m) => batches.push(m));
    await b.publishGlobal({ event: 'hits_changed', data: {} });
    expect(batches).toEqual([[{ event: 'hits_changed', data: {} }]]);

    b.publishGlobalLater('Game0001', { event: 'game_summary', data: { id: 'Game0001', state: 'Open' } });
    b.publishGlobalLater('Game0002', { event: 'game_summary', data: { id: 'Game0002', state: 'Open' } });
    b.publishGlobalLater('Game0001', { event: 'game_summary', data: { id: 'Game0001', state: 'Guessing' }, audience: ['u1'] });
    expect(batches).toHaveLength(1);
    await sleep(80);
    expect(batches[1]).toEqual([
      { event: 'game_summary', data: { id: 'Game0001', state: 'Guessing' }, audience: ['u1'] },
      { event: 'game_summary', data: { id: 'Game0002', state: 'Open' } },
    ]);

    b.publishGlobalLater('Game0001', { event: 'game_summary', data: { id: 'Game0001', state: 'Confirming' } });
    await b.publishGlobal({ event: 'remove_game', data: 'Game0001' });
    expect(batches[2]).toEqual([
      { event: 'game_summary', data: { id: 'Game0001', state: 'Confirming' } },
      { event: 'remove_game', data: 'Game0001' },
    ]);
    await sleep(80);
    expect(batches).toHaveLength(3);
  });

  it('drops waiting updates once closed', async () => {
    const b = bus();
    const batches: unknown[] = [];
    await b.subscribe(null, (m) => batches.push(m));
    b.publishGlobalLater('Game0001', { event: 'game_summary', data: { id: 'Game0001' } });
    b.close();
    b.publishGlobalLater('Game0002', { event: 'game_summary', data: { id: 'Game0002' } });
    await sleep(80);
    expect(batches).toEqual([]);
  });

  it('never rejects when the presence fails', async () => {
    const failing: PubSub = {
      publish: () => Promise.reject(new Error('redis is down')),
      subscribe: () => Promise.resolve(),
      unsubscribe: () => undefined,
    };
    const b = bus(failing);
    await expect(b.publishGame(event('Game0001', 1))).resolves.toBeUndefined();
    await expect(b.publishGlobal({ event: 'hits_changed', data: {} })).resolves.toBeUndefined();
  });
});
