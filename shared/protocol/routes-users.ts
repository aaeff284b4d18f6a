import { z } from 'zod';
import { UuidSchema } from './common.ts';
import { HTTP_ERRORS, badUuid, httpError as err, type RouteSpec } from './routes.ts';
import { AltchaChallengeSchema, LoginBodySchema, RegisterBodySchema, UpdateMeBodySchema, UserCookieSchema, UserPayloadSchema } from './users.ts';

/** Sessions, guests and accounts (docs/api.md#endpoints, #b2, #b3, #b4), and the registration captcha. */

export const USER_HTTP_ERRORS = {
  incorrectCredentials: err(401, 'incorrect_credentials', 'incorrect user credentials'),
  nameTaken: err(409, 'username_taken', 'username is already in use'),
  /** 409: the name looks like an account's (the same letters in another script, "0" for "O"…). */
  nameLookAlike: err(409, 'username_look_alike', 'username looks the same as one already in use'),
  alreadyRegistered: err(405, 'already_registered', 'A user is already authenticated and registered.'),
  userNotFound: err(404, 'user_not_found', 'user id not found'),
  /** 403: an account's name is its login; only a guest chooses what he is called. */
  guestOnlyRename: err(403, 'guest_only_rename', 'only guests can change their name; an account keeps the name it was registered with'),
  captchaOff: err(404, 'captcha_off', 'the registration captcha is switched off on this server (REGISTRATION_CAPTCHA=off)'),
} as const;

/** The 400 answer of each refused `altcha_token`. */
export const CAPTCHA_REFUSED = {
  missing: err(400, 'captcha_required', 'this server needs a solved ALTCHA challenge to register: send it as altcha_token (GET /api/altcha gives one)'),
  invalid: err(400, 'captcha_invalid', 'altcha solution incorrect'),
  expired: err(400, 'captcha_expired', 'the ALTCHA challenge has expired: solve a new one (GET /api/altcha)'),
  used: err(400, 'captcha_used', 'this ALTCHA solution was already used: solve a new challenge (GET /api/altcha)'),
} as const;

const SET_COOKIE = z.object({
  'Set-Cookie': z.string().meta({
    description: '`id` (HttpOnly session token) and `user` (readable JSON, see CurrentUser); SameSite=Strict, Path=/.',
  }),
});

const TOO_MANY = HTTP_ERRORS.rateLimited;

export const USER_ROUTES = {
  auth: {
    id: 'auth',
    method: 'get',
    path: '/api/users/auth',
    tag: 'users',
    summary: 'Start or renew a session',
    description:
      'Always answers 200. Renews the session of the `id` cookie, or (none, expired or unknown) makes a new guest with a three-word pet name. Call it on start-up, at the `user` cookie\'s `valid_until`, and after any 401.',
    access: 'public',
    rateLimit: 'guest',
    reply: { status: 200, message: 'success', headers: SET_COOKIE },
    errors: [{ ...TOO_MANY, message: `${TOO_MANY.message} (only requests that would make a new guest count)` }],
  },
  login: {
    id: 'login',
    method: 'post',
    path: '/api/users/login',
    tag: 'users',
    summary: 'Log in',
    description:
      'Replaces the browser\'s current session (a guest is logged out and leaves its games). Takes the same time whether or not the user exists. ' +
      'Failed logins are counted per account (known or not) and per address. After 5 failures of an account, from anywhere, each further one makes it wait 1 s, then 2, 4 … up to 30 s: meanwhile its logins, right or wrong, are answered 429 with `Retry-After` unchecked; its owner\'s login ends the waits. ' +
      'An address\'s failures beyond 20 make the account each one tried wait at once (429 instead of 401); a correct password from that address still logs in. One address\'s checks run one at a time, at most 10 queued (more are answered 429 at once).',
    access: 'optional',
    rateLimit: 'login',
    retryAfter: true,
    body: { schema: LoginBodySchema, required: true },
    reply: { status: 200, schema: UserPayloadSchema, description: 'The logged-in user (`virtual: false`) and fresh session cookies.', headers: SET_COOKIE },
    invalid: { what: 'The body', example: 'username must be at least 3 characters long' },
    errors: [
      USER_HTTP_ERRORS.incorrectCredentials,
      {
        ...TOO_MANY,
        message: 'too many failed logins for this account; try again in N seconds (or: too many logins at once from this address)',
        example: 'too many failed logins for this account; try again in 2 seconds',
      },
    ],
  },
  altchaChallenge: {
    id: 'altchaChallenge',
    method: 'get',
    path: '/api/altcha',
    tag: 'users',
    summary: 'Get a proof-of-work challenge for registering',
    description:
      'A new challenge, valid for 5 minutes; its solution, sent as `altcha_token` with `POST /api/users/register`, is accepted once (on any process of the server). Solving it takes a browser about a second. Nothing is stored until a solution comes back.',
    access: 'public',
    reply: { status: 200, schema: AltchaChallengeSchema, description: 'The challenge (sent with `Cache-Control: no-store`).' },
    errors: [USER_HTTP_ERRORS.captchaOff],
  },
  register: {
    id: 'register',
    method: 'post',
    path: '/api/users/register',
    tag: 'users',
    summary: 'Turn the current guest into an account',
    description:
      'In place: same user id, same session, game seats kept. Usernames are 3..32 characters (unique ignoring case, and not looking like another account\'s: the same letters in another script, "0" for "O"; Unicode\'s confusable skeletons), passwords 8..256. A captcha token (`altcha_token`) is checked when one is sent; with REGISTRATION_CAPTCHA=required it must be sent, with `off` it is ignored. A token is spent once the body passed its checks, even if the registration then fails.',
    access: 'user',
    rateLimit: 'register',
    body: { schema: RegisterBodySchema, required: true },
    reply: { status: 200, message: 'user registered', headers: SET_COOKIE },
    invalid: { what: 'The body', example: 'password must be at least 8 characters long' },
    errors: [...Object.values(CAPTCHA_REFUSED), USER_HTTP_ERRORS.alreadyRegistered, USER_HTTP_ERRORS.nameTaken, USER_HTTP_ERRORS.nameLookAlike],
  },
  logout: {
    id: 'logout',
    method: 'post',
    path: '/api/users/logout',
    tag: 'users',
    summary: 'Log out',
    description: 'Deletes the session on the server, clears both cookies and leaves every game (with `leave` events).',
    access: 'user',
    reply: { status: 200, message: 'logged out', headers: SET_COOKIE },
    errors: [],
  },
  getMe: {
    id: 'getMe',
    method: 'get',
    path: '/api/users/me',
    tag: 'users',
    summary: 'The caller',
    access: 'user',
    reply: { status: 200, schema: UserCookieSchema, description: 'The caller, as the `user` cookie describes him.' },
    errors: [],
  },
  deleteMe: {
    id: 'deleteMe',
    method: 'delete',
    path: '/api/users/me',
    tag: 'users',
    summary: 'Delete the caller\'s account',
    description: 'Leaves every game, deletes the user and his sessions, clears the cookies.',
    access: 'user',
    rateLimit: 'writes',
    reply: { status: 200, message: 'account deleted', headers: SET_COOKIE },
    errors: [],
  },
  renameMe: {
    id: 'renameMe',
    method: 'patch',
    path: '/api/users/me',
    tag: 'users',
    summary: 'Change a guest\'s name',
    description:
      'A guest chooses the name others see: 1..32 characters, the rules of players\' names. It may not be an account\'s name (ignoring case) or look like one (the same letters in another script, "0" for "O"; Unicode\'s confusable skeletons); it reserves nothing (other guests may choose it too). His seats in every game take it at once (a `change_state` on each), in any phase. Accounts keep the name they registered with.',
    access: 'user',
    rateLimit: 'writes',
    body: { schema: UpdateMeBodySchema, required: true },
    reply: { status: 200, schema: UserCookieSchema, description: 'The caller with his new name; the `user` cookie says it too.', headers: SET_COOKIE },
    invalid: { what: 'The body', example: 'name must not be empty' },
    errors: [USER_HTTP_ERRORS.guestOnlyRename, USER_HTTP_ERRORS.nameTaken, USER_HTTP_ERRORS.nameLookAlike],
  },
  // after `/me`: the router tries the routes in this order
  getUser: {
    id: 'getUser',
    method: 'get',
    path: '/api/users/{id}',
    tag: 'users',
    summary: 'A user by id',
    access: 'public',
    params: z.object({ id: UuidSchema.meta({ description: 'The user id.' }) }),
    reply: { status: 200, schema: UserPayloadSchema, description: 'The user.' },
    invalid: { what: 'The id', example: badUuid('id') },
    errors: [USER_HTTP_ERRORS.userNotFound],
  },
} as const satisfies Record<string, RouteSpec>;
