import { Router, type NextFunction, type Request, type Response } from 'express';
import type { CatalogueService, HitWriteResult } from '../services/catalogue.ts';
import type { HitRecord } from '../services/search.ts';
import { Permission } from '../services/users.ts';
import {
  AUDIO_STATES,
  HitBodySchema,
  HitPartsSchema,
  HitSearchQuerySchema,
  INVALID_INPUT_CODE,
  PackBodySchema,
  PlayableQuerySchema,
  UuidSchema,
  type AudioState,
  type CatalogueHit,
  type FullHitPayload,
  type HitParts,
  type HitSearchReply,
  type PlayableCounts,
} from '../../shared/protocol/index.ts';
import { hasPermission, requirePermission } from './auth.ts';
import { apiError, parseOr400, sendError, sendSuccess } from './errors.ts';
import type { RateLimits } from './security.ts';

/**
 * The catalogue endpoints of docs/api.md#endpoints (with docs/api.md#b4, #b6, #b7): packs,
 * search, and single hits. Thin: every input goes through the shared schemas, the
 * CatalogueService does the work and announces each change (the app turns that
 * into a `hits_changed` global event). Import and export live in catalogue-io.ts.
 */

export interface CatalogueRouterDeps {
  catalogue: CatalogueService;
  /** The search counts against the per-user search limiter (writes are limited app-wide). */
  limits: Pick<RateLimits, 'search'>;
}

/** 409: another pack has that name (ignoring case). */
export const PACK_NAME_TAKEN = apiError(409, 'pack_name_taken', 'a pack with that name already exists');
/** 404 of a rename (the reference server words the rename's and the delete's differently). */
export const PACK_RENAME_NOT_FOUND = apiError(404, 'pack_not_found', "a pack with that id doesn't exist");
/** 404 of a pack delete. */
export const PACK_NOT_FOUND = apiError(404, 'pack_not_found', 'pack not found');
/** 404 of a hit read (the reference server: a read says "hit id not found", an edit or delete "hit not found"). */
export const HIT_ID_NOT_FOUND = apiError(404, 'hit_not_found', 'hit id not found');
/** 404 of a hit edit or delete. */
export const HIT_NOT_FOUND = apiError(404, 'hit_not_found', 'hit not found');
/** 409: another hit has that yt_id. */
export const YT_ID_TAKEN = apiError(409, 'yt_id_taken', 'a hit for that YouTube ID already exists');

/** Static segments under /hits that are never a hit id (route precedence, docs/api.md#endpoints). */
const RESERVED = new Set(['packs', 'search', 'playable', 'export', 'import']);

const audioState = (s: string): AudioState => ((AUDIO_STATES as readonly string[]).includes(s) ? (s as AudioState) : 'none');

/** A hit as search results show it (never its yt_id or offset). */
function catalogueHit(h: HitRecord, parts: HitParts): CatalogueHit {
  return {
    id: h.id,
    title: h.title,
    artist: h.artist,
    belongs_to: h.belongs_to,
    year: h.year,
    packs: h.packs,
    ...(parts.downloaded ? { downloaded: h.audio_state === 'ready' } : {}),
  };
}

/**
 * A hit for the detail page and the editor, with its audio state. Its video and
 * offset are the curators' (the export is theirs alone too): a caller without
 * write_hits gets `""` and 0 instead. `""` also stands for "no video": the reference server's
 * client reads yt_id as a string.
 */
function fullHit(h: HitRecord, parts: HitParts, curator: boolean): FullHitPayload {
  return {
    ...catalogueHit(h, parts),
    yt_id: curator ? (h.yt_id ?? '') : '',
    playback_offset: curator ? h.playback_offset : 0,
    audio: audioState(h.audio_state),
  };
}

/** Query keys that repeat arrive as arrays; both `pack` (the reference server's export, the client's URL) and `packs` name the filter. */
function packList(query: Request['query']): unknown {
  if (query.pack === undefined && query.packs === undefined) return undefined;
  return [query.pack, query.packs].flat().filter((v) => v !== undefined);
}

/** The `/api` router of the catalogue. Needs express.json, the session middleware and the CSRF guard in front. */
export function catalogueRouter(deps: CatalogueRouterDeps): Router {
  const { catalogue } = deps;
  const r = Router();
  const canWriteHits = requirePermission(Permission.WRITE_HITS);
  const canWritePacks = requirePermission(Permission.WRITE_PACKS);

  /** `/hits/:hitId` never claims a static segment, whichever router is mounted first (catalogue-io's export and import). */
  const notReserved = (req: Request, _res: Response, next: NextFunction) => {
    next(RESERVED.has(String(req.params.hitId)) ? 'route' : undefined);
  };
  const hitId = (req: Request, res: Response): string | undefined => parseOr400(res, UuidSchema, req.params.hitId, 'hitId');
  const packId = (req: Request, res: Response): string | undefined => parseOr400(res, UuidSchema, req.params.packId, 'packId');

  /** Answers a refused hit write (the success answer differs per route). */
  const refusal = (res: Response, result: Extract<HitWriteResult, { ok: false }>): void => {
    if (result.reason === 'not_found') return sendError(res, HIT_NOT_FOUND);
    if (result.reason === 'yt_id_taken') return sendError(res, YT_ID_TAKEN);
    sendError(res, apiError(400, INVALID_INPUT_CODE, `packs[${result.index}] must be the id of an existing pack`));
  };

  // ---- packs

  r.get('/hits/packs', async (_req, res) => {
    const [packs, total] = await Promise.all([catalogue.packs(), catalogue.packedHits()]);
    res.json({ packs, total });
  });

  r.post('/hits/packs', canWritePacks, async (req, res) => {
    const body = parseOr400(res, PackBodySchema, req.body, 'body');
    if (!body) return;
    const result = await catalogue.createPack(body.name);
    if (!result.ok) return sendError(res, PACK_NAME_TAKEN);
    res.json(result.pack); // 200, not 201: the reference server
  });

  r.patch('/hits/packs/:packId', canWritePacks, async (req, res) => {
    const id = packId(req, res);
    if (!id) return;
    const body = parseOr400(res, PackBodySchema, req.body, 'body');
    if (!body) return;
    const result = await catalogue.renamePack(id, body.name);
    if (result.ok) return sendSuccess(res, 'pack updated successfully');
    sendError(res, result.reason === 'not_found' ? PACK_RENAME_NOT_FOUND : PACK_NAME_TAKEN);
  });

  r.delete('/hits/packs/:packId', canWritePacks, async (req, res) => {
    const id = packId(req, res);
    if (!id) return;
    if (!(await catalogue.deletePack(id))) return sendError(res, PACK_NOT_FOUND);
    sendSuccess(res, 'pack deleted successfully');
  });

  // ---- search

  r.get('/hits/search', deps.limits.search, async (req, res) => {
    const q = parseOr400(res, HitSearchQuerySchema, { ...req.query, packs: packList(req.query) }, 'query');
    if (!q) return;
    const parts = parseOr400(res, HitPartsSchema, req.query.parts, 'parts');
    if (!parts) return;
    const { total, hits } = await catalogue.searchHits({
      query: q.query,
      packs: q.packs,
      // no sort_by at all (not even an unknown one): a text is ranked by relevance
      sortBy: req.query.sort_by === undefined ? null : q.sort_by,
      direction: q.sort_direction,
      offset: q.start - 1,
      limit: q.amount,
    });
    const reply: HitSearchReply = { results: hits.map((h) => catalogueHit(h, parts)), total, start: q.start, end: q.start + hits.length - 1 };
    res.json(reply);
  });

  // what a game of a pack selection can deal: the game settings show it (an automatic game's start decides by it)
  r.get('/hits/playable', deps.limits.search, async (req, res) => {
    const q = parseOr400(res, PlayableQuerySchema, req.query, 'query');
    if (!q) return;
    const counts: PlayableCounts = await catalogue.playableCounts(q.packs ?? (await catalogue.packIds()));
    // audio becomes ready at any moment: never from a cache
    res.set('Cache-Control', 'no-cache');
    res.json(counts);
  });

  // ---- single hits

  r.get('/hits/:hitId', notReserved, async (req, res) => {
    const id = hitId(req, res);
    if (!id) return;
    const parts = parseOr400(res, HitPartsSchema, req.query.parts, 'parts');
    if (!parts) return;
    const hit = await catalogue.hit(id);
    if (!hit) return sendError(res, HIT_ID_NOT_FOUND);
    const curator = hasPermission(res, Permission.WRITE_HITS);
    // the answer depends on who asks: no shared cache may hand a curator's to anybody else
    res.set('Cache-Control', 'private, no-cache');
    res.json(fullHit(hit, parts, curator));
  });

  r.post(['/hits', '/hits/'], canWriteHits, async (req, res) => {
    const body = parseOr400(res, HitBodySchema, req.body, 'body');
    if (!body) return;
    const result = await catalogue.createHit(body);
    if (!result.ok) return refusal(res, result);
    res.json(fullHit(result.hit, { downloaded: false }, true)); // 200 with the new id: the reference server
  });

  r.patch('/hits/:hitId', notReserved, canWriteHits, async (req, res) => {
    const id = hitId(req, res);
    if (!id) return;
    const body = parseOr400(res, HitBodySchema, req.body, 'body');
    if (!body) return;
    const result = await catalogue.updateHit(id, body);
    if (!result.ok) return refusal(res, result);
    sendSuccess(res, 'hit updated successfully');
  });

  r.delete('/hits/:hitId', notReserved, canWriteHits, async (req, res) => {
    const id = hitId(req, res);
    if (!id) return;
    if (!(await catalogue.deleteHit(id))) return sendError(res, HIT_NOT_FOUND);
    sendSuccess(res, 'hit deleted successfully');
  });

  return r;
}
