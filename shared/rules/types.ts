/**
 * Plain-data types of the rules engine. Everything here is JSON-serialisable so a
 * game can be stored, replayed and compared.
 */

import type { RngState } from './rng.ts';

export const GAME_STATES = ['Open', 'Guessing', 'Intercepting', 'Confirming'] as const;
/** The game's phase. Open = not running. */
export type GameState = (typeof GAME_STATES)[number];

export const GAME_MODES = ['Public', 'Private', 'Local'] as const;
/** Public: listed; Private: unlisted, the id is the invitation; Local: one device, creator only. */
export type GameMode = (typeof GAME_MODES)[number];

export const PLAYER_STATES = ['Waiting', 'Guessing', 'Intercepting', 'Confirming'] as const;
export type PlayerState = (typeof PLAYER_STATES)[number];

export const CLUE_MODES = ['audio', 'card', 'dj'] as const;
/**
 * audio: players hear the hidden hit (the server's processed audio); card: they
 * read its title and artist (never the year); dj: one device, the DJ's, plays it
 * from YouTube's embedded player (for a server that cannot download).
 */
export type ClueMode = (typeof CLUE_MODES)[number];

/** A catalogue hit as the engine knows it. Hit objects are never mutated by the engine. */
export interface Hit {
  id: string;
  title: string;
  artist: string;
  /** Film or show the hit belongs to; "" means none. */
  belongs_to: string;
  /** Release year, 1..9999. */
  year: number;
  packs: string[];
  /** YouTube id; two hits with the same yt_id are the same hit. Never sent to clients in games (but to the DJ, see djClip). */
  yt_id?: string | null;
  /** Seconds into the video where the hit is recognisable: where the DJ's player starts. Absent = 0. */
  playback_offset?: number;
}

/** A slot on a timeline. 0 in a bound means "open end". Years inclusive. */
export interface Slot {
  id: number;
  from_year: number;
  to_year: number;
}

export interface Settings {
  /**
   * Cards needed to win (including the starting card), 1..100. A player wins when a
   * card he gains (won at a reveal, or claimed) brings him to the goal; with goal 1
   * the first card won decides.
   */
  goal: number;
  /** Tokens every player receives at start, 0..10. */
  start_tokens: number;
  /** Seconds of the hidden clip, 1..255. */
  hit_duration: number;
  /** Selected pack ids; stored non-empty unless the catalogue has no packs. */
  packs: string[];
  /** Seconds the turn player has to place, 0 = off. */
  guess_timeout: number;
  /** Seconds interceptors have after the placement, 0 = off. */
  intercept_timeout: number;
  /** Seconds the confirmer has, 0 = off. */
  confirm_timeout: number;
  /**
   * Seconds a reveal stays on the table, 0..15: the clients show the revealed
   * card that long before the next turn, and the next turn's timers start only
   * after it.
   */
  reveal_time: number;
  /** Year disputes each player may raise in a round, 0..10 (0 = none; docs/rules.md#disputes). */
  disputes: number;
  /** Seconds the table has to vote on a dispute, 0 = no limit. */
  dispute_timeout: number;
  /**
   * How the hidden hit is presented in this game. While {@link clue_mode_auto} is
   * on, the start decides it (and it holds the last start's choice, or the
   * default, while the game is Open).
   */
  clue_mode: ClueMode;
  /**
   * The clue mode is decided when the game starts, from the chosen packs
   * (`autoClueMode`): `audio` when enough of their hits have audio for the
   * players and the goal, else `card`. On for a new game; choosing a clue mode
   * (a `clue_mode` in a settings change) turns it off. Games stored before it
   * have it off (they keep the mode they were given).
   */
  clue_mode_auto: boolean;
  /**
   * Who plays the hits in `dj` clue mode: a real player's id, or '' for the
   * creator (also when the named player is no longer seated).
   */
  dj: string;
  /** `dj` clue mode: the DJ also plays (he sees what his player shows, so the table trusts him) or sits out. */
  dj_plays: boolean;
}

/** The DJ of a running `dj` round: his seat, and whether he plays too (a seat that sits out gets no cards or turns). */
export interface Dj {
  id: string;
  plays: boolean;
}

export interface Player {
  /** The user's id for real players; a fresh id for virtual (local) players. */
  id: string;
  name: string;
  /** true = a local, name-only player (not a guest user). */
  virtual: boolean;
  creator: boolean;
  state: PlayerState;
  /** Cards in acquisition order. */
  hits: Hit[];
  tokens: number;
  turn_player: boolean;
  /** Copy of the turn player's slot this player chose this turn. */
  guess: Slot | null;
  /** false once all of the player's connections have been gone past the grace window (A5). */
  connected: boolean;
  /**
   * The player's colour, an index into the clients' palette of PLAYER_COLORS:
   * given at his join (the lowest index no seated player has; the creator gets
   * 0), kept for as long as he sits at the game, rounds and rematches
   * included, and free again once he leaves.
   */
  color: number;
  /** One emoji (a single grapheme, see isAvatar), or '' for his initials. Chosen on joining, changed by `avatar`. */
  avatar: string;
  /**
   * A name-only seat of a Local game taken by a phone (`control`): that device's
   * user id; null (or absent, in games stored before phones) while the
   * creator's device plays it, and always for real players.
   */
  controller?: string | null;
}

/**
 * A year dispute of the last revealed card (docs/rules.md#disputes). While
 * `outcome` is null the table votes and the game is paused: no phase timer
 * runs and only votes, leaving, stopping and presence are accepted.
 */
export interface Dispute {
  /** The revealed hit as it was dealt: its `year` is the one disputed. */
  hit: Hit;
  /** The year the disputer proposes instead. */
  year: number;
  /** The seat that raised it. */
  by: string;
  /** Votes in the order cast; the disputer's own (take) is the first. */
  votes: DisputeVote[];
  /** When the vote closes (epoch ms); null when `dispute_timeout` is 0. */
  until: number | null;
  /** When it was raised (epoch ms): the paused phase's deadline moves by the pause. */
  at: number;
  /** null while the vote runs; then `kept` (the year stays) or `changed` (the turn was re-judged with `year`). */
  outcome: 'kept' | 'changed' | null;
}

export interface DisputeVote {
  player: string;
  /** true: take the proposed year; false: keep the card's year. */
  take: boolean;
}

/** A dispute as clients see it: the hit without its video, and how many seats vote. */
export interface DisputePayload {
  hit: HitPayload;
  year: number;
  by: string;
  votes: DisputeVote[];
  until: number | null;
  outcome: 'kept' | 'changed' | null;
  /** Seats that vote (every seated player; a majority of them decides). */
  voters: number;
}

/** Which phase deadline is armed; `at` is absolute epoch milliseconds. */
export interface Deadline {
  /** `Disputing`: the vote on a dispute (docs/rules.md#disputes), while the phase's own deadline is suspended. */
  state: 'Guessing' | 'Intercepting' | 'Confirming' | 'Disputing';
  at: number;
}

/** A player's public payload (the reference server's PlayerPayload). */
export interface PlayerPayload {
  id: string;
  name: string;
  state: PlayerState;
  creator: boolean;
  hits: HitPayload[];
  tokens: number;
  slots: Slot[];
  turn_player: boolean;
  guess: Slot | null;
  virtual: boolean;
  connected: boolean;
  /** Index into the palette of PLAYER_COLORS, unique among the seated players. */
  color: number;
  /** One emoji, or '' for initials. */
  avatar: string;
  /** The user id of the phone playing this name-only seat; null for real players and seats on the creator's device. */
  controller: string | null;
}

/** A hit as shown in games (no yt_id, no playback offset). */
export type HitPayload = Omit<Hit, 'yt_id' | 'playback_offset'>;

/** What the table reads aloud in `card` clue mode: never the year or id. */
export interface Clue {
  title: string;
  artist: string;
  belongs_to: string;
}

/** The whole game as the engine holds it. Never sent as is: see views.ts. */
export interface Game {
  id: string;
  mode: GameMode;
  state: GameState;
  settings: Settings;
  /** Seat order. */
  players: Player[];
  /**
   * The draw pile as dealt or last refilled; its first `deck_at` cards are drawn
   * already, the next mystery card is deck[deck_at] (`remainingDeck`). Never
   * changed once made: every later state of the game shares it instead of a copy
   * per draw (budget P1: a copy of hundreds of cards per turn and room).
   */
  deck: Hit[];
  /** How many cards of `deck` were drawn. */
  deck_at: number;
  /** The hidden mystery card while Guessing/Intercepting; null otherwise. */
  current: Hit | null;
  /** Played cards nobody owns (revealed and lost, skipped, left behind). */
  discard: Hit[];
  /** Keys of every card played in this game; a later start prefers other hits. */
  played: string[];
  /** The most recently revealed hit (Confirming); null otherwise. */
  hit: Hit | null;
  /** Id of the player who won the revealed card. */
  last_scored: string | null;
  /** Player ids in the order they placed an interception this turn (A6). */
  intercepts: string[];
  deadline: Deadline | null;
  /**
   * Until when (epoch ms) the last reveal is on the table (`reveal_time` after
   * it): no phase timer of the next turn runs before. Absent in games stored
   * before reveals took time.
   */
  reveal_until?: number | null;
  /** Winner snapshot of the last ended round, kept until the next start (A11). */
  winner: PlayerPayload | null;
  /** Final standings of the last ended round, kept until the next start (A11). */
  standings: PlayerPayload[] | null;
  /** Counts every new mystery card; lets the server change the clip URL per turn. */
  draws: number;
  /** The deck's random stream (secret; a uint32 in games stored before the streams, rng.ts). */
  rng: RngState | number;
  /** The stream of seat order and virtual player ids (absent in games stored before it: they use `rng`). */
  seat_rng?: RngState;
  /** The DJ while a `dj` round runs; null (or absent, in games stored before the mode) otherwise. */
  dj?: Dj | null;
  /**
   * Local games: the secret that lets a phone view the game and take one of its
   * name-only seats (`control`, docs/rules.md#local). Made by the server; stored,
   * never shown in any view, event or list.
   */
  seat_key?: string;
  /**
   * The year dispute being voted on, or the last decided one until the next
   * reveal or start; null (or absent, in games stored before disputes) otherwise.
   */
  dispute?: Dispute | null;
  /** Disputes each seat raised this round, by player id (reset at the start). */
  disputes_used?: Record<string, number>;
  /**
   * Engine-internal, never in a view or event: what a `changed` dispute of the
   * last revealed card replays (docs/rules.md#disputes). Kept only while that
   * card may still be disputed or its dispute is voted on.
   */
  rejudge?: Rejudge | null;
}

/** The last reveal, as a dispute would re-judge it (shared/rules/disputes.ts). */
export interface Rejudge {
  /** The card revealed, as dealt. */
  hit: Hit;
  /** End of its reveal time (epoch ms); after it, disputable only while its confirmation is awaited. */
  until: number;
  /** The game just before the action that revealed the card (its own `rejudge` dropped). */
  base: Game;
  /** Every action accepted since, the revealing one first, with the time it was applied at (a paused game's clock stands still). */
  log: { action: Action; now: number }[];
  /** The phase's deadline while a vote runs (the vote's own is the game's `deadline`). */
  suspended: Deadline | null;
}

/** Partial game update carried by events (docs/rules.md#events: keys omitted when absent). */
export interface GameUpdate {
  state?: GameState;
  players?: PlayerPayload[];
  hit?: HitPayload;
  last_scored?: PlayerPayload;
  winner?: PlayerPayload;
  settings?: Settings;
  standings?: PlayerPayload[];
  deadline?: number;
  clue?: Clue;
  /** `leave`: the creator who removed the player (a kick); absent when he left himself. */
  removed_by?: PlayerPayload;
  /** `leave` of a running `dj` round's DJ: the player who plays the hits from now on. */
  dj?: PlayerPayload;
  /** Why it happened, where no player's own choice says it (see EVENT_CAUSES). */
  cause?: EventCause;
  /** `change_state` with cause `confirmed`, `rejected` or `stopped`: the player who did it. */
  by?: PlayerPayload;
  /** `dispute` and `vote`: the dispute as it stands after the event. */
  dispute?: DisputePayload;
}

/**
 * An event's cause: `confirmed` / `rejected` (the next turn after the
 * confirmer's answer), `timeout` (the phase's time ran out: the next turn, or
 * an interceptor's `guess` with no slot), `absent` (the player the game waited
 * for is not connected), `stopped` (the creator stopped the game).
 */
export const EVENT_CAUSES = ['confirmed', 'rejected', 'timeout', 'absent', 'stopped'] as const;
export type EventCause = (typeof EVENT_CAUSES)[number];

export const GAME_EVENT_NAMES = ['join', 'leave', 'change_state', 'guess', 'skip', 'claim', 'update', 'dispute', 'vote'] as const;
export type GameEventName = (typeof GAME_EVENT_NAMES)[number];

export interface GameEvent {
  event: GameEventName;
  data: GameUpdate;
}

/** A typed, expected failure: `status` is the HTTP status, `message` the reference server's English text. */
export interface RuleError {
  code: string;
  status: 400 | 401 | 403 | 404 | 409;
  message: string;
}

export type ActionResult =
  | { ok: true; game: Game; events: GameEvent[]; deleted: boolean }
  | { ok: false; error: RuleError };

/** Settings a caller may change; every field optional. */
export type SettingsPatch = Partial<Settings>;

/**
 * Every action the engine understands. `by` is the acting user's id; `player` names
 * the seat acted for (local games). System actions (`timeout`, `presence`,
 * `replace_hit`, `rename`) come from the server itself: `rename` gives a real
 * player's seat the name his user has now (a guest renamed himself).
 */
export type Action =
  | { type: 'join'; by: string; name: string; avatar?: string }
  | { type: 'join_local'; by: string; name: string; avatar?: string }
  | { type: 'avatar'; by: string; player?: string; avatar: string }
  | { type: 'leave'; by: string; player?: string }
  | { type: 'update'; by: string; settings: SettingsPatch; pack_ids: string[] }
  /**
   * `hits`: what the selection may deal in the game's clue mode. `clue_mode`: the
   * mode the server decided for a game whose `clue_mode_auto` is on (the hits are
   * then that mode's); ignored otherwise. Stored with the action, so a replay
   * starts the same way whatever the catalogue holds by then.
   */
  | { type: 'start'; by: string; hits: Hit[]; clue_mode?: ClueMode }
  | { type: 'stop'; by: string }
  | { type: 'guess'; by: string; player?: string; slot: number | null }
  | { type: 'confirm'; by: string; confirm: boolean }
  | { type: 'skip'; by: string; player?: string }
  | { type: 'claim'; by: string; player?: string }
  /**
   * A phone takes a name-only seat of a Local game with the game's seat key:
   * `player` an existing seat, or (while Open) `name` a new one.
   */
  | { type: 'control'; by: string; key: string; player?: string; name?: string; avatar?: string }
  /** The seat goes back to the creator's device (its phone or the creator). */
  | { type: 'release'; by: string; player: string }
  /** Dispute the last revealed card's year, proposing `year` (docs/rules.md#disputes). */
  | { type: 'dispute'; by: string; player?: string; year: number }
  /** A vote on the open dispute: take the proposed year, or keep the card's. */
  | { type: 'vote'; by: string; player?: string; take: boolean }
  | { type: 'timeout' }
  | { type: 'presence'; player: string; connected: boolean }
  | { type: 'replace_hit' }
  | { type: 'rename'; player: string; name: string };

export type ActionType = Action['type'];

export interface ActionContext {
  /** Current time, epoch milliseconds. */
  now: number;
}
