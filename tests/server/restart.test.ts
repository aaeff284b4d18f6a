/**
 * Games survive a restart (issue 10), against the real server process: a game is
 * played over REST and WebSocket (Colyseus SDK clients kept in the room by
 * client/src/net/rejoin.ts, the web client's own module) and watched by an
 * `EventSource` (the `eventsource` package, which resumes with Last-Event-ID).
 * In the middle of a turn, after an interception was accepted and before the
 * reveal, the server is killed (`kill -9`, and in a second game SIGTERM) and
 * started again on the same database. Every client comes back by itself, the
 * game is exactly where it was (nothing lost, nothing applied twice), its
 * deadline moved by the downtime, and it is played to the right winner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import Sqlite from 'better-sqlite3';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndKeep, type LinkStatus, type RoomLink } from '../../client/src/net/rejoin.ts';
import { roomStateToPayload } from '../../shared/protocol/room.ts';
import { isCorrect, type GamePayload, type Slot } from '../../shared/rules/index.ts';
import { bootServer, freePort, spawnServer, User, waitFor, writeCatalogue, type ServerProcess } from './harness.ts';

const INTERCEPT_TIMEOUT = 40;

let dir: string;
let port: number;
let server: ServerProcess | undefined;
let log = '';
const base = () => `http://127.0.0.1:${port}`;

/** Starts the server process on the test's database and port; resolves once it listens. */
async function startProcess(): Promise<void> {
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
    RECONNECT_SECONDS: '20',
  });
}

async function stopProcess(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const result = await server!.stop(signal);
  log += server!.output();
  server = undefined;
  return result;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-restart-'));
  writeCatalogue(dir);
  port = await freePort();
  await startProcess();
});

afterAll(async () => {
  if (process.env.RESTART_LOG) console.log(log);
  for (const e of streams) e.close();
  await Promise.all(links.map((l) => Promise.race([l.leave(), new Promise((r) => setTimeout(r, 1000))])));
  if (server) await stopProcess('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}, 20_000);

// ---------------------------------------------------------------------------
// players

/** Year of a hit of the test catalogue (writeCatalogue: "Song i" is from 1950 + (13 i mod 75)). */
const yearOf = (title: string): number => 1950 + ((Number(title.replace('Song ', '')) * 13) % 75);

interface Seat {
  user: User;
  link: RoomLink;
  statuses: LinkStatus[];
  /** Every room this seat was joined to (a new one after each restart). */
  rooms: Room[];
}
const links: RoomLink[] = [];
const streams: EventSource[] = [];

async function seat(user: User, gameId: string): Promise<Seat> {
  const statuses: LinkStatus[] = [];
  const rooms: Room[] = [];
  const client = new Client(base(), { headers: { cookie: user.cookieHeader() } });
  const link = await joinAndKeep({
    join: () => client.joinById(gameId),
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
  await waitFor(() => link.room.state?.id === gameId, 5000, 'initial state');
  return { user, link, statuses, rooms };
}

/** The game as the seat's room state shows it (read the way the web client reads it). */
const view = (s: Seat): GamePayload => {
  const converted = roomStateToPayload(s.link.room.state.toJSON());
  if (!converted.ok) throw new Error(`room state: ${converted.error.message}`);
  return converted.data.game;
};
const me = (s: Seat, g: GamePayload = view(s)) => g.players.find((p) => p.id === s.user.id)!;

const hasSlot = (g: GamePayload, right: boolean): boolean => {
  try {
    slotFor(g, right);
    return true;
  } catch {
    return false;
  }
};

/** A slot of the turn player's timeline that is right (or wrong) for the clue's year and free. */
function slotFor(g: GamePayload, right: boolean): Slot {
  const turn = g.players.find((p) => p.turn_player)!;
  const year = yearOf(g.clue!.title);
  const taken = new Set(g.players.map((p) => p.guess?.id).filter((id) => id !== undefined));
  const slot = turn.slots.find((s) => isCorrect(s, year) === right && !taken.has(s.id));
  if (!slot) throw new Error(`no ${right ? 'right' : 'wrong'} free slot for ${year} in ${JSON.stringify(turn.slots)}`);
  return slot;
}

async function expectOk(r: Promise<{ status: number; body: unknown }>): Promise<void> {
  const reply = await r;
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** Waits until every seat's room shows seq ≥ `seq`. */
async function synced(seats: Seat[], seq: number): Promise<void> {
  await waitFor(() => seats.every((s) => (s.link.room.state?.seq ?? 0) >= seq), 10_000, `state seq ${seq}`);
}

const seqOf = (s: Seat): number => s.link.room.state.seq as number;

/**
 * Plays until the game is over: the turn player places right (via WebSocket),
 * nobody intercepts, the confirmer says yes (via REST). Returns the winner's id.
 */
async function playToEnd(seats: Seat[]): Promise<string> {
  for (let turn = 0; turn < 40; turn++) {
    const g = view(seats[0]!);
    if (g.state === 'Open') return g.winner!.id;
    await step(seats);
  }
  throw new Error('the game did not end in 40 steps');
}

/** One step of a plain turn: the turn player places right (WebSocket), nobody intercepts, the confirmer says yes (REST). */
async function step(seats: Seat[]): Promise<void> {
  const g = view(seats[0]!);
  const before = seqOf(seats[0]!);
  // every accepted action adds at least one event: wait for all of this step's, not
  // just the first one's (else the next step could read the game between two declines)
  let actions = 1;
  let done = (): boolean => true;
  if (g.state === 'Guessing') {
    const t = seats.find((s) => me(s, g).turn_player)!;
    t.link.room.send('guess', { slot: slotFor(g, true).id });
  } else if (g.state === 'Intercepting') {
    const waiting = seats.filter((s) => me(s, g).state === 'Intercepting');
    for (const s of waiting) await expectOk(s.user.request('POST', `/api/games/${g.id}/guess`, { id: null }));
    actions = waiting.length;
    // (an event of something else, a presence change, would count too: every seat must show every decline)
    done = () => seats.every((s) => waiting.every((w) => me(w, view(s)).state !== 'Intercepting'));
  } else if (g.state === 'Confirming') {
    const c = seats.find((s) => me(s, g).state === 'Confirming')!;
    await expectOk(c.user.request('POST', `/api/games/${g.id}/confirm`, { confirm: true }));
  }
  await waitFor(() => seats.every((s) => seqOf(s) >= before + actions) && done(), 10_000, `the game to move on from ${g.state}`);
}

/** The game as REST shows it, without what a restart may change by design (presence, the deadline). */
async function stable(user: User, id: string) {
  const r = await user.request<GamePayload>('GET', `/api/games/${id}`);
  expect(r.status).toBe(200);
  const { deadline, ...rest } = r.body;
  return { game: { ...rest, players: rest.players.map((p) => ({ ...p, connected: undefined })) }, deadline };
}

// ---------------------------------------------------------------------------

/**
 * Sets up a 3-player Public game and plays it to the point of the crash: the
 * turn player placed wrong, the second player intercepted right (accepted), the
 * third has not answered yet. Returns the seats and the interceptor.
 */
async function toTheCrash(goal: number) {
  const [alice, bob, carol] = await Promise.all([User.guest(base()), User.guest(base()), User.guest(base())]);
  const created = await alice.request<GamePayload>('POST', '/api/games', { mode: 'Public', settings: { goal, intercept_timeout: INTERCEPT_TIMEOUT, confirm_timeout: 0 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id;
  for (const u of [bob, carol]) expect((await u.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
  const seats = [await seat(alice, id), await seat(bob, id), await seat(carol, id)];

  // an EventSource watching the game, as a browser would (resumes with Last-Event-ID)
  const seen: { id: number; event: string; data: any }[] = [];
  const es = new EventSource(`${base()}/api/games/${id}/events`);
  streams.push(es);
  const sse = { opens: 0 };
  es.addEventListener('open', () => sse.opens++);
  for (const name of ['snapshot', 'join', 'leave', 'change_state', 'guess', 'skip', 'claim', 'update']) {
    es.addEventListener(name, (e) => seen.push({ id: Number(e.lastEventId), event: name, data: JSON.parse(e.data) }));
  }
  await waitFor(() => seen.some((e) => e.event === 'snapshot'), 5000, 'SSE snapshot');

  await expectOk(alice.request('PATCH', `/api/games/${id}/start`));
  await waitFor(() => seats.every((s) => view(s).state === 'Guessing'), 5000, 'started');
  let g = view(seats[0]!);
  // a hit from the very year of the turn player's only card fits everywhere: play such a turn out
  while (!hasSlot(g, false)) {
    do await step(seats);
    while (view(seats[0]!).state !== 'Guessing');
    g = view(seats[0]!);
  }
  const turn = seats.find((s) => me(s, g).turn_player)!;
  const others = seats.filter((s) => s !== turn);
  const [interceptor, waiter] = others as [Seat, Seat];

  // the turn player places wrong over WebSocket; the interceptor places right over REST
  let at = seqOf(turn);
  turn.link.room.send('guess', { slot: slotFor(g, false).id });
  await synced(seats, at + 1);
  g = view(seats[0]!);
  expect(g.state).toBe('Intercepting');
  const right = slotFor(g, true);
  const tokensBefore = me(interceptor, g).tokens;
  at = seqOf(turn);
  const interceptAt = Date.now();
  await expectOk(interceptor.user.request('POST', `/api/games/${id}/guess`, { id: right.id }));
  await synced(seats, at + 1);
  g = view(seats[0]!);
  expect(me(interceptor, g).guess?.id).toBe(right.id);
  expect(me(interceptor, g).tokens).toBe(tokensBefore - 1);
  expect(me(waiter, g).state).toBe('Intercepting');
  return { id, seats, turn, interceptor, waiter, right, tokensAfterIntercept: tokensBefore - 1, seen, sse, interceptAt };
}

/** After the restart: everybody back by himself, the game exactly as it was. */
async function afterTheRestart(c: Awaited<ReturnType<typeof toTheCrash>>, before: Awaited<ReturnType<typeof stable>>, seqBefore: number, downAt: number, restartAt: number) {
  const { id, seats, interceptor, waiter, right } = c;
  const back = Date.now();
  await waitFor(() => seats.every((s) => s.rooms.length === 2 && s.link.room.state?.id === id && s.statuses.at(-1) === 'connected'), 30_000, 'every client rejoined by itself');
  const rejoinMs = Date.now() - back;
  for (const s of seats) expect(s.statuses).toContain('reconnecting');

  const after = await stable(seats[0]!.user, id);
  expect(after.game).toEqual(before.game);
  expect(seqOf(seats[0]!)).toBe(seqBefore);
  // the interception counted once: the token was paid once, the guess is there
  const g = view(seats[0]!);
  expect(me(interceptor, g).tokens).toBe(c.tokensAfterIntercept);
  expect(me(interceptor, g).guess?.id).toBe(right.id);
  // the deadline moved by the downtime: at least from the kill to the new start, at most from the
  // last accepted action (the interception) to now
  const shift = after.deadline! - before.deadline!;
  expect(shift).toBeGreaterThanOrEqual(restartAt - downAt);
  expect(shift).toBeLessThanOrEqual(Date.now() - c.interceptAt);

  // the SSE reader reconnected by itself with Last-Event-ID = the seq it had: nothing it had is sent again
  await waitFor(() => c.sse.opens >= 2, 30_000, 'SSE reconnected');
  expect(c.seen.at(-1)!.id).toBe(seqBefore);

  // the turn goes on: the last player declines, the interceptor wins the card (he was right)
  const at = seqOf(seats[0]!);
  await expectOk(waiter.user.request('POST', `/api/games/${id}/guess`, { id: null }));
  await synced(seats, at + 1);
  // ... and the resumed stream carries on right after the seq it had
  await waitFor(() => c.seen.some((e) => e.id === at + 1), 5000, 'SSE event after the restart');
  const ids = c.seen.filter((e) => e.event !== 'snapshot').map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  // had it missed the last event before the crash, it got a snapshot at the seq the game was at instead
  for (const snap of c.seen.filter((e) => e.event === 'snapshot').slice(1)) expect(snap.id).toBe(seqBefore);
  const revealed = view(seats[0]!);
  if (revealed.state === 'Open') {
    // that card was his last one: he won
    expect(revealed.winner?.id).toBe(interceptor.user.id);
  } else {
    expect(revealed.state).toBe('Confirming');
    // (the synchronized state carries the scorer's id)
    expect(revealed.last_scored?.id).toBe(interceptor.user.id);
  }
  return { rejoinMs };
}

describe('games survive a restart', () => {
  it('kill -9 in the middle of a turn: clients come back by themselves, nothing lost or doubled, right winner', async () => {
    const c = await toTheCrash(4);
    const before = await stable(c.seats[0]!.user, c.id);
    const seqBefore = seqOf(c.seats[0]!);
    const downAt = Date.now();
    const killed = await stopProcess('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    await startProcess();
    const bootMs = Date.now() - t0;
    const { rejoinMs } = await afterTheRestart(c, before, seqBefore, downAt, t0);

    const winner = await playToEnd(c.seats);
    const g = view(c.seats[0]!);
    // the right winner: the one whose timeline holds the goal (the final standings, A11), and nobody else's does
    const standings = g.standings!;
    const w = standings.find((p) => p.id === winner)!;
    expect(g.winner!.id).toBe(winner);
    expect(w.hits.length).toBe(g.goal);
    expect(g.winner!.hits.length).toBe(g.goal);
    for (const p of standings) if (p.id !== winner) expect(p.hits.length).toBeLessThan(g.goal);
    // every event anybody saw came once, in order
    const ids = c.seen.filter((e) => e.event !== 'snapshot').map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    console.log(`[restart] kill -9: back up in ${bootMs} ms, every client rejoined ${rejoinMs} ms later; winner ${w.name} with ${w.hits.length} cards`);
  }, 120_000);

  it('SIGTERM in the middle of a turn: the same, after a graceful stop', async () => {
    const c = await toTheCrash(4);
    const before = await stable(c.seats[0]!.user, c.id);
    const seqBefore = seqOf(c.seats[0]!);
    const downAt = Date.now();
    const stopped = await stopProcess('SIGTERM');
    expect(stopped.code).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    const restartAt = Date.now();
    await startProcess();
    await afterTheRestart(c, before, seqBefore, downAt, restartAt);
    // a graceful stop did not mark anybody absent: nobody auto-declined, everybody is connected
    expect(view(c.seats[0]!).players.every((p) => p.connected)).toBe(true);
    const winner = await playToEnd(c.seats);
    const g = view(c.seats[0]!);
    expect(g.winner!.hits.length).toBe(g.goal);
    expect(g.standings!.filter((p) => p.hits.length >= g.goal).map((p) => p.id)).toEqual([winner]);
  }, 120_000);

  it('kill -9 while the table votes on a dispute, and again after the year changed: the game comes back as it was (docs/rules.md#disputes)', async () => {
    const [alice, bob, carol] = await Promise.all([0, 1, 2].map(() => User.guest(base())));
    const users = [alice!, bob!, carol!];
    // no timers: the game read after the restart is exactly the one before
    const settings = { goal: 10, start_tokens: 0, guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0, reveal_time: 15, dispute_timeout: 0 };
    const created = await alice!.request<GamePayload>('POST', '/api/games', { mode: 'Public', settings });
    const id = created.body.id;
    for (const u of [bob!, carol!]) expect((await u.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
    expect((await alice!.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
    const read = async () => (await alice!.request<GamePayload>('GET', `/api/games/${id}`)).body;
    let g = await read();
    const turn = g.players.find((p) => p.turn_player)!;
    const byId = (pid: string) => users.find((u) => u.id === pid)!;
    expect((await byId(turn.id).request('POST', `/api/games/${id}/guess`, { id: turn.slots[0]!.id })).status).toBe(200);
    g = await read();
    const card = g.hit!;
    const [first, second] = g.players.filter((p) => p.id !== turn.id);
    // the year that turns the placement round (slot 1: up to the turn player's only card)
    const proposed = card.year <= turn.slots[0]!.to_year ? turn.slots[0]!.to_year + 1 : turn.slots[0]!.to_year - 1;
    expect((await byId(first!.id).request('POST', `/api/games/${id}/dispute`, { year: proposed })).status).toBe(200);
    const voting = await read();
    expect(voting.dispute?.outcome).toBeNull();

    await stopProcess('SIGKILL');
    await startProcess();
    expect(await read()).toEqual(voting);
    expect((await byId(second!.id).request('POST', `/api/games/${id}/vote`, { take: true })).status).toBe(200);
    const changed = await read();
    expect(changed.dispute?.outcome).toBe('changed');
    expect(changed.hit).toEqual({ ...card, year: proposed });
    expect(changed.players.find((p) => p.id === turn.id)!.hits.some((h) => h.id === card.id)).toBe(card.year > turn.slots[0]!.to_year);

    await stopProcess('SIGKILL');
    await startProcess();
    expect(await read()).toEqual(changed);
  }, 90_000);

  it('the lobby lists the restored games, and a game everybody left is gone from storage', async () => {
    const user = await User.guest(base());
    const created = await user.request<GamePayload>('POST', '/api/games', { mode: 'Public' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await stopProcess('SIGKILL');
    await startProcess();
    let listed = false;
    for (let i = 0; i < 50 && !listed; i++) {
      const games = await user.request<{ games: GamePayload[] }>('GET', '/api/games');
      listed = games.body.games.some((g) => g.id === id);
      if (!listed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(listed).toBe(true);
    // leaving deletes the game (its last player), and with it the stored row: the next start has nothing to restore
    expect((await user.request('PATCH', `/api/games/${id}/leave`)).status).toBe(200);
    await stopProcess('SIGKILL');
    await startProcess();
    expect((await user.request('GET', `/api/games/${id}`)).status).toBe(404);
  }, 60_000);

  it('a game idle beyond GAME_IDLE_HOURS is not restored, and its row is removed', async () => {
    const user = await User.guest(base());
    const created = await user.request<GamePayload>('POST', '/api/games', { mode: 'Public' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await stopProcess('SIGKILL');
    const db = new Sqlite(join(dir, 'db.sqlite'));
    const aged = db.prepare('update games set updated_at = ? where id = ?').run(new Date(Date.now() - 25 * 3_600_000).toISOString(), id);
    expect(aged.changes).toBe(1);
    db.close();
    await startProcess();
    expect((await user.request('GET', `/api/games/${id}`)).status).toBe(404);
    const check = new Sqlite(join(dir, 'db.sqlite'), { readonly: true });
    const rows = check.prepare('select count(*) as n from games where id = ?').get(id) as { n: number };
    check.close();
    expect(rows.n).toBe(0);
  }, 60_000);
});

describe('idle games are removed', () => {
  it('an Open game whose players all went away is removed after OPEN_GAME_IDLE_MINUTES, from the lobby and from storage', async () => {
    const t = await bootServer({ RECONNECT_SECONDS: '1', OPEN_GAME_IDLE_MINUTES: '0.05' });
    try {
      const user = await User.guest(t.base);
      const created = await user.request<GamePayload>('POST', '/api/games', { mode: 'Public' });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const room = await user.joinRoom(t.ws, id);
      await waitFor(() => room.state?.id === id, 5000, 'state');
      const stored = async () => (await t.server.db.selectFrom('games').select('id').where('id', '=', id).execute()).length;
      expect(await stored()).toBe(1);
      await room.leave(true);
      const left = Date.now();
      // absent after the 1 s window, removed 3 s after that (checked every 0.75 s)
      let gone = false;
      while (!gone && Date.now() - left < 15_000) {
        gone = (await user.request('GET', `/api/games/${id}`)).status === 404;
        if (!gone) await new Promise((r) => setTimeout(r, 200));
      }
      const after = Date.now() - left;
      expect(gone).toBe(true);
      expect(after).toBeGreaterThanOrEqual(3500);
      expect(await stored()).toBe(0);
      const lobby = await user.request<{ games: GamePayload[] }>('GET', '/api/games');
      expect(lobby.body.games.some((g) => g.id === id)).toBe(false);
    } finally {
      await t.stop();
    }
  }, 30_000);

  it('an Open game played over REST only is removed once nothing happened in it for OPEN_GAME_IDLE_MINUTES; a socket keeps it', async () => {
    const t = await bootServer({ RECONNECT_SECONDS: '1', OPEN_GAME_IDLE_MINUTES: '0.05' });
    try {
      const [ana, ben] = [await User.guest(t.base), await User.guest(t.base)];
      const rest = (await ana.request<GamePayload>('POST', '/api/games', { mode: 'Private' })).body.id;
      expect((await ben.request('PATCH', `/api/games/${rest}/join`)).status).toBe(200);
      // a second game, watched over a socket the whole time
      const watched = (await ana.request<GamePayload>('POST', '/api/games', { mode: 'Public' })).body.id;
      const room = await ben.joinRoom(t.ws, watched);
      await waitFor(() => room.state?.id === watched, 5000, 'state');
      const joined = Date.now();
      let gone = false;
      while (!gone && Date.now() - joined < 15_000) {
        gone = (await ana.request('GET', `/api/games/${rest}`)).status === 404;
        if (!gone) await new Promise((r) => setTimeout(r, 200));
      }
      // every seat still counts as there (REST players never open a socket), yet it is gone
      expect(gone).toBe(true);
      expect(Date.now() - joined).toBeGreaterThanOrEqual(2500);
      expect((await ana.request('GET', `/api/games/${watched}`)).status).toBe(200);
      await room.leave(true);
    } finally {
      await t.stop();
    }
  }, 30_000);
});
