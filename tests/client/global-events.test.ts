import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_SPACING_MS, announcer, GATHER_MS } from '../../client/src/a11y/announcer.ts';
import { closeGlobalEvents, openGlobalEvents } from '../../client/src/net/events.ts';
import { connectCatalogueToEvents } from '../../client/src/stores/catalogue.ts';
import { connectLobbyToEvents, OFFLINE_AFTER_MS, useLobby } from '../../client/src/stores/lobby.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { game, player, users } from './game-fixtures.ts';

/**
 * The browser's EventSource as the server drives it: the tests push what the
 * server would send (events, an error that ends the stream).
 */
class ServerStream extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: ServerStream[] = [];
  readyState = ServerStream.CONNECTING;
  readonly url: string;
  constructor(url: string) {
    super();
    this.url = url;
    ServerStream.opened.push(this);
  }
  open(): void {
    this.readyState = ServerStream.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  send(name: string, data: unknown): void {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify({ [name]: data }) }));
  }
  /** What the browser does with an answer that is not a stream (a 429): an error, and it gives up. */
  refuse(): void {
    this.readyState = ServerStream.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
  close(): void {
    this.readyState = ServerStream.CLOSED;
  }
}

let off: () => void = () => undefined;
beforeEach(() => {
  ServerStream.opened = [];
  vi.stubGlobal('EventSource', ServerStream);
  // a reopened stream makes the lobby reload its list
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ games: [] }), { headers: { 'Content-Type': 'application/json' } })));
  resetSessionForTests();
  useSession.setState({ user: users.ana, ready: true });
  useLobby.getState().reset();
  announcer.clear();
  off = connectLobbyToEvents();
});
afterEach(() => {
  off();
  closeGlobalEvents();
  useLobby.getState().setAnnounce(false);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const stream = async (): Promise<ServerStream> => {
  await openGlobalEvents();
  const s = ServerStream.opened.at(-1)!;
  s.open();
  return s;
};
const said = async (): Promise<string[]> => {
  await new Promise((r) => setTimeout(r, GATHER_MS + ANNOUNCE_SPACING_MS + 10));
  return announcer.getSnapshot().polite.map((m) => m.text);
};

describe('the lobby hears the global stream', () => {
  it('while on screen: others\' new Public games and closed ones are announced; one\'s own new game and a Private game one left are not', async () => {
    const s = await stream();
    const bens = { ...game([player('ben', { creator: true })]), id: 'BenGame1' };
    // not on the lobby: nothing said
    s.send('create_game', bens);
    expect(useLobby.getState().games.map((g) => g.id)).toEqual(['BenGame1']);
    expect(await said()).toEqual([]);

    useLobby.getState().setAnnounce(true);
    const cleos = { ...game([player('cleo', { creator: true })]), id: 'CleoGam1' };
    s.send('create_game', cleos);
    const mine = { ...game([player('ana', { creator: true })]), id: 'AnaGame1' };
    s.send('create_game', mine);
    expect(await said()).toEqual(['New game by Cleo.']);
    s.send('remove_game', 'CleoGam1');
    expect(await said()).toEqual(['New game by Cleo.', "Cleo's game was closed."]);
    // a Private game leaves the list when one leaves it: not a closing
    s.send('game_summary', { id: 'Private1', mode: 'Private', state: 'Open', players: 2, creator: 'Ben' });
    s.send('remove_game', 'Private1');
    expect(await said()).toEqual(['New game by Cleo.', "Cleo's game was closed."]);
    expect(useLobby.getState().games.map((g) => g.id).sort()).toEqual(['AnaGame1', 'BenGame1']);
  });

  it('says when hit processing starts and when it ends, not at every hit, and not over a running game', async () => {
    const offCatalogue = connectCatalogueToEvents();
    try {
      const s = await stream();
      s.send('process_hits', { available: 5, downloading: 0, processing: 0, failed: 0, cards: 0, youtube: true });
      s.send('process_hits', { available: 5, downloading: 2, processing: 0, failed: 0, cards: 0, youtube: true });
      s.send('process_hits', { available: 5, downloading: 1, processing: 1, failed: 0, cards: 0, youtube: true });
      s.send('process_hits', { available: 7, downloading: 0, processing: 0, failed: 0, cards: 0, youtube: true });
      expect(await said()).toEqual(['Hits: 5 available, 2 downloading, 0 processing.', 'Hits: 7 available, 0 downloading, 0 processing.']);
      announcer.clear();
      window.history.pushState({}, '', '/game/AbCd1234');
      s.send('process_hits', { available: 7, downloading: 1, processing: 0, failed: 0, cards: 0, youtube: true });
      expect(await said()).toEqual([]);
      window.history.pushState({}, '', '/');
    } finally {
      offCatalogue();
    }
  });

  it('a stream down for a while: the lobby says the server cannot be reached, and that it is back once the list is reloaded', async () => {
    vi.useFakeTimers();
    const first = await stream();
    first.open();
    // a blip the browser mends at once: nothing
    first.readyState = ServerStream.CONNECTING;
    first.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(OFFLINE_AFTER_MS - 100);
    first.open();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(useLobby.getState().offline).toBe(false);
    // down for longer
    first.readyState = ServerStream.CONNECTING;
    first.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(OFFLINE_AFTER_MS);
    expect(useLobby.getState().offline).toBe(true);
    first.open();
    await vi.advanceTimersByTimeAsync(10);
    expect(useLobby.getState().offline).toBe(false);
    expect(vi.mocked(fetch)).toHaveBeenCalled();
  });

  it('a stream the browser gave up on (429, 503) is opened anew, later each time', async () => {
    vi.useFakeTimers();
    const first = await stream();
    first.refuse();
    expect(ServerStream.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ServerStream.opened).toHaveLength(2);
    ServerStream.opened[1]!.refuse();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ServerStream.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ServerStream.opened).toHaveLength(3);
    // a dropped connection the browser retries itself (still connecting): no second stream
    const third = ServerStream.opened[2]!;
    third.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ServerStream.opened).toHaveLength(3);
  });
});
