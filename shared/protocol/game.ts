import { z } from 'zod';
import { LIMITS, MAX_PLAYERS, MAX_TOKENS, NAME_MAX, NAME_MIN, PLAYER_COLORS, type NumericSetting } from '../rules/constants.ts';
import { isAvatar } from '../rules/names.ts';
import { CLUE_MODES, EVENT_CAUSES, GAME_MODES, GAME_STATES, PLAYER_STATES } from '../rules/types.ts';
import { CountSchema, GameIdSchema, personName, UuidSchema } from './common.ts';

/**
 * Games on the wire: the payloads the engine's views produce (shared/rules/views.ts)
 * and the REST bodies of the game endpoints (docs/rules.md#endpoints, #a9, #a10).
 * Enum values are PascalCase, as the reference server serialises them.
 */

/** Phase of a game: `Open` (not running), `Guessing`, `Intercepting`, `Confirming`. */
export const GameStateSchema = z.enum(GAME_STATES);
/** `Public` (listed), `Private` (unlisted, the id is the invitation), `Local` (one device). */
export const GameModeSchema = z.enum(GAME_MODES);
/** What a player is expected to do now: `Waiting`, `Guessing`, `Intercepting`, `Confirming`. */
export const PlayerStateSchema = z.enum(PLAYER_STATES);
/** How the hidden hit is presented: `audio` (heard), `card` (title and artist read aloud) or `dj` (the DJ's device plays it from YouTube). */
export const ClueModeSchema = z.enum(CLUE_MODES);

/** A year in a slot bound: 1..9999, or 0 for the open end. */
const SlotYearSchema = z.int().min(0).max(9999);
/** A release year, 1..9999 (0 is reserved for the open end of a slot). */
export const YearSchema = z.int().min(1).max(9999);
/** A slot id on one timeline: 1-based, u8 on the wire. */
export const SlotIdSchema = z.int().min(1).max(255);

/** A gap on a timeline; both bounds inclusive, 0 = open end (from 0 = "before", to 0 = "after"). */
export const SlotSchema = z.strictObject({
  id: SlotIdSchema,
  from_year: SlotYearSchema,
  to_year: SlotYearSchema,
});

/** A hit as shown in games: never its yt_id or playback offset (strict, so neither can leak). */
export const HitPayloadSchema = z.strictObject({
  id: UuidSchema,
  title: z.string(),
  artist: z.string(),
  /** Film or show the hit belongs to; "" means none. */
  belongs_to: z.string(),
  year: YearSchema,
  packs: z.array(UuidSchema),
});

/** What the table reads aloud in `card` clue mode: title, artist, belongs_to; never the year or id. */
export const ClueSchema = z.strictObject({
  title: z.string(),
  artist: z.string(),
  belongs_to: z.string(),
});

/** The DJ as chosen in the settings: a player's id, or "" for the creator. */
export const DjChoiceSchema = z.union([z.literal(''), UuidSchema]);

/** A whole-number setting within its LIMITS, with the engine's own wording of the rule. */
function settingInt(key: NumericSetting) {
  const { min, max } = LIMITS[key];
  const error = `must be a whole number from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** Every numeric setting's schema; units: goal in cards, start_tokens in tokens, the rest in seconds (0 = off for timeouts; reveal_time 0 = no pause after a reveal). */
const SETTING_NUMBERS = {
  goal: settingInt('goal'),
  start_tokens: settingInt('start_tokens'),
  hit_duration: settingInt('hit_duration'),
  guess_timeout: settingInt('guess_timeout'),
  intercept_timeout: settingInt('intercept_timeout'),
  confirm_timeout: settingInt('confirm_timeout'),
  reveal_time: settingInt('reveal_time'),
  disputes: settingInt('disputes'),
  dispute_timeout: settingInt('dispute_timeout'),
};

/** A game's stored settings (every field present); timeouts in seconds, 0 = off; `reveal_time`: seconds a revealed card stays on the table before the next turn. */
export const SettingsSchema = z.strictObject({
  ...SETTING_NUMBERS,
  /** Selected pack ids; empty only when the catalogue has no packs. */
  packs: z.array(UuidSchema),
  /** How the hidden hit is presented; while `clue_mode_auto` is on, decided when the game starts. */
  clue_mode: ClueModeSchema,
  /** The start decides the clue mode from the chosen packs (audio when enough of their hits have audio, else card; never dj, which only the creator chooses); off once the creator chose one. */
  clue_mode_auto: z.boolean(),
  /** Who plays the hits in `dj` clue mode: a player's id, or "" for the creator. */
  dj: DjChoiceSchema,
  /** `dj` clue mode: the DJ plays along (the table trusts him) or sits out (no cards, no turns). */
  dj_plays: z.boolean(),
});

/** The DJ of a running `dj` round: his player id, and whether he plays along. */
export const DjSeatSchema = z.strictObject({
  id: UuidSchema,
  plays: z.boolean(),
});

/**
 * `GET /api/games/{id}/dj`: what the DJ's device plays now, for the DJ alone.
 * The hidden hit's YouTube id and where to start while Guessing/Intercepting
 * (`seconds` = hit_duration), the revealed hit's while Confirming (`seconds`
 * null: to its end). `player_api` and `player_host` say where YouTube's IFrame
 * Player API script and its player frames come from (the server's configuration).
 */
export const DjClipSchema = z.strictObject({
  draws: CountSchema,
  yt_id: z.string().regex(/^[A-Za-z0-9_-]{11}$/),
  start: CountSchema,
  seconds: z.int().min(1).max(LIMITS.hit_duration.max).nullable(),
  hidden: z.boolean(),
  player_api: z.url(),
  player_host: z.url(),
});

/**
 * Where phones can open this server (docs/api.md#endpoints): the operator's
 * PUBLIC_URL, and, for a browser on the server's own machine only, the
 * server's LAN addresses with the port it listens on.
 */
export const JoinAddressSchema = z.strictObject({
  public_url: z.url().nullable(),
  lan: z.array(z.url()),
});

/** A player's colour: an index into the palette of PLAYER_COLORS (0..9). */
export const PlayerColorSchema = z.int().min(0).max(PLAYER_COLORS - 1);

/**
 * A player's avatar as chosen (joins, the `avatar` action): a single emoji
 * (one grapheme: 🦊, 👩🏽‍🎤, 🇩🇪, #️⃣), or "" for his initials.
 */
export const AvatarSchema = z.string().refine(isAvatar, { error: 'must be a single emoji, or "" for initials' });

/** A player as everyone sees him (the reference server's PlayerPayload plus `connected`). */
export const PlayerPayloadSchema = z.strictObject({
  /** The user's id, or a fresh id for a virtual (local, name-only) player. */
  id: UuidSchema,
  name: z.string(),
  state: PlayerStateSchema,
  creator: z.boolean(),
  /** Cards in acquisition order. */
  hits: z.array(HitPayloadSchema),
  tokens: z.int().min(0).max(MAX_TOKENS),
  slots: z.array(SlotSchema),
  turn_player: z.boolean(),
  guess: SlotSchema.nullable(),
  /** true = a local, name-only player (not a guest user). */
  virtual: z.boolean(),
  /** false once all his connections have been gone past the grace window. */
  connected: z.boolean(),
  /**
   * His colour: an index into the clients' palette of 10 player colours, unique
   * among the seated players (the creator has 0, each joiner the lowest one
   * free), kept for the whole game.
   */
  color: PlayerColorSchema,
  /**
   * One emoji, or "" for his initials. Any string here (not AvatarSchema): a
   * client whose Unicode is older than the server's must still read the game.
   */
  avatar: z.string(),
  /**
   * A name-only seat of a Local game played on a phone: that phone's user id;
   * null for real players and for seats played on the creator's device.
   */
  controller: UuidSchema.nullable(),
});

/** A vote on a dispute: the seat, and whether it takes the proposed year (true) or keeps the card's (false). */
export const DisputeVoteSchema = z.strictObject({
  player: UuidSchema,
  take: z.boolean(),
});

/**
 * A year dispute of the last revealed card (docs/rules.md#disputes): the card
 * as dealt (`hit.year` is the disputed year), the `year` proposed, the seat
 * that raised it, the votes in order (the disputer's own first), when the vote
 * closes (epoch ms; null = no limit), `voters` (the seated players, a majority
 * of whom decides; a tie keeps the year) and the `outcome`: null while the
 * table votes (the game is paused), then `kept` or `changed`.
 */
export const DisputePayloadSchema = z.strictObject({
  hit: HitPayloadSchema,
  year: YearSchema,
  by: UuidSchema,
  votes: z.array(DisputeVoteSchema).max(MAX_PLAYERS),
  until: CountSchema.nullable(),
  outcome: z.enum(['kept', 'changed']).nullable(),
  voters: z.int().min(0).max(MAX_PLAYERS),
});

/**
 * The last revealed card while its year may be disputed: until `until` (epoch
 * ms, the end of the reveal time) and, after that, for as long as the game
 * still waits for that card's confirmation.
 */
export const DisputableSchema = z.strictObject({
  hit: HitPayloadSchema,
  until: CountSchema,
});

/** A whole game as `viewGame()` shows it: the reference server's GamePayload plus timeouts, clue mode, deadline, standings. */
export const GamePayloadSchema = z.strictObject({
  ...SettingsSchema.shape,
  id: GameIdSchema,
  /** Seat order. */
  players: z.array(PlayerPayloadSchema).max(MAX_PLAYERS),
  state: GameStateSchema,
  mode: GameModeSchema,
  /** The revealed hit while Confirming, else null. */
  hit: HitPayloadSchema.nullable(),
  last_scored: PlayerPayloadSchema.nullable(),
  /** Winner of the last ended round, kept until the next start. */
  winner: PlayerPayloadSchema.nullable(),
  /** Final standings of the last ended round, kept until the next start. */
  standings: z.array(PlayerPayloadSchema).nullable(),
  /** When the current phase times out, absolute epoch milliseconds; null when no timer runs. */
  deadline: CountSchema.nullable(),
  /** In `card` clue mode while a hit is hidden: what the table reads aloud; else null. */
  clue: ClueSchema.nullable(),
  /** Mystery cards drawn so far: changes every turn and skip (cache-busts the clip URL). */
  draws: CountSchema,
  /** The DJ of a running `dj` round, else null (before a start the settings' `dj` says who it would be). */
  dj_seat: DjSeatSchema.nullable(),
  /** The revealed card that may be disputed now, else null. */
  disputable: DisputableSchema.nullable(),
  /** The dispute being voted on, or the last decided one until the next reveal; else null. */
  dispute: DisputePayloadSchema.nullable(),
  /** Disputes each seat raised this round, by player id (seats without any left out). */
  disputes_used: z.record(UuidSchema, z.int().min(0).max(LIMITS.disputes.max)),
});

/** A lobby line for one game (the engine's `summarizeGame()`): player count and the creator's name ("" if none). */
export const GameSummarySchema = z.strictObject({
  id: GameIdSchema,
  mode: GameModeSchema,
  state: GameStateSchema,
  players: z.int().min(0).max(MAX_PLAYERS),
  creator: z.string(),
});

/** A partial game carried by game events (keys omitted when absent); `deadline` in epoch ms. */
export const GameUpdateSchema = z.strictObject({
  state: GameStateSchema.optional(),
  players: z.array(PlayerPayloadSchema).optional(),
  hit: HitPayloadSchema.optional(),
  last_scored: PlayerPayloadSchema.optional(),
  winner: PlayerPayloadSchema.optional(),
  settings: SettingsSchema.optional(),
  standings: z.array(PlayerPayloadSchema).optional(),
  deadline: CountSchema.optional(),
  clue: ClueSchema.optional(),
  /** `leave`: the creator who removed the player; absent when the player left himself. */
  removed_by: PlayerPayloadSchema.optional(),
  /** `leave` of a running `dj` round's DJ: the player who plays the hits from now on. */
  dj: PlayerPayloadSchema.optional(),
  /** Why it happened, where no player's own choice says it (EVENT_CAUSES). */
  cause: z.enum(EVENT_CAUSES).optional(),
  /** `change_state` with cause `confirmed`, `rejected` or `stopped`: the player who did it. */
  by: PlayerPayloadSchema.optional(),
  /** `dispute` and `vote`: the dispute as it stands after the event. */
  dispute: DisputePayloadSchema.optional(),
});

/** `GET /api/games` reply: the games the caller may see in the lobby. */
export const GameListSchema = z.strictObject({
  games: z.array(GamePayloadSchema),
});

export type GameState = z.infer<typeof GameStateSchema>;
export type GameMode = z.infer<typeof GameModeSchema>;
export type PlayerState = z.infer<typeof PlayerStateSchema>;
export type ClueMode = z.infer<typeof ClueModeSchema>;
export type Slot = z.infer<typeof SlotSchema>;
export type HitPayload = z.infer<typeof HitPayloadSchema>;
export type Clue = z.infer<typeof ClueSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type PlayerPayload = z.infer<typeof PlayerPayloadSchema>;
export type GamePayload = z.infer<typeof GamePayloadSchema>;
export type GameSummary = z.infer<typeof GameSummarySchema>;
export type GameUpdate = z.infer<typeof GameUpdateSchema>;
export type GameList = z.infer<typeof GameListSchema>;
export type DjSeat = z.infer<typeof DjSeatSchema>;
export type DjClip = z.infer<typeof DjClipSchema>;
export type JoinAddress = z.infer<typeof JoinAddressSchema>;

// ---------------------------------------------------------------------------
// requests

/**
 * The reference server's clients may send `null` for a setting they leave alone (serde's
 * Option): it means "unchanged", exactly like leaving the key out.
 */
function unchangedIfNull<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((v) => v ?? undefined);
}

/**
 * Settings change (`PATCH /api/games/{id}/update`, room message `update`, `settings`
 * of a new game): every field optional, unknown fields refused. Pack ids must be
 * UUIDs here; whether they exist is the engine's check. An empty pack list means
 * every pack.
 */
export const SettingsUpdateSchema = z.strictObject({
  goal: unchangedIfNull(SETTING_NUMBERS.goal),
  start_tokens: unchangedIfNull(SETTING_NUMBERS.start_tokens),
  hit_duration: unchangedIfNull(SETTING_NUMBERS.hit_duration),
  guess_timeout: unchangedIfNull(SETTING_NUMBERS.guess_timeout),
  intercept_timeout: unchangedIfNull(SETTING_NUMBERS.intercept_timeout),
  confirm_timeout: unchangedIfNull(SETTING_NUMBERS.confirm_timeout),
  reveal_time: unchangedIfNull(SETTING_NUMBERS.reveal_time),
  disputes: unchangedIfNull(SETTING_NUMBERS.disputes),
  dispute_timeout: unchangedIfNull(SETTING_NUMBERS.dispute_timeout),
  packs: unchangedIfNull(z.array(UuidSchema)),
  /** A clue mode chosen: it also turns `clue_mode_auto` off, unless the same change sets that. */
  clue_mode: unchangedIfNull(ClueModeSchema),
  clue_mode_auto: unchangedIfNull(z.boolean()),
  /** The DJ of `dj` rounds: a player of the game, or "" for the creator. */
  dj: unchangedIfNull(DjChoiceSchema),
  dj_plays: unchangedIfNull(z.boolean()),
});

/** `POST /api/games` body, optional as a whole: mode defaults to Public, missing settings to the defaults. */
export const CreateGameBodySchema = z
  .strictObject({
    mode: GameModeSchema.default('Public'),
    settings: SettingsUpdateSchema.optional(),
  })
  .prefault({});

/** `POST /api/games/{id}/guess[/{player}]` body: a slot id of the turn player's timeline, or null (missing) to decline. */
export const GuessBodySchema = z
  .strictObject({
    id: SlotIdSchema.nullable().default(null),
  })
  .prefault({});

/** `POST /api/games/{id}/confirm` body: whether the turn player named title and artist correctly. */
export const ConfirmBodySchema = z.strictObject({
  confirm: z.boolean(),
});

/** A local (virtual) player's name (`PATCH /api/games/{id}/join/{name}`): trimmed, 1..32 characters. */
export const LocalPlayerNameSchema = personName(NAME_MIN, NAME_MAX);

/**
 * `PATCH /api/games/{id}/join` and `…/join/{name}` body, optional as a whole
 * (the reference server's clients send none): the new player's avatar, "" (initials) when left out.
 */
export const JoinBodySchema = z
  .strictObject({
    avatar: AvatarSchema.optional(),
  })
  .prefault({});

/** `PATCH /api/games/{id}/avatar[/{player}]` body: the new avatar ("" = initials). */
export const AvatarBodySchema = z.strictObject({
  avatar: AvatarSchema,
});

/**
 * A Local game's seat key (docs/rules.md#local): the secret in the join link the
 * creator's device shows, letting a phone view the game and take one of its
 * name-only seats. base64url, made by the server.
 */
export const SeatKeySchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'must be the seat key the game shows' });

/** `GET /api/games/{id}/seat-key` reply (the creator's device only). */
export const SeatKeyReplySchema = z.strictObject({ key: SeatKeySchema });

/**
 * `?key=` of `GET /api/games/{id}`: a seat key presented. Any text: a wrong
 * key is no key (the game's usual 404), not a malformed request.
 */
export const SeatKeyQuerySchema = z.object({ key: z.string().max(200).optional() });

/**
 * `POST /api/games/{id}/control` body and room message `control`: with the
 * game's seat key, this phone takes the name-only seat `player`, or (while the
 * game is Open) a new seat called `name`.
 */
export const ControlBodySchema = z.union([
  z.strictObject({ key: SeatKeySchema, player: UuidSchema }),
  z.strictObject({ key: SeatKeySchema, name: LocalPlayerNameSchema, avatar: AvatarSchema.optional() }),
]);

/** `POST /api/games/{id}/release` body and room message `release`: the seat whose phone gives it back to the creator's device. */
export const ReleaseBodySchema = z.strictObject({ player: UuidSchema });

export type SettingsUpdate = z.output<typeof SettingsUpdateSchema>;
export type SettingsUpdateInput = z.input<typeof SettingsUpdateSchema>;
export type CreateGameBody = z.output<typeof CreateGameBodySchema>;
export type CreateGameBodyInput = z.input<typeof CreateGameBodySchema>;
export type GuessBody = z.output<typeof GuessBodySchema>;
export type GuessBodyInput = z.input<typeof GuessBodySchema>;
export type ConfirmBody = z.infer<typeof ConfirmBodySchema>;
export type JoinBody = z.output<typeof JoinBodySchema>;
export type AvatarBody = z.infer<typeof AvatarBodySchema>;
/** `POST /api/games/{id}/dispute[/{player}]` body and room message `dispute`: the year proposed instead of the revealed card's. */
export const DisputeBodySchema = z.strictObject({ year: YearSchema });

/** `POST /api/games/{id}/vote[/{player}]` body and room message `vote`: take the proposed year (true) or keep the card's (false). */
export const VoteBodySchema = z.strictObject({ take: z.boolean() });

export type DisputePayload = z.infer<typeof DisputePayloadSchema>;
export type DisputeVote = z.infer<typeof DisputeVoteSchema>;
export type Disputable = z.infer<typeof DisputableSchema>;
export type DisputeBody = z.infer<typeof DisputeBodySchema>;
export type VoteBody = z.infer<typeof VoteBodySchema>;
export type ControlBody = z.output<typeof ControlBodySchema>;
export type ControlBodyInput = z.input<typeof ControlBodySchema>;
export type ReleaseBody = z.infer<typeof ReleaseBodySchema>;
export type SeatKeyReply = z.infer<typeof SeatKeyReplySchema>;
