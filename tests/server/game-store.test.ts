/**
 * The action log (server/services/game-store.ts) on a real database: appends
 * that arrive in the same turn of the event loop are written together, every
 * one of them is stored and replays to the same game, one refused entry (its
 * game was removed meanwhile) fails only its own action, an append made while
 * another transaction is open waits for it instead of joining it, and the hits
 * of starts are stored once, replayed, and pruned when no log names them. On
 * PostgreSQL also: the pruning waits for a start being written from hits it
 * would remove, and the log's own connection is replaced when the server ends it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { createLogger } from '../../server/logger.ts';
import { GameStore, shiftDeadline } from '../../server/services/game-store.ts';
import { GamePayloadSchema } from '../../shared/protocol/game.ts';
import { applyAction, createGame, djClip, viewGame, type Action, type Game, type Hit, remainingDeck } from '../../shared/rules/index.ts';
import { TEST_ON_POSTGRES, testDatabase } from './harness.ts';
import { testSeed } from '../rules/helpers.ts';

let dir: string;
let db: Db;
let drop: () => Promise<void>;
let store: GameStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-store-'));
  const target = await testDatabase(dir);
  drop = target.drop;
  db = await openDatabase(target.url);
  store = new GameStore(db, 'test', createLogger('silent'));
});
afterAll(async () => {
  await db.destroy();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.parse('2026-11-23T10:00:00Z');

function newGame(id: string): Game {
  const made = createGame({ id, mode: 'Public', creator: { id: randomUUID(), name: 'Ada' }, seed: testSeed(7), packIds: [] });
  if (!made.ok) throw new Error(made.error.message);
  return made.game;
}

/** Applies `actions` to `game` in turn, appending each to the log as the room does. */
async function play(game: Game, actions: Action[], from: { n: number; seq: number }, now: number): Promise<Game> {
  for (const action of actions) {
    const result = applyAction(game, action, { now });
    if (!result.ok) throw new Error(result.error.message);
    game = result.game;
    from.n++;
    from.seq++;
    await store.append(game.id, from.n, from.seq, action, now);
  }
  return game;
}

describe('action log', () => {
  it('stores the appends of many games made in one turn, and replays each game exactly', async () => {
    const ids = ['storeAa1', 'storeBb2', 'storeCc3'];
    const games = new Map<string, Game>();
    for (const id of ids) {
      games.set(id, newGame(id));
      await store.snapshot(games.get(id)!, 1, NOW);
    }
    // five joins per game, all appended before any of them is awaited (one turn)
    const pending: Promise<void>[] = [];
    for (let n = 1; n <= 5; n++) {
      for (const id of ids) {
        const action: Action = { type: 'join', by: randomUUID(), name: `Player ${n}` };
        const result = applyAction(games.get(id)!, action, { now: NOW + n });
        if (!result.ok) throw new Error(result.error.message);
        games.set(id, result.game);
        pending.push(store.append(id, n, 1 + n, action, NOW + n));
      }
    }
    await Promise.all(pending);

    const rows = await db.selectFrom('game_actions').select(['game_id', 'n']).where('game_id', 'in', ids).execute();
    expect(rows).toHaveLength(15);
    const loaded = await store.load();
    for (const id of ids) {
      const back = loaded.find((g) => g.game.id === id);
      expect(back, id).toBeDefined();
      expect(back!.game).toEqual(games.get(id));
      expect(back!.game.players.map((p) => p.name)).toEqual(['Ada', 'Player 1', 'Player 2', 'Player 3', 'Player 4', 'Player 5']);
      expect(back!.seq).toBe(6);
      expect(back!.updatedAt).toBe(NOW + 5);
    }
  });

  it('replays a Local game stored with names that look alike (refused for new joins by the room, never by the engine)', async () => {
    const made = createGame({ id: 'storeLk5', mode: 'Local', creator: { id: randomUUID(), name: 'Ada' }, seed: testSeed(7), packIds: [] });
    if (!made.ok) throw new Error(made.error.message);
    await store.snapshot(made.game, 1, NOW);
    const creator = made.game.players[0]!.id;
    // "ace" in Latin letters, then in Cyrillic ones
    const game = await play(made.game, [
      { type: 'join_local', by: creator, name: 'ace' },
      { type: 'join_local', by: creator, name: '\u0430\u0441\u0435' },
    ], { n: 0, seq: 1 }, NOW);
    const back = (await store.load()).find((g) => g.game.id === 'storeLk5');
    expect(back?.game).toEqual(game);
    expect(back!.game.players.map((p) => p.name)).toEqual(['Ada', 'ace', '\u0430\u0441\u0435']);
  });

  it('fails only the append whose game is gone, not the others written with it', async () => {
    const kept = newGame('storeDd4');
    await store.snapshot(kept, 1, NOW);
    const join: Action = { type: 'join', by: randomUUID(), name: 'Bo' };
    const [gone, stored] = await Promise.allSettled([
      store.append('storeGone', 1, 2, { type: 'join', by: randomUUID(), name: 'Cy' }, NOW),
      store.append('storeDd4', 1, 2, join, NOW),
    ]);
    expect(gone.status).toBe('rejected');
    expect(stored.status).toBe('fulfilled');
    const rows = await db.selectFrom('game_actions').select(['game_id', 'n']).where('game_id', 'in', ['storeGone', 'storeDd4']).execute();
    expect(rows).toEqual([{ game_id: 'storeDd4', n: 1 }]);
  });

  it('stores the hits of starts once for every game started from them, replays the starts, and prunes hits no log names', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Song ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1960 + i, packs: [pack] }));
    const table = async (id: string) => {
      const creator = { id: randomUUID(), name: 'Ada' };
      const made = createGame({ id, mode: 'Public', creator, seed: testSeed(11), packIds: [pack] });
      if (!made.ok) throw new Error(made.error.message);
      await store.snapshot(made.game, 0, NOW);
      const counter = { n: 0, seq: 0 };
      // the room hands every game that starts within a few seconds the same array of hits
      const game = await play(made.game, [{ type: 'join', by: randomUUID(), name: 'Bo' }, { type: 'start', by: creator.id, hits }], counter, NOW);
      return { game, counter, creator };
    };
    const a = await table('storeHs1');
    const b = await table('storeHs2');
    expect(a.game.state).toBe('Guessing');
    expect(remainingDeck(a.game).length).toBeGreaterThan(30);
    const sets = await db.selectFrom('hit_sets').select(['hash', 'hits']).execute();
    expect(sets).toHaveLength(1);
    expect(JSON.parse(sets[0]!.hits)).toEqual(hits);
    // the logged start does not carry the hits itself
    const starts = await db.selectFrom('game_actions').select(['action', 'hit_set']).where('game_id', 'in', ['storeHs1', 'storeHs2']).where('hit_set', 'is not', null).execute();
    expect(starts.map((r) => r.hit_set)).toEqual([sets[0]!.hash, sets[0]!.hash]);
    for (const r of starts) expect(r.action.length).toBeLessThan(500);
    // a restart replays both starts from the stored hits: same decks, same players
    let loaded = await store.load();
    expect(loaded.find((g) => g.game.id === 'storeHs1')?.game).toEqual(a.game);
    expect(loaded.find((g) => g.game.id === 'storeHs2')?.game).toEqual(b.game);
    // named by a log: kept
    expect(await store.pruneHitSets()).toBe(0);
    // game A gets a new base (its log goes); B's log still names the hits
    await store.snapshot(a.game, a.counter.seq, NOW);
    expect(await store.pruneHitSets()).toBe(0);
    await store.remove('storeHs2');
    expect(await store.pruneHitSets()).toBe(1);
    expect(await db.selectFrom('hit_sets').select('hash').execute()).toEqual([]);
    // a later start from the same hits stores them again, and replays
    const restarted = await play(
      a.game,
      [
        { type: 'stop', by: a.creator.id },
        { type: 'start', by: a.creator.id, hits },
      ],
      a.counter,
      NOW + 1,
    );
    expect(restarted.state).toBe('Guessing');
    expect(await db.selectFrom('hit_sets').select('hash').execute()).toHaveLength(1);
    loaded = await store.load();
    expect(loaded.find((g) => g.game.id === 'storeHs1')?.game).toEqual(restarted);
  });

  it('replays the pause of a reveal: the next turn counts from the end of the reveal; a base stored before reveals took time has none', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Shown ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack] }));
    const creator = { id: randomUUID(), name: 'Ada' };
    const settings = { goal: 5, guess_timeout: 10, intercept_timeout: 0, confirm_timeout: 0, reveal_time: 5 };
    const made = createGame({ id: 'storeRvl', mode: 'Public', creator, seed: testSeed(9), packIds: [pack], settings });
    if (!made.ok) throw new Error(made.error.message);
    await store.snapshot(made.game, 0, NOW);
    const counter = { n: 0, seq: 0 };
    let game = await play(made.game, [{ type: 'join', by: randomUUID(), name: 'Bo' }, { type: 'start', by: creator.id, hits }], counter, NOW);
    const turn = game.players.find((p) => p.turn_player)!;
    const other = game.players.find((p) => !p.turn_player)!;
    game = await play(game, [{ type: 'guess', by: turn.id, slot: 1 }], counter, NOW + 1_000);
    game = await play(game, [{ type: 'guess', by: other.id, slot: null }], counter, NOW + 2_000);
    expect(game.state).toBe('Confirming');
    const confirming = game;
    const confirmingAt = { ...counter };
    // the confirmer answers at once: the next turn's 10 s start when the 5 s of the reveal are over
    game = await play(game, [{ type: 'confirm', by: other.id, confirm: true }], counter, NOW + 2_500);
    expect(game.deadline).toEqual({ state: 'Guessing', at: NOW + 2_000 + 5_000 + 10_000 });
    expect((await store.load()).find((g) => g.game.id === 'storeRvl')?.game).toEqual(game);

    // the same table stored by a version without reveal_time: its confirmation replays as it was accepted then
    const { reveal_until: _until, ...old } = { ...confirming, settings: { ...confirming.settings, reveal_time: undefined } };
    await store.snapshot(old as unknown as Game, confirmingAt.seq, NOW + 2_000);
    await store.append('storeRvl', confirmingAt.n + 1, confirmingAt.seq + 1, { type: 'confirm', by: other.id, confirm: true }, NOW + 2_500);
    const restored = (await store.load()).find((g) => g.game.id === 'storeRvl')!.game;
    expect(restored.settings.reveal_time).toBe(0);
    expect(restored.deadline).toEqual({ state: 'Guessing', at: NOW + 2_500 + 10_000 });
  });

  it('replays a dispute exactly: a log through a changed dispute, and a base stored while the table voted (docs/rules.md#disputes)', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Disputed ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack] }));
    const settings = { goal: 5, confirm_timeout: 30, reveal_time: 5, dispute_timeout: 30 };
    for (const [id, midVote] of [['storeDsA', false], ['storeDsB', true]] as const) {
      const creator = { id: randomUUID(), name: 'Ada' };
      const made = createGame({ id, mode: 'Public', creator, seed: testSeed(11), packIds: [pack], settings });
      if (!made.ok) throw new Error(made.error.message);
      await store.snapshot(made.game, 0, NOW);
      const counter = { n: 0, seq: 0 };
      let game = await play(made.game, [{ type: 'join', by: randomUUID(), name: 'Bo' }, { type: 'start', by: creator.id, hits }], counter, NOW);
      const turn = game.players.find((p) => p.turn_player)!;
      const other = game.players.find((p) => !p.turn_player)!;
      const first = turn.hits[0]!.year;
      game = await play(game, [{ type: 'guess', by: turn.id, slot: 1 }], counter, NOW + 1_000);
      if (game.state === 'Intercepting') game = await play(game, [{ type: 'guess', by: other.id, slot: null }], counter, NOW + 1_000);
      const card = game.hit!;
      const won = card.year <= first;
      // the year that turns the guess round: the card changes hands
      game = await play(game, [{ type: 'dispute', by: other.id, year: won ? first + 1 : first - 1 }], counter, NOW + 2_000);
      expect(game.dispute?.outcome).toBeNull();
      if (midVote) {
        await store.snapshot(game, counter.seq, NOW + 2_000);
        expect((await store.load()).find((g) => g.game.id === id)?.game).toEqual(game);
      }
      game = await play(game, [{ type: 'vote', by: turn.id, take: true }], counter, NOW + 12_000);
      expect(game.dispute?.outcome).toBe('changed');
      expect(game.players.find((p) => p.id === turn.id)!.hits.some((h) => h.id === card.id)).toBe(!won);
      // the confirmation's time moved on by the 10 s the vote took
      expect(game.deadline).toEqual({ state: 'Confirming', at: NOW + 1_000 + 30_000 + 10_000 });
      expect((await store.load()).find((g) => g.game.id === id)?.game).toEqual(game);
    }
  });

  it("a restart moves a running vote's deadline, and its dispute's, by the downtime", () => {
    const game = newGame('storeDsC');
    const dispute = { hit: { id: 'h', title: 't', artist: 'a', belongs_to: '', year: 1970, packs: [] }, year: 1971, by: 'p', votes: [], until: NOW + 5_000, at: NOW, outcome: null };
    const voting: Game = { ...game, deadline: { state: 'Disputing', at: NOW + 5_000 }, dispute };
    const shifted = shiftDeadline(voting, NOW + 1_000, NOW + 61_000);
    expect(shifted.deadline).toEqual({ state: 'Disputing', at: NOW + 65_000 });
    expect(shifted.dispute?.until).toBe(NOW + 65_000);
    // a decided dispute keeps its time; the phase's deadline moves alone
    const decided: Game = { ...game, deadline: { state: 'Confirming', at: NOW + 5_000 }, dispute: { ...dispute, outcome: 'kept' } };
    expect(shiftDeadline(decided, NOW, NOW + 10_000).dispute).toBe(decided.dispute);
  });

  it('restores a base stored before the engine counted drawn cards (no deck_at): the cards still to draw, the same next draw', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Old ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack] }));
    const creator = { id: randomUUID(), name: 'Ada' };
    const made = createGame({ id: 'storeOld', mode: 'Public', creator, seed: testSeed(5), packIds: [pack] });
    if (!made.ok) throw new Error(made.error.message);
    await store.snapshot(made.game, 0, NOW);
    const counter = { n: 0, seq: 0 };
    const game = await play(made.game, [{ type: 'join', by: randomUUID(), name: 'Bo' }, { type: 'start', by: creator.id, hits }], counter, NOW);
    expect(game.deck_at).toBeGreaterThan(0);
    // the old format: the deck held only the cards still to draw, and nothing counted the drawn ones
    const { deck_at: _drawn, ...old } = { ...game, deck: remainingDeck(game) };
    await store.snapshot(old as Game, counter.seq, NOW);
    const restored = (await store.load()).find((g) => g.game.id === 'storeOld')!.game;
    expect(restored.deck_at).toBe(0);
    expect(remainingDeck(restored)).toEqual(remainingDeck(game));
    expect(restored.current).toEqual(game.current);
    // the next draw (a skip) brings up the same card in both
    const turn = game.players.find((p) => p.turn_player)!;
    const skip: Action = { type: 'skip', by: turn.id };
    const a = applyAction(game, skip, { now: NOW + 1 });
    const b = applyAction(restored, skip, { now: NOW + 1 });
    if (!a.ok || !b.ok) throw new Error('skip refused');
    expect(b.game.current).toEqual(a.game.current);
    expect(remainingDeck(b.game)).toEqual(remainingDeck(a.game));
    await store.remove('storeOld');
  });

  it('restores a game stored before players had colours and avatars: colours by seat order, initials, and its log replays on them', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Looks ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack] }));
    const creator = { id: randomUUID(), name: 'Ada' };
    const made = createGame({ id: 'storeLks', mode: 'Public', creator, seed: testSeed(9), packIds: [pack], settings: { goal: 2 } });
    if (!made.ok) throw new Error(made.error.message);
    await store.snapshot(made.game, 0, NOW);
    const counter = { n: 0, seq: 0 };
    const [bo, cy] = [randomUUID(), randomUUID()];
    let game = await play(made.game, [{ type: 'join', by: bo, name: 'Bo' }, { type: 'join', by: cy, name: 'Cy' }, { type: 'start', by: creator.id, hits }, { type: 'stop', by: creator.id }], counter, NOW);
    expect(game.standings).toHaveLength(3);
    // the old format: no colour or avatar on the players, the winner or the standings; an old log after it
    const old = JSON.parse(JSON.stringify(game), (key, value: unknown) => (key === 'color' || key === 'avatar' ? undefined : value)) as Game;
    expect(JSON.stringify(old)).not.toMatch(/"color"|"avatar"/);
    await store.snapshot(old, counter.seq, NOW);
    const from = { n: 0, seq: counter.seq };
    game = await play(old, [{ type: 'leave', by: bo }, { type: 'join', by: randomUUID(), name: 'Di' }], from, NOW);
    const restored = (await store.load()).find((g) => g.game.id === 'storeLks')!.game;
    // seats by order at the time of the base (shuffled at the start): 0, 1, 2; Bo left, Di took his colour
    const seats = old.players.map((p) => p.id);
    const colour = (id: string) => seats.indexOf(id);
    expect(restored.players.map((p) => [p.name, p.color, p.avatar])).toEqual([
      ...old.players.filter((p) => p.id !== bo).map((p) => [p.name, colour(p.id), '']),
      ['Di', colour(bo), ''],
    ]);
    expect(restored.standings!.map((p) => [p.name, p.color, p.avatar])).toEqual(old.players.map((p) => [p.name, colour(p.id), '']));
    expect(viewGame(restored, null)!.players.every((p) => Number.isInteger(p.color) && p.avatar === '')).toBe(true);
    await store.remove('storeLks');
  });

  it('restores a game stored before the automatic clue mode with the mode it was given: a later start keeps it', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), title: `Kept ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack] }));
    const creator = { id: randomUUID(), name: 'Ada' };
    const made = createGame({ id: 'storeClu', mode: 'Public', creator, seed: testSeed(6), packIds: [pack], settings: { clue_mode: 'card' } });
    if (!made.ok) throw new Error(made.error.message);
    // the old format: no clue_mode_auto in the settings
    const { clue_mode_auto: _auto, ...settings } = made.game.settings;
    await store.snapshot({ ...made.game, settings } as Game, 0, NOW);
    const restored = (await store.load()).find((g) => g.game.id === 'storeClu')!.game;
    expect([restored.settings.clue_mode, restored.settings.clue_mode_auto]).toEqual(['card', false]);
    const joined = applyAction(restored, { type: 'join', by: randomUUID(), name: 'Bo' }, { now: NOW });
    if (!joined.ok) throw new Error(joined.error.message);
    const started = applyAction(joined.game, { type: 'start', by: creator.id, hits, clue_mode: 'audio' }, { now: NOW });
    expect(started.ok && started.game.settings.clue_mode).toBe('card');
    await store.remove('storeClu');
  });

  it('replays a dj round: the DJ who sits out, the hidden hit the DJ plays (video and offset), a DJ who left', async () => {
    const pack = randomUUID();
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({
      id: randomUUID(), title: `Heard ${i}`, artist: `Band ${i}`, belongs_to: '', year: 1950 + i, packs: [pack], yt_id: `vid_${String(i).padStart(7, '0')}`, playback_offset: 10 + i,
    }));
    const creator = { id: randomUUID(), name: 'Ada' };
    const [bo, cy, di] = [randomUUID(), randomUUID(), randomUUID()];
    const made = createGame({ id: 'storeDjR', mode: 'Public', creator, seed: testSeed(8), packIds: [pack], settings: { clue_mode: 'dj', goal: 3 } });
    if (!made.ok) throw new Error(made.error.message);
    await store.snapshot(made.game, 0, NOW);
    const counter = { n: 0, seq: 0 };
    let game = await play(
      made.game,
      [
        { type: 'join', by: bo, name: 'Bo' },
        { type: 'join', by: cy, name: 'Cy' },
        { type: 'join', by: di, name: 'Di' },
        { type: 'update', by: creator.id, settings: { dj: bo, dj_plays: false }, pack_ids: [pack] },
        { type: 'start', by: creator.id, hits },
      ],
      counter,
      NOW,
    );
    expect(game.dj).toEqual({ id: bo, plays: false });
    const clip = djClip(game, bo);
    expect(clip.ok && clip.clip.yt_id).toBe(game.current!.yt_id);
    let loaded = (await store.load()).find((g) => g.game.id === 'storeDjR')!.game;
    expect(loaded).toEqual(game);
    expect(djClip(loaded, bo)).toEqual(clip);
    expect(djClip(loaded, creator.id)).toMatchObject({ ok: false, error: { code: 'dj_only' } });
    // the DJ leaves: the creator plays the hits from now on, after a restart too
    game = await play(game, [{ type: 'leave', by: bo }], counter, NOW + 1);
    expect(game.dj).toEqual({ id: creator.id, plays: true });
    loaded = (await store.load()).find((g) => g.game.id === 'storeDjR')!.game;
    expect(loaded).toEqual(game);
    expect(djClip(loaded, creator.id)).toMatchObject({ ok: true, clip: { yt_id: game.current!.yt_id, start: game.current!.playback_offset } });
    await store.remove('storeDjR');
  });

  it('restores a game stored before the DJ mode: the creator would be its DJ, and would play', async () => {
    const made = createGame({ id: 'storeDjO', mode: 'Public', creator: { id: randomUUID(), name: 'Ada' }, seed: testSeed(9), packIds: [] });
    if (!made.ok) throw new Error(made.error.message);
    // the old format: no dj or dj_plays in the settings, no dj in the game
    const { dj: _dj, dj_plays: _plays, ...settings } = made.game.settings;
    const { dj: _seat, ...old } = made.game;
    await store.snapshot({ ...old, settings } as Game, 0, NOW);
    const restored = (await store.load()).find((g) => g.game.id === 'storeDjO')!.game;
    expect([restored.settings.dj, restored.settings.dj_plays, restored.dj]).toEqual(['', true, null]);
    expect(GamePayloadSchema.safeParse(viewGame(restored, null)).success).toBe(true);
    await store.remove('storeDjO');
  });

  it('keeps appends and snapshots out of another transaction open on the database, which may roll back', async () => {
    const game = newGame('storeEe5');
    await store.snapshot(game, 1, NOW);
    const join: Action = { type: 'join', by: randomUUID(), name: 'Di' };
    const joined = applyAction(game, join, { now: NOW + 1 });
    if (!joined.ok) throw new Error(joined.error.message);
    const other = newGame('storeFf6');
    let append: Promise<void> | undefined;
    let resnap: Promise<void> | undefined;
    // e.g. a catalogue import, over several turns of the event loop, that fails in the end
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('server_processes').values({ name: 'storeTx', seen_at: new Date(NOW).toISOString() }).execute();
        append = store.append('storeEe5', 1, 2, join, NOW + 1);
        resnap = store.snapshot(other, 1, NOW);
        await new Promise((r) => setTimeout(r, 30));
        throw new Error('the import failed');
      }),
    ).rejects.toThrow('the import failed');
    await append;
    await resnap;
    // the transaction's own row went with it; the action and the snapshot made meanwhile stayed
    expect(await db.selectFrom('server_processes').select('name').where('name', '=', 'storeTx').execute()).toEqual([]);
    const loaded = await store.load();
    expect(loaded.find((g) => g.game.id === 'storeEe5')?.game).toEqual(joined.game);
    expect(loaded.find((g) => g.game.id === 'storeFf6')?.game).toEqual(other);
  });

  it.runIf(TEST_ON_POSTGRES)('keeps the hits that a start being written names: the removal of unused hits waits for it (PostgreSQL)', async () => {
    // hits stored by an earlier start, named by no log any more
    const set = { hash: `storeRace-${randomUUID()}`, hits: '[]' };
    await db.insertInto('hit_sets').values(set).execute();
    await store.snapshot(newGame('storeHh8'), 1, NOW);
    let pruned: Promise<number> | undefined;
    // a start from the same hits being written (its insert into hit_sets, which finds them stored), committed only after the removal began
    await db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      await conn.insertInto('hit_sets').values(set).onConflict((oc) => oc.column('hash').doNothing()).execute();
      await conn.insertInto('game_actions').values({ game_id: 'storeHh8', n: 1, action: '{}', hit_set: set.hash }).execute();
      pruned = store.pruneHitSets();
      await new Promise((r) => setTimeout(r, 200));
      await sql`commit`.execute(conn);
    });
    await pruned;
    expect(await db.selectFrom('hit_sets').select('hash').where('hash', '=', set.hash).execute()).toEqual([{ hash: set.hash }]);
  });

  it.runIf(TEST_ON_POSTGRES)('opens a new log connection when PostgreSQL closed the last one, and stores the next actions (PostgreSQL)', async () => {
    const game = newGame('storeIi9');
    await store.snapshot(game, 1, NOW);
    const from = { n: 0, seq: 1 };
    const joined = await play(game, [{ type: 'join', by: randomUUID(), name: 'Eve' }], from, NOW);
    /** Backends whose last statement was a log insert: the log's own connection. */
    const writers = async () =>
      (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and query like 'insert into "game_actions"%'`.execute(db)).rows.map((r) => r.pid);
    const [old] = await writers();
    expect(old).toBeTypeOf('number');
    await sql`select pg_terminate_backend(${old})`.execute(db);
    // an append that still meets the closed connection is refused (the room asks to try again); the retry is stored
    const action: Action = { type: 'join', by: randomUUID(), name: 'Fay' };
    const result = applyAction(joined, action, { now: NOW + 1 });
    if (!result.ok) throw new Error(result.error.message);
    let refused = 0;
    while (!(await store.append(game.id, 2, 3, action, NOW + 1).then(() => true, () => false))) {
      refused++;
      expect(refused).toBeLessThan(2);
    }
    const loaded = await store.load();
    expect(loaded.find((g) => g.game.id === 'storeIi9')?.game).toEqual(result.game);
    const now = await writers();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(old);
  });
});
