import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type { RateClass, RouteSpec } from '../../shared/protocol/routes.ts';
import { PERMISSION_NAMES } from '../services/users.ts';
import { requirePermission, requireUser } from './auth.ts';
import { parseOr400 } from './errors.ts';

/**
 * Registers the operations of the route table (shared/protocol/routes*.ts) on an
 * Express router: the entry's limiter, its access check, then its path
 * parameters, query and body, each validated once with the entry's schemas
 * (a failure is the standard 400 `invalid_input` body naming the field), and only
 * then the handler, which receives the parsed input.
 */

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the entry's input, parsed. A rest parameter arrives as the string it spells. */
export interface RouteInput<R extends RouteSpec> {
  params: Out<R['params']>;
  query: Out<R['query']>;
  body: NonNullable<R['body']> extends { schema: infer S } ? Out<S> : undefined;
}

export type RouteHandler<R extends RouteSpec> = (input: RouteInput<R>, req: Request, res: Response) => unknown;

export interface MountOptions<R extends RouteSpec> {
  /** Where the router is mounted (`/api` unless said otherwise). */
  at?: string;
  /**
   * The limiters by class. A class left out is applied elsewhere (app.ts puts
   * `writes` in front of the whole API, so mutations of unknown paths count too).
   */
  limits?: Partial<Record<RateClass, RequestHandler>>;
  /** Middleware in front of the limiter and the access check. */
  before?: RequestHandler[];
  /**
   * The checks in front of the input's parsing, in order: `'limit'` is the entry's
   * limiter, `'access'` its access check, a handler runs as itself (default
   * `['limit', 'access']`). A step left out is not run (the operator made a
   * route public); a handler placed after `'access'` only runs for a caller who
   * may call the route (a body parser that reads a large upload).
   */
  chain?: ReadonlyArray<'limit' | 'access' | RequestHandler>;
  /** What the query schema reads, when the URL's query needs gathering first (a key with two names). */
  readQuery?: (req: Request) => unknown;
  /** Checks the parsed parameters before the body is read; false when it answered. */
  beforeBody?: (params: Out<R['params']>, res: Response) => boolean;
}

/** The Express path of an entry, relative to the router's mount: `{id}` → `:id`, the rest parameter → `*name`. */
export function expressPath(route: RouteSpec, at = '/api'): string {
  if (!route.path.startsWith(`${at}/`)) throw new Error(`${route.id}: ${route.path} is not under ${at}`);
  return route.path.slice(at.length).replace(/\{(\w+)\}/g, (_, name: string) => (name === route.restParam ? `*${name}` : `:${name}`));
}

function accessCheck(route: RouteSpec): RequestHandler | undefined {
  const { access } = route;
  if (access === 'public' || access === 'optional') return undefined;
  if (access === 'user') return requireUser;
  let bits = 0;
  for (const name of access.permission) bits |= PERMISSION_NAMES[name];
  return requirePermission(bits);
}

/** Parses the request's input as `route` declares it; undefined when a 400 was answered. */
function parseInput<R extends RouteSpec>(route: R, req: Request, res: Response, options: MountOptions<R>): RouteInput<R> | undefined {
  const params: Record<string, unknown> = {};
  if (route.params) {
    // one by one, in the shape's order: the 400 names the first bad parameter as `id`, `player`…
    for (const [name, schema] of Object.entries(route.params.shape)) {
      const raw = req.params[name] as unknown;
      if (name === route.restParam) {
        params[name] = Array.isArray(raw) ? raw.join('/') : raw;
        continue;
      }
      const value = parseOr400(res, schema as z.ZodType, raw, name);
      if (value === undefined) return undefined;
      params[name] = value;
    }
  }
  let query: unknown;
  if (route.query) {
    query = parseOr400(res, route.query, options.readQuery ? options.readQuery(req) : req.query, 'query');
    if (query === undefined) return undefined;
  }
  if (options.beforeBody && !options.beforeBody(params as Out<R['params']>, res)) return undefined;
  let body: unknown;
  if (route.body && !route.body.media) {
    const { schema, required, absentAsEmpty } = route.body;
    body = parseOr400(res, schema, req.body ?? (!required || absentAsEmpty ? {} : undefined), 'body');
    if (body === undefined) return undefined;
  }
  return { params, query, body } as RouteInput<R>;
}

/** Registers `route` on `router` (mounted at `options.at`) with its checks in front of `handler`. */
export function mount<R extends RouteSpec>(router: Router, route: R, handler: RouteHandler<R>, options: MountOptions<R> = {}): void {
  if (route.planned) throw new Error(`${route.id} is planned, not built`);
  const limiter = route.rateLimit ? options.limits?.[route.rateLimit] : undefined;
  const access = accessCheck(route);
  const steps = (options.chain ?? ['limit', 'access']).map((step) => (step === 'limit' ? limiter : step === 'access' ? access : step));
  const chain = [...(options.before ?? []), ...steps].filter((h): h is RequestHandler => h !== undefined);
  router[route.method](expressPath(route, options.at), ...chain, async (req: Request, res: Response) => {
    const input = parseInput(route, req, res, options);
    if (input) await handler(input, req, res);
  });
}
