import { COST_CLAIM, COST_INTERCEPT, COST_SKIP, MAX_PLAYERS, MAX_TOKENS, MIN_PLAYERS, NAME_MAX, NAME_MIN, PLAYER_COLORS } from './constants.ts';
import { fail, ruleError, RuleFailure, type ErrorCode } from './errors.ts';
import { parseAction } from './parse-action.ts';
import { Rng, streamFrom, type RngState } from './rng.ts';
import { applySettingsPatch, defaultSettings, hitsNeeded } from './settings.ts';
import { afterStep, beforeStep, castVote, openDispute, raiseDispute, refuseWhilePaused, voteTimeout, type DisputeStep } from './disputes.ts';
import { hitKey, isCorrect, slotsFor } from './slots.ts';
import { canView, clueOf, hitPayload, isSeatKey, playerPayload } from './views.ts';
import { isAvatar, isCleanName } from './names.ts';
import type {
  Action,
  ActionContext,
  ActionResult,
  Game,
  GameEvent,
  GameMode,
  GameUpdate,
  Hit,
  Player,
  PlayerPayload,
  RuleError,
} from './types.ts';

/**
 * The rules engine: pure functions over plain data (docs/rules.md).
 * applyAction never mutates its input and never throws for bad input: every
 * expected failure comes back as `{ ok: false, error }`. Internally a step works on
 * a private copy and aborts with RuleFailure, which applyAction turns into a value.
 *
 * One file over 500 lines on purpose: every action's handler works on the private
 * `Step` and shares its helpers (member, actor, emit, endRound); split into files,
 * they would all have to be exported, and the engine's only door is applyAction.
 */

/** `rng`: the secret stream the deck is shuffled from; `seats`: the stream of what everybody sees (seat order, virtual player ids). */
type Step = DisputeStep;

/**
 * Copies everything a step may change; Hit objects are shared and never mutated.
 * The deck (never changed once made: a draw moves `deck_at`), the discard pile
 * and the played keys (changed a few times per turn) are shared too, and so are
 * the settings, the deadline and each player's timeline (`hits`) and guess: a
 * step that changes one replaces it with a new array or object and never writes
 * into it (budget P1: most actions do not touch them, and a timeline that stays
 * the same array keeps its payload, see views.ts).
 */
function cloneGame(game: Game): Game {
  return {
    ...game,
    players: game.players.map((p) => ({ ...p })),
    intercepts: game.intercepts.slice(),
  };
}

export interface NewGame {
  /** 8 characters of [A-Za-z0-9], chosen by the server. */
  id: string;
  mode: GameMode;
  creator: { id: string; name: string };
  /**
   * Keys of the game's two random streams, 64 hex digits each, drawn by the server
   * from a CSPRNG: `deck` shuffles the cards, `seats` the seat order and virtual
   * player ids. Stored with the game, never shown.
   */
  seed: { deck: string; seats: string };
  /** Every pack id that exists now (default selection, and validation of `settings.packs`). */
  packIds: string[];
  /** Optional settings applied like an update (validated). */
  settings?: unknown;
  /** A Local game's seat key (docs/rules.md#local), made by the server from a CSPRNG; ignored for other modes. */
  seatKey?: string;
}

/** Creates a game with its creator as the first and only player (docs/rules.md#create). */
export function createGame(opts: NewGame): { ok: true; game: Game } | { ok: false; error: RuleError } {
  let settings = defaultSettings(opts.packIds);
  if (opts.settings !== undefined) {
    const patched = applySettingsPatch(settings, opts.settings, opts.packIds);
    if (!patched.ok) return patched;
    settings = patched.settings;
  }
  const game: Game = {
    id: opts.id,
    mode: opts.mode,
    state: 'Open',
    settings,
    players: [newPlayer(opts.creator.id, opts.creator.name, { virtual: false, creator: true, color: 0, avatar: '' })],
    deck: [],
    deck_at: 0,
    current: null,
    discard: [],
    played: [],
    hit: null,
    last_scored: null,
    intercepts: [],
    deadline: null,
    reveal_until: null,
    winner: null,
    standings: null,
    draws: 0,
    rng: streamFrom(opts.seed.deck),
    seat_rng: streamFrom(opts.seed.seats),
    dj: null,
    dispute: null,
    disputes_used: {},
  };
  if (opts.mode === 'Local' && opts.seatKey) game.seat_key = opts.seatKey;
  const refused = djSettingError(game);
  if (refused) return { ok: false, error: refused };
  return { ok: true, game };
}

function newPlayer(id: string, name: string, seat: Pick<Player, 'virtual' | 'creator' | 'color' | 'avatar'>): Player {
  return { id, name, ...seat, state: 'Waiting', hits: [], tokens: 0, turn_player: false, guess: null, connected: true, controller: null };
}

/** The lowest colour no seated player has (there is always one: a game has at most PLAYER_COLORS seats). */
function freeColor(g: Game): number {
  const used = new Set(g.players.map((p) => p.color));
  let color = 0;
  while (used.has(color) && color < PLAYER_COLORS - 1) color++;
  return color;
}

/** A seat's name as typed: trimmed, NAME_MIN..NAME_MAX characters (not UTF-16 units: 32 emoji are a valid name), clean. */
function seatName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length < NAME_MIN || length > NAME_MAX || !isCleanName(name)) fail('name_invalid');
  return name;
}

/**
 * Gives a game stored before players had colours and avatars (its base, as
 * read back) what the views need: colours by seat order, initials. The winner
 * and standings kept from an ended round take their players' looks (a player
 * who left since: his place in the standings). Changes `game` in place.
 */
export function fillMissingLooks(game: Game): Game {
  const partial = (p: { color?: number; avatar?: string; controller?: string | null }, color: number): void => {
    p.color ??= color;
    p.avatar ??= '';
    p.controller ??= null;
  };
  game.players.forEach((p, i) => partial(p, i));
  const seatOf = (p: PlayerPayload) => game.players.find((q) => q.id === p.id);
  game.standings?.forEach((p, i) => partial(p, seatOf(p)?.color ?? i));
  if (game.winner) {
    const kept = game.standings?.find((p) => p.id === game.winner?.id);
    partial(game.winner, seatOf(game.winner)?.color ?? kept?.color ?? 0);
  }
  return game;
}

/**
 * Applies one action. `ctx.now` is the current time in epoch milliseconds (the
 * engine never reads a clock). Returns the new game and the events to publish, in
 * The reference server's order, or a typed error; the input game is never changed.
 */
export function applyAction(game: Game, raw: unknown, ctx: ActionContext): ActionResult {
  const parsed = parseAction(raw);
  if (!parsed.ok) return parsed;
  const rng = new Rng(game.rng);
  // games stored before the streams were split draw everything from their one stream, as they did
  const seats = game.seat_rng === undefined ? rng : new Rng(game.seat_rng);
  const step: Step = { g: cloneGame(game), rng, seats, now: ctx.now, clock: ctx.now, events: [], deleted: false, revealed: null, apply: applyAction };
  try {
    beforeStep(step, parsed.action);
    HANDLERS[parsed.action.type](step, parsed.action as never);
    afterStep(step, game, parsed.action);
  } catch (e) {
    if (e instanceof RuleFailure) return { ok: false, error: e.error };
    throw e;
  }
  // a re-judged dispute brings the replay's streams
  step.g.rng = step.rng.state;
  if (step.g.seat_rng !== undefined) step.g.seat_rng = step.seats.state as RngState;
  return { ok: true, game: step.g, events: step.events, deleted: step.deleted };
}

/** The 404 a lookup failure gives for each action (the reference server's three spellings). */
export function gameNotFound(type: Action['type'] | 'get' | 'audio'): RuleError {
  if (type === 'get') return ruleError('game_id_not_found');
  if (type === 'stop') return ruleError('game_with_id_not_found');
  return ruleError('game_not_found');
}

// ---------------------------------------------------------------------------
// lookups and guards

const turnIndex = (g: Game) => g.players.findIndex((p) => p.turn_player);
const turnPlayer = (g: Game) => g.players.find((p) => p.turn_player);
const isRunning = (g: Game) => g.state !== 'Open';
/** Whether the engine may wait for this seat: in Local games the one device acts for every seat. */
const isPresent = (g: Game, p: Player) => g.mode === 'Local' || p.virtual || p.connected;

/** Whether `p` sits out this round: the DJ of a `dj` round who does not play (no cards, no turns, no tokens). */
const sitsOut = (g: Game, p: Player) => !!g.dj && !g.dj.plays && g.dj.id === p.id;
/** The seats that play this round. */
const playingSeats = (g: Game) => (g.dj && !g.dj.plays ? g.players.filter((p) => !sitsOut(g, p)) : g.players);

/**
 * Who would be the DJ of a `dj` round started now: the real player the settings
 * name, or the creator when they name nobody (or somebody who left).
 */
export function designatedDj(g: Pick<Game, 'players' | 'settings'>): Player | undefined {
  const { dj } = g.settings;
  return (dj ? g.players.find((p) => p.id === dj && !p.virtual) : undefined) ?? g.players.find((p) => p.creator && !p.virtual);
}

/**
 * What is wrong with the game's DJ settings, if anything: the named DJ must sit
 * at the game, and a Local game has no DJ (everybody looks at its one screen,
 * where the DJ's video would show the hit's title).
 */
function djSettingError(g: Game): RuleError | null {
  const { dj, clue_mode } = g.settings;
  if (g.mode === 'Local' && clue_mode === 'dj') return ruleError('invalid_setting', { field: 'clue_mode', rule: 'audio or card in a Local game, whose one screen everybody sees' });
  if (dj && !g.players.some((p) => p.id === dj && !p.virtual)) return ruleError('invalid_setting', { field: 'dj', rule: 'the id of a player of this game, or empty for the creator' });
  return null;
}

/** The caller's own seat, or the right failure. A Local game is invisible to non-members. */
function member(g: Game, by: string, notFound: ErrorCode = 'game_not_found'): Player {
  const p = g.players.find((q) => q.id === by && !q.virtual);
  if (p) return p;
  if (g.mode === 'Local') fail(notFound);
  return fail('not_a_player');
}

/** Hides a Local game from everybody but its members. */
function visible(g: Game, by: string, notFound: ErrorCode = 'game_not_found'): void {
  if (g.mode === 'Local' && !g.players.some((p) => p.id === by && !p.virtual)) fail(notFound);
}

/** The seat of a Local game the phone of user `by` plays, if any. */
const controlledBy = (g: Game, by: string): Player | undefined => (g.mode === 'Local' ? g.players.find((p) => p.virtual && p.controller === by) : undefined);

type ActFor = 'guess' | 'skip' | 'claim' | 'avatar' | 'dispute' | 'vote';
/**
 * The seat an action is for: the caller, or in Local games a seat the creator
 * names; a phone acts for the seat it plays, and for no other.
 */
function actor(g: Game, by: string, target: string | undefined, kind: ActFor): Player {
  const seat = controlledBy(g, by);
  if (seat) {
    if (target !== undefined && target !== seat.id) fail('own_seat_only');
    return seat;
  }
  const caller = member(g, by);
  if (target === undefined) return caller;
  if (g.mode !== 'Local') fail(`local_only_${kind}`);
  if (!caller.creator) fail(`creator_only_${kind}`);
  return g.players.find((p) => p.id === target) ?? fail('player_not_found');
}

// ---------------------------------------------------------------------------
// events

function emit(s: Step, event: GameEvent['event'], data: GameUpdate): void {
  s.events.push({ event, data });
}

/** change_state with the full player list and what a client needs for the phase. */
function emitState(s: Step, extra: GameUpdate = {}): void {
  const data: GameUpdate = { state: s.g.state, players: s.g.players.map(playerPayload), ...extra };
  if (s.g.deadline) data.deadline = s.g.deadline.at;
  const clue = clueOf(s.g);
  if (clue) data.clue = clue;
  emit(s, 'change_state', data);
}

// ---------------------------------------------------------------------------
// cards

function markPlayed(g: Game, hit: Hit): void {
  const key = hitKey(hit);
  if (!g.played.includes(key)) g.played = [...g.played, key];
}

/** Refills an empty deck from the discard pile; `last` (a card just skipped) goes to the bottom (W11). */
function refill(s: Step, last?: Hit): void {
  const rest = s.g.discard.filter((h) => h !== last);
  s.g.deck = s.rng.shuffle(rest);
  if (last && rest.length !== s.g.discard.length) s.g.deck.push(last);
  s.g.deck_at = 0;
  s.g.discard = [];
}

/** Draws the next mystery card; false when no card is left anywhere. */
function drawCurrent(s: Step, last?: Hit): boolean {
  if (s.g.deck_at >= s.g.deck.length) refill(s, last);
  const next = s.g.deck[s.g.deck_at];
  if (!next) return false;
  s.g.deck_at += 1;
  s.g.current = next;
  s.g.draws += 1;
  markPlayed(s.g, next);
  return true;
}

/** The cards still to draw, the next first. */
export function remainingDeck(g: Pick<Game, 'deck' | 'deck_at'>): Hit[] {
  return g.deck.slice(g.deck_at);
}

/**
 * Arms the phase's deadline. The phases of a turn count from the end of the
 * reveal before it (`reveal_until`), not from the moment they began: the
 * confirmer may answer at once, yet the table still looks at the revealed card
 * for `reveal_time` seconds before the next turn is shown. The confirmation's
 * own time counts from the reveal.
 */
function armDeadline(s: Step): void {
  const g = s.g;
  const seconds =
    g.state === 'Guessing' ? g.settings.guess_timeout
    : g.state === 'Intercepting' ? g.settings.intercept_timeout
    : g.state === 'Confirming' ? g.settings.confirm_timeout
    : 0;
  const from = g.state === 'Confirming' ? s.now : Math.max(s.now, g.reveal_until ?? 0);
  g.deadline = seconds > 0 && g.state !== 'Open' ? { state: g.state as 'Guessing', at: from + seconds * 1000 } : null;
}

// ---------------------------------------------------------------------------
// turn cycle

/**
 * Starts a turn for the first present seat at or after `from`: clears guesses,
 * draws a new mystery card. Ends the round (no winner) if no card is left,
 * with `ended` in its event (why the last turn ended: the confirmer's answer).
 */
function startTurn(s: Step, from: number, ended: GameUpdate = {}): void {
  const g = s.g;
  const n = g.players.length;
  // the first present seat that plays; the first seat that plays when nobody is present
  let seat = -1;
  for (let i = 0; i < n; i++) {
    const cand = (((from + i) % n) + n) % n;
    const p = g.players[cand] as Player;
    if (sitsOut(g, p)) continue;
    if (seat < 0) seat = cand;
    if (isPresent(g, p)) {
      seat = cand;
      break;
    }
  }
  g.players.forEach((p, i) => {
    p.guess = null;
    p.turn_player = i === seat;
    p.state = i === seat ? 'Guessing' : 'Waiting';
  });
  g.state = 'Guessing';
  g.hit = null;
  g.last_scored = null;
  g.intercepts = [];
  if (!drawCurrent(s)) {
    endRound(s, null, ended);
    return;
  }
  armDeadline(s);
}

/** Aborts the running turn without a reveal: the mystery card goes to the discard pile. */
function dropCurrent(g: Game): void {
  if (g.current) g.discard = [...g.discard, g.current];
  g.current = null;
}

/** The confirmer: the creator in Local games, else the next present seat after the turn player (A5). */
function pickConfirmer(g: Game, exclude?: string): Player | undefined {
  if (g.mode === 'Local') return g.players.find((p) => p.creator);
  const n = g.players.length;
  const t = turnIndex(g);
  let fallback: Player | undefined;
  for (let i = 1; i < n; i++) {
    const p = g.players[(t + i) % n] as Player;
    if (p.id === exclude) continue;
    fallback ??= p;
    if (isPresent(g, p)) return p;
  }
  return fallback;
}

/** Reveals the mystery card (B7.3 with A6), then ends the round or asks for confirmation. */
function reveal(s: Step): void {
  const g = s.g;
  const card = g.current;
  const turn = turnPlayer(g);
  if (!card || !turn) throw new Error('reveal without a mystery card or turn player');
  const correct = (p: Player | undefined) => !!p && !!p.guess && isCorrect(p.guess, card.year);
  const winner = correct(turn) ? turn : g.intercepts.map((id) => g.players.find((p) => p.id === id)).find(correct);
  g.current = null;
  s.revealed = card;
  if (winner) winner.hits = [...winner.hits, card];
  else g.discard = [...g.discard, card];
  g.last_scored = winner?.id ?? null;
  g.hit = card;
  g.reveal_until = s.now + g.settings.reveal_time * 1000;
  g.state = 'Confirming';
  for (const p of g.players) p.state = 'Waiting';
  const confirmer = pickConfirmer(g);
  if (confirmer) confirmer.state = 'Confirming';
  const extra: GameUpdate = { hit: hitPayload(card) };
  if (winner) extra.last_scored = playerPayload(winner);
  if (winner && winner.hits.length >= g.settings.goal) {
    endRound(s, winner, extra);
    return;
  }
  armDeadline(s);
  emitState(s, extra);
  // nobody present to ask: the confirmation counts as "no" and play goes on (A1, A5)
  if (confirmer && !isPresent(g, confirmer)) finishConfirm(s, false, { cause: 'absent' });
}

/** Hands the confirmation to the next present player, or counts it as "no" when there is none. */
function reassignConfirmer(s: Step, absent?: string): void {
  const g = s.g;
  const next = pickConfirmer(g, absent);
  if (!next || !isPresent(g, next)) {
    finishConfirm(s, false, { cause: 'absent' });
    return;
  }
  for (const p of g.players) p.state = p === next ? 'Confirming' : 'Waiting';
  emitState(s);
}

/**
 * Continues after the reveal: +1 token on a "yes", then the next seat's turn.
 * `why`: the answer's cause and confirmer, for the next turn's event.
 */
function finishConfirm(s: Step, yes: boolean, why: Pick<GameUpdate, 'cause' | 'by'>): void {
  const g = s.g;
  const t = turnIndex(g);
  const turn = g.players[t];
  if (yes && turn) turn.tokens = Math.min(MAX_TOKENS, turn.tokens + 1);
  startTurn(s, t + 1, why);
  if (isRunning(g)) emitState(s, why);
}

/** Passes the turn without a reveal (`cause`: guess timeout, absent turn player): the card is discarded. */
function passTurn(s: Step, cause: 'timeout' | 'absent'): void {
  const t = turnIndex(s.g);
  dropCurrent(s.g);
  startTurn(s, t + 1);
  if (isRunning(s.g)) emitState(s, { cause });
}

/**
 * Ends the round (win, stop, too few players): keeps the standings and the winner
 * for the end dialog (A11), resets every seat and clears all cards.
 */
function endRound(s: Step, winner: Player | null, extra: GameUpdate = {}): void {
  const g = s.g;
  // a DJ who sat out played for nobody's standings
  const standings = playingSeats(g).map(playerPayload);
  const winnerView = winner ? (standings.find((p) => p.id === winner.id) ?? null) : null;
  g.standings = standings;
  g.winner = winnerView;
  clearTable(g);
  const data: GameUpdate = { ...extra, standings };
  if (winnerView) data.winner = winnerView;
  emitState(s, data);
}

/** Back to Open: no cards in play, every seat reset (docs/rules.md#stop, #a11). */
function clearTable(g: Game): void {
  g.state = 'Open';
  g.deck = [];
  g.deck_at = 0;
  g.discard = [];
  g.current = null;
  g.hit = null;
  g.last_scored = null;
  g.intercepts = [];
  g.deadline = null;
  g.reveal_until = null;
  g.dj = null;
  for (const p of g.players) {
    p.state = 'Waiting';
    p.tokens = 0;
    p.hits = [];
    p.turn_player = false;
    p.guess = null;
  }
}

/** After an interceptor's answer (or absence): reveal when nobody is left to answer. */
function revealIfAllAnswered(s: Step): boolean {
  if (s.g.state === 'Intercepting' && !s.g.players.some((p) => p.state === 'Intercepting')) {
    reveal(s);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// handlers

type Handler<T extends Action['type']> = (s: Step, a: Extract<Action, { type: T }>) => void;
type Handlers = { [T in Action['type']]: Handler<T> };

const HANDLERS: Handlers = {
  join(s, a) {
    const g = s.g;
    visible(g, a.by);
    if (g.state !== 'Open') fail('already_running');
    if (g.players.some((p) => p.id === a.by && !p.virtual)) fail('already_joined');
    refuseWhilePaused(g);
    if (a.avatar !== undefined && !isAvatar(a.avatar)) fail('avatar_invalid');
    if (g.players.length >= MAX_PLAYERS) fail('game_full');
    const p = newPlayer(a.by, a.name, { virtual: false, creator: !g.players.some((q) => q.creator), color: freeColor(g), avatar: a.avatar ?? '' });
    g.players.push(p);
    emit(s, 'join', { players: [playerPayload(p)] });
  },

  join_local(s, a) {
    const g = s.g;
    visible(g, a.by);
    if (g.state !== 'Open') fail('already_running');
    if (g.mode !== 'Local') fail('virtual_only_local');
    if (!member(g, a.by).creator) fail('creator_only_virtual');
    refuseWhilePaused(g);
    const p = addLocalSeat(s, a.name, a.avatar, null);
    emit(s, 'join', { players: [playerPayload(p)] });
  },

  control(s, a) {
    const g = s.g;
    if (g.mode !== 'Local') fail('local_only_control');
    // whoever cannot see the game without the key learns nothing of it from a wrong one
    if (!isSeatKey(g, a.key)) fail(canView(g, a.by) ? 'seat_key_invalid' : 'game_not_found');
    if (g.players.some((p) => p.id === a.by && !p.virtual)) fail('controller_is_player');
    const held = controlledBy(g, a.by);
    let seat: Player;
    if (a.player !== undefined) {
      seat = g.players.find((p) => p.id === a.player) ?? fail('player_not_found');
      if (!seat.virtual) fail('seat_not_virtual');
      if (seat.controller === a.by) return;
      // the newest phone wins: a seat whose phone was lost or handed on must not stay locked
      seat.controller = a.by;
    } else {
      if (g.state !== 'Open') fail('already_running');
      refuseWhilePaused(g);
      seat = addLocalSeat(s, a.name ?? '', a.avatar, a.by);
    }
    // one device plays one seat: the one it held (never this one, see above) goes back to the creator's device
    if (held) held.controller = null;
    const released = held ? [held] : [];
    if (a.player === undefined) {
      emit(s, 'join', { players: [playerPayload(seat)] });
      if (held) emit(s, 'update', { players: released.map(playerPayload) });
    } else {
      emit(s, 'update', { players: [seat, ...released].map(playerPayload) });
    }
  },

  release(s, a) {
    const g = s.g;
    const creator = g.players.some((p) => p.id === a.by && p.creator && !p.virtual);
    if (g.mode === 'Local' && !canView(g, a.by)) fail('game_not_found');
    const seat = g.players.find((p) => p.id === a.player) ?? fail('player_not_found');
    if (!seat.controller) fail('seat_not_controlled');
    if (seat.controller !== a.by && !creator) fail('creator_or_controller_release');
    seat.controller = null;
    emit(s, 'update', { players: [playerPayload(seat)] });
  },

  avatar(s, a) {
    const p = actor(s.g, a.by, a.player, 'avatar');
    if (!isAvatar(a.avatar)) fail('avatar_invalid');
    if (p.avatar === a.avatar) return;
    p.avatar = a.avatar;
    // any phase: it changes how a player is shown, nothing of the play
    emitState(s);
  },

  leave(s, a) {
    const g = s.g;
    const caller = member(g, a.by);
    let target = caller;
    if (a.player !== undefined) {
      if (!caller.creator) fail('creator_only_kick');
      target = g.players.find((p) => p.id === a.player) ?? fail('player_not_found');
    }
    removePlayer(s, target, target === caller ? undefined : caller);
  },

  update(s, a) {
    const g = s.g;
    const caller = member(g, a.by);
    if (g.state !== 'Open') fail('game_running');
    if (!caller.creator) fail('creator_only_update');
    refuseWhilePaused(g);
    const patched = applySettingsPatch(g.settings, a.settings, a.pack_ids);
    if (!patched.ok) throw new RuleFailure(patched.error);
    g.settings = patched.settings;
    const refused = djSettingError(g);
    if (refused) throw new RuleFailure(refused);
    emit(s, 'update', { settings: { ...g.settings, packs: g.settings.packs.slice() } });
  },

  start(s, a) {
    const g = s.g;
    visible(g, a.by);
    if (g.players.length < MIN_PLAYERS) fail('not_enough_players');
    if (g.state !== 'Open') fail('already_running');
    if (!g.players.some((p) => p.id === a.by && !p.virtual && p.creator)) fail('creator_only_start');
    refuseWhilePaused(g);
    // an automatic game plays in the mode the server decided from its packs (the hits are that mode's)
    const mode = g.settings.clue_mode_auto && a.clue_mode ? a.clue_mode : g.settings.clue_mode;
    let dj: Game['dj'] = null;
    if (mode === 'dj') {
      if (g.mode === 'Local') fail('invalid_setting', { field: 'clue_mode', rule: 'audio or card in a Local game, whose one screen everybody sees' });
      const seat = designatedDj(g) as Player;
      dj = { id: seat.id, plays: g.settings.dj_plays };
      if (!dj.plays && g.players.length - 1 < MIN_PLAYERS) fail('not_enough_players_dj');
    }
    const selected = new Set(g.settings.packs);
    const byKey = new Map<string, Hit>();
    for (const h of a.hits) {
      // the DJ plays a hit from its video: one without cannot be dealt
      if (mode === 'dj' && !h.yt_id) continue;
      if (h.packs.some((p) => selected.has(p)) && !byKey.has(hitKey(h))) byKey.set(hitKey(h), h);
    }
    const required = hitsNeeded(g.players.length - (dj && !dj.plays ? 1 : 0), g.settings.goal);
    if (byKey.size < required) fail('not_enough_hits', { x: byKey.size, y: required });
    if (mode !== g.settings.clue_mode) g.settings = { ...g.settings, clue_mode: mode };
    g.dj = dj;
    const played = new Set(g.played);
    const fresh: Hit[] = [];
    const heard: Hit[] = [];
    for (const [key, h] of byKey) (played.has(key) ? heard : fresh).push(h);
    g.deck = [...s.rng.shuffle(fresh), ...s.rng.shuffle(heard)];
    g.deck_at = 0;
    g.discard = [];
    g.players = s.seats.shuffle(g.players);
    g.winner = null;
    g.standings = null;
    for (const p of g.players) {
      if (sitsOut(g, p)) continue;
      const card = g.deck[g.deck_at++] as Hit;
      markPlayed(g, card);
      p.hits = [card];
      p.tokens = g.settings.start_tokens;
    }
    startTurn(s, 0);
    emitState(s);
  },

  stop(s, a) {
    const g = s.g;
    visible(g, a.by, 'game_with_id_not_found');
    if (!g.players.some((p) => p.id === a.by && !p.virtual && p.creator)) fail('creator_only_stop');
    if (g.state === 'Open') fail('not_running');
    const creator = g.players.find((p) => p.id === a.by) as Player;
    endRound(s, null, { cause: 'stopped', by: playerPayload(creator) });
  },

  guess(s, a) {
    const g = s.g;
    const p = actor(g, a.by, a.player, 'guess');
    refuseWhilePaused(g);
    if (p.state !== 'Guessing' && p.state !== 'Intercepting') fail('cannot_guess');
    if (a.slot !== null && g.players.some((q) => q.guess?.id === a.slot)) fail('slot_taken');
    if (a.slot !== null && p.guess) fail('already_guessed');
    if (a.slot !== null && g.state === 'Intercepting' && p.tokens < COST_INTERCEPT) fail('no_token_intercept');
    const turn = turnPlayer(g) as Player;
    const slot = a.slot === null ? null : slotsFor(turn.hits).find((sl) => sl.id === a.slot);
    if (slot === undefined) fail('unknown_slot');
    if (g.state === 'Guessing' && slot === null) fail('guess_required');
    p.guess = slot;
    p.state = 'Waiting';
    if (g.state === 'Guessing') {
      g.state = 'Intercepting';
      for (const q of g.players) {
        if (q !== turn) q.state = q.tokens >= COST_INTERCEPT && isPresent(g, q) && !sitsOut(g, q) ? 'Intercepting' : 'Waiting';
      }
      emit(s, 'guess', { players: [playerPayload(p)] });
      if (!revealIfAllAnswered(s)) {
        armDeadline(s);
        emitState(s);
      }
      return;
    }
    if (slot) {
      p.tokens -= COST_INTERCEPT;
      g.intercepts.push(p.id);
    }
    emit(s, 'guess', { players: [playerPayload(p)] });
    revealIfAllAnswered(s);
  },

  confirm(s, a) {
    const g = s.g;
    const caller = member(g, a.by);
    refuseWhilePaused(g);
    if (g.state === 'Open' && g.winner) fail('has_winner');
    if (caller.state !== 'Confirming') fail('cannot_confirm');
    finishConfirm(s, a.confirm, { cause: a.confirm ? 'confirmed' : 'rejected', by: playerPayload(caller) });
  },

  skip(s, a) {
    const g = s.g;
    const p = actor(g, a.by, a.player, 'skip');
    refuseWhilePaused(g);
    if (p.state !== 'Guessing') fail('cannot_skip');
    if (p.tokens < COST_SKIP) fail('no_token_skip');
    const skipped = g.current as Hit;
    p.tokens -= COST_SKIP;
    g.discard = [...g.discard, skipped];
    g.current = null;
    if (!drawCurrent(s, skipped)) throw new Error('skip left no card although the skipped one is in the discard pile');
    armDeadline(s);
    const data: GameUpdate = { players: [playerPayload(p)], hit: hitPayload(skipped) };
    if (g.deadline) data.deadline = g.deadline.at;
    const clue = clueOf(g);
    if (clue) data.clue = clue;
    emit(s, 'skip', data);
  },

  claim(s, a) {
    const g = s.g;
    const p = actor(g, a.by, a.player, 'claim');
    refuseWhilePaused(g);
    if (!p.turn_player || p.state !== 'Guessing') fail('cannot_claim');
    if (p.tokens < COST_CLAIM) fail('no_tokens_claim');
    if (g.deck_at >= g.deck.length) refill(s);
    const card = g.deck[g.deck_at] ?? fail('no_hit_left');
    g.deck_at += 1;
    p.tokens -= COST_CLAIM;
    p.hits = [...p.hits, card];
    markPlayed(g, card);
    emit(s, 'claim', { players: [playerPayload(p)], hit: hitPayload(card) });
    if (p.hits.length >= g.settings.goal) endRound(s, p);
  },

  dispute(s, a) {
    raiseDispute(s, actor(s.g, a.by, a.player, 'dispute'), a.year);
  },

  vote(s, a) {
    castVote(s, actor(s.g, a.by, a.player, 'vote'), a.take);
  },

  timeout(s) {
    const g = s.g;
    if (openDispute(g)) return voteTimeout(s);
    if (!g.deadline || s.now < g.deadline.at || g.deadline.state !== g.state) fail('no_deadline');
    if (g.state === 'Guessing') passTurn(s, 'timeout');
    else if (g.state === 'Intercepting') {
      for (const p of g.players) {
        if (p.state !== 'Intercepting') continue;
        p.state = 'Waiting';
        emit(s, 'guess', { players: [playerPayload(p)], cause: 'timeout' });
      }
      revealIfAllAnswered(s);
    } else finishConfirm(s, false, { cause: 'timeout' });
  },

  presence(s, a) {
    const g = s.g;
    const p = g.players.find((q) => q.id === a.player) ?? fail('player_not_found');
    if (p.virtual || p.connected === a.connected) return;
    p.connected = a.connected;
    // every stream learns who is there; a change that moves the turn on says so in its own events
    if (a.connected || !isRunning(g) || g.mode === 'Local') {
      emitState(s);
      return;
    }
    if (g.state === 'Guessing' && p.turn_player) {
      passTurn(s, 'absent');
    } else if (g.state === 'Intercepting' && p.state === 'Intercepting') {
      p.state = 'Waiting';
      emit(s, 'guess', { players: [playerPayload(p)], cause: 'absent' });
      revealIfAllAnswered(s);
    } else if (g.state === 'Confirming' && p.state === 'Confirming') {
      reassignConfirmer(s, p.id);
    } else {
      emitState(s);
    }
  },

  rename(s, a) {
    const p = s.g.players.find((q) => q.id === a.player && !q.virtual) ?? fail('player_not_found');
    const name = seatName(a.name);
    if (p.name === name) return;
    p.name = name;
    emitState(s);
  },

  replace_hit(s) {
    const g = s.g;
    refuseWhilePaused(g);
    if (g.state !== 'Guessing' || !g.current) fail('no_hit');
    g.current = null;
    if (!drawCurrent(s)) {
      endRound(s, null);
      return;
    }
    armDeadline(s);
    emitState(s);
  },
};

/**
 * Seats a new name-only player of a Local game (`join_local`, or a phone's
 * `control` with a name; `controller` is that phone): the same name rules and
 * limits either way.
 */
function addLocalSeat(s: Step, rawName: string, avatar: string | undefined, controller: string | null): Player {
  const g = s.g;
  const name = seatName(rawName);
  if (g.players.some((p) => p.name.toLocaleLowerCase() === name.toLocaleLowerCase())) fail('name_taken');
  if (avatar !== undefined && !isAvatar(avatar)) fail('avatar_invalid');
  if (g.players.length >= MAX_PLAYERS) fail('game_full');
  const p = newPlayer(s.seats.uuid(), name, { virtual: true, creator: false, color: freeColor(g), avatar: avatar ?? '' });
  p.controller = controller;
  g.players.push(p);
  return p;
}

/** Removes a player (leave, kick by `remover`, logout, expiry) as docs/rules.md#a7 says. */
function removePlayer(s: Step, target: Player, remover?: Player): void {
  const g = s.g;
  const seat = g.players.indexOf(target);
  const n = g.players.length;
  const leaving = playerPayload(target);
  // who removed him, as he was before the removal (still the creator)
  const removedBy = remover ? playerPayload(remover) : undefined;
  if (target.creator) {
    target.creator = false;
    for (let i = 1; i < n; i++) {
      const p = g.players[(seat + i) % n] as Player;
      if (!p.virtual) {
        p.creator = true;
        break;
      }
    }
  }
  const wasTurn = target.turn_player;
  const phase = g.state;
  if (isRunning(g)) {
    g.discard = [...g.discard, ...target.hits];
    target.hits = [];
    if (wasTurn && phase !== 'Confirming') {
      dropCurrent(g);
      for (const id of g.intercepts) {
        const p = g.players.find((q) => q.id === id);
        if (p) p.tokens = Math.min(MAX_TOKENS, p.tokens + COST_INTERCEPT);
      }
    }
  }
  g.players.splice(seat, 1);
  let newDj: Player | undefined;
  if (g.dj?.id === target.id) {
    // the round goes on with the creator as its DJ: he holds cards, so he plays on
    newDj = g.players.find((p) => p.creator && !p.virtual);
    g.dj = newDj ? { id: newDj.id, plays: true } : null;
  }
  // a DJ chosen for the next round who left: the creator again
  if (g.settings.dj === target.id) g.settings = { ...g.settings, dj: '' };
  g.intercepts = g.intercepts.filter((id) => id !== target.id);
  if (g.last_scored === target.id) g.last_scored = null;
  emit(s, 'leave', { players: [leaving], ...(removedBy ? { removed_by: removedBy } : {}), ...(newDj ? { dj: playerPayload(newDj) } : {}) });

  if (!g.players.some((p) => !p.virtual)) {
    s.deleted = true;
    clearTable(g);
    emit(s, 'change_state', { state: 'Open' });
    return;
  }
  if (!isRunning(g)) {
    emitState(s);
    return;
  }
  if (playingSeats(g).length < MIN_PLAYERS) {
    endRound(s, null);
    return;
  }
  if (wasTurn) {
    // the seat after the leaver now has the leaver's index
    startTurn(s, seat);
    if (isRunning(g)) emitState(s);
    return;
  }
  if (revealIfAllAnswered(s)) return;
  if (g.state === 'Confirming' && !g.players.some((p) => p.state === 'Confirming')) {
    reassignConfirmer(s);
    return;
  }
  emitState(s);
}
