import type { GameMode } from '../../../shared/protocol/game.ts';
import { api, request } from './api.ts';

/** Game calls the lobby and the game screen's loader need; in-game actions go through the room (room.ts). */

/** `GET /api/games/`: the games the caller may see in the lobby. */
export function listGames(signal?: AbortSignal) {
  return request('/api/games/', { schema: (s) => s.GameListSchema, ...(signal ? { signal } : {}) });
}

/** `GET /api/games/{id}`: one game as the caller may see it (404 `game_id_not_found` otherwise). */
export function getGame(id: string, signal?: AbortSignal) {
  return api('get', '/api/games/{id}', { params: { id }, schema: (s) => s.GamePayloadSchema, ...(signal ? { signal } : {}) });
}

/** `POST /api/games`: creates a game with the caller as creator; the reply is the new game. */
export function createGame(mode: GameMode) {
  return api('post', '/api/games', { body: { mode }, schema: (s) => s.GamePayloadSchema });
}
