import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express, { type Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config.ts';
import { isoNow, openDatabase, type Db } from '../../server/db/index.ts';
import { requirePermission, requireUser } from '../../server/http/auth.ts';
import { apiNotFound, errorHandler } from '../../server/http/errors.ts';
import { LoginGuard } from '../../server/http/security.ts';
import { mountUsers } from '../../server/http/users.ts';
import { createLogger } from '../../server/logger.ts';
import { Permission, UsersService } from '../../server/services/users.ts';
import { UserCookieSchema, type UserCookie } from '../../shared/protocol/users.ts';
import { testDatabase } from './harness.ts';

/**
 * Users and sessions through real HTTP on an ephemeral port, with a real SQLite
 * file (or PostgreSQL database, see harness.ts): cookies, registration in place, login, logout, expiry, permissions,
 * rate limits, security headers, CSRF, and the admin CLI next to a running server.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const DAY = 24 * 3600 * 1000;

interface TestApp {
  base: string;
  db: Db;
  users: UsersService;
  config: Config;
  gone: string[];
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
  const gone: string[] = [];
  const app = express();
  mountUsers(app, {
    users,
    config,
    log,
    onUserGone: async (id) => {
      gone.push(id);
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
