import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followGameNews } from '../../client/src/a11y/game-news.ts';
import { announce } from '../../client/src/a11y/game-meaning.ts';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { screenEffects, seenOf, stepOf, nextSeen, type Seen } from '../../client/src/stores/game-events.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { GamePayload, GameUpdate } from '../../shared/protocol/game.ts';
import { roomEvent, type RoomEvent } from '../../shared/protocol/room.ts';
import { game, hit, ids, player, roomJson, users } from './game-fixtures.ts';

/**
 * The layers of the game screen's news: announce (a game event → its words,
 * pure), screenEffects (a game event → what the screen keeps, without words,
 * pure) and followGameNews (the store's applied events → said and fed).
 */

let seq = 0;
const ev = (event: RoomEvent['event'], data: GameUpdate, final = false): RoomEvent => roomEvent(++seq, { event, data }, final);
const seen = (g: GamePayload): Seen => ({ state: g.state, players: g.players, settings: g });

const ana = player('ana', { creator: true, years: [1980], tokens: 2 });
const ben = player('ben', { years: [1990], tokens: 2 });
const card = hit(1985, 'Take On Me');

describe('announce(previous, event, game, me)', () => {
  it('a few events → exact meanings, for the person at this device', () => {
    const open = game([ana]);
    const joined = game([ana, ben]);
    expect(announce({ ...seen(open), asked: null }, ev('join', { players: [ben] }), joined, ids.ana).meanings.map((m) => m.text)).toEqual(['Ben joined the game.']);
    expect(announce({ ...seen(open), asked: null }, ev('join', { players: [ben] }), joined, ids.ben).meanings.map((m) => m.text)).toEqual(['You joined the game.']);
    const guessing = game([{ ...ana, turn_player: true, state: 'Guessing' }, ben], { state: 'Guessing', draws: 1 });
    const started = announce({ ...seen(joined), asked: null }, ev('change_state', { state: 'Guessing' }), guessing, ids.ben);
    expect(started.meanings.map((m) => [m.kind, m.text, m.interrupt])).toEqual([
      ['started', 'The game has started.', true],
      ['turn', "Ana's turn.", false],
    ]);
    // an event nobody needs to hear: the game's deletion
    expect(announce({ ...seen(joined), asked: null }, ev('change_state', { state: 'Open' }, true), joined, ids.ana).meanings).toEqual([]);
  });

  it("says where a Local game's seat is played when a phone takes it or gives it back; the seats follow", () => {
    const phone = '00000000-0000-4000-8000-000000000050';
    const local = { mode: 'Local' as const };
    const bo = { ...ben, virtual: true };
    const onHost = game([ana, bo], local);
    const onPhone = game([ana, { ...bo, controller: phone }], local);
    const took = ev('update', { players: [{ ...bo, controller: phone }] });
    expect(announce({ ...seen(onHost), asked: null }, took, onPhone, ids.ana).meanings.map((m) => [m.kind, m.text])).toEqual([['connection', 'Ben now plays on a phone.']]);
    expect(nextSeen(seen(onHost), took, onPhone).players[1]?.controller).toBe(phone);
    // on the phone that plays Ben, Ben is "you"; on the host's device nobody is
    const bensTurn = game([ana, { ...bo, controller: phone, turn_player: true, state: 'Guessing' }], { ...local, state: 'Guessing', draws: 1 });
    const start = ev('change_state', { state: 'Guessing' });
    expect(announce({ ...seen(onPhone), asked: null }, start, bensTurn, phone).meanings.map((m) => m.text)).toContain('Your turn.');
    expect(announce({ ...seen(onPhone), asked: null }, start, bensTurn, ids.ana).meanings.map((m) => m.text)).toContain("Ben's turn.");
    const back = ev('update', { players: [bo] });
    expect(announce({ ...seen(onPhone), asked: null }, back, onHost, ids.ana).meanings.map((m) => m.text)).toEqual(["Ben plays on the host's device again."]);
  });

  it('asks each seat of a Local game once per card: what it was asked before comes in `previous.asked`', () => {
    const local = { mode: 'Local' as const, draws: 1 };
    const was = game([{ ...ana, turn_player: true, state: 'Guessing' }, { ...ben, virtual: true }], { ...local, state: 'Guessing' });
    const now = game([{ ...ana, turn_player: true, guess: ana.slots[0] ?? null }, { ...ben, virtual: true, state: 'Intercepting' }], { ...local, state: 'Intercepting' });
    const first = announce({ ...seen(was), asked: null }, ev('change_state', { state: 'Intercepting' }), now, ids.ana);
    expect(first).toEqual({ meanings: [expect.objectContaining({ kind: 'ask', text: "Ben may intercept Ana's guess." })], asked: `1:${ids.ben}` });
    // the same seat, still asked: nothing new to say
    const again = announce({ ...seen(now), asked: first.asked }, ev('guess', { players: [] }), now, ids.ana);
    expect(again).toEqual({ meanings: [], asked: `1:${ids.ben}` });
  });
});

describe('screenEffects: what an event does to the screen, without words', () => {
  const confirming = game([{ ...ana, turn_player: true, guess: ana.slots[0] ?? null, state: 'Confirming' }, ben], { state: 'Confirming', hit: card, draws: 1 });
  const intercepting = game([{ ...ana, turn_player: true, guess: ana.slots[0] ?? null }, { ...ben, state: 'Intercepting' }], { state: 'Intercepting', draws: 1 });

  it('names the step of the round a change_state is', () => {
    const reveal = ev('change_state', { state: 'Confirming', hit: card });
    expect(stepOf(seen(intercepting), reveal, nextSeen(seen(intercepting), reveal, confirming))).toBe('revealed');
    const stop = ev('change_state', { state: 'Open', cause: 'stopped', by: ana });
    expect(stepOf(seen(confirming), stop, seenOf(game([ana, ben])))).toBe('stopped');
    const deleted = ev('change_state', { state: 'Open' }, true);
    expect(stepOf(seen(confirming), deleted, seenOf(game([ana])))).toBe('deleted');
  });

  it('a reveal shows its card, the turn player and his placement; nothing else changes', () => {
    const out = screenEffects(seen(intercepting), ev('change_state', { state: 'Confirming', hit: card }), confirming, ids.ben, false);
    expect(out.reveal).toEqual({ hit: card, turn: { id: ids.ana, name: 'Ana', you: false, color: 0, avatar: '' }, guess: ana.slots[0], winner: null, final: false });
    expect(out).toMatchObject({ clearChoice: false, ownLeave: false });
    expect(out.ended).toBeUndefined();
    expect(out.seen.state).toBe('Confirming');
  });

  it('one\'s own leaving, then the deletion: the game closed by his own leave', () => {
    const open = game([ana, ben]);
    const left = screenEffects(seen(open), ev('leave', { players: [ana] }), game([ben]), ids.ana, false);
    expect(left.ownLeave).toBe(true);
    expect(left.seen.players.map((p) => p.id)).toEqual([ids.ben]);
    const deleted = screenEffects(left.seen, ev('change_state', { state: 'Open' }, true), game([ben]), ids.ana, left.ownLeave);
    expect(deleted.closed).toEqual({ byOwnLeave: true });
  });
});

describe('followGameNews: the store stores, the news is said and fed from outside it', () => {
  let heard: Notification[] = [];
  let off = (): void => undefined;
  beforeEach(() => {
    resetSessionForTests();
    useSession.setState({ user: users.ana, ready: true });
    useGame.getState().reset('AbCd1234');
    heard = [];
    off = onNotification((n) => heard.push(n));
  });
  afterEach(() => off());

  function joinBen(): void {
    useGame.getState().applyState(roomJson(game([ana]), seq));
    useGame.getState().applyState(roomJson(game([ana, ben]), seq));
    useGame.getState().applyEvent(ev('join', { players: [ben] }));
  }

  it('without a follower the store only stores: the event is applied, nothing is said or fed', () => {
    joinBen();
    expect(useGame.getState().news?.event.event).toBe('join');
    expect(useGame.getState().seq).toBe(seq);
    expect(heard).toEqual([]);
    expect(useGame.getState().feed).toEqual([]);
  });

  it('a shared screen (named) names its own user too: on a TV "You joined" would speak to whoever looks', () => {
    // the session is Ana's, and Ana joins: her own device says "You", the TV names her
    const own = followGameNews();
    useGame.getState().applyState(roomJson(game([ben]), seq));
    useGame.getState().applyState(roomJson(game([ben, ana]), seq));
    useGame.getState().applyEvent(ev('join', { players: [ana] }));
    own();
    const tv = followGameNews({ named: true });
    useGame.getState().applyState(roomJson(game([ben]), seq));
    useGame.getState().applyEvent(ev('leave', { players: [ana] }));
    useGame.getState().applyState(roomJson(game([ben, ana]), seq));
    useGame.getState().applyEvent(ev('join', { players: [ana] }));
    tv();
    expect(heard.map((n) => n.text)).toEqual(['You joined the game.', 'Ana left the game.', 'Ana joined the game.']);
  });

  it('while followed, each applied event is said and fed once; after the stop, no more', () => {
    const stop = followGameNews();
    joinBen();
    expect(heard.map((n) => n.text)).toEqual(['Ben joined the game.']);
    expect(useGame.getState().feed.map((e) => e.text)).toEqual(['Ben joined the game.']);
    // a replayed event is not applied again, so not said again
    const replay = useGame.getState().news!.event;
    useGame.getState().applyEvent(replay);
    expect(heard).toHaveLength(1);
    stop();
    useGame.getState().applyState(roomJson(game([ana]), seq));
    useGame.getState().applyEvent(ev('leave', { players: [ben] }));
    expect(heard).toHaveLength(1);
    expect(useGame.getState().feed).toHaveLength(1);
  });
});
