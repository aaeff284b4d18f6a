import type { Action, RuleError } from './types.ts';

/**
 * Every expected failure of the engine: a stable code, the HTTP status of docs/rules.md#a2
 * and the reference server's English message (kept verbatim so existing clients keep working).
 * Codes double as i18n keys (`errors.<code>`).
 */
export const ERRORS = {
  // lookup (answered by the server, which knows which games exist)
  game_id_not_found: [404, 'game id not found'],
  game_not_found: [404, 'game not found'],
  game_with_id_not_found: [404, 'game with that id not found'],
  // membership
  not_a_player: [403, 'user is not part of this game'],
  player_not_found: [404, "a player with this id isn't part of this game"],
  // join
  already_running: [409, 'the game is already running'],
  already_joined: [409, 'user is already part of this game'],
  virtual_only_local: [403, 'virtual players can only be added to local games'],
  creator_only_virtual: [403, 'only the creator can add virtual players to a game'],
  game_full: [409, 'the game is full (at most 10 players)'],
  name_invalid: [400, 'the player name must be 1 to 32 characters long, with no control or invisible characters and no Latin, Cyrillic and Greek letters mixed'],
  name_taken: [409, 'a player with this name is already part of this game'],
  avatar_invalid: [400, 'the avatar must be a single emoji, or empty for initials'],
  // refused by the server for new joins, not by the engine (a stored game with such names still replays)
  name_look_alike: [409, 'a player whose name looks the same is already part of this game'],
  // avatar
  local_only_avatar: [403, 'avatars of other players can only be chosen in local games'],
  creator_only_avatar: [403, 'only the creator can choose the avatars of virtual players'],
  // leave
  creator_only_kick: [403, 'only the creator can kick other players from a game'],
  // start
  not_enough_players: [409, 'you need at least two players to start a game'],
  not_enough_players_dj: [409, 'you need at least two players besides the DJ, who sits out, to start a game'],
  creator_only_start: [403, 'only the creator can start a game'],
  not_enough_hits: [409, "There aren't enough hits available to start a game ({x} individual hits in the currently selected packs, {y} hits are required)"],
  // stop
  creator_only_stop: [403, 'you are not the creator of this game'],
  not_running: [409, "the game isn't running"],
  // update
  game_running: [409, 'game is currently running'],
  creator_only_update: [403, 'user must be creator of the game'],
  invalid_setting: [400, '{field} must be {rule}'],
  unknown_pack: [400, 'packs: unknown pack id {id}'],
  // guess
  local_only_guess: [403, 'guesses for other players can only be submitted in local games'],
  creator_only_guess: [403, 'only the creator can submit guesses for virtual players'],
  cannot_guess: [409, 'this player cannot guess right now'],
  slot_taken: [409, 'this slot is already taken'],
  already_guessed: [409, 'you already submitted a guess'],
  no_token_intercept: [409, "this player doesn't have a token to intercept here"],
  unknown_slot: [409, "a guess with that id doesn't exist for the current turn player"],
  guess_required: [409, 'this player needs to send a guess'],
  // confirm
  has_winner: [409, 'the game already has a winner'],
  cannot_confirm: [409, 'this player cannot confirm right now'],
  // skip
  local_only_skip: [403, 'hits of other players can only be skipped in local games'],
  creator_only_skip: [403, 'only the creator can skip hits of virtual players'],
  cannot_skip: [409, 'this player cannot skip right now'],
  no_token_skip: [409, "this player doesn't have a token to skip here"],
  // claim
  local_only_claim: [403, 'hits of other players can only be claimed in local games'],
  creator_only_claim: [403, 'only the creator can claim hits of virtual players'],
  cannot_claim: [409, 'this player cannot claim a hit right now'],
  no_tokens_claim: [409, "this player doesn't have enough tokens to claim a hit"],
  no_hit_left: [409, 'there is no hit left to claim'],
  // phones playing name-only seats of a Local game (docs/rules.md#local)
  own_seat_only: [403, 'a phone acts only for the seat it plays'],
  local_only_control: [403, 'only the name-only seats of Local games can be played on a phone'],
  seat_key_invalid: [403, "this is not the game's seat key"],
  controller_is_player: [409, 'players of this game play on their own device; a phone takes a name-only seat'],
  seat_not_virtual: [409, 'only a name-only seat can be played on a phone'],
  seat_not_controlled: [409, 'no phone plays this seat'],
  creator_or_controller_release: [403, 'only the creator or the phone playing this seat can give it back'],
  local_only_seat_key: [409, 'only Local games have a seat key'],
  creator_only_seat_key: [403, "only the creator's device receives the seat key"],
  // year disputes (docs/rules.md#disputes)
  local_only_dispute: [403, 'disputes for other players can only be raised in local games'],
  creator_only_dispute: [403, 'only the creator can dispute for virtual players'],
  local_only_vote: [403, 'votes for other players can only be cast in local games'],
  creator_only_vote: [403, 'only the creator can vote for virtual players'],
  disputes_off: [409, 'disputes are off in this game'],
  nothing_to_dispute: [409, 'there is no revealed card to dispute now'],
  dispute_open: [409, 'the table is voting on a dispute'],
  no_disputes_left: [409, 'this player has no disputes left in this round'],
  same_year: [400, "the proposed year must differ from the card's year"],
  no_dispute: [409, 'there is no dispute to vote on'],
  already_voted: [409, 'this player already voted'],
  // audio (served by the server; the rules decide what may be heard)
  audio_not_running: [409, "game currently isn't running"],
  hit_not_revealed: [404, "the hit isn't currently revealed"],
  no_hit: [409, 'no hit found'],
  audio_members_only: [403, 'only players of this game may hear its hidden hit'],
  no_audio_card_mode: [404, 'this game shows its hits as cards and has no audio'],
  no_audio_dj_mode: [404, "this game's DJ plays its hits from YouTube; the server sends no audio"],
  // the DJ's video (dj clue mode)
  no_dj_mode: [404, "this game's hits are not played by a DJ"],
  dj_only: [403, "only the DJ's device receives the hidden hit's video"],
  hit_file_missing: [404, "hit file couldn't be found"],
  // system actions
  no_deadline: [409, 'no deadline has passed'],
  bad_action: [400, 'malformed action: {detail}'],
} as const satisfies Record<string, readonly [RuleError['status'], string]>;

export type ErrorCode = keyof typeof ERRORS;

/** The game lookups every action of a seated or unseated user may fail with (a Local game is not seen by others). */
const SEEN = ['game_not_found', 'not_a_player'] as const;

/**
 * Which codes each action can be refused with by the engine, besides
 * `bad_action` (a malformed action, any type). The route table documents a
 * game action's errors from this list; the fuzzer checks every refusal it
 * meets against it, so the list cannot fall behind the handlers.
 */
export const ACTION_ERRORS = {
  join: ['game_not_found', 'already_running', 'already_joined', 'dispute_open', 'avatar_invalid', 'game_full'],
  join_local: [...SEEN, 'already_running', 'virtual_only_local', 'creator_only_virtual', 'dispute_open', 'name_invalid', 'name_taken', 'avatar_invalid', 'game_full'],
  avatar: [...SEEN, 'avatar_invalid', 'local_only_avatar', 'creator_only_avatar', 'own_seat_only', 'player_not_found'],
  leave: [...SEEN, 'creator_only_kick', 'player_not_found'],
  update: [...SEEN, 'game_running', 'creator_only_update', 'dispute_open', 'invalid_setting', 'unknown_pack'],
  start: [...SEEN, 'dispute_open', 'not_enough_players', 'already_running', 'creator_only_start', 'invalid_setting', 'not_enough_players_dj', 'not_enough_hits'],
  stop: ['game_with_id_not_found', 'not_a_player', 'creator_only_stop', 'not_running'],
  guess: [...SEEN, 'dispute_open', 'local_only_guess', 'creator_only_guess', 'own_seat_only', 'player_not_found', 'cannot_guess', 'slot_taken', 'already_guessed', 'no_token_intercept', 'unknown_slot', 'guess_required'],
  confirm: [...SEEN, 'dispute_open', 'has_winner', 'cannot_confirm'],
  skip: [...SEEN, 'dispute_open', 'local_only_skip', 'creator_only_skip', 'own_seat_only', 'player_not_found', 'cannot_skip', 'no_token_skip'],
  claim: [...SEEN, 'dispute_open', 'local_only_claim', 'creator_only_claim', 'own_seat_only', 'player_not_found', 'cannot_claim', 'no_tokens_claim', 'no_hit_left'],
  control: ['game_not_found', 'local_only_control', 'seat_key_invalid', 'controller_is_player', 'player_not_found', 'seat_not_virtual', 'already_running', 'dispute_open', 'name_invalid', 'name_taken', 'avatar_invalid', 'game_full'],
  release: ['game_not_found', 'player_not_found', 'seat_not_controlled', 'creator_or_controller_release'],
  dispute: [...SEEN, 'local_only_dispute', 'creator_only_dispute', 'own_seat_only', 'player_not_found', 'disputes_off', 'nothing_to_dispute', 'dispute_open', 'no_disputes_left', 'same_year'],
  vote: [...SEEN, 'local_only_vote', 'creator_only_vote', 'own_seat_only', 'player_not_found', 'no_dispute', 'already_voted'],
  timeout: ['no_deadline'],
  presence: ['player_not_found'],
  rename: ['player_not_found', 'name_invalid'],
  replace_hit: ['no_hit', 'dispute_open'],
} as const satisfies { [T in Action['type']]: readonly ErrorCode[] };

/** Whether the engine may refuse an action of `type` with `code` (ACTION_ERRORS, or malformed). */
export function mayRefuse(type: string, code: string): boolean {
  if (code === 'bad_action') return true;
  const codes: readonly string[] | undefined = (ACTION_ERRORS as Record<string, readonly string[]>)[type];
  return codes?.includes(code) ?? false;
}

/** Builds the error value for `code`, filling `{placeholders}` from `params`. */
export function ruleError(code: ErrorCode, params: Record<string, string | number> = {}): RuleError {
  const [status, template] = ERRORS[code];
  const message = template.replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
  return { code, status, message };
}

/** Signals an expected failure inside the engine; caught by applyAction and returned as a value. */
export class RuleFailure extends Error {
  readonly error: RuleError;
  constructor(error: RuleError) {
    super(error.message);
    this.error = error;
  }
}

/** Throws the typed failure for `code` (only ever caught by applyAction). */
export function fail(code: ErrorCode, params?: Record<string, string | number>): never {
  throw new RuleFailure(ruleError(code, params));
}
