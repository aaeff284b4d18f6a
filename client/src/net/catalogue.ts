import { api } from './api.ts';

/** Catalogue calls of the shell; the catalogue screens (another issue) add theirs here. */

/** `GET /api/hits/playable`: how many hits of a pack selection a game can deal with cards, and with audio. */
export function playableCounts(packs: readonly string[], signal?: AbortSignal) {
  const query = new URLSearchParams(packs.map((id) => ['packs', id]));
  return api('get', '/api/hits/playable', { query, schema: (s) => s.PlayableCountsSchema, ...(signal ? { signal } : {}) });
}

/** `GET /api/hits/packs`: every pack with its number of hits. */
export function listPacks(signal?: AbortSignal) {
  return api('get', '/api/hits/packs', { schema: (s) => s.PackListSchema, retryOn401: false, ...(signal ? { signal } : {}) });
}
