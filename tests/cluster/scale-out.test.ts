/**
 * Scale-out (issue 10): two real server processes (`node server/index.ts`, as an
 * operator runs them) on one PostgreSQL database and one Redis, started at the
 * same moment, and every path of the API through either of them: sessions, game
 * creation (on the process that got the request) and joining through the other
 * one with REST and the Colyseus SDK, the registration captcha (issued by one,
 * spent on the other), the lobby and the global stream on both, a
 * whole game played with REST actions through B and WebSocket messages for a room
 * on A while an SSE stream on B follows it, and a clean SIGTERM. Each process
 * announces a path of one reverse proxy as its PUBLIC_ADDRESS (tests/cluster/proxy.ts),
 * so the same processes also run "behind one address".
 *
 * Needs PostgreSQL and Redis: run through vitest.scale.config.ts (its global
 * setup starts both, or uses TEST_PG_URL and TEST_REDIS_URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AltchaChallengeSchema, GameListSchema, GamePayloadSchema, PackListSchema, type GamePayload } from '../../shared/protocol/index.ts';
import { freshDatabase, redisCommand } from '../infra/services.ts';
import { SseReader, User, waitFor, writeCatalogue, type Reply } from '../server/harness.ts';
import { startProxy, type Proxy } from './proxy.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CATALOGUE_SIZE = 200;
/** Card mode (no audio needed), no phase timers: the test never races a deadline. */
const SETTINGS = { clue_mode: 'card', guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 } as const;

interface Proc {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  output: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => done(port));
    });
  });
}

function spawnServer(name: string, port: number, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['server/index.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PROCESS_NAME: name,
      LOG_LEVEL: 'info',
      ARGON2_MEMORY_KIB: '1024',
      RATE_LIMIT_FACTOR: '0',
      // no year evidence from the internet
      EVIDENCE_SOURCES: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = {
    name,
    port,
    base: `http://127.0.0.1:${port}`,
    child,
    output: '',
    exit: new Promise((done) => child.once('exit', (code, signal) => done({ code, signal }))),
  };
  child.stdout!.on('data', (d: Buffer) => (proc.output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (proc.output += d.toString()));
  return proc;
}

/** Waits until the process answers the API (it listens only after migrations and the demo catalogue). */
async function ready(p: Proc): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`server ${p.name} exited:\n${p.output.slice(-4000)}`);
    try {
      if ((await fetch(`${p.base}/api/games`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server ${p.name} did not start:\n${p.output.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The same user (his session cookies) talking to another process. */
function via(u: User, p: Proc): User {
  const v = new User(p.base);
  for (const [k, value] of u.cookies) v.cookies.set(k, value);
  v.id = u.id;
  v.name = u.name;
  return v;
}

const rooms: Room[] = [];

/** Joins game `id` with the SDK pointed at process `p` (its matchmaking), as `u`. */
async function sdkJoin(u: User, p: Proc, id: string): Promise<Room<any, any>> {
  const room = await new Client(p.base, { headers: { cookie: u.cookieHeader() } }).joinById(id);
  rooms.push(room);
  await waitFor(() => room.state?.id === id, 5000, `initial state of ${id}`);
  return room;
}

/** The process the SDK's WebSocket went to (through the proxy path it announced): the one hosting the room. */
function socketTarget(room: Room): string {
  const url = new URL(room.connection.url!);
  expect(Number(url.port)).toBe(proxy.port);
  return url.pathname.split('/')[1]!;
}

async function createGame(u: User, body: Record<string, unknown>): Promise<GamePayload> {
  const r = await u.request('POST', '/api/games', { settings: SETTINGS, ...body, ...(body.settings ? { settings: { ...SETTINGS, ...body.settings } } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return GamePayloadSchema.parse(r.body);
}

async function getGame(u: User, id: string): Promise<GamePayload> {
  const r = await u.request('GET', `/api/games/${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return GamePayloadSchema.parse(r.body);
}

async function listed(u: User): Promise<string[]> {
  const r = await u.request('GET', '/api/games');
  expect(r.status).toBe(200);
  return GameListSchema.parse(r.body).games.map((g) => g.id);
}

const expectOk = (r: Reply, what: string) => expect({ status: r.status, body: r.body }, what).toMatchObject({ status: 200, body: { type: 'success' } });

let a: Proc;
let b: Proc;
/** How A was started, to start it again. */
let startA: () => Proc;
let proxy: Proxy;
let dir: string;
let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-cluster-'));
  const redisUrl = inject('redisUrl');
  // the test's own Redis: no rooms or processes of an earlier run
  expect(await redisCommand(redisUrl, 'FLUSHALL')).toBe('+OK');
  database = await freshDatabase(inject('pgUrl'), 'hitline_cluster');
  const common = { DATABASE_URL: database.url, REDIS_URL: redisUrl, DEMO_CATALOGUE: writeCatalogue(dir, CATALOGUE_SIZE), CLIENT_DIR: join(dir, 'no-client') };
  const portA = await freePort();
  let portB = await freePort();
  while (portB === portA) portB = await freePort();
  proxy = await startProxy({ a: () => portA, b: () => portB });
  // both at once, on an empty database: the migrations and the demo catalogue must not run twice
  startA = () => spawnServer('a', portA, { ...common, PUBLIC_ADDRESS: `127.0.0.1:${proxy.port}/a`, AUDIO_DIR: join(dir, 'audio-a'), AUDIO_WORKER: 'true' });
  a = startA();
  b = spawnServer('b', portB, { ...common, PUBLIC_ADDRESS: `127.0.0.1:${proxy.port}/b`, AUDIO_DIR: join(dir, 'audio-b'), AUDIO_WORKER: 'false' });
  await Promise.all([ready(a), ready(b)]);
});

afterAll(async () => {
  await Promise.all(rooms.map((r) => r.leave().catch(() => undefined)));
  for (const p of [a, b]) {
    if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    if (p) await p.exit;
  }
  await proxy?.close();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('two processes on one PostgreSQL database and one Redis', () => {
  it('start together on an empty database: migrated once, one demo catalogue', async () => {
    for (const p of [a, b]) {
      const search = await fetch(`${p.base}/api/hits/search?amount=1`).then((r) => r.json());
      expect(search.total, p.name).toBe(CATALOGUE_SIZE);
      const { packs } = PackListSchema.parse(await fetch(`${p.base}/api/hits/packs`).then((r) => r.json()));
      expect(packs.map((x) => x.hits), p.name).toEqual([CATALOGUE_SIZE / 2, CATALOGUE_SIZE / 2]);
    }
    expect(a.output).toContain('scale-out: rooms, matchmaking and events go through Redis');
  });

  it('shares the registration captcha: a challenge A issued registers on B, once', async () => {
    // both processes started at once on an empty database: they must have agreed on one key
    const onA = await User.guest(a.base);
    const c = AltchaChallengeSchema.parse((await onA.request('GET', '/api/altcha')).body);
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    const token = btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature }));
    const body = (username: string) => ({ username, password: 'correct horse battery', altcha_token: token });
    expect((await via(onA, b).request('POST', '/api/users/register', body(`Captcha ${Date.now() % 100000}`))).status).toBe(200);
    const again = await (await User.guest(a.base)).request('POST', '/api/users/register', body(`Captcha again ${Date.now() % 100000}`));
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 400, code: 'captcha_used' });
  });

  it('accepts a session on either process, whichever made it; a logout on one ends it on both', async () => {
    const onA = await User.guest(a.base);
    const onB = via(onA, b);
    const me = await onB.request('GET', '/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(onA.id);

    // registering on B turns the guest into an account with a new session, which A accepts
    const name = `Cluster ${Date.now() % 100000}`;
    expect((await onB.request('POST', '/api/users/register', { username: name, password: 'correct horse battery' })).status).toBe(200);
    const account = via(onB, a);
    expect((await account.request('GET', '/api/users/me')).body).toMatchObject({ id: onA.id, name });

    // a login on B, used on A
    const fresh = await User.guest(b.base);
    expect((await fresh.request('POST', '/api/users/login', { username: name, password: 'correct horse battery' })).status).toBe(200);
    const freshOnA = via(fresh, a);
    expect((await freshOnA.request('GET', '/api/users/me')).body.id).toBe(onA.id);
    expect((await freshOnA.request('POST', '/api/users/logout')).status).toBe(200);
    expect((await via(fresh, b).request('GET', '/api/users/me')).status).toBe(401);
    // the registration's session is another one: still valid on both
    expect((await account.request('GET', '/api/users/me')).status).toBe(200);
    expect((await onB.request('GET', '/api/users/me')).status).toBe(200);
  });

  it('creates a game on the process that got the request; REST and the SDK join it through the other', async () => {
    const alice = await User.guest(a.base);
    const onA = await createGame(alice, { mode: 'Public' });
    const bob = await User.guest(b.base);
    expectOk(await bob.request('PATCH', `/api/games/${onA.id}/join`), 'join through B');
    // B's matchmaking hands out a seat on A: the socket goes to A's public address
    const bobRoom = await sdkJoin(bob, b, onA.id);
    expect(socketTarget(bobRoom)).toBe('a');
    expect(bobRoom.state.players.length).toBe(2);
    expect((await getGame(via(alice, b), onA.id)).players.map((p) => p.id)).toEqual([alice.id, bob.id]);

    const carol = await User.guest(b.base);
    const onB = await createGame(carol, { mode: 'Public' });
    const carolOnA = await sdkJoin(carol, a, onB.id);
    expect(socketTarget(carolOnA)).toBe('b');
    const aliceToB = await sdkJoin(alice, a, onB.id);
    expect(socketTarget(aliceToB)).toBe('b');
    // an unknown game is unknown on both
    for (const p of [a, b]) expect((await new User(p.base).request('GET', '/api/games/ZZZZ9999')).status).toBe(404);
  });

  it('lists every game in the lobby of either process; each global stream announces games made on the other', async () => {
    const alice = await User.guest(a.base);
    const carol = await User.guest(b.base);
    const sseA = new SseReader(`${a.base}/api/events`);
    const sseB = new SseReader(`${b.base}/api/events`);
    try {
      await sseA.until((e) => e.some((x) => x.event === 'process_hits'));
      await sseB.until((e) => e.some((x) => x.event === 'process_hits'));
      const g1 = await createGame(alice, { mode: 'Public' });
      const g2 = await createGame(carol, { mode: 'Public' });
      const hidden = await createGame(alice, { mode: 'Private' });
      const created = (r: SseReader, id: string) => r.events.some((x) => x.event === 'create_game' && x.data?.create_game?.id === id);
      await sseB.until(() => created(sseB, g1.id));
      await sseA.until(() => created(sseA, g2.id));
      expect(created(sseA, g1.id) && created(sseB, g2.id)).toBe(true);
      // a private game is announced to nobody but its members, on either process
      expect(created(sseA, hidden.id) || created(sseB, hidden.id)).toBe(false);

      const anonymous = [new User(a.base), new User(b.base)];
      const lists = await Promise.all(anonymous.map(listed));
      for (const ids of lists) {
        expect(ids).toEqual(expect.arrayContaining([g1.id, g2.id]));
        expect(ids).not.toContain(hidden.id);
      }
      expect([...lists[0]!].sort()).toEqual([...lists[1]!].sort());
      // a member sees his private game listed, through the process that does not host it
      expect(await listed(via(alice, b))).toContain(hidden.id);

      // a new global stream on A starts with the summaries of games on both processes
      const late = new SseReader(`${a.base}/api/events`);
      try {
        await late.until((e) => [g1.id, g2.id].every((id) => e.some((x) => x.event === 'game_summary' && x.data?.game_summary?.id === id)));
      } finally {
        late.close();
      }
    } finally {
      sseA.close();
      sseB.close();
    }
  });

  it('plays a whole game on A through B: REST actions via B, WebSocket messages, an SSE stream on B to the winner', async () => {
    const alice = await User.guest(a.base);
    const bob = await User.guest(b.base);
    const aliceB = via(alice, b);
    const game = await createGame(alice, { mode: 'Public', settings: { goal: 2, start_tokens: 1 } });
    const id = game.id;
    expectOk(await bob.request('PATCH', `/api/games/${id}/join`), 'bob joins through B');
    const sse = new SseReader(`${b.base}/api/games/${id}/events`);
    try {
      await sse.until((e) => e.some((x) => x.event === 'snapshot'));
      const bobWs = await sdkJoin(bob, b, id);
      const aliceWs = await sdkJoin(alice, b, id);
      expect(socketTarget(bobWs)).toBe('a');
      const errors: unknown[] = [];
      bobWs.onMessage('error', (m: unknown) => errors.push(m));
      bobWs.onMessage('event', () => undefined);
      aliceWs.onMessage('event', () => undefined);

      expectOk(await aliceB.request('PATCH', `/api/games/${id}/start`), 'start through B');
      let turns = 0;
      let actions = 0;
      for (;;) {
        const g = await getGame(aliceB, id);
        if (g.state === 'Open') break;
        const seq = bobWs.state.seq as number;
        if (g.state === 'Guessing') {
          turns++;
          const turn = g.players.find((p) => p.turn_player)!;
          const slot = turn.slots[0]!.id;
          if (turn.id === alice.id) expectOk(await aliceB.request('POST', `/api/games/${id}/guess`, { id: slot }), 'guess through B');
          else bobWs.send('guess', { slot });
        } else if (g.state === 'Intercepting') {
          const p = g.players.find((x) => x.state === 'Intercepting')!;
          if (p.id === alice.id) expectOk(await via(alice, a).request('POST', `/api/games/${id}/guess`, { id: null }), 'decline on A');
          else bobWs.send('guess', { slot: null });
        } else if (g.state === 'Confirming') {
          const p = g.players.find((x) => x.state === 'Confirming')!;
          if (p.id === alice.id) expectOk(await aliceB.request('POST', `/api/games/${id}/confirm`, { confirm: true }), 'confirm through B');
          else bobWs.send('confirm', { confirm: false });
        } else {
          throw new Error(`unexpected state ${g.state}`);
        }
        actions++;
        await waitFor(() => (bobWs.state.seq as number) > seq || errors.length > 0, 5000, `the action in ${g.state} to reach bob's socket`).catch(async (e: Error) => {
          // say what each side saw: a refused message, a lost patch, or a stale view
          const now = await getGame(aliceB, id).catch((x: Error) => x.message);
          throw new Error(`${e.message}; seq before ${seq}, bob's socket ${bobWs.state.seq} (${bobWs.state.state}), alice's ${aliceWs.state.seq}; errors ${JSON.stringify(errors)}; the game before: ${JSON.stringify(g)}; now: ${JSON.stringify(now)}\n--- a:\n${a.output.slice(-3000)}\n--- b:\n${b.output.slice(-3000)}`);
        });
        expect(errors).toEqual([]);
        if (turns > 80) throw new Error('no winner after 80 turns');
      }
      expect(actions).toBeGreaterThanOrEqual(2);

      const endB = await getGame(aliceB, id);
      const endA = await getGame(via(bob, a), id);
      expect(endB.winner).not.toBeNull();
      expect(endA.winner?.id).toBe(endB.winner?.id);
      expect(endB.winner!.hits.length).toBeGreaterThanOrEqual(2);
      // both sockets (through B's matchmaking, on A) saw the end
      await waitFor(() => bobWs.state.state === 'Open' && aliceWs.state.state === 'Open', 5000, 'sockets at the end');
      expect(bobWs.state.winner?.id).toBe(endB.winner!.id);
      expect(aliceWs.state.seq).toBe(bobWs.state.seq);
      // the stream on B: every event once, in order, up to the winning change_state
      await sse.until((e) => e.some((x) => x.event === 'change_state' && x.data?.winner?.id === endB.winner!.id));
      const ids = sse.events.filter((x) => x.event !== 'snapshot').map((x) => Number(x.id));
      expect(ids.length).toBeGreaterThanOrEqual(actions);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe(ids[i - 1]! + 1);
      expect(ids.at(-1)).toBe(bobWs.state.seq);
    } finally {
      sse.close();
    }
  });

  it('shares catalogue edits: the index at once, the typo tolerance of the other process a moment later', async () => {
    // an editor account, made with the admin CLI on the shared database
    const cli = spawn(process.execPath, ['server/cli/index.ts', 'users', 'create', 'Cluster Editor', '--permissions', '3', '--password', 'editor password'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATABASE_URL: database!.url, ARGON2_MEMORY_KIB: '1024', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let cliOut = '';
    cli.stdout!.on('data', (d: Buffer) => (cliOut += d.toString()));
    cli.stderr!.on('data', (d: Buffer) => (cliOut += d.toString()));
    expect(await new Promise((done) => cli.once('exit', done)), cliOut).toBe(0);
    const editor = await User.guest(b.base);
    expect((await editor.request('POST', '/api/users/login', { username: 'Cluster Editor', password: 'editor password' })).status).toBe(200);
    const made = await editor.request('POST', '/api/hits', { title: 'Quizzaciously Zonked', artist: 'Cluster', year: 2001 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const onA = new User(a.base);
    const search = async (query: string) => (await onA.request('GET', `/api/hits/search?query=${encodeURIComponent(query)}`)).body.results.map((h: { title: string }) => h.title);
    expect(await search('quizza zonk')).toEqual(['Quizzaciously Zonked']);
    // one letter missing: A learns the new words from B's announcement
    const deadline = Date.now() + 10_000;
    while ((await search('quizzaciosly')).length === 0) {
      if (Date.now() > deadline) throw new Error('process A never learned the words of a hit made on B');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await search('quizzaciosly zonkd')).toEqual(['Quizzaciously Zonked']);
  });

  it('works behind one address: requests spread over both, every game socket routed to the process hosting the game', async () => {
    const front = `http://127.0.0.1:${proxy.port}`;
    const before = new Map(proxy.counts);
    const alice = await User.guest(front);
    const bob = await User.guest(front);
    const games: string[] = [];
    for (let i = 0; i < 4; i++) games.push((await createGame(alice, { mode: 'Public' })).id);
    const sse = new SseReader(`${front}/api/events`);
    try {
      await sse.until((e) => games.every((id) => e.some((x) => x.event === 'game_summary' && x.data?.game_summary?.id === id)));
      const hosts = new Set<string>();
      for (const id of games) {
        expectOk(await bob.request('PATCH', `/api/games/${id}/join`), `join ${id}`);
        // the SDK through the front door and straight through A agree on where the game lives
        const viaFront = await sdkJoin(bob, { base: front } as Proc, id);
        const viaA = await sdkJoin(alice, a, id);
        expect(socketTarget(viaFront)).toBe(socketTarget(viaA));
        hosts.add(socketTarget(viaFront));
        await waitFor(() => viaFront.state.players.length === 2 && viaA.state.players.length === 2, 5000, 'both seats in both states');
      }
      // round robin put games on both processes
      expect([...hosts].sort()).toEqual(['a', 'b']);
      expect((await listed(bob)).filter((id) => games.includes(id)).sort()).toEqual([...games].sort());
    } finally {
      sse.close();
    }
    for (const name of ['a', 'b']) expect(proxy.counts.get(name)! - (before.get(name) ?? 0), name).toBeGreaterThan(4);
  });

  it('an SSE stream on B follows a game on A across a kill -9 and restart of A, without a gap', async () => {
    const alice = await User.guest(a.base);
    const bob = await User.guest(b.base);
    const aliceB = via(alice, b);
    const { id } = await createGame(alice, { mode: 'Public', settings: { goal: 10, start_tokens: 0 } });
    expectOk(await bob.request('PATCH', `/api/games/${id}/join`), 'bob joins through B');
    const sse = new SseReader(`${b.base}/api/games/${id}/events`);
    /** One REST action through B by whoever must act, then the stream's new last id. */
    const step = async (): Promise<number> => {
      const g = await getGame(aliceB, id);
      const actor = g.state === 'Guessing' ? g.players.find((p) => p.turn_player)! : g.players.find((p) => p.state === g.state)!;
      const u = actor.id === alice.id ? aliceB : bob;
      const before = Number(sse.events.at(-1)?.id);
      if (g.state === 'Guessing') expectOk(await u.request('POST', `/api/games/${id}/guess`, { id: actor.slots[0]!.id }), 'guess through B');
      else expectOk(await u.request('POST', `/api/games/${id}/confirm`, { confirm: false }), 'confirm through B');
      await sse.until((e) => Number(e.at(-1)?.id) > before);
      return Number(sse.events.at(-1)?.id);
    };
    try {
      await sse.until((e) => e.some((x) => x.event === 'snapshot'));
      expectOk(await aliceB.request('PATCH', `/api/games/${id}/start`), 'start through B');
      await sse.until((e) => e.some((x) => x.event === 'change_state'));
      await step();

      // the earlier tests' sockets on A would try to come back, and their leave() would wait for that
      await Promise.all(rooms.splice(0).map((r) => r.leave().catch(() => undefined)));
      a.child.kill('SIGKILL');
      await a.exit;
      a = startA();
      await ready(a);
      const listedBy = Date.now() + 15_000;
      while (!(await listed(bob)).includes(id)) {
        if (Date.now() > listedBy) throw new Error('the restored game is not listed again');
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let i = 0; i < 3; i++) await step();

      const ids = sse.events.map((x) => Number(x.id));
      for (let i = 1; i < ids.length; i++) expect(ids[i], `event ${i} of ${JSON.stringify(sse.events.map((x) => [x.id, x.event]))}`).toBe(ids[i - 1]! + 1);
      expect(sse.events.filter((x) => x.event === 'snapshot')).toHaveLength(1);
    } finally {
      sse.close();
    }
  });

  it('stops each process cleanly on SIGTERM', async () => {
    await Promise.all(rooms.splice(0).map((r) => r.leave().catch(() => undefined)));
    for (const p of [a, b]) p.child.kill('SIGTERM');
    const exits = await Promise.all([a.exit, b.exit]);
    for (const [i, p] of [a, b].entries()) {
      expect(exits[i], p.output.slice(-3000)).toEqual({ code: 0, signal: null });
      expect(p.output).toContain('Hitline stopped');
    }
  });
});
