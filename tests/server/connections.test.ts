/**
 * What reaches the server outside the API's routes, on a real server over real
 * sockets: room WebSockets and matchmaking requests are limited per address
 * (RATE_LIMIT_FACTOR applies), the matchmaker answers a client's mistakes with
 * 4xx in the API's error shape, and clients that trickle headers or bodies are
 * cut off after REQUEST_TIMEOUT_SECONDS (an editor's upload only when it stalls).
 */
import { connect as tcpConnect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../../server/config.ts';
import { connectionLimits } from '../../server/http/security.ts';
import { Permission } from '../../server/services/users.ts';
import { bootServer, User, waitFor, type TestServer } from './harness.ts';

let sockets: TestServer;
let matchmaking: TestServer;
let slow: TestServer;
beforeAll(async () => {
  [sockets, matchmaking, slow] = await Promise.all([
    bootServer({ RATE_LIMIT_FACTOR: '1', TRUST_PROXY: '1', MAX_WEBSOCKETS_PER_ADDRESS: '3' }),
    bootServer({ RATE_LIMIT_FACTOR: '1', TRUST_PROXY: '1', MAX_MATCHMAKE_PER_MINUTE: '5' }),
    bootServer({ REQUEST_TIMEOUT_SECONDS: '1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([sockets?.stop(), matchmaking?.stop(), slow?.stop()]);
});

async function newGame(t: TestServer): Promise<{ alice: User; id: string }> {
  const alice = await User.guest(t.base);
  const created = await alice.request('POST', '/api/games', { mode: 'Public' });
  expect(created.status).toBe(201);
  return { alice, id: created.body.id as string };
}

/** Opens a raw WebSocket to a game's room path; resolves with the upgrade's outcome. */
function upgrade(t: TestServer, headers: Record<string, string> = {}): Promise<{ status: number; body: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.ws}/processid/AbCd1234?sessionId=x`, { headers });
    ws.once('open', () => resolve({ status: 101, body: '', ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

describe('WebSockets per address', () => {
  it('holds at most MAX_WEBSOCKETS_PER_ADDRESS open from one address, and counts each address on its own', async () => {
    const { alice, id } = await newGame(sockets);
    const rooms = [await alice.joinRoom(sockets.ws, id), await alice.joinRoom(sockets.ws, id), await alice.joinRoom(sockets.ws, id)];
    const refused = await upgrade(sockets);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ type: 'error', code: 'too_many_connections', message: 'too many connections from this address; close some first' });
    await expect(alice.joinRoom(sockets.ws, id)).rejects.toThrow();
    // another address behind the trusted proxy has its own count
    const elsewhere = await upgrade(sockets, { 'X-Forwarded-For': '198.51.100.4' });
    expect(elsewhere.status).toBe(101);
    elsewhere.ws!.close();
    // a closed socket frees its place (once the server saw it close)
    await rooms[0]!.leave();
    let again: Awaited<ReturnType<User['joinRoom']>> | undefined;
    for (let i = 0; i < 40 && !again; i++) {
      again = await alice.joinRoom(sockets.ws, id).catch(() => undefined);
      if (!again) await new Promise((r) => setTimeout(r, 50));
    }
    expect(again).toBeDefined();
    await Promise.all([again!.leave(), rooms[1]!.leave(), rooms[2]!.leave()]);
  });

  it('sizes the limits for a party and for the load benchmark, times RATE_LIMIT_FACTOR; 0 switches them off', () => {
    const defaults = loadConfig({});
    // ten phones with a few tabs each, twice that for a moment while they all reconnect
    expect(connectionLimits(defaults).websockets).toBeGreaterThanOrEqual(60);
    // bench/lib/load-server.ts: 4,800 clients from one address with RATE_LIMIT_FACTOR=100
    expect(connectionLimits({ ...defaults, RATE_LIMIT_FACTOR: 100 }).websockets).toBeGreaterThan(4800);
    expect(connectionLimits({ ...defaults, RATE_LIMIT_FACTOR: 0.5, MAX_WEBSOCKETS_PER_ADDRESS: 10 }).websockets).toBe(5);
    expect(connectionLimits({ ...defaults, RATE_LIMIT_FACTOR: 0 })).toMatchObject({ websockets: undefined, matchmake: undefined });
  });
});

describe('matchmaking', () => {
  const post = (t: TestServer, path: string, body: string | undefined, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, ...(body !== undefined ? { body } : {}) });

  it('answers at most MAX_MATCHMAKE_PER_MINUTE requests a minute per address, then 429 with Retry-After', async () => {
    const { alice, id } = await newGame(matchmaking);
    const from = (address: string) => post(matchmaking, `/matchmake/joinById/${id}`, '{}', { cookie: alice.cookieHeader(), 'X-Forwarded-For': address });
    for (let i = 0; i < 5; i++) expect((await from('192.0.2.10')).status).toBe(200);
    const refused = await from('192.0.2.10');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ type: 'error', code: 'rate_limited', message: expect.stringMatching(/^too many matchmaking requests from this address; try again in \d+ seconds?$/) });
    // every matchmaking path counts, answered or not
    expect((await post(matchmaking, '/matchmake/create/game', '{}', { 'X-Forwarded-For': '192.0.2.10' })).status).toBe(429);
    expect((await from('192.0.2.11')).status).toBe(200);
  });

  it('answers a client\'s mistakes with 4xx in the API\'s error shape; the SDK still joins', async () => {
    const { alice, id } = await newGame(sockets);
    const unknown = await post(sockets, '/matchmake/joinById/NoSuch99', '{}', { cookie: alice.cookieHeader() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ type: 'error', code: 'game_not_found', message: 'room "NoSuch99" not found' });
    const sdk = await alice.joinRoom(sockets.ws, 'NoSuch99').catch((e: unknown) => e);
    expect(sdk).toMatchObject({ code: 404, message: 'room "NoSuch99" not found' });

    for (const method of ['create', 'join', 'joinOrCreate', 'nonsense']) {
      const r = await post(sockets, `/matchmake/${method}/game`, '{}');
      expect(r.status, method).toBe(405);
      expect(await r.json()).toEqual({ type: 'error', code: 'method_not_allowed', message: `invalid method "${method}": games are joined by id (joinById, reconnect)` });
    }
    const get = await fetch(`${sockets.base}/matchmake/joinById/${id}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ type: 'error', code: 'method_not_allowed' });
    expect(await (await post(sockets, '/matchmake/joinById', '{}')).json()).toMatchObject({ type: 'error', code: 'not_found' });

    const malformed = await post(sockets, `/matchmake/joinById/${id}`, '{"a":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ type: 'error', code: 'malformed_json', message: 'the request body is not valid JSON' });
    expect((await post(sockets, `/matchmake/joinById/${id}`, '[1]')).status).toBe(400);
    expect((await post(sockets, `/matchmake/joinById/${id}`, JSON.stringify({ pad: 'x'.repeat(20_000) }))).status).toBe(413);
    const noToken = await post(sockets, `/matchmake/reconnect/${id}`, '{}');
    expect(noToken.status).toBe(400);
    expect(await noToken.json()).toEqual({ type: 'error', code: 'invalid_input', message: 'reconnectionToken is required' });
    const staleToken = await post(sockets, `/matchmake/reconnect/${id}`, JSON.stringify({ reconnectionToken: 'not-a-token' }));
    expect(staleToken.status).toBe(404);
    expect(await staleToken.json()).toMatchObject({ type: 'error', code: 'game_not_found' });

    const room = await alice.joinRoom(sockets.ws, id);
    await waitFor(() => room.state?.id === id, 5000, 'the state');
    await room.leave();
  });
});

describe('slow clients', () => {
  /** Opens a TCP connection, writes `first`, and collects what comes back until the server closes it. */
  function trickle(first: string): { socket: ReturnType<typeof tcpConnect>; closed: Promise<{ ms: number; reply: string }> } {
    const started = Date.now();
    const url = new URL(slow.base);
    const socket = tcpConnect(Number(url.port), url.hostname);
    socket.write(first);
    let reply = '';
    socket.on('data', (d: Buffer) => (reply += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<{ ms: number; reply: string }>((resolve) => socket.once('close', () => resolve({ ms: Date.now() - started, reply })));
    return { socket, closed };
  }

  it('closes a connection whose headers do not arrive within REQUEST_TIMEOUT_SECONDS', async () => {
    const { closed } = trickle('GET /api/users/me HTTP/1.1\r\nHost: hitline\r\n');
    const { ms, reply } = await closed;
    expect(ms).toBeLessThan(3000);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers 408 and closes a request whose body does not arrive within REQUEST_TIMEOUT_SECONDS', async () => {
    const body = '{"username":"somebody","password":"a password"}';
    const { socket, closed } = trickle(`POST /api/users/login HTTP/1.1\r\nHost: hitline\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    // a byte now and then does not help a body that is not an editor's upload
    const drip = setInterval(() => socket.write(' '), 300);
    const { ms, reply } = await closed;
    clearInterval(drip);
    expect(ms).toBeLessThan(3000);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(reply).toContain('{"type":"error","code":"request_timeout","message":"the request did not arrive in time"}');
  });

  it('lets an editor\'s upload take longer while it keeps coming, and cuts it off when it stalls', async () => {
    const editor = await User.guest(slow.base);
    await slow.server.db.updateTable('users').set({ permissions: Permission.WRITE_HITS }).where('id', '=', editor.id).execute();
    const hit = await slow.server.db.selectFrom('hits').select('id').executeTakeFirstOrThrow();
    const upload = (chunks: number, stallAfter: number) =>
      new Promise<{ status: number; body: string; ms: number }>((resolve) => {
        const started = Date.now();
        const req = httpRequest(`${slow.base}/api/hits/${hit.id}/audio`, {
          method: 'POST',
          headers: { cookie: editor.cookieHeader(), 'content-type': 'audio/mpeg', 'content-length': String(chunks * 1000) },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started }));
        });
        req.on('error', () => resolve({ status: 0, body: '', ms: Date.now() - started }));
        let sent = 0;
        const next = () => {
          if (sent === stallAfter) return;
          req.write(Buffer.alloc(1000, 0x55));
          if (++sent < chunks) setTimeout(next, 300);
          else req.end();
        };
        next();
      });
    // 2.7 s, well past the 1 s deadline, bytes every 0.3 s: read to the end (and then refused as not audio)
    const steady = await upload(10, -1);
    expect(steady.ms).toBeGreaterThan(2500);
    expect(steady.status).toBe(400);
    expect(JSON.parse(steady.body)).toMatchObject({ type: 'error', code: 'not_audio' });
    // three chunks, then nothing: answered 408 a second or two after it stopped
    const stalled = await upload(10, 3);
    expect(stalled.ms).toBeLessThan(4000);
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual({ type: 'error', code: 'request_timeout', message: 'the request did not arrive in time' });
  });

  it('defaults to tens of seconds, not minutes', () => {
    expect(loadConfig({}).REQUEST_TIMEOUT_SECONDS).toBe(30);
  });
});
