import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { argon2id, hash as argonHash, needsRehash, verify as argonVerify } from 'argon2';
import type { Config } from '../config.ts';
import { isoNow, type Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import { NewUsernameSchema, PasswordSchema, type Permissions } from '../../shared/protocol/users.ts';
import { lookAlikeKey } from './look-alike.ts';
import { isPetName, petName } from './pet-names.ts';

/**
 * Users, guests and sessions (docs/api.md#b2, #b3, #b4, #sessions). No Express here: the
 * HTTP layer (server/http/auth.ts, users.ts) and the admin CLI both sit on top.
 *
 * Over 500 lines on purpose: one class, because guests, accounts and sessions
 * share its hashing settings, token rules and name checks, and every method
 * is a short transaction over the same two tables; split up, the parts would
 * hand that state to each other.
 *
 * A session is an opaque random token held in the `id` cookie; the database only
 * knows its SHA-256, so a leaked database file cannot be replayed as cookies.
 */

/** Permission bits (docs/api.md#permissions), stored ORed together in `users.permissions`. */
export const Permission = {
  WRITE_HITS: 1,
  WRITE_PACKS: 2,
  READ_ISSUES: 4,
  WRITE_ISSUES: 8,
  DELETE_ISSUES: 16,
} as const;
export type PermissionBit = (typeof Permission)[keyof typeof Permission];

/** Every permission bit (31). */
export const ALL_PERMISSIONS = Object.values(Permission).reduce<number>((all, bit) => all | bit, 0);
/** What new guests (and so new accounts) may do: report issues. */
export const DEFAULT_PERMISSIONS: number = Permission.WRITE_ISSUES;

/** The snake_case names of the `user` cookie, in bit order, with their bits. */
export const PERMISSION_NAMES = {
  write_hits: Permission.WRITE_HITS,
  write_packs: Permission.WRITE_PACKS,
  read_issues: Permission.READ_ISSUES,
  write_issues: Permission.WRITE_ISSUES,
  delete_issues: Permission.DELETE_ISSUES,
} as const satisfies Record<keyof Permissions, number>;
export type PermissionName = keyof typeof PERMISSION_NAMES;

/** The `permissions` object of the `user` cookie for a bit set. */
export function permissionsObject(bits: number): Permissions {
  return {
    write_hits: (bits & Permission.WRITE_HITS) !== 0,
    write_packs: (bits & Permission.WRITE_PACKS) !== 0,
    read_issues: (bits & Permission.READ_ISSUES) !== 0,
    write_issues: (bits & Permission.WRITE_ISSUES) !== 0,
    delete_issues: (bits & Permission.DELETE_ISSUES) !== 0,
  };
}

/** True when `bits` is a whole number made only of known permission bits. */
export const isPermissionBits = (bits: number): boolean => Number.isInteger(bits) && bits >= 0 && (bits & ~ALL_PERMISSIONS) === 0;

/** The authenticated caller of a request, read fresh from the database on each request. */
export interface SessionUser {
  id: string;
  name: string;
  guest: boolean;
  permissions: number;
  /** End of the rolling validity (ISO-8601 UTC): the `user` cookie's `valid_until`. */
  valid_until: string;
}

/** A session handed to the client: the user, the raw token for the `id` cookie, and when the cookies expire. */
export interface IssuedSession {
  user: SessionUser;
  token: string;
  /** The idle limit (ISO-8601 UTC): both cookies expire then. */
  idle_until: string;
}

/**
 * What a session token stands for right now:
 * - `valid`: authenticated; `refreshDue` once less than half the validity is left;
 * - `expired`: past its rolling validity but not idle too long, so `/auth` renews it;
 * - `none`: no token, an unknown one, or idle too long.
 */
export type SessionLookup =
  | { state: 'valid'; session: IssuedSession; refreshDue: boolean }
  | { state: 'expired'; session: IssuedSession }
  | { state: 'none' };

export type RegisterResult = { ok: true; session: IssuedSession } | { ok: false; reason: 'not_guest' | 'name_taken' | 'name_look_alike' | 'no_session' };
export type LoginResult = { ok: true; session: IssuedSession } | { ok: false };
export type RenameResult = { ok: true } | { ok: false; reason: 'not_guest' | 'name_taken' | 'name_look_alike' | 'no_user' };
export type AdminResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A registered user as the admin CLI lists it. */
export interface AccountInfo {
  id: string;
  name: string;
  permissions: number;
  created_at: string;
}

/** A permission change for {@link UsersService.setPermissions}: replace the bits, or add and remove some. */
export type PermissionChange = { set: number } | { grant?: number; revoke?: number };

/** Tokens are 32 random bytes in base64url: exactly 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The case-insensitive identity of a username (the unique `name_key` column).
 * NFKC folds look-alike compatibility forms ("ﬁ" and "fi", full-width letters) together.
 */
export const usernameKey = (name: string): string => name.normalize('NFKC').toLowerCase();

/** Unique-constraint violations of SQLite (better-sqlite3) and PostgreSQL (pg). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

const DAY_MS = 24 * 3600 * 1000;

/** A moment as a Date or epoch milliseconds; every method takes one so tests can move time. */
export type Instant = Date | number;
const ms = (now: Instant): number => (typeof now === 'number' ? now : now.getTime());

/**
 * Users and sessions. Every method takes `now` so tests can move time; the
 * database is the only state, so several server processes and the CLI agree.
 */
export class UsersService {
  readonly config: Config;
  private readonly db: Db;
  private readonly log: Logger;
  private dummyHash: Promise<string> | undefined;

  constructor(db: Db, config: Config, log: Logger) {
    this.db = db;
    this.config = config;
    this.log = log;
  }

  private get ttlMs(): number {
    return this.config.SESSION_TTL_SECONDS * 1000;
  }

  private get idleMs(): number {
    return this.config.SESSION_IDLE_DAYS * DAY_MS;
  }

  private get argonOptions() {
    return { type: argon2id, memoryCost: this.config.ARGON2_MEMORY_KIB, timeCost: 2, parallelism: 1 } as const;
  }

  /** Argon2id PHC string of a password with the configured cost. */
  hashPassword(password: string): Promise<string> {
    return argonHash(password, this.argonOptions);
  }

  /** Never throws: a damaged stored hash simply does not match. */
  private async verifyPassword(stored: string, password: string): Promise<boolean> {
    try {
      return await argonVerify(stored, password);
    } catch {
      return false;
    }
  }

  /**
   * Looks a session token up (one indexed query joining the user, so permission
   * changes made by the CLI count at the very next request). Read-only.
   */
  async lookup(token: string | undefined, now: Instant = Date.now()): Promise<SessionLookup> {
    if (token === undefined || !TOKEN_PATTERN.test(token)) return { state: 'none' };
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.name', 'users.guest', 'users.permissions', 'sessions.expires_at', 'sessions.idle_until'])
      .where('sessions.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) return { state: 'none' };
    const t = ms(now);
    if (Date.parse(row.idle_until) <= t) return { state: 'none' };
    const session: IssuedSession = {
      user: { id: row.id, name: row.name, guest: row.guest === 1, permissions: row.permissions, valid_until: row.expires_at },
      token,
      idle_until: row.idle_until,
    };
    const left = Date.parse(row.expires_at) - t;
    if (left <= 0) return { state: 'expired', session };
    return { state: 'valid', session, refreshDue: left < this.ttlMs / 2 };
  }

  /** The user of a currently valid session (WebSocket joins, anything outside Express); never renews. */
  async userForToken(token: string | undefined, now: Instant = Date.now()): Promise<SessionUser | undefined> {
    const found = await this.lookup(token, now);
    return found.state === 'valid' ? found.session.user : undefined;
  }

  /**
   * Extends a session that is not idle too long: a new rolling validity and a new
   * idle limit from `now`. Undefined when the session is gone or idle too long.
   */
  async renew(token: string, now: Instant = Date.now()): Promise<IssuedSession | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const t = ms(now);
    const updated = await this.db
      .updateTable('sessions')
      .set({ expires_at: isoNow(t + this.ttlMs), idle_until: isoNow(t + this.idleMs) })
      .where('token_hash', '=', hashToken(token))
      .where('idle_until', '>', isoNow(t))
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    const found = await this.lookup(token, now);
    return found.state === 'valid' ? found.session : undefined;
  }

  /**
   * `GET /api/users/auth` (docs/api.md#sessions, fixed): renews the caller's session when it
   * is still within its idle limit, otherwise makes a new guest with a new session.
   */
  async auth(token: string | undefined, now: Instant = Date.now()): Promise<IssuedSession & { createdGuest: boolean }> {
    if (token !== undefined && TOKEN_PATTERN.test(token)) {
      const renewed = await this.renew(token, now);
      if (renewed) return { ...renewed, createdGuest: false };
      // Idle too long: drop the stale row now; sweep() removes its guest and reports it gone.
      await this.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
    }
    return { ...(await this.createGuest(now)), createdGuest: true };
  }

  /** A new guest (pet name, default permissions) with its first session. */
  async createGuest(now: Instant = Date.now()): Promise<IssuedSession> {
    const id = randomUUID();
    const name = petName();
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id, name, name_key: null, password: null, guest: 1, permissions: DEFAULT_PERMISSIONS, created_at: isoNow(ms(now)) })
        .execute();
      const session = await this.insertSession(trx, { id, name, guest: true, permissions: DEFAULT_PERMISSIONS }, now);
      this.log.debug({ user: id }, 'guest created');
      return session;
    });
  }

  private async insertSession(db: Db, user: Omit<SessionUser, 'valid_until'>, now: Instant): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const t = ms(now);
    const expires = isoNow(t + this.ttlMs);
    const idle = isoNow(t + this.idleMs);
    await db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: expires, idle_until: idle, created_at: isoNow(t) })
      .execute();
    return { user: { ...user, valid_until: expires }, token, idle_until: idle };
  }

  /**
   * Turns the guest behind `token` into an account in place: same user id (so its
   * game seats stay), new name and password. The session token is replaced, because
   * a privilege change must not keep a token that existed before it (fixation).
   * Expects `username` and `password` already parsed by RegisterBodySchema.
   */
  async register(token: string, username: string, password: string, now: Instant = Date.now()): Promise<RegisterResult> {
    const found = await this.lookup(token, now);
    if (found.state !== 'valid') return { ok: false, reason: 'no_session' };
    const user = found.session.user;
    if (!user.guest) return { ok: false, reason: 'not_guest' };
    const nameKey = usernameKey(username);
    const skeleton = lookAlikeKey(username);
    // Checked before hashing so a taken name costs no Argon2 work; the unique index settles races.
    if (await this.nameTaken(nameKey, usernameKey(user.name))) return { ok: false, reason: 'name_taken' };
    if (await this.lookAlike(this.db, skeleton)) return { ok: false, reason: 'name_look_alike' };
    const passwordHash = await this.hashPassword(password);
    try {
      return await this.db.transaction().execute(async (trx): Promise<RegisterResult> => {
        // again where it is written (SQLite runs one transaction at a time: no twin slips in between)
        if (await this.lookAlike(trx, skeleton)) return { ok: false, reason: 'name_look_alike' };
        const updated = await trx
          .updateTable('users')
          .set({ name: username, name_key: nameKey, name_skeleton: skeleton, password: passwordHash, guest: 0 })
          .where('id', '=', user.id)
          .where('guest', '=', 1)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return { ok: false, reason: 'not_guest' };
        await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
        const session = await this.insertSession(trx, { id: user.id, name: username, guest: false, permissions: user.permissions }, now);
        this.log.info({ user: user.id }, 'guest registered');
        return { ok: true, session };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_taken' };
      throw error;
    }
  }

  /**
   * A guest chooses the name others see (`PATCH /api/users/me`). Expects
   * `name` parsed by GuestNameSchema. Like an account's name, it may not be an
   * account's (case and compatibility forms folded) or look like one (the
   * confusable skeleton: "0scar" beside the account "Oscar"). Unlike an
   * account's, it reserves nothing: other guests may choose it too (a pet
   * name's shape as well: guests' names are not unique, their ids are), and an
   * account may still be registered under it later (a guest's name is what he
   * is called, not a login).
   */
  async renameGuest(userId: string, name: string): Promise<RenameResult> {
    const row = await this.db.selectFrom('users').select(['name', 'guest']).where('id', '=', userId).executeTakeFirst();
    if (!row) return { ok: false, reason: 'no_user' };
    if (row.guest !== 1) return { ok: false, reason: 'not_guest' };
    if (await this.accountNamed(usernameKey(name))) return { ok: false, reason: 'name_taken' };
    if (await this.lookAlike(this.db, lookAlikeKey(name))) return { ok: false, reason: 'name_look_alike' };
    const updated = await this.db.updateTable('users').set({ name }).where('id', '=', userId).where('guest', '=', 1).executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return { ok: false, reason: 'not_guest' };
    this.log.debug({ user: userId }, 'guest renamed');
    return { ok: true };
  }

  /**
   * A registered name, or one shaped like a guest's ("gladly-brave-otter": guests'
   * names are theirs), but for `own`, the guest's own name, which he may keep.
   */
  private async nameTaken(nameKey: string, own?: string): Promise<boolean> {
    if (isPetName(nameKey) && nameKey !== own) return true;
    return this.accountNamed(nameKey);
  }

  /** Whether an account has this name key (guests have none). */
  private async accountNamed(nameKey: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('name_key', '=', nameKey).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The name of an account whose name looks like one with this skeleton
   * ({@link lookAlikeKey}: "асе" in Cyrillic letters beside "ace"), or undefined.
   * Guests' names are not compared: they are pet names, refused as account names anyway.
   */
  private async lookAlike(db: Db, skeleton: string): Promise<string | undefined> {
    const row = await db.selectFrom('users').select('name').where('name_skeleton', '=', skeleton).where('guest', '=', 0).executeTakeFirst();
    return row?.name;
  }

  /**
   * Checks a username and password and opens a new session for that account. The
   * same Argon2 work is done whether or not the user exists, so timing does not
   * tell which names are registered.
   */
  async login(username: string, password: string, now: Instant = Date.now()): Promise<LoginResult> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'password', 'permissions'])
      .where('name_key', '=', usernameKey(username))
      .where('guest', '=', 0)
      .executeTakeFirst();
    const stored = row?.password ?? (await this.dummy());
    const matches = await this.verifyPassword(stored, password);
    if (!row || row.password === null || !matches) return { ok: false };
    if (needsRehash(row.password, this.argonOptions)) {
      // The configured cost changed since this hash was made: upgrade it while the password is at hand.
      await this.db.updateTable('users').set({ password: await this.hashPassword(password) }).where('id', '=', row.id).execute();
    }
    const session = await this.insertSession(this.db, { id: row.id, name: row.name, guest: false, permissions: row.permissions }, now);
    this.log.info({ user: row.id }, 'user logged in');
    return { ok: true, session };
  }

  /** A hash of a random password, made once with the configured cost, for logins of unknown users. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.hashPassword(randomBytes(16).toString('base64url'));
    return this.dummyHash;
  }

  /**
   * Ends the session behind `token` server-side. A guest cannot log in again, so a
   * guest whose session ends is deleted with it. Returns the session's user id.
   */
  async logout(token: string | undefined): Promise<string | undefined> {
    if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.guest'])
        .where('sessions.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) return undefined;
      await trx.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
      if (row.guest === 1) await trx.deleteFrom('users').where('id', '=', row.id).execute();
      return row.id;
    });
  }

  /** Deletes a user (account or guest) and, by cascade, all its sessions. True when it existed. */
  async deleteAccount(userId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
    if (r.numDeletedRows > 0n) this.log.info({ user: userId }, 'account deleted');
    return r.numDeletedRows > 0n;
  }

  /** A user as others see it (`GET /api/users/{id}`). */
  async findUser(userId: string): Promise<{ id: string; name: string; virtual: boolean } | undefined> {
    const row = await this.db.selectFrom('users').select(['id', 'name', 'guest']).where('id', '=', userId).executeTakeFirst();
    return row && { id: row.id, name: row.name, virtual: row.guest === 1 };
  }

  /**
   * Deletes sessions past their idle limit, then guests left without a session.
   * Returns the ids of users that are gone: guests deleted now, and accounts whose
   * last session just ended (the game side makes them leave their games).
   */
  async sweep(now: Instant = Date.now()): Promise<string[]> {
    const cutoff = isoNow(ms(now));
    return this.db.transaction().execute(async (trx) => {
      const stale = await trx.selectFrom('sessions').select('user_id').distinct().where('idle_until', '<=', cutoff).execute();
      await trx.deleteFrom('sessions').where('idle_until', '<=', cutoff).execute();
      const orphanGuests = await trx
        .selectFrom('users')
        .select('id')
        .where('guest', '=', 1)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('sessions').select('token_hash').whereRef('sessions.user_id', '=', 'users.id'))))
        .execute();
      const gone = new Set(orphanGuests.map((r) => r.id));
      if (gone.size > 0) await trx.deleteFrom('users').where('id', 'in', [...gone]).execute();
      const staleIds = stale.map((r) => r.user_id).filter((id) => !gone.has(id));
      if (staleIds.length > 0) {
        const still = await trx.selectFrom('sessions').select('user_id').distinct().where('user_id', 'in', staleIds).execute();
        const active = new Set(still.map((r) => r.user_id));
        for (const id of staleIds) if (!active.has(id)) gone.add(id);
      }
      if (gone.size > 0) this.log.info({ users: gone.size }, 'idle users swept');
      return [...gone];
    });
  }

  // -------------------------------------------------------------------------
  // administration (the CLI)

  /** Creates an account (CLI `users create`). Name and password follow the same rules as registration. */
  async createAccount(name: string, password: string, permissions: number = DEFAULT_PERMISSIONS, now: Instant = Date.now()): Promise<AdminResult<AccountInfo>> {
    const parsedName = NewUsernameSchema.safeParse(name);
    if (!parsedName.success) return { ok: false, message: `username ${parsedName.error.issues[0]?.message ?? 'is invalid'}` };
    const parsedPassword = PasswordSchema.safeParse(password);
    if (!parsedPassword.success) return { ok: false, message: `password ${parsedPassword.error.issues[0]?.message ?? 'is invalid'}` };
    if (!isPermissionBits(permissions)) return { ok: false, message: `permissions must be a whole number from 0 to ${ALL_PERMISSIONS}` };
    const nameKey = usernameKey(parsedName.data);
    if (await this.nameTaken(nameKey)) return { ok: false, message: `username "${parsedName.data}" is already in use` };
    const skeleton = lookAlikeKey(parsedName.data);
    const twin = await this.lookAlike(this.db, skeleton);
    if (twin !== undefined) return { ok: false, message: `username "${parsedName.data}" looks the same as "${twin}", which is already in use` };
    const account: AccountInfo = { id: randomUUID(), name: parsedName.data, permissions, created_at: isoNow(ms(now)) };
    try {
      await this.db
        .insertInto('users')
        .values({ ...account, name_key: nameKey, name_skeleton: skeleton, password: await this.hashPassword(parsedPassword.data), guest: 0 })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, message: `username "${parsedName.data}" is already in use` };
      throw error;
    }
    return { ok: true, value: account };
  }

  /** Changes an account's permissions (CLI `users set-permissions`); effective at its next request. */
  async setPermissions(name: string, change: PermissionChange): Promise<AdminResult<AccountInfo>> {
    const bits = 'set' in change ? [change.set] : [change.grant ?? 0, change.revoke ?? 0];
    if (!bits.every(isPermissionBits)) return { ok: false, message: `permissions must be a whole number from 0 to ${ALL_PERMISSIONS}` };
    return this.db.transaction().execute(async (trx): Promise<AdminResult<AccountInfo>> => {
      const row = await trx
        .selectFrom('users')
        .select(['id', 'name', 'permissions', 'created_at'])
        .where('name_key', '=', usernameKey(name.trim()))
        .where('guest', '=', 0)
        .executeTakeFirst();
      if (!row) return { ok: false, message: `no registered user named "${name.trim()}"` };
      const permissions = 'set' in change ? change.set : (row.permissions | (change.grant ?? 0)) & ~(change.revoke ?? 0);
      await trx.updateTable('users').set({ permissions }).where('id', '=', row.id).execute();
      return { ok: true, value: { ...row, permissions } };
    });
  }

  /** Every registered account, by name. */
  async listAccounts(): Promise<AccountInfo[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'name', 'permissions', 'created_at'])
      .where('guest', '=', 0)
      .orderBy('name_key')
      .orderBy('id')
      .execute();
  }
}

/**
 * Runs {@link UsersService.sweep} every `intervalMs` (10 minutes by default) and hands
 * every gone user to `onUserGone`. Failures are logged, never fatal. Returns a stop function.
 */
export function startSessionSweeper(
  users: UsersService,
  opts: { log: Logger; onUserGone: (userId: string) => Promise<void>; intervalMs?: number },
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const id of await users.sweep(Date.now())) {
        await opts.onUserGone(id).catch((err: unknown) => opts.log.error({ err, user: id }, 'onUserGone failed during sweep'));
      }
    } catch (err) {
      opts.log.error({ err }, 'session sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 10 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
