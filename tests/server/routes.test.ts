import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInput } from '../../shared/protocol/index.ts';
import { CATALOGUE_ROUTES } from '../../shared/protocol/routes-catalogue.ts';
import { GAME_ROUTES } from '../../shared/protocol/routes-games.ts';
import { Permission } from '../../server/services/users.ts';
import { apiNotFound } from '../../server/http/errors.ts';
import { expressPath, mount } from '../../server/http/routes.ts';
import { bootServer, User, type TestServer } from './harness.ts';

/**
 * The router helper registers route table entries: their schemas validate the
 * input once (the standard 400 body), their access is checked, the handler gets
 * the parsed input, and nothing but the declared method and path is routed.
 * Over real HTTP, with a handler that echoes what it received.
 */

let server: Server;
let base: string;
const received: unknown[] = [];
/** The checks in front of the catalogue routes below that ran, in order. */
const steps: string[] = [];
const step =
  (name: string): express.RequestHandler =>
  (_req, _res, next) => {
    steps.push(name);
    next();
  };

beforeAll(async () => {
  const api = express.Router();
  const echo = (input: unknown, _req: express.Request, res: express.Response) => {
    received.push(input);
    res.json({ echoed: input });
  };
  mount(api, GAME_ROUTES.confirm, echo);
  mount(api, GAME_ROUTES.guessFor, echo);
  mount(api, GAME_ROUTES.getGame, echo);
  mount(api, GAME_ROUTES.addLocalPlayer, echo);
  // the import by address: the permission before its limiter; the import: its body read only once allowed; the export made public
  mount(api, CATALOGUE_ROUTES.importHitsFromAddress, echo, { limits: { remoteImports: step('limit') }, chain: ['access', 'limit'] });
  mount(api, CATALOGUE_ROUTES.importHits, echo, { chain: ['access', step('body')] });
  mount(api, CATALOGUE_ROUTES.exportHits, echo, { limits: { search: step('limit') }, chain: ['limit'] });
  const app = express();
  app.use('/api', express.json());
  // a stand-in session: the caller is a user when he sends `x-user`
  app.use((req, res, next) => {
    const id = req.get('x-user');
    if (id) res.locals.user = { id, name: 'Ann', guest: true, permissions: Number(req.get('x-permissions') ?? 0), valid_until: '2100-01-01T00:00:00Z' };
    next();
  });
  app.use('/api', api);
  app.use('/api', apiNotFound);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function call(method: string, path: string, body?: unknown, user = 'u1') {
  const res = await fetch(base + path, {
    method,
    headers: { ...(user ? { 'x-user': user } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('routes registered from the table', () => {
  it('derives the Express path from the documented one', () => {
    expect(expressPath(GAME_ROUTES.guessFor)).toBe('/games/:id/guess/:player');
    expect(expressPath(GAME_ROUTES.addLocalPlayer)).toBe('/games/:id/join/*name');
  });

  it('hands the handler the parsed parameters and body', async () => {
    received.length = 0;
    const ok = await call('POST', '/api/games/AbCd1234/confirm', { confirm: true });
    expect(ok).toEqual({ status: 200, body: { echoed: { params: { id: 'AbCd1234' }, body: { confirm: true } } } });
    const guess = await call('POST', '/api/games/AbCd1234/guess/3f0c2a9e-8d4b-4f7a-9c1e-5b6d7e8f9a0b');
    // an absent optional body is read as {}, and the schema's output (slot null) is what arrives
    expect(guess.status).toBe(200);
    expect(received.at(-1)).toMatchObject({ params: { id: 'AbCd1234', player: '3f0c2a9e-8d4b-4f7a-9c1e-5b6d7e8f9a0b' } });
    const local = await call('PATCH', '/api/games/AbCd1234/join/Zed/Zoe', {});
    expect(local.status).toBe(200);
    expect(received.at(-1)).toMatchObject({ params: { id: 'AbCd1234', name: 'Zed/Zoe' } });
  });

  it("refuses input that fails the entry's schemas with the standard 400 body, before the handler", async () => {
    received.length = 0;
    const badId = await call('POST', '/api/games/nope/confirm', { confirm: true });
    expect(badId).toEqual({ status: 400, body: { type: 'error', code: 'invalid_input', message: 'id must be 8 letters or digits' } });
    const badPlayer = await call('POST', '/api/games/AbCd1234/guess/nobody', {});
    expect(badPlayer.body).toEqual({ type: 'error', code: 'invalid_input', message: 'player must be a UUID' });
    const badBody = await call('POST', '/api/games/AbCd1234/confirm', { confirm: 'yes' });
    const expected = parseInput(GAME_ROUTES.confirm.body.schema, { confirm: 'yes' }, 'body');
    expect(expected.ok).toBe(false);
    expect(badBody).toEqual({ status: 400, body: !expected.ok && expected.error });
    // a required body may not be left out
    const noBody = await call('POST', '/api/games/AbCd1234/confirm');
    expect(noBody.status).toBe(400);
    expect(received).toEqual([]);
  });

  it('checks the access the entry names', async () => {
    expect(await call('POST', '/api/games/AbCd1234/confirm', { confirm: true }, '')).toEqual({
      status: 401,
      body: { type: 'error', code: 'unauthenticated', message: 'not authenticated' },
    });
    // `optional` lets anybody in
    expect((await call('GET', '/api/games/AbCd1234', undefined, '')).status).toBe(200);
  });

  it('routes nothing undeclared: another method or path is the API 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/games/AbCd1234/confirm'],
      ['POST', '/api/games/AbCd1234'],
      ['POST', '/api/games/AbCd1234/confirm/extra'],
    ] as const) {
      const res = await call(method, path, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('the checks in front of a route, in the order the router gives', () => {
  const send = async (method: string, path: string, permissions: number, body?: string, type = 'application/json') => {
    steps.length = 0;
    const res = await fetch(base + path, { method, headers: { 'x-user': 'u1', 'x-permissions': String(permissions), 'content-type': type }, ...(body === undefined ? {} : { body }) });
    return { status: res.status, body: (await res.json()) as unknown, steps: [...steps] };
  };

  it('checks the permission before a limiter placed after it: a refused caller does not count', async () => {
    const url = JSON.stringify({ url: 'https://other.example/hits.yml' });
    expect(await send('POST', '/api/hits/import-url', 0, url)).toEqual({ status: 403, body: { type: 'error', code: 'permission_denied', message: 'permission denied' }, steps: [] });
    expect(await send('POST', '/api/hits/import-url?apply=1', Permission.WRITE_HITS, url)).toEqual({
      status: 200,
      body: { echoed: { params: {}, query: { apply: true }, body: { url: 'https://other.example/hits.yml' } } },
      steps: ['limit'],
    });
  });

  it('runs a handler of the chain only for a caller who may call the route, and parses the query after it', async () => {
    expect((await send('POST', '/api/hits/import', 0, 'hits: []\n', 'application/x-yaml')).steps).toEqual([]);
    expect(await send('POST', '/api/hits/import?apply=maybe', Permission.WRITE_HITS, 'hits: []\n', 'application/x-yaml')).toEqual({
      status: 400,
      body: { type: 'error', code: 'invalid_input', message: 'apply must be true or false' },
      steps: ['body'],
    });
  });

  it('leaves out the access check a chain does not name (a public export)', async () => {
    const res = await fetch(`${base}/api/hits/export?query=abba`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: { params: {}, query: { query: 'abba' } } });
  });
});

describe('the real server, whose routers are registered from the table', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await bootServer();
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('still answers the trailing-slash spellings the reference server clients use', async () => {
    const ann = await User.guest(t.base);
    expect((await ann.request('GET', '/api/games/')).status).toBe(200);
    const created = await ann.request('POST', '/api/games/', {});
    expect(created.status).toBe(201);
    expect((await ann.request('GET', `/api/games/${(created.body as { id: string }).id}/`)).status).toBe(200);
    // routed (the permission answers), not the API's 404
    expect((await ann.request('POST', '/api/hits/', {})).body).toMatchObject({ code: 'permission_denied' });
  });

  it("answers a table entry's bad input with the standard 400 body, and an undeclared method with the API 404", async () => {
    const ann = await User.guest(t.base);
    expect(await ann.request('PATCH', '/api/hits/packs/nope', { name: 'x' })).toMatchObject({ status: 403 });
    const bad = await ann.request('GET', '/api/users/not-a-uuid');
    expect(bad).toMatchObject({ status: 400, body: { type: 'error', code: 'invalid_input', message: 'id must be a UUID' } });
    const undeclared = await ann.request('PUT', '/api/games/AbCd1234/start');
    expect(undeclared).toMatchObject({ status: 404, body: { type: 'error', code: 'not_found' } });
  });
});
