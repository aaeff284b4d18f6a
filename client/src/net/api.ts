import type { z } from 'zod';
import type { ApiRoute } from '../../../shared/protocol/api-routes.ts';
import type { RouteBody, RouteParams, RouteReply, RouteSpec } from '../../../shared/protocol/routes.ts';
import { loadSchemas, type Schemas } from './load-schemas.ts';

/**
 * The one fetch wrapper of the client. Every call is same-origin with cookies,
 * bodies are JSON, replies are validated with the shared zod schemas, and a
 * failure becomes an {@link ApiError} carrying the server's stable code (an
 * i18n key, `errors.<code>`), its English message and the HTTP status.
 */

/** A failed call: the server's error body, or a local stand-in (network down, malformed reply). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The error reply's JSON as sent (some errors carry more than a message, e.g. a refused import's report). */
  readonly body: unknown;
  /** Seconds to wait before trying again, when the reply says (a 429's Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(status: number, code: string, message: string, body?: unknown, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After in seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterOf(res: Response, now = Date.now()): number | undefined {
  const value = res.headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Code of a call that never got an HTTP answer (offline, DNS, aborted by the browser). */
export const NETWORK_ERROR = 'network_error';
/** Code of an answer that does not match the wire contract (a client/server version mismatch). */
export const BAD_REPLY = 'bad_reply';

/** Picks the reply's schema from the schema module: `{ schema: (s) => s.GameListSchema }`. */
export type SchemaPick<S extends z.ZodType> = (schemas: Schemas) => S;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON. Leave it out for body-less calls (the server's CSRF guard counts any body as one). */
  body?: unknown;
  /** A body sent as is with its own content type instead (a file upload: audio, hits.yml). */
  raw?: { data: Blob | string; type: string };
  /** What the reply should be (the Accept header); JSON unless said otherwise. */
  accept?: string;
  /** Validates the JSON reply; without it the reply is ignored. */
  schema?: SchemaPick<z.ZodType>;
  /** Re-authenticate and retry once on 401 (default true). Off for the auth call itself and for login. */
  retryOn401?: boolean;
  signal?: AbortSignal;
}

/**
 * Called after every answered request: the server renews the session cookies in
 * passing, so the session store re-reads the `user` cookie (kept as a hook so
 * net/ never imports a store).
 */
let afterResponse: (() => void) | undefined;
export function setAfterResponse(hook: (() => void) | undefined): void {
  afterResponse = hook;
}

let refreshing: Promise<void> | null = null;

/**
 * `GET /api/users/auth`: renews the session or makes this browser a guest (the
 * reply body is unused; the cookies are what count). Concurrent callers share
 * one request, so ten calls failing with 401 at once cause one refresh.
 */
export function refreshSession(): Promise<void> {
  refreshing ??= (async () => {
    try {
      await request('/api/users/auth', { retryOn401: false });
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function errorFrom(res: Response, schemas: Promise<Schemas>): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const parsed = (await schemas).ErrorBodySchema.safeParse(body);
  const retryAfter = retryAfterOf(res);
  if (parsed.success) return new ApiError(res.status, parsed.data.code, parsed.data.message, body, retryAfter);
  const message = typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : res.statusText || `HTTP ${res.status}`;
  return new ApiError(res.status, `http_${res.status}`, message, body, retryAfter);
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: { Accept: options.accept ?? 'application/json' },
    ...(options.signal ? { signal: options.signal } : {}),
  };
  if (options.raw) {
    init.headers = { ...init.headers, 'Content-Type': options.raw.type };
    init.body = options.raw.data;
  } else if (options.body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  try {
    return await fetch(path, init);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, NETWORK_ERROR, err instanceof Error ? err.message : String(err));
  }
}

/** Sends, re-authenticates once on 401, and turns a failure status into an {@link ApiError}. */
async function answered(path: string, options: RequestOptions, schemas: Promise<Schemas>): Promise<Response> {
  let res = await send(path, options);
  if (res.status === 401 && options.retryOn401 !== false) {
    await refreshSession();
    res = await send(path, options);
  }
  afterResponse?.();
  if (!res.ok) throw await errorFrom(res, schemas);
  return res;
}

/** Like {@link request}, for a reply that is text rather than JSON (the catalogue export's YAML). */
export async function requestText(path: string, options: Omit<RequestOptions, 'schema'> = {}): Promise<string> {
  const res = await answered(path, { accept: 'text/plain, */*', ...options }, loadSchemas());
  return res.text();
}

/**
 * Performs one API call. On 401 it refreshes the session once (shared with any
 * other caller) and repeats the request once; a second 401 is returned as an
 * error (401 only ever means "not authenticated", so this cannot loop).
 */
export async function request<S extends z.ZodType>(path: string, options: RequestOptions & { schema: SchemaPick<S> }): Promise<z.output<S>>;
export async function request(path: string, options?: RequestOptions & { schema?: undefined }): Promise<undefined>;
export async function request(path: string, options: RequestOptions = {}): Promise<unknown> {
  // the schemas load while the request is under way
  const schemas = loadSchemas();
  const res = await answered(path, options, schemas);
  if (!options.schema) return undefined;
  const schema = options.schema(await schemas);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ApiError(res.status, BAD_REPLY, `${path}: the reply is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(res.status, BAD_REPLY, `${path}: unexpected reply (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data;
}

type Route<M extends ApiRoute['method'], P extends string> = Extract<ApiRoute, { method: M; path: P }>;

/** What a call of `R` sends: its path parameters and its body (JSON, or a file as `raw`), each when it has them, and a query string. */
export type CallInput<R extends RouteSpec> = (R['params'] extends z.ZodObject ? { params: RouteParams<R> } : { params?: undefined }) &
  (NonNullable<R['body']> extends { media: readonly string[] }
    ? { raw: NonNullable<RequestOptions['raw']>; body?: undefined }
    : NonNullable<R['body']> extends { required: true }
      ? { body: RouteBody<R> }
      : { body?: RouteBody<R> }) & { query?: URLSearchParams };

/** `/api/games/{id}` with `{ id }`: each parameter in its place, percent-encoded. */
function fill(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
}

/**
 * One call of an operation of the route table (shared/protocol/api-routes.ts),
 * named by its method and documented path: both, the parameters, the body and
 * the reply's schema (it must read what the operation answers) are checked
 * against the table by the type checker. Only
 * types come from the table, so none of it reaches the bundle; the reply is
 * validated with the schema `schema` picks, as by {@link request}.
 */
export function api<M extends ApiRoute['method'], P extends Route<M, string>['path'], S extends z.ZodType>(
  method: M,
  path: P,
  input: CallInput<Route<M, P>> &
    Omit<RequestOptions, 'method' | 'body' | 'schema'> &
    // the schema reads the reply (it may read less of it than there is)
    (RouteReply<Route<M, P>> extends z.input<S> ? { schema: SchemaPick<S> } : { schema: SchemaPick<S> & { notTheReply: never } }),
): Promise<z.output<S>> {
  const { params, body, query, ...options } = input as CallInput<RouteSpec> & RequestOptions & { schema: SchemaPick<S> };
  const url = fill(path, params as Record<string, unknown> | undefined) + (query ? `?${query}` : '');
  return request(url, { ...options, method: method.toUpperCase() as NonNullable<RequestOptions['method']>, ...(body === undefined ? {} : { body }) });
}
