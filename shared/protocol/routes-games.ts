import { z } from 'zod';
import { ACTION_ERRORS, COST_CLAIM, COST_INTERCEPT, COST_SKIP, type ErrorCode } from '../rules/index.ts';
import { GameIdSchema, UuidSchema } from './common.ts';
import {
  AvatarBodySchema,
  ConfirmBodySchema,
  ControlBodySchema,
  CreateGameBodySchema,
  DisputeBodySchema,
  DjClipSchema,
  GameListSchema,
  GamePayloadSchema,
  GuessBodySchema,
  JoinAddressSchema,
  JoinBodySchema,
  LocalPlayerNameSchema,
  ReleaseBodySchema,
  SeatKeyQuerySchema,
  SeatKeyReplySchema,
  SettingsUpdateSchema,
  VoteBodySchema,
} from './game.ts';
import { EvidenceSchema } from './reports.ts';
import { BAD_GAME_ID, badUuid, rule, rules, type ErrorSpec, type RouteSpec } from './routes.ts';

/** The game endpoints (docs/api.md#endpoints): the lobby, a game, and the actions of a turn. */

/** Most games one user may be the creator of at once (leaving a game hands its creator role on). */
export const MAX_GAMES_PER_CREATOR = 10;

export const GAME_HTTP_ERRORS = {
  /** 409 for a game beyond MAX_GAMES_PER_CREATOR. */
  tooManyGames: { status: 409, code: 'too_many_games', message: `you already run ${MAX_GAMES_PER_CREATOR} games; leave one before creating another` },
  unavailable: { status: 503, code: 'unavailable', message: 'the game could not be created, try again' },
} as const;

// path parameters: the shared schemas, with what they stand for
export const gameParam = z.object({ id: GameIdSchema.meta({ description: 'The game id: 8 letters or digits.', example: 'AbCd1234' }) });
const playerParam = z.object({
  ...gameParam.shape,
  player: UuidSchema.meta({ description: 'The player to act for (Local games: the creator any seat, a phone its own) or, for leave, to remove (creator only).' }),
});

const GAME_NOT_FOUND = rule('game_not_found');
const SOME_PACK = { id: '3f0c2a9e-8d4b-4f7a-9c1e-5b6d7e8f9a0b' };
const LOCAL_DJ = { field: 'clue_mode', rule: 'audio or card in a Local game, whose one screen everybody sees' };

/** A game action: PATCH or POST on `/api/games/{id}/…`, answering the reference server's success message. */
function action<const I extends string, const M extends 'patch' | 'post', const P extends string, B extends RouteSpec['body'] = undefined, const W extends boolean = false>(opts: {
  id: I;
  method: M;
  path: P;
  body?: B;
  summary: string;
  description?: string;
  message: string;
  withPlayer?: W;
  badInput?: string;
  /** The engine action behind the route: its errors are the engine's list for it (ACTION_ERRORS). */
  type: keyof typeof ACTION_ERRORS;
  /** Codes of that list this route cannot meet (those of acting for another player, on the route without `{player}`). */
  except?: readonly ErrorCode[];
  /** Example parameters of messages with placeholders. */
  examples?: Partial<Record<ErrorCode, Record<string, string | number>>>;
  /** Errors the server adds before the engine is asked. */
  extra?: readonly ErrorSpec[];
}) {
  const { message, withPlayer, badInput, type, except = [], examples = {}, extra = [], ...rest } = opts;
  const errors = [...ACTION_ERRORS[type].filter((code) => !except.includes(code)).map((code) => rule(code, examples[code])), ...extra];
  const what = withPlayer ? 'The game id or player id' : opts.body ? 'The game id or body' : 'The game id';
  return {
    ...rest,
    body: opts.body as B,
    errors,
    tag: 'games',
    access: 'user',
    rateLimit: 'writes',
    params: (withPlayer ? playerParam : gameParam) as W extends true ? typeof playerParam : typeof gameParam,
    reply: { status: 200, message },
    invalid: { what, example: badInput ?? (withPlayer ? badUuid('player') : BAD_GAME_ID) },
  } satisfies RouteSpec;
}

/** Guess, skip and claim, by the caller or (`/{player}`) for a player of the creator's Local game (or the seat a phone plays). */
const forPlayer = (kind: 'guess' | 'skip' | 'claim' | 'avatar' | 'dispute' | 'vote'): ErrorCode[] => [`local_only_${kind}`, `creator_only_${kind}`, 'own_seat_only', 'player_not_found'];

const guess = <const P extends string, const I extends string, const W extends boolean>(id: I, path: P, withPlayer: W) =>
  action({
    id,
    method: 'post',
    path,
    summary: withPlayer ? 'Guess for a player of a Local game' : 'Place a guess, intercept or decline',
    description: `The turn player names a slot while Guessing; while Intercepting the others name a free slot (${COST_INTERCEPT} token) or send \`null\` to decline.`,
    message: 'guess submitted successfully',
    body: { schema: GuessBodySchema, required: false },
    withPlayer,
    type: 'guess',
    except: withPlayer ? [] : forPlayer('guess'),
  });

const skip = <const P extends string, const I extends string, const W extends boolean>(id: I, path: P, withPlayer: W) =>
  action({
    id,
    method: 'post',
    path,
    summary: withPlayer ? 'Skip for a player of a Local game' : 'Skip the current hit',
    description: `The turn player pays ${COST_SKIP} token for a new mystery card.`,
    message: 'skipped successfully',
    withPlayer,
    type: 'skip',
    except: withPlayer ? [] : forPlayer('skip'),
  });

const claim = <const P extends string, const I extends string, const W extends boolean>(id: I, path: P, withPlayer: W) =>
  action({
    id,
    method: 'post',
    path,
    summary: withPlayer ? 'Claim for a player of a Local game' : 'Claim a hit',
    description: `The turn player, while Guessing, pays ${COST_CLAIM} tokens for the next card under the mystery hit.`,
    message: 'claimed hit successfully',
    withPlayer,
    type: 'claim',
    except: withPlayer ? [] : forPlayer('claim'),
  });

const dispute = <const P extends string, const I extends string, const W extends boolean>(id: I, path: P, withPlayer: W) =>
  action({
    id,
    method: 'post',
    path,
    summary: withPlayer ? 'Dispute for a player of a Local game' : "Dispute the revealed card's year",
    description:
      "A seated player disputes the year of the last revealed card, proposing another (docs/rules.md#disputes): from its reveal until the reveal time is over (at least 20 seconds), or longer while its confirmation is awaited. The game pauses and every seat votes (`vote`); a majority of the seated players takes the proposed year and the turn is re-judged with it, a tie keeps the card's. The disputer's own vote counts for the proposed year. Each player may dispute `disputes` times a round (a setting).",
    message: 'dispute raised successfully',
    body: { schema: DisputeBodySchema, required: true },
    badInput: 'year must be a whole number from 1 to 9999',
    withPlayer,
    type: 'dispute',
    except: withPlayer ? [] : forPlayer('dispute'),
  });

const vote = <const P extends string, const I extends string, const W extends boolean>(id: I, path: P, withPlayer: W) =>
  action({
    id,
    method: 'post',
    path,
    summary: withPlayer ? 'Vote for a player of a Local game' : 'Vote on the open dispute',
    description:
      "`take: true` takes the proposed year, `false` keeps the card's. The vote is decided as soon as a majority of the seated players agrees or everybody voted; when its time (`dispute_timeout`) runs out without such a majority, the year stays.",
    message: 'vote cast successfully',
    body: { schema: VoteBodySchema, required: true },
    badInput: 'take must be true or false',
    withPlayer,
    type: 'vote',
    except: withPlayer ? [] : forPlayer('vote'),
  });

export const GAME_ROUTES = {
  listGames: {
    id: 'listGames',
    method: 'get',
    path: '/api/games',
    tag: 'games',
    summary: 'Games of the lobby',
    description: 'Public games, plus (with a session) Private games the caller plays in and Local games he created. `/api/games/` works too.',
    access: 'optional',
    reply: { status: 200, schema: GameListSchema, description: 'The visible games.' },
    errors: [],
  },
  createGame: {
    id: 'createGame',
    method: 'post',
    path: '/api/games',
    tag: 'games',
    summary: 'Create a game',
    description: 'The caller becomes its first player and creator. The body is optional; `/api/games/` works too.',
    access: 'user',
    rateLimit: 'writes',
    body: { schema: CreateGameBodySchema, required: false },
    reply: {
      status: 201,
      schema: GamePayloadSchema,
      description: 'The new game.',
      headers: z.object({ Location: z.string().meta({ description: '`/games/{id}`: the game\'s page in the web client (no `/api` prefix, as in the reference server).', example: '/games/AbCd1234' }) }),
    },
    invalid: { what: 'The body', example: 'mode must be one of "Public", "Private", "Local"' },
    errors: [rule('unknown_pack', SOME_PACK), GAME_HTTP_ERRORS.tooManyGames, GAME_HTTP_ERRORS.unavailable],
  },
  getGame: {
    id: 'getGame',
    method: 'get',
    path: '/api/games/{id}',
    tag: 'games',
    summary: 'A game',
    description: 'Private games are visible to anyone with the id; Local games only to their creator, the phones playing their seats, and whoever presents the seat key (`?key=`).',
    access: 'optional',
    params: gameParam,
    query: z.object({ key: SeatKeyQuerySchema.shape.key.meta({ description: "A Local game's seat key (from its join link): lets a phone view the game." }) }),
    reply: { status: 200, schema: GamePayloadSchema, description: 'The game as the caller sees it.' },
    invalid: { what: 'The game id', example: BAD_GAME_ID },
    errors: [rule('game_id_not_found')],
  },
  getJoinAddress: {
    id: 'getJoinAddress',
    method: 'get',
    path: '/api/join-address',
    tag: 'games',
    summary: 'Where phones can join',
    description:
      "A browser on `localhost` cannot give phones its own address: this says what they can open instead. `public_url` is the operator's `PUBLIC_URL` (null when unset). `lan` lists the server's non-internal network addresses with the port the request came in on, as origins, and only to a request from a loopback address that no proxy forwarded (anyone else gets `[]`: the server's LAN is nobody else's business).",
    access: 'public',
    reply: { status: 200, schema: JoinAddressSchema, description: 'The addresses.' },
    errors: [],
  },
  getDjClip: {
    id: 'getDjClip',
    method: 'get',
    path: '/api/games/{id}/dj',
    tag: 'games',
    summary: "What the DJ's device plays",
    description:
      "In the `dj` clue mode the DJ's device plays each hit from YouTube's embedded player. It asks here on each new draw (the game's `draws` changes) and gets the hidden hit's YouTube id and playback offset, and while Confirming the revealed hit's. Only the DJ (`dj_seat.id`) gets an answer; everybody else 403 `dj_only`, in every phase, so no other player, payload or event ever learns the hidden hit's video. `Cache-Control: no-store`.",
    access: 'optional',
    params: gameParam,
    reply: { status: 200, schema: DjClipSchema, description: "The DJ's clip." },
    invalid: { what: 'The game id', example: BAD_GAME_ID },
    errors: [...rules('dj_only', 'audio_not_running', 'no_dj_mode', 'no_hit'), GAME_NOT_FOUND],
  },
  getSeatKey: {
    id: 'getSeatKey',
    method: 'get',
    path: '/api/games/{id}/seat-key',
    tag: 'games',
    summary: "A Local game's seat key",
    description:
      "The secret that lets a phone view a Local game and take one of its name-only seats (`control`); the creator's device puts it into the join link it shows. Creator only: others who may view the game get 403 `creator_only_seat_key`, others 404. Public and Private games have none (409). `Cache-Control: no-store`.",
    access: 'user',
    params: gameParam,
    reply: { status: 200, schema: SeatKeyReplySchema, description: 'The seat key.' },
    invalid: { what: 'The game id', example: BAD_GAME_ID },
    errors: [...rules('creator_only_seat_key', 'local_only_seat_key'), GAME_NOT_FOUND],
  },
  controlSeat: action({
    id: 'controlSeat',
    method: 'post',
    path: '/api/games/{id}/control',
    summary: 'Play a seat of a Local game on this phone',
    description:
      "With the game's seat key, the caller's device takes the name-only seat `player`, or (while the game is Open) adds a new one called `name` (the rules of name-only players apply). A device plays at most one seat: taking another gives the first back to the creator's device. Taking a seat another phone plays moves it to this one (the newest phone wins). The game's players (the creator) play on their own device. The seat's `controller` names the phone; it may then guess, skip, claim and change the avatar for that seat only.",
    message: 'seat taken successfully',
    body: { schema: ControlBodySchema, required: true },
    badInput: 'key must be the seat key the game shows',
    type: 'control',
    // the server refuses a new seat whose name looks like a seated player's before the engine sees it
    extra: [rule('name_look_alike')],
  }),
  releaseSeat: action({
    id: 'releaseSeat',
    method: 'post',
    path: '/api/games/{id}/release',
    summary: "Give a phone's seat back to the creator's device",
    description: "By the phone playing the seat, or the creator. The seat stays at the table; the creator's device plays it again.",
    message: 'seat released successfully',
    body: { schema: ReleaseBodySchema, required: true },
    badInput: badUuid('player'),
    type: 'release',
  }),
  joinGame: action({
    id: 'joinGame',
    method: 'patch',
    path: '/api/games/{id}/join',
    summary: 'Join a game',
    description: 'The seat takes the caller\'s name, the lowest player colour (0..9) nobody at the game has, and the avatar of the optional body (his initials without one). The reference server\'s clients send no body.',
    message: 'joined the game successfully',
    body: { schema: JoinBodySchema, required: false },
    badInput: 'avatar must be a single emoji, or "" for initials',
    type: 'join',
  }),
  addLocalPlayer: {
    ...action({
      id: 'addLocalPlayer',
      method: 'patch',
      path: '/api/games/{id}/join/{name}',
      summary: 'Add a name-only player to a Local game',
      description:
        "Creator only. The name is the rest of the path, percent-decoded and trimmed. It may not look like a seated player's name (the same letters in another script, \"0\" for \"O\"; Unicode's confusable skeletons). The optional body gives the seat an avatar; its colour is the lowest one free.",
      message: 'joined the game successfully',
      body: { schema: JoinBodySchema, required: false },
      type: 'join_local',
      // the server refuses a name that looks like a seated player's before the engine sees it
      extra: [rule('name_look_alike')],
    }),
    restParam: 'name',
    // the name is checked by its handler (an engine error, `name_invalid`), not as a 400 of the path
    params: z.object({ ...gameParam.shape, name: LocalPlayerNameSchema.meta({ description: 'The new player\'s name, 1..32 characters.' }) }),
  },
  changeAvatar: action({
    id: 'changeAvatar',
    method: 'patch',
    path: '/api/games/{id}/avatar',
    summary: 'Change one\'s avatar',
    description: 'In any phase; the seats get a `change_state` with the players.',
    message: 'avatar changed successfully',
    body: { schema: AvatarBodySchema, required: true },
    badInput: 'avatar must be a single emoji, or "" for initials',
    type: 'avatar',
    except: forPlayer('avatar'),
  }),
  changeAvatarFor: action({
    id: 'changeAvatarFor',
    method: 'patch',
    path: '/api/games/{id}/avatar/{player}',
    summary: 'Change the avatar of a player of a Local game',
    description: 'Creator only, any seat of his Local game.',
    message: 'avatar changed successfully',
    body: { schema: AvatarBodySchema, required: true },
    withPlayer: true,
    type: 'avatar',
  }),
  leaveGame: action({
    id: 'leaveGame',
    method: 'patch',
    path: '/api/games/{id}/leave',
    summary: 'Leave a game',
    description: 'Creator and turn pass on; a game without real players is deleted.',
    message: 'left the game successfully',
    type: 'leave',
    except: ['creator_only_kick', 'player_not_found'],
  }),
  kickPlayer: action({
    id: 'kickPlayer',
    method: 'patch',
    path: '/api/games/{id}/leave/{player}',
    summary: 'Remove a player',
    description: 'Creator only (any mode, real or name-only players); naming oneself leaves.',
    message: 'left the game successfully',
    withPlayer: true,
    type: 'leave',
  }),
  startGame: action({
    id: 'startGame',
    method: 'patch',
    path: '/api/games/{id}/start',
    summary: 'Start a game',
    description:
      'Creator only; needs two players and players × goal × 2 hits with audio in the selected packs (in `card` clue mode, any hits; in `dj` clue mode, hits with a YouTube id, and a DJ who sits out does not count as a player). A game with `clue_mode_auto` is given its clue mode here: `audio` when that many hits of its packs have audio, else `card` (see `GET /api/hits/playable`); a DJ (`dj`) plays only when the creator chose one.',
    message: 'started game',
    type: 'start',
    examples: { not_enough_hits: { x: 25, y: 40 }, invalid_setting: LOCAL_DJ },
  }),
  stopGame: action({
    id: 'stopGame',
    method: 'patch',
    path: '/api/games/{id}/stop',
    summary: 'Stop a running game',
    message: 'stopped game',
    type: 'stop',
  }),
  updateGame: action({
    id: 'updateGame',
    method: 'patch',
    path: '/api/games/{id}/update',
    summary: 'Change the settings',
    description:
      'Creator only, while the game is Open. Out-of-range values and unknown pack ids are refused (400); so are a `dj` who is not a player of the game, and the `dj` clue mode in a Local game (everybody sees its one screen).',
    message: 'game updated successfully',
    body: { schema: SettingsUpdateSchema, required: true, absentAsEmpty: true },
    badInput: 'goal must be a whole number from 1 to 100',
    type: 'update',
    examples: { unknown_pack: SOME_PACK, invalid_setting: { field: 'dj', rule: 'the id of a player of this game, or empty for the creator' } },
  }),
  guess: guess('guess', '/api/games/{id}/guess', false),
  guessFor: guess('guessFor', '/api/games/{id}/guess/{player}', true),
  confirm: action({
    id: 'confirm',
    method: 'post',
    path: '/api/games/{id}/confirm',
    summary: 'Confirm title and artist',
    description: 'The confirming player says whether the turn player named the hit correctly (a correct answer earns a token).',
    message: 'confirmation received',
    body: { schema: ConfirmBodySchema, required: true },
    badInput: 'confirm must be true or false',
    type: 'confirm',
  }),
  skip: skip('skip', '/api/games/{id}/skip', false),
  skipFor: skip('skipFor', '/api/games/{id}/skip/{player}', true),
  claim: claim('claim', '/api/games/{id}/claim', false),
  claimFor: claim('claimFor', '/api/games/{id}/claim/{player}', true),
  dispute: dispute('dispute', '/api/games/{id}/dispute', false),
  disputeFor: dispute('disputeFor', '/api/games/{id}/dispute/{player}', true),
  vote: vote('vote', '/api/games/{id}/vote', false),
  voteFor: vote('voteFor', '/api/games/{id}/vote/{player}', true),
  getEvidence: {
    id: 'getEvidence',
    method: 'get',
    path: '/api/games/{id}/evidence',
    tag: 'games',
    summary: "The evidence about the revealed card's year",
    description:
      "For whoever may view the game, and only after a reveal: while its card may be disputed, while a dispute is voted on, and for the last decided dispute. The catalogue's year with its history, the hit's earlier reports and their outcomes, and the outside sources' answers (docs/disputes.md#evidence), each with its source and when it was found; sources still looking or unreachable are listed in `missing` (ask again for their answers). Never the hidden card's: 409 `no_evidence` before its reveal.",
    access: 'optional',
    params: gameParam,
    reply: { status: 200, schema: EvidenceSchema, description: 'What is known about the year.' },
    invalid: { what: 'The game id', example: BAD_GAME_ID },
    errors: [{ status: 409, code: 'no_evidence', message: 'there is no revealed card to show evidence for' }, GAME_NOT_FOUND],
  },
} as const satisfies Record<string, RouteSpec>;
