import { randomBytes, randomInt } from 'node:crypto';
import { matchMaker } from '@colyseus/core';
import { Router, type Request, type Response } from 'express';
import {
  AvatarBodySchema,
  ConfirmBodySchema,
  CreateGameBodySchema,
  type CreateGameBody,
  GameIdSchema,
  GuessBodySchema,
  JoinBodySchema,
  LocalPlayerNameSchema,
  SettingsUpdateSchema,
  UuidSchema,
} from '../../shared/protocol/index.ts';
import { createGame as newGame, GAME_ID_ALPHABET, GAME_ID_LENGTH, gameNotFound, ruleError, type Action, type DjClip, type GamePayload, type RuleError } from '../../shared/rules/index.ts';
import type { DjClip as DjClipBody } from '../../shared/protocol/index.ts';
import { ROOM_NAME, type ActOutcome, type GameMetadata, type GameRoom } from '../rooms/game-room.ts';
import type { CatalogueService } from '../services/catalogue.ts';
import type { YoutubePlayerSources } from './security.ts';
import { requireUser } from './auth.ts';
import { apiError, parseOr400, sendError, sendSuccess } from './errors.ts';

/**
 * The game endpoints of the spec and docs/api.md#endpoints. Thin: each validates its input
 * with the shared schemas and hands the action to the game's room (any process)
 * through `matchMaker.remoteRoomCall`, where the engine decides.
 */

const ROOM = ROOM_NAME;

/** Success messages of the reference server, per action. */
const SUCCESS: Partial<Record<Action['type'], string>> = {
  join: 'joined the game successfully',
  join_local: 'joined the game successfully',
  avatar: 'avatar changed successfully',
  leave: 'left the game successfully',
  start: 'started game',
  stop: 'stopped game',
  update: 'game updated successfully',
  guess: 'guess submitted successfully',
  confirm: 'confirmation received',
  skip: 'skipped successfully',
  claim: 'claimed hit successfully',
};

/** A fresh game id: 8 characters of [A-Za-z0-9] from a CSPRNG. */
export function newGameId(): string {
  let id = '';
  for (let i = 0; i < GAME_ID_LENGTH; i++) id += GAME_ID_ALPHABET[randomInt(GAME_ID_ALPHABET.length)];
  return id;
}

async function roomExists(id: string): Promise<boolean> {
  // A game on this process is a map look-up; the room cache query scans every room
  // (the local driver filters them all), which every REST action paid (budget P3).
  const local = matchMaker.getLocalRoomById(id);
  if (local) return local.roomName === ROOM;
  const listing = await matchMaker.getRoomById(id);
  return !!listing && listing.name === ROOM;
}

/**
 * The game as `viewer` sees it (any process), or null when it does not exist for
 * him. `stream`: an SSE stream starts from it (the room publishes its events from then on).
 */
export async function gameSnapshot(id: string, viewer: string | null, stream = false): Promise<{ seq: number; game: GamePayload } | null> {
  if (!(await roomExists(id))) return null;
  try {
    return (await matchMaker.remoteRoomCall<GameRoom>(id, 'snapshot', [viewer, stream])) as { seq: number; game: GamePayload } | null;
  } catch {
    return null; // disposed meanwhile
  }
}

/** Every game `viewer` may list (docs/rules.md#create), as payloads. */
export async function listGames(viewer: string | null): Promise<GamePayload[]> {
  const rooms = await matchMaker.query<GameRoom>({ name: ROOM });
  const visible = rooms.filter((r) => {
    const m = r.metadata as GameMetadata | undefined;
    if (!m) return false;
    if (m.mode === 'Public') return true;
    if (!viewer) return false;
    return m.mode === 'Private' ? m.members.includes(viewer) : m.creator === viewer;
  });
  const snaps = await Promise.all(visible.map((r) => gameSnapshot(r.roomId, viewer)));
  return snaps.flatMap((s) => (s ? [s.game] : []));
}

/**
 * Makes `userId` leave every game he sits in and closes his game sockets
 * (logout, account deletion, expired session).
 */
export async function leaveAllGames(userId: string): Promise<void> {
  const rooms = await matchMaker.query<GameRoom>({ name: ROOM });
  await Promise.all(rooms.map((r) => matchMaker.remoteRoomCall<GameRoom>(r.roomId, 'dropUser', [userId]).catch(() => undefined)));
}

/** Gives `userId`'s seats in every game the name he now has (a guest renamed himself). */
export async function renameInAllGames(userId: string, name: string): Promise<void> {
  const rooms = await matchMaker.query<GameRoom>({ name: ROOM });
  const seated = rooms.filter((r) => (r.metadata as GameMetadata | undefined)?.members.includes(userId));
  await Promise.all(seated.map((r) => matchMaker.remoteRoomCall<GameRoom>(r.roomId, 'renameUser', [userId, name]).catch(() => undefined)));
}

/** Most games one user may be the creator of at once (leaving a game hands its creator role on). */
export const MAX_GAMES_PER_CREATOR = 10;
/** 409 for a game beyond MAX_GAMES_PER_CREATOR. */
export const TOO_MANY_GAMES = apiError(409, 'too_many_games', `you already run ${MAX_GAMES_PER_CREATOR} games; leave one before creating another`);

export function gamesRouter(deps: { catalogue: CatalogueService; youtube: YoutubePlayerSources }): Router {
  const r = Router();

  /** Validates the :id path parameter (a malformed id is a 400, never "absent"). */
  const gameId = (req: Request, res: Response): string | undefined => parseOr400(res, GameIdSchema, req.params.id, 'id');
  const playerParam = (req: Request, res: Response): string | undefined | null => {
    if (req.params.player === undefined) return null;
    return parseOr400(res, UuidSchema, req.params.player, 'player');
  };

  /** Runs an action in the game's room and answers with the reference server's success or the engine's error. */
  const act = async (res: Response, id: string, type: Action['type'], fields: Record<string, unknown> = {}) => {
    const user = res.locals.user as { id: string; name: string };
    if (!(await roomExists(id))) return sendError(res, gameNotFound(type));
    let outcome: ActOutcome;
    try {
      outcome = (await matchMaker.remoteRoomCall<GameRoom>(id, 'act', [user.id, { type, ...fields }])) as ActOutcome;
    } catch {
      return sendError(res, gameNotFound(type));
    }
    if (!outcome.ok) return sendError(res, outcome.error);
    sendSuccess(res, SUCCESS[type] ?? 'ok');
  };

  r.get(['/games', '/games/'], async (_req, res) => {
    res.json({ games: await listGames(res.locals.user?.id ?? null) });
  });

  /** Users' games being created right now (this process), by user id. */
  const creating = new Map<string, number>();

  r.post(['/games', '/games/'], requireUser, async (req, res) => {
    const body = parseOr400(res, CreateGameBodySchema, req.body ?? {}, 'body');
    if (!body) return;
    const user = res.locals.user as { id: string; name: string };
    // one person runs a few games, not a lobby full of them (those being made count too: parallel requests)
    const making = creating.get(user.id) ?? 0;
    creating.set(user.id, making + 1);
    try {
      const rooms = await matchMaker.query<GameRoom>({ name: ROOM });
      const runs = rooms.filter((room) => (room.metadata as GameMetadata | undefined)?.creator === user.id).length;
      if (runs + making >= MAX_GAMES_PER_CREATOR) return sendError(res, TOO_MANY_GAMES);
      await createGame(res, body, user);
    } finally {
      const left = (creating.get(user.id) ?? 1) - 1;
      if (left <= 0) creating.delete(user.id);
      else creating.set(user.id, left);
    }
  });

  /** Makes `user`'s game as `body` asks, and answers 201 with it. */
  const createGame = async (res: Response, body: CreateGameBody, user: { id: string; name: string }): Promise<void> => {
    const packIds = await deps.catalogue.packIds();
    // the clue mode is decided at the start, from the packs chosen by then (clue_mode_auto), unless the body chooses one
    const settings: Record<string, unknown> = { ...(body.settings ?? {}) };
    let id = newGameId();
    while (await roomExists(id)) id = newGameId();
    const options = {
      gameId: id,
      mode: body.mode,
      creator: { id: user.id, name: user.name },
      // 256 bits per stream from the CSPRNG: nobody can search for the deck's seed (rng.ts)
      seed: { deck: randomBytes(32).toString('hex'), seats: randomBytes(32).toString('hex') },
      packIds,
      settings,
    };
    // the engine's own check of the new game (its settings, the DJ, the mode), before any room exists
    const checked = newGame({ ...options, id });
    if (!checked.ok) return sendError(res, checked.error);
    try {
      await matchMaker.createRoom(ROOM, options);
    } catch (err) {
      res.locals.log?.error({ err, game: id }, 'creating a game room failed');
      return sendError(res, { status: 503, code: 'unavailable', message: 'the game could not be created, try again' });
    }
    const snap = await gameSnapshot(id, user.id);
    res.status(201).location(`/games/${id}`).json(snap?.game);
  };

  r.get('/games/:id', async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const snap = await gameSnapshot(id, res.locals.user?.id ?? null);
    if (!snap) return sendError(res, gameNotFound('get'));
    res.json(snap.game);
  });

  // the DJ's device asks for each new draw (`dj` clue mode): the hidden hit's video, for the DJ alone
  r.get('/games/:id/dj', async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    // every answer is the DJ's own, for this moment: never from a cache
    res.set('Cache-Control', 'no-store');
    if (!(await roomExists(id))) return sendError(res, gameNotFound('audio'));
    let answer: { ok: true; clip: DjClip } | { ok: false; error: RuleError };
    try {
      answer = (await matchMaker.remoteRoomCall<GameRoom>(id, 'dj', [res.locals.user?.id ?? null])) as typeof answer;
    } catch {
      return sendError(res, gameNotFound('audio'));
    }
    if (!answer.ok) return sendError(res, answer.error);
    const body: DjClipBody = { ...answer.clip, player_api: deps.youtube.api, player_host: deps.youtube.host };
    res.json(body);
  });

  // the body is optional (the reference server's clients send none): the avatar, initials when left out
  r.patch('/games/:id/join', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const body = parseOr400(res, JoinBodySchema, req.body ?? {}, 'body');
    if (body) await act(res, id, 'join', { name: (res.locals.user as { name: string }).name, ...body });
  });

  // the name is the rest of the path (the reference server), trimmed and checked by the engine (A10)
  r.patch('/games/:id/join/*name', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const raw = req.params.name as unknown as string[] | string;
    const name = Array.isArray(raw) ? raw.join('/') : raw;
    // the room's schema for such names: its later rules (look-alike scripts, hidden characters) are
    // checked where names come in, not by the engine (see isCleanName), so stored games still replay
    if (!LocalPlayerNameSchema.safeParse(name.trim()).success) return sendError(res, ruleError('name_invalid'));
    const body = parseOr400(res, JoinBodySchema, req.body ?? {}, 'body');
    if (body) await act(res, id, 'join_local', { name, ...body });
  });

  r.patch(['/games/:id/avatar', '/games/:id/avatar/:player'], requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const player = playerParam(req, res);
    if (player === undefined) return;
    const body = parseOr400(res, AvatarBodySchema, req.body, 'body');
    if (body) await act(res, id, 'avatar', { avatar: body.avatar, ...(player ? { player } : {}) });
  });

  r.patch(['/games/:id/leave', '/games/:id/leave/:player'], requireUser, async (req, res) => {
    // one after the other: a second 400 on an answered request would throw and reset the connection
    const id = gameId(req, res);
    if (!id) return;
    const player = playerParam(req, res);
    if (player === undefined) return;
    await act(res, id, 'leave', player ? { player } : {});
  });

  r.patch('/games/:id/start', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (id) await act(res, id, 'start', { hits: [] });
  });

  r.patch('/games/:id/stop', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (id) await act(res, id, 'stop');
  });

  r.patch('/games/:id/update', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const settings = parseOr400(res, SettingsUpdateSchema, req.body ?? {}, 'body');
    if (settings) await act(res, id, 'update', { settings, pack_ids: [] });
  });

  r.post(['/games/:id/guess', '/games/:id/guess/:player'], requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const player = playerParam(req, res);
    if (player === undefined) return;
    const body = parseOr400(res, GuessBodySchema, req.body ?? {}, 'body');
    if (body) await act(res, id, 'guess', { slot: body.id, ...(player ? { player } : {}) });
  });

  r.post('/games/:id/confirm', requireUser, async (req, res) => {
    const id = gameId(req, res);
    if (!id) return;
    const body = parseOr400(res, ConfirmBodySchema, req.body, 'body');
    if (body) await act(res, id, 'confirm', { confirm: body.confirm });
  });

  for (const type of ['skip', 'claim'] as const) {
    r.post([`/games/:id/${type}`, `/games/:id/${type}/:player`], requireUser, async (req, res) => {
      const id = gameId(req, res);
      if (!id) return;
      const player = playerParam(req, res);
      if (player === undefined) return;
      await act(res, id, type, player ? { player } : {});
    });
  }

  return r;
}
