import type { LoginBody, RegisterBody } from '../../../shared/protocol/users.ts';
import { api } from './api.ts';

/** The account calls of `/api/users` (docs/api.md#endpoints). */

/** Logs in; the server replaces this browser's session cookies. A 401 here means wrong credentials, not a stale session. */
export function login(body: LoginBody) {
  return api('post', '/api/users/login', { body, schema: (s) => s.UserPayloadSchema, retryOn401: false });
}

/** Turns the current guest into an account in place (game seats are kept). */
export function register(body: RegisterBody) {
  return api('post', '/api/users/register', { body, schema: (s) => s.SuccessBodySchema });
}

/** Ends the session server-side; the cookies are cleared by the reply. */
export function logout() {
  return api('post', '/api/users/logout', { schema: (s) => s.SuccessBodySchema, retryOn401: false });
}

/** Deletes the account of the caller (docs/api.md#b3) and ends the session. */
export function deleteAccount() {
  return api('delete', '/api/users/me', { schema: (s) => s.SuccessBodySchema, retryOn401: false });
}

/** A guest chooses his name (the server refuses it for accounts); the reply's cookies carry it, and his seats take it. */
export function renameMe(name: string) {
  return api('patch', '/api/users/me', { body: { name }, schema: (s) => s.UserCookieSchema });
}
