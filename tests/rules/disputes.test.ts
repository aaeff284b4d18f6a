import { describe, expect, it } from 'vitest';
import { applyAction, disputableOf, DISPUTE_WINDOW_SECONDS, slotsFor, isCorrect, viewGame, type Action, type Game, type GameEvent, type Hit, type Player, type Slot } from '../../shared/rules/index.ts';
import { act, makeHits, newGame, reject, SEAT_KEY, uid } from './helpers.ts';

/**
 * Year disputes (docs/rules.md#disputes). The reference for an exact re-judge
 * is the same game played from the start with the corrected year: the same
 * actions at the same times, without the dispute and its votes.
 */

const T0 = 1_700_000_000_000;
const A = uid(1);
const B = uid(2);
const C = uid(3);
const D = uid(4);
const HITS = makeHits(120);

/** A game driven action by action, remembering what it did for the reference game. */
class Table {
  g: Game;
  now = T0;
  events: GameEvent[] = [];
  readonly log: { action: Action; now: number }[] = [];
  constructor(opts: { players?: string[]; settings?: Record<string, unknown>; mode?: 'Public' | 'Local' } = {}) {
    this.g = newGame(opts.mode ?? 'Public', { settings: { reveal_time: 3, ...opts.settings } });
    for (const id of (opts.players ?? [A, B, C]).slice(1)) this.do({ type: 'join', by: id, name: `p${id.slice(-1)}` });
  }
  do(action: Action, dt = 0): GameEvent[] {
    this.now += dt;
    const r = act(this.g, action, this.now);
    this.g = r.game;
    this.log.push({ action, now: this.now });
    this.events = r.events;
    return r.events;
  }
  refuse(action: Action, dt = 0): string {
    return reject(this.g, action, this.now + dt).code;
  }
  start(): void {
    this.do({ type: 'start', by: A, hits: HITS });
  }
  get turn(): Player {
    return this.g.players.find((p) => p.turn_player) as Player;
  }
  slots(): Slot[] {
    return slotsFor(this.turn.hits);
  }
  /** A slot of the turn player's timeline where the hidden card fits (`right`) or not, skipping `taken`. */
  slot(right: boolean, taken: Slot[] = []): Slot {
    const year = (this.g.current as Hit).year;
    const s = this.slots().find((sl) => isCorrect(sl, year) === right && !taken.some((t) => t.id === sl.id));
    if (!s) throw new Error('no such slot');
    return s;
  }
  others(): Player[] {
    return this.g.players.filter((p) => !p.turn_player);
  }
}

/** A year inside `slot`, and one outside it. */
const inside = (s: Slot) => (s.from_year === 0 ? s.to_year - 1 : s.to_year === 0 ? s.from_year + 1 : Math.floor((s.from_year + s.to_year) / 2));
const outside = (s: Slot) => (s.from_year === 0 ? 3000 : 1000);

/** The same actions from the start, the card `hitId` carrying `year` all along, without disputes and votes. */
function reference(t: Table, hitId: string, year: number): Game {
  let g = newGame('Public', { settings: { reveal_time: 3, ...settingsOf(t) } });
  for (const { action, now } of t.log) {
    if (action.type === 'dispute' || action.type === 'vote' || action.type === 'join') {
      if (action.type === 'join') g = act(g, action, now).game;
      continue;
    }
    const a: Action = action.type === 'start' ? { ...action, hits: action.hits.map((h) => (h.id === hitId ? { ...h, year } : h)) } : action;
    const r = applyAction(g, a, { now });
    if (r.ok) g = r.game;
  }
  return g;
}
function settingsOf(t: Table) {
  const { goal, disputes, dispute_timeout, start_tokens } = t.g.settings;
  return { goal, disputes, dispute_timeout, start_tokens };
}

const cards = (hits: readonly { id: string; year: number }[]) => hits.map((h) => `${h.id}@${h.year}`);
/** What the play is made of (not the dispute bookkeeping). */
function table(g: Game) {
  return {
    state: g.state,
    players: g.players.map((p) => ({ id: p.id, hits: cards(p.hits), tokens: p.tokens, state: p.state, turn: p.turn_player, guess: p.guess?.id ?? null })),
    winner: g.winner?.id ?? null,
    standings: g.standings?.map((p) => ({ id: p.id, hits: cards(p.hits), tokens: p.tokens })) ?? null,
    current: g.current?.id ?? null,
    hit: g.hit ? cards([g.hit]) : null,
    last_scored: g.last_scored,
    intercepts: g.intercepts,
    discard: cards(g.discard),
    deck_at: g.deck_at,
    draws: g.draws,
    deadline: g.deadline,
    reveal_until: g.reveal_until,
  };
}

/** Disputes the last reveal proposing `year`; the other seats vote `take` at once (no pause). */
function disputeAndVote(t: Table, by: string, year: number, take: boolean): GameEvent[] {
  const events = [...t.do({ type: 'dispute', by, year })];
  for (const p of t.g.players) {
    if (t.g.dispute?.outcome !== null) break;
    if (p.id !== by) events.push(...t.do({ type: 'vote', by: p.id, take }));
  }
  return events;
}

function expectExact(t: Table, hitId: string, year: number): void {
  expect(t.g.dispute?.outcome).toBe('changed');
  expect(table(t.g)).toEqual(table(reference(t, hitId, year)));
}

describe('an exact re-judge (docs/rules.md#disputes)', () => {
  it('in Confirming, before the answer: a wrong guess becomes right, and play goes on as in the reference', () => {
    const t = new Table();
    t.start();
    const turn = t.turn.id;
    const slot = t.slot(false);
    t.do({ type: 'guess', by: turn, slot: slot.id }, 1000);
    for (const p of t.others()) t.do({ type: 'guess', by: p.id, slot: null }, 500);
    expect(t.g.state).toBe('Confirming');
    const card = t.g.hit as Hit;
    expect(t.g.last_scored).toBeNull();
    disputeAndVote(t, turn, inside(slot), true);
    expectExact(t, card.id, inside(slot));
    expect(t.g.players.find((p) => p.id === turn)?.hits.map((h) => h.id)).toContain(card.id);
    // the game carries on exactly as the reference does
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    t.do({ type: 'confirm', by: confirmer.id, confirm: true }, 2000);
    expect(table(t.g)).toEqual(table(reference(t, card.id, inside(slot))));
  });

  it('after a quick confirmation, in the next turn: a right guess loses its card, the next turn stays as it is', () => {
    const t = new Table();
    t.start();
    const turn = t.turn.id;
    const slot = t.slot(true);
    t.do({ type: 'guess', by: turn, slot: slot.id }, 1000);
    for (const p of t.others()) t.do({ type: 'guess', by: p.id, slot: null });
    const card = t.g.hit as Hit;
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    t.do({ type: 'confirm', by: confirmer.id, confirm: true }, 500);
    t.do({ type: 'guess', by: t.turn.id, slot: t.slot(true).id }, 500);
    expect(t.g.state).toBe('Intercepting');
    expect(disputableOf(t.g)?.hit.id).toBe(card.id);
    disputeAndVote(t, C, outside(slot), true);
    expectExact(t, card.id, outside(slot));
    expect(t.g.players.find((p) => p.id === turn)?.hits.map((h) => h.id)).not.toContain(card.id);
    expect(t.g.discard.map((h) => h.id)).toContain(card.id);
  });

  it('a reveal that won the round: the re-judge un-wins it and the round continues', () => {
    const t = new Table({ settings: { goal: 2 } });
    t.start();
    const turn = t.turn.id;
    const slot = t.slot(true);
    t.do({ type: 'guess', by: turn, slot: slot.id }, 1000);
    for (const p of t.others()) t.do({ type: 'guess', by: p.id, slot: null });
    expect(t.g.state).toBe('Open');
    expect(t.g.winner?.id).toBe(turn);
    const card = t.g.standings?.find((p) => p.id === turn)?.hits.at(-1);
    expect(disputableOf(t.g)?.hit.id).toBe(card?.id);
    const events = disputeAndVote(t, B === turn ? C : B, outside(slot), true);
    expectExact(t, card!.id, outside(slot));
    expect(t.g.state).toBe('Confirming');
    expect(t.g.winner).toBeNull();
    const last = events.at(-1) as GameEvent;
    expect(last.event).toBe('change_state');
    expect(last.data.state).toBe('Confirming');
    expect(last.data.hit).toMatchObject({ id: card!.id, year: outside(slot) });
  });

  it('a reveal that won the round for the turn player makes an interceptor win instead', () => {
    const t = new Table({ settings: { goal: 2 } });
    t.start();
    const turn = t.turn.id;
    const right = t.slot(true);
    t.do({ type: 'guess', by: turn, slot: right.id }, 1000);
    const [first, second] = t.others() as [Player, Player];
    const theirs = t.slots().find((s) => s.id !== right.id) as Slot;
    t.do({ type: 'guess', by: first.id, slot: theirs.id });
    t.do({ type: 'guess', by: second.id, slot: null });
    expect(t.g.winner?.id).toBe(turn);
    const card = t.g.standings?.find((p) => p.id === turn)?.hits.at(-1) as { id: string };
    const year = inside(theirs);
    disputeAndVote(t, first.id, year, true);
    expectExact(t, card.id, year);
    expect(t.g.winner?.id).toBe(first.id);
    expect(t.events.find((e) => e.event === 'change_state')?.data.winner?.id).toBe(first.id);
  });

  describe('with interceptions', () => {
    /** A turn whose player holds two cards (three slots): his guess, one interceptor's, and one slot nobody took. */
    function intercepted(turnRight: boolean) {
      const t = new Table({ players: [A, B, C, D], settings: { start_tokens: 3 } });
      t.start();
      // a first round where every turn player wins his card
      for (let i = 0; i < 4; i++) {
        t.do({ type: 'guess', by: t.turn.id, slot: t.slot(true).id }, 1000);
        for (const p of t.others()) t.do({ type: 'guess', by: p.id, slot: null });
        t.do({ type: 'confirm', by: (t.g.players.find((p) => p.state === 'Confirming') as Player).id, confirm: false }, 5000);
      }
      expect(t.turn.hits).toHaveLength(2);
      const year = (t.g.current as Hit).year;
      const turnSlot = t.slot(turnRight);
      t.do({ type: 'guess', by: t.turn.id, slot: turnSlot.id }, 1000);
      const [i1, ...rest] = t.others() as [Player, ...Player[]];
      const wrong = t.slots().filter((s) => s.id !== turnSlot.id && !isCorrect(s, year));
      // leave an end of the timeline free: a year in it belongs to no guessed slot
      const isEnd = (s: Slot) => s.from_year === 0 || s.to_year === 0;
      const theirs = (wrong.find((c) => t.slots().some((s) => s.id !== turnSlot.id && s.id !== c.id && isEnd(s))) ?? wrong[0]) as Slot;
      t.do({ type: 'guess', by: i1.id, slot: theirs.id });
      for (const p of rest) t.do({ type: 'guess', by: p.id, slot: null });
      return { t, slots: slotsFor(t.turn.hits.filter((h) => h.id !== t.g.hit?.id)), turnSlot, theirs, interceptor: i1.id, card: t.g.hit as Hit };
    }

    it('the card moves from the turn player to an interceptor', () => {
      const { t, theirs, interceptor, card } = intercepted(true);
      expect(t.g.last_scored).toBe(t.turn.id);
      disputeAndVote(t, interceptor, inside(theirs), true);
      expectExact(t, card.id, inside(theirs));
      expect(t.g.last_scored).toBe(interceptor);
    });

    it('the card moves from the turn player to nobody', () => {
      const { t, slots, turnSlot, theirs, card } = intercepted(true);
      // a year in the slot nobody took
      const free = slots.find((s) => s.id !== turnSlot.id && s.id !== theirs.id) as Slot;
      const year = [inside(free), free.from_year + 1, free.to_year - 1].find((y) => y > 0 && isCorrect(free, y) && !isCorrect(turnSlot, y) && !isCorrect(theirs, y)) as number;
      expect(year).toBeDefined();
      disputeAndVote(t, B, year, true);
      expectExact(t, card.id, year);
      expect(t.g.last_scored).toBeNull();
    });

    it('the card moves from nobody to an interceptor', () => {
      const { t, theirs, interceptor, card } = intercepted(false);
      expect(t.g.last_scored).toBeNull();
      disputeAndVote(t, interceptor, inside(theirs), true);
      expectExact(t, card.id, inside(theirs));
      expect(t.g.last_scored).toBe(interceptor);
    });
  });
});

describe('the vote', () => {
  function revealed(players = [A, B, C], settings: Record<string, unknown> = {}) {
    const t = new Table({ players, settings });
    t.start();
    const slot = t.slot(false);
    t.do({ type: 'guess', by: t.turn.id, slot: slot.id }, 1000);
    for (const p of t.others()) if (p.state === 'Intercepting') t.do({ type: 'guess', by: p.id, slot: null });
    return { t, slot, card: t.g.hit as Hit };
  }

  it('pauses the game: the vote has the deadline, the phase deadline moves later by the pause', () => {
    const { t, slot } = revealed();
    const phase = t.g.deadline!;
    const until = t.g.reveal_until!;
    const events = t.do({ type: 'dispute', by: A, year: inside(slot) }, 500);
    expect(events.map((e) => e.event)).toEqual(['dispute']);
    expect(events[0]?.data).toMatchObject({ players: [{ id: A }], deadline: t.now + 60_000, dispute: { by: A, year: inside(slot), outcome: null, votes: [{ player: A, take: true }], voters: 3 } });
    expect(t.g.deadline).toEqual({ state: 'Disputing', at: t.now + 60_000 });
    expect(viewGame(t.g, A)!.deadline).toBe(t.now + 60_000);
    expect(disputableOf(t.g)).toBeNull();
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    for (const a of [
      { type: 'guess', by: A, slot: 1 },
      { type: 'confirm', by: confirmer.id, confirm: true },
      { type: 'skip', by: A },
      { type: 'claim', by: A },
      { type: 'replace_hit' },
      { type: 'dispute', by: B, year: 1000 },
    ] as Action[])
      expect(t.refuse(a)).toBe('dispute_open');
    expect(t.refuse({ type: 'timeout' }, 59_000)).toBe('no_deadline');
    t.do({ type: 'vote', by: B, take: false }, 10_000);
    t.do({ type: 'vote', by: C, take: false }, 10_000);
    expect(t.g.dispute?.outcome).toBe('kept');
    expect(t.g.deadline).toEqual({ ...phase, at: phase.at + 20_000 });
    expect(t.g.reveal_until).toBe(until + 20_000);
  });

  it('a kept year changes nothing but the bookkeeping', () => {
    const { t, slot, card } = revealed();
    const before = t.g;
    const events = disputeAndVote(t, B, inside(slot), false);
    expect(events.map((e) => e.event)).toEqual(['dispute', 'vote', 'vote', 'dispute', 'change_state']);
    expect(table(t.g)).toEqual(table(before));
    expect(t.g.dispute).toMatchObject({ outcome: 'kept', hit: { id: card.id, year: card.year } });
    expect(t.g.disputes_used).toEqual({ [B]: 1 });
    expect(viewGame(t.g, A)!.dispute?.outcome).toBe('kept');
  });

  it('a strict majority of the seated players decides as soon as it is reached', () => {
    const { t, slot } = revealed([A, B, C, D]);
    t.do({ type: 'dispute', by: A, year: inside(slot) });
    t.do({ type: 'vote', by: B, take: true });
    expect(t.g.dispute?.outcome).toBeNull(); // 2 of 4 is no majority
    expect(t.refuse({ type: 'vote', by: B, take: false })).toBe('already_voted');
    expect(t.refuse({ type: 'vote', by: A, take: false })).toBe('already_voted');
    const events = t.do({ type: 'vote', by: C, take: true });
    expect(events.map((e) => e.event)).toEqual(['vote', 'dispute', 'change_state']);
    expect(t.g.dispute?.outcome).toBe('changed');
    expect(t.refuse({ type: 'vote', by: D, take: true })).toBe('no_dispute');
  });

  it('is kept as soon as the proposed year can no longer win', () => {
    const { t, slot } = revealed([A, B, C, D]);
    t.do({ type: 'dispute', by: A, year: inside(slot) });
    t.do({ type: 'vote', by: B, take: false });
    expect(t.g.dispute?.outcome).toBeNull();
    t.do({ type: 'vote', by: C, take: false });
    expect(t.g.dispute?.outcome).toBe('kept');
  });

  it('at the timeout the year stays unless a majority of the seated players took it: silence is no vote for a change', () => {
    const tie = revealed([A, B, C, D]);
    tie.t.do({ type: 'dispute', by: A, year: inside(tie.slot) });
    tie.t.do({ type: 'vote', by: B, take: false });
    const events = tie.t.do({ type: 'timeout' }, 60_000);
    expect(events[0]).toMatchObject({ event: 'dispute', data: { cause: 'timeout', dispute: { outcome: 'kept' } } });

    // two takes, nobody against, two silent: half of the seated is no majority
    const more = revealed([A, B, C, D]);
    const before = more.t.g.last_scored;
    more.t.do({ type: 'dispute', by: A, year: inside(more.slot) });
    more.t.do({ type: 'vote', by: B, take: true });
    expect(more.t.g.dispute?.outcome).toBeNull();
    more.t.do({ type: 'timeout' }, 60_000);
    expect(more.t.g.dispute?.outcome).toBe('kept');
    expect(more.t.g.last_scored).toBe(before);

    // alone: the disputer's own vote never decides
    const alone = revealed([A, B, C]);
    alone.t.do({ type: 'dispute', by: A, year: inside(alone.slot) });
    alone.t.do({ type: 'timeout' }, 60_000);
    expect(alone.t.g.dispute?.outcome).toBe('kept');
  });

  it('with no time limit there is no deadline while the table votes', () => {
    const { t, slot } = revealed([A, B, C], { dispute_timeout: 0 });
    t.do({ type: 'dispute', by: A, year: inside(slot) });
    expect(t.g.deadline).toBeNull();
    expect(t.g.dispute?.until).toBeNull();
    expect(t.refuse({ type: 'timeout' }, 1_000_000)).toBe('no_deadline');
  });

  it('a leaver’s vote goes and the majority is recounted among those still seated', () => {
    const { t, slot } = revealed([A, B, C, D]);
    t.do({ type: 'dispute', by: A, year: inside(slot) });
    t.do({ type: 'vote', by: B, take: true });
    t.do({ type: 'vote', by: C, take: false });
    expect(t.g.dispute?.outcome).toBeNull();
    // C leaves: 2 takes of 3 seated
    const events = t.do({ type: 'leave', by: C });
    expect(events.map((e) => e.event)).toContain('dispute');
    expect(t.g.dispute?.outcome).toBe('changed');
    expect(t.g.dispute?.votes.map((v) => v.player)).toEqual([A, B]);
    expect(t.g.players).toHaveLength(3);
  });

  it('renames, presence and leaving work while the table votes; the game stays paused', () => {
    const { t, slot } = revealed([A, B, C, D]);
    t.do({ type: 'dispute', by: A, year: inside(slot) });
    const until = t.g.dispute!.until!;
    t.do({ type: 'presence', player: D, connected: false }, 1000);
    t.do({ type: 'rename', player: D, name: 'dee' });
    expect(t.g.deadline).toEqual({ state: 'Disputing', at: until });
    expect(t.g.dispute?.outcome).toBeNull();
  });
});

describe('the window and the limits', () => {
  function reveal(t: Table, right = false, dt = 1000) {
    const slot = t.slot(right);
    const as = (p: Player) => (p.virtual ? { by: A, player: p.id } : { by: p.id });
    t.do({ type: 'guess', ...as(t.turn), slot: slot.id }, dt);
    for (const p of t.others()) if (p.state === 'Intercepting') t.do({ type: 'guess', ...as(p), slot: null });
    return slot;
  }

  it('nothing to dispute before a reveal, after its reveal time once confirmed, and after a decided dispute', () => {
    const t = new Table();
    t.start();
    expect(t.refuse({ type: 'dispute', by: A, year: 1999 })).toBe('nothing_to_dispute');
    expect(viewGame(t.g, A)!.disputable).toBeNull();
    const slot = reveal(t);
    // a reveal time of 3 s: the window is the shortest one, DISPUTE_WINDOW_SECONDS
    expect(viewGame(t.g, A)!.disputable).toEqual({ hit: expect.objectContaining({ id: t.g.hit!.id }), until: t.now + DISPUTE_WINDOW_SECONDS * 1000 });
    // still disputable after the window while its confirmation is awaited
    expect(t.refuse({ type: 'dispute', by: A, year: (t.g.hit as Hit).year }, 30_000)).toBe('same_year');
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    t.do({ type: 'confirm', by: confirmer.id, confirm: false }, 30_000);
    expect(t.refuse({ type: 'dispute', by: A, year: inside(slot) })).toBe('nothing_to_dispute');
    expect(viewGame(t.g, A)!.disputable).toBeNull();
  });

  it('a quick confirmation leaves the card disputable until the window ends (the reveal time, at least DISPUTE_WINDOW_SECONDS)', () => {
    const t = new Table();
    t.start();
    const slot = reveal(t);
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    t.do({ type: 'confirm', by: confirmer.id, confirm: false });
    expect(t.refuse({ type: 'dispute', by: A, year: inside(slot) }, DISPUTE_WINDOW_SECONDS * 1000 + 1)).toBe('nothing_to_dispute');
    t.do({ type: 'dispute', by: A, year: inside(slot) }, DISPUTE_WINDOW_SECONDS * 1000);
    expect(t.g.dispute?.outcome).toBeNull();
  });

  it('one dispute per reveal, a limit per seat and round, reset by the start', () => {
    const t = new Table({ settings: { disputes: 1 } });
    t.start();
    let slot = reveal(t);
    disputeAndVote(t, A, inside(slot), false);
    expect(t.refuse({ type: 'dispute', by: B, year: inside(slot) })).toBe('nothing_to_dispute');
    const confirmer = t.g.players.find((p) => p.state === 'Confirming') as Player;
    t.do({ type: 'confirm', by: confirmer.id, confirm: false }, 100);
    slot = reveal(t);
    expect(t.g.dispute).toBeNull(); // the new reveal clears the last decided one
    expect(t.refuse({ type: 'dispute', by: A, year: inside(slot) })).toBe('no_disputes_left');
    t.do({ type: 'stop', by: A });
    t.start();
    expect(t.g.disputes_used).toEqual({});
  });

  it('refusals: disputes off, strangers, other seats, Local seats', () => {
    const off = new Table({ settings: { disputes: 0 } });
    off.start();
    reveal(off);
    expect(off.refuse({ type: 'dispute', by: A, year: 1000 })).toBe('disputes_off');
    expect(viewGame(off.g, A)!.disputable).toBeNull();

    const t = new Table();
    t.start();
    reveal(t);
    expect(t.refuse({ type: 'dispute', by: uid(9), year: 1000 })).toBe('not_a_player');
    expect(t.refuse({ type: 'dispute', by: A, player: B, year: 1000 })).toBe('local_only_dispute');
    expect(t.refuse({ type: 'vote', by: A, take: true })).toBe('no_dispute');
    expect(t.refuse({ type: 'vote', by: A, player: B, take: true })).toBe('local_only_vote');

    const local = new Table({ mode: 'Local', players: [A] });
    local.do({ type: 'join_local', by: A, name: 'bob' });
    local.do({ type: 'join_local', by: A, name: 'cid' });
    const [, bob, cid] = local.g.players.map((p) => p.id) as [string, string, string];
    local.do({ type: 'control', by: uid(7), key: SEAT_KEY, player: bob });
    local.start();
    reveal(local);
    expect(local.refuse({ type: 'dispute', by: A, player: uid(99), year: 1000 })).toBe('player_not_found');
    expect(local.refuse({ type: 'dispute', by: uid(7), player: cid, year: 1000 })).toBe('own_seat_only');
    local.do({ type: 'dispute', by: uid(7), year: 1000 });
    expect(local.g.dispute?.by).toBe(bob);
    expect(local.refuse({ type: 'vote', by: uid(7), player: cid, take: true })).toBe('own_seat_only');
    local.do({ type: 'vote', by: A, player: cid, take: true });
    expect(local.g.dispute?.outcome).toBe('changed');
  });

  it('a finished round stays paused: joining and settings wait for the vote', () => {
    const t = new Table({ settings: { goal: 2 } });
    t.start();
    reveal(t, true);
    expect(t.g.state).toBe('Open');
    t.do({ type: 'dispute', by: A === t.g.winner?.id ? B : A, year: 1000 });
    expect(t.refuse({ type: 'join', by: D, name: 'dan' })).toBe('dispute_open');
    expect(t.refuse({ type: 'update', by: A, settings: { goal: 3 }, pack_ids: [] })).toBe('dispute_open');
    expect(t.refuse({ type: 'start', by: A, hits: HITS })).toBe('dispute_open');
  });

  it('a stop during the vote ends it and keeps the year', () => {
    const t = new Table();
    t.start();
    reveal(t);
    t.do({ type: 'dispute', by: B, year: 1000 });
    const events = t.do({ type: 'stop', by: A });
    expect(events.find((e) => e.event === 'dispute')?.data).toMatchObject({ cause: 'absent', dispute: { outcome: 'kept' } });
    expect(t.g.state).toBe('Open');
    expect(t.g.rejudge).toBeNull();
  });

  it('never shows the replay base in views or events', () => {
    const t = new Table();
    t.start();
    reveal(t);
    const view = JSON.stringify(viewGame(t.g, A));
    expect(view).not.toContain('rejudge');
    expect(view).not.toContain('"base"');
  });
});
