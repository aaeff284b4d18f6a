/**
 * Seeded fuzzer for the rules engine: random games of 2–10 players with random
 * settings, driven by random actions (legal and illegal, from anyone, malformed)
 * until someone wins or the action budget runs out. After every step it checks the
 * invariants; a failure is shrunk to the shortest action list that still fails.
 */
import {
  applyAction,
  createGame,
  djClip,
  mayRefuse,
  GAME_MODES,
  PLAYER_COLORS,
  Rng,
  slotsFor,
  viewGame,
  type Game,
  type GameEvent,
  type GamePayload,
  type Hit,
  type Player,
  remainingDeck,
} from '../../shared/rules/index.ts';
import { isAvatar } from '../../shared/rules/names.ts';
import { testSeed } from './helpers.ts';

export interface FuzzStep {
  action: unknown;
  now: number;
}

export interface FuzzSetup {
  seed: number;
  game: Game;
  catalogue: Hit[];
  users: string[];
}

export interface GameRun {
  seed: number;
  steps: FuzzStep[];
  accepted: number;
  won: boolean;
  failure: string | null;
}

const PACKS = ['00000000-0000-4000-8000-0000000000p1', '00000000-0000-4000-8000-0000000000p2', '00000000-0000-4000-8000-0000000000p3'];
const userId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const STRANGER = userId(999);
/** Avatars the players choose: initials, emoji of every kind (a ZWJ sequence with a skin tone, a flag, a keycap). */
const AVATARS = ['', '🦊', '👩🏽‍🎤', '🇩🇪', '#️⃣'];
/** The seat key of the Local games, the phones that present it (or a wrong one), and who they are. */
const SEAT_KEY = 'fuzz-seat-key_0123456789';
const PHONES = [userId(20), userId(21), userId(22)];

/** Builds the game, its catalogue and the users who will try to sit down, all from `seed`. */
export function setupGame(seed: number): FuzzSetup {
  const r = new Rng(seed);
  const mode = GAME_MODES[r.int(3)] ?? 'Public';
  const players = 2 + r.int(9);
  const goal = 1 + r.int(r.float() < 0.7 ? 4 : 8);
  const settings = {
    goal,
    start_tokens: r.int(11),
    hit_duration: 1 + r.int(255),
    guess_timeout: r.float() < 0.5 ? 0 : 1 + r.int(60),
    intercept_timeout: r.float() < 0.3 ? 0 : 1 + r.int(60),
    confirm_timeout: r.float() < 0.3 ? 0 : 1 + r.int(60),
    // a Local game has no DJ
    clue_mode: pick(r, mode === 'Local' ? ['audio', 'card'] : ['audio', 'card', 'dj']),
    dj_plays: r.float() < 0.5,
    packs: r.float() < 0.5 ? [] : [PACKS[r.int(3)]],
    disputes: r.float() < 0.2 ? 0 : 1 + r.int(3),
    dispute_timeout: r.float() < 0.3 ? 0 : 1 + r.int(60),
  };
  // enough for any single pack and any goal the fuzzer may set, most of the time
  const needed = players * Math.max(goal, 5) * 2 * 3;
  const count = (r.float() < 0.1 ? needed / 4 : needed) + r.int(needed);
  const catalogue: Hit[] = Array.from({ length: count }, (_, i) => ({
    id: `hit-${seed}-${i}`,
    title: `Song${seed}x${i}`,
    artist: `Band${seed}x${i}`,
    belongs_to: r.float() < 0.1 ? `Film${i}` : '',
    // few distinct years, so ties and boundary years happen often
    year: 1960 + r.int(r.float() < 0.3 ? 8 : 60),
    packs: r.float() < 0.05 ? [] : [...new Set([PACKS[r.int(3)] as string, PACKS[r.int(3)] as string])],
    // most hits have a video (a dj round deals only those), a few share one
    yt_id: r.float() < 0.03 ? 'dupYouTube1' : r.float() < 0.8 ? `v${String(seed % 1000).padStart(3, '0')}${String(i).padStart(7, '0')}` : null,
    playback_offset: r.int(200),
  }));
  const users = Array.from({ length: 12 }, (_, i) => userId(i + 1));
  const created = createGame({ id: 'Fuzz0000', mode, creator: { id: users[0] as string, name: 'creator' }, seed: testSeed(seed), packIds: PACKS, settings, seatKey: SEAT_KEY });
  if (!created.ok) throw new Error(`fuzz setup made invalid settings: ${created.error.message}`);
  return { seed, game: created.game, catalogue, users };
}

// ---------------------------------------------------------------------------
// action generation

function pick<T>(r: Rng, items: readonly T[]): T {
  return items[r.int(items.length)] as T;
}

/** A malformed or nonsensical action: wrong types, missing fields, unknown types. */
function garbage(r: Rng, g: Game): unknown {
  const someone = pick(r, [...g.players.map((p) => p.id), STRANGER, '', 'x'.repeat(100)]);
  const options: unknown[] = [
    null,
    42,
    'guess',
    [],
    { type: 'nope', by: someone },
    { type: 'guess', by: someone, slot: 300 },
    { type: 'guess', by: someone, slot: -1 },
    { type: 'guess', by: someone, slot: 1.5 },
    { type: 'guess', by: someone },
    { type: 'confirm', by: someone, confirm: 'yes' },
    { type: 'start', by: someone, hits: [{ id: 'x' }] },
    { type: 'update', by: someone, settings: { goal: 1000 }, pack_ids: PACKS },
    { type: 'update', by: someone, settings: { goal: 'ten' }, pack_ids: PACKS },
    { type: 'update', by: someone, settings: { packs: ['missing'] }, pack_ids: PACKS },
    { type: 'update', by: someone, settings: { bogus: 1 }, pack_ids: PACKS },
    { type: 'join_local', by: someone, name: '   ' },
    { type: 'join_local', by: someone, name: 'n'.repeat(40) },
    { type: 'join', by: someone, name: 'x', avatar: 'AB' },
    { type: 'join_local', by: someone, name: 'y', avatar: '🦊🦊' },
    { type: 'avatar', by: someone, avatar: 7 },
    { type: 'avatar', by: someone, avatar: '©' },
    { type: 'rename', player: someone, name: '' },
    { type: 'rename', player: someone },
    { type: 'presence', player: someone, connected: 'no' },
    { type: 'leave', by: someone, player: 7 },
    { type: 'skip' },
    { type: 'claim', by: someone, player: STRANGER },
    { type: 'control', by: someone, key: SEAT_KEY },
    { type: 'control', by: someone, key: 7, player: someone },
    { type: 'control', by: someone, key: SEAT_KEY, player: someone, name: 'both' },
    { type: 'release', by: someone },
  ];
  return pick(r, options);
}

/** Any action type from any seat (mostly illegal). */
function wild(r: Rng, g: Game, s: FuzzSetup): unknown {
  const by = pick(r, [...g.players.filter((p) => !p.virtual).map((p) => p.id), ...s.users.slice(0, 4), STRANGER]);
  const player = r.float() < 0.5 ? undefined : pick(r, [...g.players.map((p) => p.id), STRANGER]);
  const phone = pick(r, [...PHONES, by]);
  const key = r.float() < 0.8 ? SEAT_KEY : 'wrong-key_0123456789ab';
  switch (r.int(16)) {
    case 14: return r.float() < 0.5 ? { type: 'control', by: phone, key, player: player ?? STRANGER } : { type: 'control', by: phone, key, name: `phone ${r.int(30)}`, avatar: pick(r, AVATARS) };
    case 15: return { type: 'release', by: r.float() < 0.5 ? phone : by, player: player ?? STRANGER };
    case 0: return { type: 'guess', by, player, slot: r.float() < 0.2 ? null : r.int(14) };
    case 1: return { type: 'skip', by, player };
    case 2: return { type: 'claim', by, player };
    case 3: return { type: 'confirm', by, confirm: r.float() < 0.5 };
    case 4: return { type: 'start', by, hits: s.catalogue };
    case 5: return { type: 'stop', by };
    case 6: return { type: 'join', by, name: 'someone' };
    case 7: return { type: 'join_local', by, name: `v${r.int(30)}` };
    case 8: return { type: 'leave', by, player };
    case 9: return { type: 'timeout' };
    case 10: return { type: 'update', by, settings: { goal: 1 + r.int(6) }, pack_ids: PACKS };
    case 11: return { type: 'avatar', by, player, avatar: pick(r, AVATARS) };
    case 12: return { type: 'rename', player: player ?? by, name: `renamed ${r.int(30)}` };
    case 13: return r.float() < 0.5 ? { type: 'dispute', by, player, year: 1955 + r.int(70) } : { type: 'vote', by, player, take: r.float() < 0.5 };
    default: return { type: 'replace_hit' };
  }
}

/** A plausible legal action for the current phase, acted as the right seat. */
function legal(r: Rng, g: Game, s: FuzzSetup): unknown {
  const creator = g.players.find((p) => p.creator) as Player;
  const local = g.mode === 'Local';
  // a seat a phone plays is played on that phone most of the time, on the creator's device otherwise
  const as = (p: Player) => (local ? { by: p.controller && r.float() < 0.7 ? p.controller : creator.id, player: p.id } : { by: p.id });
  const turn = g.players.find((p) => p.turn_player);
  // the table votes on an open dispute; a revealed card is sometimes disputed
  const dispute = g.dispute?.outcome === null ? g.dispute : null;
  if (dispute) {
    const voters = g.players.filter((p) => !dispute.votes.some((v) => v.player === p.id));
    return voters.length === 0 ? { type: 'timeout' } : { type: 'vote', ...as(pick(r, voters)), take: r.float() < 0.5 };
  }
  if (g.rejudge && g.players.length > 0 && r.float() < 0.12) return { type: 'dispute', ...as(pick(r, g.players)), year: 1955 + r.int(70) };
  if (g.state === 'Open') {
    const roll = r.float();
    const seated = g.players.length;
    const wanted = 2 + (s.seed % 9);
    if (local && roll < 0.1) {
      const seats = g.players.filter((p) => p.virtual);
      const phone = pick(r, PHONES);
      const held = seats.find((p) => p.controller);
      if (held && roll < 0.03) return { type: 'release', by: r.float() < 0.5 ? (held.controller as string) : creator.id, player: held.id };
      if (seats.length > 0 && roll < 0.07) return { type: 'control', by: phone, key: SEAT_KEY, player: pick(r, seats).id };
      if (seated < wanted) return { type: 'control', by: phone, key: SEAT_KEY, name: `Phone ${seated}` };
    }
    if (seated < wanted && roll < 0.9) {
      const avatar = pick(r, AVATARS);
      if (local) return { type: 'join_local', by: creator.id, name: `Player ${seated}`, avatar };
      const newcomer = s.users.find((u) => !g.players.some((p) => p.id === u));
      return { type: 'join', by: newcomer ?? STRANGER, name: `user ${seated}`, avatar };
    }
    if (roll < 0.05) return { type: 'update', by: creator.id, settings: { goal: 1 + r.int(5), clue_mode: pick(r, ['audio', 'card', 'dj']) }, pack_ids: PACKS };
    if (roll < 0.08) return { type: 'update', by: creator.id, settings: { dj: pick(r, ['', ...g.players.map((p) => p.id)]), dj_plays: r.float() < 0.5 }, pack_ids: PACKS };
    return { type: 'start', by: creator.id, hits: s.catalogue };
  }
  if (g.state === 'Guessing' && turn) {
    const roll = r.float();
    if (roll < 0.08) return { type: 'skip', ...as(turn) };
    if (roll < 0.14) return { type: 'claim', ...as(turn) };
    const slots = slotsFor(turn.hits);
    return { type: 'guess', ...as(turn), slot: pick(r, slots).id };
  }
  if (g.state === 'Intercepting' && turn) {
    const pending = g.players.filter((p) => p.state === 'Intercepting');
    if (pending.length === 0) return { type: 'timeout' };
    const p = pick(r, pending);
    const free = slotsFor(turn.hits).filter((sl) => !g.players.some((q) => q.guess?.id === sl.id));
    return { type: 'guess', ...as(p), slot: r.float() < 0.4 || free.length === 0 ? null : pick(r, free).id };
  }
  const confirmer = g.players.find((p) => p.state === 'Confirming');
  if (confirmer) return { type: 'confirm', by: local ? creator.id : confirmer.id, confirm: r.float() < 0.6 };
  return { type: 'timeout' };
}

function nextAction(r: Rng, g: Game, s: FuzzSetup): unknown {
  const roll = r.float();
  if (roll < 0.72) return legal(r, g, s);
  if (roll < 0.87) return wild(r, g, s);
  if (roll < 0.93) return garbage(r, g);
  if (roll < 0.97 && g.players.length > 0) {
    return { type: 'presence', player: pick(r, g.players).id, connected: r.float() < 0.5 };
  }
  if (roll < 0.985) return { type: 'timeout' };
  const creator = g.players.find((p) => p.creator);
  if (roll < 0.995 && creator) return { type: 'leave', by: creator.id, player: pick(r, g.players).id };
  return creator ? { type: 'stop', by: creator.id } : { type: 'timeout' };
}

// ---------------------------------------------------------------------------
// invariants

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function cardsOf(g: Game): Hit[] {
  return [...remainingDeck(g), ...(g.current ? [g.current] : []), ...g.discard, ...g.players.flatMap((p) => p.hits)];
}

/** Avatars found good (the grapheme check costs some microseconds, and every step checks every seat). */
const goodAvatars = new Set<string>();
function avatarOk(avatar: string): boolean {
  if (goodAvatars.has(avatar)) return true;
  if (!isAvatar(avatar)) return false;
  goodAvatars.add(avatar);
  return true;
}

/** Checks every invariant of `g` after a step; returns a description of the first breach. */
export function checkInvariants(g: Game, events: GameEvent[], viewers: (string | null)[], fullViews: boolean): string | null {
  const cards = cardsOf(g);
  const ids = new Set(cards.map((c) => c.id));
  if (ids.size !== cards.length) return 'a card is in two places at once';
  const turnPlayers = g.players.filter((p) => p.turn_player);
  if (g.state === 'Open') {
    if (turnPlayers.length !== 0) return 'a turn player while Open';
    if (cards.length !== 0) return 'cards left in play while Open';
    if (g.deadline && g.deadline.state !== 'Disputing') return 'a deadline while Open';
  } else {
    if (turnPlayers.length !== 1) return `${turnPlayers.length} turn players while running`;
    const turn = turnPlayers[0] as Player;
    if (g.state !== 'Confirming' && !g.current) return 'no mystery card while the hit is hidden';
    if (g.state === 'Confirming' && (g.current || !g.hit)) return 'Confirming without a revealed hit (or with a hidden one)';
    if (g.state === 'Guessing' && (turn.state !== 'Guessing' || g.players.some((p) => p !== turn && p.state !== 'Waiting'))) {
      return 'player states do not match Guessing';
    }
    if (g.state === 'Intercepting' && (!turn.guess || turn.state !== 'Waiting')) return 'Intercepting without the placement';
    if (g.state === 'Intercepting' && !g.players.some((p) => p.state === 'Intercepting')) return 'Intercepting with nobody to answer';
    if (g.state === 'Confirming' && g.players.filter((p) => p.state === 'Confirming').length !== 1) return 'not exactly one confirmer';
    // guesses name slots of the timeline as it is until the reveal (which may add a card to it)
    const turnSlots = g.state === 'Confirming' ? [] : slotsFor(turn.hits);
    for (const p of g.state === 'Confirming' ? [] : g.players) {
      if (p.guess && !turnSlots.some((sl) => sl.id === p.guess?.id && sl.from_year === p.guess.from_year && sl.to_year === p.guess.to_year)) {
        return `${p.name}'s guess is not a slot of the turn player's timeline`;
      }
    }
    if (g.deadline && g.deadline.state !== g.state && g.deadline.state !== 'Disputing') return 'deadline armed for another phase';
  }
  // a dispute: the vote's deadline only while it runs, votes of seated players, each once, the disputer's first
  const d = g.dispute;
  if ((g.deadline?.state === 'Disputing') !== (d?.outcome === null && d.until !== null)) return "the vote's deadline without a vote, or a timed vote without it";
  if (d?.outcome === null) {
    if (!g.rejudge) return 'a vote with nothing to re-judge';
    if (d.votes.some((v) => !g.players.some((p) => p.id === v.player))) return 'a vote of somebody not seated';
    if (new Set(d.votes.map((v) => v.player)).size !== d.votes.length) return 'a seat voted twice';
    const take = d.votes.filter((v) => v.take).length;
    if (take * 2 > g.players.length || (take + g.players.length - d.votes.length) * 2 <= g.players.length) return 'an undecided vote with a majority';
  }
  if ((g.disputes_used ? Object.values(g.disputes_used) : []).some((n) => n > g.settings.disputes)) return 'more disputes than the setting allows';
  if (g.players.length > 10) return 'more than 10 players';
  if (new Set(g.players.map((p) => p.id)).size !== g.players.length) return 'a player sits twice';
  // a game without real players is deleted; it needs no creator any more
  if (g.players.some((p) => !p.virtual) && g.players.filter((p) => p.creator).length !== 1) return 'not exactly one creator';
  if (g.players.some((p) => p.creator && p.virtual)) return 'a virtual creator';
  for (const p of g.players) {
    if (!Number.isInteger(p.tokens) || p.tokens < 0 || p.tokens > 255) return `tokens out of range: ${p.tokens}`;
    if (!Number.isInteger(p.color) || p.color < 0 || p.color >= PLAYER_COLORS) return `colour out of range: ${p.color}`;
    if (!avatarOk(p.avatar)) return `not an avatar: ${JSON.stringify(p.avatar)}`;
  }
  if (new Set(g.players.map((p) => p.color)).size !== g.players.length) return 'two seated players share a colour';
  // phones play name-only seats of Local games, one seat each, and are never players themselves
  const controllers = g.players.flatMap((p) => (p.controller ? [p] : []));
  if (controllers.some((p) => !p.virtual || g.mode !== 'Local')) return 'a phone plays a real seat, or a seat outside a Local game';
  if (new Set(controllers.map((p) => p.controller)).size !== controllers.length) return 'a phone plays two seats';
  if (controllers.some((p) => g.players.some((q) => !q.virtual && q.id === p.controller))) return 'a player of the game also plays a seat on a phone';
  if (g.mode === 'Local' && g.seat_key && events.some((e) => JSON.stringify(e).includes(g.seat_key as string))) return 'an event contains the seat key';
  for (const e of events) {
    if (e.data.winner && e.data.winner.hits.length < g.settings.goal) return 'a winner below the goal';
  }
  // the DJ: of a running dj round only, seated; one who sits out has no card, token or turn
  if (g.dj) {
    if (g.state === 'Open' || g.settings.clue_mode !== 'dj') return 'a DJ outside a running dj round';
    const dj = g.players.find((p) => p.id === g.dj?.id && !p.virtual);
    if (!dj) return 'the DJ is not seated';
    if (!g.dj.plays && (dj.hits.length > 0 || dj.tokens > 0 || dj.turn_player || dj.state === 'Guessing' || dj.state === 'Intercepting')) return 'the DJ who sits out plays';
    if (g.current && g.players.filter((p) => p.id !== g.dj?.id).some((p) => djClip(g, p.id).ok)) return "somebody but the DJ gets the hidden hit's video";
    const clip = djClip(g, dj.id);
    const shown = g.state === 'Confirming' ? g.hit : g.current;
    if (!clip.ok || clip.clip.yt_id !== shown?.yt_id) return "the DJ does not get the hit's video";
  } else if (g.state !== 'Open' && g.settings.clue_mode === 'dj') return 'a dj round without a DJ';
  if (g.settings.dj && !g.players.some((p) => p.id === g.settings.dj)) return 'the chosen DJ is not seated';
  // nothing hidden in any event or view
  const hidden = g.current;
  if (hidden) {
    // quoted, so "hit-1" is not found inside "hit-10"
    const secrets = [hidden.id, ...(g.settings.clue_mode === 'card' ? [] : [hidden.title]), ...(hidden.yt_id ? [hidden.yt_id] : [])].map((x) => JSON.stringify(x));
    const leak = (text: string) => secrets.some((x) => text.includes(x));
    if (events.some((e) => leak(JSON.stringify(e)))) return 'an event contains the hidden hit';
    for (const v of fullViews ? viewers : viewers.slice(0, 1)) {
      const view = viewGame(g, v);
      if (view && leak(JSON.stringify(view))) return 'a view contains the hidden hit';
      if (view?.clue && 'year' in view.clue) return 'the clue shows the year';
    }
  }
  // the view's slots match each player's hits
  const view = viewGame(g, g.players.find((p) => p.creator)?.id ?? null);
  if (view && g.seat_key && JSON.stringify(view).includes(g.seat_key)) return 'a view contains the seat key';
  if (view) {
    for (const [i, p] of g.players.entries()) {
      if (JSON.stringify(view.players[i]?.slots) !== JSON.stringify(slotsFor(p.hits))) return 'view slots do not match the hits';
    }
  }
  return null;
}

// ---------------------------------------------------------------------------
// running, replaying, shrinking

/** Applies steps one by one and checks everything after each accepted one. */
class Checker {
  game: Game;
  private cardCount = 0;
  private readonly viewers: (string | null)[];
  private index = 0;
  private lastView: GamePayload | null = null;
  constructor(setup: FuzzSetup) {
    this.game = deepFreeze(setup.game);
    this.viewers = [null, ...setup.users.slice(0, 3), STRANGER];
  }

  /** Returns the failure, or whether the step was accepted, won the game or deleted it. */
  apply(step: FuzzStep): { failure: string | null; accepted: boolean; won: boolean; deleted: boolean } {
    const i = this.index++;
    const no = { accepted: false, won: false, deleted: false };
    let result;
    try {
      result = applyAction(this.game, step.action, { now: step.now });
    } catch (e) {
      return { failure: `exception: ${(e as Error).stack ?? e}`, ...no };
    }
    if (!result.ok) {
      if (![400, 403, 404, 409].includes(result.error.status)) return { failure: `bad status ${result.error.status}`, ...no };
      // the route table documents an action's errors from ACTION_ERRORS: it must hold every refusal
      const type = (step.action as { type?: unknown } | null)?.type;
      if (!mayRefuse(String(type), result.error.code)) return { failure: `${String(type)} refused with ${result.error.code}, which ACTION_ERRORS does not list`, ...no };
      return { failure: null, ...no };
    }
    const before = this.game;
    const game = deepFreeze(result.game);
    this.game = game;
    const won = result.events.some((e) => e.data.winner !== undefined);
    const done = { accepted: true, won, deleted: result.deleted };
    const failure = checkInvariants(game, result.events, this.viewers, i % 16 === 0);
    if (failure) return { failure, ...done };
    // a view made with the previous one (as game rooms do) equals a view made afresh
    const creator = game.players.find((p) => p.creator && !p.virtual)?.id ?? null;
    const reused = viewGame(game, creator, this.lastView);
    if (JSON.stringify(reused) !== JSON.stringify(viewGame(game, creator))) return { failure: 'a view made with the previous one differs', ...done };
    this.lastView = reused;
    // cards only move: the count changes at start, at the end of a round and when a card is replaced
    const type = (step.action as { type: string }).type;
    const count = cardsOf(game).length;
    if (before.state === 'Open' && game.state !== 'Open') this.cardCount = count;
    else if (game.state !== 'Open') {
      const expected = type === 'replace_hit' ? this.cardCount - 1 : this.cardCount;
      if (count !== expected) return { failure: `card count changed from ${this.cardCount} to ${count} on ${type}`, ...done };
      this.cardCount = count;
    }
    return { failure: null, ...done };
  }
}

/** Replays `steps` from the setup, checking everything; returns the failure (and where) or null. */
export function replay(setup: FuzzSetup, steps: FuzzStep[]): { failure: string | null; game: Game; at: number } {
  const checker = new Checker(setup);
  for (const [i, step] of steps.entries()) {
    const r = checker.apply(step);
    if (r.failure) return { failure: r.failure, game: checker.game, at: i };
    if (r.deleted) break;
  }
  return { failure: null, game: checker.game, at: steps.length };
}

/** Plays one random game from `seed`. */
export function playGame(seed: number, maxActions = 2000): GameRun {
  const setup = setupGame(seed);
  const r = new Rng(seed ^ 0x5bd1e995);
  const checker = new Checker(setup);
  let now = 1_700_000_000_000;
  const steps: FuzzStep[] = [];
  let accepted = 0;
  let won = false;
  for (let i = 0; i < maxActions && !won; i++) {
    now += r.float() < 0.05 ? 61_000 + r.int(600_000) : r.int(4000);
    const game = checker.game;
    const action = game.deadline && r.float() < 0.3 ? { type: 'timeout' } : nextAction(r, game, setup);
    steps.push({ action, now });
    const result = checker.apply({ action, now });
    if (result.failure) return { seed, steps, accepted, won, failure: result.failure };
    if (result.accepted) accepted++;
    won = result.won;
    if (result.deleted) break;
  }
  // the same seed and actions replay to the same state
  const again = replay(setup, steps);
  if (again.failure) return { seed, steps, accepted, won, failure: `replay: ${again.failure}` };
  if (JSON.stringify(again.game) !== JSON.stringify(checker.game)) return { seed, steps, accepted, won, failure: 'replay gave a different state' };
  return { seed, steps, accepted, won, failure: null };
}

/** Shrinks a failing step list (chunk removal, then one by one) while it still fails. */
export function shrink(seed: number, steps: FuzzStep[], budget = 4000): { steps: FuzzStep[]; failure: string } {
  const setup = setupGame(seed);
  const fails = (list: FuzzStep[]) => replay(setup, list).failure;
  let best = steps;
  let failure = fails(best) ?? 'did not reproduce';
  // everything after the failing step is irrelevant
  const cut = replay(setup, best).at;
  best = best.slice(0, cut + 1);
  let tries = 0;
  for (let chunk = Math.max(1, Math.floor(best.length / 2)); chunk >= 1 && tries < budget; chunk = Math.floor(chunk / 2)) {
    for (let start = 0; start < best.length && tries < budget; ) {
      const candidate = [...best.slice(0, start), ...best.slice(start + chunk)];
      tries++;
      const f = fails(candidate);
      if (f) {
        best = candidate;
        failure = f;
      } else start += chunk;
    }
    if (chunk === 1) break;
  }
  return { steps: best, failure };
}

export interface FuzzSummary {
  games: number;
  actions: number;
  accepted: number;
  wins: number;
  failures: { seed: number; failure: string; steps: FuzzStep[] }[];
  ms: number;
}

/** Plays `games` games with seeds from `firstSeed` on; shrinks the first failure found. */
export function fuzz(games: number, firstSeed: number, maxActions = 2000): FuzzSummary {
  const t0 = performance.now();
  const summary: FuzzSummary = { games: 0, actions: 0, accepted: 0, wins: 0, failures: [], ms: 0 };
  for (let i = 0; i < games; i++) {
    const seed = (firstSeed + i) >>> 0;
    const run = playGame(seed, maxActions);
    summary.games++;
    summary.actions += run.steps.length;
    summary.accepted += run.accepted;
    if (run.won) summary.wins++;
    if (run.failure) {
      const small = shrink(seed, run.steps);
      summary.failures.push({ seed, failure: small.failure, steps: small.steps });
      break;
    }
  }
  summary.ms = performance.now() - t0;
  return summary;
}

/** A human-readable failure report: the seed and the shortest action list that reproduces it. */
export function describeFailure(f: FuzzSummary['failures'][number]): string {
  const lines = f.steps.map((s, i) => `  ${i + 1}. now=${s.now} ${JSON.stringify(s.action, (k, v) => (k === 'hits' ? `[${(v as unknown[]).length} hits]` : v))}`);
  return `seed ${f.seed}: ${f.failure}\nshortest reproduction (${f.steps.length} actions, replay with setupGame(${f.seed})):\n${lines.join('\n')}`;
}
