import type { GamePayload, PlayerPayload, Slot } from '../../../../shared/protocol/game.ts';
import { COST_CLAIM, COST_INTERCEPT, COST_SKIP, LIMITS, type NumericSetting } from '../../../../shared/rules/constants.ts';
import type { Game } from '../../../../shared/rules/types.ts';
import { localActingPlayer } from '../../../../shared/rules/views.ts';
import { answersOnThisDevice, seatsAfterTurn } from '../../stores/game-events.ts';

/**
 * The game screen's rules, as pure functions of the game payload: whom this
 * device acts for, which slots may be chosen, when submit, skip, claim and
 * confirm are possible, the end dialog's table, the settings dialog's pack
 * selection. Components only render what these return, so the rules are tested
 * without a DOM (tests/client/game-logic.test.ts).
 */

export const turnPlayerOf = (game: Pick<GamePayload, 'players'>): PlayerPayload | null => game.players.find((p) => p.turn_player) ?? null;

/**
 * The seat a Local game's device acts for (docs/product.md#screens), by the engine's own rule
 * (`localActingPlayer` reads only the state and the seats' flags, which a
 * payload has in the same shape as the engine's Game), except that while
 * Intercepting the seats phones play are not the shared screen's.
 */
export function localActor(game: Pick<GamePayload, 'state' | 'players'>): PlayerPayload | null {
  // while Intercepting the shared screen answers for its own seats only: a seat a phone plays answers there
  if (game.state === 'Intercepting') return seatsAfterTurn(game.players).find((p) => p.state === 'Intercepting' && answersOnThisDevice(p)) ?? null;
  const seat = localActingPlayer({ state: game.state, players: game.players } as unknown as Game);
  return seat ? (game.players.find((p) => p.id === seat.id) ?? null) : null;
}

/** Whom the person at this device is in the game. */
export interface Perspective {
  /** The seat this device acts for now: the own seat, the Local acting player, or null for a spectator. */
  actor: PlayerPayload | null;
  /** The own seat (Local: the creator's, or the seat this phone plays), null for spectators. */
  me: PlayerPayload | null;
  /** Local mode: the device acts for whoever's turn it is, so texts name the player instead of saying "you". */
  local: boolean;
  /** A phone playing one name-only seat of a Local game (docs/rules.md#local): that seat is "you", and only it. */
  seat: boolean;
}

export function perspectiveOf(game: Pick<GamePayload, 'state' | 'players' | 'mode'>, userId: string | undefined): Perspective {
  const me = userId ? (game.players.find((p) => p.id === userId && !p.virtual) ?? null) : null;
  if (game.mode === 'Local') {
    const played = userId && !me ? game.players.find((p) => p.virtual && p.controller === userId) : undefined;
    if (played) return { actor: played, me: played, local: false, seat: true };
    return { actor: me ? localActor(game) : null, me, local: true, seat: false };
  }
  return { actor: me, me, local: false, seat: false };
}

/** The `player` field of guess, skip and claim: only Local games name the seat (the engine refuses it elsewhere), the creator's device or a seat's phone. */
export const actingFor = (p: Perspective): { player?: string } => ((p.local || p.seat) && p.actor ? { player: p.actor.id } : {});

// ---------------------------------------------------------------------------
// the guess panel

/** The slot picker's value: a slot id, the explicit "don't intercept", or nothing yet. */
export type Choice = number | 'none' | null;

export type GuessPhase = 'not_started' | 'waiting' | 'guessing' | 'intercepting' | 'confirming';

export interface SlotOption {
  slot: Slot;
  /** Names of the players whose guess is this slot (the turn player included). */
  takenBy: string[];
  disabled: boolean;
}

export interface GuessModel {
  phase: GuessPhase;
  actor: PlayerPayload | null;
  /** The heading speaks to "you" (own seat in a Public or Private game). */
  you: boolean;
  turn: PlayerPayload | null;
  /** Who the game waits for (players not in Waiting). */
  waitingOn: PlayerPayload[];
  /** The turn player's timeline as slots; empty when there is nothing to choose. */
  options: SlotOption[];
  /** Intercepting offers "don't intercept". */
  allowNone: boolean;
}

export function guessModel(game: Pick<GamePayload, 'state' | 'players'>, perspective: Perspective): GuessModel {
  const turn = turnPlayerOf(game);
  const { actor, local } = perspective;
  const waitingOn = game.players.filter((p) => p.state !== 'Waiting');
  const base = { actor, you: !local && !!actor, turn, waitingOn, options: [] as SlotOption[], allowNone: false };
  if (game.state === 'Open') return { ...base, phase: 'not_started' };
  const state = actor?.state ?? 'Waiting';
  if (state === 'Waiting') return { ...base, phase: 'waiting' };
  if (state === 'Confirming') return { ...base, phase: 'confirming' };
  const options = (turn?.slots ?? []).map((slot) => {
    const takenBy = game.players.filter((p) => p.guess?.id === slot.id).map((p) => p.name);
    return { slot, takenBy, disabled: takenBy.length > 0 };
  });
  if (state === 'Guessing') return { ...base, phase: 'guessing', options };
  return { ...base, phase: 'intercepting', options, allowNone: true };
}

const chosenSlot = (model: GuessModel, choice: Choice): SlotOption | undefined =>
  typeof choice === 'number' ? model.options.find((o) => o.slot.id === choice) : undefined;

/** Whether the chosen slot has been taken (by someone else, meanwhile): it then counts as none (docs/product.md#validation). */
export const choiceTaken = (model: GuessModel, choice: Choice): boolean => !!chosenSlot(model, choice)?.disabled;

/**
 * docs/product.md#screens: submit is disabled while Waiting (or Confirming, which has its own
 * buttons), or with nothing chosen: while Guessing a free slot, while
 * Intercepting a slot or "don't intercept" (nothing is sent by a submit with no
 * choice: declining is its own choice).
 */
export function canSubmit(model: GuessModel, choice: Choice): boolean {
  if (model.phase === 'intercepting') return choice !== null;
  if (model.phase !== 'guessing') return false;
  const option = chosenSlot(model, choice);
  return !!option && !option.disabled;
}

/** The slot to send: a free chosen slot, else none (declining, while Intercepting). */
export function submittedSlot(model: GuessModel, choice: Choice): number | null {
  const option = chosenSlot(model, choice);
  return option && !option.disabled ? option.slot.id : null;
}

/**
 * Alt+Shift+Down/Up: the next/previous entry of the picker (every free slot,
 * then "don't intercept"), wrapping around; from a slot taken meanwhile, the
 * first or last.
 */
export function stepChoice(model: Pick<GuessModel, 'options' | 'allowNone'>, choice: Choice, delta: 1 | -1): Choice {
  // a slot someone already guessed cannot be chosen (docs/product.md#validation): the keys pass over it, as the picker's arrows do
  const free = model.options.filter((o) => !o.disabled).map((o) => o.slot.id);
  const entries: Choice[] = [...free, ...(model.allowNone ? (['none'] as const) : [])];
  if (entries.length === 0) return null;
  const at = entries.indexOf(choice);
  if (at < 0) return (delta === 1 ? entries[0] : entries[entries.length - 1]) ?? null;
  return entries[(at + delta + entries.length) % entries.length] ?? null;
}

/** The choice still makes sense for this picker (after a state change it may not). */
export function keepChoice(model: GuessModel, choice: Choice): Choice {
  if (choice === 'none') return model.allowNone ? 'none' : null;
  if (choice === null) return null;
  return model.options.some((o) => o.slot.id === choice) ? choice : null;
}

// ---------------------------------------------------------------------------
// the one-screen interception round of a Local game (docs/rules.md#local)

export { answersOnThisDevice };

/** Each asked seat's answer being prepared on the shared screen: its gap, 'none', or nothing yet. */
export type Draft = Readonly<Record<string, Choice>>;

export interface LocalRound {
  turn: PlayerPayload;
  /** The seats this screen asks now (Intercepting), in seat order after the turn player. */
  seats: PlayerPayload[];
  /** The other seats at this screen the engine does not ask: no token to pay with. */
  noToken: PlayerPayload[];
  /** The turn player's gaps, those already guessed disabled. */
  options: SlotOption[];
}

/** The round this Local game's screen asks, or null (another game, another phase, nobody left to ask here). */
export function localRound(game: Pick<GamePayload, 'state' | 'players'>, perspective: Perspective): LocalRound | null {
  if (!perspective.local || !perspective.me || game.state !== 'Intercepting') return null;
  const turn = turnPlayerOf(game);
  if (!turn) return null;
  const here = seatsAfterTurn(game.players).filter(answersOnThisDevice);
  const seats = here.filter((p) => p.state === 'Intercepting');
  if (seats.length === 0) return null;
  const noToken = here.filter((p) => p.state === 'Waiting' && !p.guess && p.tokens < COST_INTERCEPT);
  const options = turn.slots.map((slot) => {
    const takenBy = game.players.filter((p) => p.guess?.id === slot.id).map((p) => p.name);
    return { slot, takenBy, disabled: takenBy.length > 0 };
  });
  return { turn, seats, noToken, options };
}

/** The gaps offered to seat `seatId`: taken by a guess or by another seat's answer in the draft, disabled and named. */
export function seatOptions(round: LocalRound, draft: Draft, seatId: string): SlotOption[] {
  return round.options.map((o) => {
    const drafted = round.seats.filter((s) => s.id !== seatId && draft[s.id] === o.slot.id).map((s) => s.name);
    const takenBy = [...o.takenBy, ...drafted];
    return { slot: o.slot, takenBy, disabled: takenBy.length > 0 };
  });
}

/** Sets one seat's answer; a gap taken (by a guess or another seat's answer) is refused: the same draft comes back. */
export function chooseFor(round: LocalRound, draft: Draft, seatId: string, choice: Choice): Draft {
  if (!round.seats.some((s) => s.id === seatId) || draft[seatId] === choice) return draft;
  if (typeof choice === 'number' && seatOptions(round, draft, seatId).find((o) => o.slot.id === choice)?.disabled !== false) return draft;
  return { ...draft, [seatId]: choice };
}

/** The draft still fitting the round: answers of seats no longer asked, and gaps guessed since, dropped (the same object when nothing changed). */
export function keepDraft(round: LocalRound | null, draft: Draft): Draft {
  const kept: Record<string, Choice> = {};
  for (const seat of round?.seats ?? []) {
    const choice = draft[seat.id] ?? null;
    const taken = typeof choice === 'number' && round?.options.find((o) => o.slot.id === choice)?.disabled !== false;
    if (choice !== null && !taken) kept[seat.id] = choice;
  }
  const same = Object.keys(kept).length === Object.keys(draft).length && Object.entries(kept).every(([id, c]) => draft[id] === c);
  return same ? draft : kept;
}

export interface LocalAnswer {
  seat: PlayerPayload;
  /** The gap, or null for "no". */
  slot: Slot | null;
}

/** What one "send" sends: each answered seat's gap or "no", in seat order; seats without an answer keep waiting. */
export function draftAnswers(round: LocalRound, draft: Draft): LocalAnswer[] {
  return round.seats.flatMap((seat): LocalAnswer[] => {
    const choice = draft[seat.id] ?? null;
    if (choice === null) return [];
    if (choice === 'none') return [{ seat, slot: null }];
    const option = seatOptions(round, draft, seat.id).find((o) => o.slot.id === choice);
    return option && !option.disabled ? [{ seat, slot: option.slot }] : [];
  });
}

/** The seat the shortcuts and the table's gaps answer for: the one last edited while still asked, else the first asked. */
export const activeSeat = (round: LocalRound, active: string | null): PlayerPayload =>
  round.seats.find((s) => s.id === active) ?? (round.seats[0] as PlayerPayload);

/** Alt+Shift+Down/Up for one seat: its free gaps, then "no", wrapping round. */
export const stepFor = (round: LocalRound, draft: Draft, seatId: string, delta: 1 | -1): Choice =>
  stepChoice({ options: seatOptions(round, draft, seatId), allowNone: true }, draft[seatId] ?? null, delta);

/**
 * Answers sent from the shared screen that the engine refused: the seat is
 * still asked and another player holds the gap it sent (a phone's answer came
 * first). The other answers of the same send stand.
 */
export function refusedAnswers(game: Pick<GamePayload, 'players'>, sent: Readonly<Record<string, number | null>>): LocalAnswer[] {
  return Object.entries(sent).flatMap(([id, slotId]) => {
    const seat = game.players.find((p) => p.id === id);
    const holder = slotId === null ? undefined : game.players.find((p) => p.id !== id && p.guess?.id === slotId);
    return seat?.state === 'Intercepting' && holder?.guess ? [{ seat, slot: holder.guess }] : [];
  });
}

// ---------------------------------------------------------------------------
// hit actions

/** Skip: the guessing player, while Guessing, with a token (docs/product.md#validation). */
export const canSkip = (actor: PlayerPayload | null): boolean => !!actor && actor.state === 'Guessing' && actor.tokens >= COST_SKIP;

/** Claim (docs/rules.md#a3): the turn player, while Guessing (before placing), with 3 tokens. */
export const canClaim = (player: PlayerPayload | null): boolean =>
  !!player && player.turn_player && player.state === 'Guessing' && player.tokens >= COST_CLAIM;

/** Local mode's claim menu (docs/product.md#screens): every player having at least 3 tokens; only the one who may claim now is enabled. */
export function claimCandidates(game: Pick<GamePayload, 'players'>): { player: PlayerPayload; enabled: boolean }[] {
  return game.players.filter((p) => p.tokens >= COST_CLAIM).map((player) => ({ player, enabled: canClaim(player) }));
}

export const canConfirm = (actor: PlayerPayload | null): boolean => actor?.state === 'Confirming';

// ---------------------------------------------------------------------------
// the game-ended dialog

export interface EndResult {
  /** you win / no one wins / someone else wins. */
  outcome: 'you' | 'nobody' | 'other';
  winnerName: string | null;
  rows: { id: string; name: string; tokens: number; hits: number; winner: boolean; color: number; avatar: string }[];
}

/** The end dialog from the final standings (A11): most hits first, then most tokens, seat order on ties. */
export function endResult(standings: readonly PlayerPayload[], winner: Pick<PlayerPayload, 'id' | 'name'> | null, userId: string | undefined, local: boolean): EndResult {
  const rows = standings
    .map((p, seat) => ({ id: p.id, name: p.name, tokens: p.tokens, hits: p.hits.length, winner: p.id === winner?.id, color: p.color, avatar: p.avatar, seat }))
    .sort((a, b) => b.hits - a.hits || b.tokens - a.tokens || a.seat - b.seat)
    .map(({ seat: _seat, ...row }) => row);
  if (!winner) return { outcome: 'nobody', winnerName: null, rows };
  const you = !local && winner.id === userId;
  return { outcome: you ? 'you' : 'other', winnerName: winner.name, rows };
}

// ---------------------------------------------------------------------------
// the settings dialog

/** The select-all checkbox of the pack list: all, none or some. */
export function selectAllState(selected: ReadonlySet<string>, all: readonly string[]): boolean | 'indeterminate' {
  const count = all.filter((id) => selected.has(id)).length;
  if (count === 0) return false;
  return count === all.length ? true : 'indeterminate';
}

/** Clicking the tri-state checkbox: everything unless everything is selected already. */
export const toggleAll = (selected: ReadonlySet<string>, all: readonly string[]): Set<string> =>
  selectAllState(selected, all) === true ? new Set() : new Set(all);

/** `n` distinct packs at random (n clamped to 1..all); `random` returns [0, 1) like Math.random. */
export function randomPacks(all: readonly string[], n: number, random: () => number = Math.random): Set<string> {
  const pool = [...all];
  const count = Math.max(Math.min(all.length, 1), Math.min(all.length, Math.floor(n)));
  // Fisher–Yates on the first `count` positions
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return new Set(pool.slice(0, count));
}

/** docs/product.md#limits: the random-pack picker's default count. */
export const DEFAULT_RANDOM_PACKS = 5;

/** The random-pack count as typed: a whole number within 1..packs (empty → 1). */
export function clampRandomCount(raw: string, packs: number): number {
  const n = Math.floor(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return 1;
  return Math.max(1, Math.min(Math.max(1, packs), n));
}

/** A numeric setting as typed: empty becomes the minimum (docs/product.md#validation), then clamped to the engine's range (A9). */
export function clampSetting(key: NumericSetting, raw: string): number {
  const { min, max } = LIMITS[key];
  const n = Math.round(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return min;
  return Math.max(min, Math.min(max, n));
}

/** Packs sorted by name in natural order ("Pack 2" before "Pack 10"), as the pack chooser lists them. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const byName = <T extends { name: string }>(a: T, b: T): number => collator.compare(a.name, b.name);

// ---------------------------------------------------------------------------
// countdown

/** Whole seconds left until `deadline` (epoch ms), never negative. */
export const secondsLeft = (deadline: number, now: number): number => Math.max(0, Math.ceil((deadline - now) / 1000));

/**
 * The moments a countdown is spoken (not every second): 60 and 30 seconds when
 * the phase is long enough for that to be news, then 10 and 5.
 */
export function shouldAnnounce(left: number, total: number): boolean {
  if (left === 10 || left === 5) return total > left;
  if (left === 30 || left === 60) return total >= left + 10;
  return false;
}

/** The last seconds of a time limit that tick, when the ticking countdown is on. */
export const TICK_SECONDS = 10;

/** Whether a countdown now at `left` seconds ticks (once per second: `ticked` is the second that ticked last). */
export const shouldTick = (left: number, ticked: number | null): boolean => left > 0 && left <= TICK_SECONDS && left !== ticked;
