import { describe, expect, it } from 'vitest';
import { slotText } from '../../client/src/format.ts';
import {
  actingFor,
  canClaim,
  canConfirm,
  canSkip,
  canSubmit,
  choiceTaken,
  claimCandidates,
  clampRandomCount,
  clampSetting,
  endResult,
  guessModel,
  keepChoice,
  perspectiveOf,
  randomPacks,
  secondsLeft,
  selectAllState,
  shouldAnnounce,
  stepChoice,
  submittedSlot,
  toggleAll,
} from '../../client/src/routes/game/game-logic.ts';
import { game, ids, player, uuid } from './game-fixtures.ts';

/** Ana's turn on a timeline 1975, 1988: slots 1 (before 1975), 2 (1975–1988), 3 (after 1988). */
const ana = (facts = {}) => player('ana', { years: [1975, 1988], turn_player: true, creator: true, ...facts });

describe('slot labels', () => {
  it('read before, between and after (docs/product.md#screens)', () => {
    const slots = ana().slots;
    expect(slots.map(slotText)).toEqual(['before 1975', 'between 1975 and 1988', 'after 1988']);
    expect(slotText(null)).toBe('no slot');
  });
});

describe('perspective', () => {
  it('is the own seat in Public and Private games, nobody for spectators', () => {
    const g = game([ana({ state: 'Guessing' }), player('ben')], { state: 'Guessing' });
    expect(perspectiveOf(g, ids.ben)).toMatchObject({ actor: { id: ids.ben }, me: { id: ids.ben }, local: false });
    expect(perspectiveOf(g, ids.cleo)).toEqual({ actor: null, me: null, local: false, seat: false });
    expect(perspectiveOf(g, undefined).actor).toBeNull();
  });

  it('acts for the local acting player in Local games (turn player, next interceptor, else the creator)', () => {
    const creator = player('ana', { years: [1975], creator: true });
    const ben = player('ben', { years: [1980], virtual: true });
    const cleo = player('cleo', { years: [1990], virtual: true });
    const guessing = game([{ ...creator }, { ...ben, turn_player: true, state: 'Guessing' }, cleo], { mode: 'Local', state: 'Guessing' });
    expect(perspectiveOf(guessing, ids.ana)).toMatchObject({ actor: { id: ids.ben }, me: { id: ids.ana }, local: true });
    // Intercepting: the next intercepting seat after the turn player (Cleo before Ana)
    const intercepting = game([{ ...creator, state: 'Intercepting' }, { ...ben, turn_player: true }, { ...cleo, state: 'Intercepting' }], { mode: 'Local', state: 'Intercepting' });
    expect(perspectiveOf(intercepting, ids.ana).actor?.id).toBe(ids.cleo);
    const confirming = game([{ ...creator, state: 'Confirming' }, { ...ben, turn_player: true }, cleo], { mode: 'Local', state: 'Confirming' });
    expect(perspectiveOf(confirming, ids.ana).actor?.id).toBe(ids.ana);
  });

  it("is the seat a phone plays in a Local game, spoken to as you, whoever's turn it is; the creator's device still acts for the turn", () => {
    const phone = uuid(9);
    const creator = player('ana', { years: [1975], creator: true });
    const ben = player('ben', { years: [1980], virtual: true, controller: phone });
    const cleo = player('cleo', { years: [1990], virtual: true });
    const cleosTurn = game([creator, ben, { ...cleo, turn_player: true, state: 'Guessing' }], { mode: 'Local', state: 'Guessing' });
    const onPhone = perspectiveOf(cleosTurn, phone);
    expect(onPhone).toMatchObject({ actor: { id: ids.ben }, me: { id: ids.ben }, local: false, seat: true });
    expect(actingFor(onPhone)).toEqual({ player: ids.ben });
    // waiting while Cleo places: nothing to choose for Ben
    expect(guessModel(cleosTurn, onPhone)).toMatchObject({ phase: 'waiting', you: true });
    const bensTurn = game([creator, { ...ben, turn_player: true, state: 'Guessing' }, cleo], { mode: 'Local', state: 'Guessing' });
    expect(guessModel(bensTurn, perspectiveOf(bensTurn, phone))).toMatchObject({ phase: 'guessing', you: true, actor: { id: ids.ben } });
    // the creator's device keeps acting for whoever's turn it is, the phone's seat too
    const onTv = perspectiveOf(bensTurn, ids.ana);
    expect(onTv).toMatchObject({ actor: { id: ids.ben }, me: { id: ids.ana }, local: true, seat: false });
    expect(actingFor(onTv)).toEqual({ player: ids.ben });
    // another phone with the key but no seat watches
    expect(perspectiveOf(bensTurn, uuid(10))).toEqual({ actor: null, me: null, local: true, seat: false });
    // a Public game never names a seat
    expect(actingFor(perspectiveOf(game([{ ...creator, turn_player: true, state: 'Guessing' }], { state: 'Guessing' }), ids.ana))).toEqual({});
  });
});

describe('guess panel rules', () => {
  it("says 'game not started' while Open", () => {
    const m = guessModel(game([ana(), player('ben')]), perspectiveOf(game([ana(), player('ben')]), ids.ana));
    expect(m.phase).toBe('not_started');
    expect(canSubmit(m, 1)).toBe(false);
  });

  it('while Guessing: the turn player picks among all slots; submit needs a slot', () => {
    const g = game([ana({ state: 'Guessing' }), player('ben')], { state: 'Guessing' });
    const m = guessModel(g, perspectiveOf(g, ids.ana));
    expect(m.phase).toBe('guessing');
    expect(m.you).toBe(true);
    expect(m.allowNone).toBe(false);
    expect(m.options.map((o) => [o.slot.id, o.disabled])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(canSubmit(m, null)).toBe(false);
    expect(canSubmit(m, 'none')).toBe(false);
    expect(canSubmit(m, 2)).toBe(true);
    expect(submittedSlot(m, 2)).toBe(2);
    // the others wait, listing who they wait for
    const w = guessModel(g, perspectiveOf(g, ids.ben));
    expect(w.phase).toBe('waiting');
    expect(w.waitingOn.map((p) => p.name)).toEqual(['Ana']);
    expect(canSubmit(w, 1)).toBe(false);
  });

  it("while Intercepting: taken slots are disabled and name their takers; 'don't intercept' is offered; submit needs a choice (declining is one)", () => {
    const slots = ana().slots;
    const g = game(
      [ana({ guess: slots[1] }), player('ben', { state: 'Intercepting', years: [2000] }), player('cleo', { guess: slots[2], tokens: 1 })],
      { state: 'Intercepting' },
    );
    const m = guessModel(g, perspectiveOf(g, ids.ben));
    expect(m.phase).toBe('intercepting');
    expect(m.turn?.name).toBe('Ana');
    // the turn player's slots, not Ben's own timeline
    expect(m.options.map((o) => [slotText(o.slot), o.disabled, o.takenBy])).toEqual([
      ['before 1975', false, []],
      ['between 1975 and 1988', true, ['Ana']],
      ['after 1988', true, ['Cleo']],
    ]);
    expect(m.allowNone).toBe(true);
    // issue 26: nothing is sent by a submit with no choice; "don't intercept" is chosen, or its own button
    expect(canSubmit(m, null)).toBe(false);
    expect(canSubmit(m, 'none')).toBe(true);
    expect(canSubmit(m, 1)).toBe(true);
    expect(submittedSlot(m, null)).toBeNull();
    expect(submittedSlot(m, 'none')).toBeNull();
    expect(submittedSlot(m, 1)).toBe(1);
    // a chosen slot that has been taken meanwhile counts as none (docs/product.md#validation)
    expect(choiceTaken(m, 3)).toBe(true);
    expect(submittedSlot(m, 3)).toBeNull();
  });

  it('while Confirming: the confirmer gets yes/no, nobody submits', () => {
    const g = game([ana(), player('ben', { state: 'Confirming' })], { state: 'Confirming' });
    const m = guessModel(g, perspectiveOf(g, ids.ben));
    expect(m.phase).toBe('confirming');
    expect(canSubmit(m, 1)).toBe(false);
    expect(canConfirm(m.actor)).toBe(true);
    expect(canConfirm(perspectiveOf(g, ids.ana).actor)).toBe(false);
  });

  it('steps through slots and "don\'t intercept" with wrap-around, and drops choices that no longer fit', () => {
    const g = game([ana(), player('ben', { state: 'Intercepting' })], { state: 'Intercepting' });
    const m = guessModel(g, perspectiveOf(g, ids.ben));
    expect(stepChoice(m, null, 1)).toBe(1);
    expect(stepChoice(m, 3, 1)).toBe('none');
    expect(stepChoice(m, 'none', 1)).toBe(1);
    expect(stepChoice(m, null, -1)).toBe('none');
    const guessing = guessModel(game([ana({ state: 'Guessing' })], { state: 'Guessing' }), perspectiveOf(game([ana({ state: 'Guessing' })], { state: 'Guessing' }), ids.ana));
    expect(keepChoice(guessing, 'none')).toBeNull();
    expect(keepChoice(guessing, 9)).toBeNull();
    expect(keepChoice(guessing, 2)).toBe(2);
  });
});

describe('skip and claim', () => {
  it('skip: the guessing player with a token', () => {
    expect(canSkip(ana({ state: 'Guessing', tokens: 1 }))).toBe(true);
    expect(canSkip(ana({ state: 'Guessing', tokens: 0 }))).toBe(false);
    expect(canSkip(ana({ state: 'Waiting', tokens: 5 }))).toBe(false);
    expect(canSkip(null)).toBe(false);
  });

  it('claim: the turn player before placing, with 3 tokens (docs/rules.md#a3)', () => {
    expect(canClaim(ana({ state: 'Guessing', tokens: 3 }))).toBe(true);
    expect(canClaim(ana({ state: 'Guessing', tokens: 2 }))).toBe(false);
    expect(canClaim(ana({ state: 'Waiting', tokens: 3 }))).toBe(false);
    expect(canClaim(player('ben', { state: 'Intercepting', tokens: 5 }))).toBe(false);
  });

  it('the Local claim menu lists players with at least 3 tokens, enabling who may claim now', () => {
    const g = game([ana({ state: 'Guessing', tokens: 3 }), player('ben', { tokens: 4 }), player('cleo', { tokens: 2 })]);
    expect(claimCandidates(g).map((c) => [c.player.name, c.enabled])).toEqual([
      ['Ana', true],
      ['Ben', false],
    ]);
  });
});

describe('the game-ended dialog', () => {
  const standings = [player('ana', { years: [1970, 1980], tokens: 1 }), player('ben', { years: [1970, 1980, 1990], tokens: 0 }), player('cleo', { years: [1970, 1980], tokens: 4 })];

  it('orders the final score by hits, then tokens', () => {
    const r = endResult(standings, standings[1] ?? null, ids.ana, false);
    expect(r.rows.map((row) => [row.name, row.tokens, row.hits, row.winner])).toEqual([
      ['Ben', 0, 3, true],
      ['Cleo', 4, 2, false],
      ['Ana', 1, 2, false],
    ]);
  });

  it('says you win, X wins, or no one wins', () => {
    expect(endResult(standings, standings[1] ?? null, ids.ben, false)).toMatchObject({ outcome: 'you' });
    expect(endResult(standings, standings[1] ?? null, ids.ana, false)).toMatchObject({ outcome: 'other', winnerName: 'Ben' });
    expect(endResult(standings, null, ids.ana, false)).toMatchObject({ outcome: 'nobody', winnerName: null });
    // one device for everybody: the winner is named, never "you"
    expect(endResult(standings, standings[1] ?? null, ids.ben, true)).toMatchObject({ outcome: 'other' });
  });
});

describe('the settings dialog', () => {
  const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

  it('has a tri-state select-all', () => {
    expect(selectAllState(new Set(), all)).toBe(false);
    expect(selectAllState(new Set(['a', 'c']), all)).toBe('indeterminate');
    expect(selectAllState(new Set(all), all)).toBe(true);
    // unknown ids (a pack deleted meanwhile) do not count
    expect(selectAllState(new Set(['zzz']), all)).toBe(false);
    expect([...toggleAll(new Set(['a']), all)]).toEqual(all);
    expect([...toggleAll(new Set(all), all)]).toEqual([]);
  });

  it('picks N distinct packs at random, N within 1..packs (default 5)', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const five = randomPacks(all, 5, random);
    expect(five.size).toBe(5);
    expect([...five].every((id) => all.includes(id))).toBe(true);
    expect(randomPacks(all, 99, random).size).toBe(7);
    expect(randomPacks(all, 0, random).size).toBe(1);
    expect(randomPacks([], 5, random).size).toBe(0);
    expect(clampRandomCount('', 7)).toBe(1);
    expect(clampRandomCount('12', 7)).toBe(7);
    expect(clampRandomCount('3', 7)).toBe(3);
    expect(clampRandomCount('-2', 7)).toBe(1);
  });

  it('clamps numbers as the spec says (empty → the minimum)', () => {
    expect(clampSetting('goal', '')).toBe(1);
    expect(clampSetting('goal', '0')).toBe(1);
    expect(clampSetting('goal', '500')).toBe(100);
    expect(clampSetting('start_tokens', '')).toBe(0);
    expect(clampSetting('hit_duration', '')).toBe(1);
    expect(clampSetting('intercept_timeout', '45')).toBe(45);
  });
});

describe('countdown', () => {
  it('counts whole seconds and speaks only at a few moments', () => {
    expect(secondsLeft(10_500, 0)).toBe(11);
    expect(secondsLeft(0, 5)).toBe(0);
    const spoken = Array.from({ length: 61 }, (_, i) => 60 - i).filter((left) => shouldAnnounce(left, 60));
    expect(spoken).toEqual([30, 10, 5]);
    expect(Array.from({ length: 121 }, (_, i) => 120 - i).filter((left) => shouldAnnounce(left, 120))).toEqual([60, 30, 10, 5]);
    expect([30, 10, 5].filter((left) => shouldAnnounce(left, 20))).toEqual([10, 5]);
  });
});
