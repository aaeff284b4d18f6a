import { describe, expect, it } from 'vitest';
import {
  applyAction,
  audioAccess,
  createGame,
  djClip,
  gameNotFound,
  slotsFor,
  viewGame,
  type Game,
  type GameMode,
  type Player,
  type RuleError,
  type SettingsPatch,
  remainingDeck,
} from '../../shared/rules/index.ts';
import { act, makeHits, newGame, PACK_A, PACK_B, testSeed, uid } from './helpers.ts';

/**
 * One scenario per row of the error table (docs/rules.md#errors), plus the errors our decisions
 * added or changed (A3 claim, A4 decline, A9 settings, A10 players, A12 Local
 * visibility and audio) and malformed actions.
 *
 * Every test builds the state through real actions, applies the failing action and
 * checks status (docs/rules.md#a2), code and the verbatim message, and that the game it
 * was given is unchanged. Where a state cannot be reached through actions the test
 * edits a copy by hand and says why.
 */

const NOW = 1_000_000;
const ALICE = uid(1); // creator of every game built here
const BOB = uid(2);
const CAROL = uid(3);
const MALLORY = uid(66); // a second real user hand-seated in a Local game (W17)
const GHOST = uid(77); // well-formed id of nobody in the game
const STRANGER = uid(99); // authenticated, not a player
const PACKS = [PACK_A, PACK_B];
/** Distinct years, so slots are predictable: k cards give k+1 slots. */
const HITS = makeHits(300, { years: (i) => 1700 + i });

interface Expected {
  status: RuleError['status'];
  code: string;
  message: string;
}
const err = (status: RuleError['status'], code: string, message: string): Expected => ({ status, code, message });

/** Applies `action`, which must fail with exactly `expected`, without throwing or touching `game`. */
function expectError(game: Game, action: unknown, expected: Expected): void {
  const before = structuredClone(game);
  let result: ReturnType<typeof applyAction> | undefined;
  expect(() => {
    result = applyAction(game, action, { now: NOW });
  }).not.toThrow();
  expect(result).toStrictEqual({ ok: false, error: expected });
  expect(game).toStrictEqual(before);
}

/** audioAccess must refuse with exactly `expected` and leave the game alone. */
function expectAudioError(game: Game, viewer: string | null, hitId: string | undefined, expected: Expected): void {
  const before = structuredClone(game);
  const result = audioAccess(game, viewer, hitId);
  expect(result).toStrictEqual({ ok: false, error: expected });
  expect(game).toStrictEqual(before);
}

// ---------------------------------------------------------------------------
// builders (real actions only)

/** An Open game of ALICE (creator) with `users` joined as themselves. */
function lobby(mode: GameMode = 'Public', settings?: SettingsPatch, users: string[] = [BOB]): Game {
  let g = newGame(mode, settings ? { settings } : {});
  users.forEach((id, i) => {
    g = act(g, { type: 'join', by: id, name: `user${i + 2}` }).game;
  });
  return g;
}

/** An Open Local game of ALICE with the named virtual players. */
function localLobby(names: string[] = ['bob'], settings?: SettingsPatch): Game {
  let g = newGame('Local', settings ? { settings } : {});
  for (const name of names) g = act(g, { type: 'join_local', by: ALICE, name }).game;
  return g;
}

const start = (g: Game): Game => act(g, { type: 'start', by: ALICE, hits: HITS }).game;

/** The turn player and the two seats after him (the next one confirms in non-Local games). */
function seats(g: Game): { turn: Player; next: Player; after: Player } {
  const n = g.players.length;
  const t = g.players.findIndex((p) => p.turn_player);
  expect(t).toBeGreaterThanOrEqual(0);
  return { turn: g.players[t]!, next: g.players[(t + 1) % n]!, after: g.players[(t + 2) % n]! };
}

const byName = (g: Game, name: string): Player => g.players.find((p) => p.name === name)!;

/** The turn player places on `slot`. */
function place(g: Game, slot = 1): Game {
  return act(g, { type: 'guess', by: seats(g).turn.id, slot }).game;
}

/** A running two-player Public game in Confirming (nobody holds a token, so the placement reveals). */
function confirming(): Game {
  const g = place(start(lobby('Public', { start_tokens: 0 })));
  expect(g.state).toBe('Confirming');
  return g;
}

/** The slot of the turn player's one-card timeline that is right for the mystery card. */
function rightSlot(g: Game): number {
  const { turn } = seats(g);
  return g.current!.year <= turn.hits[0]!.year ? 1 : 2;
}

/**
 * A Local game with a second REAL user (MALLORY, not the creator) seated by hand.
 * Why by hand: A10/A12 make this unreachable through actions (only the creator may
 * be a real player in a Local game; `join` by anyone else is 404), so the
 * "caller not creator" rows of join(name)/guess(id)/skip(id)/claim(id) can only be
 * shown on such a state (the reference allows it, W17; a stored legacy game could
 * hold it). Everything after the insertion goes through real actions.
 */
function localWithIntruder(): Game {
  const g = structuredClone(localLobby(['bob']));
  g.players.push({
    id: MALLORY,
    name: 'mallory',
    virtual: false,
    creator: false,
    state: 'Waiting',
    hits: [],
    tokens: 0,
    turn_player: false,
    guess: null,
    connected: true,
    color: 2,
    avatar: '',
  });
  return g;
}

// ---------------------------------------------------------------------------

// The error table's "any mutating endpoint → 401" is the server's: tests/server/users.test.ts and games-rest.test.ts check it over HTTP.

describe('error table: GET /games/<id>', () => {
  it('unknown id, or Local and caller not creator → 404 "game id not found"', () => {
    expect(gameNotFound('get')).toStrictEqual(err(404, 'game_id_not_found', 'game id not found'));
    // the Local half: the view layer hides the game from everyone but its creator
    const g = start(localLobby(['bob']));
    const before = structuredClone(g);
    expect(viewGame(g, STRANGER)).toBeNull();
    expect(viewGame(g, null)).toBeNull();
    expect(viewGame(g, ALICE)).not.toBeNull();
    expect(g).toStrictEqual(before);
  });
});

describe('error table: join', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('join')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
    expect(gameNotFound('join_local')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('state ≠ Open → 409 "the game is already running" (the reference server: 403; A2: already running is 409)', () => {
    const g = start(lobby());
    expectError(g, { type: 'join', by: CAROL, name: 'carol' }, err(409, 'already_running', 'the game is already running'));
    // checked before "already a player"
    expectError(g, { type: 'join', by: BOB, name: 'bob' }, err(409, 'already_running', 'the game is already running'));
    // and for virtual players too
    const local = start(localLobby(['bob']));
    expectError(local, { type: 'join_local', by: ALICE, name: 'carol' }, err(409, 'already_running', 'the game is already running'));
  });

  it('join (self), already a player → 409 "user is already part of this game"', () => {
    const g = lobby();
    expectError(g, { type: 'join', by: BOB, name: 'bob' }, err(409, 'already_joined', 'user is already part of this game'));
    expectError(g, { type: 'join', by: ALICE, name: 'alice' }, err(409, 'already_joined', 'user is already part of this game'));
  });

  it('join (name), game not Local → 403 "virtual players can only be added to local games"', () => {
    // 403 like its siblings guess(id)/skip(id)/claim(id): acting for others is not allowed outside Local games (A2)
    for (const mode of ['Public', 'Private'] as const) {
      const g = lobby(mode);
      expectError(
        g,
        { type: 'join_local', by: ALICE, name: 'carol' },
        err(403, 'virtual_only_local', 'virtual players can only be added to local games'),
      );
    }
  });

  it('join (name), caller not creator → 403 "only the creator can add virtual players to a game"', () => {
    const g = localWithIntruder(); // hand-seated second real user, see localWithIntruder
    expectError(
      g,
      { type: 'join_local', by: MALLORY, name: 'carol' },
      err(403, 'creator_only_virtual', 'only the creator can add virtual players to a game'),
    );
  });
});

describe('error table: leave', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('leave')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409; A2: not a member is 403)', () => {
    expectError(lobby(), { type: 'leave', by: STRANGER }, err(403, 'not_a_player', 'user is not part of this game'));
    expectError(start(lobby()), { type: 'leave', by: STRANGER, player: BOB }, err(403, 'not_a_player', 'user is not part of this game'));
  });

  it('leave (id), caller not creator → 403 "only the creator can kick other players from a game"', () => {
    const g = start(lobby('Public', undefined, [BOB, CAROL]));
    expectError(
      g,
      { type: 'leave', by: BOB, player: CAROL },
      err(403, 'creator_only_kick', 'only the creator can kick other players from a game'),
    );
    // also when he names himself (the reference server: any id needs the creator flag)
    expectError(
      g,
      { type: 'leave', by: BOB, player: BOB },
      err(403, 'creator_only_kick', 'only the creator can kick other players from a game'),
    );
  });

  it('leave (id), id not in game → 404 "a player with this id isn\'t part of this game" (the reference server: 409; A2: unknown player is 404)', () => {
    expectError(
      start(lobby()),
      { type: 'leave', by: ALICE, player: GHOST },
      err(404, 'player_not_found', "a player with this id isn't part of this game"),
    );
  });
});

describe('error table: start', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('start')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('< 2 players → 409 "you need at least two players to start a game" (checked before the creator check)', () => {
    const g = newGame();
    const e = err(409, 'not_enough_players', 'you need at least two players to start a game');
    expectError(g, { type: 'start', by: ALICE, hits: HITS }, e);
    expectError(g, { type: 'start', by: STRANGER, hits: HITS }, e);
    // virtual players count, the creator alone does not
    expectError(newGame('Local'), { type: 'start', by: ALICE, hits: HITS }, e);
  });

  it('state ≠ Open → 409 "the game is already running"', () => {
    expectError(start(lobby()), { type: 'start', by: ALICE, hits: HITS }, err(409, 'already_running', 'the game is already running'));
  });

  it('caller not creator → 403 "only the creator can start a game"', () => {
    const g = lobby();
    const e = err(403, 'creator_only_start', 'only the creator can start a game');
    expectError(g, { type: 'start', by: BOB, hits: HITS }, e);
    expectError(g, { type: 'start', by: STRANGER, hits: HITS }, e); // "(or not a player)"
  });

  it('X < players×goal×2 → 409 "There aren\'t enough hits …" with X and Y filled in', () => {
    const g = lobby(); // 2 players, goal 10 → Y = 40
    // X = 37 + 1 (two hits, one yt_id) + 1 (pack B) = 39
    const hits = [
      ...makeHits(37, { years: (i) => 1900 + i }),
      // two recordings with one yt_id count once (docs/rules.md#start: "Each hit appears once")
      { ...makeHits(1, { prefix: 'd1' })[0]!, yt_id: 'same-video' },
      { ...makeHits(1, { prefix: 'd2' })[0]!, yt_id: 'same-video' },
      // hits in unselected packs and hits without packs contribute nothing
      ...makeHits(5, { prefix: 'c', packs: ['00000000-0000-4000-8000-00000000000c'] }),
      ...makeHits(3, { prefix: 'n', packs: [] }),
      ...makeHits(1, { prefix: 'b', packs: [PACK_B] }),
    ];
    expectError(
      g,
      { type: 'start', by: ALICE, hits },
      err(
        409,
        'not_enough_hits',
        "There aren't enough hits available to start a game (39 individual hits in the currently selected packs, 40 hits are required)",
      ),
    );
  });
});

describe('error table: stop', () => {
  it('unknown game → 404 "game with that id not found"', () => {
    expect(gameNotFound('stop')).toStrictEqual(err(404, 'game_with_id_not_found', 'game with that id not found'));
  });

  it('caller not creator → 403 "you are not the creator of this game" (checked before the state)', () => {
    const e = err(403, 'creator_only_stop', 'you are not the creator of this game');
    const running = start(lobby());
    expectError(running, { type: 'stop', by: BOB }, e);
    expectError(running, { type: 'stop', by: STRANGER }, e); // "(or not a player)"
    expectError(lobby(), { type: 'stop', by: BOB }, e); // Open, but the creator check comes first
  });

  it('state Open → 409 "the game isn\'t running"', () => {
    expectError(lobby(), { type: 'stop', by: ALICE }, err(409, 'not_running', "the game isn't running"));
    // also after a stop
    const stopped = act(start(lobby()), { type: 'stop', by: ALICE }).game;
    expectError(stopped, { type: 'stop', by: ALICE }, err(409, 'not_running', "the game isn't running"));
  });
});

describe('error table: update', () => {
  const patch = { goal: 5 };

  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('update')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409)', () => {
    expectError(
      lobby(),
      { type: 'update', by: STRANGER, settings: patch, pack_ids: PACKS },
      err(403, 'not_a_player', 'user is not part of this game'),
    );
  });

  it('state ≠ Open → 409 "game is currently running" (the reference server: 403; A2: not possible now is 409)', () => {
    const g = start(lobby());
    const e = err(409, 'game_running', 'game is currently running');
    expectError(g, { type: 'update', by: ALICE, settings: patch, pack_ids: PACKS }, e);
    // checked before the creator check, and before validating the settings
    expectError(g, { type: 'update', by: BOB, settings: patch, pack_ids: PACKS }, e);
    expectError(g, { type: 'update', by: ALICE, settings: { goal: 0 }, pack_ids: PACKS }, e);
  });

  it('caller not creator → 403 "user must be creator of the game" (the reference server: 409)', () => {
    expectError(
      lobby(),
      { type: 'update', by: BOB, settings: patch, pack_ids: PACKS },
      err(403, 'creator_only_update', 'user must be creator of the game'),
    );
  });
});

describe('error table: guess', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('guess')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409)', () => {
    expectError(start(lobby()), { type: 'guess', by: STRANGER, slot: 1 }, err(403, 'not_a_player', 'user is not part of this game'));
  });

  it('guess (id), not Local → 403 "guesses for other players can only be submitted in local games"', () => {
    const g = start(lobby());
    const { turn, next } = seats(g);
    expectError(
      g,
      { type: 'guess', by: next.id, player: turn.id, slot: 1 },
      err(403, 'local_only_guess', 'guesses for other players can only be submitted in local games'),
    );
  });

  it('guess (id), caller not creator → 403 "only the creator can submit guesses for virtual players"', () => {
    const g = start(localWithIntruder()); // hand-seated second real user, see localWithIntruder
    expectError(
      g,
      { type: 'guess', by: MALLORY, player: byName(g, 'bob').id, slot: 1 },
      err(403, 'creator_only_guess', 'only the creator can submit guesses for virtual players'),
    );
  });

  it('game Open (reference: panic 500, W1) → 409 "this player cannot guess right now"', () => {
    const e = err(409, 'cannot_guess', 'this player cannot guess right now');
    expectError(lobby(), { type: 'guess', by: ALICE, slot: 1 }, e);
    expectError(lobby(), { type: 'guess', by: BOB, slot: null }, e);
    // the race of W1: someone clicks just as the game is stopped
    const stopped = act(start(lobby()), { type: 'stop', by: ALICE }).game;
    expectError(stopped, { type: 'guess', by: BOB, slot: 1 }, e);
    const local = localLobby(['bob']);
    expectError(local, { type: 'guess', by: ALICE, player: byName(local, 'bob').id, slot: 1 }, e);
  });

  it('unknown player id (reference: panic 500, W1) → 404 "a player with this id isn\'t part of this game"', () => {
    const g = start(localLobby(['bob']));
    expectError(
      g,
      { type: 'guess', by: ALICE, player: GHOST, slot: 1 },
      err(404, 'player_not_found', "a player with this id isn't part of this game"),
    );
  });

  it('acting player not Guessing/Intercepting → 409 "this player cannot guess right now" (the reference server: 403)', () => {
    const e = err(409, 'cannot_guess', 'this player cannot guess right now');
    const g = start(lobby());
    expectError(g, { type: 'guess', by: seats(g).next.id, slot: 1 }, e); // not his turn
    const placed = place(g);
    expectError(placed, { type: 'guess', by: seats(placed).turn.id, slot: 2 }, e); // already placed
    const c = confirming();
    for (const p of c.players) expectError(c, { type: 'guess', by: p.id, slot: 2 }, e); // Confirming
  });

  it('slot already chosen by someone → 409 "this slot is already taken"', () => {
    const g = place(start(lobby()), 1);
    expect(g.state).toBe('Intercepting');
    expectError(g, { type: 'guess', by: seats(g).next.id, slot: 1 }, err(409, 'slot_taken', 'this slot is already taken'));
  });

  it('acting player already has a guess → 409 "you already submitted a guess"', () => {
    // 3 players with 3 tokens; the turn player claims so his timeline has 3 slots
    let g = start(lobby('Public', { start_tokens: 3 }, [BOB, CAROL]));
    const { turn, next } = seats(g);
    g = act(g, { type: 'claim', by: turn.id }).game;
    expect(slotsFor(seats(g).turn.hits)).toHaveLength(3);
    g = place(g, 1);
    g = act(g, { type: 'guess', by: next.id, slot: 2 }).game;
    expect(g.state).toBe('Intercepting'); // the third player has not answered yet
    // By hand: the engine sets a player to Waiting the moment he answers, so "still
    // Intercepting but holding a guess" cannot arise through actions (the reference server calls this
    // check practically unreachable). Put him back to Intercepting to reach it.
    const stale = structuredClone(g);
    stale.players.find((p) => p.id === next.id)!.state = 'Intercepting';
    expectError(stale, { type: 'guess', by: next.id, slot: 3 }, err(409, 'already_guessed', 'you already submitted a guess'));
  });

  it('Intercepting and 0 tokens → 409 "this player doesn\'t have a token to intercept here" (the reference server: 403; A2: too few tokens is 409)', () => {
    const g = place(start(lobby()), 1);
    const { next } = seats(g);
    expect(next.state).toBe('Intercepting');
    // By hand: a player is only made Intercepting when he holds a token, and under A3 nothing
    // can spend it before he answers (the reference reached this through a claim, W3/W4).
    const broke = structuredClone(g);
    broke.players.find((p) => p.id === next.id)!.tokens = 0;
    expectError(
      broke,
      { type: 'guess', by: next.id, slot: 2 },
      err(409, 'no_token_intercept', "this player doesn't have a token to intercept here"),
    );
  });

  it('slot id not on the turn player\'s timeline → 409 "a guess with that id doesn\'t exist for the current turn player"', () => {
    const e = err(409, 'unknown_slot', "a guess with that id doesn't exist for the current turn player");
    const g = start(lobby());
    const { turn } = seats(g);
    expect(slotsFor(turn.hits).map((s) => s.id)).toEqual([1, 2]);
    expectError(g, { type: 'guess', by: turn.id, slot: 3 }, e);
    expectError(g, { type: 'guess', by: turn.id, slot: 0 }, e);
    expectError(g, { type: 'guess', by: turn.id, slot: 255 }, e);
    // an interceptor names a slot of the turn player's timeline, not his own
    const placed = place(g, 1);
    expectError(placed, { type: 'guess', by: seats(placed).next.id, slot: 3 }, e);
  });

  it('Guessing and slot null → 409 "this player needs to send a guess"', () => {
    const g = start(lobby());
    expectError(g, { type: 'guess', by: seats(g).turn.id, slot: null }, err(409, 'guess_required', 'this player needs to send a guess'));
  });
});

describe('error table: confirm', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('confirm')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409)', () => {
    expectError(confirming(), { type: 'confirm', by: STRANGER, confirm: true }, err(403, 'not_a_player', 'user is not part of this game'));
  });

  it('someone has ≥ goal hits (won by a placement) → 409 "the game already has a winner"', () => {
    let g = start(lobby('Public', { goal: 2, start_tokens: 0 }));
    g = place(g, rightSlot(g));
    expect(g.state).toBe('Open');
    expect(g.winner).not.toBeNull();
    const e = err(409, 'has_winner', 'the game already has a winner');
    expectError(g, { type: 'confirm', by: ALICE, confirm: true }, e);
    expectError(g, { type: 'confirm', by: BOB, confirm: false }, e);
  });

  it('someone has ≥ goal hits (won by a claim) → 409 "the game already has a winner"', () => {
    let g = start(lobby('Public', { goal: 2, start_tokens: 3 }));
    g = act(g, { type: 'claim', by: seats(g).turn.id }).game;
    expect(g.state).toBe('Open');
    expectError(g, { type: 'confirm', by: BOB, confirm: true }, err(409, 'has_winner', 'the game already has a winner'));
  });

  it('game Open (reference: panic 500, W1) → 409 "this player cannot confirm right now"', () => {
    const e = err(409, 'cannot_confirm', 'this player cannot confirm right now');
    expectError(lobby(), { type: 'confirm', by: BOB, confirm: true }, e);
    const stopped = act(confirming(), { type: 'stop', by: ALICE }).game; // no winner after a stop
    for (const p of stopped.players) expectError(stopped, { type: 'confirm', by: p.id, confirm: true }, e);
  });

  it('caller not Confirming → 409 "this player cannot confirm right now" (the reference server: 403)', () => {
    const e = err(409, 'cannot_confirm', 'this player cannot confirm right now');
    const c = confirming();
    expect(seats(c).next.state).toBe('Confirming');
    expectError(c, { type: 'confirm', by: seats(c).turn.id, confirm: true }, e);
    const g = start(lobby());
    expectError(g, { type: 'confirm', by: seats(g).next.id, confirm: true }, e); // Guessing
    const i = place(g);
    expectError(i, { type: 'confirm', by: seats(i).next.id, confirm: true }, e); // Intercepting
  });
});

describe('error table: skip', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('skip')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409)', () => {
    expectError(start(lobby()), { type: 'skip', by: STRANGER }, err(403, 'not_a_player', 'user is not part of this game'));
  });

  it('skip (id), not Local → 403 "hits of other players can only be skipped in local games"', () => {
    const g = start(lobby());
    const { turn, next } = seats(g);
    expectError(
      g,
      { type: 'skip', by: next.id, player: turn.id },
      err(403, 'local_only_skip', 'hits of other players can only be skipped in local games'),
    );
  });

  it('skip (id), caller not creator → 403 "only the creator can skip hits of virtual players"', () => {
    const g = start(localWithIntruder()); // hand-seated second real user, see localWithIntruder
    expectError(
      g,
      { type: 'skip', by: MALLORY, player: byName(g, 'bob').id },
      err(403, 'creator_only_skip', 'only the creator can skip hits of virtual players'),
    );
  });

  it('unknown player id (reference: panic 500, W1) → 404 "a player with this id isn\'t part of this game"', () => {
    expectError(
      start(localLobby(['bob'])),
      { type: 'skip', by: ALICE, player: GHOST },
      err(404, 'player_not_found', "a player with this id isn't part of this game"),
    );
  });

  it('acting player not Guessing → 409 "this player cannot skip right now" (the reference server: 403)', () => {
    const e = err(409, 'cannot_skip', 'this player cannot skip right now');
    expectError(lobby(), { type: 'skip', by: ALICE }, e); // Open
    const g = start(lobby());
    expectError(g, { type: 'skip', by: seats(g).next.id }, e); // not his turn
    const i = place(g);
    expectError(i, { type: 'skip', by: seats(i).turn.id }, e); // already placed
    expectError(i, { type: 'skip', by: seats(i).next.id }, e); // Intercepting
    const c = confirming();
    expectError(c, { type: 'skip', by: seats(c).next.id }, e); // Confirming
  });

  it('0 tokens → 409 "this player doesn\'t have a token to skip here" (the reference server: 403; A2: too few tokens is 409)', () => {
    const g = start(lobby('Public', { start_tokens: 0 }));
    expectError(g, { type: 'skip', by: seats(g).turn.id }, err(409, 'no_token_skip', "this player doesn't have a token to skip here"));
    // and after spending the last one
    let h = start(lobby('Public', { start_tokens: 1 }));
    h = act(h, { type: 'skip', by: seats(h).turn.id }).game;
    expectError(h, { type: 'skip', by: seats(h).turn.id }, err(409, 'no_token_skip', "this player doesn't have a token to skip here"));
  });
});

describe('error table: claim', () => {
  it('unknown game → 404 "game not found"', () => {
    expect(gameNotFound('claim')).toStrictEqual(err(404, 'game_not_found', 'game not found'));
  });

  it('caller not a player → 403 "user is not part of this game" (the reference server: 409)', () => {
    expectError(start(lobby('Public', { start_tokens: 3 })), { type: 'claim', by: STRANGER }, err(403, 'not_a_player', 'user is not part of this game'));
  });

  it('claim (id), not Local → 403 "hits of other players can only be claimed in local games"', () => {
    const g = start(lobby('Public', { start_tokens: 3 }));
    const { turn, next } = seats(g);
    expectError(
      g,
      { type: 'claim', by: next.id, player: turn.id },
      err(403, 'local_only_claim', 'hits of other players can only be claimed in local games'),
    );
  });

  it('claim (id), caller not creator → 403 "only the creator can claim hits of virtual players"', () => {
    const g = start(localWithIntruder()); // hand-seated second real user, see localWithIntruder
    expectError(
      g,
      { type: 'claim', by: MALLORY, player: byName(g, 'bob').id },
      err(403, 'creator_only_claim', 'only the creator can claim hits of virtual players'),
    );
  });

  it('unknown player id (reference: panic 500, W1) → 404 "a player with this id isn\'t part of this game"', () => {
    expectError(
      start(localLobby(['bob'], { start_tokens: 3 })),
      { type: 'claim', by: ALICE, player: GHOST },
      err(404, 'player_not_found', "a player with this id isn't part of this game"),
    );
  });

  it('< 3 tokens → 409 "this player doesn\'t have enough tokens to claim a hit" (the reference server: 403; A2: too few tokens is 409)', () => {
    const e = err(409, 'no_tokens_claim', "this player doesn't have enough tokens to claim a hit");
    const g = start(lobby()); // 2 tokens
    expectError(g, { type: 'claim', by: seats(g).turn.id }, e);
    const local = start(localLobby(['bob']));
    expectError(local, { type: 'claim', by: ALICE, player: seats(local).turn.id }, e);
  });
});

describe('A3: claim only by the turn player, only while Guessing', () => {
  const e = err(409, 'cannot_claim', 'this player cannot claim a hit right now');

  it('another player during the turn player\'s Guessing → 409 cannot_claim (reference allowed it, W3)', () => {
    const g = start(lobby('Public', { start_tokens: 3 }));
    expectError(g, { type: 'claim', by: seats(g).next.id }, e);
  });

  it('the turn player after his placement (Intercepting) → 409 cannot_claim', () => {
    const g = place(start(lobby('Public', { start_tokens: 3 })));
    expect(g.state).toBe('Intercepting');
    expectError(g, { type: 'claim', by: seats(g).turn.id }, e);
    expectError(g, { type: 'claim', by: seats(g).next.id }, e); // an interceptor (W4's deadlock)
  });

  it('anyone while Confirming → 409 cannot_claim', () => {
    let g = place(start(lobby('Public', { start_tokens: 3 })));
    g = act(g, { type: 'guess', by: seats(g).next.id, slot: null }).game;
    expect(g.state).toBe('Confirming');
    for (const p of g.players) expectError(g, { type: 'claim', by: p.id }, e);
  });

  it('in an Open game → 409 cannot_claim (the state check comes before the tokens)', () => {
    expectError(lobby(), { type: 'claim', by: ALICE }, e);
  });

  it('Local: the creator claiming for a seat that is not the turn player → 409 cannot_claim', () => {
    const g = start(localLobby(['bob'], { start_tokens: 3 }));
    const { next } = seats(g);
    expectError(g, { type: 'claim', by: ALICE, player: next.id }, e);
  });
});

describe('A4: declining an interception needs no token', () => {
  it('an Intercepting player with 0 tokens may decline (but not name a slot)', () => {
    const g = place(start(lobby()), 1);
    const { next } = seats(g);
    // By hand, as in the error table's "Intercepting and 0 tokens" row: unreachable through actions.
    const broke = structuredClone(g);
    broke.players.find((p) => p.id === next.id)!.tokens = 0;
    const before = structuredClone(broke);
    const r = applyAction(broke, { type: 'guess', by: next.id, slot: null }, { now: NOW });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.game.state).toBe('Confirming'); // his answer was the last one
    expect(r.game.players.find((p) => p.id === next.id)!.tokens).toBe(0);
    expect(broke).toStrictEqual(before);
  });
});

describe('error table: audio (audioAccess)', () => {
  it('unknown game → 404 "game not found"; a Local game is unknown to everyone but its creator', () => {
    const e = err(404, 'game_not_found', 'game not found');
    expect(gameNotFound('audio')).toStrictEqual(e);
    const g = start(localLobby(['bob']));
    expectAudioError(g, STRANGER, undefined, e);
    expectAudioError(g, null, undefined, e);
    expectAudioError(g, STRANGER, g.players[0]!.hits[0]!.id, e);
    expect(audioAccess(g, ALICE).ok).toBe(true);
  });

  it('state Open → 409 "game currently isn\'t running"', () => {
    const e = err(409, 'audio_not_running', "game currently isn't running");
    expectAudioError(lobby(), ALICE, undefined, e);
    expectAudioError(lobby(), null, 'h-00000', e);
    const stopped = act(confirming(), { type: 'stop', by: ALICE }).game;
    expectAudioError(stopped, ALICE, undefined, e);
  });

  it('audio (id), no player owns that hit → 404 "the hit isn\'t currently revealed"', () => {
    const e = err(404, "hit_not_revealed", "the hit isn't currently revealed");
    const g = start(lobby());
    // the hidden mystery card above all (A12)
    expectAudioError(g, ALICE, g.current!.id, e);
    expectAudioError(g, null, g.current!.id, e);
    // a card still in the deck, and an id nobody knows
    expectAudioError(g, ALICE, remainingDeck(g)[0]!.id, e);
    expectAudioError(g, ALICE, 'no-such-hit', e);
    // a card somebody owns is fine, in full
    const owned = seats(g).turn.hits[0]!;
    expect(audioAccess(g, null, owned.id)).toStrictEqual({ ok: true, target: { hit: owned, hidden: false, seconds: 20 } });
  });

  it('deck empty (reference: 500) → 409 "no hit found"', () => {
    const g = start(lobby());
    // By hand: the engine never leaves a running game without a mystery card in
    // Guessing/Intercepting (startTurn ends the round when no card is left, A8), so the
    // reference's empty-deck case can only be shown by taking the card away.
    const empty = structuredClone(g);
    empty.current = null;
    empty.deck = [];
    expectAudioError(empty, ALICE, undefined, err(409, 'no_hit', 'no hit found'));
  });

  // mp3 missing on disk → 404 "hit file couldn't be found" is the server's (the engine has no such code; A8 replaces
  // the card): tests/server/audio-serving.test.ts and audio-access.test.ts check it over HTTP.

  it('A8: replacing a card whose audio is missing works only while Guessing → 409 "no hit found" otherwise', () => {
    const e = err(409, 'no_hit', 'no hit found');
    expectError(lobby(), { type: 'replace_hit' }, e);
    const i = place(start(lobby()));
    expectError(i, { type: 'replace_hit' }, e);
    expectError(confirming(), { type: 'replace_hit' }, e);
    const g = start(lobby());
    const r = act(g, { type: 'replace_hit' });
    expect(r.game.current!.id).not.toBe(g.current!.id);
  });

  it('A12: the hidden clip of a Private game is for its players only → 403', () => {
    const e = err(403, 'audio_members_only', 'only players of this game may hear its hidden hit');
    const g = start(lobby('Private'));
    expectAudioError(g, STRANGER, undefined, e);
    expectAudioError(g, null, undefined, e);
    expect(audioAccess(g, BOB)).toMatchObject({ ok: true, target: { hidden: true, seconds: 20 } });
    // Public games are open to spectators
    expect(audioAccess(start(lobby('Public')), null)).toMatchObject({ ok: true, target: { hidden: true } });
  });

  it('card clue mode: no audio for the hidden hit → 404', () => {
    const g = start(lobby('Public', { clue_mode: 'card' }));
    expectAudioError(g, ALICE, undefined, err(404, 'no_audio_card_mode', 'this game shows its hits as cards and has no audio'));
  });
});

describe('A10: players and local names', () => {
  const full = err(409, 'game_full', 'the game is full (at most 10 players)');
  const invalid = err(400, 'name_invalid', 'the player name must be 1 to 32 characters long, with no control or invisible characters and no Latin, Cyrillic and Greek letters mixed');
  const taken = err(409, 'name_taken', 'a player with this name is already part of this game');

  it('an 11th player → 409 game_full', () => {
    const users = Array.from({ length: 9 }, (_, i) => uid(10 + i));
    const g = lobby('Public', undefined, users);
    expect(g.players).toHaveLength(10);
    expectError(g, { type: 'join', by: STRANGER, name: 'eleven' }, full);
  });

  it('an 11th local player → 409 game_full', () => {
    const g = localLobby(Array.from({ length: 9 }, (_, i) => `p${i}`));
    expect(g.players).toHaveLength(10);
    expectError(g, { type: 'join_local', by: ALICE, name: 'eleven' }, full);
  });

  it('local names are trimmed and 1..32 characters → 400 name_invalid', () => {
    const g = localLobby([]);
    for (const name of ['', '   ', '\t\n', 'x'.repeat(33), ` ${'y'.repeat(33)} `]) {
      expectError(g, { type: 'join_local', by: ALICE, name }, invalid);
    }
    // control, text-direction and invisible characters: a name must read as it looks
    for (const name of ['x\u0000y', 'a\tb', 'line\nbreak', 'esc\u001b', 'del\u007f', 'ad\u202emin', '\u200b\u200b', 'a\u2066b', 'B\ufeffob', 'soft\u00adhyphen', 'ar\u061cm', 'line\u2028sep', '\u3164\u3164', '\u2800']) {
      expectError(g, { type: 'join_local', by: ALICE, name }, invalid);
    }
    // look-alike scripts mixed are refused where names come in (schema, REST route), not here:
    // a game stored with such a name before that rule must still replay
    expect(act(g, { type: 'join_local', by: ALICE, name: '\u0410lice' }).game.players).toHaveLength(2);
    // the joiners emoji and some scripts need stay allowed
    expect(act(g, { type: 'join_local', by: ALICE, name: '👩\u200d🎤 Ana' }).game.players).toHaveLength(2);
    expect(act(g, { type: 'join_local', by: ALICE, name: '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Ben' }).game.players).toHaveLength(2);
    // the bounds themselves are fine, after trimming
    expect(act(g, { type: 'join_local', by: ALICE, name: 'z' }).game.players).toHaveLength(2);
    const long = act(g, { type: 'join_local', by: ALICE, name: `  ${'z'.repeat(32)}  ` }).game;
    expect(long.players[1]!.name).toBe('z'.repeat(32));
  });

  it('32 characters that are not all in the BMP are still 32 characters', () => {
    // A10 counts characters, not UTF-16 code units: 32 emoji (64 code units) are a valid name
    const g = localLobby([]);
    const r = applyAction(g, { type: 'join_local', by: ALICE, name: '🎵'.repeat(32) }, { now: NOW });
    expect(r.ok).toBe(true);
  });

  it('local names are unique within the game, case-insensitively → 409 name_taken', () => {
    const g = localLobby(['Bob']);
    expectError(g, { type: 'join_local', by: ALICE, name: 'bob' }, taken);
    expectError(g, { type: 'join_local', by: ALICE, name: '  BOB ' }, taken);
    expectError(g, { type: 'join_local', by: ALICE, name: 'ALICE' }, taken); // the creator's seat too
  });

  it('in a Local game only the creator is a real player: anyone else joining → 404 "game not found"', () => {
    const g = localLobby(['bob']);
    expectError(g, { type: 'join', by: STRANGER, name: 'mallory' }, err(404, 'game_not_found', 'game not found'));
  });
});

describe('avatars: one emoji or initials; a seat of one\'s own, or any seat of a Local game by its creator', () => {
  const invalid = err(400, 'avatar_invalid', 'the avatar must be a single emoji, or empty for initials');

  it('anything but one emoji or "" → 400 avatar_invalid, at the join and later', () => {
    for (const avatar of ['B', 'ab', '🦊🦊', '©', '\u200D', ' ', '🦊 ']) {
      expectError(lobby('Public', undefined, []), { type: 'join', by: BOB, name: 'bob', avatar }, invalid);
      expectError(localLobby([]), { type: 'join_local', by: ALICE, name: 'bob', avatar }, invalid);
      expectError(lobby(), { type: 'avatar', by: BOB, avatar }, invalid);
      expectError(start(lobby()), { type: 'avatar', by: ALICE, avatar }, invalid);
    }
  });

  it('another player\'s avatar outside Local games → 403 local_only_avatar', () => {
    expectError(lobby(), { type: 'avatar', by: ALICE, player: BOB, avatar: '🦊' }, err(403, 'local_only_avatar', 'avatars of other players can only be chosen in local games'));
  });

  it('a virtual seat\'s avatar by a real player who is not the creator → 403 creator_only_avatar', () => {
    const g = localWithIntruder();
    expectError(g, { type: 'avatar', by: MALLORY, player: byName(g, 'bob').id, avatar: '🦊' }, err(403, 'creator_only_avatar', 'only the creator can choose the avatars of virtual players'));
  });

  it('a stranger → 403 not_a_player (404 in a Local game), an unknown seat → 404', () => {
    expectError(lobby(), { type: 'avatar', by: STRANGER, avatar: '🦊' }, err(403, 'not_a_player', 'user is not part of this game'));
    expectError(localLobby(), { type: 'avatar', by: STRANGER, avatar: '🦊' }, err(404, 'game_not_found', 'game not found'));
    expectError(localLobby(), { type: 'avatar', by: ALICE, player: GHOST, avatar: '🦊' }, err(404, 'player_not_found', "a player with this id isn't part of this game"));
  });
});

describe('A9: settings are validated', () => {
  const range = (field: string, min: number, max: number) =>
    err(400, 'invalid_setting', `${field} must be a whole number from ${min} to ${max}`);
  const cases: [string, Record<string, unknown>, Expected][] = [
    ['goal 0', { goal: 0 }, range('goal', 1, 100)],
    ['goal 101', { goal: 101 }, range('goal', 1, 100)],
    ['goal 2.5', { goal: 2.5 }, range('goal', 1, 100)],
    ['goal "10"', { goal: '10' }, range('goal', 1, 100)],
    ['goal null', { goal: null }, range('goal', 1, 100)],
    ['start_tokens -1', { start_tokens: -1 }, range('start_tokens', 0, 10)],
    ['start_tokens 11', { start_tokens: 11 }, range('start_tokens', 0, 10)],
    ['hit_duration 0', { hit_duration: 0 }, range('hit_duration', 1, 255)],
    ['hit_duration 256', { hit_duration: 256 }, range('hit_duration', 1, 255)],
    ['guess_timeout 601', { guess_timeout: 601 }, range('guess_timeout', 0, 600)],
    ['intercept_timeout -1', { intercept_timeout: -1 }, range('intercept_timeout', 0, 600)],
    ['confirm_timeout 600.5', { confirm_timeout: 600.5 }, range('confirm_timeout', 0, 600)],
    ['clue_mode "video"', { clue_mode: 'video' }, err(400, 'invalid_setting', 'clue_mode must be one of audio, card, dj')],
    ['packs not a list', { packs: PACK_A }, err(400, 'invalid_setting', 'packs must be a list of pack ids')],
    ['packs with a number', { packs: [PACK_A, 7] }, err(400, 'invalid_setting', 'packs must be a list of pack ids')],
    ['unknown pack', { packs: [PACK_A, 'nope'] }, err(400, 'unknown_pack', 'packs: unknown pack id nope')],
    ['unknown field', { mode: 'Local' }, err(400, 'invalid_setting', 'mode must be a known setting')],
  ];

  it.each(cases)('update with %s → 400 naming the field', (_, settings, expected) => {
    expectError(lobby(), { type: 'update', by: ALICE, settings, pack_ids: PACKS }, expected);
  });

  it.each(cases)('create with %s → the same 400', (_, settings, expected) => {
    const r = createGame({ id: 'AbCd1234', mode: 'Public', creator: { id: ALICE, name: 'alice' }, seed: testSeed(1), packIds: PACKS, settings });
    expect(r).toStrictEqual({ ok: false, error: expected });
  });

  it('the bounds themselves are accepted', () => {
    const settings = { goal: 100, start_tokens: 10, hit_duration: 255, guess_timeout: 600, intercept_timeout: 0, confirm_timeout: 600 };
    expect(act(lobby(), { type: 'update', by: ALICE, settings, pack_ids: PACKS }).game.settings).toMatchObject(settings);
    const low = { goal: 1, start_tokens: 0, hit_duration: 1 };
    expect(act(lobby(), { type: 'update', by: ALICE, settings: low, pack_ids: PACKS }).game.settings).toMatchObject(low);
  });
});

describe('A12: a Local game is invisible to non-members → 404', () => {
  const notFound = err(404, 'game_not_found', 'game not found');
  const open = () => localLobby(['bob'], { start_tokens: 3 });
  const running = () => start(open());
  const cases: [string, () => Game, Record<string, unknown>, Expected][] = [
    ['join', open, { type: 'join', by: STRANGER, name: 'x' }, notFound],
    ['join (name)', open, { type: 'join_local', by: STRANGER, name: 'x' }, notFound],
    ['leave', running, { type: 'leave', by: STRANGER }, notFound],
    ['leave (id)', running, { type: 'leave', by: STRANGER, player: ALICE }, notFound],
    ['update', open, { type: 'update', by: STRANGER, settings: { goal: 5 }, pack_ids: PACKS }, notFound],
    ['start', open, { type: 'start', by: STRANGER, hits: HITS }, notFound],
    ['stop', running, { type: 'stop', by: STRANGER }, err(404, 'game_with_id_not_found', 'game with that id not found')],
    ['guess', running, { type: 'guess', by: STRANGER, slot: 1 }, notFound],
    ['guess (id)', running, { type: 'guess', by: STRANGER, player: ALICE, slot: 1 }, notFound],
    ['confirm', running, { type: 'confirm', by: STRANGER, confirm: true }, notFound],
    ['skip', running, { type: 'skip', by: STRANGER }, notFound],
    ['claim', running, { type: 'claim', by: STRANGER }, notFound],
  ];
  it.each(cases)('%s by a stranger', (_, build, action, expected) => {
    expectError(build(), action, expected);
  });
});

describe('malformed actions → 400 bad_action, never a throw', () => {
  const bad = (detail: string) => err(400, 'bad_action', `malformed action: ${detail}`);
  const unknownType = bad('unknown action type');
  const guessShape = bad('guess needs by and a slot id (0..255) or null');
  const cases: [string, unknown, Expected][] = [
    ['null', null, unknownType],
    ['undefined', undefined, unknownType],
    ['a number', 42, unknownType],
    ['a string', 'guess', unknownType],
    ['an array', [{ type: 'guess', by: ALICE, slot: 1 }], unknownType],
    ['an empty object', {}, unknownType],
    ['an unknown type', { type: 'dance', by: ALICE }, unknownType],
    ['an inherited property as type', { type: 'toString', by: ALICE }, unknownType],
    ['a type that is not a string', { type: 7, by: ALICE }, unknownType],
    ['guess without slot', { type: 'guess', by: ALICE }, guessShape],
    ['guess without by', { type: 'guess', slot: 1 }, guessShape],
    ['guess with slot 300', { type: 'guess', by: ALICE, slot: 300 }, guessShape],
    ['guess with slot 256', { type: 'guess', by: ALICE, slot: 256 }, guessShape],
    ['guess with slot -1', { type: 'guess', by: ALICE, slot: -1 }, guessShape],
    ['guess with slot 1.5', { type: 'guess', by: ALICE, slot: 1.5 }, guessShape],
    ['guess with slot NaN', { type: 'guess', by: ALICE, slot: Number.NaN }, guessShape],
    ['guess with slot "1"', { type: 'guess', by: ALICE, slot: '1' }, guessShape],
    ['guess with a numeric by', { type: 'guess', by: 1, slot: 1 }, guessShape],
    ['guess with an empty by', { type: 'guess', by: '', slot: 1 }, guessShape],
    ['guess with a 65-character by', { type: 'guess', by: 'x'.repeat(65), slot: 1 }, guessShape],
    ['guess with a numeric player', { type: 'guess', by: ALICE, player: 7, slot: 1 }, guessShape],
    ['confirm with a string', { type: 'confirm', by: ALICE, confirm: 'yes' }, bad('confirm needs by and a boolean confirm')],
    ['confirm without confirm', { type: 'confirm', by: ALICE }, bad('confirm needs by and a boolean confirm')],
    ['join without name', { type: 'join', by: ALICE }, bad('join needs by, name and an optional avatar')],
    ['join with a numeric avatar', { type: 'join', by: ALICE, name: 'a', avatar: 1 }, bad('join needs by, name and an optional avatar')],
    ['join (name) with a numeric name', { type: 'join_local', by: ALICE, name: 5 }, bad('join_local needs by, name and an optional avatar')],
    ['join (name) with a null avatar', { type: 'join_local', by: ALICE, name: 'Bo', avatar: null }, bad('join_local needs by, name and an optional avatar')],
    ['avatar without avatar', { type: 'avatar', by: ALICE }, bad('avatar needs by, an optional player id and the avatar')],
    ['avatar with a numeric player', { type: 'avatar', by: ALICE, player: 3, avatar: '' }, bad('avatar needs by, an optional player id and the avatar')],
    ['rename without name', { type: 'rename', player: ALICE }, bad('rename needs player and name')],
    ['leave with a null player', { type: 'leave', by: ALICE, player: null }, bad('leave needs by and an optional player id')],
    ['update with array settings', { type: 'update', by: ALICE, settings: [], pack_ids: PACKS }, bad('update needs by, settings and pack_ids')],
    ['update without pack_ids', { type: 'update', by: ALICE, settings: {} }, bad('update needs by, settings and pack_ids')],
    ['update with numeric pack_ids', { type: 'update', by: ALICE, settings: {}, pack_ids: [1] }, bad('update needs by, settings and pack_ids')],
    ['start with hits not a list', { type: 'start', by: ALICE, hits: {} }, bad('start needs by, a list of hits and an optional clue mode')],
    ['start with a year-0 hit', { type: 'start', by: ALICE, hits: [{ ...HITS[0]!, year: 0 }] }, bad('start needs by, a list of hits and an optional clue mode')],
    ['start with a null hit', { type: 'start', by: ALICE, hits: [null] }, bad('start needs by, a list of hits and an optional clue mode')],
    ['start with a negative playback offset', { type: 'start', by: ALICE, hits: [{ ...HITS[0]!, yt_id: 'abcdefghijk', playback_offset: -1 }] }, bad('start needs by, a list of hits and an optional clue mode')],
    ['start with an unknown clue mode', { type: 'start', by: ALICE, hits: [], clue_mode: 'video' }, bad('start needs by, a list of hits and an optional clue mode')],
    ['stop without by', { type: 'stop' }, bad('stop needs by')],
    ['skip with an object player', { type: 'skip', by: ALICE, player: {} }, bad('skip needs by and an optional player id')],
    ['claim with a null by', { type: 'claim', by: null }, bad('claim needs by and an optional player id')],
    ['presence without connected', { type: 'presence', player: ALICE }, bad('presence needs player and connected')],
  ];

  it.each(cases)('%s', (_, action, expected) => {
    expectError(start(lobby()), action, expected);
  });
});

describe('the dj clue mode (issue 27 §2)', () => {
  /** Hits with a video each: a dj round deals only those. */
  const VIDEOS = HITS.map((h, i) => ({ ...h, yt_id: `v${String(i).padStart(10, '0')}`, playback_offset: i % 60 }));
  const djLobby = (settings: SettingsPatch = {}, users: string[] = [BOB, CAROL]): Game => {
    const g = lobby('Public', { clue_mode: 'dj' }, users);
    return act(g, { type: 'update', by: ALICE, settings, pack_ids: PACKS }).game;
  };
  const djStart = (g: Game): Game => act(g, { type: 'start', by: ALICE, hits: VIDEOS }).game;

  /** djClip must refuse with exactly `expected` and leave the game alone. */
  const expectDjError = (game: Game, viewer: string | null, expected: Expected): void => {
    const before = structuredClone(game);
    expect(djClip(game, viewer)).toStrictEqual({ ok: false, error: expected });
    expect(game).toStrictEqual(before);
  };

  it('a DJ who is not a player of the game → 400 invalid_setting', () => {
    expectError(djLobby(), { type: 'update', by: ALICE, settings: { dj: STRANGER }, pack_ids: PACKS }, err(400, 'invalid_setting', 'dj must be the id of a player of this game, or empty for the creator'));
  });

  it('the dj clue mode in a Local game → 400 invalid_setting', () => {
    expectError(localLobby(), { type: 'update', by: ALICE, settings: { clue_mode: 'dj' }, pack_ids: PACKS }, err(400, 'invalid_setting', 'clue_mode must be audio or card in a Local game, whose one screen everybody sees'));
  });

  it('a DJ who sits out, and only one other player → 409 not_enough_players_dj', () => {
    expectError(djLobby({ dj_plays: false }, [BOB]), { type: 'start', by: ALICE, hits: VIDEOS }, err(409, 'not_enough_players_dj', 'you need at least two players besides the DJ, who sits out, to start a game'));
  });

  it("the hidden hit's video for anybody but the DJ → 403 dj_only", () => {
    const g = djStart(djLobby({ dj: BOB }));
    for (const viewer of [ALICE, CAROL, STRANGER, null]) expectDjError(g, viewer, err(403, 'dj_only', "only the DJ's device receives the hidden hit's video"));
  });

  it('the video of a game without a DJ → 404 no_dj_mode; of an Open game → 409', () => {
    expectDjError(start(lobby()), ALICE, err(404, 'no_dj_mode', "this game's hits are not played by a DJ"));
    expectDjError(djLobby(), ALICE, err(409, 'audio_not_running', "game currently isn't running"));
    expectDjError(start(localLobby()), STRANGER, err(404, 'game_not_found', 'game not found'));
  });

  it('audio of the hidden hit of a dj round → 404 no_audio_dj_mode', () => {
    expectAudioError(djStart(djLobby()), ALICE, undefined, err(404, 'no_audio_dj_mode', "this game's DJ plays its hits from YouTube; the server sends no audio"));
  });
});
