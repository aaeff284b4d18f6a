import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../../server/services/audio/ffmpeg.ts';
import { matchMaker } from '@colyseus/core';
import type { GameRoom } from '../../server/rooms/game-room.ts';
import { remainingDeck } from '../../shared/rules/index.ts';
import { bootServer, User, waitFor, type TestServer } from './harness.ts';

/**
 * The audio endpoint's access rules (docs/rules.md#a12, #errors audio rows). Every hit gets
 * the same short processed tone, so a permitted request is served (200); serving
 * details are tests/server/audio-serving.test.ts.
 */

let t: TestServer;
let alice: User;
let bob: User;
let carol: User;
let tone: string;

/** Every hit of the catalogue gets the tone as its processed audio (again, after a test deleted some). */
async function giveEveryHitAudio(): Promise<void> {
  const dir = t.server.config.AUDIO_DIR;
  for (const { id } of await t.server.db.selectFrom('hits').select('id').execute()) {
    copyFileSync(`${tone}.opus`, join(dir, `${id}.opus`));
    copyFileSync(`${tone}.mp3`, join(dir, `${id}.mp3`));
  }
}

beforeAll(async () => {
  t = await bootServer();
  // every hit gets processed audio (one generated tone), so games can run in `audio` clue mode
  const dir = t.server.config.AUDIO_DIR;
  mkdirSync(dir, { recursive: true });
  tone = join(t.dir, 'tone');
  const ff = ffmpegPath(undefined);
  execFileSync(ff, ['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4', '-ar', '48000', '-c:a', 'libopus', '-b:a', '64k', `${tone}.opus`]);
  execFileSync(ff, ['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4', '-ar', '44100', '-c:a', 'libmp3lame', '-q:a', '6', `${tone}.mp3`]);
  await giveEveryHitAudio();
  await t.server.db.updateTable('hits').set({ audio_state: 'ready' }).execute();
  [alice, bob, carol] = await Promise.all([User.guest(t.base), User.guest(t.base), User.guest(t.base)]);
});
afterAll(async () => {
  await t?.stop();
});

async function runningGame(mode: 'Public' | 'Private', clue_mode: 'audio' | 'card'): Promise<string> {
  const created = await alice.request('POST', '/api/games', { mode, settings: { clue_mode, goal: 3 } });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await bob.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
  expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
  return id;
}

const error = (status: number, code: string, message: string) => ({ status, body: { type: 'error', code, message } });
/** Served: 200 with audio. */
const served = async (u: User | null, path: string) => {
  const r = u ? await u.request('GET', path) : await new User(t.base).request('GET', path);
  return { status: r.status, audio: /^audio\//.test(r.headers.get('content-type') ?? '') };
};
const SERVED = { status: 200, audio: true };
/** The hidden clip's URL names the turn: `?draw=` the game's `draws`. */
const clip = async (id: string) => `/api/games/${id}/hit?draw=${(await alice.request('GET', `/api/games/${id}`)).body.draws}`;
const get = async (u: User | null, path: string) => {
  const r = u ? await u.request('GET', path) : await new User(t.base).request('GET', path);
  return { status: r.status, body: r.body };
};

describe('GET /api/games/{id}/hit', () => {
  it('404 for an unknown game, 400 for malformed ids', async () => {
    expect(await get(alice, '/api/games/ZZZZ9999/hit')).toEqual(error(404, 'game_not_found', 'game not found'));
    expect((await get(alice, '/api/games/abc/hit')).status).toBe(400);
    const id = await runningGame('Public', 'audio');
    const bad = await get(alice, `/api/games/${id}/hit/not-a-uuid`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^hit /);
  });

  it("409 while the game isn't running", async () => {
    const created = await alice.request('POST', '/api/games', { mode: 'Public' });
    expect(await get(alice, `/api/games/${created.body.id}/hit`)).toEqual(error(409, 'audio_not_running', "game currently isn't running"));
  });

  it('a hit nobody owns is not revealed; an owned one is served; one whose files went missing is a clear 404', async () => {
    const id = await runningGame('Public', 'audio');
    const game = (await alice.request('GET', `/api/games/${id}`)).body;
    const owned = game.players[0].hits[0].id as string;
    expect(await get(alice, `/api/games/${id}/hit/00000000-0000-4000-8000-000000000000`)).toEqual(
      error(404, 'hit_not_revealed', "the hit isn't currently revealed"),
    );
    expect(await served(carol, `/api/games/${id}/hit/${owned}`)).toEqual(SERVED);
    for (const ext of ['opus', 'mp3']) rmSync(join(t.server.config.AUDIO_DIR, `${owned}.${ext}`));
    expect(await get(carol, `/api/games/${id}/hit/${owned}`)).toEqual(error(404, 'hit_file_missing', "hit file couldn't be found"));
    // a later game could draw this hit and replace it (A8), which the other tests do not expect
    await giveEveryHitAudio();
  });

  it('the hidden clip: players and spectators of a Public game pass the access check, no-store', async () => {
    const id = await runningGame('Public', 'audio');
    const url = await clip(id);
    for (const u of [alice, bob, carol, null]) expect(await served(u, url)).toEqual(SERVED);
    const r = await alice.request('GET', url);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('the hidden clip: a past draw is refused (the URL changes every turn); none (the reference server\'s ?key=) is the current card', async () => {
    const id = await runningGame('Public', 'audio');
    const draws = (await alice.request('GET', `/api/games/${id}`)).body.draws as number;
    expect(await served(alice, `/api/games/${id}/hit?key=0.5194`)).toEqual(SERVED);
    expect(await get(alice, `/api/games/${id}/hit?draw=${draws - 1}`)).toEqual(
      error(409, 'stale_clip', `this clip's turn is over: the game is at draw ${draws}, ask for ?draw=${draws}`),
    );
  });

  it("a Private game's hidden clip is for its players only", async () => {
    const id = await runningGame('Private', 'audio');
    const url = await clip(id);
    expect(await served(bob, url)).toEqual(SERVED);
    expect(await get(carol, url)).toEqual(error(403, 'audio_members_only', 'only players of this game may hear its hidden hit'));
    expect((await get(null, url)).status).toBe(403);
  });

  it('card clue mode has no audio, with a clear 404', async () => {
    const id = await runningGame('Public', 'card');
    expect(await get(alice, `/api/games/${id}/hit`)).toEqual(error(404, 'no_audio_card_mode', 'this game shows its hits as cards and has no audio'));
  });

  it('a Local game does not exist for another user', async () => {
    const created = await alice.request('POST', '/api/games', { mode: 'Local', settings: { clue_mode: 'audio', goal: 3 } });
    const id = created.body.id as string;
    expect((await alice.request('PATCH', `/api/games/${id}/join/Zoe`)).status).toBe(200);
    expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
    expect(await served(alice, await clip(id))).toEqual(SERVED);
    expect(await get(carol, await clip(id))).toEqual(error(404, 'game_not_found', 'game not found'));
  });

  it('A8: a drawn card whose audio went missing is replaced by the next one, at no cost', async () => {
    const id = await runningGame('Public', 'audio');
    const room = matchMaker.getLocalRoomById(id) as unknown as GameRoom;
    const turn = room.game.players.find((p) => p.turn_player)!;
    const next = remainingDeck(room.game)[0]!;
    const after = remainingDeck(room.game)[1]!;
    for (const ext of ['opus', 'mp3']) rmSync(join(t.server.config.AUDIO_DIR, `${next.id}.${ext}`));
    const skipper = turn.id === alice.id ? alice : bob;
    expect((await skipper.request('POST', `/api/games/${id}/skip`)).status).toBe(200);
    await waitFor(() => room.game.current?.id === after.id, 5000, 'the missing card replaced');
    expect(room.game.players.find((p) => p.id === turn.id)!.tokens).toBe(turn.tokens - 1); // the skip's token only
    expect(room.game.state).toBe('Guessing');
    expect(await served(skipper, await clip(id))).toEqual(SERVED);
  });

  it('A8 during a year dispute: a card drawn while the table votes is checked, and replaced, once the vote is decided', async () => {
    const created = await alice.request('POST', '/api/games', { mode: 'Public', settings: { clue_mode: 'audio', goal: 3, reveal_time: 15 } });
    const id = created.body.id as string;
    for (const u of [bob, carol]) expect((await u.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
    expect((await alice.request('PATCH', `/api/games/${id}/start`)).status).toBe(200);
    const room = matchMaker.getLocalRoomById(id) as unknown as GameRoom;
    const users = new Map([alice, bob, carol].map((u) => [u.id, u]));
    const turn = room.game.players.find((p) => p.turn_player)!;
    const [first, second] = room.game.players.filter((p) => p !== turn).map((p) => users.get(p.id)!);
    expect((await users.get(turn.id)!.request('POST', `/api/games/${id}/guess`, { id: 1 })).status).toBe(200);
    for (const u of [first!, second!]) await u.request('POST', `/api/games/${id}/guess`, { id: null });
    await waitFor(() => room.game.state === 'Confirming', 5000, 'the reveal');
    const next = remainingDeck(room.game)[0]!;
    const after = remainingDeck(room.game)[1]!;
    for (const ext of ['opus', 'mp3']) rmSync(join(t.server.config.AUDIO_DIR, `${next.id}.${ext}`));
    expect((await first!.request('POST', `/api/games/${id}/dispute`, { year: room.game.hit!.year + 1 })).status).toBe(200);
    // the turn player leaves while the table votes: the next turn draws the card without audio, and nothing may replace it yet
    expect((await users.get(turn.id)!.request('PATCH', `/api/games/${id}/leave`)).status).toBe(200);
    await waitFor(() => room.game.current?.id === next.id, 5000, 'the next card drawn during the vote');
    await new Promise((r) => setTimeout(r, 200));
    expect(room.game.current?.id).toBe(next.id);
    // one take, one keep of two seats: the year stays, the game goes on, and the card is replaced
    expect((await second!.request('POST', `/api/games/${id}/vote`, { take: false })).status).toBe(200);
    await waitFor(() => room.game.current?.id === after.id, 5000, 'the missing card replaced after the vote');
    expect(room.game.dispute?.outcome).toBe('kept');
  });
});
