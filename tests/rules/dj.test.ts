import { describe, expect, it } from 'vitest';
import {
  applyAction,
  applySettingsPatch,
  audioAccess,
  autoClueMode,
  createGame,
  defaultSettings,
  djClip,
  viewGame,
  type Game,
  type GameEvent,
  type Hit,
  type Player,
  type SettingsPatch,
} from '../../shared/rules/index.ts';
import { act, makeHits, newGame, PACK_A, PACK_B, reject, testSeed, uid } from './helpers.ts';

/**
 * The `dj` clue mode (issue 27 §2): a DJ's device plays each hidden hit from
 * YouTube. The DJ is the creator or a player he names, plays along or sits out;
 * only the DJ learns the hidden hit's video (djClip), nothing else of the
 * engine's output names it.
 */

const ALICE = uid(1);
const BOB = uid(2);
const CAROL = uid(3);
const DAVE = uid(4);
const STRANGER = uid(99);
const PACKS = [PACK_A, PACK_B];

/** Hits with a video each (id and offset), and some without. */
const VIDEO_HITS: Hit[] = makeHits(120).map((h, i) => ({ ...h, yt_id: `vid${String(i).padStart(8, '0')}`, playback_offset: 30 + (i % 50) }));
const PLAIN_HITS: Hit[] = makeHits(200, { prefix: 'plain' });

/** An Open game of ALICE in dj mode, `users` seated, then `settings` applied (a named DJ must be seated first). */
function lobby(settings: SettingsPatch = {}, users: string[] = [BOB, CAROL]): Game {
  let g = newGame('Public', { settings: { goal: 3, clue_mode: 'dj' } });
  users.forEach((id, i) => {
    g = act(g, { type: 'join', by: id, name: `user${i + 2}` }).game;
  });
  return act(g, { type: 'update', by: ALICE, settings, pack_ids: PACKS }).game;
}

const start = (g: Game, hits: Hit[] = [...VIDEO_HITS, ...PLAIN_HITS]) => act(g, { type: 'start', by: ALICE, hits });
const seat = (g: Game, id: string) => g.players.find((p) => p.id === id) as Player;
const turn = (g: Game) => g.players.find((p) => p.turn_player) as Player;

/** Every string the engine shows anybody: views for every viewer, and the events. */
function shown(g: Game, events: readonly GameEvent[] = []): string {
  const viewers = [null, STRANGER, ...g.players.map((p) => p.id)];
  return JSON.stringify([viewers.map((v) => viewGame(g, v)), events]);
}

/** Asserts that nothing shown names the hidden hit's video or offset (or the hit itself). */
function expectHidden(g: Game, events: readonly GameEvent[] = []): void {
  const h = g.current;
  expect(h, 'a hidden hit').toBeTruthy();
  const text = shown(g, events);
  expect(text.includes(h!.yt_id!), `the hidden video ${h!.yt_id}`).toBe(false);
  expect(text.includes(h!.id), `the hidden hit ${h!.id}`).toBe(false);
  expect(text).not.toContain('playback_offset');
  expect(text).not.toContain('yt_id');
}

describe('dj settings', () => {
  it('default: the creator is the DJ and plays along', () => {
    expect(defaultSettings(PACKS)).toMatchObject({ dj: '', dj_plays: true });
  });

  it('dj is a string, dj_plays a boolean', () => {
    const base = defaultSettings(PACKS);
    const bad = (patch: unknown) => {
      const r = applySettingsPatch(base, patch, PACKS);
      return !r.ok && [r.error.status, r.error.code, r.error.message];
    };
    expect(bad({ dj: 7 })).toEqual([400, 'invalid_setting', "dj must be a player's id, or empty for the creator"]);
    expect(bad({ dj: 'x'.repeat(65) })).toEqual([400, 'invalid_setting', "dj must be a player's id, or empty for the creator"]);
    expect(bad({ dj_plays: 'no' })).toEqual([400, 'invalid_setting', 'dj_plays must be true or false']);
    const ok = applySettingsPatch(base, { clue_mode: 'dj', dj: BOB, dj_plays: false }, PACKS);
    expect(ok.ok && [ok.settings.clue_mode, ok.settings.clue_mode_auto, ok.settings.dj, ok.settings.dj_plays]).toEqual(['dj', false, BOB, false]);
  });

  it('the named DJ must sit at the game; a player who leaves stops being the chosen DJ', () => {
    let g = lobby();
    const refused = reject(g, { type: 'update', by: ALICE, settings: { dj: STRANGER }, pack_ids: PACKS });
    expect([refused.status, refused.code, refused.message]).toEqual([400, 'invalid_setting', 'dj must be the id of a player of this game, or empty for the creator']);
    g = act(g, { type: 'update', by: ALICE, settings: { dj: BOB }, pack_ids: PACKS }).game;
    expect(g.settings.dj).toBe(BOB);
    g = act(g, { type: 'leave', by: BOB }).game;
    expect(g.settings.dj).toBe('');
    // a new game may only name its creator
    const made = createGame({ id: 'AbCd1234', mode: 'Public', creator: { id: ALICE, name: 'a' }, seed: testSeed(1), packIds: PACKS, settings: { dj: BOB } });
    expect(!made.ok && made.error.code).toBe('invalid_setting');
    expect(createGame({ id: 'AbCd1234', mode: 'Public', creator: { id: ALICE, name: 'a' }, seed: testSeed(1), packIds: PACKS, settings: { dj: ALICE } }).ok).toBe(true);
  });

  it('a Local game has no DJ: its one screen is everybody\'s', () => {
    const local = newGame('Local');
    const e = reject(local, { type: 'update', by: ALICE, settings: { clue_mode: 'dj' }, pack_ids: PACKS });
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_setting', 'clue_mode must be audio or card in a Local game, whose one screen everybody sees']);
    const made = createGame({ id: 'AbCd1234', mode: 'Local', creator: { id: ALICE, name: 'a' }, seed: testSeed(1), packIds: PACKS, settings: { clue_mode: 'dj' } });
    expect(!made.ok && made.error.code).toBe('invalid_setting');
    // an automatic Local game told to play dj (no server does) refuses to start
    let auto = newGame('Local');
    auto = act(auto, { type: 'join_local', by: ALICE, name: 'bob' }).game;
    expect(reject(auto, { type: 'start', by: ALICE, hits: VIDEO_HITS, clue_mode: 'dj' }).code).toBe('invalid_setting');
  });
});

describe('the automatic clue mode', () => {
  it('never picks a DJ: audio when enough hits have audio, else cards (a DJ is the creator\'s choice)', () => {
    // 2 players × goal 10 × 2 = 40 hits
    expect(autoClueMode(40, 2, 10)).toBe('audio');
    expect(autoClueMode(39, 2, 10)).toBe('card');
  });

  it('a start told dj (no server does: the engine takes any mode it is told) plays dj with the creator as DJ', () => {
    const g = start(lobby({ clue_mode: 'card', clue_mode_auto: true }), VIDEO_HITS);
    expect(g.game.settings.clue_mode).toBe('card'); // told nothing: the stored mode
    const r = act(lobby({ clue_mode: 'card', clue_mode_auto: true }), { type: 'start', by: ALICE, hits: VIDEO_HITS, clue_mode: 'dj' });
    expect([r.game.settings.clue_mode, r.game.settings.clue_mode_auto]).toEqual(['dj', true]);
    expect(r.game.dj).toEqual({ id: ALICE, plays: true });
  });
});

describe('a dj round', () => {
  it('deals only hits with a video, and counts only those for the start', () => {
    const g = start(lobby()).game;
    const dealt = [g.current!, ...g.players.flatMap((p) => p.hits), ...g.deck];
    expect(dealt.every((h) => !!h.yt_id)).toBe(true);
    // 3 players × goal 3 × 2 = 18 hits with a video needed
    const e = reject(lobby(), { type: 'start', by: ALICE, hits: [...VIDEO_HITS.slice(0, 17), ...PLAIN_HITS] });
    expect([e.code, e.message]).toEqual(['not_enough_hits', "There aren't enough hits available to start a game (17 individual hits in the currently selected packs, 18 hits are required)"]);
    expect(start(lobby(), [...VIDEO_HITS.slice(0, 18), ...PLAIN_HITS]).game.state).toBe('Guessing');
  });

  it('the creator is the DJ unless he names a player; the payload says who, and whether he plays', () => {
    const own = start(lobby()).game;
    expect(own.dj).toEqual({ id: ALICE, plays: true });
    expect(viewGame(own, STRANGER)?.dj_seat).toEqual({ id: ALICE, plays: true });
    const named = start(lobby({ dj: BOB, dj_plays: false })).game;
    expect(named.dj).toEqual({ id: BOB, plays: false });
    expect(viewGame(named, null)?.dj_seat).toEqual({ id: BOB, plays: false });
    expect(viewGame(lobby(), null)?.dj_seat).toBeNull();
    // an audio or card round has none
    expect(start(lobby({ clue_mode: 'card' })).game.dj).toBeNull();
  });

  it('a DJ who sits out gets no card, no tokens, no turn, never intercepts, and is not in the standings', () => {
    let g = start(lobby({ dj: BOB, dj_plays: false, start_tokens: 3 })).game;
    expect(seat(g, BOB)).toMatchObject({ hits: [], tokens: 0, turn_player: false, state: 'Waiting' });
    expect(seat(g, ALICE).hits).toHaveLength(1);
    expect(seat(g, CAROL).tokens).toBe(3);
    for (let i = 0; i < 12 && g.state !== 'Open'; i++) {
      expect(turn(g).id).not.toBe(BOB);
      const t = turn(g);
      g = act(g, { type: 'guess', by: t.id, slot: 1 }).game;
      if (g.state === 'Intercepting') {
        expect(seat(g, BOB).state).toBe('Waiting');
        expect(reject(g, { type: 'guess', by: BOB, slot: 2 }).code).toBe('cannot_guess');
        for (const p of g.players.filter((q) => q.state === 'Intercepting')) g = act(g, { type: 'guess', by: p.id, slot: null }).game;
      }
      if (g.state === 'Confirming') {
        const c = g.players.find((p) => p.state === 'Confirming') as Player;
        g = act(g, { type: 'confirm', by: c.id, confirm: true }).game;
      }
      expect(seat(g, BOB)).toMatchObject({ hits: [], tokens: 0, turn_player: false });
    }
    if (g.state !== 'Open') g = act(g, { type: 'stop', by: ALICE }).game;
    expect(g.standings?.map((p) => p.id).sort()).toEqual([ALICE, CAROL].sort());
    expect(g.dj).toBeNull();
  });

  it('a DJ who sits out needs two players besides him', () => {
    const e = reject(lobby({ dj: BOB, dj_plays: false }, [BOB]), { type: 'start', by: ALICE, hits: VIDEO_HITS });
    expect([e.status, e.code, e.message]).toEqual([409, 'not_enough_players_dj', 'you need at least two players besides the DJ, who sits out, to start a game']);
    // 2 playing seats × goal 3 × 2 = 12 hits suffice when the DJ sits out
    expect(start(lobby({ dj: BOB, dj_plays: false }), VIDEO_HITS.slice(0, 12)).game.state).toBe('Guessing');
  });

  it('when the DJ leaves, the creator becomes the DJ and plays; too few players left ends the round', () => {
    let g = start(lobby({ dj: BOB, dj_plays: false }, [BOB, CAROL, DAVE])).game;
    const left = act(g, { type: 'leave', by: BOB });
    g = left.game;
    // the leave names the new DJ, so every device can say who plays the hits now
    expect(left.events.find((e) => e.event === 'leave')?.data.dj?.id).toBe(ALICE);
    expect(g.state).not.toBe('Open');
    expect(g.dj).toEqual({ id: ALICE, plays: true });
    expect(viewGame(g, null)?.dj_seat).toEqual({ id: ALICE, plays: true });
    // another player's leave names no DJ
    expect(act(g, { type: 'leave', by: CAROL }).events.find((e) => e.event === 'leave')?.data.dj).toBeUndefined();
    // the creator DJ leaves: the next creator takes over
    g = act(g, { type: 'leave', by: ALICE }).game;
    const creator = g.players.find((p) => p.creator) as Player;
    expect(g.dj).toEqual({ id: creator.id, plays: true });
    // a DJ who sits out, with two players: one of them leaves, the round ends
    let small = start(lobby({ dj: BOB, dj_plays: false })).game;
    small = act(small, { type: 'leave', by: CAROL }).game;
    expect(small.state).toBe('Open');
    expect(small.dj).toBeNull();
  });
});

describe('who learns the hidden hit (djClip)', () => {
  it('the DJ alone gets the hidden hit\'s video and offset, for hit_duration seconds; nothing else shows it', () => {
    const r = start(lobby({ dj: BOB, hit_duration: 7 }));
    let g = r.game;
    expectHidden(g, r.events);
    const clip = djClip(g, BOB);
    expect(clip).toEqual({ ok: true, clip: { draws: g.draws, yt_id: g.current!.yt_id, start: g.current!.playback_offset, seconds: 7, hidden: true } });
    for (const viewer of [ALICE, CAROL, STRANGER, null]) {
      expect(djClip(g, viewer)).toEqual({ ok: false, error: { status: 403, code: 'dj_only', message: "only the DJ's device receives the hidden hit's video" } });
    }
    // a skip draws a new hidden hit: the DJ's answer follows it
    const t = turn(g);
    const skipped = act(g, { type: 'skip', by: t.id });
    g = skipped.game;
    expectHidden(g, skipped.events);
    expect(djClip(g, BOB)).toMatchObject({ ok: true, clip: { draws: g.draws, yt_id: g.current!.yt_id, hidden: true } });
    // Intercepting: still hidden, still the DJ's alone
    const placed = act(g, { type: 'guess', by: turn(g).id, slot: 1 });
    g = placed.game;
    expect(g.state).toBe('Intercepting');
    expectHidden(g, placed.events);
    expect(djClip(g, BOB)).toMatchObject({ ok: true, clip: { hidden: true, seconds: 7 } });
    expect(djClip(g, ALICE)).toMatchObject({ ok: false, error: { code: 'dj_only' } });
  });

  it('the revealed hit plays to its end; before a start and in other modes there is nothing', () => {
    let g = start(lobby({ start_tokens: 0 })).game;
    const hidden = g.current!;
    g = act(g, { type: 'guess', by: turn(g).id, slot: 1 }).game;
    expect(g.state).toBe('Confirming');
    expect(djClip(g, ALICE)).toEqual({ ok: true, clip: { draws: g.draws, yt_id: hidden.yt_id, start: hidden.playback_offset, seconds: null, hidden: false } });
    expect(djClip(g, BOB)).toMatchObject({ ok: false, error: { code: 'dj_only' } });
    expect(djClip(lobby(), ALICE)).toMatchObject({ ok: false, error: { code: 'audio_not_running' } });
    expect(djClip(start(lobby({ clue_mode: 'card' })).game, ALICE)).toEqual({ ok: false, error: { status: 404, code: 'no_dj_mode', message: "this game's hits are not played by a DJ" } });
  });

  it('the server sends no audio of a hidden hit in a dj round', () => {
    const g = start(lobby()).game;
    expect(audioAccess(g, ALICE)).toEqual({ ok: false, error: { status: 404, code: 'no_audio_dj_mode', message: "this game's DJ plays its hits from YouTube; the server sends no audio" } });
  });

  it('hits without an offset start at 0', () => {
    const bare = VIDEO_HITS.map(({ playback_offset: _o, ...h }) => h);
    const g = start(lobby(), bare).game;
    expect(djClip(g, ALICE)).toMatchObject({ ok: true, clip: { start: 0 } });
  });

  it('a whole dj game never shows the hidden hit to anybody, in any view or event', () => {
    let g = start(lobby({ dj: CAROL, goal: 5, start_tokens: 1 })).game;
    let checks = 0;
    for (let i = 0; i < 40 && g.state !== 'Open'; i++) {
      let r;
      if (g.state === 'Guessing') r = applyAction(g, { type: 'guess', by: turn(g).id, slot: i % 2 ? 1 : 2 }, { now: 1_000_000 });
      else if (g.state === 'Intercepting') {
        const p = g.players.find((q) => q.state === 'Intercepting') as Player;
        r = applyAction(g, { type: 'guess', by: p.id, slot: null }, { now: 1_000_000 });
      } else {
        const c = g.players.find((p) => p.state === 'Confirming') as Player;
        r = applyAction(g, { type: 'confirm', by: c.id, confirm: i % 3 === 0 }, { now: 1_000_000 });
      }
      if (!r.ok) throw new Error(r.error.message);
      g = r.game;
      if (g.current) {
        expectHidden(g, r.events);
        checks++;
      }
    }
    expect(checks).toBeGreaterThan(5);
  });
});
