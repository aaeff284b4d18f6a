import { Router, type NextFunction, type Request, type Response } from 'express';
import type { CatalogueService, HitWriteResult } from '../services/catalogue.ts';
import type { ReportsService } from '../services/reports.ts';
import type { HitRecord } from '../services/search.ts';
import { Permission } from '../services/users.ts';
import {
  AUDIO_STATES,
  HitPartsSchema,
  type AudioState,
  type CatalogueHit,
  type FullHitPayload,
  type HitParts,
  type HitIssue,
  type HitSearchReply,
  type PlayableCounts,
} from '../../shared/protocol/index.ts';
import { CATALOGUE_HTTP_ERRORS, CATALOGUE_ROUTES, unknownPack } from '../../shared/protocol/routes-catalogue.ts';
import { hasPermission } from './auth.ts';
import { parseOr400, sendError, sendSuccess } from './errors.ts';
import { mount } from './routes.ts';
import type { RateLimits } from './security.ts';

/**
 * The catalogue endpoints of docs/api.md#endpoints (with docs/api.md#b4, #b6, #b7): packs,
 * search, and single hits. Thin: every input goes through the shared schemas, the
 * CatalogueService does the work and announces each change (the app turns that
 * into a `hits_changed` global event). Import and export live in catalogue-io.ts.
 */

export interface CatalogueRouterDeps {
  catalogue: CatalogueService;
  /** The open reports of `parts=issues` (absent: none are shown). */
  reports?: Pick<ReportsService, 'openIssues'> | undefined;
  /** The search counts against the per-user search limiter (writes are limited app-wide). */
  limits: Pick<RateLimits, 'search'>;
}

export const {
  packNameTaken: PACK_NAME_TAKEN,
  packRenameNotFound: PACK_RENAME_NOT_FOUND,
  packNotFound: PACK_NOT_FOUND,
  hitIdNotFound: HIT_ID_NOT_FOUND,
  hitNotFound: HIT_NOT_FOUND,
  ytIdTaken: YT_ID_TAKEN,
} = CATALOGUE_HTTP_ERRORS;

/** Static segments under /hits that are never a hit id (route precedence, docs/api.md#endpoints). */
const RESERVED = new Set(['packs', 'search', 'playable', 'export', 'import']);

const audioState = (s: string): AudioState => ((AUDIO_STATES as readonly string[]).includes(s) ? (s as AudioState) : 'none');

/** A hit as search results show it (never its yt_id or offset); `issues`: its open reports when the caller asked and may read them. */
function catalogueHit(h: HitRecord, parts: HitParts, issues?: Map<string, HitIssue[]>): CatalogueHit {
  return {
    id: h.id,
    title: h.title,
    artist: h.artist,
    belongs_to: h.belongs_to,
    year: h.year,
    packs: h.packs,
    ...(parts.downloaded ? { downloaded: h.audio_state === 'ready' } : {}),
    ...(issues ? { issues: issues.get(h.id) ?? [] } : {}),
  };
}

/**
 * A hit for the detail page and the editor, with its audio state. Its video and
 * offset are the curators' (the export is theirs alone too): a caller without
 * write_hits gets `""` and 0 instead. `""` also stands for "no video": the reference server's
 * client reads yt_id as a string.
 */
function fullHit(h: HitRecord, parts: HitParts, curator: boolean, issues?: Map<string, HitIssue[]>): FullHitPayload {
  return {
    ...catalogueHit(h, parts, issues),
    yt_id: curator ? (h.yt_id ?? '') : '',
    playback_offset: curator ? h.playback_offset : 0,
    audio: audioState(h.audio_state),
  };
}

/** Query keys that repeat arrive as arrays; both `pack` (the reference server's export, the client's URL) and `packs` name the filter. */
export function packList(query: Request['query']): unknown {
  if (query.pack === undefined && query.packs === undefined) return undefined;
  return [query.pack, query.packs].flat().filter((v) => v !== undefined);
}

/** The `/api` router of the catalogue. Needs express.json, the session middleware and the CSRF guard in front. */
export function catalogueRouter(deps: CatalogueRouterDeps): Router {
  const { catalogue, reports } = deps;
  const limits = { search: deps.limits.search };
  /** The open reports of `hits` when they were asked for and the caller has read_issues; otherwise nothing (silently). */
  const issuesOf = async (res: Response, parts: HitParts, hits: readonly HitRecord[]): Promise<Map<string, HitIssue[]> | undefined> =>
    parts.issues && reports && hasPermission(res, Permission.READ_ISSUES) ? reports.openIssues(hits.map((h) => h.id)) : undefined;
  const r = Router();
  const C = CATALOGUE_ROUTES;

  /** `/hits/:hitId` never claims a static segment, whichever router is mounted first (catalogue-io's export and import). */
  const notReserved = (req: Request, _res: Response, next: NextFunction) => {
    next(RESERVED.has(String(req.params.hitId)) ? 'route' : undefined);
  };
  const hitRoute = { before: [notReserved] };

  /** Answers a refused hit write (the success answer differs per route). */
  const refusal = (res: Response, result: Extract<HitWriteResult, { ok: false }>): void => {
    if (result.reason === 'not_found') return sendError(res, HIT_NOT_FOUND);
    if (result.reason === 'yt_id_taken') return sendError(res, YT_ID_TAKEN);
    sendError(res, unknownPack(result.index));
  };

  // ---- packs

  mount(r, C.listPacks, async (_input, _req, res) => {
    const [packs, total] = await Promise.all([catalogue.packs(), catalogue.packedHits()]);
    res.json({ packs, total });
  });

  mount(r, C.createPack, async ({ body }, _req, res) => {
    const result = await catalogue.createPack(body.name);
    if (!result.ok) return sendError(res, PACK_NAME_TAKEN);
    res.json(result.pack); // 200, not 201: the reference server
  });

  mount(r, C.renamePack, async ({ params, body }, _req, res) => {
    const result = await catalogue.renamePack(params.packId, body.name);
    if (result.ok) return sendSuccess(res, C.renamePack.reply.message);
    sendError(res, result.reason === 'not_found' ? PACK_RENAME_NOT_FOUND : PACK_NAME_TAKEN);
  });

  mount(r, C.deletePack, async ({ params }, _req, res) => {
    if (!(await catalogue.deletePack(params.packId))) return sendError(res, PACK_NOT_FOUND);
    sendSuccess(res, C.deletePack.reply.message);
  });

  // ---- search

  mount(r, C.searchHits, async ({ query: q }, req, res) => {
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
      hasIssues: q.filters.has_issues && hasPermission(res, Permission.READ_ISSUES),
    });
    const issues = await issuesOf(res, parts, hits);
    const reply: HitSearchReply = { results: hits.map((h) => catalogueHit(h, parts, issues)), total, start: q.start, end: q.start + hits.length - 1 };
    res.json(reply);
  }, { limits, readQuery: (req) => ({ ...req.query, packs: packList(req.query) }) });

  // what a game of a pack selection can deal: the game settings show it (an automatic game's start decides by it)
  mount(r, C.playableHits, async ({ query: q }, _req, res) => {
    const counts: PlayableCounts = await catalogue.playableCounts(q.packs ?? (await catalogue.packIds()));
    // audio becomes ready at any moment: never from a cache
    res.set('Cache-Control', 'no-cache');
    res.json(counts);
  }, { limits });

  // ---- single hits

  mount(r, C.getHit, async ({ params }, req, res) => {
    const parts = parseOr400(res, HitPartsSchema, req.query.parts, 'parts');
    if (!parts) return;
    const hit = await catalogue.hit(params.hitId);
    if (!hit) return sendError(res, HIT_ID_NOT_FOUND);
    const curator = hasPermission(res, Permission.WRITE_HITS);
    // the answer depends on who asks: no shared cache may hand a curator's to anybody else
    res.set('Cache-Control', 'private, no-cache');
    res.json(fullHit(hit, parts, curator, await issuesOf(res, parts, [hit])));
  }, hitRoute);

  mount(r, C.createHit, async ({ body }, _req, res) => {
    const result = await catalogue.createHit(body, res.locals.user?.name ?? null);
    if (!result.ok) return refusal(res, result);
    res.json(fullHit(result.hit, { downloaded: false, issues: false }, true)); // 200 with the new id: the reference server
  });

  mount(r, C.updateHit, async ({ params, body }, _req, res) => {
    const result = await catalogue.updateHit(params.hitId, body, res.locals.user?.name ?? null);
    if (!result.ok) return refusal(res, result);
    sendSuccess(res, C.updateHit.reply.message);
  }, hitRoute);

  mount(r, C.deleteHit, async ({ params }, _req, res) => {
    if (!(await catalogue.deleteHit(params.hitId))) return sendError(res, HIT_NOT_FOUND);
    sendSuccess(res, C.deleteHit.reply.message);
  }, hitRoute);

  return r;
}
