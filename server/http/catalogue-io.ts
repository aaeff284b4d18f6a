import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { changedSomething, importHitsYaml } from '../services/catalogue-yaml/apply.ts';
import { exportHitsYaml } from '../services/catalogue-yaml/export.ts';
import { MAX_IMPORT_BYTES } from '../services/catalogue-yaml/read.ts';
import { fetchCatalogue, RemoteFetchError, type PrivateAllowance, type Resolver } from '../services/remote-catalogue.ts';
import type { HitSearchIndex } from '../services/search.ts';
import { Permission } from '../services/users.ts';
import { AddressImportReportSchema, ImportReportSchema } from '../../shared/protocol/catalogue.ts';
import { CATALOGUE_HTTP_ERRORS, CATALOGUE_ROUTES, FILE_TOO_LARGE_CODE, IMPORT_REJECTED_CODE } from '../../shared/protocol/routes-catalogue.ts';
import { hasPermission } from './auth.ts';
import { packList } from './catalogue.ts';
import { apiError, sendError } from './errors.ts';
import { mount } from './routes.ts';
import { allowLongBody, type RateLimits } from './security.ts';

/**
 * Catalogue import and export over HTTP (docs/api.md#b8, #endpoints export row):
 * `GET /api/hits/export` and `POST /api/hits/import`, both for write_hits users
 * (the export for anyone with EXPORT_PUBLIC), and `POST /api/hits/import-url`,
 * the same import of a file the server fetches from another address
 * (remote-catalogue.ts); an import adds or renames packs only for a user who
 * also has write_packs.
 * Mount under `/api` before any `/hits/:id` route, and let the CSRF guard accept a
 * non-JSON body on {@link HITS_IMPORT_PATH} (`csrfGuardWith({ anyBodyPaths })`).
 */

/** The import's full path, for the CSRF guard's list of upload paths. */
export const HITS_IMPORT_PATH = '/api/hits/import';

/** Content types the import reads as the YAML text (text/plain: what some tools send for a .yml file). */
export const YAML_CONTENT_TYPES = ['application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml', 'text/plain'] as const;

export interface CatalogueIoDeps {
  db: Db;
  log: Logger;
  /**
   * Called after an applied import that changed something, without waiting for it:
   * `CatalogueService.changed` (rebuilds the search's typo vocabulary and makes the
   * app publish `hits_changed`).
   */
  changed: () => Promise<void>;
  /** The export counts against the search limiter (per user), imports by address against their own. */
  limits?: Pick<RateLimits, 'search' | 'remoteImports'> | undefined;
  /** The catalogue's search index, when there is one: the export's `query` then matches exactly as the search does. */
  search?: (() => Pick<HitSearchIndex, 'search'> | undefined) | undefined;
  /** Largest accepted upload (default {@link MAX_IMPORT_BYTES}). */
  maxImportBytes?: number | undefined;
  /** The export needs no login (EXPORT_PUBLIC). */
  exportPublic?: boolean | undefined;
  /** Imports by address: the whole fetch's time limit (default 30 s) and the operator's allowed own networks. */
  remote?: { timeoutMs: number; allowPrivate: PrivateAllowance; resolve?: Resolver | undefined } | undefined;
}

const E = CATALOGUE_HTTP_ERRORS;
const C = CATALOGUE_ROUTES;

/** The report's wire schema lives in shared/protocol (the client reads it too); re-exported for tests. */
export { AddressImportReportSchema, ImportReportSchema };

/** The 400 body of an apply that was refused: the error body's fields and the report's. */
export const ImportRejectedSchema = z.strictObject({
  ...ImportReportSchema.shape,
  type: z.literal('error'),
  code: z.literal(IMPORT_REJECTED_CODE),
});

/** The 400 body of an apply by address that was refused: as {@link ImportRejectedSchema}, with the source. */
export const AddressImportRejectedSchema = z.strictObject({
  ...AddressImportReportSchema.shape,
  type: z.literal('error'),
  code: z.literal(IMPORT_REJECTED_CODE),
});
/** Default of the import by address's time limit. */
const REMOTE_TIMEOUT_MS = 30_000;
const megabytes = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Reads the YAML body as bytes (decoded and checked as UTF-8 by the importer),
 * after the content type is known to be YAML; the size limit is a 413 that names it.
 */
function yamlBody(maxBytes: number): RequestHandler {
  const raw = express.raw({ type: () => true, limit: maxBytes });
  return (req: Request, res: Response, next: NextFunction) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
    if (!hasBody) return sendError(res, E.emptyBody);
    if (!req.is([...YAML_CONTENT_TYPES])) return sendError(res, E.notYaml);
    // the route checked the permission first; 20 MB over a slow uplink take minutes
    allowLongBody(req);
    raw(req, res, (err?: unknown) => {
      const e = err as { type?: string; length?: number; limit?: number } | undefined;
      if (e?.type === 'entity.too.large') {
        const size = Number.isFinite(length) && length > 0 ? ` (${megabytes(length)})` : '';
        return sendError(res, apiError(413, FILE_TOO_LARGE_CODE, `the file is too large${size}: the import takes at most ${megabytes(maxBytes)}`));
      }
      next(err);
    });
  };
}

/** The import/export router; needs the session middleware in front. */
export function catalogueIoRouter(deps: CatalogueIoDeps): Router {
  const { db, log } = deps;
  const maxBytes = deps.maxImportBytes ?? MAX_IMPORT_BYTES;
  const router = Router();
  const limits = deps.limits ?? {};

  mount(router, C.exportHits, async ({ query }, _req, res) => {
    const { text } = await exportHitsYaml(db, query, { search: deps.search?.() });
    res.set('Content-Type', 'application/x-yaml; charset=utf-8');
    res.set('Content-Disposition', 'attachment; filename="hits.yml"');
    // the export holds yt_ids and offsets that only write_hits users see (unless it is public): no shared caches
    res.set('Cache-Control', 'private, no-store');
    res.send(text);
  }, { limits, chain: deps.exportPublic ? ['limit'] : ['limit', 'access'], readQuery: (req) => ({ query: req.query.query, packs: packList(req.query) }) });

  /** Imports `bytes` for the request's user and answers the report (`extra`: more fields of the answer). */
  const importAndAnswer = async (res: Response, bytes: Buffer, apply: boolean, extra: Record<string, unknown> = {}): Promise<void> => {
    // pack rows may only add or rename packs for a user who may write packs
    const packs = hasPermission(res, Permission.WRITE_PACKS);
    const report = await importHitsYaml(db, bytes, { apply, maxBytes, packs, by: res.locals.user?.name ?? null });
    if (apply && !report.applied) {
      // nothing was written: the report says why, row by row
      res.status(400).json({ type: 'error', code: IMPORT_REJECTED_CODE, ...report, ...extra });
      return;
    }
    if (report.applied) {
      log.info({ user: res.locals.user?.id, hits: report.summary.hits, packs: report.summary.packs, ...extra }, 'catalogue imported');
      if (changedSomething(report)) {
        // the answer does not wait for the vocabulary rebuild; the index itself is already in step (triggers)
        deps.changed().catch((err: unknown) => log.error({ err }, 'announcing the imported catalogue failed'));
      }
    }
    res.json({ ...report, ...extra });
  };

  // the upload is read only for a caller who may import
  mount(router, C.importHits, async ({ query }, req, res) => {
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body) || body.length === 0) return sendError(res, E.emptyBody);
    await importAndAnswer(res, body, query.apply);
  }, { limits, chain: ['access', yamlBody(maxBytes)] });

  // a refused caller does not use up the limit of imports by address
  mount(router, C.importHitsFromAddress, async ({ query, body }, _req, res) => {
    // a client that goes away stops the fetch
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    let fetched;
    try {
      fetched = await fetchCatalogue(body.url, {
        maxBytes,
        timeoutMs: deps.remote?.timeoutMs ?? REMOTE_TIMEOUT_MS,
        allowPrivate: deps.remote?.allowPrivate,
        resolve: deps.remote?.resolve,
        signal: gone.signal,
      });
    } catch (e) {
      if (!(e instanceof RemoteFetchError)) throw e;
      log.info({ user: res.locals.user?.id, url: body.url.slice(0, 300), code: e.code, why: e.message }, 'import by address not fetched');
      return sendError(res, apiError(e.status, e.code, e.message));
    }
    if (body.sha256 !== undefined && body.sha256 !== fetched.sha256) return sendError(res, E.sourceChanged);
    await importAndAnswer(res, fetched.bytes, query.apply, { source: { url: fetched.url, sha256: fetched.sha256, bytes: fetched.bytes.length } });
  }, { limits, chain: ['access', 'limit'] });

  return router;
}
