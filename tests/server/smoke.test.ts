import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootServer, SseReader, User, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await bootServer();
});
afterAll(async () => {
  await t?.stop();
});

describe('smoke', () => {
  it('creates, joins and starts a game over REST', async () => {
    const alice = await User.guest(t.base);
    const bob = await User.guest(t.base);
    const created = await alice.request('POST', '/api/games', { mode: 'Public' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const sse = new SseReader(`${t.base}/api/games/${id}/events`);
    await sse.until((e) => e.some((x) => x.event === 'snapshot'));
    expect((await bob.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
    const start = await alice.request('PATCH', `/api/games/${id}/start`);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    await sse.until((e) => e.some((x) => x.event === 'change_state' && x.data.state === 'Guessing'));
    const room = await alice.joinRoom(t.ws, id);
    await new Promise((r) => setTimeout(r, 200));
    expect((room.state as any).state).toBe('Guessing');
    sse.close();
    await room.leave();
  });

  it('sends no CORS headers: the API is for its own origin', async () => {
    const r = await fetch(`${t.base}/api/games`, { headers: { origin: 'https://evil.example' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
