import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import * as P from '../../shared/protocol/index.ts';
import {
  applyAction,
  ERRORS,
  latestHitYear,
  GAME_EVENT_NAMES,
  Rng,
  ruleError,
  summarizeGame,
  viewGame,
  type Action,
  type Clue,
  type ErrorCode,
  type Game,
  type GameEvent,
  type GameMode,
  type GamePayload,
  type GameSummary,
  type GameUpdate,
  type Hit,
  type HitPayload,
  type PlayerPayload,
  type Settings,
  type SettingsPatch,
  type Slot,
} from '../../shared/rules/index.ts';
import { act, makeHits, newGame, PACK_A, PACK_B, uid } from '../rules/helpers.ts';

/**
 * Two halves: (1) the schemas accept exactly what the engine produces, proven by
 * playing real games and parsing every view and event after a JSON round trip
 * (what actually crosses the wire); (2) the request schemas refuse bad input
 * with a message that names the field and accept good input.
 */

/** The wire: undefined keys vanish, everything else must survive JSON. */
const wire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

function expectParses(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(wire(value));
  if (!result.success) {
    throw new Error(`${what} does not match its schema:\n${JSON.stringify(result.error.issues, null, 1)}\n${JSON.stringify(value)}`);
  }
}

/** Catalogue hits with UUID ids (the helper's ids are not UUIDs; the server's always are). */
function catalogue(count: number): Hit[] {
  return makeHits(count).map((hit, i) => ({
    ...hit,
    id: uid(100_000 + i),
    belongs_to: i % 5 === 0 ? `Film ${i}` : '',
    packs: i % 3 === 0 ? [PACK_A, PACK_B] : [PACK_A],
  }));
}

/** What we want to have seen at least once, so "everything parsed" is not vacuous. */
class Coverage {
  readonly seen = new Set<string>();
  event(e: GameEvent): void {
    this.seen.add(`event:${e.event}`);
    for (const key of Object.keys(e.data)) this.seen.add(`event:${e.event}.${key}`);
  }
  view(v: GamePayload): void {
    this.seen.add(`view:state:${v.state}`);
    this.seen.add(`view:mode:${v.mode}`);
    for (const key of ['hit', 'last_scored', 'winner', 'standings', 'deadline', 'clue'] as const) {
      if (v[key] !== null) this.seen.add(`view:${key}`);
    }
    if (v.players.some((p) => p.virtual)) this.seen.add('view:virtual-player');
    if (v.players.some((p) => p.guess !== null)) this.seen.add('view:guess');
    if (v.players.some((p) => !p.connected)) this.seen.add('view:disconnected');
    if (v.players.some((p) => p.avatar !== '')) this.seen.add('view:avatar');
    if (v.players.some((p) => p.color === 9)) this.seen.add('view:color-9');
  }
}

/** Parses every event and every viewer's view of the game, and the lobby summary. */
function checkOutputs(game: Game, events: readonly GameEvent[], coverage: Coverage): void {
  for (const e of events) {
    expectParses(P.GameEventSchema, e, `event ${e.event}`);
    const received = P.parseGameStreamEvent(e.event, wire(e.data));
    if (!received.ok) throw new Error(`event ${e.event} as received over SSE: ${received.error.message}`);
    coverage.event(e);
  }
  // anonymous, a stranger and the creator see different things only in Local games; one of each is enough
  const viewers = [null, uid(999), game.players.find((p) => p.creator)?.id ?? null];
  for (const viewer of viewers) {
    const view = viewGame(game, viewer);
    if (view === null) continue;
    expectParses(P.GamePayloadSchema, view, `view of ${viewer}`);
    const colors = view.players.map((p) => p.color);
    if (new Set(colors).size !== colors.length) throw new Error(`two seated players share a colour: ${colors.join(', ')}`);
    coverage.view(view);
  }
  expectParses(P.GameSummarySchema, summarizeGame(game), 'summary');
}

/**
 * Likely-legal actions for the current state (the engine refuses the others,
 * which is fine: only successes produce output to check). In Local games the
 * creator acts for every seat, as the one device does.
 */
function candidates(g: Game, rng: Rng, nextUser: () => string): Action[] {
  const creator = g.players.find((p) => p.creator && !p.virtual);
  if (!creator) return [];
  const local = g.mode === 'Local';
  const asSeat = (id: string) => (local ? { by: creator.id, player: id } : { by: id });
  const turn = g.players.find((p) => p.turn_player);
  const slotsOf = () => (turn ? turn.hits.length + 1 : 1);
  const randomSlot = () => 1 + rng.int(slotsOf() + 1); // sometimes one past the end: an unknown slot
  const someone = g.players[rng.int(g.players.length)];
  const out: Action[] = [];
  const rarely = (a: Action) => {
    if (rng.float() < 0.08) out.push(a);
  };

  if (g.state === 'Open') {
    if (g.players.length < 10) {
      const avatar = AVATARS[rng.int(AVATARS.length)] as string;
      out.push(local ? { type: 'join_local', by: creator.id, name: ` Seat ${rng.int(1000)} `, avatar } : { type: 'join', by: nextUser(), name: 'guest', avatar });
    }
    out.push({ type: 'start', by: creator.id, hits: HITS });
    rarely({ type: 'update', by: creator.id, settings: SETTING_PATCHES[rng.int(SETTING_PATCHES.length)] ?? {}, pack_ids: [PACK_A, PACK_B] });
  }
  if (g.state === 'Guessing' && turn) {
    const seat = asSeat(turn.id);
    out.push({ type: 'guess', ...seat, slot: randomSlot() });
    out.push({ type: 'skip', ...seat }, { type: 'claim', ...seat });
    rarely({ type: 'replace_hit' });
  }
  if (g.state === 'Intercepting') {
    for (const p of g.players.filter((q) => q.state === 'Intercepting')) {
      out.push({ type: 'guess', ...asSeat(p.id), slot: rng.float() < 0.5 ? null : randomSlot() });
    }
  }
  if (g.state === 'Confirming') {
    for (const p of g.players.filter((q) => q.state === 'Confirming')) out.push({ type: 'confirm', by: local ? creator.id : p.id, confirm: rng.float() < 0.7 });
  }
  if (g.deadline) rarely({ type: 'timeout' });
  if (g.state !== 'Open') rarely({ type: 'stop', by: creator.id });
  if (someone) {
    rarely({ type: 'leave', by: someone.virtual ? creator.id : someone.id });
    if (someone !== creator) rarely({ type: 'leave', by: creator.id, player: someone.id });
    if (!someone.virtual) rarely({ type: 'presence', player: someone.id, connected: !someone.connected });
    rarely({ type: 'avatar', ...(local ? { by: creator.id, player: someone.id } : { by: someone.virtual ? creator.id : someone.id }), avatar: AVATARS[rng.int(AVATARS.length)] as string });
  }
  return out;
}

const HITS = catalogue(120);
const AVATARS = ['', '🦊', '👩🏽‍🎤', '🇩🇪'];
const SETTING_PATCHES: SettingsPatch[] = [
  { goal: 2 },
  { goal: 4, start_tokens: 5 },
  { clue_mode: 'card' },
  { clue_mode: 'audio', hit_duration: 30 },
  { packs: [PACK_B] },
  { packs: [] },
  { guess_timeout: 20, intercept_timeout: 0, confirm_timeout: 0 },
  { guess_timeout: 0, intercept_timeout: 15, confirm_timeout: 45 },
  { reveal_time: 0 },
  { reveal_time: 15 },
];

/** Plays one seeded random game; returns when the game is deleted or after `steps` actions. */
function playRandomGame(seed: number, mode: GameMode, coverage: Coverage, steps = 250): void {
  const rng = new Rng(seed);
  let users = 10;
  const nextUser = () => uid(++users);
  let game = newGame(mode, {
    seed,
    settings: { goal: 2 + rng.int(3), start_tokens: 1 + rng.int(5), clue_mode: rng.float() < 0.5 ? 'card' : 'audio', guess_timeout: 30 },
  });
  let now = 1_000_000;
  checkOutputs(game, [], coverage);
  for (let i = 0; i < steps; i++) {
    const options = candidates(game, rng, nextUser);
    const action = options[rng.int(options.length)];
    if (!action) break;
    now += 1000;
    if (action.type === 'timeout' && game.deadline) now = Math.max(now, game.deadline.at);
    const result = applyAction(game, action, { now });
    if (!result.ok) {
      expectParses(P.ErrorBodySchema, P.toErrorBody(result.error), `error of ${action.type}`);
      continue;
    }
    game = result.game;
    checkOutputs(game, result.events, coverage);
    if (result.deleted) break;
  }
}

describe('schemas accept what the engine produces', () => {
  it('a scripted Local game: virtual players, card clues, skip, claim, timeouts, deletion', () => {
    const coverage = new Coverage();
    const creator = uid(1);
    let game = newGame('Local', { settings: { goal: 3, start_tokens: 5, clue_mode: 'card', guess_timeout: 60 } });
    const step = (action: Action, now?: number) => {
      const r = act(game, action, now);
      game = r.game;
      checkOutputs(game, r.events, coverage);
      return r;
    };
    checkOutputs(game, [], coverage);
    step({ type: 'join_local', by: creator, name: '  Bea ' });
    step({ type: 'join_local', by: creator, name: 'Cem' });
    step({ type: 'update', by: creator, settings: { intercept_timeout: 20 }, pack_ids: [PACK_A, PACK_B] });
    step({ type: 'start', by: creator, hits: HITS });
    const turn = () => game.players.find((p) => p.turn_player)!;
    step({ type: 'skip', by: creator, player: turn().id });
    step({ type: 'claim', by: creator, player: turn().id });
    step({ type: 'guess', by: creator, player: turn().id, slot: 1 });
    expect(game.state).toBe('Intercepting');
    const deadline = game.deadline!.at;
    step({ type: 'timeout' }, deadline);
    expect(game.state).toBe('Confirming');
    step({ type: 'confirm', by: creator, confirm: true });
    step({ type: 'stop', by: creator });
    const deleted = step({ type: 'leave', by: creator });
    expect(deleted.deleted).toBe(true);
    expect([...coverage.seen]).toEqual(
      expect.arrayContaining(['event:join', 'event:update', 'event:skip.clue', 'event:skip.deadline', 'event:claim', 'event:guess', 'view:virtual-player', 'view:clue']),
    );
  });

  it('random games in every mode: every view, summary and event parses, and every shape occurs', () => {
    const coverage = new Coverage();
    const modes: GameMode[] = ['Public', 'Private', 'Local'];
    for (let seed = 1; seed <= 24; seed++) playRandomGame(seed, modes[seed % 3] as GameMode, coverage);

    const expected = [
      ...GAME_EVENT_NAMES.map((name) => `event:${name}`),
      ...['players', 'hit', 'last_scored', 'winner', 'standings', 'deadline', 'clue'].map((k) => `event:change_state.${k}`),
      'event:skip.hit',
      'event:claim.hit',
      ...['Open', 'Guessing', 'Intercepting', 'Confirming'].map((s) => `view:state:${s}`),
      ...modes.map((m) => `view:mode:${m}`),
      ...['hit', 'last_scored', 'winner', 'standings', 'deadline', 'clue', 'virtual-player', 'guess', 'disconnected', 'avatar', 'color-9'].map((k) => `view:${k}`),
    ];
    const missing = expected.filter((key) => !coverage.seen.has(key));
    expect(missing).toEqual([]);
  });

  it('every engine error becomes a valid error body', () => {
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      expectParses(P.ErrorBodySchema, P.toErrorBody(ruleError(code)), code);
    }
  });

  it('the inferred types are the engine types', () => {
    expectTypeOf<P.Slot>().toEqualTypeOf<Slot>();
    expectTypeOf<P.HitPayload>().toEqualTypeOf<HitPayload>();
    expectTypeOf<P.Clue>().toEqualTypeOf<Clue>();
    expectTypeOf<P.Settings>().toEqualTypeOf<Settings>();
    expectTypeOf<P.PlayerPayload>().toEqualTypeOf<PlayerPayload>();
    expectTypeOf<P.GamePayload>().toEqualTypeOf<GamePayload>();
    expectTypeOf<P.GameSummary>().toEqualTypeOf<GameSummary>();
    expectTypeOf<P.GameUpdate>().toEqualTypeOf<GameUpdate>();
    // per-event data is narrower than GameUpdate, so it only has to fit the engine's type
    expectTypeOf<P.GameEvent>().toExtend<GameEvent>();
    // what the edges validate can be handed to the engine as is
    expectTypeOf<P.SettingsUpdate>().toExtend<SettingsPatch>();
    expectTypeOf<P.RoomMessagePayload<'guess'>>().toExtend<Omit<Extract<Action, { type: 'guess' }>, 'type' | 'by'>>();
    expectTypeOf<P.RoomMessagePayload<'leave'>>().toExtend<Omit<Extract<Action, { type: 'leave' }>, 'type' | 'by'>>();
  });
});

describe('reply and event schemas refuse what must never be sent', () => {
  const game = viewGame(newGame(), null)!;
  const player = game.players[0]!;
  const hit: HitPayload = { id: uid(7), title: 't', artist: 'a', belongs_to: '', year: 1999, packs: [PACK_A] };

  it.each([
    ['a hit with its yt_id (secret in games)', { ...game, hit: { ...hit, yt_id: 'dQw4w9WgXcQ' } }],
    ['a lowercase state', { ...game, state: 'open' }],
    ['a malformed game id', { ...game, id: 'AbCd12' }],
    ['a slot id 0', { ...game, players: [{ ...player, guess: { id: 0, from_year: 0, to_year: 1990 } }] }],
    ['tokens past u8', { ...game, players: [{ ...player, tokens: 256 }] }],
    ['a colour past the palette', { ...game, players: [{ ...player, color: 10 }] }],
    ['a negative colour', { ...game, players: [{ ...player, color: -1 }] }],
    ['a player without a colour', { ...game, players: [{ ...player, color: undefined }] }],
    ['a player without an avatar', { ...game, players: [{ ...player, avatar: undefined }] }],
    ['year 0 on a hit', { ...game, hit: { ...hit, year: 0 } }],
    ['an unknown key', { ...game, deck: [] }],
    ['a missing key', { ...game, draws: undefined }],
  ])('GamePayload refuses %s', (_, value) => {
    expect(P.GamePayloadSchema.safeParse(wire(value)).success).toBe(false);
  });

  it('game events are checked per name', () => {
    expect(P.GameEventSchema.safeParse({ event: 'join', data: { players: [player] } }).success).toBe(true);
    expect(P.GameEventSchema.safeParse({ event: 'join', data: { players: [] } }).success).toBe(false);
    expect(P.GameEventSchema.safeParse({ event: 'skip', data: { players: [player] } }).success).toBe(false);
    expect(P.GameEventSchema.safeParse({ event: 'change_state', data: { players: [player] } }).success).toBe(false);
    expect(P.GameEventSchema.safeParse({ event: 'explode', data: {} }).success).toBe(false);
    expect(P.parseGameStreamEvent('snapshot', wire(game)).ok).toBe(true);
    const unknown = P.parseGameStreamEvent('explode', {});
    expect(!unknown.ok && unknown.error.message).toMatch(/^event must be one of "join", "leave", /);
    const empty = P.parseGameStreamEvent('join', { players: [] });
    expect(!empty.ok && empty.error.message).toBe('data.players must have exactly 1 item');
    expect(P.GAME_STREAM_EVENT_NAMES).toEqual([...GAME_EVENT_NAMES, 'snapshot']);
  });

  it('global events use external tagging on the wire, as the reference server does', () => {
    // a report as the reference API files it: Hitline's fields at their defaults
    const issue: P.HitIssue = {
      id: uid(7),
      hit_id: uid(8),
      type: 'custom',
      message: 'wrong year',
      created_at: '2026-01-18T09:55:00.000Z',
      last_modified: '2026-01-18T09:55:00.000Z',
      kind: 'other',
      status: 'open',
      year: null,
      reporter: null,
      game_id: null,
      outcome: null,
      votes: null,
      evidence: [],
      resolution: null,
    };
    const events: P.GlobalEvent[] = [
      { event: 'create_game', data: game },
      { event: 'remove_game', data: 'AbCd1234' },
      { event: 'process_hits', data: { available: 3, downloading: 1, processing: 0, failed: 1, cards: 2, youtube: true } },
      { event: 'game_summary', data: summarizeGame(newGame()) },
      { event: 'hits_changed', data: {} },
      { event: 'create_hit_issue', data: issue },
      { event: 'delete_hit_issue', data: { hit_id: issue.hit_id, issue_id: issue.id } },
    ];
    expect(events.map((e) => e.event)).toEqual(P.GLOBAL_EVENT_NAMES);
    for (const e of events) {
      const data = wire(P.globalEventData(e));
      expect(Object.keys(data as object)).toEqual([e.event]);
      expect(P.parseGlobalEvent(e.event, data)).toEqual({ ok: true, data: wire(e) });
    }
    expect(P.parseGlobalEvent('remove_game', { create_game: 'AbCd1234' }).ok).toBe(false);
    expect(P.parseGlobalEvent('delete_hit_issue', { delete_hit_issue: { hit_id: issue.hit_id } }).ok).toBe(false);
    expect(P.parseGlobalEvent('create_hit_issue', { create_hit_issue: { ...issue, status: 'gone' } }).ok).toBe(false);
    expect(P.parseGlobalEvent('process_hits', { process_hits: { available: -1, downloading: 0, processing: 0 } }).ok).toBe(false);
  });

  it('other replies', () => {
    const cookie = {
      id: uid(1),
      name: 'kindly-brave-otter',
      virtual: true,
      valid_until: '2025-07-24T09:31:10.5062961Z',
      permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false },
    };
    expect(P.UserCookieSchema.safeParse(cookie).success).toBe(true);
    expect(P.UserCookieSchema.safeParse({ ...cookie, valid_until: 'tomorrow' }).success).toBe(false);
    expect(P.UserCookieSchema.safeParse({ ...cookie, permissions: { write_hits: true } }).success).toBe(false);
    expect(P.UserPayloadSchema.safeParse({ id: uid(1), name: 'x', virtual: false }).success).toBe(true);
    expect(P.GameListSchema.safeParse({ games: [game] }).success).toBe(true);
    expect(P.PackListSchema.safeParse({ packs: [{ id: PACK_A, name: 'Classics', hits: 1 }], total: 1 }).success).toBe(true);
    expect(P.PackListSchema.safeParse({ packs: [{ id: PACK_A, name: 'Classics', hits: -1 }] }).success).toBe(false);
    const page = { results: [hit, { ...hit, downloaded: true }], total: 7, start: 3, end: 4 };
    expect(P.HitSearchReplySchema.safeParse(page).success).toBe(true);
    expect(P.HitSearchReplySchema.safeParse({ ...page, results: [{ ...hit, yt_id: 'dQw4w9WgXcQ' }] }).success).toBe(false);
    expect(P.FullHitPayloadSchema.safeParse({ ...hit, yt_id: 'dQw4w9WgXcQ', playback_offset: 12 }).success).toBe(true);
    // "" is a hit without a video or a caller who may not see it; the reference server's client needs a string
    expect(P.FullHitPayloadSchema.safeParse({ ...hit, yt_id: '', playback_offset: 0, downloaded: false }).success).toBe(true);
    expect(P.FullHitPayloadSchema.safeParse({ ...hit, yt_id: null, playback_offset: 0 }).success).toBe(false);
    expect(P.FullHitPayloadSchema.safeParse({ ...hit, yt_id: 'short', playback_offset: 0 }).success).toBe(false);
    expect(P.SuccessBodySchema.safeParse({ type: 'success', message: 'started game' }).success).toBe(true);
    expect(P.ErrorBodySchema.safeParse({ message: 'game not found' }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// requests

type BadCase = [input: unknown, field: string];
type GoodCase = [input: unknown, output?: unknown];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every bad input is a 400 `invalid_input` whose message has a sentence starting with the field. */
function expectRejected(schema: z.ZodType, cases: BadCase[], root = 'body'): void {
  for (const [input, field] of cases) {
    const result = P.parseInput(schema, input, root);
    if (result.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
    expect(result.error.code).toBe(P.INVALID_INPUT_CODE);
    expect(P.ErrorBodySchema.safeParse(result.error).success).toBe(true);
    expect(result.error.message, JSON.stringify(input)).toMatch(new RegExp(`(^|; )${escapeRe(field)}(?=[ .[])`));
  }
}

function expectAccepted(schema: z.ZodType, cases: GoodCase[], root = 'body'): void {
  for (const [input, output] of cases) {
    const result = P.parseInput(schema, input, root);
    if (!result.ok) throw new Error(`refused ${JSON.stringify(input)}: ${result.error.message}`);
    if (output !== undefined) expect(result.data).toEqual(output);
  }
}

const longText = (n: number) => 'x'.repeat(n);

describe('request schemas', () => {
  it('settings update: ranges from LIMITS, strict keys, null = unchanged', () => {
    expectAccepted(P.SettingsUpdateSchema, [
      [{}, {}],
      [{ goal: 1, start_tokens: 0, hit_duration: 255, guess_timeout: 0, intercept_timeout: 600, confirm_timeout: 60, reveal_time: 0 }],
      [{ reveal_time: 15 }],
      [{ reveal_time: null }, {}],
      [{ goal: 100, packs: [PACK_A, PACK_B], clue_mode: 'card' }],
      [{ packs: [] }],
      [{ goal: null, clue_mode: null }],
    ]);
    expectRejected(P.SettingsUpdateSchema, [
      [{ goal: 0 }, 'goal'],
      [{ goal: 101 }, 'goal'],
      [{ goal: 2.5 }, 'goal'],
      [{ goal: '5' }, 'goal'],
      [{ start_tokens: -1 }, 'start_tokens'],
      [{ start_tokens: 11 }, 'start_tokens'],
      [{ hit_duration: 0 }, 'hit_duration'],
      [{ hit_duration: 256 }, 'hit_duration'],
      [{ guess_timeout: 601 }, 'guess_timeout'],
      [{ intercept_timeout: -5 }, 'intercept_timeout'],
      [{ confirm_timeout: true }, 'confirm_timeout'],
      [{ reveal_time: 16 }, 'reveal_time'],
      [{ reveal_time: -1 }, 'reveal_time'],
      [{ reveal_time: 1.5 }, 'reveal_time'],
      [{ packs: 'all' }, 'packs'],
      [{ packs: [PACK_A, 'not-a-uuid'] }, 'packs[1]'],
      [{ clue_mode: 'video' }, 'clue_mode'],
      [{ mode: 'Public' }, 'mode'],
      [{ goal: 5, colour: 'red' }, 'colour'],
      [[], 'body'],
      [null, 'body'],
    ]);
    const wording = P.parseInput(P.SettingsUpdateSchema, { goal: 0 });
    expect(!wording.ok && wording.error.message).toBe('goal must be a whole number from 1 to 100');
    const reveal = P.parseInput(P.SettingsUpdateSchema, { reveal_time: 20 });
    expect(!reveal.ok && reveal.error.message).toBe('reveal_time must be a whole number from 0 to 15');
  });

  it('create game', () => {
    expectAccepted(P.CreateGameBodySchema, [
      [undefined, { mode: 'Public' }],
      [{}, { mode: 'Public' }],
      [{ mode: 'Local' }, { mode: 'Local' }],
      [{ mode: 'Private', settings: { goal: 3 } }, { mode: 'Private', settings: { goal: 3 } }],
    ]);
    expectRejected(P.CreateGameBodySchema, [
      [{ mode: 'public' }, 'mode'],
      [{ mode: 'Secret' }, 'mode'],
      [{ settings: { goal: 0 } }, 'settings.goal'],
      [{ settings: { bogus: 1 } }, 'settings.bogus'],
      [{ name: 'my game' }, 'name'],
      ['Public', 'body'],
    ]);
  });

  it('guess and confirm', () => {
    expectAccepted(P.GuessBodySchema, [
      [{ id: 1 }, { id: 1 }],
      [{ id: 255 }, { id: 255 }],
      [{ id: null }, { id: null }],
      [{}, { id: null }],
      [undefined, { id: null }],
    ]);
    expectRejected(P.GuessBodySchema, [
      [{ id: 0 }, 'id'],
      [{ id: 256 }, 'id'],
      [{ id: 1.5 }, 'id'],
      [{ id: '3' }, 'id'],
      [{ id: 3, player: uid(2) }, 'player'],
    ]);
    expectAccepted(P.ConfirmBodySchema, [[{ confirm: true }], [{ confirm: false }]]);
    expectRejected(P.ConfirmBodySchema, [
      [{}, 'confirm'],
      [{ confirm: 'yes' }, 'confirm'],
      [{ confirm: 1 }, 'confirm'],
      [{ confirm: true, extra: 1 }, 'extra'],
      [undefined, 'body'],
    ]);
  });

  it('avatars: one emoji (a single grapheme) or "" for initials, in joins and the avatar body', () => {
    const emoji = [
      '🦊', // a pictograph shown as emoji
      '⚡', // one from the BMP
      '⭐\uFE0F', // with the variation selector phones add
      '❤\uFE0F', // a text symbol made emoji by it
      '👍🏽', // with a skin tone
      '👩🏽\u200D🎤', // a ZWJ sequence with a skin tone
      '🏳\uFE0F\u200D🌈',
      '👨\u200D👩\u200D👧\u200D👦', // a family: four emoji, one grapheme
      '🇩🇪', // a flag
      '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', // a subdivision flag
      '#\uFE0F\u20E3', // a keycap
    ];
    const notEmoji = [
      ['A', 'a letter'],
      ['Jo', 'letters'],
      ['7', 'a digit'],
      ['©', 'a symbol shown as text'],
      ['™', 'another'],
      ['🦊🐼', 'two emoji'],
      ['🦊 ', 'an emoji and a space'],
      [' ', 'a space'],
      ['\u200D', 'a joiner alone'],
      ['🦊\u200D', 'an emoji and a dangling joiner'],
      ['\uFE0F', 'a variation selector alone'],
      ['🇩', 'half a flag'],
      ['\u{1FAFF}\uFE0F', 'a code point not assigned yet'],
      ['🦊'.repeat(20), 'twenty emoji'],
    ];
    expectAccepted(P.AvatarSchema, [[''], ...emoji.map((e) => [e] as GoodCase)], 'avatar');
    expectRejected(P.AvatarSchema, [...notEmoji.map(([e]) => [e, 'avatar'] as BadCase), [7, 'avatar'], [null, 'avatar']], 'avatar');
    const wording = P.parseInput(P.AvatarBodySchema, { avatar: 'Jo' });
    expect(!wording.ok && wording.error.message).toBe('avatar must be a single emoji, or "" for initials');
    // The reference server's clients send no body to join: the avatar is optional
    expectAccepted(P.JoinBodySchema, [[undefined, {}], [{}, {}], [{ avatar: '' }, { avatar: '' }], [{ avatar: '🐙' }, { avatar: '🐙' }]]);
    expectRejected(P.JoinBodySchema, [[{ avatar: 'x' }, 'avatar'], [{ avatar: null }, 'avatar'], [{ name: 'Ana' }, 'name'], ['🐙', 'body']]);
    expectAccepted(P.AvatarBodySchema, [[{ avatar: '' }], [{ avatar: '🚀' }]]);
    expectRejected(P.AvatarBodySchema, [[{}, 'avatar'], [undefined, 'body'], [{ avatar: '🚀', player: uid(2) }, 'player']]);
  });

  it('a guest\'s new name: a player\'s name, 1..32 characters', () => {
    expectAccepted(P.UpdateMeBodySchema, [[{ name: ' Jo ' }, { name: 'Jo' }], [{ name: 'A' }], [{ name: 'Zoë 🎸' }], [{ name: longText(32) }]]);
    expectRejected(P.UpdateMeBodySchema, [
      [{ name: '' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: longText(33) }, 'name'],
      [{ name: 'a\tb' }, 'name'],
      [{ name: '\u0410lice' }, 'name'],
      [{ name: 'Vic\u200Ctim' }, 'name'],
      [{}, 'name'],
      [{ name: 'Jo', password: 'x' }, 'password'],
    ]);
  });

  it('local player name', () => {
    expectAccepted(P.LocalPlayerNameSchema, [['  Bea ', 'Bea'], ['Zoë'], [longText(32)], [` ${longText(32)} `]], 'name');
    expectRejected(P.LocalPlayerNameSchema, [['', 'name'], ['   ', 'name'], [longText(33), 'name'], ['a\nb', 'name'], [7, 'name']], 'name');
    // look-alike scripts mixed (a Cyrillic "А", a Greek "ο"); each script alone, or with other scripts and emoji, is fine
    expectRejected(P.LocalPlayerNameSchema, [['\u0410lice', 'name'], ['B\u03bfb', 'name'], ['\u0418\u0432\u03b1\u043d', 'name']], 'name');
    expectAccepted(P.LocalPlayerNameSchema, [['\u0418\u0432\u0430\u043d'], ['\u0391\u03bd\u03bd\u03b1'], ['Mika \u30df\u30ab'], ['Sam \u{1F3B8}']], 'name');
    // characters that do not show are refused, but not the ones emoji and some scripts need (a Persian word, a Devanagari conjunct)
    expectRejected(P.LocalPlayerNameSchema, [['Vic\u200Ctim', 'name'], ['Sam\u3164', 'name'], ['Sam\uFE0F', 'name'], ['\u{1F600}\u200D', 'name'], ['\u0915\u200Da', 'name']], 'name');
    // what phone keyboards type (⚡️ ⭐️ ☕️ with U+FE0F, ❤︎ with U+FE0E), joiners ending an older Malayalam or Bengali
    // word, Mongolian variation selectors and an ideographic variant (a review finding: all were refused)
    expectAccepted(
      P.LocalPlayerNameSchema,
      [
        ['\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645'],
        ['\u0915\u094d\u200d\u0937'],
        ['\u{1F3C3}\u200D\u2640\uFE0F Jo'],
        ['\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}'],
        ['Max \u26A1\uFE0F'],
        ['\u2B50\uFE0F \u2615\uFE0F \u{1F3B5}\uFE0F'],
        ['\u2764\uFE0E'],
        ['\u0D05\u0D30\u0D4D\u200D'],
        ['\u0D24\u0D4D\u200D'],
        ['\u182E\u1823\u1829\u180B\u182D'],
        ['\u845B\u{E0100}'],
      ],
      'name',
    );
  });

  it('ids in paths', () => {
    expectAccepted(P.GameIdSchema, [['AbCd1234'], ['00000000']], 'game_id');
    expectRejected(P.GameIdSchema, [['AbCd123', 'game_id'], ['AbCd12345', 'game_id'], ['AbCd-234', 'game_id']], 'game_id');
    expectAccepted(P.UuidSchema, [[uid(1)], [PACK_A]], 'player_id');
    expectRejected(P.UuidSchema, [['garbage', 'player_id'], ['h-00001', 'player_id'], ['', 'player_id']], 'player_id');
  });

  it('login and register', () => {
    const good = { username: 'alice', password: 'correct horse' };
    expectAccepted(P.LoginBodySchema, [
      [good, good],
      [{ username: '  alice  ', password: ' spaces kept ' }, { username: 'alice', password: ' spaces kept ' }],
      [{ ...good, remember: true }, good],
    ]);
    // the original web client sends a null token when its widget solved nothing
    expectAccepted(P.RegisterBodySchema, [[good], [{ ...good, altcha_token: 'abc' }], [{ ...good, altcha_token: null }]]);
    expectRejected(P.RegisterBodySchema, [[{ ...good, altcha_token: 42 }, 'altcha_token'], [{ ...good, altcha_token: longText(4097) }, 'altcha_token']]);
    for (const schema of [P.LoginBodySchema, P.RegisterBodySchema]) {
      expectRejected(schema, [
        [{ password: good.password }, 'username'],
        [{ ...good, username: 'al' }, 'username'],
        [{ ...good, username: '  al  ' }, 'username'],
        [{ ...good, username: longText(33) }, 'username'],
        [{ ...good, username: 'al\u0000ice' }, 'username'],
        [{ ...good, username: 'tab\tbed' }, 'username'],
        [{ ...good, password: 'short' }, 'password'],
        [{ ...good, password: longText(257) }, 'password'],
        [{ username: 'alice' }, 'password'],
        [{ ...good, password: 12345678 }, 'password'],
      ]);
    }
  });

  it('packs', () => {
    expectAccepted(P.PackBodySchema, [[{ name: ' Classics ' }, { name: 'Classics' }], [{ id: PACK_A, name: 'x', hits: 3 }, { name: 'x' }]]);
    expectRejected(P.PackBodySchema, [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: longText(101) }, 'name'],
      [{ name: 42 }, 'name'],
    ]);
  });

  it('hit create and update', () => {
    const good = { title: 'Song', artist: 'Band', year: 1999, belongs_to: '', packs: [PACK_A], yt_id: 'dQw4w9WgXcQ', playback_offset: 12 };
    expectAccepted(P.HitBodySchema, [
      [good, good],
      [{ title: ' Song ', artist: 'Band', year: 1 }, { title: 'Song', artist: 'Band', year: 1, belongs_to: '', packs: [], yt_id: null, playback_offset: 0 }],
      [{ ...good, yt_id: null, year: latestHitYear(), playback_offset: 0 }],
      // a fetched hit sent back: "" is no video
      [{ ...good, yt_id: '' }, { ...good, yt_id: null }],
      [{ ...good, yt_id: 'a_b-C1234_-' }],
      [{ ...good, packs: [PACK_A, PACK_A] }, good],
      [{ ...good, id: uid(5), downloaded: true, issues: [] }, good],
    ]);
    expectRejected(P.HitBodySchema, [
      [{ ...good, title: '' }, 'title'],
      [{ ...good, title: '   ' }, 'title'],
      [{ ...good, artist: undefined }, 'artist'],
      [{ ...good, artist: longText(301) }, 'artist'],
      [{ ...good, belongs_to: 5 }, 'belongs_to'],
      [{ ...good, year: 0 }, 'year'],
      [{ ...good, year: 10_000 }, 'year'],
      // a year to come is a typo (2099 for 1999)
      [{ ...good, year: latestHitYear() + 1 }, 'year'],
      [{ ...good, year: 1999.5 }, 'year'],
      [{ ...good, year: '1999' }, 'year'],
      [{ ...good, packs: ['x'] }, 'packs[0]'],
      [{ ...good, packs: PACK_A }, 'packs'],
      [{ ...good, yt_id: 'short' }, 'yt_id'],
      [{ ...good, yt_id: 'dQw4w9WgXcQx' }, 'yt_id'],
      [{ ...good, yt_id: 'dQw4w9WgX?Q' }, 'yt_id'],
      [{ ...good, yt_id: 'https://youtu.be/dQw4w9WgXcQ' }, 'yt_id'],
      [{ ...good, playback_offset: -1 }, 'playback_offset'],
      [{ ...good, playback_offset: 1.5 }, 'playback_offset'],
      // catalogue text shows what it says: no direction overrides or isolates, nothing invisible
      [{ ...good, title: 'Song \u202Egnos' }, 'title'],
      [{ ...good, artist: 'Ba\u200Bnd' }, 'artist'],
      [{ ...good, belongs_to: '\u2066Film\u2069' }, 'belongs_to'],
      [{ ...good, title: 'Soft\u00ADhyphen' }, 'title'],
      [{ ...good, title: 'Band\u200D' }, 'title'],
      [{ ...good, artist: '\u3164' }, 'artist'],
      [{ ...good, belongs_to: '\u2800' }, 'belongs_to'],
    ]);
    // what some scripts and emoji need stays, and no name rules apply (scripts mixed, long texts)
    expectAccepted(P.HitBodySchema, [
      [{ ...good, title: 'Ana \u{1F469}\u200D\u{1F3A4}', artist: 'Red \u2764\uFE0F' }],
      [{ ...good, title: '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645' }], // Persian, a non-joiner inside the word
      [{ ...good, title: 'Kalinka (\u041A\u0430\u043B\u0438\u043D\u043A\u0430)', artist: 'Choir' }],
      [{ ...good, title: 't'.repeat(300) }],
    ]);
  });

  it('pack names follow the same text rules', () => {
    expectAccepted(P.PackBodySchema, [[{ name: '80s \u{1F3B8}' }], [{ name: ' Schlager ' }, { name: 'Schlager' }]]);
    expectRejected(P.PackBodySchema, [
      [{ name: 'Pack\u202E' }, 'name'],
      [{ name: '\u200B\u200B' }, 'name'],
      [{ name: 'Hits\uFE0F' }, 'name'],
    ]);
  });

  it('hit search query (as Express parses a query string)', () => {
    const defaults = { query: '', start: 1, amount: 50, sort_by: ['title', 'artist', 'belongs_to', 'year'], sort_direction: 'ascending', filters: { has_issues: false } };
    expectAccepted(
      P.HitSearchQuerySchema,
      [
        [{}, defaults],
        [{ query: 'beat', start: '51', amount: '1000' }, { ...defaults, query: 'beat', start: 51, amount: 1000 }],
        [{ sort_by: 'year' }, { ...defaults, sort_by: ['year'] }],
        [{ sort_by: ['year', 'bogus', 'artist', 'year'] }, { ...defaults, sort_by: ['year', 'artist'] }],
        [{ sort_by: ['bogus'] }, defaults],
        [{ sort_direction: 'descending' }, { ...defaults, sort_direction: 'descending' }],
        [{ sort_direction: 'sideways' }, defaults],
        [{ packs: PACK_A }, { ...defaults, packs: [PACK_A] }],
        [{ packs: [PACK_A, PACK_B, ''] }, { ...defaults, packs: [PACK_A, PACK_B, ''] }],
        [{ packs: '' }, { ...defaults, packs: [''] }],
        [{ key: '0.123', parts: 'downloaded' }, defaults],
        [{ filters: 'has_issues' }, { ...defaults, filters: { has_issues: true } }],
        [{ filters: ['bogus', 'has_issues'] }, { ...defaults, filters: { has_issues: true } }],
        [{ filters: 'bogus' }, defaults],
      ],
      'query',
    );
    expectRejected(
      P.HitSearchQuerySchema,
      [
        [{ start: '0' }, 'start'],
        [{ start: '-3' }, 'start'],
        [{ start: 'first' }, 'start'],
        [{ start: '1.5' }, 'start'],
        [{ amount: '0' }, 'amount'],
        [{ amount: '1001' }, 'amount'],
        [{ amount: '' }, 'amount'],
        [{ packs: 'classics' }, 'packs[0]'],
        [{ packs: [PACK_A, 'nope'] }, 'packs[1]'],
        [{ query: longText(257) }, 'query'],
      ],
      'query',
    );
  });

  it('room messages', () => {
    const accepted: [string, unknown, unknown][] = [
      ['guess', { slot: 3 }, { slot: 3 }],
      ['guess', { slot: null, player: uid(2) }, { slot: null, player: uid(2) }],
      ['confirm', { confirm: false }, { confirm: false }],
      ['skip', undefined, {}],
      ['claim', { player: uid(2) }, { player: uid(2) }],
      ['start', undefined, {}],
      ['stop', {}, {}],
      ['join', undefined, {}],
      ['join', { avatar: '🦊' }, { avatar: '🦊' }],
      ['join', { avatar: '' }, { avatar: '' }],
      ['join_local', { name: ' Bea ' }, { name: 'Bea' }],
      ['join_local', { name: 'Bea', avatar: '👩🏽‍🎤' }, { name: 'Bea', avatar: '👩🏽‍🎤' }],
      ['avatar', { avatar: '🇩🇪' }, { avatar: '🇩🇪' }],
      ['avatar', { avatar: '', player: uid(2) }, { avatar: '', player: uid(2) }],
      ['leave', { player: uid(3) }, { player: uid(3) }],
      ['update', { settings: { goal: 3 } }, { settings: { goal: 3 } }],
      ['control', { key: 'k'.repeat(24), player: uid(2) }, { key: 'k'.repeat(24), player: uid(2) }],
      ['control', { key: 'k'.repeat(24), name: ' Bea ', avatar: '🦊' }, { key: 'k'.repeat(24), name: 'Bea', avatar: '🦊' }],
      ['release', { player: uid(2) }, { player: uid(2) }],
    ];
    for (const [type, payload, expected] of accepted) {
      expect(P.parseRoomMessage(type, payload)).toEqual({ ok: true, data: { type, payload: expected } });
    }
    expect(Object.keys(P.ROOM_MESSAGES).sort()).toEqual([...new Set(accepted.map(([t]) => t))].sort());

    const refused: [string, unknown, string][] = [
      ['guess', {}, 'slot'],
      ['guess', { slot: 0 }, 'slot'],
      ['guess', { slot: 2, player: 'bob' }, 'player'],
      ['confirm', undefined, 'payload'],
      ['confirm', { confirm: 'no' }, 'confirm'],
      ['skip', { player: 5 }, 'player'],
      ['start', { now: true }, 'now'],
      ['join_local', { name: '' }, 'name'],
      ['join', { avatar: 'A' }, 'avatar'],
      ['join', { name: 'Ana' }, 'name'],
      ['join_local', { name: 'Bea', avatar: '🦊🦊' }, 'avatar'],
      ['avatar', {}, 'avatar'],
      ['avatar', { avatar: '©' }, 'avatar'],
      ['avatar', { avatar: '🦊', player: 'bob' }, 'player'],
      ['leave', 'me', 'payload'],
      ['update', { settings: { goal: 500 } }, 'settings.goal'],
      ['update', { goal: 5 }, 'settings'],
      ['control', { key: 'short', player: uid(2) }, 'key'],
      ['release', {}, 'player'],
    ];
    for (const [type, payload, field] of refused) {
      const result = P.parseRoomMessage(type, payload);
      if (result.ok) throw new Error(`accepted ${type} ${JSON.stringify(payload)}`);
      expect(result.error.code).toBe(P.INVALID_INPUT_CODE);
      expect(result.error.message).toMatch(new RegExp(`(^|; )${escapeRe(field)}(?=[ .[])`));
    }
    // msgpack strings can hold lone surrogates (as JSON escapes can): not well-formed text, refused by name
    const lone = P.parseRoomMessage('join_local', { name: 'lone\udc00zz796' });
    expect(!lone.ok && lone.error).toEqual({ type: 'error', code: P.INVALID_INPUT_CODE, message: 'name is not well-formed text (it has a lone surrogate)' });
    // a body nested 50,000 deep (100 KB of brackets, under the body limit) is walked in one pass (copying the
    // path per node would take seconds, before any session or rate limit) and named by depth
    const nested = (inner: string): unknown => JSON.parse('['.repeat(50_000) + inner + ']'.repeat(50_000));
    expect(P.illFormedText(nested('"fine"'))).toBeUndefined();
    expect(P.illFormedText(nested(String.raw`"\ud800"`))?.message).toBe('body (at depth 50000) is not well-formed text (it has a lone surrogate)');
    const unknown = P.parseRoomMessage('timeout', {});
    expect(!unknown.ok && unknown.error.message).toBe('unknown message type "timeout"');
    expect(P.parseRoomMessage('__proto__', {}).ok).toBe(false);
    expect(P.ROOM_SERVER_MESSAGES.error.safeParse(P.toErrorBody(ruleError('slot_taken'))).success).toBe(true);
  });

  it('long lists of problems are cut short', () => {
    const result = P.parseInput(P.SettingsUpdateSchema, { packs: Array.from({ length: 50 }, (_, i) => `bad-${i}`) });
    expect(!result.ok && result.error.message).toMatch(/^packs\[0\] must be a UUID; .*; and 45 more problems$/);
  });
});

it('PROTOCOL_VERSION is a positive integer', () => {
  expect(Number.isInteger(P.PROTOCOL_VERSION) && P.PROTOCOL_VERSION > 0).toBe(true);
});
