import cookieParser from 'cookie-parser';
import express, { type Express, type Router } from 'express';
import { allowedOriginsOf, type Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { CaptchaService } from '../services/captcha.ts';
import type { UsersService } from '../services/users.ts';
import type { UserCookie, UserPayload } from '../../shared/protocol/users.ts';
import { USER_HTTP_ERRORS, USER_ROUTES } from '../../shared/protocol/routes-users.ts';
import { clearSessionCookies, UNAUTHENTICATED, sessionMiddleware, sessionToken, setSessionCookies, userCookie } from './auth.ts';
import { CAPTCHA_REFUSED, captchaRouter } from './captcha.ts';
import { sendError, sendSuccess } from './errors.ts';
import { mount } from './routes.ts';
import { sendRetryLater } from './login-guard.ts';
import { csrfGuardWith, rateLimits, securityHeaders, type CsrfOptions, type RateLimits } from './security.ts';

/**
 * `/api/users` (docs/api.md#endpoints, #b2, #b3, #b4): guest sessions, login,
 * registration in place (behind the captcha of REGISTRATION_CAPTCHA), logout,
 * account deletion, the current user.
 */

export interface UsersDeps {
  users: UsersService;
  /** The registration captcha (REGISTRATION_CAPTCHA). */
  captcha: CaptchaService;
  config: Config;
  log: Logger;
  /** Makes a user leave every game (logout, account deletion, a guest replaced by a login). */
  onUserGone: (userId: string) => Promise<void>;
  /** Gives a renamed guest's seats his new name. */
  onUserRenamed?: (userId: string, name: string) => Promise<void>;
  /** Shared limiters; built from `config` when absent. */
  limits?: RateLimits;
}

const { incorrectCredentials: INCORRECT_CREDENTIALS, nameTaken: NAME_TAKEN, alreadyRegistered: ALREADY_REGISTERED, userNotFound: USER_NOT_FOUND } = USER_HTTP_ERRORS;
/** 409: the name looks like an account's (the same letters in another script, "0" for "O"…). */
export const NAME_LOOK_ALIKE = USER_HTTP_ERRORS.nameLookAlike;
/** 403: an account's name is its login; only a guest chooses what he is called. */
export const GUEST_ONLY_RENAME = USER_HTTP_ERRORS.guestOnlyRename;

/** The `/api/users` router. Needs cookie-parser, express.json and {@link sessionMiddleware} in front. */
export function usersRouter(deps: UsersDeps): Router {
  const { users, captcha, config, log } = deps;
  const limits = deps.limits ?? rateLimits(config);
  const router = express.Router();
  const U = USER_ROUTES;
  const on = { at: '/api/users', limits: { guest: limits.guest, register: limits.register, writes: limits.writes } };

  /** Game seats must not outlive a user; a failure there must not block the user's own request. */
  const userGone = async (userId: string): Promise<void> => {
    try {
      await deps.onUserGone(userId);
    } catch (err) {
      log.error({ err, user: userId }, 'onUserGone failed');
    }
  };

  mount(router, U.auth, async (_input, req, res) => {
    const session = await users.auth(sessionToken(req), new Date());
    setSessionCookies(res, config, session);
    sendSuccess(res, 'success');
  }, on);

  mount(router, U.login, async ({ body }, req, res) => {
    const attempt = await limits.login.attempt(req, body.username, () => users.login(body.username, body.password, new Date()));
    if ('wait' in attempt) return sendRetryLater(res, attempt.wait, attempt.why);
    const { result } = attempt;
    if (!result.ok) return sendError(res, INCORRECT_CREDENTIALS);
    // The browser's previous session is replaced by the cookies below; end it so it
    // cannot linger, and free the seats of a guest that can never come back.
    const previous = res.locals.session;
    if (previous && previous.state !== 'none' && previous.session.user.id !== result.session.user.id) {
      await userGone(previous.session.user.id);
    }
    if (previous && previous.state !== 'none') await users.logout(previous.session.token);
    setSessionCookies(res, config, result.session);
    const payload: UserPayload = { id: result.session.user.id, name: result.session.user.name, virtual: false };
    res.json(payload);
  }, on);

  mount(router, U.register, async ({ body }, req, res) => {
    // after the body's checks, so that a typo does not spend the solution
    const verdict = await captcha.check(body.altcha_token);
    if (verdict !== 'ok') return sendError(res, CAPTCHA_REFUSED[verdict]);
    const token = sessionToken(req);
    if (token === undefined) return sendError(res, UNAUTHENTICATED);
    const result = await users.register(token, body.username, body.password, new Date());
    if (!result.ok) {
      if (result.reason === 'name_taken') return sendError(res, NAME_TAKEN);
      if (result.reason === 'name_look_alike') return sendError(res, NAME_LOOK_ALIKE);
      if (result.reason === 'not_guest') return sendError(res, ALREADY_REGISTERED);
      return sendError(res, UNAUTHENTICATED);
    }
    setSessionCookies(res, config, result.session);
    sendSuccess(res, 'user registered');
  }, on);

  mount(router, U.logout, async (_input, req, res) => {
    const user = res.locals.user;
    if (user) await userGone(user.id);
    await users.logout(sessionToken(req));
    clearSessionCookies(res, config);
    sendSuccess(res, 'logged out');
  }, on);

  mount(router, U.getMe, (_input, _req, res) => {
    const user = res.locals.user;
    if (!user) return;
    const me: UserCookie = userCookie(user);
    res.json(me);
  }, on);

  mount(router, U.renameMe, async ({ body }, req, res) => {
    const user = res.locals.user;
    if (!user) return;
    if (!user.guest) return sendError(res, GUEST_ONLY_RENAME);
    const result = await users.renameGuest(user.id, body.name);
    if (!result.ok) {
      if (result.reason === 'name_taken') return sendError(res, NAME_TAKEN);
      if (result.reason === 'name_look_alike') return sendError(res, NAME_LOOK_ALIKE);
      if (result.reason === 'not_guest') return sendError(res, GUEST_ONLY_RENAME);
      return sendError(res, UNAUTHENTICATED);
    }
    // the readable cookie says the new name at once
    const found = await users.lookup(sessionToken(req));
    if (found.state !== 'valid') return sendError(res, UNAUTHENTICATED);
    setSessionCookies(res, config, found.session);
    // the seats he holds are called by it too; a failure there must not undo the rename
    try {
      await deps.onUserRenamed?.(user.id, body.name);
    } catch (err) {
      log.error({ err, user: user.id }, 'onUserRenamed failed');
    }
    const me: UserCookie = userCookie(found.session.user);
    res.json(me);
  }, on);

  mount(router, U.deleteMe, async (_input, _req, res) => {
    const user = res.locals.user;
    if (!user) return;
    await userGone(user.id);
    await users.deleteAccount(user.id);
    clearSessionCookies(res, config);
    sendSuccess(res, 'account deleted');
  }, on);

  mount(router, U.getUser, async ({ params: { id } }, _req, res) => {
    const user = await users.findUser(id);
    if (!user) return sendError(res, USER_NOT_FOUND);
    const payload: UserPayload = user;
    res.json(payload);
  }, on);

  return router;
}

/**
 * Installs the request pipeline every API route relies on, in order, and mounts
 * `/api/users` and `/api/altcha`: `trust proxy` from config, security headers
 * and cookie parsing for the whole app; the CSRF guard (with the configured
 * public origins), the JSON body parser (100 kB) and the session lookup for
 * `/api`. Call it before mounting the other API routers (they then find
 * `res.locals.user`), and add the 404 and error handlers after them.
 */
export function mountUsers(app: Express, deps: UsersDeps & { csrf?: CsrfOptions }): void {
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.use(securityHeaders({ https: deps.config.COOKIE_SECURE }));
  app.use(cookieParser());
  app.use('/api', csrfGuardWith({ ...deps.csrf, origins: allowedOriginsOf(deps.config) }), express.json({ limit: '100kb' }), sessionMiddleware(deps.users));
  app.use('/api', captchaRouter(deps.captcha));
  app.use('/api/users', usersRouter(deps));
}
