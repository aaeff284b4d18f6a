import type { Room } from '@colyseus/sdk';
import { matchMaker } from '@colyseus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { ALL_PERMISSIONS } from '../../server/services/users.ts';
import { EvidenceSchema, GamePayloadSchema, parseGameStreamEvent, type GamePayload } from '../../shared/protocol/index.ts';
import { roomStateToPayload } from '../../shared/protocol/room.ts';
import { ERRORS, type ErrorCode, type Game } from '../../shared/rules/index.ts';
import { bootServer, SseReader, User, waitFor, type Reply, type TestServer } from './harness.ts';

/**
 * Year disputes through the real server (docs/rules.md#disputes): REST and
 * room messages, the room state, the stream's events, the evidence endpoint,
 * and the report each decided dispute files in the review queue (the real
 * ReportsService on the real database).
 */

let t: TestServer;
beforeAll(async () => {
  t = await bootServer();
});
afterAll(async () => {
  await t?.stop();
});

const engine = (id: string): Game => (matchMaker.getLocalRoomById(id) as unknown as GameRoom).game;

function expectError(r: Reply, code: ErrorCode | 'no_evidence'): void {
  const [status, message] = code === 'no_evidence' ? [409, 'there is no revealed card to show evidence for'] : ERRORS[code];
  expect({ status: r.status, body: r.body }).toEqual({ status, body: { type: 'error', code, message } });
}

async function getGame(u: User, id: string): Promise<GamePayload> {
  const r = await u.request('GET', `/api/games/${id}`);
  expect(r.status).toBe(200);
  return GamePayloadSchema.parse(r.body);
}

/** A running three-seat game whose first card was just revealed (no tokens: the placement reveals at once). */
async function revealed(settings: Record<string, unknown> = {}) {
  const users = await Promise.all([0, 1, 2].map(() => User.guest(t.base)));
  const [alice, bob, carol] = users as [User, User, User];
  const made = await alice.request('POST', '/api/games', { settings: { goal: 5, start_tokens: 0, guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0, reveal_time: 15, ...settings } });
  expect(made.status).toBe(201);
  const id = made.body.id as string;
  for (const u of [bob, carol]) expect((await u.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
  const before = await alice.request('GET', `/api/games/${id}/evidence`);
  expectError(before, 'no_evidence');
  expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
  // nothing is shown of the hidden card either
  expectError(await alice.request('GET', `/api/games/${id}/evidence`), 'no_evidence');
  const byId = new Map(users.map((u) => [u.id, u]));
  let g = await getGame(alice, id);
  const turn = byId.get(g.players.find((p) => p.turn_player)!.id)!;
  const slot = g.players.find((p) => p.turn_player)!.slots[0]!;
  expect((await turn.request('POST', `/api/games/${id}/guess`, { id: slot.id })).status).toBe(200);
  g = await getGame(alice, id);
  expect(g.state).toBe('Confirming');
  const others = users.filter((u) => u !== turn) as [User, User];
  return { id, alice, users, turn, others, slot, card: g.hit! };
}

describe('disputes over REST, WebSocket and SSE', () => {
  it('a dispute over REST, votes over REST and a room message; the room state, the events, the evidence and the filed report', async () => {
    const { id, alice, turn, others, card } = await revealed();
    const [first, second] = others;
    const stream = new SseReader(`${t.base}/api/games/${id}/events`, { cookie: alice.cookieHeader() });
    const room: Room<any, any> = await second.joinRoom(t.ws, id);
    const roomErrors: unknown[] = [];
    room.onMessage('error', (m) => roomErrors.push(m));
    room.onMessage('event', () => {});

    // the evidence of the revealed card, for whoever may view the game
    const evidence = await alice.request('GET', `/api/games/${id}/evidence`);
    expect(evidence.status).toBe(200);
    expect(EvidenceSchema.parse(evidence.body)).toMatchObject({ hit: { id: card.id, year: card.year }, year: card.year, reports: [] });
    expect((await getGame(alice, id)).disputable).toEqual({ hit: card, until: expect.any(Number) });

    // refusals over REST, with the error table's codes
    expectError(await first.request('POST', `/api/games/${id}/dispute`, { year: card.year }), 'same_year');
    expectError(await first.request('POST', `/api/games/${id}/vote`, { take: true }), 'no_dispute');
    expectError(await first.request('POST', `/api/games/${id}/dispute/${turn.id}`, { year: 1900 }), 'local_only_dispute');
    expect((await first.request('POST', `/api/games/${id}/dispute`, { year: 'soon' })).status).toBe(400);

    const proposed = card.year === 2000 ? 2001 : 2000;
    expect((await first.request('POST', `/api/games/${id}/dispute`, { year: proposed })).body).toEqual({ type: 'success', message: 'dispute raised successfully' });
    await waitFor(() => roomStateToPayload(room.state.toJSON()).ok && (roomStateToPayload(room.state.toJSON()) as { data: { game: GamePayload } }).data.game.dispute !== null);
    const paused = (roomStateToPayload(room.state.toJSON()) as { ok: true; data: { game: GamePayload } }).data.game;
    expect(paused.dispute).toMatchObject({ by: first.id, year: proposed, outcome: null, votes: [{ player: first.id, take: true }], voters: 3 });
    expect(paused.disputable).toBeNull();
    expect(paused.disputes_used).toEqual({ [first.id]: 1 });
    expect(paused.deadline).toBe(paused.dispute!.until);
    // the game is paused: the confirmation waits for the vote
    const confirmer = paused.players.find((p) => p.state === 'Confirming')!;
    const confirmerUser = [turn, ...others].find((u) => u.id === confirmer.id)!;
    expectError(await confirmerUser.request('POST', `/api/games/${id}/confirm`, { confirm: true }), 'dispute_open');
    expectError(await first.request('POST', `/api/games/${id}/vote`, { take: false }), 'already_voted');
    // the evidence is there during the vote too
    expect((await turn.request('GET', `/api/games/${id}/evidence`)).status).toBe(200);

    // the second vote over the room's socket: 2 of 3 take the year
    room.send('vote', { take: true });
    await waitFor(() => engine(id).dispute?.outcome === 'changed', 5000, 'the vote decided');
    expect(roomErrors).toEqual([]);
    const after = await getGame(alice, id);
    expect(after.dispute).toMatchObject({ outcome: 'changed', year: proposed, hit: { id: card.id, year: card.year } });
    expect(after.hit).toEqual({ ...card, year: proposed });
    expect(after.deadline).toBeNull();

    // the stream: dispute, vote, dispute decided, change_state with the re-judged table
    await waitFor(() => stream.events.some((e) => e.event === 'change_state' && e.data.hit?.year === proposed), 5000, 'the re-judged table on the stream');
    const names = stream.events.map((e) => e.event);
    expect(names.slice(names.indexOf('dispute'))).toEqual(['dispute', 'vote', 'dispute', 'change_state']);
    for (const e of stream.events) expect(parseGameStreamEvent(e.event, e.data).ok, e.event).toBe(true);

    // filed once, with the votes, in the review queue
    const filed = async () => t.server.db.selectFrom('hit_issues').selectAll().where('hit_id', '=', card.id).execute();
    let rows = await filed();
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await filed();
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'dispute', year: proposed, game_id: id });
    // ... and shown as evidence from now on, with its votes
    const later = await alice.request('GET', `/api/games/${id}/evidence`);
    const reports = EvidenceSchema.parse(later.body).reports;
    expect(reports).toHaveLength(1);
    // a guest has no read_issues: the table sees the dispute and its outcome, not who reported it nor its text
    expect(reports[0]).toMatchObject({ year: proposed, votes: { take: 2, keep: 0, voters: 3 }, outcome: 'changed', reporter: null, message: '' });
    expect((await t.server.users.createAccount('curator', 'correct horse battery', ALL_PERMISSIONS)).ok).toBe(true);
    const curator = await User.guest(t.base);
    expect((await curator.request('POST', '/api/users/login', { username: 'curator', password: 'correct horse battery' })).status).toBe(200);
    await curator.auth();
    const full = EvidenceSchema.parse((await curator.request('GET', `/api/games/${id}/evidence`)).body).reports;
    expect(full[0]?.reporter).toBeTruthy();
    expect(full[0]?.message).not.toBe('');
    stream.close();
    await room.leave();
  });

  it('a Local game: the creator disputes and votes for his seats (disputeFor, voteFor); a kept year', async () => {
    const alice = await User.guest(t.base);
    const made = await alice.request('POST', '/api/games', { mode: 'Local', settings: { goal: 5, start_tokens: 0, guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0, reveal_time: 15 } });
    const id = made.body.id as string;
    for (const name of ['Bea', 'Cem']) expect((await alice.request('PATCH', `/api/games/${id}/join/${name}`)).status).toBe(200);
    expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
    let g = await getGame(alice, id);
    const turn = g.players.find((p) => p.turn_player)!;
    expect((await alice.request('POST', `/api/games/${id}/guess/${turn.id}`, { id: turn.slots[0]!.id })).status).toBe(200);
    g = await getGame(alice, id);
    const [a, b, c] = g.players as [(typeof g.players)[0], (typeof g.players)[0], (typeof g.players)[0]];
    expect((await alice.request('POST', `/api/games/${id}/dispute/${a.id}`, { year: g.hit!.year + 1 })).body).toEqual({ type: 'success', message: 'dispute raised successfully' });
    expect((await alice.request('POST', `/api/games/${id}/vote/${b.id}`, { take: false })).body).toEqual({ type: 'success', message: 'vote cast successfully' });
    expect((await alice.request('POST', `/api/games/${id}/vote/${c.id}`, { take: false })).status).toBe(200);
    g = await getGame(alice, id);
    expect(g.dispute).toMatchObject({ outcome: 'kept', votes: [{ player: a.id, take: true }, { player: b.id, take: false }, { player: c.id, take: false }] });
    expect(g.hit!.year).toBe(g.dispute!.hit.year);
  });
});
