/**
 * Behind a reverse proxy (tests/cluster/proxy.ts) that passes its own upstream
 * address as Host, as nginx's `proxy_pass` does unless told otherwise: the
 * same-origin check of mutations compares the browser's Origin with that Host
 * and refuses everything, unless the operator names the public origin
 * (PUBLIC_URL, ALLOWED_ORIGINS) or trusts the proxy's X-Forwarded-Host
 * (TRUST_PROXY). A foreign Origin stays refused in every case, and an
 * X-Forwarded-Host is only believed from a trusted proxy. Real servers (one at a
 * time: Colyseus' matchmaker is one per process), real HTTP, a real proxy.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startProxy, type Proxy, type ProxyOptions } from '../cluster/proxy.ts';
import { bootServer, spawnServer, User, type ServerProcess, type TestServer } from './harness.ts';

/** Where the players' browsers think they are. */
const PUBLIC_HOST = 'hitline.example.org';
const PUBLIC_ORIGIN = `https://${PUBLIC_HOST}`;
const EVIL = 'https://evil.example';

interface Answer {
  status: number;
  code?: string;
}

/**
 * A browser's request to `port` as if it went to `host` (node:http, since fetch
 * does not let a page choose Host): the Host, Origin and other `headers` given,
 * and `user`'s cookies.
 */
function send(port: number, method: string, path: string, user: User, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { cookie: user.cookieHeader(), ...(data ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const parsed = text.startsWith('{') ? (JSON.parse(text) as { code?: string }) : {};
          resolve({ status: res.statusCode ?? 0, ...(parsed.code ? { code: parsed.code } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A mutation every guest may make: creating a game (201), refused with 403 csrf by the guard. */
const createGame = (port: number, user: User, headers: Record<string, string>) => send(port, 'POST', '/api/games', user, headers, { mode: 'Private' });

const CREATED: Answer = { status: 201 };
const REFUSED: Answer = { status: 403, code: 'csrf' };

/** A server with `env` behind a proxy with `options`, for the tests of one describe block. */
function behindProxy(env: Record<string, string>, options: ProxyOptions) {
  const ctx = {} as { t: TestServer; proxy: Proxy; user: User };
  beforeAll(async () => {
    ctx.t = await bootServer(env);
    ctx.proxy = await startProxy({ hitline: () => ctx.t.server.port }, options);
    // a guest, as the page's first GET made it (GETs are never checked)
    ctx.user = await User.guest(`http://127.0.0.1:${ctx.proxy.port}`);
  });
  afterAll(async () => {
    await ctx.proxy?.close();
    await ctx.t?.stop();
  });
  return ctx;
}

describe('a proxy that rewrites Host, no configuration', () => {
  const ctx = behindProxy({}, { host: 'upstream' });

  it('refuses the public site\'s own POST (the problem), which the same request with Host kept passes', async () => {
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN })).toEqual(REFUSED);
    expect(await createGame(ctx.t.server.port, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN })).toEqual(CREATED);
  });

  it('does not believe an X-Forwarded-Host without TRUST_PROXY: a client cannot spoof it', async () => {
    // sent by the client straight to the server, or by a proxy the server does not trust
    expect(await createGame(ctx.t.server.port, ctx.user, { host: '127.0.0.1', origin: EVIL, 'x-forwarded-host': 'evil.example' })).toEqual(REFUSED);
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN, 'x-forwarded-host': PUBLIC_HOST })).toEqual(REFUSED);
  });

  it('lets the game\'s WebSocket through: matchmaking and rooms check no origin (SameSite=Strict cookies stay at home)', async () => {
    // created without an Origin (as a script may), joined through the proxy with the public one
    const created = await ctx.user.request('POST', '/api/games', { mode: 'Private' });
    expect(created.status).toBe(201);
    const reservation = await send(ctx.proxy.port, 'POST', `/matchmake/joinById/${created.body.id}`, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN }, {});
    expect(reservation.status).toBe(200);
    const room = await ctx.user.joinRoom(`ws://127.0.0.1:${ctx.proxy.port}`, created.body.id);
    expect(room.roomId).toBe(created.body.id);
    await room.leave();
  });
});

describe('a proxy that rewrites Host, with PUBLIC_URL and ALLOWED_ORIGINS', () => {
  const ctx = behindProxy({ PUBLIC_URL: `${PUBLIC_ORIGIN}/`, ALLOWED_ORIGINS: 'https://party.example.net, http://192.168.1.20:8000' }, { host: 'upstream' });

  it('accepts the public origin and the listed ones', async () => {
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN })).toEqual(CREATED);
    expect(await createGame(ctx.proxy.port, ctx.user, { host: 'party.example.net', origin: 'https://party.example.net' })).toEqual(CREATED);
    expect(await createGame(ctx.proxy.port, ctx.user, { host: '192.168.1.20:8000', origin: 'http://192.168.1.20:8000' })).toEqual(CREATED);
  });

  it('still refuses every other origin: foreign, another scheme or port of ours, "null"', async () => {
    for (const origin of [EVIL, `http://${PUBLIC_HOST}`, `${PUBLIC_ORIGIN}:8443`, 'https://party.example.net:444', 'null']) {
      expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin }), origin).toEqual(REFUSED);
    }
    // nor does naming our host in X-Forwarded-Host help without TRUST_PROXY
    expect(await createGame(ctx.proxy.port, ctx.user, { host: 'evil.example', origin: EVIL, 'x-forwarded-host': 'evil.example' })).toEqual(REFUSED);
  });
});

describe('a proxy that rewrites Host and sets X-Forwarded-Host, with TRUST_PROXY', () => {
  const ctx = behindProxy({ TRUST_PROXY: '1' }, { host: 'upstream', forwardedHost: true });

  it('compares the Origin with the host the browser asked for', async () => {
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: PUBLIC_ORIGIN })).toEqual(CREATED);
  });

  it('still refuses a foreign Origin, also when the client sends its own X-Forwarded-Host (the proxy replaces it)', async () => {
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: EVIL })).toEqual(REFUSED);
    expect(await createGame(ctx.proxy.port, ctx.user, { host: PUBLIC_HOST, origin: EVIL, 'x-forwarded-host': 'evil.example' })).toEqual(REFUSED);
  });
});

describe('configuration', () => {
  it('takes one origin as PUBLIC_URL and a list as ALLOWED_ORIGINS, spelled as browsers send them', () => {
    const config = loadConfig({ PUBLIC_URL: 'HTTPS://Hitline.Example.org:443/', ALLOWED_ORIGINS: ' http://10.0.0.5:8000 ,https://b.example, ' });
    expect(config.PUBLIC_URL).toBe(PUBLIC_ORIGIN);
    expect(config.ALLOWED_ORIGINS).toEqual(['http://10.0.0.5:8000', 'https://b.example']);
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual([]);
  });

  it('refuses anything but an http(s) origin, naming the variable', () => {
    for (const bad of ['hitline.example.org', 'https://hitline.example.org/games', 'https://hitline.example.org/?a=1', 'ftp://hitline.example.org', 'https://user:pw@hitline.example.org', 'https://a.example,https://b.example']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL: an origin such as https:\/\/hitline\.example\.org/);
    }
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'https://ok.example, example.net/x' })).toThrow(/ALLOWED_ORIGINS: comma-separated origins; not "example.net\/x"/);
  });

  it('stops the start of the server process on a bad PUBLIC_URL', async () => {
    let started: ServerProcess;
    try {
      started = await spawnServer({ PUBLIC_URL: 'hitline.example.org', PORT: '0', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
    } catch (err) {
      expect((err as Error).message).toMatch(/exited with code 1: Invalid configuration:\s+PUBLIC_URL: an origin such as/);
      return;
    }
    await started.stop('SIGKILL');
    expect.unreachable('the server started with PUBLIC_URL=hitline.example.org');
  });
});
