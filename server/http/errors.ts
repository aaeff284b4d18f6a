import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { parseInput } from '../../shared/protocol/index.ts';
import type { RuleError } from '../../shared/rules/index.ts';
import type { Logger } from '../logger.ts';
import { HTTP_ERRORS } from '../../shared/protocol/routes.ts';

/**
 * Error answers of the HTTP API. Every error body is
 * `{"type":"error","code":"<stable code>","message":"<text>"}` (docs/rules.md#a2).
 */

export interface ApiError {
  status: number;
  code: string;
  message: string;
}

/** Sends an error body with its status. */
export function sendError(res: Response, error: ApiError | RuleError): void {
  res.status(error.status).json({ type: 'error', code: error.code, message: error.message });
}

/** Sends the reference server's success body: `{"type":"success","message":…}`. */
export function sendSuccess(res: Response, message: string, status = 200): void {
  res.status(status).json({ type: 'success', message });
}

export const apiError = (status: number, code: string, message: string): ApiError => ({ status, code, message });

/**
 * Parses `data` with `schema` (the shared protocol's `parseInput`); on failure
 * answers 400 naming the field and returns undefined, so a handler reads
 * `const body = parseOr400(...); if (!body) return;`.
 */
export function parseOr400<S extends z.ZodType>(res: Response, schema: S, data: unknown, where: string): z.output<S> | undefined {
  const r = parseInput(schema, data, where);
  if (r.ok) return r.data;
  res.status(400).json(r.error);
  return undefined;
}

/** JSON 404 for unknown API paths (never the SPA page, docs/api.md#b1). */
export function apiNotFound(req: Request, res: Response): void {
  sendError(res, apiError(404, 'not_found', `no API endpoint ${req.method} ${req.path}`));
}

/**
 * The last error handler: body-parser failures become clear 4xx answers; anything
 * else is a bug, logged with the request, answered 500, never fatal.
 */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.parse.failed') return sendError(res, HTTP_ERRORS.malformedJson);
    if (e?.type === 'entity.too.large') return sendError(res, apiError(413, 'body_too_large', 'the request body is too large'));
    if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
      return sendError(res, apiError(415, 'unsupported_encoding', 'unsupported body encoding'));
    }
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      return sendError(res, apiError(e.status, 'bad_request', e.message ?? 'bad request'));
    }
    log.error({ err, method: req.method, path: req.path, game: req.params?.id }, 'unhandled error');
    sendError(res, apiError(500, 'internal', 'internal server error'));
  };
}
