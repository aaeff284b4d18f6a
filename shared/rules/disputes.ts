import { DISPUTE_WINDOW_SECONDS } from './constants.ts';
import { fail } from './errors.ts';
import { Rng } from './rng.ts';
import { hitKey } from './slots.ts';
import { clueOf, disputePayload, hitPayload, playerPayload } from './views.ts';
import type { Action, ActionContext, ActionResult, Dispute, Game, GameEvent, GameUpdate, Hit, Player, PlayerPayload, Rejudge } from './types.ts';

/**
 * Year disputes of the last revealed card (docs/rules.md#disputes), the part of
 * a step the engine hands over. A `changed` vote re-judges by replay: the game
 * as it was before the revealing action, with the card's year replaced, through
 * every action accepted since. The re-judged table is then exactly the one the
 * same actions would have made had the card carried that year all along.
 */
export interface DisputeStep {
  g: Game;
  /** The time the handler sees: a paused game's clock stands still at the dispute. */
  now: number;
  /** The real time of the action (votes, the vote's timeout, the pause's length). */
  clock: number;
  events: GameEvent[];
  rng: Rng;
  seats: Rng;
  deleted: boolean;
  /** The card this step revealed, if any. */
  revealed: Hit | null;
  /** applyAction, for the replay (passed in: the engine imports this module). */
  apply: (game: Game, action: Action, ctx: ActionContext) => ActionResult;
}

/** The dispute being voted on, if any: the game is paused. */
export function openDispute(g: Game): Dispute | null {
  return g.dispute && g.dispute.outcome === null ? g.dispute : null;
}

/** Refuses the actions that move the play on while the table votes. */
export function refuseWhilePaused(g: Game): void {
  if (openDispute(g)) fail('dispute_open');
}

/**
 * Whether the last revealed card may be disputed at `now`: until the end of its
 * reveal time, and after that while the game still waits for its confirmation.
 */
export function mayDispute(g: Game, now: number): boolean {
  const r = g.rejudge;
  if (!r || openDispute(g)) return false;
  return now <= r.until || (g.state === 'Confirming' && !!g.hit && hitKey(g.hit) === hitKey(r.hit));
}

/** The actions that only ever run while a round's table is not in play; they end the window (a replay could not repeat them). */
const SETUP = new Set<Action['type']>(['join', 'join_local', 'update']);
const isSetup = (a: Action) => SETUP.has(a.type) || (a.type === 'control' && a.player === undefined);

/** Before the handler: a paused game's clock stands still and its phase deadline is the suspended one; a closed window is dropped. */
export function beforeStep(s: DisputeStep, action: Action): void {
  const g = s.g;
  const d = openDispute(g);
  if (d) {
    if (action.type === 'vote' || action.type === 'timeout' || action.type === 'dispute') return;
    s.now = d.at;
    g.deadline = g.rejudge?.suspended ?? null;
  } else if (g.rejudge && !mayDispute(g, s.clock)) {
    g.rejudge = null;
  }
}

/** After the handler: opens a new window on a reveal, logs what the replay needs, keeps a paused game paused. */
export function afterStep(s: DisputeStep, before: Game, action: Action): void {
  const g = s.g;
  if (s.deleted || action.type === 'start') {
    g.dispute = null;
    g.disputes_used = {};
    g.rejudge = null;
    return;
  }
  const paused = openDispute(before);
  const roundEnded = before.state !== 'Open' && g.state === 'Open';
  const voting = action.type === 'dispute' || action.type === 'vote' || (paused && action.type === 'timeout');
  if (voting) return;
  if (paused && openDispute(g)) {
    if (s.revealed || roundEnded) {
      // the vote's card can no longer be re-judged (another card was revealed, the round was stopped): its year stays
      decide(s, 'kept', 'absent');
      return;
    }
    const rec = g.rejudge as Rejudge;
    const until = (g.dispute as Dispute).until;
    g.rejudge = { ...rec, log: [...rec.log, { action, now: s.now }], suspended: g.deadline };
    g.deadline = until === null ? null : { state: 'Disputing', at: until };
    for (const e of s.events) {
      if (e.data.deadline === undefined) continue;
      if (until === null) delete e.data.deadline;
      else e.data.deadline = until;
    }
    // a leaver's vote goes, and the majority is counted among those still seated
    const seated = new Set(g.players.map((p) => p.id));
    const d = g.dispute as Dispute;
    if (d.votes.some((v) => !seated.has(v.player))) g.dispute = { ...d, votes: d.votes.filter((v) => seated.has(v.player)) };
    settle(s);
    return;
  }
  if (s.revealed) {
    g.dispute = null;
    // with disputes off nothing is kept for a replay
    const window = Math.max(g.settings.reveal_time, DISPUTE_WINDOW_SECONDS) * 1000;
    g.rejudge = g.settings.disputes === 0 ? null : { hit: s.revealed, until: s.now + window, base: { ...before, rejudge: null }, log: [{ action, now: s.now }], suspended: null };
    return;
  }
  if (!g.rejudge || paused) return;
  if (isSetup(action) || roundEnded) {
    g.rejudge = null;
    return;
  }
  g.rejudge = { ...g.rejudge, log: [...g.rejudge.log, { action, now: s.now }] };
  if (!mayDispute(g, s.clock)) g.rejudge = null;
}

/** `dispute`: `p` disputes the last revealed card's year, proposing `year`; the game pauses for the vote. */
export function raiseDispute(s: DisputeStep, p: Player, year: number): void {
  const g = s.g;
  if (g.settings.disputes === 0) fail('disputes_off');
  if (openDispute(g)) fail('dispute_open');
  if (!mayDispute(g, s.clock)) fail('nothing_to_dispute');
  const used = g.disputes_used ?? {};
  if ((used[p.id] ?? 0) >= g.settings.disputes) fail('no_disputes_left');
  const rec = g.rejudge as Rejudge;
  if (year === rec.hit.year) fail('same_year');
  const until = g.settings.dispute_timeout > 0 ? s.clock + g.settings.dispute_timeout * 1000 : null;
  g.dispute = { hit: rec.hit, year, by: p.id, votes: [{ player: p.id, take: true }], until, at: s.clock, outcome: null };
  g.disputes_used = { ...used, [p.id]: (used[p.id] ?? 0) + 1 };
  g.rejudge = { ...rec, suspended: g.deadline };
  g.deadline = until === null ? null : { state: 'Disputing', at: until };
  emit(s, 'dispute', { dispute: disputePayload(g, g.dispute), players: [playerPayload(p)], ...(until === null ? {} : { deadline: until }) });
  settle(s);
}

/** `vote`: seat `p` takes the proposed year or keeps the card's. */
export function castVote(s: DisputeStep, p: Player, take: boolean): void {
  const g = s.g;
  const d = openDispute(g) ?? fail('no_dispute');
  if (d.votes.some((v) => v.player === p.id)) fail('already_voted');
  g.dispute = { ...d, votes: [...d.votes, { player: p.id, take }] };
  emit(s, 'vote', { dispute: disputePayload(g, g.dispute), players: [playerPayload(p)] });
  settle(s);
}

/**
 * The vote's time ran out: the year changes only if a majority of the seated
 * players took it (which `settle` decides at once), so a dispute nobody else
 * answered keeps the year; silence is no vote for a change.
 */
export function voteTimeout(s: DisputeStep): void {
  const d = openDispute(s.g) as Dispute;
  if (d.until === null || s.clock < d.until) fail('no_deadline');
  const take = d.votes.filter((v) => v.take).length;
  decide(s, take * 2 > s.g.players.length ? 'changed' : 'kept', 'timeout');
}

/** Decides as soon as the takers are a strict majority of the seated players, or can no longer become one. */
function settle(s: DisputeStep): void {
  const d = openDispute(s.g);
  if (!d) return;
  const seated = s.g.players.length;
  const take = d.votes.filter((v) => v.take).length;
  if (take * 2 > seated) decide(s, 'changed');
  else if ((take + seated - d.votes.length) * 2 <= seated) decide(s, 'kept');
}

/**
 * Ends the vote: `changed` replays the reveal with the proposed year, `kept`
 * resumes the game as it was. Either way the phase's deadline and the reveal
 * time move on by the pause, and the window closes (one dispute per reveal).
 */
function decide(s: DisputeStep, outcome: 'kept' | 'changed', cause?: 'timeout' | 'absent'): void {
  const g = s.g;
  const d = openDispute(g) as Dispute;
  const rec = g.rejudge as Rejudge;
  const decided: Dispute = { ...d, outcome };
  let next: Game;
  if (outcome === 'changed') {
    next = { ...replay(s, rec, d.year), dispute: decided, disputes_used: g.disputes_used ?? {}, rejudge: null };
    s.rng = new Rng(next.rng);
    s.seats = next.seat_rng === undefined ? s.rng : new Rng(next.seat_rng);
  } else {
    next = { ...g, dispute: decided, rejudge: null, deadline: cause === 'absent' ? g.deadline : rec.suspended };
  }
  const pause = Math.max(0, s.clock - d.at);
  if (next.deadline) next.deadline = { ...next.deadline, at: next.deadline.at + pause };
  if (next.reveal_until != null) next.reveal_until += pause;
  s.g = next;
  emit(s, 'dispute', { dispute: disputePayload(next, decided), ...(cause ? { cause } : {}) });
  emit(s, 'change_state', tableOf(next, outcome === 'changed' ? { ...d.hit, year: d.year } : d.hit));
}

/** The game the same actions make had the card carried `year` from the start. */
function replay(s: DisputeStep, rec: Rejudge, year: number): Game {
  let game = withYear(rec.base, rec.hit, year);
  for (const { action, now } of rec.log) {
    const r = s.apply(game, action, { now });
    // an action the new year makes impossible (a confirmation of a round now won) is skipped
    if (r.ok && !r.deleted) game = r.game;
  }
  return game;
}

/** `base` with the card `hit` carrying `year` wherever it sits. */
function withYear(base: Game, hit: Hit, year: number): Game {
  const key = hitKey(hit);
  const fixed: Hit = { ...hit, year };
  const fix = (h: Hit) => (hitKey(h) === key ? fixed : h);
  const fixAll = (hits: Hit[]) => (hits.some((h) => hitKey(h) === key) ? hits.map(fix) : hits);
  return {
    ...base,
    deck: fixAll(base.deck),
    discard: fixAll(base.discard),
    current: base.current && fix(base.current),
    hit: base.hit && fix(base.hit),
    players: base.players.map((p) => ({ ...p, hits: fixAll(p.hits) })),
  };
}

/** The re-judged table for the `change_state` after a vote: who holds the card now, and the round's end if it ended. */
function tableOf(g: Game, card: Hit): GameUpdate {
  const data: GameUpdate = { state: g.state, players: g.players.map(playerPayload), hit: hitPayload(card) };
  if (g.deadline) data.deadline = g.deadline.at;
  const clue = clueOf(g);
  if (clue) data.clue = clue;
  const holders: PlayerPayload[] = g.state === 'Open' ? (g.standings ?? []) : data.players ?? [];
  const holder = holders.find((p) => p.hits.some((h) => h.id === card.id));
  if (holder) data.last_scored = holder;
  if (g.state === 'Open' && g.standings) {
    data.standings = g.standings;
    if (g.winner) data.winner = g.winner;
  }
  return data;
}

function emit(s: DisputeStep, event: GameEvent['event'], data: GameUpdate): void {
  s.events.push({ event, data });
}
