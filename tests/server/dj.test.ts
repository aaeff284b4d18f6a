/**
 * The `dj` clue mode over the real server (issue 27 §2): the DJ's device asks
 * `GET /api/games/{id}/dj` for the hidden hit's video and offset and gets it,
 * everybody else gets 403; no other answer, room state, room message, raw
 * WebSocket frame or SSE event of any player (the DJ's own included) names the
 * hidden hit's video. An automatic game whose hits have no audio but videos
 * starts in dj mode. The client page's Content-Security-Policy allows the
 * configured IFrame Player API and player frames, API answers do not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import type { Room } from '@colyseus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { DjClipSchema } from '../../shared/protocol/game.ts';
import { roomStateToPayload } from '../../shared/protocol/room.ts';
import { type Game, type Hit, type Player } from '../../shared/rules/index.ts';
import { bootServer, PACK_ONE, SseReader, User, waitFor, writeCatalogue, type Reply, type TestServer } from './harness.ts';

/** Where the test says the player comes from (nothing listens there: the server only names it). */
const PLAYER_API = 'http://127.0.0.1:9/yt/iframe_api';
const PLAYER_HOST = 'http://127.0.0.1:9';

let t: TestServer;
let catalogueDir: string;
beforeAll(async () => {
  catalogueDir = mkdtempSync(join(tmpdir(), 'hitline-dj-'));
  // 200 hits, the first 120 with a video: no audio is ready anywhere
  const file = writeCatalogue(catalogueDir, 200, 120);
  t = await bootServer({ DEMO_CATALOGUE: file, YOUTUBE_IFRAME_API: PLAYER_API, YOUTUBE_PLAYER_HOST: PLAYER_HOST });
});
afterAll(async () => {
  for (const r of rooms) await Promise.race([r.leave().catch(() => undefined), new Promise((res) => setTimeout(res, 1000))]);
  await t?.stop();
  rmSync(catalogueDir, { recursive: true, force: true });
});

const engine = (id: string): Game => (matchMaker.getLocalRoomById(id) as GameRoom).game;
const turn = (g: Game) => g.players.find((p) => p.turn_player) as Player;

// ---------------------------------------------------------------------------
// everything a client receives, recorded

const rooms: Room[] = [];
interface Watched {
  label: string;
  room: Room;
  /** Every raw frame the socket received after the join, as latin1 text (ids are ASCII). */
  frames: string[];
  /** Every decoded room message. */
  messages: string[];
}

async function watch(label: string, user: User, gameId: string): Promise<Watched> {
  const room = await user.joinRoom(t.ws, gameId);
  rooms.push(room);
  const w: Watched = { label, room, frames: [], messages: [] };
  const conn = (room as unknown as { connection: { events: { onmessage: (e: MessageEvent) => void } } }).connection;
  const inner = conn.events.onmessage;
  conn.events.onmessage = (e: MessageEvent) => {
    const data = e.data as ArrayBuffer | Uint8Array | string;
    w.frames.push(typeof data === 'string' ? data : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('latin1'));
    inner(e);
  };
  room.onMessage('*', (type, payload) => w.messages.push(JSON.stringify([type, payload])));
  await waitFor(() => room.state?.id === gameId, 5000, `${label}: state`);
  return w;
}

/** Every body a REST client got, by what it asked. */
const bodies: { what: string; text: string }[] = [];
async function get(user: User | null, path: string): Promise<Reply> {
  const r = user ? await user.request('GET', path) : await anonymous(path);
  bodies.push({ what: `${user?.name ?? 'anonymous'} GET ${path}`, text: JSON.stringify(r.body) });
  return r;
}
async function anonymous(path: string): Promise<Reply> {
  const res = await fetch(t.base + path);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

async function act(user: User, method: string, path: string, body?: unknown): Promise<void> {
  const r = await user.request(method, path, body);
  bodies.push({ what: `${user.name} ${method} ${path}`, text: JSON.stringify(r.body) });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(200);
}

// ---------------------------------------------------------------------------

describe('the dj clue mode', () => {
  it('counts the hits a DJ can play: those with a YouTube id', async () => {
    const u = await User.guest(t.base);
    const r = await u.request('GET', `/api/hits/playable?packs=${PACK_ONE}`);
    expect(r.body).toEqual({ hits: 100, audio: 0, youtube: 60 });
  });

  it("gives the hidden hit's video to the DJ alone, and to nobody in any state, message, frame, event or answer", async () => {
    const [alice, bob, carol] = [await User.guest(t.base), await User.guest(t.base), await User.guest(t.base)];
    const created = await alice.request('POST', '/api/games', { settings: { clue_mode: 'dj', goal: 3, hit_duration: 9, start_tokens: 2, intercept_timeout: 0, confirm_timeout: 0 } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await act(bob, 'PATCH', `/api/games/${id}/join`);
    await act(carol, 'PATCH', `/api/games/${id}/join`);
    // Bob is the DJ and sits out; Carol plays over a socket, Alice over REST; a spectator reads the stream
    await act(alice, 'PATCH', `/api/games/${id}/update`, { dj: bob.id, dj_plays: false });
    const sockets = [await watch('bob (DJ)', bob, id), await watch('carol', carol, id)];
    const sse = new SseReader(`${t.base}/api/games/${id}/events`);
    await act(alice, 'PATCH', `/api/games/${id}/start`);
    const started = engine(id);
    expect(started.settings.clue_mode).toBe('dj');
    expect(started.dj).toEqual({ id: bob.id, plays: false });

    const seen = new Set<string>();
    let checks = 0;
    for (let step = 0; step < 14 && engine(id).state !== 'Open'; step++) {
      const g = engine(id);
      if (g.current) {
        const hidden = g.current;
        seen.add(hidden.yt_id!);
        // the DJ's device: the hidden hit's video, from its offset, for hit_duration seconds
        const dj = await get(bob, `/api/games/${id}/dj`);
        expect(dj.status).toBe(200);
        expect(dj.headers.get('cache-control')).toBe('no-store');
        expect(DjClipSchema.parse(dj.body)).toEqual({ draws: g.draws, yt_id: hidden.yt_id, start: hidden.playback_offset, seconds: 9, hidden: true, player_api: PLAYER_API, player_host: PLAYER_HOST });
        // everybody else: refused, without a word about the hit
        for (const who of [alice, carol, null]) {
          const r = await get(who, `/api/games/${id}/dj`);
          expect(r.status).toBe(403);
          expect(r.body).toEqual({ type: 'error', code: 'dj_only', message: "only the DJ's device receives the hidden hit's video" });
        }
        // the server has no audio of it to give
        expect((await get(carol, `/api/games/${id}/hit?draw=${g.draws}`)).body.code).toBe('no_audio_dj_mode');
        await get(alice, `/api/games/${id}`);
        await get(null, `/api/games/${id}`);
        await get(carol, '/api/games');
        checks++;
      }
      // play on: the turn player (never the DJ) places, the others decline, the confirmer agrees
      const tp = turn(g);
      expect(tp.id).not.toBe(bob.id);
      const user = [alice, carol].find((u) => u.id === tp.id)!;
      if (g.state === 'Guessing') {
        if (step === 1) await act(user, 'POST', `/api/games/${id}/skip`);
        else await act(user, 'POST', `/api/games/${id}/guess`, { id: 1 });
      } else if (g.state === 'Intercepting') {
        const p = g.players.find((q) => q.state === 'Intercepting')!;
        await act([alice, carol].find((u) => u.id === p.id)!, 'POST', `/api/games/${id}/guess`, { id: null });
      } else if (g.state === 'Confirming') {
        const c = g.players.find((q) => q.state === 'Confirming')!;
        await act([alice, bob, carol].find((u) => u.id === c.id)!, 'POST', `/api/games/${id}/confirm`, { confirm: true });
      }
    }
    expect(checks).toBeGreaterThanOrEqual(4);
    expect(seen.size).toBeGreaterThanOrEqual(3);
    // let the last patches and events arrive
    const seq = (matchMaker.getLocalRoomById(id) as GameRoom).seq;
    await waitFor(() => sockets.every((s) => s.room.state.seq === seq), 5000, 'sockets at the last seq');
    await sse.until((events) => events.some((e) => Number(e.id) === seq));
    sse.close();

    // nothing but the DJ's own answers ever named a hidden video: the raw frames and
    // messages of every socket (the DJ's too), the room states, the stream, every other answer
    const djAnswers = bodies.filter((b) => b.what.startsWith(`${bob.name} GET /api/games/${id}/dj`));
    expect(djAnswers.length).toBe(checks);
    const elsewhere = [
      ...sockets.flatMap((s) => [...s.frames.map((f) => [`${s.label} frame`, f]), ...s.messages.map((m) => [`${s.label} message`, m]), [`${s.label} state`, JSON.stringify(s.room.state.toJSON())]]),
      ...sse.events.map((e) => [`SSE ${e.event}`, JSON.stringify(e.data)]),
      ...bodies.filter((b) => !djAnswers.includes(b)).map((b) => [b.what, b.text]),
    ];
    expect(sockets.every((s) => s.frames.length > 10)).toBe(true);
    for (const video of seen) {
      for (const [what, text] of elsewhere) expect(text!.includes(video), `${what} names the video ${video}`).toBe(false);
      // positive control: the DJ's answers do name it
      expect(djAnswers.some((b) => b.text.includes(video))).toBe(true);
    }
    // the room state says who the DJ is, and that he sits out
    const shown = roomStateToPayload(sockets[1]!.room.state.toJSON());
    expect(shown.ok && shown.data.game.dj_seat).toEqual(engine(id).state === 'Open' ? null : { id: bob.id, plays: false });
  });

  it('an automatic game without audio but with videos starts with cards: a DJ plays only when the creator chose one', async () => {
    const start = async (settings: Record<string, unknown>) => {
      const alice = await User.guest(t.base);
      const created = await alice.request('POST', '/api/games', { settings: { goal: 2, ...settings } });
      const id = created.body.id as string;
      expect((await (await User.guest(t.base)).request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
      const r = await alice.request('PATCH', `/api/games/${id}/start`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const g = engine(id);
      return { mode: g.settings.clue_mode, dj: g.dj, alice, deck: [g.current!, ...g.deck] as Hit[] };
    };
    const auto = await start({});
    expect([auto.mode, auto.dj]).toEqual(['card', null]);
    const chosen = await start({ clue_mode: 'dj' });
    expect([chosen.mode, chosen.dj]).toEqual(['dj', { id: chosen.alice.id, plays: true }]);
    expect(chosen.deck.every((h) => !!h.yt_id)).toBe(true);
  });

  it('refuses a DJ who is not a player, and the dj mode in a Local game, with a clear 400', async () => {
    const alice = await User.guest(t.base);
    const game = await alice.request('POST', '/api/games', {});
    const stranger = await User.guest(t.base);
    const bad = await alice.request('PATCH', `/api/games/${game.body.id}/update`, { dj: stranger.id });
    expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'invalid_setting', 'dj must be the id of a player of this game, or empty for the creator']);
    const malformed = await alice.request('PATCH', `/api/games/${game.body.id}/update`, { dj: 'nobody' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_input']);
    const local = await alice.request('POST', '/api/games', { mode: 'Local', settings: { clue_mode: 'dj' } });
    expect([local.status, local.body.code]).toEqual([400, 'invalid_setting']);
    const notRunning = await alice.request('GET', `/api/games/${game.body.id}/dj`);
    expect([notRunning.status, notRunning.body.code]).toEqual([409, 'audio_not_running']);
    expect((await alice.request('GET', '/api/games/NoSuchGm/dj')).status).toBe(404);
    expect((await alice.request('GET', '/api/games/bad!/dj')).status).toBe(400);
  });
});

describe("the YouTube player's sources", () => {
  it("the client page allows the configured IFrame Player API and its frames; API answers keep 'self'", async () => {
    const page = await fetch(`${t.base}/games/AbCd1234`);
    await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' ${PLAYER_API} ${PLAYER_HOST}/s/player/`);
    expect(csp).toContain(`frame-src https://www.youtube-nocookie.com https://www.youtube.com ${PLAYER_HOST}/embed/`);
    expect(csp).toContain("frame-ancestors 'none'");
    const api = await fetch(`${t.base}/api/games`);
    await api.text();
    const apiCsp = api.headers.get('content-security-policy') ?? '';
    expect(apiCsp).toContain("default-src 'self'");
    expect(apiCsp).toContain("script-src 'self';");
    expect(apiCsp).not.toContain('iframe_api');
  });

  it("production defaults: YouTube's API script and privacy-enhanced player", async () => {
    const prod = await bootServer();
    try {
      const page = await fetch(`${prod.base}/`);
      await page.text();
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' https://www.youtube.com/iframe_api https://www.youtube.com/s/player/");
      // the player's host is allowed already (the hit editor's videos)
      expect(csp).toMatch(/frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/www\.youtube\.com(;|$)/);
    } finally {
      await prod.stop();
    }
  });

  it('refuses a player API that is not an http(s) URL', () => {
    expect(() => loadConfig({ YOUTUBE_IFRAME_API: 'javascript:alert(1)' })).toThrow(/YOUTUBE_IFRAME_API: an http\(s\) URL/);
    expect(() => loadConfig({ YOUTUBE_PLAYER_HOST: 'https://example.org/embed' })).toThrow(/YOUTUBE_PLAYER_HOST/);
    expect(loadConfig({}).YOUTUBE_IFRAME_API).toBe('https://www.youtube.com/iframe_api');
  });
});
