import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAME_STREAM_EVENT_NAMES, GLOBAL_EVENT_NAMES } from '../../shared/protocol/index.ts';
import { ERRORS } from '../../shared/rules/index.ts';
import { configureApp } from '../../server/app.ts';
import { apiNotFound } from '../../server/http/errors.ts';
import { API_DOCS_PATH, OPENAPI_PATH, apiDocsRouter, buildOpenApiDocument } from '../../server/http/openapi.ts';
import { securityHeaders } from '../../server/http/security.ts';
import { bootServer, User, type TestServer } from './harness.ts';

/**
 * The API reference (docs/api.md#b1): the generated OpenAPI document must cover every
 * endpoint with the shared schemas, and the Swagger UI page must work under our CSP
 * (same-origin files only, nothing inline), checked over real HTTP.
 */

type Json = Record<string, unknown>;

const doc = buildOpenApiDocument() as unknown as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const schemas = (doc.components as Json).schemas as Record<string, Json>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Routes whose code does not exist yet: they must say so. */
/** Operations documented before they are built (none at the moment). */
const PLANNED: string[] = [];

function operations(): Array<{ key: string; path: string; method: string; op: Json }> {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method} ${path}`, path, method, op })),
  );
}

function op(method: string, path: string): Json {
  const found = paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

/** Follows one `$ref` into components.schemas. */
function deref(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = schemas[name];
  if (!target) throw new Error(`dangling ${ref}`);
  return deref(target);
}

function jsonBodySchema(o: Json): Json {
  const content = (o.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  const schema = content?.['application/json']?.schema as Json | undefined;
  if (!schema) throw new Error('no JSON request body');
  return schema;
}

function responseSchema(o: Json, status: string, type = 'application/json'): Json {
  const response = (o.responses as Record<string, Json>)[status];
  const schema = ((response?.content as Record<string, Json> | undefined)?.[type])?.schema as Json | undefined;
  if (!schema) throw new Error(`no ${type} schema for ${status}`);
  return schema;
}

/** Every `$ref` string anywhere in `value`. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.x document about Hitline', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect((doc.info as Json).title).toBe('Hitline API');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('is deterministic', () => {
    expect(buildOpenApiDocument()).toEqual(doc);
  });

  it('has the endpoints of every area with their methods', () => {
    // the operations themselves are checked against the routes the real app mounts (below)
    const keys = operations().map((o) => o.key);
    expect(keys.length).toBeGreaterThanOrEqual(43);
    for (const key of ['get /api/users/auth', 'post /api/games', 'patch /api/games/{id}/join/{name}', 'get /api/events', 'get /api/games/{id}/hit/{hit}', 'post /api/hits/import-url', 'post /api/hits/{hitId}/issues', 'delete /api/hits/{hitId}/issues/{issueId}', 'get /api/reports', ...PLANNED]) {
      expect(keys, key).toContain(key);
    }
  });

  it('resolves every $ref', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(50);
    for (const ref of all) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined();
    }
  });

  it('names the shared schemas as components', () => {
    for (const name of ['GamePayload', 'PlayerPayload', 'HitPayload', 'Slot', 'Settings', 'SettingsUpdate', 'GameList', 'UserPayload', 'ErrorBody', 'SuccessBody', 'PackList', 'HitSearchReply', 'GameStreamEvent', 'GlobalEvent']) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(refs(schemas.GamePayload)).toContain('#/components/schemas/PlayerPayload');
  });

  it('declares every path parameter, required, and no stray ones', () => {
    for (const { key, path, op: o } of operations()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = ((o.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), key).toEqual([...inPath].sort());
      for (const p of declared) expect(p.required, `${key} ${String(p.name)}`).toBe(true);
    }
  });

  it('gives every operation a unique operationId, a tag and a summary', () => {
    const ids = operations().map(({ op: o }) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op: o } of operations()) {
      expect(typeof o.operationId, key).toBe('string');
      expect((o.tags as string[] | undefined)?.length, key).toBeGreaterThan(0);
      expect(typeof o.summary, key).toBe('string');
    }
  });

  it('uses the shared request bodies', () => {
    expect(jsonBodySchema(op('patch', '/api/games/{id}/update'))).toEqual({ $ref: '#/components/schemas/SettingsUpdate' });
    expect(jsonBodySchema(op('post', '/api/games'))).toEqual({ $ref: '#/components/schemas/CreateGameBody' });
    expect(jsonBodySchema(op('post', '/api/games/{id}/guess'))).toEqual({ $ref: '#/components/schemas/GuessBody' });
    expect(jsonBodySchema(op('post', '/api/games/{id}/guess/{player}'))).toEqual({ $ref: '#/components/schemas/GuessBody' });
    expect(jsonBodySchema(op('post', '/api/games/{id}/confirm'))).toEqual({ $ref: '#/components/schemas/ConfirmBody' });
    expect(jsonBodySchema(op('post', '/api/users/login'))).toEqual({ $ref: '#/components/schemas/LoginBody' });
    expect(jsonBodySchema(op('post', '/api/users/register'))).toEqual({ $ref: '#/components/schemas/RegisterBody' });
    expect(jsonBodySchema(op('post', '/api/hits'))).toEqual({ $ref: '#/components/schemas/HitBody' });
    expect(jsonBodySchema(op('post', '/api/hits/packs'))).toEqual({ $ref: '#/components/schemas/PackBody' });
    // the create body is optional as a whole (the reference server: missing body = defaults)
    expect((op('post', '/api/games').requestBody as Json).required).toBe(false);
    // so is the join's (the reference server's clients send none); the avatar route needs one
    for (const path of ['/api/games/{id}/join', '/api/games/{id}/join/{name}']) {
      expect(jsonBodySchema(op('patch', path)), path).toEqual({ $ref: '#/components/schemas/JoinBody' });
      expect((op('patch', path).requestBody as Json).required, path).toBe(false);
    }
    for (const path of ['/api/games/{id}/avatar', '/api/games/{id}/avatar/{player}']) {
      expect(jsonBodySchema(op('patch', path)), path).toEqual({ $ref: '#/components/schemas/AvatarBody' });
      expect((op('patch', path).requestBody as Json).required, path).toBe(true);
    }
    expect(jsonBodySchema(op('patch', '/api/users/me'))).toEqual({ $ref: '#/components/schemas/UpdateMeBody' });
  });

  it('documents the import by address: its body, the report with its source, and why an address is refused', () => {
    const o = op('post', '/api/hits/import-url');
    expect(deref(jsonBodySchema(o) as Json)).toMatchObject({ required: ['url'], properties: { url: { maxLength: 2048 }, sha256: { pattern: '^[0-9a-f]{64}$' } } });
    expect(deref(responseSchema(o, '200') as Json)).toMatchObject({ required: expect.arrayContaining(['ok', 'applied', 'summary', 'source']) });
    const responses = o.responses as Record<string, Json>;
    for (const code of ['address_refused', 'address_scheme', 'address_invalid', 'import_rejected', 'invalid_input']) expect(responses['400']?.description, code).toContain(code);
    expect(responses['403']?.description).toContain('needs write_hits');
    expect(responses['409']?.description).toContain('import_source_changed');
    expect(responses['413']?.description).toContain('body_too_large');
    expect(responses['429']).toBeDefined();
    expect(responses['502']?.description).toContain('not_a_catalogue');
    expect(responses['504']?.description).toContain('fetch_timeout');
    expect(String(o.description)).toContain('IMPORT_ALLOW_PRIVATE');
    expect(String(op('get', '/api/hits/export').description)).toContain('EXPORT_PUBLIC=true');
  });

  it('carries the validation rules of the schemas (settings: goal 1..100, unknown fields refused)', () => {
    const settings = deref(jsonBodySchema(op('patch', '/api/games/{id}/update')));
    expect(settings.additionalProperties).toBe(false);
    const goal = (settings.properties as Record<string, Json>).goal as Json;
    // null means "unchanged", so the integer is one branch of the union
    const integer = ((goal.anyOf as Json[] | undefined) ?? [goal]).find((s) => s.type === 'integer');
    expect(integer).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });

    const login = deref(jsonBodySchema(op('post', '/api/users/login')));
    expect((login.properties as Record<string, Json>).username).toMatchObject({ minLength: 3, maxLength: 32 });
    expect((login.properties as Record<string, Json>).password).toMatchObject({ minLength: 8, maxLength: 256 });
    expect(login.required).toEqual(expect.arrayContaining(['username', 'password']));

    const gameId = (op('get', '/api/games/{id}').parameters as Json[]).find((p) => p.name === 'id')?.schema as Json;
    expect(gameId.pattern).toBe('^[A-Za-z0-9]{8}$');
  });

  it('describes the search query with its limits', () => {
    const params = op('get', '/api/hits/search').parameters as Json[];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['amount', 'filters', 'packs', 'query', 'sort_by', 'sort_direction', 'start']);
    for (const p of params) expect(p.in).toBe('query');
    for (const p of params) expect(p.required, String(p.name)).toBeUndefined();
    expect(byName.amount?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 50 });
    expect(byName.start?.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(byName.sort_by?.schema).toMatchObject({ type: 'array', items: { enum: ['title', 'artist', 'belongs_to', 'year'] } });
    expect(responseSchema(op('get', '/api/hits/search'), '200')).toEqual({ $ref: '#/components/schemas/HitSearchReply' });
  });

  it('uses the shared response bodies', () => {
    expect(responseSchema(op('get', '/api/games'), '200')).toEqual({ $ref: '#/components/schemas/GameList' });
    expect(responseSchema(op('post', '/api/games'), '201')).toEqual({ $ref: '#/components/schemas/GamePayload' });
    expect(responseSchema(op('get', '/api/games/{id}'), '200')).toEqual({ $ref: '#/components/schemas/GamePayload' });
    expect(responseSchema(op('post', '/api/users/login'), '200')).toEqual({ $ref: '#/components/schemas/UserPayload' });
    expect(responseSchema(op('patch', '/api/users/me'), '200')).toEqual({ $ref: '#/components/schemas/CurrentUser' });
    const renamed = op('patch', '/api/users/me').responses as Record<string, Json>;
    expect(renamed['403']?.description).toContain('only guests can change their name');
    expect(renamed['409']?.description).toContain('username looks the same as one already in use');
    expect(responseSchema(op('get', '/api/hits/packs'), '200')).toEqual({ $ref: '#/components/schemas/PackList' });
    expect(responseSchema(op('patch', '/api/games/{id}/start'), '200')).toEqual({ $ref: '#/components/schemas/SuccessBody' });
    // a throttled login says how long to wait
    const limited = (op('post', '/api/users/login').responses as Record<string, Json>)['429'] as Json;
    expect((limited.headers as Json)['Retry-After']).toBeDefined();
    expect(limited.description).toContain('too many failed logins for this account');
    // The reference server: 201 with a Location header (no /api prefix)
    const created = (op('post', '/api/games').responses as Record<string, Json>)['201'] as Json;
    expect((created.headers as Json).Location).toBeDefined();
  });

  it('answers every error with the error body, with the statuses of docs/rules.md#a2', () => {
    // 412 and 416: HTTP's own answers to conditional and Range requests (the audio routes, docs/api.md#b10);
    // 502 and 504: a gateway's answers, when the import by address got no catalogue from the other server
    const allowed = new Set(['400', '401', '403', '404', '405', '409', '412', '413', '415', '416', '429', '502', '503', '504']);
    let errors = 0;
    for (const { key, op: o } of operations()) {
      for (const [status, response] of Object.entries(o.responses as Record<string, Json>)) {
        if (!/^[45]/.test(status)) continue;
        errors++;
        expect(allowed.has(status), `${key} ${status}`).toBe(true);
        expect(responseSchema(o, status), `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        expect(typeof response.description).toBe('string');
      }
    }
    expect(errors).toBeGreaterThan(100);
    expect(deref({ $ref: '#/components/schemas/ErrorBody' })).toMatchObject({ required: expect.arrayContaining(['type', 'code', 'message']) });
  });

  it('lists the engine errors of an action with their verbatim messages', () => {
    const responses = op('patch', '/api/games/{id}/start').responses as Record<string, Json>;
    expect(responses['409']?.description).toContain(ERRORS.not_enough_players[1]);
    expect(responses['403']?.description).toContain(ERRORS.creator_only_start[1]);
    expect(responses['404']?.description).toContain(ERRORS.game_not_found[1]);
    const examples = ((responses['409']?.content as Record<string, Json>)['application/json'] as Json).examples as Record<string, { value: Json }>;
    expect(examples.not_enough_players?.value).toEqual({ type: 'error', code: 'not_enough_players', message: ERRORS.not_enough_players[1] });
    // the guess of a Local player adds the creator-only and local-only refusals
    const guessFor = op('post', '/api/games/{id}/guess/{player}').responses as Record<string, Json>;
    expect(guessFor['403']?.description).toContain(ERRORS.local_only_guess[1]);
    expect(guessFor['404']?.description).toContain(ERRORS.player_not_found[1]);
  });

  it('describes the session cookie and requires it where a login is needed', () => {
    expect(((doc.components as Json).securitySchemes as Json).session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'id' });
    for (const { key, method, op: o } of operations()) {
      const security = o.security as Array<Record<string, unknown>> | undefined;
      const mutating = method !== 'get';
      if (mutating && key !== 'post /api/users/login') {
        expect(security, key).toEqual([{ session: [] }]);
        expect((o.responses as Json)['401'], key).toBeDefined();
      }
      if (security) expect(security.some((s) => 'session' in s), key).toBe(true);
    }
    expect(op('get', '/api/users/me').security).toEqual([{ session: [] }]);
    expect(op('get', '/api/users/auth').security).toBeUndefined();
  });

  it('describes both event streams as text/event-stream with every event name', () => {
    const game = op('get', '/api/games/{id}/events');
    expect(responseSchema(game, '200', 'text/event-stream')).toEqual({ $ref: '#/components/schemas/GameStreamEvent' });
    for (const name of GAME_STREAM_EVENT_NAMES) expect(game.description).toContain(`\`${name}\``);
    const global = op('get', '/api/events');
    expect(responseSchema(global, '200', 'text/event-stream')).toEqual({ $ref: '#/components/schemas/GlobalEvent' });
    for (const name of GLOBAL_EVENT_NAMES) expect(global.description).toContain(`\`${name}\``);
  });

  it('marks the endpoints not built yet as planned, and only those', () => {
    for (const { key, op: o } of operations()) {
      const isPlanned = PLANNED.includes(key);
      expect(o['x-planned'] === true, key).toBe(isPlanned);
      expect(String(o.description ?? '').includes('Planned'), key).toBe(isPlanned);
    }
  });
});

describe('API reference over HTTP', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(securityHeaders());
    app.use(apiDocsRouter());
    app.use('/api', apiNotFound);
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  });

  const get = (path: string) => fetch(base + path, { redirect: 'manual' });

  it('serves the document as JSON', async () => {
    const res = await get(OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
    // built once: the second answer is the same bytes
    const again = await get(OPENAPI_PATH);
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('serves the Swagger UI page with same-origin assets only, nothing inline', async () => {
    for (const path of [API_DOCS_PATH, `${API_DOCS_PATH}/`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await res.text();

      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      for (const [, attrs, body] of scripts) {
        expect(attrs, 'every script is a file').toMatch(/\ssrc="/);
        expect(body?.trim(), 'no inline script').toBe('');
      }
      expect(html).not.toMatch(/<style\b/);
      expect(html).not.toMatch(/\sstyle="/);
      expect(html).not.toMatch(/\son[a-z]+="/);

      const urls = [...html.matchAll(/<(?:script|link)\b[^>]*?\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
      const specUrl = /data-spec-url="([^"]+)"/.exec(html)?.[1];
      expect(specUrl).toBe(OPENAPI_PATH);
      expect(urls.some((u) => u.endsWith('.css'))).toBe(true);
      for (const url of [...urls, specUrl ?? '']) {
        // same origin: an absolute path, never another host or a protocol-relative URL
        expect(url, url).toMatch(/^\/(?!\/)/);
        const asset = await get(url);
        expect(asset.status, url).toBe(200);
        const type = asset.headers.get('content-type') ?? '';
        if (url.endsWith('.js')) expect(type, url).toMatch(/javascript/);
        if (url.endsWith('.css')) expect(type, url).toMatch(/^text\/css/);
        await asset.arrayBuffer();
      }
    }
  });

  it('serves our own initializer, pointed at the document by the page', async () => {
    const res = await get(`${API_DOCS_PATH}/swagger-initializer.js`);
    expect(res.status).toBe(200);
    const js = await res.text();
    expect(js).toContain('SwaggerUIBundle(');
    expect(js).toContain('data-spec-url');
    expect(js).not.toContain('petstore');
  });

  it('redirects /api and /api/ to the page with 303', async () => {
    for (const path of ['/api', '/api/']) {
      const res = await get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(API_DOCS_PATH);
    }
  });

  it('serves nothing else of the Swagger UI package', async () => {
    for (const path of [`${API_DOCS_PATH}/index.html`, `${API_DOCS_PATH}/package.json`, `${API_DOCS_PATH}/swagger-initializer.jsx`, `${API_DOCS_PATH}/..%2Fpackage.json`, `${API_DOCS_PATH}/oauth2-redirect.html`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      await res.arrayBuffer();
    }
  });
});

describe('the document against the real server', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await bootServer();
  });

  afterAll(async () => {
    await t?.stop();
  });

  const GAME = 'AbCd1234';
  const UUID = '3f0c2a9e-8d4b-4f7a-9c1e-5b6d7e8f9a0b';

  /** A concrete URL for a documented path: well-formed ids of things that do not exist. */
  function concrete(path: string): string {
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'name') return 'Zed';
      if (name === 'id') return path.startsWith('/api/games') ? GAME : UUID;
      return UUID;
    });
  }

  /** Status and error code of one request as a fresh guest; streams are cut once their headers arrive. */
  async function probe(method: string, path: string): Promise<{ status: number; code?: string }> {
    const user = await User.guest(t.base);
    const abort = new AbortController();
    const mutating = method !== 'GET';
    const res = await fetch(t.base + path, {
      method,
      headers: { cookie: user.cookieHeader(), ...(mutating ? { 'content-type': 'application/json' } : {}) },
      ...(mutating ? { body: '{}' } : {}),
      redirect: 'manual',
      signal: abort.signal,
    });
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      abort.abort();
      return { status: res.status };
    }
    const text = await res.text();
    const body = text.startsWith('{') ? (JSON.parse(text) as { code?: string }) : {};
    return { status: res.status, ...(body.code ? { code: body.code } : {}) };
  }

  it('has a route for every operation not marked planned, and none for the planned ones', async () => {
    for (const { key, path, method } of operations()) {
      const answer = await probe(method.toUpperCase(), concrete(path));
      // the API's catch-all answers an unknown route with 404 "not_found"
      const routed = !(answer.status === 404 && answer.code === 'not_found');
      expect(routed, `${key} answered ${JSON.stringify(answer)}`).toBe(!PLANNED.includes(key));
    }
  });

  it('documents exactly the API routes the app mounts, and the planned ones besides', () => {
    // the app as the server builds it, walked layer by layer (Express 5 keeps each layer's path)
    interface LayerLike {
      rawPath?: unknown;
      route?: { path: string | string[]; methods: Record<string, boolean> };
      handle?: { stack?: LayerLike[] };
    }
    const app = express();
    const { config, log, hub, users, captcha, catalogue, reports, audio } = t.server;
    configureApp(app, { config, log, hub, users, captcha, catalogue, reports, audio });
    const mounted: string[] = [];
    const walk = (stack: LayerLike[], prefix: string): void => {
      for (const layer of stack) {
        const at = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        if (layer.route) {
          for (const path of [layer.route.path].flat()) {
            const full = `${prefix}${path}`.replace(/\/$/, '').replace(/[:*](\w+)/g, '{$1}');
            for (const method of Object.keys(layer.route.methods)) mounted.push(`${method} ${full}`);
          }
        } else if (layer.handle?.stack) walk(layer.handle.stack, prefix + at);
      }
    };
    walk((app as unknown as { router: { stack: LayerLike[] } }).router.stack, '');
    // the reference itself is not an API operation
    const docs = new Set(['get /api', `get ${OPENAPI_PATH}`, `get ${API_DOCS_PATH}`, `get ${API_DOCS_PATH}/{file}`]);
    const api = [...new Set(mounted)].filter((r) => / \/api(\/|$)/.test(r) && !docs.has(r));
    expect(api.length).toBeGreaterThan(20);
    const documented = new Set(operations().map((o) => o.key));
    expect(api.filter((r) => !documented.has(r)), 'mounted but not documented').toEqual([]);
    const routed = new Set(api);
    expect([...documented].filter((r) => !routed.has(r) && !PLANNED.includes(r)), 'documented but not mounted').toEqual([]);
    expect(PLANNED.filter((r) => routed.has(r)), 'planned but mounted').toEqual([]);
    expect([...docs].every((r) => mounted.includes(r)), 'the reference routes are mounted').toBe(true);
  });

  it('serves the reference from the real app', async () => {
    const json = await fetch(`${t.base}${OPENAPI_PATH}`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(JSON.parse(JSON.stringify(doc)));
    const page = await fetch(`${t.base}${API_DOCS_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    await page.text();
    const redirect = await fetch(`${t.base}/api/`, { redirect: 'manual' });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe(API_DOCS_PATH);
  });
});
