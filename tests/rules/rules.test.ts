import { describe, expect, it } from 'vitest';
import {
  applyAction,
  applySettingsPatch,
  autoClueMode,
  createGame,
  defaultSettings,
  fillMissingLooks,
  hitKey,
  hitsNeeded,
  isCorrect,
  parseAction,
  LIMITS,
  Rng,
  streamFrom,
  slotsFor,
  summarizeGame,
  viewGame,
  type Action,
  type Player,
  type Game,
  type Hit,
  type Settings,
  type Slot,
  remainingDeck,
} from '../../shared/rules/index.ts';
import { createCipheriv, randomBytes } from 'node:crypto';
import { act, makeHits, newGame, PACK_A, PACK_B, reject, testSeed, uid } from './helpers.ts';

/** Unit tests per rule: slots (B6), correctness, settings (A9), players (A10), deck (A8), seeded RNG. */

const hitOf = (year: number, id = `y${year}`): Hit => ({ id, title: id, artist: 'a', belongs_to: '', year, packs: [PACK_A], yt_id: null });
const slot = (id: number, from_year: number, to_year: number): Slot => ({ id, from_year, to_year });

// ---------------------------------------------------------------------------

describe('slotsFor (docs/rules.md#slots)', () => {
  it('an empty timeline has no slots', () => {
    expect(slotsFor([])).toEqual([]);
  });

  it('one card gives "before" and "after"', () => {
    expect(slotsFor([hitOf(1988)])).toEqual([slot(1, 0, 1988), slot(2, 1988, 0)]);
  });

  it('k distinct years give k+1 slots in ascending order, whatever the acquisition order', () => {
    const hits = [hitOf(2001), hitOf(1975), hitOf(1990)];
    expect(slotsFor(hits)).toEqual([slot(1, 0, 1975), slot(2, 1975, 1990), slot(3, 1990, 2001), slot(4, 2001, 0)]);
  });

  it('duplicate years collapse into one', () => {
    const hits = [hitOf(1990, 'a'), hitOf(1980, 'b'), hitOf(1990, 'c'), hitOf(1980, 'd')];
    expect(slotsFor(hits)).toEqual([slot(1, 0, 1980), slot(2, 1980, 1990), slot(3, 1990, 0)]);
  });

  it('ids are 1..k+1 without gaps and neighbouring slots share their bound', () => {
    const hits = makeHits(40);
    const slots = slotsFor(hits);
    const distinct = new Set(hits.map((h) => h.year)).size;
    expect(slots).toHaveLength(distinct + 1);
    expect(slots.map((s) => s.id)).toEqual(Array.from({ length: distinct + 1 }, (_, i) => i + 1));
    for (let i = 1; i < slots.length; i++) expect((slots[i] as Slot).from_year).toBe((slots[i - 1] as Slot).to_year);
    expect(slots[0]?.from_year).toBe(0);
    expect(slots.at(-1)?.to_year).toBe(0);
  });

  it('never mutates the hits it is given', () => {
    const hits = [hitOf(2001), hitOf(1975)];
    const copy = structuredClone(hits);
    slotsFor(hits);
    expect(hits).toEqual(copy);
  });
});

describe('isCorrect (docs/rules.md#slots: both bounds inclusive, 0 = open end)', () => {
  it('"before y" takes every year up to and including y', () => {
    expect(isCorrect(slot(1, 0, 1988), 1950)).toBe(true);
    expect(isCorrect(slot(1, 0, 1988), 1988)).toBe(true);
    expect(isCorrect(slot(1, 0, 1988), 1989)).toBe(false);
  });

  it('"after y" takes every year from y on', () => {
    expect(isCorrect(slot(2, 1988, 0), 2020)).toBe(true);
    expect(isCorrect(slot(2, 1988, 0), 1988)).toBe(true);
    expect(isCorrect(slot(2, 1988, 0), 1987)).toBe(false);
  });

  it('"between a and b" includes both a and b', () => {
    const s = slot(2, 1975, 1990);
    expect([1974, 1975, 1980, 1990, 1991].map((y) => isCorrect(s, y))).toEqual([false, true, true, true, false]);
  });

  it('a year already on the timeline makes both neighbouring slots correct (boundary years)', () => {
    const slots = slotsFor([hitOf(1975), hitOf(1990), hitOf(2001)]);
    expect(slots.filter((s) => isCorrect(s, 1990)).map((s) => s.id)).toEqual([2, 3]);
    expect(slots.filter((s) => isCorrect(s, 1975)).map((s) => s.id)).toEqual([1, 2]);
    expect(slots.filter((s) => isCorrect(s, 2001)).map((s) => s.id)).toEqual([3, 4]);
    // one card: both slots are right for its own year
    expect(slotsFor([hitOf(1988)]).every((s) => isCorrect(s, 1988))).toBe(true);
  });

  it('any other year fits exactly one slot', () => {
    const slots = slotsFor([hitOf(1975), hitOf(1990), hitOf(2001)]);
    for (const y of [1900, 1976, 1989, 1995, 2002, 2024]) expect(slots.filter((s) => isCorrect(s, y))).toHaveLength(1);
  });
});

describe('hitKey: the same recording is the same hit', () => {
  it('equal yt_ids are one hit, otherwise the id decides', () => {
    const a = { ...hitOf(1990, 'a'), yt_id: 'dQw4w9WgXcQ' };
    const b = { ...hitOf(1991, 'b'), yt_id: 'dQw4w9WgXcQ' };
    expect(hitKey(a)).toBe(hitKey(b));
    expect(hitKey(hitOf(1990, 'a'))).not.toBe(hitKey(hitOf(1990, 'b')));
  });

  it('start counts hits with the same yt_id once (enough-hits rule)', () => {
    let g = newGame();
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'update', by: uid(1), settings: { goal: 2 }, pack_ids: [PACK_A, PACK_B] }).game;
    // 8 required; 8 hits but two share a recording
    const hits = makeHits(8).map((h, i) => ({ ...h, yt_id: i < 2 ? 'SAMEyt_id00' : `yt_${String(i).padStart(7, '0')}` }));
    const e = reject(g, { type: 'start', by: uid(1), hits });
    expect(e.code).toBe('not_enough_hits');
    expect(e.message).toContain('(7 individual hits in the currently selected packs, 8 hits are required)');
    expect(act(g, { type: 'start', by: uid(1), hits: [...hits, ...makeHits(1, { prefix: 'x' })] }).game.state).toBe('Guessing');
  });
});

// ---------------------------------------------------------------------------

describe('settings (docs/rules.md#a5, #a9)', () => {
  const PACKS = [PACK_A, PACK_B];

  it('defaults: goal 10, 2 tokens, 20 s, guess off, 30 s to intercept, 60 s to confirm, a 3 s reveal, clue mode decided at the start, every pack', () => {
    expect(defaultSettings(PACKS)).toEqual({
      goal: 10,
      start_tokens: 2,
      hit_duration: 20,
      packs: PACKS,
      guess_timeout: 0,
      intercept_timeout: 30,
      confirm_timeout: 60,
      reveal_time: 3,
      disputes: 2,
      dispute_timeout: 60,
      clue_mode: 'audio',
      clue_mode_auto: true,
      dj: '',
      dj_plays: true,
    } satisfies Settings);
    expect(newGame().settings).toEqual(defaultSettings(PACKS));
  });

  const RANGES: [keyof typeof LIMITS, number, number][] = [
    ['goal', 1, 100],
    ['start_tokens', 0, 10],
    ['hit_duration', 1, 255],
    ['guess_timeout', 0, 600],
    ['intercept_timeout', 0, 600],
    ['confirm_timeout', 0, 600],
    ['reveal_time', 0, 15],
  ];

  it.each(RANGES)('%s accepts %i..%i and rejects values outside with a 400 naming the field', (field, min, max) => {
    const base = defaultSettings(PACKS);
    for (const ok of [min, max, Math.floor((min + max) / 2)]) {
      const r = applySettingsPatch(base, { [field]: ok }, PACKS);
      expect(r.ok && r.settings[field]).toBe(ok);
    }
    for (const bad of [min - 1, max + 1, 2.5, '5', null, true, Number.NaN]) {
      const r = applySettingsPatch(base, { [field]: bad }, PACKS);
      expect(r.ok, `${field} = ${String(bad)}`).toBe(false);
      if (!r.ok) {
        expect(r.error.status).toBe(400);
        expect(r.error.code).toBe('invalid_setting');
        expect(r.error.message).toContain(field);
      }
    }
  });

  it('clue_mode is audio or card', () => {
    const base = defaultSettings(PACKS);
    const card = applySettingsPatch(base, { clue_mode: 'card' }, PACKS);
    expect(card.ok && card.settings.clue_mode).toBe('card');
    const bad = applySettingsPatch(base, { clue_mode: 'video' }, PACKS);
    expect(!bad.ok && [bad.error.status, bad.error.code]).toEqual([400, 'invalid_setting']);
    expect(!bad.ok && bad.error.message).toContain('clue_mode');
  });

  it('a chosen clue_mode turns the automatic choice off; clue_mode_auto turns it back on', () => {
    const base = defaultSettings(PACKS);
    const settings = (patch: unknown) => {
      const r = applySettingsPatch(base, patch, PACKS);
      if (!r.ok) throw new Error(r.error.message);
      return [r.settings.clue_mode, r.settings.clue_mode_auto];
    };
    expect(settings({})).toEqual(['audio', true]);
    expect(settings({ goal: 3, packs: [] })).toEqual(['audio', true]);
    expect(settings({ clue_mode: 'audio' })).toEqual(['audio', false]);
    expect(settings({ clue_mode: 'card' })).toEqual(['card', false]);
    expect(settings({ clue_mode: 'card', clue_mode_auto: true })).toEqual(['card', true]);
    expect(settings({ clue_mode_auto: false })).toEqual(['audio', false]);
    const chosen = applySettingsPatch(base, { clue_mode: 'card' }, PACKS);
    const again = chosen.ok && applySettingsPatch(chosen.settings, { clue_mode_auto: true }, PACKS);
    expect(again && again.ok && [again.settings.clue_mode, again.settings.clue_mode_auto]).toEqual(['card', true]);
    const bad = applySettingsPatch(base, { clue_mode_auto: 'yes' }, PACKS);
    expect(!bad.ok && [bad.error.code, bad.error.message]).toEqual(['invalid_setting', 'clue_mode_auto must be true or false']);
  });

  it('the automatic clue mode is audio when as many hits have audio as the start needs (players × goal × 2), else card', () => {
    expect(hitsNeeded(2, 10)).toBe(40);
    expect(autoClueMode(40, 2, 10)).toBe('audio');
    expect(autoClueMode(39, 2, 10)).toBe('card');
    expect(autoClueMode(0, 2, 1)).toBe('card');
    expect(autoClueMode(60, 3, 10)).toBe('audio');
    expect(autoClueMode(59, 3, 10)).toBe('card');
    // before the table is full: as for the fewest players a game starts with
    expect(autoClueMode(39, 1, 10)).toBe('card');
    expect(autoClueMode(40, 0, 10)).toBe('audio');
  });

  it('a start decides the clue mode of an automatic game (the mode travels in the action); a chosen mode ignores it', () => {
    const hits = makeHits(40);
    const lobby = (settings: Record<string, unknown>) => {
      let g = newGame('Public', { settings: { goal: 10, ...settings } });
      g = act(g, { type: 'join', by: uid(2), name: 'b' }).game;
      return g;
    };
    const auto = act(lobby({}), { type: 'start', by: uid(1), hits, clue_mode: 'card' }).game;
    expect([auto.settings.clue_mode, auto.settings.clue_mode_auto]).toEqual(['card', true]);
    expect(viewGame(auto, uid(1))?.clue).not.toBeNull();
    const chosen = act(lobby({ clue_mode: 'audio' }), { type: 'start', by: uid(1), hits, clue_mode: 'card' }).game;
    expect([chosen.settings.clue_mode, chosen.settings.clue_mode_auto]).toEqual(['audio', false]);
    // without a decision (a log stored before it) the game keeps its mode
    const old = act(lobby({}), { type: 'start', by: uid(1), hits }).game;
    expect(old.settings.clue_mode).toBe('audio');
    expect(parseAction({ type: 'start', by: uid(1), hits, clue_mode: 'video' })).toMatchObject({ ok: false });
    expect(parseAction({ type: 'start', by: uid(1), hits, clue_mode: 'card' })).toMatchObject({ ok: true });
  });

  it('packs must exist; an empty list means every pack; duplicates collapse', () => {
    const base = defaultSettings(PACKS);
    const unknown = uid(4242);
    const r = applySettingsPatch(base, { packs: [PACK_A, unknown] }, PACKS);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect([r.error.status, r.error.code]).toEqual([400, 'unknown_pack']);
      expect(r.error.message).toContain('packs');
      expect(r.error.message).toContain(unknown);
    }
    const all = applySettingsPatch({ ...base, packs: [PACK_A] }, { packs: [] }, PACKS);
    expect(all.ok && all.settings.packs).toEqual(PACKS);
    const dup = applySettingsPatch(base, { packs: [PACK_B, PACK_B] }, PACKS);
    expect(dup.ok && dup.settings.packs).toEqual([PACK_B]);
    const wrongType = applySettingsPatch(base, { packs: 'all' }, PACKS);
    expect(!wrongType.ok && wrongType.error.status).toBe(400);
  });

  it('unknown fields and non-objects are rejected; a partial patch keeps the other fields', () => {
    const base = defaultSettings(PACKS);
    const unknown = applySettingsPatch(base, { goals: 5 }, PACKS);
    expect(!unknown.ok && [unknown.error.status, unknown.error.code]).toEqual([400, 'invalid_setting']);
    expect(!unknown.ok && unknown.error.message).toContain('goals');
    for (const notAnObject of [null, 5, 'goal', [1]]) expect(applySettingsPatch(base, notAnObject, PACKS).ok).toBe(false);
    const partial = applySettingsPatch(base, { goal: 5 }, PACKS);
    expect(partial.ok && partial.settings).toEqual({ ...base, goal: 5 });
    // the input is never changed
    expect(base).toEqual(defaultSettings(PACKS));
  });

  it('createGame validates its settings like update', () => {
    const bad = createGame({ id: 'AbCd1234', mode: 'Public', creator: { id: uid(1), name: 'a' }, seed: testSeed(1), packIds: PACKS, settings: { goal: 0 } });
    expect(!bad.ok && [bad.error.status, bad.error.code]).toEqual([400, 'invalid_setting']);
    const good = createGame({ id: 'AbCd1234', mode: 'Public', creator: { id: uid(1), name: 'a' }, seed: testSeed(1), packIds: PACKS, settings: { goal: 4, clue_mode: 'card' } });
    expect(good.ok && good.game.settings).toMatchObject({ goal: 4, clue_mode: 'card', start_tokens: 2 });
  });

  it('the update action stores validated settings, emits them, and leaves the game alone on failure', () => {
    const g = newGame();
    const r = act(g, { type: 'update', by: uid(1), settings: { goal: 5, packs: [], confirm_timeout: 0 }, pack_ids: PACKS });
    expect(r.game.settings).toMatchObject({ goal: 5, packs: PACKS, confirm_timeout: 0 });
    expect(r.events).toEqual([{ event: 'update', data: { settings: r.game.settings } }]);
    const e = reject(r.game, { type: 'update', by: uid(1), settings: { hit_duration: 0 }, pack_ids: PACKS });
    expect([e.status, e.code]).toEqual([400, 'invalid_setting']);
    expect(e.message).toContain('hit_duration');
    // a pack that vanished from the catalogue is caught by the caller's current pack list
    const gone = reject(r.game, { type: 'update', by: uid(1), settings: { packs: [PACK_B] }, pack_ids: [PACK_A] });
    expect(gone.code).toBe('unknown_pack');
  });
});

// ---------------------------------------------------------------------------

describe('players (docs/rules.md#a10)', () => {
  it('at most 10 players', () => {
    let g = newGame();
    for (let i = 2; i <= 10; i++) g = act(g, { type: 'join', by: uid(i), name: `p${i}` }).game;
    expect(g.players).toHaveLength(10);
    const e = reject(g, { type: 'join', by: uid(11), name: 'p11' });
    expect([e.status, e.code]).toEqual([409, 'game_full']);

    let l = newGame('Local');
    for (let i = 2; i <= 10; i++) l = act(l, { type: 'join_local', by: uid(1), name: `v${i}` }).game;
    expect(reject(l, { type: 'join_local', by: uid(1), name: 'v11' }).code).toBe('game_full');
  });

  it('local names are trimmed, 1..32 characters and unique case-insensitively', () => {
    let l = newGame('Local');
    l = act(l, { type: 'join_local', by: uid(1), name: '  Bob  ' }).game;
    expect(l.players[1]?.name).toBe('Bob');
    expect(reject(l, { type: 'join_local', by: uid(1), name: 'BOB' }).code).toBe('name_taken');
    // the creator's own name counts too
    expect(reject(l, { type: 'join_local', by: uid(1), name: 'Alice' }).code).toBe('name_taken');
    for (const bad of ['', '   ', 'x'.repeat(33)]) {
      const e = reject(l, { type: 'join_local', by: uid(1), name: bad });
      expect([e.status, e.code]).toEqual([400, 'name_invalid']);
    }
    expect(act(l, { type: 'join_local', by: uid(1), name: 'x'.repeat(32) }).game.players).toHaveLength(3);
  });

  it('virtual players only in local games, only by the creator, only while Open', () => {
    const pub = newGame('Public');
    expect(reject(pub, { type: 'join_local', by: uid(1), name: 'Bob' }).code).toBe('virtual_only_local');
    let l = newGame('Local');
    l = act(l, { type: 'join_local', by: uid(1), name: 'Bob' }).game;
    l = act(l, { type: 'start', by: uid(1), hits: makeHits(40) }).game;
    expect(reject(l, { type: 'join_local', by: uid(1), name: 'Carol' }).code).toBe('already_running');
  });
});

// ---------------------------------------------------------------------------

/** Plays the running round to its end: every turn player places on slot 1, nobody intercepts, every answer is rejected. */
function playRound(game: Game): Game {
  let g = game;
  for (let i = 0; i < 500 && g.state !== 'Open'; i++) {
    const turn = g.players.find((p) => p.turn_player)!;
    if (g.state === 'Guessing') g = act(g, { type: 'guess', by: turn.id, slot: 1 }).game;
    else if (g.state === 'Confirming') g = act(g, { type: 'confirm', by: g.players.find((p) => p.state === 'Confirming')!.id, confirm: false }).game;
    else g = act(g, { type: 'timeout' }, g.deadline!.at).game;
  }
  expect(g.state).toBe('Open');
  return g;
}

describe("players' colours and avatars", () => {
  const colors = (g: Game) => Object.fromEntries(g.players.map((p) => [p.name, p.color]));
  const join = (g: Game, n: number, avatar?: string) => act(g, { type: 'join', by: uid(n), name: `p${n}`, ...(avatar !== undefined ? { avatar } : {}) }).game;

  it('the creator has colour 0, each joiner the lowest colour no seated player has, and 10 players have all 10', () => {
    let g = newGame();
    expect(colors(g)).toEqual({ alice: 0 });
    for (let i = 2; i <= 10; i++) g = join(g, i);
    expect(g.players.map((p) => p.color)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let l = newGame('Local');
    for (let i = 2; i <= 10; i++) l = act(l, { type: 'join_local', by: uid(1), name: `v${i}` }).game;
    expect(new Set(l.players.map((p) => p.color)).size).toBe(10);
    expect(viewGame(l, uid(1))!.players.map((p) => p.color)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a leaver frees his colour for the next joiner; the others keep theirs', () => {
    let g = newGame();
    for (let i = 2; i <= 5; i++) g = join(g, i);
    g = act(g, { type: 'leave', by: uid(3) }).game;
    g = act(g, { type: 'leave', by: uid(1), player: uid(4) }).game;
    expect(colors(g)).toEqual({ alice: 0, p2: 1, p5: 4 });
    g = join(g, 6);
    g = join(g, 7);
    g = join(g, 8);
    expect(colors(g)).toEqual({ alice: 0, p2: 1, p5: 4, p6: 2, p7: 3, p8: 5 });
    // the creator's colour too, once he is gone (the role passes on, the colour stays with its player)
    g = act(g, { type: 'leave', by: uid(1) }).game;
    expect(g.players.find((p) => p.creator)?.color).toBe(1);
    expect(colors(join(g, 9))).toMatchObject({ p9: 0 });
  });

  it('colours and avatars stay with their players through the reseat at start, the end of a round and a rematch', () => {
    let g = newGame('Public', { settings: { goal: 1, start_tokens: 0 } });
    for (let i = 2; i <= 4; i++) g = join(g, i, ['🦊', '', '🇩🇪'][i - 2]);
    const looks = (x: Game) => Object.fromEntries(x.players.map((p) => [p.id, [p.color, p.avatar]]));
    const before = looks(g);
    const hits = makeHits(200);
    g = act(g, { type: 'start', by: uid(1), hits }).game;
    expect(looks(g)).toEqual(before);
    // goal 1: the first card won ends the round
    g = playRound(g);
    expect(looks(g)).toEqual(before);
    for (const p of g.standings!) expect([p.color, p.avatar]).toEqual(before[p.id]);
    g = act(g, { type: 'start', by: uid(1), hits }).game;
    expect(looks(g)).toEqual(before);
  });

  it('the avatar comes with the join ("" = initials, also when left out) and must be one emoji', () => {
    let g = join(newGame(), 2, '👩🏽‍🎤');
    g = join(g, 3);
    expect(g.players.map((p) => p.avatar)).toEqual(['', '👩🏽‍🎤', '']);
    const events = act(g, { type: 'join', by: uid(4), name: 'p4', avatar: '🐙' }).events;
    expect(events[0]?.data.players?.[0]).toMatchObject({ name: 'p4', color: 3, avatar: '🐙' });
    for (const bad of ['A', '🐙🐙', '©', ' 🐙']) {
      expect(reject(g, { type: 'join', by: uid(4), name: 'p4', avatar: bad }).code).toBe('avatar_invalid');
      const e = reject(newGame('Local'), { type: 'join_local', by: uid(1), name: 'Bo', avatar: bad });
      expect([e.status, e.code]).toEqual([400, 'avatar_invalid']);
    }
    expect(act(newGame('Local'), { type: 'join_local', by: uid(1), name: 'Bo', avatar: '🎸' }).game.players[1]).toMatchObject({ name: 'Bo', avatar: '🎸', color: 1 });
  });

  it('a player changes his avatar in any phase; the creator of a Local game changes any seat\'s', () => {
    let g = join(newGame('Public', { settings: { start_tokens: 0 } }), 2);
    let r = act(g, { type: 'avatar', by: uid(2), avatar: '🚀' });
    expect(r.game.players[1]?.avatar).toBe('🚀');
    expect(r.events.map((e) => e.event)).toEqual(['change_state']);
    expect(r.events[0]?.data.players?.find((p) => p.id === uid(2))?.avatar).toBe('🚀');
    // the same again changes nothing and says nothing
    expect(act(r.game, { type: 'avatar', by: uid(2), avatar: '🚀' }).events).toEqual([]);
    g = act(r.game, { type: 'start', by: uid(1), hits: makeHits(40) }).game;
    r = act(g, { type: 'avatar', by: uid(2), avatar: '' });
    expect(r.game.players.find((p) => p.id === uid(2))?.avatar).toBe('');
    expect(r.game.state).toBe('Guessing');
    expect(r.events[0]?.data.state).toBe('Guessing');
    expect(reject(g, { type: 'avatar', by: uid(2), avatar: 'x' }).code).toBe('avatar_invalid');
    expect(reject(g, { type: 'avatar', by: uid(1), player: uid(2), avatar: '🐼' }).code).toBe('local_only_avatar');
    expect(reject(g, { type: 'avatar', by: uid(9), avatar: '🐼' }).code).toBe('not_a_player');

    let l = act(newGame('Local'), { type: 'join_local', by: uid(1), name: 'Bo' }).game;
    const bo = l.players[1]!.id;
    l = act(l, { type: 'avatar', by: uid(1), player: bo, avatar: '🦖' }).game;
    l = act(l, { type: 'avatar', by: uid(1), avatar: '🌵' }).game;
    expect(l.players.map((p) => p.avatar)).toEqual(['🌵', '🦖']);
  });

  it('rename (the server, after a guest renamed himself) gives his seat the new name; the name rules hold', () => {
    let g = join(newGame(), 2);
    const r = act(g, { type: 'rename', player: uid(2), name: '  Ana ' });
    expect(r.game.players[1]?.name).toBe('Ana');
    expect(r.events.map((e) => e.event)).toEqual(['change_state']);
    expect(summarizeGame(act(g, { type: 'rename', player: uid(1), name: 'Cem' }).game).creator).toBe('Cem');
    g = r.game;
    expect(act(g, { type: 'rename', player: uid(2), name: 'Ana' }).events).toEqual([]);
    expect(reject(g, { type: 'rename', player: uid(2), name: ' ' }).code).toBe('name_invalid');
    expect(reject(g, { type: 'rename', player: uid(2), name: 'x'.repeat(33) }).code).toBe('name_invalid');
    expect(reject(g, { type: 'rename', player: uid(9), name: 'Eve' }).code).toBe('player_not_found');
    // a virtual seat is not a user: nobody renames it this way
    const l = act(newGame('Local'), { type: 'join_local', by: uid(1), name: 'Bo' }).game;
    expect(reject(l, { type: 'rename', player: l.players[1]!.id, name: 'Bob' }).code).toBe('player_not_found');
  });

  it('a game stored before colours and avatars gets them: by seat order, initials; it plays on', () => {
    let g = newGame('Public', { settings: { goal: 1, start_tokens: 0 } });
    for (let i = 2; i <= 4; i++) g = join(g, i, '🦊');
    g = playRound(act(g, { type: 'start', by: uid(1), hits: makeHits(200) }).game);
    expect(g.winner).not.toBeNull();
    // as such a game was stored: no colour or avatar on any player
    const old = JSON.parse(JSON.stringify(g), (key, value: unknown) => (key === 'color' || key === 'avatar' ? undefined : value)) as Game;
    expect(JSON.stringify(old)).not.toMatch(/"color"|"avatar"/);
    const restored = fillMissingLooks(old);
    expect(restored.players.map((p) => [p.color, p.avatar])).toEqual(g.players.map((_, i) => [i, '']));
    const colorOf = new Map(restored.players.map((p) => [p.id, p.color]));
    for (const p of restored.standings!) expect(p.color).toBe(colorOf.get(p.id));
    expect(restored.winner?.color).toBe(colorOf.get(restored.winner!.id));
    expect(viewGame(restored, null)!.players.every((p) => typeof p.color === 'number' && p.avatar === '')).toBe(true);
    // a player who left since keeps his place's colour in the standings; the next joiner gets the lowest free one
    const leaver = restored.players[1]!.id;
    let next = act(restored, { type: 'leave', by: leaver }).game;
    next = join(next, 9);
    expect(next.players.find((p) => p.id === uid(9))?.color).toBe(1);
    // a game stored with them is left as it was
    expect(fillMissingLooks(structuredClone(g))).toEqual(g);
  });
});

// ---------------------------------------------------------------------------

describe('deck (docs/rules.md#a8, #start)', () => {
  function finished(seed: number): { g: Game; hits: Hit[] } {
    const hits = makeHits(16);
    let g = newGame('Public', { seed, settings: { goal: 2 } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'start', by: uid(1), hits }).game;
    // play until the round ends: the turn player is always right, nobody intercepts
    for (let i = 0; i < 10 && g.state !== 'Open'; i++) {
      const turn = g.players.find((p) => p.turn_player) as (typeof g.players)[number];
      const year = (g.current as Hit).year;
      const right = slotsFor(turn.hits).find((s) => isCorrect(s, year)) as Slot;
      g = act(g, { type: 'guess', by: turn.id, slot: right.id }).game;
      const other = g.players.find((p) => p.state === 'Intercepting');
      if (other) g = act(g, { type: 'guess', by: other.id, slot: null }).game;
      const conf = g.players.find((p) => p.state === 'Confirming');
      if (conf) g = act(g, { type: 'confirm', by: conf.id, confirm: true }).game;
    }
    expect(g.state).toBe('Open');
    return { g, hits };
  }

  it('deals one card each, then draws the mystery card from the rest', () => {
    let g = newGame('Public', { seed: 3, settings: { goal: 2, start_tokens: 4 } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'join', by: uid(3), name: 'carol' }).game;
    const hits = makeHits(12);
    g = act(g, { type: 'start', by: uid(1), hits }).game;
    expect(g.players.map((p) => [p.hits.length, p.tokens])).toEqual([
      [1, 4],
      [1, 4],
      [1, 4],
    ]);
    expect(remainingDeck(g)).toHaveLength(12 - 3 - 1);
    expect(g.discard).toEqual([]);
    expect(g.draws).toBe(1);
    const all = [...g.players.flatMap((p) => p.hits), g.current as Hit, ...remainingDeck(g)].map((h) => h.id).sort();
    expect(all).toEqual(hits.map((h) => h.id).sort());
  });

  it('hits outside the selected packs are never dealt', () => {
    let g = newGame('Public', { seed: 4, settings: { goal: 2, packs: [PACK_B] } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    const hits = [...makeHits(20, { packs: [PACK_A], prefix: 'a' }), ...makeHits(8, { packs: [PACK_B], prefix: 'b' })];
    g = act(g, { type: 'start', by: uid(1), hits }).game;
    const dealt = [...g.players.flatMap((p) => p.hits), g.current as Hit, ...remainingDeck(g)];
    expect(dealt).toHaveLength(8);
    expect(dealt.every((h) => h.packs.includes(PACK_B))).toBe(true);
  });

  it('a new start prefers hits not played in earlier rounds of the same game', () => {
    const { g, hits } = finished(8);
    const heard = new Set(g.played);
    expect(heard.size).toBeGreaterThan(0);
    const again = act(g, { type: 'start', by: uid(1), hits }).game;
    const fresh = hits.length - [...heard].filter((k) => hits.some((h) => hitKey(h) === k)).length;
    // the first `fresh` cards of the new round (dealt + current + top of the deck) are all unheard
    const order = [...again.players.flatMap((p) => p.hits), again.current as Hit, ...remainingDeck(again)];
    expect(order.slice(0, fresh).every((h) => !heard.has(hitKey(h)))).toBe(true);
    expect(order.slice(fresh).every((h) => heard.has(hitKey(h)))).toBe(true);
    expect(order).toHaveLength(hits.length);
  });

  it('replace_hit (missing audio) draws the next card at no cost and the turn goes on', () => {
    let g = newGame('Public', { seed: 5, settings: { goal: 2, guess_timeout: 15 } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'start', by: uid(1), hits: makeHits(12) }, 1000).game;
    const turn = g.players.find((p) => p.turn_player)?.id;
    const before = g.current as Hit;
    const next = remainingDeck(g)[0] as Hit;
    const r = act(g, { type: 'replace_hit' }, 5000);
    expect(r.game.current?.id).toBe(next.id);
    expect(r.game.players.find((p) => p.turn_player)?.id).toBe(turn);
    expect(r.game.players.map((p) => p.tokens)).toEqual([2, 2]);
    expect(r.game.draws).toBe(g.draws + 1);
    expect(r.game.deadline).toEqual({ state: 'Guessing', at: 5000 + 15_000 });
    expect(r.events.map((e) => e.event)).toEqual(['change_state']);
    expect(JSON.stringify(r.events)).not.toContain(JSON.stringify(before.id));
    // the unplayable card is out of this round: it does not come back from the discard pile
    expect([...remainingDeck(r.game), ...r.game.discard].map((h) => h.id)).not.toContain(before.id);
    // only while a hidden card is being guessed
    const placed = act(r.game, { type: 'guess', by: turn as string, slot: 1 }).game;
    expect(reject(placed, { type: 'replace_hit' }).code).toBe('no_hit');
  });
});

// ---------------------------------------------------------------------------

describe('winning (B7.5)', () => {
  it('the goal counts the starting card: reaching it by winning a card ends the round at once', () => {
    let g = newGame('Public', { seed: 6, settings: { goal: 2 } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'start', by: uid(1), hits: makeHits(8) }).game;
    const turn = g.players.find((p) => p.turn_player) as (typeof g.players)[number];
    const right = slotsFor(turn.hits).find((s) => isCorrect(s, (g.current as Hit).year)) as Slot;
    g = act(g, { type: 'guess', by: turn.id, slot: right.id }).game;
    const r = act(g, { type: 'guess', by: g.players.find((p) => p.state === 'Intercepting')?.id as string, slot: null });
    expect(r.game.state).toBe('Open');
    expect(r.events.at(-1)?.data.winner?.id).toBe(turn.id);
    expect(r.events.at(-1)?.data.winner?.hits).toHaveLength(2);
  });

  it('goal 1: the deal alone wins nothing; a reveal nobody won goes on, the first card won decides', () => {
    // Decision: a player wins when a card he GAINS brings him to the goal (for goal >= 2 this is exactly
    // The reference server's seat-order check, since only the gainer's count changed). With goal 1 everyone holds the goal
    // after the deal; ending at the first reveal with seat 0 as "winner" whatever happened would be arbitrary.
    let g = newGame('Public', { seed: 6, settings: { goal: 1 } });
    g = act(g, { type: 'join', by: uid(2), name: 'bob' }).game;
    g = act(g, { type: 'start', by: uid(1), hits: makeHits(4) }).game;
    expect(g.state).toBe('Guessing');
    const turn = g.players.find((p) => p.turn_player) as (typeof g.players)[number];
    const wrong = slotsFor(turn.hits).find((s) => !isCorrect(s, (g.current as Hit).year)) as Slot;
    g = act(g, { type: 'guess', by: turn.id, slot: wrong.id }).game;
    const nobody = act(g, { type: 'guess', by: g.players.find((p) => p.state === 'Intercepting')?.id as string, slot: null });
    expect(nobody.game.state).toBe('Confirming');
    expect(nobody.game.winner).toBeNull();
    g = act(nobody.game, { type: 'confirm', by: nobody.game.players.find((p) => p.state === 'Confirming')!.id, confirm: false }).game;
    const next = g.players.find((p) => p.turn_player) as (typeof g.players)[number];
    const right = slotsFor(next.hits).find((s) => isCorrect(s, (g.current as Hit).year)) as Slot;
    g = act(g, { type: 'guess', by: next.id, slot: right.id }).game;
    const won = act(g, { type: 'guess', by: g.players.find((p) => p.state === 'Intercepting')?.id as string, slot: null });
    expect(won.game.state).toBe('Open');
    expect(won.game.winner?.id).toBe(next.id);
  });
});

// ---------------------------------------------------------------------------

describe('random streams (rng.ts)', () => {
  const key = (n: number) => testSeed(n).deck;

  it('is ChaCha20 as RFC 8439 defines it: the keystream equals OpenSSL\'s', () => {
    const hex = key(3);
    const r = new Rng(streamFrom(hex));
    const words = Array.from({ length: 40 }, () => r.int(2 ** 32));
    // OpenSSL's chacha20 takes a 16-byte IV: block counter (little-endian) then the 96-bit nonce, all zero here
    const cipher = createCipheriv('chacha20', Buffer.from(hex, 'hex'), Buffer.alloc(16));
    const stream = cipher.update(Buffer.alloc(40 * 4));
    expect(words).toEqual(Array.from({ length: 40 }, (_, i) => stream.readUInt32LE(i * 4)));
  });

  it('a stream key must have 256 bits of hex digits', () => {
    for (const bad of ['', 'abc', '0'.repeat(63), 'g'.repeat(64), 'A'.repeat(64), '0'.repeat(65)]) expect(() => streamFrom(bad)).toThrow(/64 lowercase hex/);
    expect(streamFrom('0'.repeat(64))).toEqual({ key: '0'.repeat(64), at: 0 });
  });

  it('the same key gives the same stream; different keys differ', () => {
    const draw = (n: number) => {
      const r = new Rng(streamFrom(key(n)));
      return Array.from({ length: 20 }, () => r.float());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    for (const x of draw(7)) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('int(n) stays in [0, n), hits every value, and is not biased', () => {
    const r = new Rng(streamFrom(key(9)));
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 60_000; i++) {
      const v = r.int(6);
      expect(Number.isInteger(v) && v >= 0 && v < 6).toBe(true);
      counts[v] = (counts[v] as number) + 1;
    }
    // 10,000 expected per value; 5 standard deviations is about ±460
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(460);
  });

  it('shuffle is a permutation, leaves its input alone and is reproducible', () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    const a = new Rng(streamFrom(key(11))).shuffle(items);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(items).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(new Rng(streamFrom(key(11))).shuffle(items)).toEqual(a);
    expect(new Rng(streamFrom(key(12))).shuffle(items)).not.toEqual(a);
    expect(a).not.toEqual(items);
  });

  it('the state counts the words used, resumes where it stopped, and stays the same object when unused', () => {
    const start = streamFrom(key(4));
    const unused = new Rng(start);
    expect(unused.state).toBe(start);
    const whole = new Rng(start);
    const all = Array.from({ length: 37 }, () => whole.int(2 ** 32));
    const first = new Rng(start);
    const head = Array.from({ length: 20 }, () => first.int(2 ** 32));
    expect(first.state).toEqual({ key: start.key, at: 20 });
    const second = new Rng(first.state);
    expect([...head, ...Array.from({ length: 17 }, () => second.int(2 ** 32))]).toEqual(all);
  });

  it('uuid() is version-4 shaped and reproducible', () => {
    const r1 = new Rng(streamFrom(key(5)));
    const r2 = new Rng(streamFrom(key(5)));
    const ids = Array.from({ length: 10 }, () => r1.uuid());
    expect(Array.from({ length: 10 }, () => r2.uuid())).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(10);
  });

  /** The first five cards left after that start, computed with the old engine. */
  const LEGACY_DEAL = ['h-00022', 'h-00011', 'h-00038', 'h-00008', 'h-00017'];

  /** A Local game with two virtual seats, a started round and a refill of the deck. */
  const playLocal = (seed: { deck: string; seats: string }) => {
    let g = newGame('Local', { seed, settings: { goal: 3, clue_mode: 'card' } });
    const events: unknown[] = [];
    const step = (a: Action) => {
      const r = act(g, a);
      g = r.game;
      events.push(...r.events);
    };
    step({ type: 'join_local', by: uid(1), name: 'Bo' });
    step({ type: 'join_local', by: uid(1), name: 'Cy' });
    step({ type: 'start', by: uid(1), hits: makeHits(30) });
    // skips run through the deck until it is refilled from the discard pile
    for (let i = 0; i < 25 && g.state !== 'Open'; i++) {
      const turn = g.players.find((p) => p.turn_player) as Player;
      if (turn.tokens < 1) break;
      step({ type: 'skip', by: uid(1), player: turn.id });
    }
    return { game: g, events };
  };

  it('a game replays identically from its keys; another deck key deals differently', () => {
    const a = playLocal(testSeed(1234));
    const b = playLocal(testSeed(1234));
    expect(b.game).toEqual(a.game);
    expect(b.events).toEqual(a.events);
    expect(a.game.rng).not.toEqual(streamFrom(testSeed(1234).deck));
    const c = playLocal({ ...testSeed(1234), deck: testSeed(4321).deck });
    expect(remainingDeck(c.game).map((h) => h.id)).not.toEqual(remainingDeck(a.game).map((h) => h.id));
  });

  it('nothing public comes from the deck\'s stream: only the secret changed, every id, name and seat stays', () => {
    const a = playLocal(testSeed(1));
    const public_ = (r: ReturnType<typeof playLocal>) => r.game.players.map((p) => [p.id, p.name, p.virtual, p.creator]);
    for (let n = 2; n < 12; n++) {
      const other = playLocal({ ...testSeed(1), deck: testSeed(n).deck });
      expect(public_(other)).toEqual(public_(a));
      // the cards differ, so the secret did change what was dealt
      expect(other.game.players.map((p) => p.hits[0]?.id)).not.toEqual(a.game.players.map((p) => p.hits[0]?.id));
    }
    // the seat stream alone decides seats and ids
    const seats = playLocal({ ...testSeed(1), seats: testSeed(2).seats });
    expect(seats.game.players.filter((p) => p.virtual).map((p) => p.id)).not.toEqual(a.game.players.filter((p) => p.virtual).map((p) => p.id));
  });

  it('the same pack selection and the same visible facts deal differently in two games', () => {
    // what a spectator sees before the deal is identical: ids, names, settings, hits, seats
    const deal = (deck: string) => playLocal({ deck, seats: testSeed(8).seats }).game;
    const one = deal(randomBytes(32).toString('hex'));
    const two = deal(randomBytes(32).toString('hex'));
    expect(two.players.map((p) => p.id)).toEqual(one.players.map((p) => p.id));
    expect(remainingDeck(two).map((h) => h.id)).not.toEqual(remainingDeck(one).map((h) => h.id));
  });

  it('no view or event of the game carries a stream\'s key', () => {
    const seed = testSeed(99);
    const { game, events } = playLocal(seed);
    const seen = JSON.stringify([events, viewGame(game, null), viewGame(game, uid(1)), summarizeGame(game)]);
    expect(seen).not.toContain(seed.deck);
    expect(seen).not.toContain(seed.seats);
    expect(seen).not.toMatch(/"rng"|seat_rng/);
  });

  it('a game stored with the old uint32 state still replays as it did', () => {
    // the deal of seed 1234 under the old generator (mulberry32), before the streams were split
    let g: Game = { ...newGame('Public', { settings: { goal: 3 } }), rng: 1234 };
    delete g.seat_rng;
    for (let i = 2; i <= 4; i++) g = act(g, { type: 'join', by: uid(i), name: `p${i}` }).game;
    const r = act(g, { type: 'start', by: uid(1), hits: makeHits(50) });
    expect(r.game.players.map((p) => p.id)).toEqual([uid(4), uid(3), uid(2), uid(1)]);
    expect(remainingDeck(r.game).slice(0, 5).map((h) => h.id)).toEqual(LEGACY_DEAL);
    expect(r.game.rng).toBe(752142998);
    expect(r.game.seat_rng).toBeUndefined();
  });

  it('a failed action does not advance the streams or change the game', () => {
    const g = newGame('Public', { seed: testSeed(77) });
    const r = applyAction(g, { type: 'start', by: uid(1), hits: makeHits(50) }, { now: 1 });
    expect(r.ok).toBe(false);
    expect(g.rng).toEqual(streamFrom(testSeed(77).deck));
    expect(g.state).toBe('Open');
  });

  it('malformed actions are 400 errors, never exceptions', () => {
    const g = newGame();
    for (const bad of [null, 42, 'guess', {}, { type: 'dance' }, { type: 'guess', by: uid(1), slot: -1 }, { type: 'guess', by: uid(1), slot: 1.5 }, { type: 'start', by: uid(1), hits: [{ id: 'x' }] }, { type: 'confirm', by: uid(1), confirm: 'yes' }]) {
      const r = applyAction(g, bad, { now: 1 });
      expect(r.ok).toBe(false);
      if (!r.ok) expect([r.error.status, r.error.code]).toEqual([400, 'bad_action']);
    }
  });
});
