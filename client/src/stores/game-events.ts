import type { DisputePayload, GameMode, GamePayload, GameState, HitPayload, PlayerPayload, Settings, Slot } from '../../../shared/protocol/game.ts';
import type { RoomEvent, RoomEventPlayer } from '../../../shared/protocol/room.ts';

/**
 * What a room event does to the game screen, without words: the game as the
 * events so far described it ({@link Seen}), the step of the round a
 * change_state is ({@link stepOf}), and what the screen keeps of it
 * ({@link screenEffects}: the end dialog, the guess panel's choice, a revealed
 * card). What an event means in words, for the announcer and the feed, is
 * a11y/game-meaning.ts's `announce`, which reads the same steps.
 */

/**
 * Whether a seat of a Local game answers on the game's shared screen: a seat
 * a phone controls (`controller` set) answers on that phone instead
 * (docs/rules.md#local).
 */
export const answersOnThisDevice = (p: Pick<PlayerPayload, 'controller'>): boolean => !p.controller;

/** Where a disputed card is now: the seat whose timeline holds it, or null (the discard pile). */
export const cardHolder = <P extends Pick<PlayerPayload, 'hits'>>(players: readonly P[], dispute: Pick<DisputePayload, 'hit'>): P | null =>
  players.find((p) => p.hits.some((h) => h.id === dispute.hit.id)) ?? null;

/** The seats after the turn player, in seat order, round the table (the order interceptors are listed in). */
export function seatsAfterTurn<P extends Pick<PlayerPayload, 'turn_player'>>(players: readonly P[]): P[] {
  const at = players.findIndex((p) => p.turn_player);
  return [...players.slice(at + 1), ...players.slice(0, Math.max(at, 0))];
}

/** A player an event is about. */
export interface Actor {
  id: string;
  name: string;
  /** The person at this device (never in Local games). */
  you: boolean;
  /** His colour and avatar (PlayerPayload's), for his face in the feed; missing where an event does not carry them. */
  color?: number;
  avatar?: string;
}

/** What the game-ended dialog shows; kept until dismissed. */
export interface EndedRound {
  winner: PlayerPayload | null;
  standings: PlayerPayload[];
  /** The card revealed as the game ended (the one that won it, placed or claimed), when the end event named one. */
  hit?: HitPayload;
  /** The game has just ended (not the results looked at again later): the moment to celebrate. */
  celebrate?: boolean;
}

/** A card turned over: what the reveal moment shows. */
export interface Reveal {
  hit: HitPayload;
  /** Whose turn it was. */
  turn: Actor | null;
  /** The turn player's placement. */
  guess: Slot | null;
  /** Who won the card (placed right, or intercepted right); null: it goes to the discard pile. */
  winner: Actor | null;
  /** The card won the game. */
  final: boolean;
}

/** The phase and seats as the events so far described them, for comparisons across one event. */
export interface Seen {
  state: GameState;
  players: RoomEventPlayer[];
  /** The settings (a GamePayload has them among its own fields). */
  settings: Settings | null;
}

/** Local games have no "you": every seat is someone at the same device. */
export const isYou = (playerId: string, myId: string | undefined, mode: GameMode): boolean => mode !== 'Local' && playerId === myId;

/** A player as an event is about him; `me`: the person at this device. */
export function actorOf(p: Pick<PlayerPayload, 'id' | 'name'> & Partial<Pick<PlayerPayload, 'color' | 'avatar'>>, me: string | undefined, mode: GameMode): Actor {
  return { id: p.id, name: p.name, you: isYou(p.id, me, mode), ...(p.color !== undefined ? { color: p.color, avatar: p.avatar ?? '' } : {}) };
}

/** The game as its synchronized state shows it, when no event has described it yet. */
export const seenOf = (game: GamePayload | null): Seen => ({ state: game?.state ?? 'Open', players: game?.players ?? [], settings: game ?? null });

function replacePlayers(players: RoomEventPlayer[], changed: readonly RoomEventPlayer[]): RoomEventPlayer[] {
  return players.map((p) => changed.find((c) => c.id === p.id) ?? p);
}

/**
 * The game as `event` leaves it described. A change_state's seats are the
 * state's (the room sends its patch before the events, so `game` is already the new one).
 */
export function nextSeen(previous: Seen, event: RoomEvent, game: GamePayload | null): Seen {
  const changed = event.data.players ?? [];
  switch (event.event) {
    case 'join':
      return { ...previous, players: [...previous.players, ...changed] };
    case 'leave':
      return { ...previous, players: previous.players.filter((p) => !changed.some((c) => c.id === p.id)) };
    case 'guess':
    case 'skip':
    case 'claim':
      return { ...previous, players: replacePlayers(previous.players, changed) };
    case 'update':
      // a settings change, or seats whose phone changed (docs/rules.md#local)
      return { ...previous, settings: event.data.settings ?? previous.settings, players: replacePlayers(previous.players, changed) };
    case 'change_state':
      return { ...previous, state: event.data.state ?? previous.state, players: game?.players ?? previous.players };
    case 'dispute':
    case 'vote':
      return { ...previous, players: replacePlayers(previous.players, changed) };
  }
}

/** The step of the round a change_state is, comparing the phase before it with the one after. */
export type Step =
  /** The game was deleted (the room closes next). */
  | 'deleted'
  /** Open → Guessing. */
  | 'started'
  /** Guessing → Intercepting. */
  | 'intercepting'
  /** Into Confirming: the card is turned over. */
  | 'revealed'
  /** Still Confirming (someone else may be asked now). */
  | 'confirming'
  /** Back to Open: stopped by the creator. */
  | 'stopped'
  /** Back to Open: won, or no card left. */
  | 'ended'
  /** Into Guessing from Confirming or Intercepting: the next turn. */
  | 'next_turn'
  /** Still Guessing with another turn player: the turn passed without a reveal. */
  | 'turn_passed'
  /** Nothing the round notices (a seat's connection or name changed). */
  | 'none';

/** The step of change_state `event` (`previous`: before it; `now`: the state's seats, see nextSeen). */
export function stepOf(previous: Seen, event: RoomEvent, now: Seen): Step {
  if (event.final) return 'deleted';
  const was = previous.state;
  const state = now.state;
  if (was === 'Open' && state === 'Guessing') return 'started';
  if (state === 'Intercepting' && was === 'Guessing') return 'intercepting';
  if (state === 'Confirming') return was === 'Confirming' ? 'confirming' : 'revealed';
  if (state === 'Open' && was !== 'Open') return event.data.cause === 'stopped' ? 'stopped' : 'ended';
  if (state === 'Guessing' && was !== 'Guessing') return 'next_turn';
  const turn = (players: readonly RoomEventPlayer[]) => players.find((p) => p.turn_player)?.id;
  if (state === 'Guessing' && turn(previous.players) !== turn(now.players)) return 'turn_passed';
  return 'none';
}

/** What an event does to the screen. */
export interface ScreenEffects {
  /** The game as this event leaves it described. */
  seen: Seen;
  /** This event was this person leaving by himself. */
  ownLeave: boolean;
  /** The game was deleted with this event (the room closes next); `byOwnLeave`: by this person's own leaving. */
  closed?: { byOwnLeave: boolean };
  /** The end dialog: a new one, or null to close it; absent = unchanged. */
  ended?: EndedRound | null;
  /** The guess panel's choice no longer applies (a new turn, an end). */
  clearChoice: boolean;
  /** A card was revealed. */
  reveal?: Reveal;
  /** The table took another year for a revealed card (docs/rules.md#disputes): its year now and who won it under that year. */
  rejudged?: { hit: string; year: number; winner: Actor | null };
}

/**
 * What `event` does to the screen, given the game as the events before it
 * described it (`previous`), the synchronized game (already the new one), the
 * person at this device and whether the event before this one was his own
 * leaving. Changes nothing it is given.
 */
export function screenEffects(previous: Seen, event: RoomEvent, game: GamePayload | null, me: string | undefined, ownLeaveBefore: boolean): ScreenEffects {
  const seen = nextSeen(previous, event, game);
  const data = event.data;
  const first = data.players?.[0];
  // the game's last events may be this leave, then the deleting change_state
  // (by id: a Local game says no "you", yet its creator's own leaving deletes it)
  const ownLeave = event.event === 'leave' && !!first && !data.removed_by && first.id === me;
  const out: ScreenEffects = { seen, ownLeave, clearChoice: false };
  const mode = game?.mode ?? 'Local';
  const decided = event.event === 'dispute' ? data.dispute : undefined;
  if (decided?.outcome === 'changed') {
    // the state before this event already holds the card where it belongs now
    const holder = cardHolder(game?.players ?? [], decided);
    out.rejudged = { hit: decided.hit.id, year: decided.year, winner: holder ? actorOf(holder, me, mode) : null };
  }
  if (event.event !== 'change_state') return out;
  const revealOf = (hit: HitPayload, seats: readonly RoomEventPlayer[], final: boolean): Reveal => {
    const turn = seats.find((p) => p.turn_player) ?? previous.players.find((p) => p.turn_player);
    return {
      hit,
      turn: turn ? actorOf(turn, me, mode) : null,
      guess: turn?.guess ?? null,
      winner: data.last_scored ? actorOf(data.last_scored, me, mode) : null,
      final,
    };
  };
  switch (stepOf(previous, event, seen)) {
    case 'deleted':
      out.closed = { byOwnLeave: ownLeaveBefore };
      break;
    case 'started':
      out.ended = null;
      out.clearChoice = true;
      break;
    case 'revealed':
      if (data.hit) out.reveal = revealOf(data.hit, seen.players, false);
      break;
    case 'stopped':
      // stopped, not won: no result and no end dialog
      out.clearChoice = true;
      out.ended = null;
      break;
    case 'ended':
      out.clearChoice = true;
      // a placement that won: the card is turned over as the game ends (a claim names its card in its own event)
      if (data.hit && data.last_scored) out.reveal = revealOf(data.hit, previous.players, true);
      out.ended = { winner: data.winner ?? null, standings: data.standings ?? [], ...(data.hit ? { hit: data.hit } : {}), celebrate: true };
      break;
    case 'next_turn':
    case 'turn_passed':
      out.clearChoice = true;
      break;
    case 'intercepting':
    case 'confirming':
    case 'none':
      break;
  }
  return out;
}
