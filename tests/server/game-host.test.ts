/**
 * The game host (server/rooms/game-host.ts) without Colyseus: a real SQLite
 * game store, a publisher that records what goes onto the event bus, and an
 * outbox that records what a room would send its sockets. What is asserted:
 * every accepted action is stored (the store replays to the host's game and
 * seq), its events leave numbered without gap, to the sockets always and to the
 * bus once a stream started; refused actions change nothing anywhere; the
 * phase timer, the reconnection window and the idle removal act by themselves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/index.ts';
import type { EventPublisher, GameEventEnvelope, GlobalEventEnvelope } from '../../server/events/bus.ts';
import { createLogger } from '../../server/logger.ts';
import { GameHost } from '../../server/rooms/game-host.ts';
import type { CreateGameOptions, GameHostDeps, GameMetadata, HostOutbox } from '../../server/rooms/host-ports.ts';
import { GameStore } from '../../server/services/game-store.ts';
import { viewGame, type GameEvent, type GameMode, type GamePayload } from '../../shared/rules/index.ts';
import { makeHits, PACK_A, testSeed, uid } from '../rules/helpers.ts';
import { testDatabase, waitFor } from './harness.ts';

const ALICE = { id: uid(1), name: 'alice' };
const BOB = { id: uid(2), name: 'bob' };
const HITS = makeHits(60, { packs: [PACK_A] });

let dir: string;
let db: Db;
let drop: () => Promise<void>;
let store: GameStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-host-'));
  const target = await testDatabase(dir);
  drop = target.drop;
  db = await openDatabase(target.url);
  store = new GameStore(db, 'host-test', createLogger('silent'));
});
afterAll(async () => {
  await db.destroy();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const hosts: GameHost[] = [];
afterEach(() => {
  for (const h of hosts.splice(0)) h.dispose();
});

/** What the host published on the bus. */
class RecordingPublisher implements EventPublisher {
  readonly games: GameEventEnvelope[] = [];
  readonly globals: GlobalEventEnvelope[] = [];
  /** publishGlobalLater's updates, with their keys. */
  readonly later: { key: string; e: GlobalEventEnvelope }[] = [];
  async publishGame(e: GameEventEnvelope): Promise<void> {
    this.games.push(e);
  }
  async publishGlobal(e: GlobalEventEnvelope): Promise<void> {
    this.globals.push(e);
  }
  publishGlobalLater(key: string, e: GlobalEventEnvelope): void {
    this.later.push({ key, e });
  }
}

/** What a room would have sent its sockets. */
class RecordingOutbox implements HostOutbox {
  readonly changes: { view: GamePayload | null; seq: number; events: readonly GameEvent[]; deleted: boolean }[] = [];
  readonly metadata: GameMetadata[] = [];
  /** How often the host closed every connection. */
  closed = 0;
  changed(view: GamePayload | null, seq: number, events: readonly GameEvent[], deleted: boolean): void {
    this.changes.push({ view, seq, events, deleted });
  }
  metadataChanged(meta: GameMetadata): void {
    this.metadata.push(meta);
  }
  async gone(): Promise<void> {
    this.closed++;
  }
}

interface Setup {
  host: GameHost;
  publisher: RecordingPublisher;
  outbox: RecordingOutbox;
  /** Ids of the cards whose evidence the host asked for at their draw. */
  prefetched: string[];
  /** The disputes the host filed. */
  filed: Parameters<GameHostDeps['reports']['fileDispute']>[0][];
}

/** The one outside source's answer the recording evidence port knows. */
const SOURCE = { source: 'musicbrainz', label: 'MusicBrainz', year: 1971, date: '1971-03-01', detail: 'earliest release', url: null, found_at: '2026-01-01T00:00:00.000Z' };

let nextId = 0;
async function openHost(opts: { mode?: GameMode; settings?: unknown; config?: Partial<GameHostDeps['config']> } = {}): Promise<Setup> {
  const publisher = new RecordingPublisher();
  const outbox = new RecordingOutbox();
  const prefetched: string[] = [];
  const filed: Setup['filed'] = [];
  const deps: GameHostDeps = {
    store,
    publisher,
    catalogue: { packIds: async () => [PACK_A], playableHits: async () => HITS },
    clips: () => {
      throw new Error('card games cut no clips');
    },
    evidence: {
      prefetch: (hit) => void prefetched.push(hit.id),
      gather: async (hit) => ({ year: hit.year, changes: [], reports: [], sources: [SOURCE], missing: [] }),
    },
    reports: { fileDispute: async (d) => void filed.push(d) },
    config: { RECONNECT_SECONDS: 0.2, OPEN_GAME_IDLE_MINUTES: 60, GAME_IDLE_HOURS: 48, AUDIO_DIR: dir, ...opts.config },
    log: createLogger('silent'),
  };
  const options: CreateGameOptions = {
    gameId: `Host${String(++nextId).padStart(4, '0')}`,
    mode: opts.mode ?? 'Public',
    creator: ALICE,
    seed: testSeed(nextId),
    packIds: [PACK_A],
    // cards: no audio files to check, no clips to cut
    settings: { clue_mode: 'card', ...(opts.settings as object | undefined) },
  };
  const opened = await GameHost.open(options, deps, outbox);
  if (!opened.ok) throw new Error(opened.error.message);
  hosts.push(opened.host);
  opened.host.start();
  return { host: opened.host, publisher, outbox, prefetched, filed };
}

/** The stored game of `id` as a restart would bring it back. */
async function stored(id: string) {
  return (await store.load()).find((s) => s.game.id === id);
}

describe('game host', () => {
  it('stores a new game before anybody hears of it, then announces it to the lobby', async () => {
    const { host, publisher, outbox } = await openHost();
    const back = await stored(host.id);
    expect(back?.seq).toBe(0);
    expect(back?.game).toEqual(host.game);
    expect(publisher.globals).toEqual([{ event: 'create_game', data: viewGame(host.game, ALICE.id) }]);
    expect(publisher.later).toEqual([{ key: host.id, e: { event: 'game_summary', data: expect.objectContaining({ id: host.id, players: 1 }), audience: null } }]);
    expect(host.metadata()).toEqual({ mode: 'Public', players: 1, members: [ALICE.id], creator: ALICE.id });
    expect(outbox.changes).toEqual([]);
  });

  it('runs actions one at a time: stored, then numbered events to the sockets, and onto the bus once a stream started', async () => {
    const { host, publisher, outbox } = await openHost({ mode: 'Private' });
    // sent at once, they run in arrival order
    const [joined, started] = await Promise.all([host.act(BOB.id, { type: 'join', name: BOB.name }), host.act(ALICE.id, { type: 'start', hits: [] })]);
    expect(joined).toEqual({ ok: true });
    expect(started).toEqual({ ok: true });
    expect(host.game.state).toBe('Guessing');
    expect(host.game.players.map((p) => p.id).sort()).toEqual([ALICE.id, BOB.id].sort());

    // each change carries the view after it and seqs that follow on without a gap
    let seq = 0;
    for (const c of outbox.changes) {
      expect(c.seq).toBe(seq + c.events.length);
      expect(c.deleted).toBe(false);
      seq = c.seq;
    }
    expect(seq).toBe(host.seq);
    expect(outbox.changes.at(-1)?.view).toEqual(viewGame(host.game, ALICE.id));
    // the join changed the lobby's metadata, and so may the seats the start drew; nothing else did
    expect(outbox.metadata.length).toBeGreaterThanOrEqual(1);
    expect(outbox.metadata.length).toBeLessThanOrEqual(2);
    for (const m of outbox.metadata) expect({ ...m, members: [...m.members].sort() }).toEqual({ mode: 'Private', players: 2, members: [ALICE.id, BOB.id].sort(), creator: ALICE.id });
    expect(outbox.metadata.at(-1)).toEqual(host.metadata());
    // a restart gets exactly this game back, hits included
    const back = await stored(host.id);
    expect(back?.seq).toBe(host.seq);
    expect(back?.game).toEqual(host.game);
    // nobody streams the game yet: nothing went onto the bus
    expect(publisher.games).toEqual([]);

    const snap = host.snapshot(BOB.id, true);
    expect(snap).toEqual({ seq: host.seq, game: viewGame(host.game, BOB.id) });
    const turn = host.game.players.find((p) => p.turn_player)!;
    expect(await host.act(turn.id, { type: 'guess', slot: 1 })).toEqual({ ok: true });
    const last = outbox.changes.at(-1)!;
    expect(publisher.games).toEqual(
      last.events.map((e, i) => ({ game: host.id, seq: snap!.seq + 1 + i, event: e.event, data: e.data, final: false })),
    );
    expect(publisher.games.at(-1)?.seq).toBe(host.seq);
  });

  it('refuses system actions from players, and engine errors change nothing anywhere', async () => {
    const { host, publisher, outbox } = await openHost();
    for (const type of ['timeout', 'presence', 'replace_hit', 'rename']) {
      expect(await host.act(ALICE.id, { type })).toEqual({ ok: false, error: { code: 'bad_action', status: 400, message: 'malformed action: not a player action' } });
    }
    const refused = await host.act(ALICE.id, { type: 'start', hits: [] });
    expect(refused.ok).toBe(false);
    expect(host.seq).toBe(0);
    expect(outbox.changes).toEqual([]);
    expect((await stored(host.id))?.seq).toBe(0);
    expect(publisher.globals.map((e) => e.event)).toEqual(['create_game']);
  });

  it('drops an action its store refused: the players hear nothing of it', async () => {
    const { host, outbox } = await openHost();
    const before = structuredClone(host.game);
    // the row is gone: the log entry cannot be written
    await store.remove(host.id);
    expect(await host.act(BOB.id, { type: 'join', name: BOB.name })).toEqual({
      ok: false,
      error: { code: 'unavailable', status: 409, message: 'the action could not be saved, try again' },
    });
    expect(host.game).toEqual(before);
    expect(host.seq).toBe(0);
    expect(outbox.changes).toEqual([]);
  });

  it('arms the phase timer at the deadline and times the phase out by itself, stored like any action', async () => {
    const { host, outbox } = await openHost({ settings: { guess_timeout: 1, reveal_time: 0 } });
    await host.act(BOB.id, { type: 'join', name: BOB.name });
    expect(host.timerDeadline).toBeUndefined();
    await host.act(ALICE.id, { type: 'start', hits: [] });
    const deadline = host.game.deadline!;
    expect(deadline.state).toBe('Guessing');
    expect(host.timerDeadline).toBe(deadline.at);
    const seq = host.seq;
    const draws = host.game.draws;
    const turn = host.game.players.find((p) => p.turn_player)!.id;
    await waitFor(() => host.seq > seq, 3000, 'the timeout');
    expect(Date.now()).toBeGreaterThanOrEqual(deadline.at);
    // the turn passed without a reveal: the next player guesses a new card, against a new deadline
    expect(outbox.changes.at(-1)?.events.map((e) => e.event)).toEqual(['change_state']);
    expect(host.game.draws).toBe(draws + 1);
    expect(host.game.players.find((p) => p.turn_player)!.id).not.toBe(turn);
    expect(host.game.deadline!.at).toBeGreaterThan(deadline.at);
    expect(host.timerDeadline).toBe(host.game.deadline!.at);
    const back = await stored(host.id);
    expect(back?.seq).toBe(host.seq);
    expect(back?.game).toEqual(host.game);
  });

  it("the vote's deadline replaces the phase's while the table votes; the timer decides the vote, then the confirmation's deadline is back, moved by the pause", async () => {
    const { host, filed } = await openHost({ settings: { confirm_timeout: 60, dispute_timeout: 1, reveal_time: 15, start_tokens: 0 } });
    await host.act(BOB.id, { type: 'join', name: BOB.name });
    await host.act(ALICE.id, { type: 'start', hits: [] });
    const turn = host.game.players.find((p) => p.turn_player)!;
    await host.act(turn.id, { type: 'guess', slot: 1 });
    const confirming = host.game.deadline!;
    expect(confirming.state).toBe('Confirming');
    const raised = Date.now();
    await host.act(turn.id === ALICE.id ? BOB.id : ALICE.id, { type: 'dispute', year: host.game.hit!.year + 1 });
    const vote = host.game.deadline!;
    expect(vote.state).toBe('Disputing');
    expect(host.timerDeadline).toBe(vote.at);
    await waitFor(() => host.game.dispute?.outcome != null, 3000, "the vote's timeout");
    const decided = Date.now();
    // the disputer's own take is one of two seats, no majority: at the timeout the year stays
    expect(host.game.dispute?.outcome).toBe('kept');
    expect(host.game.deadline!.state).toBe('Confirming');
    expect(host.game.deadline!.at).toBeGreaterThanOrEqual(confirming.at + (vote.at - raised));
    expect(host.game.deadline!.at).toBeLessThanOrEqual(confirming.at + (decided - raised) + 50);
    expect(host.timerDeadline).toBe(host.game.deadline!.at);
    await waitFor(() => filed.length === 1, 3000, 'the report');
    expect((await stored(host.id))?.game).toEqual(host.game);
  });

  it("turns a seat absent once its user's last connection is gone past the reconnection window, and back when he returns", async () => {
    const { host } = await openHost();
    const connected = () => host.game.players.find((p) => p.id === ALICE.id)?.connected;
    host.connect(ALICE.id);
    host.connect(ALICE.id);
    host.disconnect(ALICE.id, true);
    host.disconnect(ALICE.id, true);
    // the window (0.2 s) has not passed
    await new Promise((r) => setTimeout(r, 100));
    expect(connected()).toBe(true);
    await waitFor(() => connected() === false, 2000, 'absent');
    const seq = host.seq;
    host.connect(ALICE.id);
    await waitFor(() => connected() === true, 2000, 'back');
    expect(host.seq).toBeGreaterThan(seq);
    // a tab closed and opened again within the window changes nothing
    host.disconnect(ALICE.id, true);
    host.connect(ALICE.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(connected()).toBe(true);
    expect((await stored(host.id))?.game).toEqual(host.game);
  });

  it('removes an Open game nobody has open once it idled for OPEN_GAME_IDLE_MINUTES: storage, lobby, connections', async () => {
    const { host, publisher, outbox } = await openHost({ config: { OPEN_GAME_IDLE_MINUTES: 0.002 } });
    host.checkIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(outbox.closed).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    host.checkIdle();
    await waitFor(() => outbox.closed === 1, 2000, 'removed');
    expect(await stored(host.id)).toBeUndefined();
    expect(publisher.globals.at(-1)).toEqual({ event: 'remove_game', data: host.id, audience: null });
  });

  it('a deleted game sends its last events as final, leaves storage and the lobby, and closes', async () => {
    const { host, publisher, outbox } = await openHost({ mode: 'Private' });
    host.snapshot(ALICE.id, true);
    expect(await host.act(ALICE.id, { type: 'leave' })).toEqual({ ok: true });
    const last = outbox.changes.at(-1)!;
    expect(last.deleted).toBe(true);
    expect(publisher.games.at(-1)).toMatchObject({ game: host.id, seq: host.seq, final: true });
    expect(publisher.games.filter((e) => e.final)).toHaveLength(1);
    await waitFor(() => outbox.closed === 1, 2000, 'closed');
    expect(await stored(host.id)).toBeUndefined();
    expect(publisher.globals.at(-1)).toEqual({ event: 'remove_game', data: host.id, audience: [ALICE.id] });
  });

  it('asks for the evidence of every card drawn, and files each decided dispute once, with its votes and sources', async () => {
    const { host, prefetched, filed } = await openHost({ settings: { reveal_time: 15 } });
    await host.act(BOB.id, { type: 'join', name: BOB.name });
    await host.act(ALICE.id, { type: 'start', hits: [] });
    await waitFor(() => prefetched.length === 1);
    expect(prefetched).toEqual([host.game.current!.id]);
    const turn = host.game.players.find((p) => p.turn_player)!;
    const other = host.game.players.find((p) => !p.turn_player)!;
    expect(await host.act(turn.id, { type: 'guess', slot: 1 })).toEqual({ ok: true });
    if (host.game.state === 'Intercepting') await host.act(other.id, { type: 'guess', slot: null });
    const card = host.game.hit!;
    expect(await host.act(other.id, { type: 'dispute', year: card.year + 1 })).toEqual({ ok: true });
    expect(host.game.dispute?.outcome).toBeNull();
    expect(filed).toEqual([]);
    expect(await host.act(turn.id, { type: 'vote', take: false })).toEqual({ ok: true });
    expect(host.game.dispute?.outcome).toBe('kept');
    await waitFor(() => filed.length === 1);
    expect(filed).toEqual([
      { game: host.id, hit: { id: card.id, year: card.year }, year: card.year + 1, outcome: 'kept', votes: { take: 1, keep: 1, voters: 2 }, reporter: other.name, evidence: [SOURCE] },
    ]);
    // the stored game replays to the same dispute, and filing happened once
    expect((await stored(host.id))?.game).toEqual(host.game);
    await new Promise((r) => setTimeout(r, 50));
    expect(filed).toHaveLength(1);
  });
});
