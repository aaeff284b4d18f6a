import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.ts';
import { permissionsObject, type IssuedSession, type PermissionBit, type SessionLookup, type SessionUser, type UsersService } from '../services/users.ts';
import type { UserCookie } from '../../shared/protocol/users.ts';
import { sendError } from './errors.ts';
import { HTTP_ERRORS } from '../../shared/protocol/routes.ts';

/**
 * Session cookies and the guards of protected routes (docs/api.md#b2, #b4, #sessions).
 * Identity comes from the HttpOnly `id` cookie only; the readable `user` cookie is
 * written for the client and never read as a claim.
 */

declare global {
  // Types `res.locals` of every Express handler (an ambient declaration: nothing is emitted).
  namespace Express {
    interface Locals {
      /** The authenticated caller, set by {@link sessionMiddleware}; undefined when not authenticated. */
      user?: SessionUser;
      /** What the `id` cookie stood for when the request came in. */
      session?: SessionLookup;
    }
  }
}

/** Name of the HttpOnly cookie holding the session token. */
export const SESSION_COOKIE = 'id';
/** Name of the readable cookie describing the user to the client. */
export const USER_COOKIE = 'user';

/** 401: the only meaning of 401 in this API (docs/api.md#b4). */
export const UNAUTHENTICATED = HTTP_ERRORS.unauthenticated;
/** 403: authenticated but lacking a permission bit. */
export const PERMISSION_DENIED = HTTP_ERRORS.permissionDenied;

/** The `user` cookie's JSON (docs/api.md#sessions shape; `virtual` = guest). */
export function userCookie(user: SessionUser): UserCookie {
  return { id: user.id, name: user.name, virtual: user.guest, valid_until: user.valid_until, permissions: permissionsObject(user.permissions) };
}

function cookieOptions(config: Config, expires: Date, httpOnly: boolean) {
  return { path: '/', sameSite: 'strict', secure: config.COOKIE_SECURE, httpOnly, expires } as const;
}

/** Drops Set-Cookie lines already queued for our cookies, so a response never sets one twice. */
function dropQueuedCookies(res: Response): void {
  const queued = res.getHeader('Set-Cookie');
  if (queued === undefined) return;
  const lines = (Array.isArray(queued) ? queued : [String(queued)]).filter(
    (line) => !line.startsWith(`${SESSION_COOKIE}=`) && !line.startsWith(`${USER_COOKIE}=`),
  );
  if (lines.length > 0) res.setHeader('Set-Cookie', lines);
  else res.removeHeader('Set-Cookie');
}

/** Sets both cookies for a session; every path that issues or renews a session calls this. */
export function setSessionCookies(res: Response, config: Config, session: IssuedSession): void {
  dropQueuedCookies(res);
  const expires = new Date(session.idle_until);
  res.cookie(SESSION_COOKIE, session.token, cookieOptions(config, expires, true));
  // A string (not an object) so Express writes plain percent-encoded JSON, not its "j:" form.
  res.cookie(USER_COOKIE, JSON.stringify(userCookie(session.user)), cookieOptions(config, expires, false));
}

/** Removes both cookies (logout, account deletion). */
export function clearSessionCookies(res: Response, config: Config): void {
  dropQueuedCookies(res);
  const { expires: _unused, ...base } = cookieOptions(config, new Date(0), true);
  res.clearCookie(SESSION_COOKIE, base);
  res.clearCookie(USER_COOKIE, { ...base, httpOnly: false });
}

/** The raw session token of a request (needs cookie-parser before it). */
export function sessionToken(req: Request): string | undefined {
  const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' ? value : undefined;
}

/** The authenticated caller of a request, if any. */
export const currentUser = (res: Response): SessionUser | undefined => res.locals.user;

/**
 * Resolves the `id` cookie to `res.locals.user` (fresh from the database, so
 * permission changes count at once). An active session nearing the end of its
 * validity is renewed in passing, and the readable `user` cookie is rewritten
 * whenever it no longer matches the server's view (changed permissions or name,
 * or a client that edited it). Needs cookie-parser before it.
 */
export function sessionMiddleware(users: UsersService): RequestHandler {
  return async (req, res, next) => {
    const token = sessionToken(req);
    const found = await users.lookup(token, new Date());
    res.locals.session = found;
    if (found.state !== 'valid') {
      res.locals.user = undefined;
      next();
      return;
    }
    let session = found.session;
    if (found.refreshDue) {
      session = (await users.renew(session.token, new Date())) ?? session;
      setSessionCookies(res, users.config, session);
    } else if (req.cookies?.[USER_COOKIE] !== JSON.stringify(userCookie(session.user))) {
      setSessionCookies(res, users.config, session);
    }
    res.locals.user = session.user;
    next();
  };
}

/** Refuses unauthenticated requests with 401. */
export function requireUser(_req: Request, res: Response, next: NextFunction): void {
  if (!res.locals.user) return sendError(res, UNAUTHENTICATED);
  next();
}

/** Whether the request's user (if any) holds all of `bits`. */
export function hasPermission(res: Response, bits: PermissionBit | number): boolean {
  return ((res.locals.user?.permissions ?? 0) & bits) === bits;
}

/** Refuses with 401 when not authenticated and with 403 unless the caller holds all of `bits`. */
export function requirePermission(bits: PermissionBit | number): RequestHandler {
  return (_req, res, next) => {
    const user = res.locals.user;
    if (!user) return sendError(res, UNAUTHENTICATED);
    if (!hasPermission(res, bits)) return sendError(res, PERMISSION_DENIED);
    next();
  };
}
