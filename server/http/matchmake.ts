import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuthContext, ErrorCode, matchMaker } from '@colyseus/core';
import type { Logger } from '../logger.ts';
import { MatchmakeOptionsSchema, MatchmakeReconnectSchema, parseInput, toErrorBody } from '../../shared/protocol/index.ts';
import type { ApiError } from './errors.ts';
import type { WindowLimit } from './security.ts';
import { HTTP_ERRORS } from '../../shared/protocol/routes.ts';

/**
 * Colyseus' matchmaking route, `POST /matchmake/<method>/<game id>` (what the
 * SDK's `joinById` and `reconnect` call before opening the game's WebSocket),
 * served here in front of Colyseus' own, which answers a client's mistakes (an
 * unknown game, a method that is not offered) with 5xx codes of its own (520,
 * 522) in a body of its own, and reads bodies of any size. This one calls the
 * same matchmaker, answers errors as the API does
 * (`{"type":"error","code","message"}`: the SDK reads `message`), limits the
 * requests per address, and takes JSON bodies up to 16 kB. Other paths and
 * CORS preflights go on to Colyseus.
 */

export interface MatchmakeDeps {
  log: Logger;
  /** Requests per address key (none: no limit). */
  limit: WindowLimit | undefined;
  /** The key of a request's client address. */
  keyOf: (req: IncomingMessage) => string;
}

/** Largest body a matchmaking request may have (the SDK sends `{}` or a reconnection token). */
const MAX_BODY_BYTES = 16 * 1024;

/** Matchmaking failures that are the client's: no such game (or room type), an expired reconnection, a refused auth, a bad payload. */
const CLIENT_ERRORS: Record<number, Pick<ApiError, 'status' | 'code'>> = {
  [ErrorCode.MATCHMAKE_NO_HANDLER]: { status: 404, code: 'game_not_found' },
  [ErrorCode.MATCHMAKE_INVALID_CRITERIA]: { status: 404, code: 'game_not_found' },
  [ErrorCode.MATCHMAKE_INVALID_ROOM_ID]: { status: 404, code: 'game_not_found' },
  [ErrorCode.MATCHMAKE_EXPIRED]: { status: 404, code: 'game_not_found' },
  [ErrorCode.AUTH_FAILED]: { status: 403, code: 'forbidden' },
  [ErrorCode.INVALID_PAYLOAD]: { status: 400, code: 'invalid_input' },
  // the rest of the matchmaker's own failures: the room's process is gone, a seat could not be reserved
  [ErrorCode.MATCHMAKE_UNHANDLED]: { status: 503, code: 'unavailable' },
};

/** Codes of the HTTP statuses a room itself may throw (onAuth's 404 for a game the user may not see). */
const STATUS_CODES: Record<number, string> = { 400: 'invalid_input', 403: 'forbidden', 404: 'game_not_found', 409: 'conflict', 503: 'unavailable' };

/** Returns the request handler: true when it answers the request (a matchmaking path), false to let it go on. */
export function matchmakeRoute(deps: MatchmakeDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const prefix = `/${matchMaker.controller.matchmakeRoute}/`;
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith(prefix) || req.method === 'OPTIONS') return false;
    serve(deps, req, res, path.slice(prefix.length)).catch((err: unknown) => {
      deps.log.error({ err, path }, 'matchmaking request failed');
      if (!res.headersSent) fail(res, { status: 500, code: 'internal', message: 'internal server error' });
    });
    return true;
  };
}

async function serve(deps: MatchmakeDeps, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const waitMs = deps.limit?.hit(deps.keyOf(req)) ?? 0;
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    return fail(res, { status: 429, code: 'rate_limited', message: `too many matchmaking requests from this address; try again in ${seconds} second${seconds === 1 ? '' : 's'}` });
  }
  const parts = rest.split('/');
  const method = parts.length === 2 && parts[1] !== '' ? decoded(parts[0]!) : undefined;
  const roomId = method !== undefined ? decoded(parts[1]!) : undefined;
  if (method === undefined || roomId === undefined) return fail(res, { status: 404, code: 'not_found', message: `no matchmaking endpoint ${req.method} /matchmake/${rest}` });
  if (!matchMaker.controller.exposedMethods.includes(method)) {
    // no HTTP method is allowed on it: games are created through the API and joined by id
    res.setHeader('Allow', '');
    return fail(res, { status: 405, code: 'method_not_allowed', message: `invalid method ${JSON.stringify(method)}: games are joined by id (joinById, reconnect)` });
  }
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return fail(res, { status: 405, code: 'method_not_allowed', message: `${req.method} is not allowed here; use POST` });
  }
  if (matchMaker.state === matchMaker.MatchMakerState.SHUTTING_DOWN) return fail(res, { status: 503, code: 'shutting_down', message: 'the server is shutting down' });

  const body = await readJson(req);
  if ('error' in body) {
    res.setHeader('Connection', 'close');
    return fail(res, body.error);
  }
  const options = parseInput(method === 'reconnect' ? MatchmakeReconnectSchema : MatchmakeOptionsSchema, body.json ?? {});
  if (!options.ok) return fail(res, { status: 400, code: options.error.code, message: options.error.message });

  let reservation: unknown;
  try {
    const context = createAuthContext({ headers: new Headers(headerPairs(req)), remoteAddress: req.socket.remoteAddress ?? '', req });
    reservation = await matchMaker.controller.invokeMethod(method, roomId, options.data, context);
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown } | null;
    const code = typeof e?.code === 'number' ? e.code : undefined;
    const known = code === undefined ? undefined : (CLIENT_ERRORS[code] ?? (STATUS_CODES[code] ? { status: code, code: STATUS_CODES[code] } : undefined));
    if (!known) throw err;
    return fail(res, { ...known, message: typeof e?.message === 'string' ? e.message : 'matchmaking failed' });
  }
  send(res, 200, reservation);
}

const decoded = (part: string): string | undefined => {
  try {
    const s = decodeURIComponent(part);
    return s === '' ? undefined : s;
  } catch {
    return undefined;
  }
};

/** The request's headers as name/value pairs (repeated ones joined, as Fetch does). */
function headerPairs(req: IncomingMessage): [string, string][] {
  return Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]]));
}

/** Reads a JSON body of at most MAX_BODY_BYTES (none: `json` undefined). */
async function readJson(req: IncomingMessage): Promise<{ json: unknown } | { error: ApiError }> {
  const tooLarge: ApiError = { status: 413, code: 'body_too_large', message: 'the request body is too large' };
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return { error: tooLarge };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { error: tooLarge };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { json: undefined };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { error: HTTP_ERRORS.malformedJson };
  }
}

/** Sends a JSON answer. */
function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Sends an error as the API does. */
const fail = (res: ServerResponse, error: ApiError): void => send(res, error.status, toErrorBody(error));
