import type { z } from 'zod';
import { ERRORS, ruleError, type ErrorCode } from '../rules/errors.ts';
import { INVALID_INPUT_CODE } from './common.ts';

/**
 * The HTTP API written down once: each operation's method, path, input and reply
 * schemas, who may call it, its rate-limit class, the errors it can answer and
 * its documentation. The server registers its Express routes from these entries
 * (server/http/routes.ts), the OpenAPI document is generated from them
 * (server/http/openapi.ts) and the client's calls are typed by them
 * (client/src/net/api.ts). The client imports this module for its types only:
 * the prose below must not reach the browser's bundle.
 *
 * The entries themselves live per area (routes-games.ts, …); this file holds
 * their shape and the errors every area shares.
 */

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
export type Tag = 'users' | 'games' | 'events' | 'catalogue' | 'audio';

/**
 * Who may call an operation: `public` (no session involved), `optional` (answers
 * differently with a session), `user` (any session, a guest too: 401 without),
 * or a user with the named permission bits (403 without).
 */
export type Access = 'public' | 'optional' | 'user' | { permission: readonly PermissionName[] };
export type PermissionName = 'write_hits' | 'write_packs' | 'read_issues' | 'write_issues' | 'delete_issues';

/** The limiter in front of an operation (server/http/security.ts `RateLimits`). */
export type RateClass = 'guest' | 'login' | 'register' | 'search' | 'remoteImports' | 'reports' | 'writes' | 'streams';

/** An error an operation can answer; `code` is absent only for operations not built yet. */
export interface ErrorSpec {
  status: number;
  code?: string;
  /** The message, or what it says when it varies. */
  message: string;
  /** A message as sent, when `message` is a template or a summary. */
  example?: string;
}

/** The success reply of an operation. */
export interface ReplySpec {
  status: 200 | 201 | 202;
  /** The reference server's `{"type":"success","message":…}` with this exact message. */
  message?: string;
  /** The JSON reply's schema. */
  schema?: z.ZodType;
  description?: string;
  /** A reply that is a file of one of these types rather than JSON. */
  media?: readonly string[];
  /** Other success answers (a range, not modified), by status. */
  more?: Readonly<Record<number, string>>;
  /** Reply headers worth documenting, as a zod object of strings. */
  headers?: z.ZodObject;
  /** An endless `text/event-stream` rather than one reply: the schema of one event (its name and data). */
  events?: z.ZodType;
}

export interface RouteSpec {
  /** The OpenAPI operationId; unique. */
  id: string;
  method: Method;
  /** The URL path in OpenAPI form: `/api/games/{id}/guess/{player}`. */
  path: string;
  /** A path parameter that takes the rest of the path, slashes included (Express `*name`). */
  restParam?: string;
  /** Its section in the reference; a second one lists it there too. */
  tag: Tag | readonly [Tag, Tag];
  summary: string;
  description?: string;
  access: Access;
  rateLimit?: RateClass;
  /** Its 429 says how long to wait (`Retry-After`). */
  retryAfter?: boolean;
  /** Path parameters, each checked on its own in shape order (a 400 names the first bad one). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The query as documented, where the schema that parses it would read wrong there (transforms, lenient values). */
  queryDoc?: z.ZodObject;
  /** Request headers the operation reads, documented only. */
  headers?: z.ZodObject;
  /**
   * The JSON body. `required: false`: an absent body is `{}`; `absentAsEmpty`
   * reads an absent body as `{}` while the document still asks for one. `media`:
   * a body that is not JSON but a file of these types, read by the handler itself.
   */
  body?: { schema: z.ZodType; required: boolean; absentAsEmpty?: boolean; media?: readonly string[] };
  reply: ReplySpec;
  /** What a 400 `invalid_input` says of this operation: which input, and one message as sent. */
  invalid?: { what: string; example: string };
  /** The errors its own logic answers (the checks in front of it are added from access, rate limit and body). */
  errors: readonly ErrorSpec[];
  /** Not implemented yet: documented, not routed. */
  planned?: boolean;
}

/** An engine error, verbatim from the rules' error table; `params` fill the example's placeholders. */
export function rule(code: ErrorCode, params?: Record<string, string | number>): ErrorSpec {
  const [status, message] = ERRORS[code];
  return { status, code, message, ...(params ? { example: ruleError(code, params).message } : {}) };
}

/** Every engine error whose code is one of `codes`, in that order. */
export const rules = (...codes: ErrorCode[]): ErrorSpec[] => codes.map((code) => rule(code));

/** An error of the HTTP layer: status, stable code, message. */
export interface HttpError {
  status: number;
  code: string;
  message: string;
}

export const httpError = (status: number, code: string, message: string): HttpError => ({ status, code, message });

/** The errors of the HTTP layer every area can answer, answered by the server exactly so. */
export const HTTP_ERRORS = {
  unauthenticated: httpError(401, 'unauthenticated', 'not authenticated'),
  permissionDenied: httpError(403, 'permission_denied', 'permission denied'),
  csrf: httpError(403, 'csrf', 'cross-site request refused'),
  unsupportedMediaType: httpError(415, 'unsupported_media_type', 'the request body must be application/json'),
  rateLimited: httpError(429, 'rate_limited', 'too many requests, please try again later'),
  malformedJson: httpError(400, 'malformed_json', 'the request body is not valid JSON'),
} as const;

/** 400 `invalid_input`: `what` failed its shared schema; `example` is such a message. */
export const invalidInput = (what: string, example: string): ErrorSpec => ({
  status: 400,
  code: INVALID_INPUT_CODE,
  message: `${what} fails its schema; the message names the field`,
  example,
});

/** The `invalid_input` example of a malformed game id, and of a malformed UUID named `name`. */
export const BAD_GAME_ID = 'id must be 8 letters or digits';
export const badUuid = (name: string): string => `${name} must be a UUID`;

/**
 * The errors answered before an operation's own logic runs: the session, the
 * cross-site guard, the limiter, the body, the permission.
 */
export function guardErrors(route: RouteSpec): ErrorSpec[] {
  const out: ErrorSpec[] = [];
  const { access } = route;
  if (access !== 'public' && access !== 'optional') out.push(HTTP_ERRORS.unauthenticated);
  if (route.method !== 'get') out.push(HTTP_ERRORS.csrf);
  if (route.rateLimit) out.push(HTTP_ERRORS.rateLimited);
  if (route.body && !route.body.media) out.push(HTTP_ERRORS.malformedJson, HTTP_ERRORS.unsupportedMediaType);
  if (typeof access === 'object') {
    const denied = HTTP_ERRORS.permissionDenied;
    // the example body is the message as sent, which does not name the permission
    out.push({ ...denied, message: `${denied.message} (needs ${access.permission.join(', ')})`, example: denied.message });
  }
  // an operation that says more about one of these (a limiter's own message) lists it itself
  return out.filter((guard) => !route.errors.some((e) => e.code === guard.code));
}

/** The reply of a route: its schema's output, or the reference server's success body (an event stream has none: EventSource reads it). */
export type RouteReply<R extends RouteSpec> = R['reply'] extends { events: z.ZodType }
  ? never
  : R['reply'] extends { schema: infer S extends z.ZodType }
    ? z.output<S>
    : { type: 'success'; message: string };
/** Path parameters of a route, as the client sends them. */
export type RouteParams<R extends RouteSpec> = R['params'] extends z.ZodObject ? z.input<R['params']> : undefined;
/** The JSON body of a route, as the client sends it. */
export type RouteBody<R extends RouteSpec> = NonNullable<R['body']> extends { schema: infer S extends z.ZodType } ? z.input<S> : undefined;
