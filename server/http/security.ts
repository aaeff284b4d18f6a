import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { apiError, sendError } from './errors.ts';
import { byIp, LoginGuard, MAX_REMEMBERED } from './login-guard.ts';
import { HTTP_ERRORS } from '../../shared/protocol/routes.ts';
import { EVENT_HTTP_ERRORS } from '../../shared/protocol/routes-events.ts';

/**
 * Abuse protection of the HTTP API (docs/api.md#b5): security headers, rate limits and
 * the CSRF guard for cookie-authenticated mutations.
 */

/** Where YouTube's IFrame Player API (the DJ's player) comes from: its script, and its frames' origin. */
export interface YoutubePlayerSources {
  /** The API script's URL (YOUTUBE_IFRAME_API). */
  api: string;
  /** The frames' origin (YOUTUBE_PLAYER_HOST). */
  host: string;
}

export const YOUTUBE_PLAYER: YoutubePlayerSources = { api: 'https://www.youtube.com/iframe_api', host: 'https://www.youtube-nocookie.com' };

/** The CSP directives every answer has (see securityHeaders). */
function baseDirectives(https: boolean) {
  return {
    defaultSrc: ["'self'"],
    connectSrc: ["'self'", 'ws:', 'wss:'],
    mediaSrc: ["'self'", 'blob:'],
    imgSrc: ["'self'", 'data:', 'https://i.ytimg.com'],
    frameSrc: ['https://www.youtube-nocookie.com', 'https://www.youtube.com'],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: https ? [] : null,
  };
}

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
    contentSecurityPolicy: { directives: baseDirectives(https) },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600 } : false,
    xFrameOptions: { action: 'deny' },
  }) as RequestHandler;
}

/**
 * The CSP of the web client's page (index.html, every client-side route: one
 * document, so what its game screen needs it needs from the start): the base
 * policy, plus what the DJ's YouTube player needs in the `dj` clue mode, and no
 * more: the API script at its exact URL and YouTube's player scripts below its
 * origin's /s/player/ (which the API script loads), and frames from the
 * player's host below /embed/. API answers and the API reference keep the base
 * policy, which runs no script from elsewhere.
 */
export function clientPageCsp(options: { https?: boolean; youtube?: YoutubePlayerSources } = {}): RequestHandler {
  const base = baseDirectives(options.https ?? false);
  const youtube = options.youtube ?? YOUTUBE_PLAYER;
  const players = `${new URL(youtube.api).origin}/s/player/`;
  const frames = `${youtube.host}/embed/`;
  return helmet.contentSecurityPolicy({
    directives: {
      ...base,
      scriptSrc: ["'self'", youtube.api, players],
      frameSrc: [...base.frameSrc, ...(base.frameSrc.includes(youtube.host) ? [] : [frames])],
    },
  }) as RequestHandler;
}

/** The rate limiters; each but `login` is a middleware to put in front of the routes it guards. */
export interface RateLimits {
  /** `POST /api/users/login`: failed logins per account and per address (see {@link LoginGuard}). */
  login: LoginGuard;
  /** `POST /api/users/register`, per IP. */
  register: RequestHandler;
  /** Guest creation by `GET /api/users/auth`, per IP; renewing an existing session does not count. */
  guest: RequestHandler;
  /** Catalogue search and export, per user (per IP when anonymous). */
  search: RequestHandler;
  /** Imports by address, per user: each has the server fetch up to the import's size limit from elsewhere. */
  remoteImports: RequestHandler;
  /** "Report a problem" from a hit's page, per user (per IP when anonymous): no captcha guards it, so a few at a time. */
  reports: RequestHandler;
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
  register: { limit: 10, windowMs: 60 * 60_000 },
  // A whole party on one Wi-Fi shares an IP, and every new tab without cookies is a guest.
  guest: { limit: 60, windowMs: 10 * 60_000 },
  search: { limit: 120, windowMs: 60_000 },
  // a dry run and its apply are two; a curator trying a few addresses stays far below
  remoteImports: { limit: 10, windowMs: 60_000 },
  reports: { limit: 5, windowMs: 10 * 60_000 },
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
export const RATE_LIMITED = HTTP_ERRORS.rateLimited;

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The key of a client address: IPv6 addresses count by their /56 network (what one subscriber gets). */
const addressKey = (address: string): string => `ip:${ipKeyGenerator(address)}`;
/**
 * The client address of a request Express does not see (WebSocket upgrades,
 * the matchmaker), found as Express finds `req.ip` with `trust proxy` set to
 * `trustedHops`: the address that many hops back along X-Forwarded-For.
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const chain = [req.socket.remoteAddress ?? ''];
  if (trustedHops > 0) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    for (let i = forwarded.length - 1; i >= 0 && chain.length <= trustedHops; i--) {
      const hop = forwarded[i]!.trim();
      if (hop) chain.push(hop);
    }
  }
  return chain[chain.length - 1]!;
}

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
    extra: { keyGenerator?: (req: Request, res: Response) => string; skip?: (req: Request, res: Response) => boolean } = {},
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
    }) as RequestHandler;
  };
  return {
    login: new LoginGuard(factor),
    register: make(LIMITS.register),
    // Only a request that will make a new guest counts (see sessionMiddleware's `res.locals.session`).
    guest: make(LIMITS.guest, { skip: (_req, res) => res.locals.session !== undefined && res.locals.session.state !== 'none' }),
    search: make(LIMITS.search, { keyGenerator: byUserOrIp }),
    remoteImports: make(LIMITS.remoteImports, { keyGenerator: byUserOrIp }),
    reports: make(LIMITS.reports, { keyGenerator: byUserOrIp }),
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
export const TOO_MANY_STREAMS = EVENT_HTTP_ERRORS.tooManyStreams;

/** 403 for a mutation whose Origin is another host. */
export const CSRF_REFUSED = HTTP_ERRORS.csrf;
/** 415 for a mutation body that is not JSON (outside the opted-out paths). */
export const UNSUPPORTED_MEDIA_TYPE = HTTP_ERRORS.unsupportedMediaType;

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

/** Requests whose body may take longer than the deadline while it keeps coming. */
const longBodies = new WeakSet<IncomingMessage>();

/**
 * Lets `req`'s body take longer than REQUEST_TIMEOUT_SECONDS, as long as no
 * such stretch passes without a byte of it: for the uploads of users allowed to
 * make them (a 50 MB audio file over a slow uplink takes minutes). Call it
 * after the permission check, before reading the body.
 */
export function allowLongBody(req: IncomingMessage): void {
  longBodies.add(req);
}

/** 408 for a request body that did not arrive in time. */
export const REQUEST_TIMEOUT = apiError(408, 'request_timeout', 'the request did not arrive in time');

/**
 * The deadline of request bodies: a request whose body has not fully arrived
 * `seconds` after its headers is answered 408 and its connection closed, so a
 * client that trickles bodies cannot hold the server's sockets (Node allows 300
 * s). Node's own `requestTimeout` would do it, but it cannot spare the uploads
 * of {@link allowLongBody}; so Node's is switched off (`requestTimeout: 0`, see
 * index.ts) and this runs for every request instead, headers being Node's
 * `headersTimeout`.
 */
export function bodyDeadline(seconds: number): (req: IncomingMessage, res: ServerResponse) => void {
  const ms = seconds * 1000;
  return (req, res) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.headers['transfer-encoding'] === undefined && !(length > 0)) return;
    let heard = req.socket.bytesRead;
    const check = (): void => {
      if (req.complete) return;
      if (longBodies.has(req) && req.socket.bytesRead > heard) {
        heard = req.socket.bytesRead;
        timer = setTimeout(check, ms);
        return;
      }
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      const body = JSON.stringify({ type: 'error', code: REQUEST_TIMEOUT.code, message: REQUEST_TIMEOUT.message });
      res.writeHead(REQUEST_TIMEOUT.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
      res.end(body, () => req.socket.destroy());
    };
    let timer = setTimeout(check, ms);
    req.once('close', () => clearTimeout(timer));
  };
}

/**
 * Counts requests per key in fixed windows of `windowMs`: `hit` counts one and
 * answers 0 while the key stays within `limit`, else the ms until its window ends.
 */
export class WindowLimit {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  hit(key: string): number {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      if (this.windows.size >= MAX_REMEMBERED) this.forgetEnded(now);
      w = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count > this.limit ? w.endsAt - now : 0;
  }

  private forgetEnded(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
  }
}

/** What {@link connectionLimits} gives: the limits outside Express, per client address. */
export interface ConnectionLimits {
  /** The key of a request's client address (as the API's limits count it). */
  keyOf: (req: IncomingMessage) => string;
  /** Most WebSockets one address may hold open (undefined: no limit). */
  websockets: number | undefined;
  /** Matchmaking requests per address and minute (undefined: no limit). */
  matchmake: WindowLimit | undefined;
}

/**
 * The limits of what reaches the server outside the API's routes: room
 * WebSockets open at once and matchmaking requests per minute, per address
 * (MAX_WEBSOCKETS_PER_ADDRESS, MAX_MATCHMAKE_PER_MINUTE), times
 * RATE_LIMIT_FACTOR (0: none). A party's phones share one address: ten of
 * them with a few tabs each hold a few dozen sockets, twice that for a moment
 * while they reconnect.
 */
export function connectionLimits(config: Pick<Config, 'RATE_LIMIT_FACTOR' | 'TRUST_PROXY' | 'MAX_WEBSOCKETS_PER_ADDRESS' | 'MAX_MATCHMAKE_PER_MINUTE'>): ConnectionLimits {
  const keyOf = (req: IncomingMessage): string => addressKey(clientAddress(req, config.TRUST_PROXY));
  const factor = config.RATE_LIMIT_FACTOR;
  if (factor === 0) return { keyOf, websockets: undefined, matchmake: undefined };
  const scaled = (base: number) => Math.max(1, Math.floor(base * factor));
  return { keyOf, websockets: scaled(config.MAX_WEBSOCKETS_PER_ADDRESS), matchmake: new WindowLimit(scaled(config.MAX_MATCHMAKE_PER_MINUTE), 60_000) };
}
