import type { LoginBody, RegisterBody } from '../../../shared/protocol/users.ts';
import { request } from './api.ts';

/** The account calls of `/api/users` (docs/api.md#endpoints). */

/** Logs in; the server replaces this browser's session cookies. A 401 here means wrong credentials, not a stale session. */
export function login(body: LoginBody) {
  return request('/api/users/login', { method: 'POST', body, schema: (s) => s.UserPayloadSchema, retryOn401: false });
}

/** Turns the current guest into an account in place (game seats are kept). */
export function register(body: RegisterBody) {
  return request('/api/users/register', { method: 'POST', body, schema: (s) => s.SuccessBodySchema });
}

/** Ends the session server-side; the cookies are cleared by the reply. */
export function logout() {
  return request('/api/users/logout', { method: 'POST', schema: (s) => s.SuccessBodySchema, retryOn401: false });
}

/** Deletes the account of the caller (docs/api.md#b3) and ends the session. */
export function deleteAccount() {
  return request('/api/users/me', { method: 'DELETE', schema: (s) => s.SuccessBodySchema, retryOn401: false });
}

/** A guest chooses his name (the server refuses it for accounts); the reply's cookies carry it, and his seats take it. */
export function renameMe(name: string) {
  return request('/api/users/me', { method: 'PATCH', body: { name }, schema: (s) => s.UserCookieSchema });
}
