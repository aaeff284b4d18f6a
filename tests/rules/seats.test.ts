import { describe, expect, it } from 'vitest';
import { applyAction, canView, isListedFor, seatKeyOf, viewGame, type Game } from '../../shared/rules/index.ts';
import { act, makeHits, newGame, reject, SEAT_KEY, uid } from './helpers.ts';

/** Phones playing the name-only seats of a Local game (docs/rules.md#local). */

const CREATOR = uid(1);
const PHONE = uid(50);
const PHONE2 = uid(51);

/** A Local game with the creator and name-only seats Bo and Cy. */
function table(): { g: Game; bo: string; cy: string } {
  let g = newGame('Local', { settings: { start_tokens: 5 } });
  g = act(g, { type: 'join_local', by: CREATOR, name: 'Bo' }).game;
  g = act(g, { type: 'join_local', by: CREATOR, name: 'Cy' }).game;
  return { g, bo: g.players[1]!.id, cy: g.players[2]!.id };
}

const seat = (g: Game, id: string) => g.players.find((p) => p.id === id)!;

describe('the seat key', () => {
  it('is made for Local games only, and shown to no view', () => {
    const { g } = table();
    expect(g.seat_key).toBe(SEAT_KEY);
    expect(newGame('Public').seat_key).toBeUndefined();
    expect(newGame('Private').seat_key).toBeUndefined();
    expect(JSON.stringify(viewGame(g, CREATOR))).not.toContain(SEAT_KEY);
  });

  it('goes to the creator alone: others who may view hear 403, others 404, other modes have none', () => {
    let { g, bo } = table();
    expect(seatKeyOf(g, CREATOR)).toEqual({ ok: true, key: SEAT_KEY });
    expect(seatKeyOf(g, PHONE)).toMatchObject({ ok: false, error: { code: 'game_not_found', status: 404 } });
    expect(seatKeyOf(g, null)).toMatchObject({ ok: false, error: { code: 'game_not_found' } });
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    expect(seatKeyOf(g, PHONE)).toMatchObject({ ok: false, error: { code: 'creator_only_seat_key', status: 403 } });
    expect(seatKeyOf(newGame('Public'), CREATOR)).toMatchObject({ ok: false, error: { code: 'local_only_seat_key', status: 409 } });
    expect(seatKeyOf(newGame('Private'), uid(9))).toMatchObject({ ok: false, error: { code: 'local_only_seat_key' } });
  });

  it('lets whoever presents it view the Local game; a wrong or missing key does not', () => {
    const { g } = table();
    expect(canView(g, PHONE)).toBe(false);
    expect(canView(g, PHONE, SEAT_KEY)).toBe(true);
    expect(canView(g, null, SEAT_KEY)).toBe(true);
    expect(canView(g, PHONE, `${SEAT_KEY.slice(0, -1)}x`)).toBe(false);
    expect(canView(g, PHONE, '')).toBe(false);
    expect(canView(g, PHONE, null)).toBe(false);
    expect(viewGame(g, PHONE)).toBeNull();
    expect(viewGame(g, PHONE, null, SEAT_KEY)?.players).toHaveLength(3);
    // a Local game stored before seat keys: no key opens it
    const { seat_key: _, ...old } = g;
    expect(canView(old as Game, PHONE, SEAT_KEY)).toBe(false);
  });
});

describe('control', () => {
  it('a phone takes a seat: the seat names it, the phone may view the game, the event is an update', () => {
    const { g, bo } = table();
    const r = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo });
    expect(seat(r.game, bo).controller).toBe(PHONE);
    expect(r.events).toEqual([{ event: 'update', data: { players: [expect.objectContaining({ id: bo, controller: PHONE })] } }]);
    expect(canView(r.game, PHONE)).toBe(true);
    expect(viewGame(r.game, PHONE)?.players.map((p) => p.controller)).toEqual([null, PHONE, null]);
    // the lobby lists a Local game for its creator only: a phone opens it by its link
    expect([isListedFor(r.game, PHONE), isListedFor(r.game, CREATOR)]).toEqual([false, true]);
    // taking it again changes nothing and says nothing
    expect(act(r.game, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).events).toEqual([]);
  });

  it('while Open, a phone adds a seat of its own with the rules of name-only players', () => {
    const { g } = table();
    const r = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, name: '  Di ', avatar: '🦊' });
    const di = r.game.players[3]!;
    expect(di).toMatchObject({ name: 'Di', virtual: true, creator: false, avatar: '🦊', color: 3, controller: PHONE });
    expect(r.events.map((e) => e.event)).toEqual(['join']);
    expect(r.events[0]!.data.players).toEqual([expect.objectContaining({ id: di.id, controller: PHONE })]);
    expect(reject(g, { type: 'control', by: PHONE, key: SEAT_KEY, name: 'bo' }).code).toBe('name_taken');
    expect(reject(g, { type: 'control', by: PHONE, key: SEAT_KEY, name: ' ' }).code).toBe('name_invalid');
    expect(reject(g, { type: 'control', by: PHONE, key: SEAT_KEY, name: 'Di', avatar: 'x' }).code).toBe('avatar_invalid');
    let full = g;
    for (let i = 4; i <= 10; i++) full = act(full, { type: 'join_local', by: CREATOR, name: `v${i}` }).game;
    expect(reject(full, { type: 'control', by: PHONE, key: SEAT_KEY, name: 'Di' }).code).toBe('game_full');
    const running = act(g, { type: 'start', by: CREATOR, hits: makeHits(60) }).game;
    expect(reject(running, { type: 'control', by: PHONE, key: SEAT_KEY, name: 'Di' }).code).toBe('already_running');
  });

  it('one device plays one seat: taking another gives the first back (and a new seat too)', () => {
    let { g, bo, cy } = table();
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    const r = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: cy });
    expect([seat(r.game, bo).controller, seat(r.game, cy).controller]).toEqual([null, PHONE]);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]!.data.players!.map((p) => [p.id, p.controller])).toEqual([
      [cy, PHONE],
      [bo, null],
    ]);
    const added = act(r.game, { type: 'control', by: PHONE, key: SEAT_KEY, name: 'Di' });
    expect(added.events.map((e) => e.event)).toEqual(['join', 'update']);
    expect(seat(added.game, cy).controller).toBeNull();
    expect(added.game.players.filter((p) => p.controller === PHONE).map((p) => p.name)).toEqual(['Di']);
  });

  it('the newest phone wins a seat another phone plays', () => {
    let { g, bo } = table();
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    const r = act(g, { type: 'control', by: PHONE2, key: SEAT_KEY, player: bo });
    expect(seat(r.game, bo).controller).toBe(PHONE2);
    expect(r.events[0]!.data.players).toEqual([expect.objectContaining({ id: bo, controller: PHONE2 })]);
    // the first phone lost its seat, and with it the view without the key
    expect(canView(r.game, PHONE)).toBe(false);
  });

  it('is refused with a clear code: wrong key, not Local, a real player, unknown or real seats, malformed', () => {
    let { g, bo } = table();
    // whoever may not view the game learns nothing from a wrong key; a phone that may does
    expect(reject(g, { type: 'control', by: PHONE, key: 'wrong-key-wrong-key-0001', player: bo })).toMatchObject({ code: 'game_not_found', status: 404 });
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    expect(reject(g, { type: 'control', by: PHONE, key: 'wrong-key-wrong-key-0001', player: bo })).toMatchObject({ code: 'seat_key_invalid', status: 403 });
    expect(reject(g, { type: 'control', by: CREATOR, key: SEAT_KEY, player: bo }).code).toBe('controller_is_player');
    expect(reject(g, { type: 'control', by: PHONE2, key: SEAT_KEY, player: uid(99) }).code).toBe('player_not_found');
    expect(reject(g, { type: 'control', by: PHONE2, key: SEAT_KEY, player: CREATOR }).code).toBe('seat_not_virtual');
    const pub = newGame('Public');
    expect(reject(pub, { type: 'control', by: PHONE, key: SEAT_KEY, player: CREATOR }).code).toBe('local_only_control');
    for (const bad of [
      { type: 'control', by: PHONE, player: bo },
      { type: 'control', by: PHONE, key: SEAT_KEY },
      { type: 'control', by: PHONE, key: SEAT_KEY, player: bo, name: 'Di' },
      { type: 'control', by: PHONE, key: SEAT_KEY, player: bo, avatar: '🦊' },
      { type: 'release', by: PHONE },
    ]) {
      expect(reject(g, bad).code).toBe('bad_action');
    }
  });
});

describe("a phone's seat in play", () => {
  /** Running: the phone plays Bo; whose turn it is depends on the seat shuffle. */
  function running() {
    let { g, bo, cy } = table();
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    g = act(g, { type: 'start', by: CREATOR, hits: makeHits(60) }).game;
    return { g, bo, cy };
  }
  /** The game with the turn moved to the seat called `name` (the creator's device plays the others' turns meanwhile). */
  function turnOf(name: 'Bo' | 'Cy') {
    let { g, bo, cy } = running();
    const id = name === 'Bo' ? bo : cy;
    for (let i = 0; i < 6 && !seat(g, id).turn_player; i++) {
      const turn = g.players.find((p) => p.turn_player)!;
      g = act(g, { type: 'guess', by: CREATOR, player: turn.id, slot: 1 }).game;
      for (const p of g.players.filter((q) => q.state === 'Intercepting')) g = act(g, { type: 'guess', by: CREATOR, player: p.id, slot: null }).game;
      g = act(g, { type: 'confirm', by: CREATOR, confirm: false }).game;
    }
    expect(seat(g, id).turn_player).toBe(true);
    return { g, bo, cy };
  }

  it('guesses, skips and claims for its seat, with or without naming it; never for another', () => {
    const { g, bo, cy } = turnOf('Bo');
    expect(seat(g, bo).state).toBe('Guessing');
    const skipped = act(g, { type: 'skip', by: PHONE });
    expect(seat(skipped.game, bo).tokens).toBe(4);
    expect(act(g, { type: 'claim', by: PHONE, player: bo }).game.players.find((p) => p.id === bo)!.hits).toHaveLength(2);
    const guessed = act(g, { type: 'guess', by: PHONE, player: bo, slot: 1 });
    expect(seat(guessed.game, bo).guess?.id).toBe(1);
    expect(reject(g, { type: 'guess', by: PHONE, player: cy, slot: 1 })).toMatchObject({ code: 'own_seat_only', status: 403 });
    expect(reject(g, { type: 'skip', by: PHONE, player: CREATOR }).code).toBe('own_seat_only');
    expect(reject(g, { type: 'claim', by: PHONE, player: cy }).code).toBe('own_seat_only');
    expect(reject(g, { type: 'avatar', by: PHONE, player: cy, avatar: '🐼' }).code).toBe('own_seat_only');
    expect(seat(act(g, { type: 'avatar', by: PHONE, avatar: '🐼' }).game, bo).avatar).toBe('🐼');
    // the creator still acts for any seat, the phone's too, and still confirms
    expect(seat(act(g, { type: 'guess', by: CREATOR, player: bo, slot: 2 }).game, bo).guess?.id).toBe(2);
    expect(reject(guessed.game, { type: 'confirm', by: PHONE, confirm: true }).code).toBe('game_not_found');
    // a phone without a seat is nobody at the table
    expect(reject(g, { type: 'guess', by: PHONE2, player: bo, slot: 1 }).code).toBe('game_not_found');
  });

  it('intercepts for its seat like any guess', () => {
    const { g, bo, cy } = turnOf('Cy');
    const placed = act(g, { type: 'guess', by: CREATOR, player: cy, slot: 1 }).game;
    expect(seat(placed, bo).state).toBe('Intercepting');
    const r = act(placed, { type: 'guess', by: PHONE, player: bo, slot: 2 });
    expect(seat(r.game, bo).tokens).toBe(seat(placed, bo).tokens - 1);
    expect(r.game.intercepts).toEqual([bo]);
  });

  it('keeps its phone through the seat shuffle, the end of a round and the next start', () => {
    const { g, bo } = running();
    expect(seat(g, bo).controller).toBe(PHONE);
    const stopped = act(g, { type: 'stop', by: CREATOR }).game;
    expect(seat(stopped, bo).controller).toBe(PHONE);
    expect(seat(act(stopped, { type: 'start', by: CREATOR, hits: makeHits(60) }).game, bo).controller).toBe(PHONE);
  });
});

describe('release', () => {
  it('by the phone or the creator: the seat goes back to the creator\'s device', () => {
    let { g, bo, cy } = table();
    g = act(g, { type: 'control', by: PHONE, key: SEAT_KEY, player: bo }).game;
    const r = act(g, { type: 'release', by: PHONE, player: bo });
    expect(seat(r.game, bo).controller).toBeNull();
    expect(r.events).toEqual([{ event: 'update', data: { players: [expect.objectContaining({ id: bo, controller: null })] } }]);
    expect(canView(r.game, PHONE)).toBe(false);
    expect(seat(act(g, { type: 'release', by: CREATOR, player: bo }).game, bo).controller).toBeNull();
    g = act(g, { type: 'control', by: PHONE2, key: SEAT_KEY, player: cy }).game;
    expect(reject(g, { type: 'release', by: PHONE2, player: bo })).toMatchObject({ code: 'creator_or_controller_release', status: 403 });
    expect(reject(r.game, { type: 'release', by: CREATOR, player: bo }).code).toBe('seat_not_controlled');
    expect(reject(g, { type: 'release', by: CREATOR, player: uid(99) }).code).toBe('player_not_found');
    expect(reject(g, { type: 'release', by: uid(77), player: bo }).code).toBe('game_not_found');
    expect(reject(newGame('Public'), { type: 'release', by: CREATOR, player: CREATOR }).code).toBe('seat_not_controlled');
  });

  it('a stored game without controllers reads as null', () => {
    const { g } = table();
    const old = JSON.parse(JSON.stringify(g), (key, value: unknown) => (key === 'controller' ? undefined : value)) as Game;
    expect(viewGame(old, CREATOR)!.players.map((p) => p.controller)).toEqual([null, null, null]);
    const r = applyAction(old, { type: 'control', by: PHONE, key: SEAT_KEY, player: old.players[1]!.id }, { now: 1 });
    expect(r.ok).toBe(true);
  });
});
