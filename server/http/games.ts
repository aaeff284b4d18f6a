import { randomBytes, randomInt } from 'node:crypto';
import { matchMaker } from '@colyseus/core';
import { Router, type Response } from 'express';
import { type CreateGameBody, LocalPlayerNameSchema } from '../../shared/protocol/index.ts';
import { GAME_HTTP_ERRORS, GAME_ROUTES, MAX_GAMES_PER_CREATOR } from '../../shared/protocol/routes-games.ts';
import { createGame as newGame, GAME_ID_ALPHABET, GAME_ID_LENGTH, gameNotFound, ruleError, type Action, type DjClip, type GamePayload, type RuleError } from '../../shared/rules/index.ts';
import type { DjClip as DjClipBody } from '../../shared/protocol/index.ts';
import { ROOM_NAME, type ActOutcome, type GameMetadata, type GameRoom } from '../rooms/game-room.ts';
import { roomServices } from '../rooms/services.ts';
import type { CatalogueService } from '../services/catalogue.ts';
import type { YoutubePlayerSources } from './security.ts';
import { tableReports } from '../services/reports.ts';
import { Permission } from '../services/users.ts';
import { hasPermission } from './auth.ts';
import { sendError, sendSuccess } from './errors.ts';
import { mount } from './routes.ts';

/**
 * The game endpoints of the spec and docs/api.md#endpoints, registered from the route table
 * (shared/protocol/routes-games.ts, which validates their input). Thin: each hands the action to the game's room (any process)
 * through `matchMaker.remoteRoomCall`, where the engine decides.
 */

const ROOM = ROOM_NAME;

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
 * him (`key`: a Local game's seat key he presents). `stream`: an SSE stream starts from it (the room publishes its events from then on).
 */
export async function gameSnapshot(id: string, viewer: string | null, stream = false, key: string | null = null): Promise<{ seq: number; game: GamePayload } | null> {
  if (!(await roomExists(id))) return null;
  try {
    return (await matchMaker.remoteRoomCall<GameRoom>(id, 'snapshot', [viewer, stream, key])) as { seq: number; game: GamePayload } | null;
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

export { MAX_GAMES_PER_CREATOR };
/** 409 for a game beyond MAX_GAMES_PER_CREATOR. */
export const TOO_MANY_GAMES = GAME_HTTP_ERRORS.tooManyGames;
/** 409 for evidence asked before a reveal (GET /api/games/{id}/evidence). */
const NO_EVIDENCE = GAME_ROUTES.getEvidence.errors[0];

export function gamesRouter(deps: { catalogue: CatalogueService; youtube: YoutubePlayerSources }): Router {
  const r = Router();
  const G = GAME_ROUTES;

  /** Runs an action in the game's room and answers with the route's success message or the engine's error. */
  const act = async (res: Response, route: { reply: { message: string } }, id: string, type: Action['type'], fields: Record<string, unknown> = {}) => {
    const user = res.locals.user as { id: string; name: string };
    if (!(await roomExists(id))) return sendError(res, gameNotFound(type));
    let outcome: ActOutcome;
    try {
      outcome = (await matchMaker.remoteRoomCall<GameRoom>(id, 'act', [user.id, { type, ...fields }])) as ActOutcome;
    } catch {
      return sendError(res, gameNotFound(type));
    }
    if (!outcome.ok) return sendError(res, outcome.error);
    sendSuccess(res, route.reply.message);
  };
  /** The player a `/{player}` route acts for, as the action's field. */
  const forPlayer = (params: { id: string } | { id: string; player: string }) => ('player' in params ? { player: params.player } : {});

  mount(r, G.listGames, async (_input, _req, res) => {
    res.json({ games: await listGames(res.locals.user?.id ?? null) });
  });

  /** Users' games being created right now (this process), by user id. */
  const creating = new Map<string, number>();

  mount(r, G.createGame, async ({ body }, _req, res) => {
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
      return sendError(res, GAME_HTTP_ERRORS.unavailable);
    }
    const snap = await gameSnapshot(id, user.id);
    res.status(201).location(`/games/${id}`).json(snap?.game);
  };

  mount(r, G.getGame, async ({ params, query }, _req, res) => {
    const snap = await gameSnapshot(params.id, res.locals.user?.id ?? null, false, query.key ?? null);
    if (!snap) return sendError(res, gameNotFound('get'));
    res.json(snap.game);
  });

  // the DJ's device asks for each new draw (`dj` clue mode): the hidden hit's video, for the DJ alone
  mount(r, G.getDjClip, async ({ params: { id } }, _req, res) => {
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

  // the creator's device puts it into the join link it shows the phones
  mount(r, G.getSeatKey, async ({ params: { id } }, _req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!(await roomExists(id))) return sendError(res, gameNotFound('get'));
    let answer: { ok: true; key: string } | { ok: false; error: RuleError };
    try {
      answer = (await matchMaker.remoteRoomCall<GameRoom>(id, 'seatKey', [(res.locals.user as { id: string }).id])) as typeof answer;
    } catch {
      return sendError(res, gameNotFound('get'));
    }
    if (!answer.ok) return sendError(res, answer.error);
    res.json({ key: answer.key });
  });
  mount(r, G.controlSeat, ({ params, body }, _req, res) => act(res, G.controlSeat, params.id, 'control', body));
  mount(r, G.releaseSeat, ({ params, body }, _req, res) => act(res, G.releaseSeat, params.id, 'release', body));

  // the body is optional (the reference server's clients send none): the avatar, initials when left out
  mount(r, G.joinGame, ({ params, body }, _req, res) => act(res, G.joinGame, params.id, 'join', { name: (res.locals.user as { name: string }).name, ...body }));

  // the name is the rest of the path (the reference server), trimmed and checked by the engine (A10)
  mount(r, G.addLocalPlayer, ({ params, body }, _req, res) => act(res, G.addLocalPlayer, params.id, 'join_local', { name: params.name, ...body }), {
    // the room's schema for such names: its later rules (look-alike scripts, hidden characters) are
    // checked where names come in, not by the engine (see isCleanName), so stored games still replay
    beforeBody: ({ name }, res) => {
      if (LocalPlayerNameSchema.safeParse(name.trim()).success) return true;
      sendError(res, ruleError('name_invalid'));
      return false;
    },
  });

  for (const route of [G.changeAvatar, G.changeAvatarFor]) {
    mount(r, route, ({ params, body }, _req, res) => act(res, route, params.id, 'avatar', { avatar: body.avatar, ...forPlayer(params) }));
  }
  for (const route of [G.leaveGame, G.kickPlayer]) {
    mount(r, route, ({ params }, _req, res) => act(res, route, params.id, 'leave', forPlayer(params)));
  }
  mount(r, G.startGame, ({ params }, _req, res) => act(res, G.startGame, params.id, 'start', { hits: [] }));
  mount(r, G.stopGame, ({ params }, _req, res) => act(res, G.stopGame, params.id, 'stop'));
  mount(r, G.updateGame, ({ params, body }, _req, res) => act(res, G.updateGame, params.id, 'update', { settings: body, pack_ids: [] }));
  for (const route of [G.guess, G.guessFor]) {
    mount(r, route, ({ params, body }, _req, res) => act(res, route, params.id, 'guess', { slot: body.id, ...forPlayer(params) }));
  }
  mount(r, G.confirm, ({ params, body }, _req, res) => act(res, G.confirm, params.id, 'confirm', { confirm: body.confirm }));
  for (const [type, routes] of [['skip', [G.skip, G.skipFor]], ['claim', [G.claim, G.claimFor]]] as const) {
    for (const route of routes) mount(r, route, ({ params }, _req, res) => act(res, route, params.id, type, forPlayer(params)));
  }
  for (const route of [G.dispute, G.disputeFor]) {
    mount(r, route, ({ params, body }, _req, res) => act(res, route, params.id, 'dispute', { year: body.year, ...forPlayer(params) }));
  }
  for (const route of [G.vote, G.voteFor]) {
    mount(r, route, ({ params, body }, _req, res) => act(res, route, params.id, 'vote', { take: body.take, ...forPlayer(params) }));
  }

  // only a revealed card's: the view (from whichever process hosts the game) says which card that is, if any
  mount(r, G.getEvidence, async ({ params }, _req, res) => {
    const snap = await gameSnapshot(params.id, res.locals.user?.id ?? null);
    if (!snap) return sendError(res, gameNotFound('get'));
    const hit = snap.game.disputable?.hit ?? snap.game.dispute?.hit;
    if (!hit) return sendError(res, NO_EVIDENCE);
    const evidence = await roomServices().evidence.gather(hit);
    const mayRead = hasPermission(res, Permission.READ_ISSUES) || hasPermission(res, Permission.WRITE_HITS);
    // the answer depends on who asks
    res.set('Cache-Control', 'private, no-cache');
    res.json({ hit, ...evidence, reports: mayRead ? evidence.reports : tableReports(evidence.reports) });
  });

  return r;
}
