import type { Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { usernameKey } from '../services/users.ts';
import { apiError, sendError } from './errors.ts';

/** A request's address as the limits count it (express-rate-limit reads its key generators' source: this one must name ipKeyGenerator itself). */
export const byIp = (req: Request): string => `ip:${ipKeyGenerator(req.ip ?? '')}`;

/**
 * Login throttling, before RATE_LIMIT_FACTOR (which multiplies the counts).
 * Failures are counted per account (by the name's key, whether or not such an
 * account exists, so the answers tell nothing about that) and per address; a
 * count is forgotten after `forgetMs` without a failure.
 */
const LOGIN = {
  /** Failures of one account, from anywhere, that cost nothing; each further one makes the account wait. */
  accountFailures: 5,
  /** Failures from one address that cost nothing; beyond them, each of its failures makes the account it tried wait. */
  addressFailures: 20,
  forgetMs: 10 * 60_000,
  /** The first wait; each further failure doubles it, up to `maxWaitMs`. */
  firstWaitMs: 1000,
  maxWaitMs: 30_000,
  /** Password checks of one address at once, the running one and those waiting for their turn (they run one after the other). */
  queuedPerAddress: 10,
} as const;

/** Most accounts and addresses the login guard (and a WindowLimit) remembers; the least recently failed are forgotten first. */
export const MAX_REMEMBERED = 100_000;

interface Failures {
  count: number;
  /** When the last failure was (ms). */
  last: number;
  /** Waits imposed so far: the next one is twice as long. */
  waits: number;
  /** Until when (ms) the account's password is not checked. */
  until: number;
}

/** Result of {@link LoginGuard.attempt}: the check's result, or the seconds to wait first and why (answer 429 with Retry-After). */
export type LoginAttempt<T> = { result: T } | { wait: number; why: string };

const TOO_MANY_FAILURES = 'too many failed logins for this account';
const TOO_MANY_AT_ONCE = 'too many logins at once from this address';

/**
 * Login throttling (`POST /api/users/login`). An address that shares its
 * network with strangers (a party's Wi-Fi) must not be locked out by one of
 * them, and nobody may guess at one account without limit from many addresses.
 * So nothing is refused before its password is checked, except the logins of
 * an account that had too many recent failures: those wait a short time that
 * doubles with each further failure (1 s, 2 s, 4 s … 30 s), for everybody, as
 * only the password tells the owner from the guesser. A correct password ends
 * the account's waits. An address's own failures only count when they are
 * many: beyond its allowance, each wrong password it sends makes the account it
 * tried wait at once, and is answered 429 with the wait instead of 401. A
 * correct password is never refused for what others did from the same address.
 *
 * Each check costs an Argon2 hash (tens of ms of CPU), so the checks of one
 * address run one after the other, at most `queuedPerAddress` of them queued
 * (more are answered 429 at once): one client cannot take every thread of the
 * pool.
 */
export class LoginGuard {
  private readonly accounts = new Map<string, Failures>();
  private readonly addresses = new Map<string, Failures>();
  private readonly queues = new Map<string, { tail: Promise<unknown>; size: number }>();
  private readonly factor: number;
  private readonly now: () => number;

  /** `factor`: RATE_LIMIT_FACTOR (0: no throttling); `now`: the clock. */
  constructor(factor: number, now: () => number = Date.now) {
    this.factor = factor;
    this.now = now;
  }

  /**
   * Runs `check` (the password check of `username`, from `req`'s address) unless
   * the account must wait, and counts its outcome (`ok: false` is a failure).
   */
  async attempt<T extends { ok: boolean }>(req: Request, username: string, check: () => Promise<T>): Promise<LoginAttempt<T>> {
    if (this.factor === 0) return { result: await check() };
    const address = byIp(req);
    const account = usernameKey(username);
    const queue = this.queues.get(address) ?? { tail: Promise.resolve(), size: 0 };
    if (queue.size >= this.allowance(LOGIN.queuedPerAddress)) return { wait: 1, why: TOO_MANY_AT_ONCE };
    queue.size++;
    this.queues.set(address, queue);
    const turn = queue.tail.then(async (): Promise<LoginAttempt<T>> => {
      // checked in turn: attempts queued before the account had to wait wait too
      const waitMs = this.waitOf(account);
      if (waitMs > 0) return { wait: toSeconds(waitMs), why: TOO_MANY_FAILURES };
      const result = await check();
      if (result.ok) {
        this.accounts.delete(account);
        return { result };
      }
      const imposed = this.failed(address, account);
      return imposed > 0 ? { wait: toSeconds(imposed), why: TOO_MANY_FAILURES } : { result };
    });
    queue.tail = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      if (--queue.size === 0) this.queues.delete(address);
    }
  }

  /** How long `account` must still wait (ms; 0: not at all). */
  private waitOf(account: string): number {
    const f = this.accounts.get(account);
    return f ? Math.max(0, f.until - this.now()) : 0;
  }

  /** Counts a failure; returns the wait it imposes on the account (ms; 0: none). */
  private failed(address: string, account: string): number {
    const now = this.now();
    const byAddress = this.count(this.addresses, address, now);
    const byAccount = this.count(this.accounts, account, now);
    if (byAccount.count <= this.allowance(LOGIN.accountFailures) && byAddress.count <= this.allowance(LOGIN.addressFailures)) return 0;
    const wait = Math.min(LOGIN.maxWaitMs, LOGIN.firstWaitMs * 2 ** byAccount.waits);
    byAccount.waits++;
    byAccount.until = now + wait;
    return wait;
  }

  /** Adds a failure to `key`'s count (a new count when the last failure is long ago). */
  private count(map: Map<string, Failures>, key: string, now: number): Failures {
    const known = map.get(key);
    const f = known && now - known.last < LOGIN.forgetMs ? known : { count: 0, last: now, waits: 0, until: 0 };
    f.count++;
    f.last = now;
    // the most recent failure last: the first entries are the ones to forget
    map.delete(key);
    map.set(key, f);
    if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value!);
    return f;
  }

  private allowance(base: number): number {
    return Math.max(1, Math.floor(base * this.factor));
  }
}

const toSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Answers 429 with how long to wait: the Retry-After header (seconds), and the
 * same in the message.
 */
export function sendRetryLater(res: Response, seconds: number, why: string): void {
  res.set('Retry-After', String(seconds));
  sendError(res, apiError(429, 'rate_limited', `${why}; try again in ${seconds} second${seconds === 1 ? '' : 's'}`));
}
