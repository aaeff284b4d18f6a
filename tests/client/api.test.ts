import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, BAD_REPLY, NETWORK_ERROR, refreshSession, request } from '../../client/src/net/api.ts';
import { createGame, listGames } from '../../client/src/net/games.ts';
import { json } from './render.tsx';
import { game as gameFixture } from './game-fixtures.ts';

/**
 * The fetch wrapper against a fake fetch (the real server is covered by the
 * server tests; these pin down the client's side of the contract).
 */

interface Call {
  url: string;
  init: RequestInit;
}

/** A fake fetch answering by path; records every call. */
function fakeFetch(answer: (url: string, n: number) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const perPath = new Map<string, number>();
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const n = (perPath.get(url) ?? 0) + 1;
    perPath.set(url, n);
    calls.push({ url, init });
    return answer(url, n);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

const game = gameFixture([], { packs: [] });

const unauthenticated = () => json({ type: 'error', code: 'unauthenticated', message: 'not authenticated' }, 401);
const authOk = () => json({ type: 'success', message: 'success' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request', () => {
  it('sends same-origin credentials, and JSON with its content type', async () => {
    const calls = fakeFetch(() => json(game, 201));
    const created = await createGame('Private');
    expect(created.id).toBe('AbCd1234');
    const [call] = calls;
    expect(call?.url).toBe('/api/games');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('same-origin');
    expect((call?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(call?.init.body).toBe(JSON.stringify({ mode: 'Private' }));
  });

  it('sends no body and no JSON content type on body-less calls', async () => {
    const calls = fakeFetch(() => json({ games: [] }));
    await listGames();
    expect(calls[0]?.init.body).toBeUndefined();
    expect((calls[0]?.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('turns an error body into an ApiError with code, message and status', async () => {
    fakeFetch(() => json({ type: 'error', code: 'game_full', message: 'the game is full (at most 10 players)' }, 409));
    const err = await createGame('Public').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'game_full', message: 'the game is full (at most 10 players)' });
  });

  it('reads how long to wait from Retry-After, in seconds or as a date', async () => {
    fakeFetch(() => json({ type: 'error', code: 'rate_limited', message: 'too many requests' }, 429, { 'Retry-After': '12' }));
    await expect(listGames()).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 12 });
    fakeFetch(() => json({ type: 'error', code: 'rate_limited', message: 'too many requests' }, 429, { 'Retry-After': new Date(Date.now() + 30_500).toUTCString() }));
    const err = (await listGames().catch((e: unknown) => e)) as ApiError;
    expect(err.retryAfter).toBeGreaterThanOrEqual(29);
    expect(err.retryAfter).toBeLessThanOrEqual(31);
    fakeFetch(() => json({ type: 'error', code: 'game_full', message: 'full' }, 409));
    await expect(listGames()).rejects.toMatchObject({ retryAfter: undefined });
  });

  it('gives a stand-in code for a non-JSON error and for a network failure', async () => {
    fakeFetch(() => new Response('<h1>Bad Gateway</h1>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(listGames()).rejects.toMatchObject({ status: 502, code: 'http_502' });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(listGames()).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
  });

  it('rejects a reply that breaks the wire contract', async () => {
    fakeFetch(() => json({ games: [{ id: 'nope' }] }));
    await expect(listGames()).rejects.toMatchObject({ code: BAD_REPLY });
  });

  it('on 401 re-authenticates once and repeats the request once', async () => {
    const calls = fakeFetch((url, n) => {
      if (url === '/api/users/auth') return authOk();
      return n === 1 ? unauthenticated() : json({ games: [game] });
    });
    const { games } = await listGames();
    expect(games).toHaveLength(1);
    expect(calls.map((c) => c.url)).toEqual(['/api/games/', '/api/users/auth', '/api/games/']);
  });

  it('does not loop on a persistent 401', async () => {
    const calls = fakeFetch((url) => (url === '/api/users/auth' ? authOk() : unauthenticated()));
    await expect(listGames()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(calls.map((c) => c.url)).toEqual(['/api/games/', '/api/users/auth', '/api/games/']);
  });

  it('shares one re-authentication among concurrent callers', async () => {
    let releaseAuth: () => void = () => undefined;
    const authGate = new Promise<void>((r) => (releaseAuth = r));
    const calls = fakeFetch(async (url, n) => {
      if (url === '/api/users/auth') {
        await authGate;
        return authOk();
      }
      return n <= 3 ? unauthenticated() : json({ games: [] });
    });
    const all = Promise.all([listGames(), listGames(), listGames()]);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === '/api/users/auth')).toHaveLength(1));
    releaseAuth();
    await all;
    expect(calls.filter((c) => c.url === '/api/users/auth')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/games/')).toHaveLength(6);
  });

  it('leaves 401 alone where it means wrong credentials', async () => {
    const calls = fakeFetch(() => json({ type: 'error', code: 'incorrect_credentials', message: 'incorrect user credentials' }, 401));
    await expect(request('/api/users/login', { method: 'POST', body: { username: 'a', password: 'b' }, retryOn401: false })).rejects.toMatchObject({
      code: 'incorrect_credentials',
    });
    expect(calls).toHaveLength(1);
  });

  it('refreshSession de-duplicates direct callers too', async () => {
    const calls = fakeFetch(() => authOk());
    await Promise.all([refreshSession(), refreshSession()]);
    expect(calls).toHaveLength(1);
    await refreshSession();
    expect(calls).toHaveLength(2);
  });
});

describe('api: calls typed by the route table', () => {
  it('puts each path parameter in its place, percent-encoded, with the method and body of the call', async () => {
    const calls = fakeFetch(() => json({ type: 'success', message: 'pack updated successfully' }));
    const reply = await api('patch', '/api/hits/packs/{packId}', { params: { packId: 'a b/c' }, body: { name: 'Rock' }, schema: (s) => s.SuccessBodySchema });
    expect(reply.message).toBe('pack updated successfully');
    expect(calls[0]?.url).toBe('/api/hits/packs/a%20b%2Fc');
    expect(calls[0]?.init.method).toBe('PATCH');
    expect(calls[0]?.init.body).toBe(JSON.stringify({ name: 'Rock' }));
  });

  it('appends the query and sends no body when the call has none', async () => {
    const calls = fakeFetch(() => json({ hits: 3, audio: 1, youtube: 0 }));
    await api('get', '/api/hits/playable', { query: new URLSearchParams([['packs', 'x'], ['packs', 'y']]), schema: (s) => s.PlayableCountsSchema });
    expect(calls[0]?.url).toBe('/api/hits/playable?packs=x&packs=y');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('lets the type checker refuse what the table does not declare', () => {
    // never called: `npm run typecheck` fails if any of these stops being an error
    const unchecked = () => {
      // @ts-expect-error no such operation
      void api('get', '/api/games/{id}/nothing', { params: { id: 'AbCd1234' }, schema: (s) => s.SuccessBodySchema });
      // @ts-expect-error the method is not the operation's
      void api('delete', '/api/games/{id}/start', { params: { id: 'AbCd1234' }, schema: (s) => s.SuccessBodySchema });
      // @ts-expect-error a missing path parameter
      void api('get', '/api/games/{id}', { schema: (s) => s.GamePayloadSchema });
      // @ts-expect-error a body of the wrong shape
      void api('post', '/api/games/{id}/confirm', { params: { id: 'AbCd1234' }, body: { confirm: 'yes' }, schema: (s) => s.SuccessBodySchema });
      // @ts-expect-error a reply schema that is not the operation's
      void api('get', '/api/games/{id}', { params: { id: 'AbCd1234' }, schema: (s) => s.GameListSchema });
    };
    expect(typeof unchecked).toBe('function');
  });
});
