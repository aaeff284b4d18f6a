import type { UserCookie } from '../../../shared/protocol/users.ts';
import type { Schemas } from './load-schemas.ts';

/**
 * Who this browser is, read from the readable `user` cookie (docs/api.md#sessions). The
 * server never trusts that cookie and neither should anything security-relevant
 * here: it only tells the UI whom to show and when the session needs renewing.
 */

export const USER_COOKIE = 'user';

/** The raw value of one cookie, percent-decoded; undefined when absent or undecodable. */
export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The validated `user` cookie, or null when it is missing or does not match the
 * schema. Takes the loaded schema module (net/load-schemas.ts) so this stays
 * synchronous for its callers.
 */
export function readUserCookie(schemas: Pick<Schemas, 'UserCookieSchema'>, cookies?: string): UserCookie | null {
  const raw = readCookie(USER_COOKIE, cookies);
  if (raw === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = schemas.UserCookieSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Longest single timer: browsers overflow past 2^31-1 ms and would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `recheck` when the session's `valid_until` is reached (at once when it
 * already has). Returns a cancel function. Long waits are chained, since a
 * timer longer than ~24.8 days would fire immediately.
 */
export function scheduleRecheck(validUntil: string, recheck: () => void, now: () => number = Date.now): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due = Date.parse(validUntil);
  const arm = (): void => {
    const left = Number.isNaN(due) ? 0 : due - now();
    if (left <= 0) {
      timer = undefined;
      recheck();
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  arm();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
  };
}
