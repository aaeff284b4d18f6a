import { describe, expect, it } from 'vitest';
import { perspectiveOf } from '../../client/src/routes/game/game-logic.ts';
import { controllerView, listensOn, outcomeKey, outcomeLine, phoneAudio, rowOf, seatChoices } from '../../client/src/routes/game/play/controller-logic.ts';
import { MAX_PLAYERS } from '../../shared/rules/constants.ts';
import { game, hit, ids, player, uuid } from './game-fixtures.ts';

/** Ana's turn on a timeline 1975, 1988; Ben and Cleo at the table. */
const ana = (facts = {}) => player('ana', { years: [1975, 1988], turn_player: true, creator: true, ...facts });
const view = (g: ReturnType<typeof game>, userId: string | undefined) => controllerView(g, perspectiveOf(g, userId));

describe('what the controller shows', () => {
  it('a visitor of an Open game gets the name prompt; of a running or full one, why not', () => {
    expect(view(game([ana(), player('ben')]), ids.cleo)).toEqual({ kind: 'join' });
    expect(view(game([ana({ state: 'Guessing' }), player('ben')], { state: 'Guessing' }), ids.cleo)).toEqual({ kind: 'closed', reason: 'running' });
    const full = Array.from({ length: MAX_PLAYERS }, (_, i) => ({ ...player('ben'), id: uuid(500 + i) }));
    expect(view(game(full), ids.cleo)).toEqual({ kind: 'closed', reason: 'full' });
    // nobody signed in yet (the session is still coming): not seated either
    expect(view(game([ana()]), undefined)).toEqual({ kind: 'join' });
  });

  it('a seated player waits for the start while Open', () => {
    expect(view(game([ana(), player('ben')]), ids.ben)).toEqual({ kind: 'lobby' });
  });

  it('the turn player places; the others wait for him, with his face first', () => {
    const g = game([ana({ state: 'Guessing' }), player('ben'), player('cleo')], { state: 'Guessing' });
    expect(view(g, ids.ana)).toEqual({ kind: 'act', phase: 'guessing' });
    const waiting = view(g, ids.ben);
    expect(waiting.kind).toBe('waiting');
    expect(waiting.kind === 'waiting' && waiting.on.map((p) => p.name)).toEqual(['Ana']);
  });

  it('intercepting and confirming are this phone\'s moves; the turn player waits for the others', () => {
    const intercepting = game([ana({ state: 'Waiting', guess: ana().slots[0] }), player('ben', { state: 'Intercepting' }), player('cleo', { state: 'Intercepting' })], { state: 'Intercepting' });
    expect(view(intercepting, ids.ben)).toEqual({ kind: 'act', phase: 'intercepting' });
    const forAna = view(intercepting, ids.ana);
    expect(forAna.kind === 'waiting' && forAna.on.map((p) => p.name)).toEqual(['Ben', 'Cleo']);
    const confirming = game([ana(), player('ben', { state: 'Confirming' }), player('cleo')], { state: 'Confirming' });
    expect(view(confirming, ids.ben)).toEqual({ kind: 'act', phase: 'confirming' });
    const forCleo = view(confirming, ids.cleo);
    expect(forCleo.kind === 'waiting' && forCleo.on.map((p) => p.name)).toEqual(['Ben']);
  });

  it('shows the turn player\'s row while placing into it, else one\'s own', () => {
    const g = game([ana({ state: 'Waiting', guess: ana().slots[0] }), player('ben', { state: 'Intercepting', years: [2001] })], { state: 'Intercepting' });
    const me = g.players[1]!;
    expect(rowOf(g, view(g, ids.ben), me)?.id).toBe(ids.ana);
    expect(rowOf(g, { kind: 'act', phase: 'confirming' }, me)?.id).toBe(ids.ben);
    expect(rowOf(g, { kind: 'waiting', on: [] }, me)?.id).toBe(ids.ben);
  });
});

describe('a controller is silent by default', () => {
  it('plays neither the hit nor the cues unless its player listens on it', () => {
    expect(listensOn(null)).toBe(false);
    expect(listensOn('false')).toBe(false);
    expect(listensOn('yes')).toBe(false);
    expect(listensOn('true')).toBe(true);
    expect(phoneAudio(listensOn(null))).toEqual({ hit: false, cues: false });
    expect(phoneAudio(true)).toEqual({ hit: true, cues: true });
  });
});

describe('the reveal in one line', () => {
  const card = hit(1987);
  const a = { id: ids.ana, name: 'Ana', you: false };
  const b = { id: ids.ben, name: 'Ben', you: false };
  it('says the year and who won it, "correct!" to the winner', () => {
    expect(outcomeKey(outcomeLine({ hit: card, turn: a, winner: a }, ids.ana))).toBe('controller.outcome.right_you');
    expect(outcomeLine({ hit: card, turn: a, winner: a }, ids.ben)).toEqual({ year: 1987, result: 'right', name: 'Ana', you: false });
    expect(outcomeKey(outcomeLine({ hit: card, turn: a, winner: b }, ids.ben))).toBe('controller.outcome.intercepted_you');
    expect(outcomeKey(outcomeLine({ hit: card, turn: a, winner: b }, ids.ana))).toBe('controller.outcome.intercepted');
    expect(outcomeKey(outcomeLine({ hit: card, turn: a, winner: null }, ids.ana))).toBe('controller.outcome.nobody');
  });
});

describe('a one-device game on phones', () => {
  // Ana hosts on her device; Ben and Cleo are name-only seats, Ben's played on the phone of user 9
  const phone = uuid(9);
  const other = uuid(8);
  const local = (facts = {}) =>
    game([ana({ state: 'Guessing' }), player('ben', { virtual: true, controller: phone }), player('cleo', { virtual: true, controller: other })], { mode: 'Local', state: 'Guessing', ...facts });

  it('the phone playing a seat is that seat, speaking to "you"', () => {
    expect(perspectiveOf(local(), phone)).toMatchObject({ me: { id: ids.ben }, actor: { id: ids.ben }, local: false, seat: true });
    // the host's device still acts for whoever's turn it is
    expect(perspectiveOf(local(), ids.ana)).toMatchObject({ me: { id: ids.ana }, local: true });
    expect(view(local(), phone)).toEqual({ kind: 'waiting', on: [expect.objectContaining({ id: ids.ana })] });
  });

  it('a phone with the key that plays no seat asks which one, and offers a new seat while Open', () => {
    expect(view(local(), uuid(7))).toEqual({ kind: 'seats', canAdd: false });
    expect(view(local({ state: 'Open' }), uuid(7))).toEqual({ kind: 'seats', canAdd: true });
    // the name-only seats, those played on another phone marked; the host's own seat is not offered
    expect(seatChoices(local(), phone).map(({ player: p, elsewhere }) => [p.name, elsewhere])).toEqual([
      ['Ben', false],
      ['Cleo', true],
    ]);
  });
});
