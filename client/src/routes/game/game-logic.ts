import type { GamePayload, PlayerPayload, Slot } from '../../../../shared/protocol/game.ts';
import { COST_CLAIM, COST_SKIP, LIMITS, type NumericSetting } from '../../../../shared/rules/constants.ts';
import type { Game } from '../../../../shared/rules/types.ts';
import { localActingPlayer } from '../../../../shared/rules/views.ts';

/**
 * The game screen's rules, as pure functions of the game payload: whom this
 * device acts for, which slots may be chosen, when submit, skip, claim and
 * confirm are possible, the end dialog's table, the settings dialog's pack
 * selection. Components only render what these return, so the rules are tested
 * without a DOM (tests/client/game-logic.test.ts).
 */

export const turnPlayerOf = (game: Pick<GamePayload, 'players'>): PlayerPayload | null => game.players.find((p) => p.turn_player) ?? null;

/**
 * The seat a Local game's device acts for (docs/product.md#screens), by the engine's own rule.
 * `localActingPlayer` reads only the state and the seats' flags, which a
 * payload has in the same shape as the engine's Game.
 */
export function localActor(game: Pick<GamePayload, 'state' | 'players'>): PlayerPayload | null {
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
export function stepChoice(model: GuessModel, choice: Choice, delta: 1 | -1): Choice {
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
