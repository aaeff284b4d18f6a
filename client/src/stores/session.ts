import { create } from 'zustand';
import type { UserCookie } from '../../../shared/protocol/users.ts';
import { refreshSession, setAfterResponse } from '../net/api.ts';
import { loadSchemas, type Schemas } from '../net/load-schemas.ts';
import { readUserCookie, scheduleRecheck } from '../net/session.ts';
import { nextTask } from '../next-task.ts';

/**
 * Who uses this tab (docs/product.md#screens "App readiness"): not ready until the first
 * `/api/users/auth` answered; then the user from the `user` cookie (a guest has
 * `virtual: true`), re-checked at its `valid_until` and whenever the cookie goes
 * missing (logout, account deletion: the browser then becomes a new guest).
 */

export interface SessionState {
  /** The current user; null before the first check or when no session could be had. */
  user: UserCookie | null;
  /** The first session check has finished (successfully or not). */
  ready: boolean;
  /** The last session check failed (server unreachable); the UI treats the visitor as anonymous. */
  authFailed: boolean;
  /** Runs the first check; later calls return the same promise. */
  start(): Promise<void>;
  /** Asks the server for a session now (renews it, or makes this browser a guest). */
  refresh(): Promise<void>;
  /** Re-reads the `user` cookie (after any API answer: the server renews it in passing). */
  syncFromCookie(): void;
}

/** A missing cookie triggers at most one refresh per this many ms (cookies blocked must not loop). */
const MISSING_COOKIE_RETRY_MS = 10_000;

let started: Promise<void> | null = null;
/** Set once the schema module has loaded (always before `ready`). */
let schemas: Schemas | null = null;
let cancelRecheck: (() => void) | undefined;
let scheduledFor: string | undefined;
let lastMissingRefresh = -Infinity;

const sameUser = (a: UserCookie | null, b: UserCookie | null): boolean => JSON.stringify(a) === JSON.stringify(b);

export const useSession = create<SessionState>()((set, get) => ({
  user: null,
  ready: false,
  authFailed: false,

  start() {
    started ??= get().refresh();
    return started;
  },

  async refresh() {
    try {
      [, schemas] = await Promise.all([refreshSession(), loadSchemas()]);
      // the schemas' module has just been evaluated, likely in this task: reading the cookie gets one of its own (budget P10)
      await nextTask();
      set({ authFailed: false });
    } catch (err) {
      console.warn('session check failed', err);
      set({ authFailed: true });
      schemas ??= await loadSchemas().catch(() => null);
    }
    get().syncFromCookie();
    set({ ready: true });
  },

  syncFromCookie() {
    // until the validator is there, nothing can be trusted from the cookie; refresh() calls again
    if (!schemas) return;
    const user = readUserCookie(schemas);
    const { user: previous, ready } = get();
    if (!sameUser(user, previous)) set({ user });
    if (user) {
      if (scheduledFor !== user.valid_until) {
        cancelRecheck?.();
        scheduledFor = user.valid_until;
        cancelRecheck = scheduleRecheck(user.valid_until, () => {
          scheduledFor = undefined;
          void get().refresh();
        });
      }
      return;
    }
    cancelRecheck?.();
    cancelRecheck = undefined;
    scheduledFor = undefined;
    // a vanished cookie (logout, deletion, expiry) means: become a guest again
    if (ready && Date.now() - lastMissingRefresh > MISSING_COOKIE_RETRY_MS) {
      lastMissingRefresh = Date.now();
      void get().refresh();
    }
  },
}));

setAfterResponse(() => useSession.getState().syncFromCookie());

/** True for a registered account (not a guest). */
export const isRegistered = (user: UserCookie | null): boolean => !!user && !user.virtual;

/** For tests: forget the started promise and timers. */
export function resetSessionForTests(): void {
  started = null;
  cancelRecheck?.();
  cancelRecheck = undefined;
  scheduledFor = undefined;
  lastMissingRefresh = -Infinity;
  useSession.setState({ user: null, ready: false, authFailed: false });
}
