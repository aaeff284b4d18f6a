/** Limits and defaults of the rules (docs/rules.md#a5, #a9, #a10; docs/product.md#limits). */

export const LIMITS = {
  goal: { min: 1, max: 100, default: 10 },
  start_tokens: { min: 0, max: 10, default: 2 },
  hit_duration: { min: 1, max: 255, default: 20 },
  guess_timeout: { min: 0, max: 600, default: 0 },
  intercept_timeout: { min: 0, max: 600, default: 30 },
  confirm_timeout: { min: 0, max: 600, default: 60 },
  /** Seconds the revealed card stays on the table before the next turn's timer starts (0 = at once). */
  reveal_time: { min: 0, max: 15, default: 3 },
  /** Year disputes each player may raise in a round (docs/rules.md#disputes); 0 = no disputes. */
  disputes: { min: 0, max: 10, default: 2 },
  /** Seconds the table has to vote on a dispute, 0 = no limit. */
  dispute_timeout: { min: 0, max: 600, default: 60 },
} as const;

export type NumericSetting = keyof typeof LIMITS;
export const NUMERIC_SETTINGS = Object.keys(LIMITS) as NumericSetting[];

/**
 * Seconds a revealed card stays disputable at least, when its reveal time is
 * shorter (docs/rules.md#disputes): a player needs a moment to read the
 * evidence and type a year.
 */
export const DISPUTE_WINDOW_SECONDS = 20;
/** At most this many players sit at one game (A10). */
export const MAX_PLAYERS = 10;
/** Player colours: one per seat of a full game, indices 0..PLAYER_COLORS-1 (the clients hold the palette). */
export const PLAYER_COLORS = MAX_PLAYERS;
/** Players needed to start. */
export const MIN_PLAYERS = 2;
/** Local player names: trimmed length (A10). */
export const NAME_MIN = 1;
export const NAME_MAX = 32;
/** Token prices. */
export const COST_INTERCEPT = 1;
export const COST_SKIP = 1;
export const COST_CLAIM = 3;
/** Tokens are stored as u8 on the wire; never count past this. */
export const MAX_TOKENS = 255;
/** Hits needed to start: players × goal × this. */
export const HITS_PER_PLAYER_GOAL = 2;
/** Seconds a player may be without connections before the engine treats him as absent (A5). */
export const DISCONNECT_GRACE_SECONDS = 60;
/** Game ids: 8 characters of this alphabet. */
export const GAME_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const GAME_ID_LENGTH = 8;
export const GAME_ID_PATTERN = /^[A-Za-z0-9]{8}$/;

/** How far the latest time zone on Earth (UTC+14, Kiribati) is ahead of UTC, ms. */
const LATEST_ZONE_AHEAD_MS = 14 * 3_600_000;
/**
 * The newest release year a catalogue hit may have: the current year where it is
 * latest on Earth, so a song released on New Year's Day is never refused for the
 * server's time zone. Read at each call (never kept), so a server running over
 * New Year follows the calendar. A later year is a typo ("2099" for "1999").
 */
export function latestHitYear(now: number = Date.now()): number {
  return new Date(now + LATEST_ZONE_AHEAD_MS).getUTCFullYear();
}
