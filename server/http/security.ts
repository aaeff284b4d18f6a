import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { apiError, sendError } from './errors.ts';

/**
 * Abuse protection of the HTTP API (api.md B5): security headers, rate limits and
 * the CSRF guard for cookie-authenticated mutations.
 */

/**
 * Security headers (helmet): a CSP that allows exactly what the client uses (its
 * own scripts, WebSocket/SSE, blob audio, YouTube thumbnails and the embedded
 * YouTube player in the hit editor), no framing of our pages, same-origin
 * referrers, nosniff. `https` adds HSTS and upgrade-insecure-requests, which would
 * break a plain-http party server on a LAN address if sent there.
 */
export function securityHeaders(options: { https?: boolean } = {}): RequestHandler {
  const https = options.https ?? false;
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
        imgSrc: ["'self'", 'data:', 'https://i.ytimg.com'],
        frameSrc: ['https://www.youtube-nocookie.com', 'https://www.youtube.com'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600 } : false,
    xFrameOptions: { action: 'deny' },
  }) as RequestHandler;
}

/** The rate limiters; each is a middleware to put in front of the routes it guards. */
export interface RateLimits {
  /** `POST /api/users/login`, per IP; successful logins do not count. */
  login: RequestHandler;
  /** `POST /api/users/register`, per IP. */
  register: RequestHandler;
  /** Guest creation by `GET /api/users/auth`, per IP; renewing an existing session does not count. */
  guest: RequestHandler;
  /** Catalogue search and export, per user (per IP when anonymous). */
  search: RequestHandler;
  /**
   * Mutations (catalogue writes, game actions, account deletion), per user (per IP
   * when anonymous). GET, HEAD and OPTIONS pass uncounted, so it may guard a whole router.
   */
  writes: RequestHandler;
  /**
   * Event streams (SSE): at most so many open at once per user (per IP when
   * anonymous), and so many opened per minute; one client cannot hold the
   * server's sockets and file descriptors.
   */
  streams: RequestHandler;
}

/** Base limits (requests per window) before `RATE_LIMIT_FACTOR`. */
const LIMITS = {
  login: { limit: 20, windowMs: 10 * 60_000 },
  register: { limit: 10, windowMs: 60 * 60_000 },
  // A whole party on one Wi-Fi shares an IP, and every new tab without cookies is a guest.
  guest: { limit: 60, windowMs: 10 * 60_000 },
  search: { limit: 120, windowMs: 60_000 },
  writes: { limit: 120, windowMs: 60_000 },
  // an EventSource reconnects by itself every few seconds while the server is away
  streams: { limit: 120, windowMs: 60_000 },
} as const;

/**
 * Event streams open at once (before RATE_LIMIT_FACTOR): a user has two per tab
 * (the lobby's and a game's); everybody behind one address (a party's Wi-Fi, a
 * script) shares the per-IP figure.
 */
const OPEN_STREAMS = { user: 32, ip: 200 } as const;

/** 429 body of every limiter. */
export const RATE_LIMITED = apiError(429, 'rate_limited', 'too many requests, please try again later');

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

const byIp = (req: Request): string => `ip:${ipKeyGenerator(req.ip ?? '')}`;
/** Players of one party share an IP, so authenticated traffic is counted per user. */
const byUserOrIp = (req: Request, res: Response): string => (res.locals.user ? `user:${res.locals.user.id}` : byIp(req));

/**
 * Builds the rate limiters. Every limit is multiplied by `RATE_LIMIT_FACTOR`
 * (at least 1 request); a factor of 0 turns them all into no-ops. `search` and
 * `writes` need the session middleware before them to count per user.
 */
export function rateLimits(config: Pick<Config, 'RATE_LIMIT_FACTOR'>): RateLimits {
  const factor = config.RATE_LIMIT_FACTOR;
  const make = (
    base: { limit: number; windowMs: number },
    extra: { keyGenerator?: (req: Request, res: Response) => string; skip?: (req: Request, res: Response) => boolean; skipSuccessfulRequests?: boolean } = {},
  ): RequestHandler => {
    if (factor === 0) return (_req, _res, next) => next();
    return rateLimit({
      windowMs: base.windowMs,
      limit: Math.max(1, Math.floor(base.limit * factor)),
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      keyGenerator: extra.keyGenerator ?? byIp,
      handler: (_req, res) => sendError(res, RATE_LIMITED),
      ...(extra.skip ? { skip: extra.skip } : {}),
      ...(extra.skipSuccessfulRequests ? { skipSuccessfulRequests: true } : {}),
    }) as RequestHandler;
  };
  return {
    login: make(LIMITS.login, { skipSuccessfulRequests: true }),
    register: make(LIMITS.register),
    // Only a request that will make a new guest counts (see sessionMiddleware's `res.locals.session`).
    guest: make(LIMITS.guest, { skip: (_req, res) => res.locals.session !== undefined && res.locals.session.state !== 'none' }),
    search: make(LIMITS.search, { keyGenerator: byUserOrIp }),
    writes: make(LIMITS.writes, { keyGenerator: byUserOrIp, skip: (req) => !MUTATING.has(req.method) }),
    streams: chain(make(LIMITS.streams, { keyGenerator: byUserOrIp }), openStreamLimit(factor)),
  };
}

/** Runs two handlers one after the other, as one. */
function chain(first: RequestHandler, second: RequestHandler): RequestHandler {
  return (req, res, next) => first(req, res, (err?: unknown) => (err ? next(err) : second(req, res, next)));
}

/**
 * Counts the open responses per user and per IP, and refuses a new one with 429
 * beyond OPEN_STREAMS × `factor` (0: no limit): a user has his own figure, and
 * every stream of an address (of its users too, as guests cost nothing to make)
 * counts against the address's. A response counts until its connection closes.
 */
function openStreamLimit(factor: number): RequestHandler {
  if (factor === 0) return (_req, _res, next) => next();
  const open = new Map<string, number>();
  const limitOf = (kind: keyof typeof OPEN_STREAMS) => Math.max(1, Math.floor(OPEN_STREAMS[kind] * factor));
  return (req, res, next) => {
    const keys: [string, number][] = [[byIp(req), limitOf('ip')]];
    if (res.locals.user) keys.push([`user:${res.locals.user.id}`, limitOf('user')]);
    if (keys.some(([key, max]) => (open.get(key) ?? 0) >= max)) return sendError(res, TOO_MANY_STREAMS);
    for (const [key] of keys) open.set(key, (open.get(key) ?? 0) + 1);
    res.once('close', () => {
      for (const [key] of keys) {
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) open.delete(key);
        else open.set(key, left);
      }
    });
    next();
  };
}

/** 429 for an event stream beyond the open-streams limit. */
export const TOO_MANY_STREAMS = apiError(429, 'too_many_streams', 'too many event streams open at once; close some first');

/** 403 for a mutation whose Origin is another host. */
export const CSRF_REFUSED = apiError(403, 'csrf', 'cross-site request refused');
/** 415 for a mutation body that is not JSON (outside the opted-out paths). */
export const UNSUPPORTED_MEDIA_TYPE = apiError(415, 'unsupported_media_type', 'the request body must be application/json');

/** Options of {@link csrfGuardWith}. */
export interface CsrfOptions {
  /**
   * Paths (exact strings or patterns, matched against the full path without the
   * query) whose mutations may carry a non-JSON body, e.g. file uploads.
   */
  anyBodyPaths?: readonly (string | RegExp)[];
  /**
   * Origins accepted whatever the request's host is (PUBLIC_URL, ALLOWED_ORIGINS),
   * as `URL.origin` spells them: a reverse proxy may pass its own upstream
   * address as Host, which then never matches what the browser sends as Origin.
   */
  origins?: readonly string[];
}

/** `Content-Length: 0` (what fetch sends for a body-less POST) is no body; type-is counts it as one. */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

function ourOrigin(origin: string, host: string | undefined, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (sandboxed frames, some redirects) and garbage are not our origin.
    return false;
  }
  if (allowed.has(url.origin)) return true;
  return host !== undefined && url.host.toLowerCase() === host.toLowerCase();
}

/**
 * CSRF guard for mutations (POST, PATCH, PUT, DELETE), the other half next to
 * SameSite=Strict cookies: a request whose `Origin` is neither one of `origins`
 * nor names the request's own host is refused (403 `csrf`), and a request body
 * must be `application/json` (415), which a cross-site form cannot send without
 * a CORS preflight, except on the paths that opt out. The host is `req.host`,
 * which honours `X-Forwarded-Host` only when `trust proxy` trusts the sender.
 */
export function csrfGuardWith(options: CsrfOptions = {}): RequestHandler {
  const optOut = options.anyBodyPaths ?? [];
  const allowed = new Set(options.origins ?? []);
  return (req, res, next) => {
    if (!MUTATING.has(req.method)) return next();
    const origin = req.get('Origin');
    if (origin !== undefined && !ourOrigin(origin, req.host, allowed)) return sendError(res, CSRF_REFUSED);
    if (hasBody(req) && !req.is('application/json')) {
      const path = req.originalUrl.split('?')[0] ?? '';
      if (!optOut.some((p) => (typeof p === 'string' ? p === path : p.test(path)))) return sendError(res, UNSUPPORTED_MEDIA_TYPE);
    }
    next();
  };
}

/** {@link csrfGuardWith} without opt-outs: every mutation body must be JSON. */
export const csrfGuard: RequestHandler = csrfGuardWith();
