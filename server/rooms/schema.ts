import { ArraySchema, Encoder, schema, t, type SchemaType } from '@colyseus/schema';
import type { GamePayload, HitPayload, PlayerPayload, Slot } from '../../shared/rules/index.ts';

// Budget P12 (≤ 50 kB per idle room): Colyseus gives every room two buffers of
// Encoder.BUFFER_SIZE (the encoder's and the serializer's full-state buffer), 16 kB
// each by default: 33 kB per room before any state. An Open game encodes to under
// 1 kB, a 6-player game to ~8 kB once its players hold 7 hits each. Larger states
// grow the buffer on demand (Colyseus then warns on each full-state encode, a join).
Encoder.BUFFER_SIZE = 8 * 1024;

/**
 * The synchronized room state: a mirror of the public GamePayload (views.ts), so
 * nothing hidden can ever enter it. Empty string / 0 stand for "none" where the
 * payload has null, because the wire format has no null for primitives.
 */

export const SlotState = schema({ id: t.number(), from_year: t.number(), to_year: t.number() }, 'Slot');
export type SlotState = SchemaType<typeof SlotState>;

export const HitState = schema(
  { id: t.string(), title: t.string(), artist: t.string(), belongs_to: t.string(), year: t.number(), packs: t.array('string') },
  'Hit',
);
export type HitState = SchemaType<typeof HitState>;

export const ClueState = schema({ title: t.string(), artist: t.string(), belongs_to: t.string() }, 'Clue');
export type ClueState = SchemaType<typeof ClueState>;

export const PlayerState = schema(
  {
    id: t.string(),
    name: t.string(),
    state: t.string(),
    creator: t.boolean(),
    tokens: t.number(),
    turn_player: t.boolean(),
    virtual: t.boolean(),
    connected: t.boolean(),
    hits: t.array(HitState),
    slots: t.array(SlotState),
    guess: t.ref(SlotState).optional(),
  },
  'Player',
);
export type PlayerState = SchemaType<typeof PlayerState>;

export const GameState = schema(
  {
    id: t.string(),
    state: t.string(),
    mode: t.string(),
    goal: t.number(),
    start_tokens: t.number(),
    hit_duration: t.number(),
    guess_timeout: t.number(),
    intercept_timeout: t.number(),
    confirm_timeout: t.number(),
    clue_mode: t.string(),
    packs: t.array('string'),
    players: t.array(PlayerState),
    hit: t.ref(HitState).optional(),
    /** Player id of who won the revealed card, '' for nobody. */
    last_scored: t.string(),
    winner: t.ref(PlayerState).optional(),
    standings: t.array(PlayerState),
    /** Epoch ms of the running phase's deadline, 0 = none. */
    deadline: t.number(),
    clue: t.ref(ClueState).optional(),
    draws: t.number(),
    /** Sequence number of the last game event (same as the SSE ids). */
    seq: t.number(),
  },
  'GameState',
);
export type GameState = SchemaType<typeof GameState>;

// ---------------------------------------------------------------------------
// projection: payload -> schema, touching only what changed

function setIfChanged<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
  if (target[key] !== value) target[key] = value;
}

function syncStrings(target: ArraySchema<string>, values: readonly string[]): void {
  if (target.length === values.length && values.every((v, i) => target[i] === v)) return;
  target.splice(0, target.length, ...values);
}

function newHit(h: HitPayload): HitState {
  const s = new HitState();
  s.id = h.id;
  s.title = h.title;
  s.artist = h.artist;
  s.belongs_to = h.belongs_to;
  s.year = h.year;
  s.packs.push(...h.packs);
  return s;
}

function newSlot(sl: Slot): SlotState {
  const s = new SlotState();
  s.id = sl.id;
  s.from_year = sl.from_year;
  s.to_year = sl.to_year;
  return s;
}

const sameSlot = (a: SlotState | undefined, b: Slot | null) =>
  (!a && !b) || (!!a && !!b && a.id === b.id && a.from_year === b.from_year && a.to_year === b.to_year);

/** Hits are immutable in a game: an unchanged prefix stays, the rest is rebuilt. */
function syncHits(target: ArraySchema<HitState>, hits: readonly HitPayload[]): void {
  let same = 0;
  while (same < target.length && same < hits.length && target[same]?.id === hits[same]?.id) same++;
  if (same < target.length) target.splice(same, target.length - same);
  for (let i = same; i < hits.length; i++) target.push(newHit(hits[i] as HitPayload));
}

function syncSlots(target: ArraySchema<SlotState>, slots: readonly Slot[]): void {
  if (target.length === slots.length && slots.every((sl, i) => sameSlot(target[i], sl))) return;
  target.splice(0, target.length, ...slots.map(newSlot));
}

function syncPlayer(s: PlayerState, p: PlayerPayload): void {
  setIfChanged(s, 'id', p.id);
  setIfChanged(s, 'name', p.name);
  setIfChanged(s, 'state', p.state);
  setIfChanged(s, 'creator', p.creator);
  setIfChanged(s, 'tokens', p.tokens);
  setIfChanged(s, 'turn_player', p.turn_player);
  setIfChanged(s, 'virtual', p.virtual);
  setIfChanged(s, 'connected', p.connected);
  syncHits(s.hits, p.hits);
  syncSlots(s.slots, p.slots);
  if (!sameSlot(s.guess, p.guess)) s.guess = p.guess ? newSlot(p.guess) : undefined;
}

function newPlayer(p: PlayerPayload): PlayerState {
  const s = new PlayerState();
  syncPlayer(s, p);
  return s;
}

/**
 * Players are updated in place while the seat order stays; a join appends. Any
 * other change of the list (a leave, the reseat at start) rebuilds the entries:
 * moving existing entries inside the array while their own arrays change in the
 * same patch loses those changes on the clients (@colyseus/schema 5.0.34: a
 * player moved or kept by `splice` whose `hits` were emptied in the same patch
 * still shows his old hits on every client).
 */
function syncPlayers(target: ArraySchema<PlayerState>, players: readonly PlayerPayload[]): void {
  const kept = target.length <= players.length && target.every((s, i) => s.id === players[i]?.id);
  if (!kept) target.splice(0, target.length, ...players.map(newPlayer));
  players.forEach((p, i) => {
    if (i < target.length) syncPlayer(target[i] as PlayerState, p);
    else target.push(newPlayer(p));
  });
}

/** Mirrors a GamePayload into the room state. */
export function syncState(s: GameState, g: GamePayload, seq: number): void {
  setIfChanged(s, 'id', g.id);
  setIfChanged(s, 'state', g.state);
  setIfChanged(s, 'mode', g.mode);
  setIfChanged(s, 'goal', g.goal);
  setIfChanged(s, 'start_tokens', g.start_tokens);
  setIfChanged(s, 'hit_duration', g.hit_duration);
  setIfChanged(s, 'guess_timeout', g.guess_timeout);
  setIfChanged(s, 'intercept_timeout', g.intercept_timeout);
  setIfChanged(s, 'confirm_timeout', g.confirm_timeout);
  setIfChanged(s, 'clue_mode', g.clue_mode);
  syncStrings(s.packs, g.packs);
  syncPlayers(s.players, g.players);
  if (s.hit?.id !== g.hit?.id) s.hit = g.hit ? newHit(g.hit) : undefined;
  setIfChanged(s, 'last_scored', g.last_scored?.id ?? '');
  if (s.winner?.id !== g.winner?.id || (g.winner && s.winner && s.winner.hits.length !== g.winner.hits.length)) {
    s.winner = g.winner ? newPlayer(g.winner) : undefined;
  }
  const standings = g.standings ?? [];
  const standingsSame = s.standings.length === standings.length && standings.every((p, i) => s.standings[i]?.id === p.id && s.standings[i]?.hits.length === p.hits.length && s.standings[i]?.tokens === p.tokens);
  if (!standingsSame) s.standings.splice(0, s.standings.length, ...standings.map(newPlayer));
  setIfChanged(s, 'deadline', g.deadline ?? 0);
  const clue = g.clue;
  if (!clue) {
    if (s.clue) s.clue = undefined;
  } else if (!s.clue || s.clue.title !== clue.title || s.clue.artist !== clue.artist || s.clue.belongs_to !== clue.belongs_to) {
    const c = new ClueState();
    c.title = clue.title;
    c.artist = clue.artist;
    c.belongs_to = clue.belongs_to;
    s.clue = c;
  }
  setIfChanged(s, 'draws', g.draws);
  setIfChanged(s, 'seq', seq);
}
