import { request } from './api.ts';

/** Catalogue calls of the shell; the catalogue screens (another issue) add theirs here. */

/** `GET /api/hits/packs`: every pack with its number of hits. */
export function listPacks(signal?: AbortSignal) {
  return request('/api/hits/packs', { schema: (s) => s.PackListSchema, retryOn401: false, ...(signal ? { signal } : {}) });
}
