import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createChallenge, extractParams, solveChallenge } from 'altcha-lib/v1';
import Sqlite from 'better-sqlite3';
import express, { type Request } from 'express';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config.ts';
import { isoNow, isPostgresUrl, openDatabase, sqlitePath, type Db } from '../../server/db/index.ts';
import { migrationProvider } from '../../server/db/migrations.ts';
import type { Database } from '../../server/db/schema.ts';
import { requirePermission, requireUser } from '../../server/http/auth.ts';
import { apiNotFound, errorHandler } from '../../server/http/errors.ts';
import { LoginGuard } from '../../server/http/login-guard.ts';
import { mountUsers } from '../../server/http/users.ts';
import { createLogger } from '../../server/logger.ts';
import { CaptchaService } from '../../server/services/captcha.ts';
import { lookAlikeKey } from '../../server/services/look-alike.ts';
import { Permission, UsersService } from '../../server/services/users.ts';
import { AltchaChallengeSchema, UserCookieSchema, type AltchaChallenge, type UserCookie } from '../../shared/protocol/users.ts';
import { testDatabase } from './harness.ts';

/**
 * Users and sessions through real HTTP on an ephemeral port, with a real SQLite
 * file (or PostgreSQL database, see harness.ts): cookies, registration in place, login, logout, expiry, permissions,
 * rate limits, security headers, CSRF, the registration captcha, and the admin CLI
 * next to a running server.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const DAY = 24 * 3600 * 1000;

interface TestApp {
  base: string;
  db: Db;
  users: UsersService;
  config: Config;
  gone: string[];
  /** The renames handed on to the games: [user id, name]. */
  renamed: [string, string][];
  dbUrl: string;
  close(): Promise<void>;
}

const dirs: string[] = [];

async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-users-'));
  dirs.push(dir);
  const database = await testDatabase(dir);
  const dbUrl = database.url;
  const config = loadConfig({ DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', ARGON2_MEMORY_KIB: '1024', RATE_LIMIT_FACTOR: '0', ...env });
  const log = createLogger('silent');
  const db = await openDatabase(config.DATABASE_URL);
  const users = new UsersService(db, config, log);
  const captcha = await CaptchaService.open(db, config);
  const gone: string[] = [];
  const renamed: [string, string][] = [];
  const app = express();
  mountUsers(app, {
    users,
    captcha,
    config,
    log,
    onUserGone: async (id) => {
      gone.push(id);
    },
    onUserRenamed: async (id, name) => {
      renamed.push([id, name]);
    },
  });
  app.get('/api/test/protected', requireUser, (_req, res) => {
    res.json({ id: res.locals.user?.id });
  });
  app.post('/api/test/hits', requirePermission(Permission.WRITE_HITS), (_req, res) => {
    res.json({ ok: true });
  });
  app.use('/api', apiNotFound);
  app.use(errorHandler(log));
  const server = await new Promise<Server>((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    db,
    users,
    config,
    gone,
    renamed,
    dbUrl,
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await db.destroy();
      await database.drop();
    },
  };
}

interface SetCookie {
  name: string;
  value: string;
  attrs: Map<string, string>;
}

function parseSetCookie(line: string): SetCookie {
  const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
  const eq = pair.indexOf('=');
  return {
    name: pair.slice(0, eq),
    value: decodeURIComponent(pair.slice(eq + 1)),
    attrs: new Map(
      attrs.map((a) => {
        const i = a.indexOf('=');
        return i < 0 ? [a.toLowerCase(), ''] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)];
      }),
    ),
  };
}

/** A tiny cookie jar standing in for a browser. */
class Browser {
  readonly cookies = new Map<string, string>();
  last: SetCookie[] = [];
  readonly app: TestApp;

  constructor(app: TestApp) {
    this.app = app;
  }

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '));
    }
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const res = await fetch(this.app.base + path, { ...init, headers, body });
    this.last = res.headers.getSetCookie().map(parseSetCookie);
    for (const c of this.last) {
      const expires = c.attrs.get('expires');
      if (expires !== undefined && Date.parse(expires) <= Date.now()) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get token(): string | undefined {
    return this.cookies.get('id');
  }

  get user(): UserCookie {
    return UserCookieSchema.parse(JSON.parse(this.cookies.get('user') ?? 'null'));
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function guest(app: TestApp): Promise<Browser> {
  const b = new Browser(app);
  const res = await b.fetch('/api/users/auth');
  expect(res.status).toBe(200);
  return b;
}

async function registered(app: TestApp, username: string, password = 'correct horse battery'): Promise<Browser> {
  const b = await guest(app);
  const res = await b.fetch('/api/users/register', { method: 'POST', json: { username, password } });
  expect(res.status).toBe(200);
  return b;
}

function runCli(app: TestApp, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    // process.execPath is the Node 24 running vitest, the same `node` that `npx node` finds.
    const child = execFile(
      process.execPath,
      ['server/cli/index.ts', ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: app.dbUrl, ARGON2_MEMORY_KIB: '1024', LOG_LEVEL: 'silent' } },
      (error, stdout, stderr) => ok({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('guests and cookies', () => {
  it('makes a guest with both cookies on /auth', async () => {
    const b = new Browser(app);
    const t0 = Date.now();
    const res = await b.fetch('/api/users/auth');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'success', message: 'success' });

    const id = b.last.find((c) => c.name === 'id');
    const user = b.last.find((c) => c.name === 'user');
    expect(id && user).toBeTruthy();
    for (const c of [id!, user!]) {
      expect(c.attrs.get('path')).toBe('/');
      expect(c.attrs.get('samesite')).toBe('Strict');
      expect(c.attrs.has('secure')).toBe(false);
      // both expire at the idle limit (7 days)
      expect(Math.abs(Date.parse(c.attrs.get('expires')!) - (t0 + 7 * DAY))).toBeLessThan(5000);
    }
    expect(id!.attrs.has('httponly')).toBe(true);
    expect(user!.attrs.has('httponly')).toBe(false);

    // an opaque 256-bit token; the database holds only its hash
    expect(id!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await app.db.selectFrom('sessions').selectAll().execute();
    expect(rows.some((r) => r.token_hash === sha256(id!.value))).toBe(true);
    expect(rows.some((r) => Object.values(r).includes(id!.value))).toBe(false);

    const cookie = b.user;
    expect(cookie.virtual).toBe(true);
    expect(cookie.name).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    expect(cookie.permissions).toEqual({ write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false });
    expect(Math.abs(Date.parse(cookie.valid_until) - (t0 + 3600_000))).toBeLessThan(5000);

    const me = await b.fetch('/api/users/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(cookie);
  });

  it('keeps an existing session on /auth and renews it', async () => {
    const b = await guest(app);
    const { id } = b.user;
    const token = b.token;
    const res = await b.fetch('/api/users/auth');
    expect(res.status).toBe(200);
    expect(b.user.id).toBe(id);
    expect(b.token).toBe(token);
  });

  it('survives a restart: sessions live in the database', async () => {
    const b = await guest(app);
    const again = new UsersService(app.db, app.config, createLogger('silent'));
    expect((await again.userForToken(b.token))?.id).toBe(b.user.id);
  });

  it('answers 401 without a session and on a garbage cookie', async () => {
    const b = new Browser(app);
    let res = await b.fetch('/api/test/protected');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ type: 'error', code: 'unauthenticated', message: 'not authenticated' });
    b.setCookie('id', 'not-a-token');
    res = await b.fetch('/api/users/me');
    expect(res.status).toBe(401);
  });

  it('ignores a tampered user cookie: identity comes from the id cookie only', async () => {
    const admin = await registered(app, 'Tamper Target');
    await app.db.updateTable('users').set({ permissions: 31 }).where('id', '=', admin.user.id).execute();
    const b = await guest(app);
    const real = b.user;
    b.setCookie(
      'user',
      JSON.stringify({ ...admin.user, permissions: { write_hits: true, write_packs: true, read_issues: true, write_issues: true, delete_issues: true } }),
    );
    const me = await b.fetch('/api/users/me');
    expect(((await me.json()) as UserCookie).id).toBe(real.id);
    // and the readable cookie is put right again
    expect(b.user.id).toBe(real.id);
    expect(b.user.permissions.write_hits).toBe(false);
    b.setCookie('user', JSON.stringify({ ...admin.user }));
    const write = await b.fetch('/api/test/hits', { method: 'POST' });
    expect(write.status).toBe(403);
  });

  it('gives 401 when not authenticated and 403 when a permission is missing', async () => {
    const anon = new Browser(app);
    let res = await anon.fetch('/api/test/hits', { method: 'POST' });
    expect(res.status).toBe(401);
    const b = await guest(app);
    res = await b.fetch('/api/test/hits', { method: 'POST' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ type: 'error', code: 'permission_denied', message: 'permission denied' });
  });

  it('answers GET /api/users/{id} with the public payload', async () => {
    const b = await guest(app);
    let res = await b.fetch(`/api/users/${b.user.id}`);
    expect(await res.json()).toEqual({ id: b.user.id, name: b.user.name, virtual: true });
    res = await b.fetch('/api/users/not-a-uuid');
    expect(res.status).toBe(400);
    res = await b.fetch('/api/users/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('user id not found');
  });
});

describe('session expiry', () => {
  it('refuses an expired session on protected routes and renews it on /auth', async () => {
    const b = await guest(app);
    const { id } = b.user;
    await app.db.updateTable('sessions').set({ expires_at: isoNow(Date.now() - 1000) }).where('token_hash', '=', sha256(b.token!)).execute();
    expect((await b.fetch('/api/users/me')).status).toBe(401);
    const t0 = Date.now();
    expect((await b.fetch('/api/users/auth')).status).toBe(200);
    expect(b.user.id).toBe(id);
    expect(Date.parse(b.user.valid_until)).toBeGreaterThan(t0 + 3500_000);
    expect((await b.fetch('/api/users/me')).status).toBe(200);
  });

  it('renews an active session in passing when little validity is left', async () => {
    const b = await guest(app);
    const soon = Date.now() + 10 * 60_000;
    await app.db.updateTable('sessions').set({ expires_at: isoNow(soon) }).where('token_hash', '=', sha256(b.token!)).execute();
    const res = await b.fetch('/api/test/protected');
    expect(res.status).toBe(200);
    expect(b.last.map((c) => c.name).sort()).toEqual(['id', 'user']);
    expect(Date.parse(b.user.valid_until)).toBeGreaterThan(soon + 30 * 60_000);
  });

  it('makes a new guest past the idle limit; the sweep removes the old one', async () => {
    const b = await guest(app);
    const old = b.user.id;
    await app.db
      .updateTable('sessions')
      .set({ expires_at: isoNow(Date.now() - 8 * DAY), idle_until: isoNow(Date.now() - DAY) })
      .where('token_hash', '=', sha256(b.token!))
      .execute();
    expect((await b.fetch('/api/users/me')).status).toBe(401);
    await b.fetch('/api/users/auth');
    expect(b.user.id).not.toBe(old);
    expect(b.user.virtual).toBe(true);
    const gone = await app.users.sweep(Date.now());
    expect(gone).toContain(old);
    expect(await app.db.selectFrom('users').select('id').where('id', '=', old).executeTakeFirst()).toBeUndefined();
  });

  it('sweeps idle sessions: guests are deleted, accounts kept but reported gone', async () => {
    const g = await guest(app);
    const r = await registered(app, 'Sleepy Sam');
    const ids = [g.user.id, r.user.id];
    await app.db
      .updateTable('sessions')
      .set({ idle_until: isoNow(Date.now() - 1000) })
      .where('user_id', 'in', ids)
      .execute();
    const gone = await app.users.sweep(Date.now());
    expect(gone).toEqual(expect.arrayContaining(ids));
    const left = await app.db.selectFrom('users').select('id').where('id', 'in', ids).execute();
    expect(left.map((u) => u.id)).toEqual([r.user.id]);
    // nothing left to report the second time
    expect(await app.users.sweep(Date.now())).not.toContain(r.user.id);
  });
});

describe('register, login, logout, delete', () => {
  it('turns the guest into an account in place', async () => {
    const b = await guest(app);
    const { id } = b.user;
    const oldToken = b.token;
    const res = await b.fetch('/api/users/register', { method: 'POST', json: { username: '  Alice Smith ', password: 'correct horse battery' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'success', message: 'user registered' });
    expect(b.last.map((c) => c.name).sort()).toEqual(['id', 'user']);
    expect(b.user).toMatchObject({ id, name: 'Alice Smith', virtual: false });
    // the token is replaced on the privilege change; the old one is dead
    expect(b.token).not.toBe(oldToken);
    const stale = new Browser(app);
    stale.setCookie('id', oldToken!);
    expect((await stale.fetch('/api/users/me')).status).toBe(401);
    const row = await app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.guest).toBe(0);
    expect(row.name_key).toBe('alice smith');
    expect(row.password).toMatch(/^\$argon2id\$/);

    const again = await b.fetch('/api/users/register', { method: 'POST', json: { username: 'Alice Two', password: 'correct horse battery' } });
    expect(again.status).toBe(405);
    expect(await again.json()).toEqual({ type: 'error', code: 'already_registered', message: 'A user is already authenticated and registered.' });
  });

  it('refuses a username taken in any letter case', async () => {
    await registered(app, 'Bob Jones');
    const b = await guest(app);
    for (const username of ['bob jones', ' BOB JONES ']) {
      const res = await b.fetch('/api/users/register', { method: 'POST', json: { username, password: 'another password' } });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ type: 'error', code: 'username_taken', message: 'username is already in use' });
    }
    expect(b.user.virtual).toBe(true);
  });

  it('keeps guest-shaped names for guests: nobody registers as another guest looks', async () => {
    const b = await guest(app);
    for (const username of ['boldly-silver-quokka', 'Gladly-Brave-Otter']) {
      const res = await b.fetch('/api/users/register', { method: 'POST', json: { username, password: 'another password' } });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ type: 'error', code: 'username_taken', message: 'username is already in use' });
    }
    // words outside the lists, or another shape, are ordinary names
    const ok = await b.fetch('/api/users/register', { method: 'POST', json: { username: 'boldly-silver-dragon', password: 'another password' } });
    expect(ok.status).toBe(200);
    // a guest keeps his own name (the register form offers it)
    const c = await guest(app);
    const name = c.user.name;
    expect(name).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    const own = await c.fetch('/api/users/register', { method: 'POST', json: { username: name, password: 'another password' } });
    expect(own.status).toBe(200);
    expect(c.user).toMatchObject({ name, virtual: false });
  });

  it('validates username and password, naming the field', async () => {
    const b = await guest(app);
    const cases: [unknown, string][] = [
      [{ username: 'ab', password: 'long enough pw' }, 'username'],
      [{ username: 'x'.repeat(33), password: 'long enough pw' }, 'username'],
      [{ username: 'bell\u0007name', password: 'long enough pw' }, 'username'],
      [{ username: 'ad\u202emin', password: 'long enough pw' }, 'username'],
      [{ username: '\u200b\u200b\u200b', password: 'long enough pw' }, 'username'],
      [{ username: 'P\u0430ul', password: 'long enough pw' }, 'username'], // a Cyrillic "а" in a Latin name
      [{ username: 'Carol', password: 'short' }, 'password'],
      [{ username: 'Carol', password: 'p'.repeat(257) }, 'password'],
      [{ username: 'Carol' }, 'password'],
    ];
    for (const [json, field] of cases) {
      const res = await b.fetch('/api/users/register', { method: 'POST', json });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { type: string; code: string; message: string };
      expect(body.type).toBe('error');
      expect(body.message).toContain(field);
    }
    // registration needs a session
    const anon = new Browser(app);
    const res = await anon.fetch('/api/users/register', { method: 'POST', json: { username: 'Carol', password: 'long enough pw' } });
    expect(res.status).toBe(401);
  });

  it('refuses names that only differ from another by characters that do not show; emoji sequences keep theirs', async () => {
    await registered(app, 'Victim7381');
    const b = await guest(app);
    // Hangul and halfwidth fillers, the blank Braille pattern, the grapheme joiner, variation selectors,
    // a joiner or a tag character outside an emoji sequence, a Khmer inherent vowel, the object replacement character
    const hidden = ['\u3164', '\uFFA0', '\u115F', '\u1160', '\u2800', '\u034F', '\uFE0F', '\u{E0100}', '\u200D', '\u{E0041}', '\u17B4', '\uFFFC', '\u200C'];
    for (const c of hidden) {
      const res = await b.fetch('/api/users/register', { method: 'POST', json: { username: `Victim7381${c}`, password: 'long enough pw' } });
      expect(res.status, `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('username must not contain characters that do not show');
    }
    // the joiner between emoji, the emoji variation selector, a flag's tag sequence, a keycap are part of what shows
    for (const username of ['Ana \u{1F469}\u200D\u{1F3A4}', 'Red \u2764\uFE0F', 'Rainbow \u{1F3F3}\uFE0F\u200D\u{1F308}', 'Scot \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', 'Dev \u{1F468}\u{1F3FD}\u200D\u{1F4BB}', 'One 1\uFE0F\u20E3']) {
      await registered(app, username);
    }
  });

  it('logs in with the right password, answers wrong ones and unknown names alike', async () => {
    const owner = await registered(app, 'Dana Login', 'dana password 1');
    const danaId = owner.user.id;

    const b = await guest(app);
    const guestId = b.user.id;
    const wrong = await b.fetch('/api/users/login', { method: 'POST', json: { username: 'Dana Login', password: 'not the password' } });
    const unknown = await b.fetch('/api/users/login', { method: 'POST', json: { username: 'Nobody Here', password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const expected = { type: 'error', code: 'incorrect_credentials', message: 'incorrect user credentials' };
    expect(await wrong.json()).toEqual(expected);
    expect(await unknown.json()).toEqual(expected);
    expect(b.user.id).toBe(guestId);

    const guestToken = b.token!;
    const ok = await b.fetch('/api/users/login', { method: 'POST', json: { username: 'dana LOGIN', password: 'dana password 1' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: danaId, name: 'Dana Login', virtual: false });
    expect(b.user).toMatchObject({ id: danaId, virtual: false });
    expect(b.token).not.toBe(guestToken);
    // the replaced guest leaves its games and is gone with its session
    expect(app.gone).toContain(guestId);
    expect(await app.db.selectFrom('users').select('id').where('id', '=', guestId).executeTakeFirst()).toBeUndefined();
    expect(await app.db.selectFrom('sessions').select('user_id').where('token_hash', '=', sha256(guestToken)).executeTakeFirst()).toBeUndefined();
    // the other device stays logged in
    expect((await owner.fetch('/api/users/me')).status).toBe(200);
  });

  it('revokes the session server-side on logout', async () => {
    const b = await registered(app, 'Erin Logout');
    const { id } = b.user;
    const token = b.token!;
    const res = await b.fetch('/api/users/logout', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'success', message: 'logged out' });
    expect(app.gone).toContain(id);
    // both cookies are cleared
    expect(b.last.map((c) => c.name).sort()).toEqual(['id', 'user']);
    expect(b.cookies.size).toBe(0);
    // a copy of the old cookie is worthless now
    const thief = new Browser(app);
    thief.setCookie('id', token);
    const me = await thief.fetch('/api/test/protected');
    expect(me.status).toBe(401);
    await thief.fetch('/api/users/auth');
    expect(thief.user.id).not.toBe(id);
    expect(thief.user.virtual).toBe(true);
    // the account itself remains
    const again = await new Browser(app).fetch('/api/users/login', { method: 'POST', json: { username: 'Erin Logout', password: 'correct horse battery' } });
    expect(again.status).toBe(200);
  });

  it('deletes the account', async () => {
    const b = await registered(app, 'Finn Delete');
    const { id } = b.user;
    const res = await b.fetch('/api/users/me', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 'success', message: 'account deleted' });
    expect(app.gone).toContain(id);
    expect(await app.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const login = await new Browser(app).fetch('/api/users/login', { method: 'POST', json: { username: 'Finn Delete', password: 'correct horse battery' } });
    expect(login.status).toBe(401);
  });
});

describe('security', () => {
  it('sends the security headers', async () => {
    const res = await fetch(`${app.base}/api/users/auth`);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "connect-src 'self' ws: wss:",
      "media-src 'self' blob:",
      "img-src 'self' data: https://i.ytimg.com",
      'frame-src https://www.youtube-nocookie.com https://www.youtube.com',
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('refuses cross-site mutations and non-JSON bodies', async () => {
    const b = await guest(app);
    let res = await b.fetch('/api/users/logout', { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ type: 'error', code: 'csrf', message: 'cross-site request refused' });
    res = await b.fetch('/api/users/login', { method: 'POST', headers: { Origin: 'null' }, json: { username: 'x', password: 'y' } });
    expect(res.status).toBe(403);
    expect((await b.fetch('/api/users/me')).status).toBe(200);

    for (const [type, body] of [
      ['text/plain', '{"username":"Alice Smith","password":"correct horse battery"}'],
      ['application/x-www-form-urlencoded', 'username=Alice+Smith&password=correct+horse+battery'],
    ] as const) {
      res = await b.fetch('/api/users/login', { method: 'POST', headers: { 'Content-Type': type }, body });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ type: 'error', code: 'unsupported_media_type' });
    }

    // same origin, JSON: accepted (and answered on its merits)
    res = await b.fetch('/api/users/login', { method: 'POST', headers: { Origin: app.base }, json: { username: 'Nobody Here', password: 'whatever123' } });
    expect(res.status).toBe(401);
    // a body-less mutation from our own page is fine
    res = await b.fetch('/api/users/logout', { method: 'POST', headers: { Origin: app.base } });
    expect(res.status).toBe(200);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await fetch(`${app.base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"username":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'malformed_json' });
  });

  it('marks cookies Secure and sends HSTS behind TLS', async () => {
    const secure = await startApp({ COOKIE_SECURE: 'true' });
    try {
      const b = new Browser(secure);
      const res = await b.fetch('/api/users/auth');
      expect(b.last).toHaveLength(2);
      for (const c of b.last) expect(c.attrs.has('secure')).toBe(true);
      expect(res.headers.get('strict-transport-security')).toContain('max-age=');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
      await b.fetch('/api/users/logout', { method: 'POST' });
      for (const c of b.last) expect(c.attrs.has('secure')).toBe(true);
    } finally {
      await secure.close();
    }
  });

  describe('rate limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      // 0.05 leaves 1 failed login, 1 registration and 3 new guests per window
      limited = await startApp({ RATE_LIMIT_FACTOR: '0.05' });
    });
    afterAll(async () => {
      await limited.close();
    });

    it('limits guest creation per IP, but not renewals', async () => {
      const keeper = new Browser(limited);
      expect((await keeper.fetch('/api/users/auth')).status).toBe(200);
      expect((await new Browser(limited).fetch('/api/users/auth')).status).toBe(200);
      expect((await new Browser(limited).fetch('/api/users/auth')).status).toBe(200);
      const res = await new Browser(limited).fetch('/api/users/auth');
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ type: 'error', code: 'rate_limited', message: 'too many requests, please try again later' });
      expect((await keeper.fetch('/api/users/auth')).status).toBe(200);
    });

    it('limits a guest\'s renames with the other writes', async () => {
      const { token } = await limited.users.createGuest();
      const b = new Browser(limited);
      b.setCookie('id', token);
      // 120 writes a minute × 0.05
      for (let i = 0; i < 6; i++) expect((await b.fetch('/api/users/me', { method: 'PATCH', json: { name: `Jo ${i}` } })).status).toBe(200);
      const res = await b.fetch('/api/users/me', { method: 'PATCH', json: { name: 'Jo 7' } });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ type: 'error', code: 'rate_limited' });
      expect((await limited.users.findUser(b.user.id))?.name).toBe('Jo 5');
    });

    it('limits failed logins and registrations', async () => {
      const b = new Browser(limited);
      const attempt = () => b.fetch('/api/users/login', { method: 'POST', json: { username: 'Nobody Here', password: 'wrong password' } });
      expect((await attempt()).status).toBe(401);
      const res = await attempt();
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ type: 'error', code: 'rate_limited' });

      // a session issued directly: the HTTP path to a guest is rate limited by now
      const { token } = await limited.users.createGuest();
      const c = new Browser(limited);
      c.setCookie('id', token);
      const register = (username: string) => c.fetch('/api/users/register', { method: 'POST', json: { username, password: 'long enough pw' } });
      expect((await register('ab')).status).toBe(400);
      expect((await register('Rate Limited')).status).toBe(429);
    });
  });
});

describe('registration captcha (ALTCHA)', () => {
  const PASSWORD = 'long enough pw';
  let n = 0;
  /** A name nobody took yet. */
  const fresh = () => `Captcha User ${++n}`;

  async function challengeOf(b: Browser): Promise<AltchaChallenge> {
    const res = await b.fetch('/api/altcha');
    expect(res.status).toBe(200);
    return AltchaChallengeSchema.parse(await res.json());
  }

  /** Finds the number by brute force with the library's solver, and encodes the solution as the `altcha` widget does. */
  async function solve(c: AltchaChallenge): Promise<string> {
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    if (!solution) throw new Error('no solution found');
    return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature, took: solution.took }));
  }

  /** Registers a new guest of `on` with `body` (username and password added); the reply's status and JSON. */
  async function register(on: TestApp, extra: Record<string, unknown>, username = fresh()): Promise<{ status: number; body: unknown; b: Browser }> {
    const b = await guest(on);
    const res = await b.fetch('/api/users/register', { method: 'POST', json: { username, password: PASSWORD, ...extra } });
    return { status: res.status, body: await res.json(), b };
  }

  const refused = (code: string) => ({ type: 'error', code, message: expect.any(String) });

  it('serves single challenges valid for five minutes, never cached', async () => {
    const b = await guest(app);
    const res = await b.fetch('/api/altcha');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const c = AltchaChallengeSchema.parse(await res.json());
    expect(c.maxnumber).toBe(20_000);
    const expires = Number(extractParams(c).expires) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(295_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(300_000);
    expect((await challengeOf(b)).challenge).not.toBe(c.challenge);
  });

  it('optional (the default): registers with a solved challenge, and without one (absent, null, empty)', async () => {
    const solver = await guest(app);
    let r = await register(app, { altcha_token: await solve(await challengeOf(solver)) });
    expect(r.status).toBe(200);
    expect(r.b.user.virtual).toBe(false);
    for (const extra of [{}, { altcha_token: null }, { altcha_token: '' }]) {
      r = await register(app, extra);
      expect(r.status, JSON.stringify(extra)).toBe(200);
      expect(r.b.user.virtual).toBe(false);
    }
  });

  it('refuses a wrong solution with 400, and the guest stays a guest', async () => {
    const c = await challengeOf(await guest(app));
    const right = JSON.parse(atob(await solve(c))) as { number: number };
    const wrong = [
      'not base64!',
      btoa('not json'),
      btoa(JSON.stringify({ hello: 'world' })),
      btoa(JSON.stringify({ ...c, number: (right.number + 1) % (c.maxnumber + 1) })),
      // the right number for another salt (a longer lifetime, say): the signature no longer fits
      btoa(JSON.stringify({ ...c, salt: c.salt.replace(/expires=\d+/, 'expires=9999999999'), number: right.number })),
    ];
    for (const token of wrong) {
      const r = await register(app, { altcha_token: token });
      expect(r.status, token).toBe(400);
      expect(r.body).toEqual({ type: 'error', code: 'captcha_invalid', message: 'altcha solution incorrect' });
      expect(r.b.user.virtual).toBe(true);
    }
  });

  it('accepts a solution once: a second registration with it is refused', async () => {
    const token = await solve(await challengeOf(await guest(app)));
    expect((await register(app, { altcha_token: token })).status).toBe(200);
    const again = await register(app, { altcha_token: token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(refused('captcha_used'));
    expect(again.b.user.virtual).toBe(true);
  });

  describe('with ALTCHA_HMAC_KEY', () => {
    const KEY = 'an operator chosen key of at least 32 characters';
    let keyed: TestApp;
    beforeAll(async () => {
      keyed = await startApp({ ALTCHA_HMAC_KEY: KEY });
    });
    afterAll(async () => {
      await keyed.close();
    });

    it('signs with that key: a challenge it signed verifies, one signed with another key does not', async () => {
      const ours = await createChallenge({ hmacKey: KEY, maxnumber: 20_000, expires: new Date(Date.now() + 60_000) });
      expect((await register(keyed, { altcha_token: await solve(ours as AltchaChallenge) })).status).toBe(200);
      const theirs = await createChallenge({ hmacKey: 'somebody else entirely, 32 chars+', maxnumber: 20_000, expires: new Date(Date.now() + 60_000) });
      const r = await register(keyed, { altcha_token: await solve(theirs as AltchaChallenge) });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(refused('captcha_invalid'));
      // the database's own key is not used then
      expect(await keyed.db.selectFrom('server_secrets').selectAll().execute()).toEqual([]);
    });

    it('refuses an expired challenge', async () => {
      const old = await createChallenge({ hmacKey: KEY, maxnumber: 20_000, expires: new Date(Date.now() - 1000) });
      const r = await register(keyed, { altcha_token: await solve(old as AltchaChallenge) });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(refused('captcha_expired'));
      expect(r.b.user.virtual).toBe(true);
    });

    it('forgets used solutions once their challenge has expired', async () => {
      const spent = () => keyed.db.selectFrom('captcha_spent').select('signature').execute();
      const short = (await createChallenge({ hmacKey: KEY, maxnumber: 20_000, number: 7, expires: new Date(Date.now() + 1500) })) as AltchaChallenge;
      expect((await register(keyed, { altcha_token: await solve(short) })).status).toBe(200);
      expect((await spent()).map((r) => r.signature)).toContain(short.signature);
      await new Promise((r) => setTimeout(r, 1600));
      const next = (await createChallenge({ hmacKey: KEY, maxnumber: 20_000, number: 8, expires: new Date(Date.now() + 60_000) })) as AltchaChallenge;
      expect((await register(keyed, { altcha_token: await solve(next) })).status).toBe(200);
      const left = (await spent()).map((r) => r.signature);
      expect(left).toContain(next.signature);
      expect(left).not.toContain(short.signature);
    });
  });

  it('required: refuses a registration without a valid token, accepts a solved one', async () => {
    const strict = await startApp({ REGISTRATION_CAPTCHA: 'required' });
    try {
      for (const extra of [{}, { altcha_token: null }, { altcha_token: '' }]) {
        const r = await register(strict, extra);
        expect(r.status, JSON.stringify(extra)).toBe(400);
        expect(r.body).toEqual(refused('captcha_required'));
        expect(r.b.user.virtual).toBe(true);
      }
      expect((await register(strict, { altcha_token: 'garbage' })).body).toEqual(refused('captcha_invalid'));
      const r = await register(strict, { altcha_token: await solve(await challengeOf(await guest(strict))) });
      expect(r.status).toBe(200);
      expect(r.b.user.virtual).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('off: serves no challenges and ignores tokens', async () => {
    const off = await startApp({ REGISTRATION_CAPTCHA: 'off' });
    try {
      const res = await (await guest(off)).fetch('/api/altcha');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(refused('captcha_off'));
      for (const extra of [{}, { altcha_token: null }, { altcha_token: 'garbage' }]) expect((await register(off, extra)).status).toBe(200);
    } finally {
      await off.close();
    }
  });

  it('works across processes sharing a database: one key, each solution accepted once', async () => {
    // two apps with their own services on one database, as two server processes are
    const first = await startApp({ REGISTRATION_CAPTCHA: 'required' });
    const second = await startApp({ REGISTRATION_CAPTCHA: 'required', DATABASE_URL: first.dbUrl });
    try {
      const token = await solve(await challengeOf(await guest(first)));
      expect((await register(second, { altcha_token: token })).status).toBe(200);
      expect((await register(first, { altcha_token: token })).body).toEqual(refused('captcha_used'));
      expect(await first.db.selectFrom('server_secrets').select('name').execute()).toEqual([{ name: 'altcha_hmac_key' }]);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('checks the body before the captcha: a typo does not spend the solution', async () => {
    const token = await solve(await challengeOf(await guest(app)));
    const b = await guest(app);
    const bad = await b.fetch('/api/users/register', { method: 'POST', json: { username: 'ab', password: PASSWORD, altcha_token: token } });
    expect(bad.status).toBe(400);
    expect((await register(app, { altcha_token: token })).status).toBe(200);
  });

  it('stops the start on a bad mode or a short key, naming the variable', () => {
    expect(() => loadConfig({ REGISTRATION_CAPTCHA: 'maybe' })).toThrow(/REGISTRATION_CAPTCHA/);
    expect(() => loadConfig({ ALTCHA_HMAC_KEY: 'short' })).toThrow(/ALTCHA_HMAC_KEY: at least 32 characters/);
  });
});

describe('a guest\'s name (PATCH /api/users/me)', () => {
  const rename = (b: Browser, json: unknown) => b.fetch('/api/users/me', { method: 'PATCH', json });

  it('a guest chooses his name: stored, in the reply and the user cookie at once, and handed on to his games', async () => {
    const b = await guest(app);
    const { id } = b.user;
    const res = await rename(b, { name: '  Zoë 🎸 ' });
    expect(res.status).toBe(200);
    const me = UserCookieSchema.parse(await res.json());
    expect(me).toMatchObject({ id, name: 'Zoë 🎸', virtual: true });
    expect(b.user).toMatchObject({ id, name: 'Zoë 🎸', virtual: true });
    expect(await app.users.findUser(id)).toEqual({ id, name: 'Zoë 🎸', virtual: true });
    expect(app.renamed).toContainEqual([id, 'Zoë 🎸']);
    // a name nobody else needs (not an account's, a guest's or one of its look-alikes) is never reserved: another guest may have it too
    const c = await guest(app);
    expect((await rename(c, { name: 'zoë 🎸' })).status).toBe(200);
    // nor does it hold an account's name: one may register under it later, and the guest keeps his
    const d = await guest(app);
    expect((await d.fetch('/api/users/register', { method: 'POST', json: { username: 'Zoë 🎸', password: 'long enough pw' } })).status).toBe(200);
    expect((await app.users.findUser(id))?.name).toBe('Zoë 🎸');
  });

  it('the name rules of players: 1..32 characters, nothing invisible, no look-alike scripts mixed; 400 names the field', async () => {
    const b = await guest(app);
    const before = b.user.name;
    for (const json of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(33) }, { name: 'a\u0000b' }, { name: 'ad\u202emin' }, { name: 'Vic\u200Btim' }, { name: '\u0410na' }, {}, { name: 7 }, { name: 'Jo', avatar: '🦊' }]) {
      const res = await rename(b, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('invalid_input');
      expect(body.message).toMatch(/^(name|avatar) /);
    }
    expect((await rename(b, { name: 'J' })).status).toBe(200);
    expect(app.renamed.filter(([id]) => id === b.user.id)).toEqual([[b.user.id, 'J']]);
    expect(before).not.toBe('J');
  });

  it('not an account\'s name (any case), nor one that looks like it; a pet name\'s shape is a guest\'s like any other', async () => {
    await registered(app, 'Oscarina');
    const b = await guest(app);
    const own = b.user.name;
    for (const name of ['oscarina', ' OSCARINA ']) {
      const res = await rename(b, { name });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ type: 'error', code: 'username_taken', message: 'username is already in use' });
    }
    // a zero for the O looks the same
    const twin = await rename(b, { name: '0scarina' });
    expect(twin.status).toBe(409);
    expect(await twin.json()).toEqual({ type: 'error', code: 'username_look_alike', message: 'username looks the same as one already in use' });
    expect(b.user.name).toBe(own);
    expect((await rename(b, { name: 'Oscar' })).status).toBe(200);
    expect(b.user.name).toBe('Oscar');
    // back to his pet name, or another one (guests' names are not unique)
    expect((await rename(b, { name: own })).status).toBe(200);
    expect((await rename(b, { name: 'boldly-silver-quokka' })).status).toBe(200);
    expect(b.user.name).toBe('boldly-silver-quokka');
  });

  it('an account keeps its name (403); nobody without a session renames anybody (401)', async () => {
    const b = await registered(app, 'Fixed Name');
    const res = await rename(b, { name: 'Other' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      type: 'error',
      code: 'guest_only_rename',
      message: 'only guests can change their name; an account keeps the name it was registered with',
    });
    expect(b.user.name).toBe('Fixed Name');
    const nobody = new Browser(app);
    expect((await rename(nobody, { name: 'Ghost' })).status).toBe(401);
    expect(app.renamed.some(([, name]) => name === 'Other' || name === 'Ghost')).toBe(false);
  });
});

describe('names that look like an account\'s', () => {
  it('gives names that look the same one key: other scripts, digits for letters, compatibility forms, any case', () => {
    const same: [string, string][] = [
      ['ace', '\u0430\u0441\u0435'], // Cyrillic а, с, е
      ['ACE', '\u0410\u0441\u0435'],
      ['Oliver', '0liver'],
      ['Oliver', '\u{1D40E}liver'], // mathematical bold O
      ['Mary', 'rnary'],
      ['Ian', 'lan'],
      ['bob', '\uFF42\uFF4F\uFF42'], // full-width
      ['NIKO', '\u039D\u0399\u039A\u039F'], // Greek capitals
      ['Alice', 'AIice'], // a capital I for the l
      ['ACE', '\u0391\u03F9\u0395'], // Greek, with a lunate sigma for the C
      ['émile', '\u0065\u0301mile'], // composed and decomposed
      [' ace ', 'ace'],
    ];
    for (const [a, b] of same) expect(lookAlikeKey(b), `${a} / ${b}`).toBe(lookAlikeKey(a));
    const different: [string, string][] = [
      ['ace', 'acme'],
      ['Bob', 'Rob'],
      ['Zoë', 'Zoe'],
      ['ian', 'lan'], // a dotted i does not look like an l
      ['Oliver', '0LIVER'], // "OLIVER" is the same name, but does not look like "Oliver"
      ['Jürgen', 'Jurgen'],
    ];
    for (const [a, b] of different) expect(lookAlikeKey(b), `${a} / ${b}`).not.toBe(lookAlikeKey(a));
  });

  it('refuses to register a name that looks like an account\'s, with its own code; the guest stays a guest', async () => {
    await registered(app, 'ace');
    await registered(app, 'Oliver');
    const b = await guest(app);
    const before = await app.db.selectFrom('users').selectAll().where('id', '=', b.user.id).executeTakeFirstOrThrow();
    for (const username of ['\u0430\u0441\u0435', '\u0410\u0421\u0415', '\u0391\u03F9\u0395', '0liver', '0Iiver']) {
      const res = await b.fetch('/api/users/register', { method: 'POST', json: { username, password: 'another password' } });
      expect(res.status, username).toBe(409);
      expect(await res.json()).toEqual({ type: 'error', code: 'username_look_alike', message: 'username looks the same as one already in use' });
    }
    expect(b.user.virtual).toBe(true);
    expect(await app.db.selectFrom('users').selectAll().where('id', '=', b.user.id).executeTakeFirstOrThrow()).toEqual(before);
    // a name that only resembles one is fine, and its skeleton is stored
    const ok = await b.fetch('/api/users/register', { method: 'POST', json: { username: 'Olivia', password: 'another password' } });
    expect(ok.status).toBe(200);
    const row = await app.db.selectFrom('users').select(['name', 'name_skeleton']).where('id', '=', b.user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Olivia', name_skeleton: lookAlikeKey('Olivia') });
  });

  it('refuses one in the admin CLI, naming the account it looks like', async () => {
    await registered(app, 'Pepe');
    const r = await runCli(app, ['users', 'create', '\u0420\u0435\u0440\u0435', '--password', 'long enough pw']); // all Cyrillic
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('username "\u0420\u0435\u0440\u0435" looks the same as "Pepe", which is already in use');
    expect(await app.db.selectFrom('users').select('id').where('name', '=', '\u0420\u0435\u0440\u0435').executeTakeFirst()).toBeUndefined();
  });

  it('fills the skeletons of existing accounts on migration; look-alike accounts made before the rule keep their names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hitline-skeletons-'));
    dirs.push(dir);
    const database = await testDatabase(dir);
    const raw = isPostgresUrl(database.url)
      ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }) })
      : new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(sqlitePath(database.url)) }) });
    const migrator = new Migrator({ db: raw, provider: migrationProvider, disableTransactions: true });
    const before = await migrator.migrateTo('0006_hit_sets');
    expect(before.error).toBeUndefined();
    const now = isoNow();
    const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', ARGON2_MEMORY_KIB: '1024' });
    const hash = await new UsersService(raw, config, createLogger('silent')).hashPassword('legacy password');
    const rows = [
      { id: '00000000-0000-4000-8000-000000000001', name: 'ace', name_key: 'ace', password: hash, guest: 0, permissions: 8, created_at: now },
      { id: '00000000-0000-4000-8000-000000000002', name: '\u0430\u0441\u0435', name_key: '\u0430\u0441\u0435', password: hash, guest: 0, permissions: 8, created_at: now },
      { id: '00000000-0000-4000-8000-000000000003', name: 'gladly-brave-otter', name_key: null, password: null, guest: 1, permissions: 8, created_at: now },
    ];
    // the table as 0006 left it: no name_skeleton column yet
    await (raw as unknown as Kysely<Record<string, Record<string, unknown>>>).insertInto('users').values(rows).execute();
    await raw.destroy();

    const db = await openDatabase(database.url);
    try {
      const after = await db.selectFrom('users').select(['id', 'name_skeleton']).orderBy('id').execute();
      expect(after.map((r) => r.name_skeleton)).toEqual(['ace', 'ace', null]);
      const users = new UsersService(db, config, createLogger('silent'));
      for (const name of ['ace', '\u0430\u0441\u0435']) expect((await users.login(name, 'legacy password')).ok, name).toBe(true);
      for (const name of ['\u0391\u03F9\u0395', '\u13AACE']) expect(await users.createAccount(name, 'long enough pw'), name).toMatchObject({ ok: false, message: expect.stringContaining('looks the same as') });
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe('login throttling', () => {
  // the real limits; X-Forwarded-For stands in for the many addresses of the Internet
  let real: TestApp;
  beforeAll(async () => {
    real = await startApp({ RATE_LIMIT_FACTOR: '1', TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await real.close();
  });

  const loginFrom = (address: string, username: string, password: string) =>
    new Browser(real).fetch('/api/users/login', { method: 'POST', headers: { 'X-Forwarded-For': address }, json: { username, password } });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function expectWait(res: Response, seconds: number): Promise<void> {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(seconds));
    const body = (await res.json()) as { code: string; message: string };
    expect(body).toMatchObject({ type: 'error', code: 'rate_limited' });
    expect(body.message).toContain(`try again in ${seconds} second`);
  }

  it('a stranger guessing from the party\'s Wi-Fi does not lock the others on it out', async () => {
    await registered(real, 'Party Pia', 'pia password 1');
    const wifi = '192.0.2.7';
    // 20 wrong passwords from one address cost nothing more than a 401 each...
    for (let i = 1; i <= 20; i++) expect((await loginFrom(wifi, `Stranger Guess ${i}`, 'wrong password')).status, `guess ${i}`).toBe(401);
    // ...beyond them, every wrong one is answered 429 with a short wait for the account it tried
    for (let i = 21; i <= 25; i++) await expectWait(await loginFrom(wifi, `Stranger Guess ${i}`, 'wrong password'), 1);
    // a correct password from the same address goes through
    expect((await loginFrom(wifi, 'Party Pia', 'pia password 1')).status).toBe(200);
    // the stranger trying Pia's account makes her wait a second, no more
    await expectWait(await loginFrom(wifi, 'Party Pia', 'a wrong guess'), 1);
    await expectWait(await loginFrom(wifi, 'Party Pia', 'pia password 1'), 1);
    await pause(1050);
    expect((await loginFrom(wifi, 'Party Pia', 'pia password 1')).status).toBe(200);
  });

  it('an account guessed at from many addresses waits, longer each time, until its owner logs in', async () => {
    await registered(real, 'Guarded Gina', 'gina password 1');
    for (let i = 1; i <= 5; i++) expect((await loginFrom(`198.51.100.${i}`, 'Guarded Gina', 'wrong password')).status).toBe(401);
    await expectWait(await loginFrom('198.51.100.6', 'Guarded Gina', 'wrong password'), 1);
    // while it waits, no password is checked, the right one neither, from anywhere
    await expectWait(await loginFrom('203.0.113.9', 'Guarded Gina', 'gina password 1'), 1);
    await pause(1050);
    await expectWait(await loginFrom('198.51.100.7', 'Guarded Gina', 'wrong password'), 2);
    await pause(2050);
    expect((await loginFrom('203.0.113.9', 'Guarded Gina', 'gina password 1')).status).toBe(200);
    // the owner's login ended the waits
    expect((await loginFrom('198.51.100.8', 'Guarded Gina', 'wrong password')).status).toBe(401);
  });

  it('treats a name nobody has like an account: the answers do not tell whether it exists', async () => {
    for (let i = 1; i <= 5; i++) expect((await loginFrom(`198.51.100.${20 + i}`, 'Nobody Named So', 'wrong password')).status).toBe(401);
    await expectWait(await loginFrom('198.51.100.30', 'Nobody Named So', 'wrong password'), 1);
  });

  describe('the guard on its own clock', () => {
    const at = (ip: string) => ({ ip }) as Request;
    const wrong = async () => ({ ok: false });
    const right = async () => ({ ok: true });

    it('doubles the wait up to 30 s and forgets an account 10 minutes after its last failure', async () => {
      let now = 1_000_000;
      const guard = new LoginGuard(1, () => now);
      for (let i = 0; i < 5; i++) expect(await guard.attempt(at(`10.0.0.${i}`), 'Ann Other', wrong)).toEqual({ result: { ok: false } });
      const waits: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await guard.attempt(at('10.0.1.1'), 'ann other', wrong);
        if (!('wait' in r)) throw new Error('no wait');
        waits.push(r.wait);
        // an attempt during the wait is not checked and changes nothing
        expect(await guard.attempt(at('10.0.1.2'), 'ANN OTHER', right)).toEqual({ wait: r.wait, why: 'too many failed logins for this account' });
        now += r.wait * 1000;
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
      now += 10 * 60_000;
      expect(await guard.attempt(at('10.0.1.1'), 'Ann Other', wrong)).toEqual({ result: { ok: false } });
    });

    it('runs the checks of one address one after the other, with at most 10 waiting', async () => {
      const guard = new LoginGuard(1);
      let running = 0;
      let most = 0;
      const slow = async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return { ok: true };
      };
      const attempts = Array.from({ length: 12 }, (_, i) => guard.attempt(at('10.0.2.1'), `User ${i}`, slow));
      const other = guard.attempt(at('10.0.2.2'), 'Someone Else', slow);
      const results = await Promise.all(attempts);
      expect(results.filter((r) => 'result' in r)).toHaveLength(10);
      expect(results.slice(10)).toEqual([
        { wait: 1, why: 'too many logins at once from this address' },
        { wait: 1, why: 'too many logins at once from this address' },
      ]);
      expect(await other).toEqual({ result: { ok: true } });
      // the other address ran beside them, never two of one address
      expect(most).toBe(2);
    });
  });
});

describe('admin CLI next to the running server', () => {
  it('creates an account and changes permissions that apply at the next request', async () => {
    let r = await runCli(app, ['users', 'create', 'Curator Carla', '--permissions', '8', '--password', 'curator password']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('created user Curator Carla');
    expect(r.stdout).toContain('write_hits (1): no');

    const b = new Browser(app);
    let res = await b.fetch('/api/users/login', { method: 'POST', json: { username: 'curator carla', password: 'curator password' } });
    expect(res.status).toBe(200);
    expect((await b.fetch('/api/test/hits', { method: 'POST' })).status).toBe(403);

    r = await runCli(app, ['users', 'set-permissions', 'Curator Carla', '--grant', 'write_hits,write_packs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('write_hits (1): yes');
    res = await b.fetch('/api/test/hits', { method: 'POST' });
    expect(res.status).toBe(200);
    // the readable cookie follows at once, so the client shows the new tools
    expect(b.user.permissions).toMatchObject({ write_hits: true, write_packs: true, write_issues: true });

    r = await runCli(app, ['users', 'set-permissions', 'curator carla', '--permissions', '0']);
    expect(r.code).toBe(0);
    expect((await b.fetch('/api/test/hits', { method: 'POST' })).status).toBe(403);

    r = await runCli(app, ['users', 'set-permissions', 'Curator Carla', '--all']);
    expect(r.code).toBe(0);
    expect((await b.fetch('/api/users/me')).status).toBe(200);
    expect(b.user.permissions).toEqual({ write_hits: true, write_packs: true, read_issues: true, write_issues: true, delete_issues: true });

    r = await runCli(app, ['users', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Curator Carla {2}id [0-9a-f-]{36} {2}permissions 31/);
  });

  it('reads the password from piped stdin and fails clearly with exit code 1', async () => {
    let r = await runCli(app, ['users', 'create', 'Piped Pat', '--all'], 'piped password\n');
    expect(r.code).toBe(0);
    expect((await new Browser(app).fetch('/api/users/login', { method: 'POST', json: { username: 'Piped Pat', password: 'piped password' } })).status).toBe(200);

    r = await runCli(app, ['users', 'create', 'piped PAT', '--password', 'another password']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('already in use');

    r = await runCli(app, ['users', 'create', 'No Password']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no password given');

    r = await runCli(app, ['users', 'set-permissions', 'Nobody Here', '--all']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no registered user');

    r = await runCli(app, ['users', 'set-permissions', 'Piped Pat', '--permissions', '32']);
    expect(r.code).toBe(1);
    r = await runCli(app, ['users', 'set-permissions', 'Piped Pat', '--grant', 'fly']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown permission "fly"');
    r = await runCli(app, ['users', 'create', 'X Y', '--all', '--permissions', '3', '--password', 'long enough pw']);
    expect(r.code).toBe(1);

    r = await runCli(app, ['users', 'permissions']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('write_hits: 1\nwrite_packs: 2\nread_issues: 4\nwrite_issues: 8\ndelete_issues: 16');
  });
});
