/**
 * Phones playing the seats of a Local game (docs/rules.md#local), against the
 * real server: REST over HTTP, rooms over WebSocket (Colyseus SDK clients),
 * and a real server process restarted on its SQLite database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { Client, type Room } from '@colyseus/sdk';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndKeep, type LinkStatus, type RoomLink } from '../../client/src/net/rejoin.ts';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { roomStateToPayload } from '../../shared/protocol/room.ts';
import type { Game } from '../../shared/rules/index.ts';
import { bootServer, freePort, spawnServer, User, waitFor, writeCatalogue, type ServerProcess, type TestServer } from './harness.ts';

/** Everything a socket received: its state after each patch, its events and refusals. */
interface Socket {
  room: Room;
  seen: string[];
  errors: { code: string }[];
}

function watch(room: Room): Socket {
  const s: Socket = { room, seen: [], errors: [] };
  room.onStateChange(() => s.seen.push(JSON.stringify(room.state.toJSON())));
  room.onMessage('event', (e: unknown) => s.seen.push(JSON.stringify(e)));
  room.onMessage('error', (e: { code: string }) => {
    s.errors.push(e);
    s.seen.push(JSON.stringify(e));
  });
  return s;
}

/** The client's view of the room state, as the web client reads it; null until its first state arrived. */
function stateOf(room: Room) {
  const parsed = roomStateToPayload(room.state?.toJSON());
  return parsed.ok ? parsed.data.game : null;
}

describe('phones with the seat key', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await bootServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  const game = (id: string): Game => (matchMaker.getLocalRoomById(id) as GameRoom).game;

  it("view the Local game, take seats, play them, and never see the key anywhere but the creator's seat-key answer", async () => {
    const [alice, bob, carol, dan] = await Promise.all([User.guest(t.base), User.guest(t.base), User.guest(t.base), User.guest(t.base)]);
    const created = await alice.request('POST', '/api/games', { mode: 'Local', settings: { goal: 10, start_tokens: 3 } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const answers: string[] = [JSON.stringify(created.body)];
    const record = async <T>(reply: Promise<{ status: number; body: T }>) => {
      const r = await reply;
      answers.push(JSON.stringify(r.body));
      return r;
    };
    expect((await record(alice.request('PATCH', `/api/games/${id}/join/Bo`))).status).toBe(200);
    const bo = game(id).players[1]!.id;

    // the key: the creator's alone
    const keyReply = await alice.request('GET', `/api/games/${id}/seat-key`);
    expect(keyReply.status).toBe(200);
    expect(keyReply.headers.get('cache-control')).toBe('no-store');
    const key = keyReply.body.key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await record(bob.request('GET', `/api/games/${id}/seat-key`))).body).toMatchObject({ code: 'game_not_found' });
    const pub = await alice.request('POST', '/api/games', { mode: 'Public' });
    expect((await alice.request('GET', `/api/games/${pub.body.id}/seat-key`)).body).toMatchObject({ code: 'local_only_seat_key' });
    expect((await alice.request('GET', `/api/games/${pub.body.id}/seat-key`)).status).toBe(409);

    // viewing: only with the key
    expect((await record(bob.request('GET', `/api/games/${id}`))).status).toBe(404);
    expect((await record(bob.request('GET', `/api/games/${id}?key=${key.slice(0, -1)}A`))).status).toBe(404);
    const viewed = await record(bob.request('GET', `/api/games/${id}?key=${key}`));
    expect(viewed.status).toBe(200);
    expect(viewed.body.players.map((p: { name: string; controller: unknown }) => [p.name, p.controller])).toEqual([
      [alice.name, null],
      ['Bo', null],
    ]);
    await expect(bob.joinRoom(t.ws, id)).rejects.toMatchObject({ code: 404 });
    await expect(bob.colyseus(t.ws).joinById(id, { key: 'not-the-key-at-all-000000' })).rejects.toMatchObject({ code: 404 });
    const a = watch(await alice.joinRoom(t.ws, id));
    const b = watch(await bob.colyseus(t.ws).joinById(id, { key }));

    // bob takes Bo over the room, carol adds Cy over REST, dan takes Bo from bob (the newest phone wins), then bob gets Bo back
    b.room.send('control', { key, player: bo });
    await waitFor(() => stateOf(b.room)?.players[1]?.controller === bob.id, 5000, "bob's phone plays Bo");
    expect(stateOf(a.room)?.players[1]?.controller).toBe(bob.id);
    expect((await record(bob.request('GET', `/api/games/${id}/seat-key`))).body).toMatchObject({ code: 'creator_only_seat_key' });
    // bob may now view without the key: he plays a seat
    expect((await record(bob.request('GET', `/api/games/${id}`))).status).toBe(200);
    const added = await record(carol.request('POST', `/api/games/${id}/control`, { key, name: 'Cy', avatar: '🦊' }));
    expect(added.body).toEqual({ type: 'success', message: 'seat taken successfully' });
    const cy = game(id).players[2]!;
    expect(cy).toMatchObject({ name: 'Cy', virtual: true, avatar: '🦊', controller: carol.id });
    expect((await record(dan.request('POST', `/api/games/${id}/control`, { key: 'wrong-key-wrong-key-0001', player: bo }))).body).toMatchObject({ code: 'game_not_found' });
    expect((await record(dan.request('POST', `/api/games/${id}/control`, { key, player: bo }))).status).toBe(200);
    expect(game(id).players[1]!.controller).toBe(dan.id);
    expect((await record(alice.request('POST', `/api/games/${id}/control`, { key, player: bo }))).body).toMatchObject({ code: 'controller_is_player' });
    expect((await record(dan.request('POST', `/api/games/${id}/release`, { player: bo }))).status).toBe(200);
    expect(game(id).players[1]!.controller).toBeNull();
    expect((await record(dan.request('POST', `/api/games/${id}/release`, { player: bo }))).body).toMatchObject({ code: 'game_not_found' });
    b.room.send('control', { key, player: bo });
    await waitFor(() => game(id).players[1]!.controller === bob.id, 5000, 'bob plays Bo again');
    expect((await record(dan.request('POST', `/api/games/${id}/control`, { key: 'short', player: bo }))).body).toMatchObject({ code: 'invalid_input' });

    // play: each phone acts for its own seat, the creator for his and confirms
    expect((await record(alice.request('PATCH', `/api/games/${id}/start`))).status).toBe(200);
    let phoneMoves = 0;
    for (let turn = 0; turn < 6; turn++) {
      const g = game(id);
      const mover = g.players.find((p) => p.turn_player)!;
      if (mover.id === bo) {
        // a phone acts for no other seat
        b.room.send('guess', { slot: 1, player: cy.id });
        await waitFor(() => b.errors.some((e) => e.code === 'own_seat_only'), 5000, 'own_seat_only');
        b.room.send('guess', { slot: 1, player: bo });
        phoneMoves++;
      } else if (mover.id === cy.id) {
        // REST without {player}: the seat the phone plays
        expect((await record(carol.request('POST', `/api/games/${id}/guess`, { id: 1 }))).status).toBe(200);
        phoneMoves++;
      } else expect((await record(alice.request('POST', `/api/games/${id}/guess`, { id: 1 }))).status).toBe(200);
      await waitFor(() => game(id).state !== 'Guessing', 5000, 'placed');
      for (const p of game(id).players.filter((q) => q.state === 'Intercepting')) {
        const phone = p.id === bo ? bob : p.id === cy.id ? carol : alice;
        expect((await record(phone.request('POST', `/api/games/${id}/guess/${p.id}`, { id: null }))).status).toBe(200);
      }
      expect((await record(alice.request('POST', `/api/games/${id}/confirm`, { confirm: false }))).status).toBe(200);
      await waitFor(() => game(id).state === 'Guessing' || game(id).state === 'Open', 5000, 'next turn');
    }
    expect(phoneMoves).toBeGreaterThan(1);
    await waitFor(() => stateOf(b.room)?.draws === game(id).draws, 5000, 'bob synced');

    // the key was in no state, event, refusal or answer (the lobby list and the game's SSE snapshot included)
    answers.push(JSON.stringify((await alice.request('GET', '/api/games')).body));
    answers.push(JSON.stringify((await bob.request('GET', `/api/games/${id}?key=${key}`)).body));
    for (const text of [...a.seen, ...b.seen, ...answers]) expect(text).not.toContain(key);
    expect(a.seen.length + b.seen.length).toBeGreaterThan(20);
    await Promise.all([a.room.leave(), b.room.leave()]);
  });
});

describe('a restart', () => {
  let dir: string;
  let port: number;
  let server: ServerProcess | undefined;
  const base = () => `http://127.0.0.1:${port}`;
  const links: RoomLink[] = [];
  const start = async () => {
    server = await spawnServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      DEMO_CATALOGUE: join(dir, 'hits.yml'),
      CLIENT_DIR: join(dir, 'no-client'),
      AUDIO_DIR: join(dir, 'audio'),
      LOG_LEVEL: 'info',
      ARGON2_MEMORY_KIB: '1024',
      RATE_LIMIT_FACTOR: '0',
    });
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hitline-seats-'));
    writeCatalogue(dir);
    port = await freePort();
    await start();
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => Promise.race([l.leave(), new Promise((r) => setTimeout(r, 1000))])));
    if (server) await server.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);

  it('keeps the seat key and the controllers; a phone rejoins with its key; a stored Local game without a key gets one', async () => {
    const [alice, bob] = await Promise.all([User.guest(base()), User.guest(base())]);
    const id = (await alice.request('POST', '/api/games', { mode: 'Local' })).body.id as string;
    await alice.request('PATCH', `/api/games/${id}/join/Bo`);
    const key = (await alice.request('GET', `/api/games/${id}/seat-key`)).body.key as string;
    expect((await bob.request('POST', `/api/games/${id}/control`, { key, name: 'Cy' })).status).toBe(200);
    const statuses: LinkStatus[] = [];
    const rooms: Room[] = [];
    const client = new Client(base(), { headers: { cookie: bob.cookieHeader() } });
    // as client/src/routes/game/use-game-room.ts does: every rejoin presents the key again
    const link = await joinAndKeep({
      join: () => client.joinById(id, { key }),
      onRoom: (room) => {
        room.reconnection.minUptime = 0;
        room.onMessage('event', () => undefined);
        room.onMessage('error', () => undefined);
        rooms.push(room);
      },
      onStatus: (s) => statuses.push(s),
      minDelayMs: 100,
      maxDelayMs: 500,
    });
    links.push(link);
    await waitFor(() => link.room.state?.id === id, 5000, 'initial state');
    // a second Local game, stored as games were before seat keys
    const old = (await alice.request('POST', '/api/games', { mode: 'Local' })).body.id as string;

    await server!.stop('SIGTERM');
    server = undefined;
    const db = new Sqlite(join(dir, 'db.sqlite'));
    db.prepare("update games set base = json_remove(base, '$.seat_key') where id = ?").run(old);
    db.close();
    await start();

    expect((await alice.request('GET', `/api/games/${id}/seat-key`)).body).toEqual({ key });
    const seen = await bob.request('GET', `/api/games/${id}?key=${key}`);
    expect(seen.body.players.map((p: { name: string; controller: unknown }) => [p.name, p.controller])).toEqual([
      [alice.name, null],
      ['Bo', null],
      ['Cy', bob.id],
    ]);
    // without the key too: the phone plays a seat of the game
    expect((await bob.request('GET', `/api/games/${id}`)).status).toBe(200);
    await waitFor(() => rooms.length >= 2 && link.room.state?.id === id, 20_000, 'the phone rejoined');
    expect(statuses.at(-1)).toBe('connected');
    expect(stateOf(link.room)?.players[2]?.controller).toBe(bob.id);

    const oldKey = await alice.request('GET', `/api/games/${old}/seat-key`);
    expect(oldKey.status).toBe(200);
    expect(oldKey.body.key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(oldKey.body.key).not.toBe(key);
    // stored with it, so the next restart keeps it
    const check = new Sqlite(join(dir, 'db.sqlite'), { readonly: true });
    const row = check.prepare("select json_extract(base, '$.seat_key') as k from games where id = ?").get(old) as { k: string | null };
    check.close();
    expect(row.k).toBe(oldKey.body.key);
    expect(server!.output()).not.toContain(key);
  }, 60_000);
});
