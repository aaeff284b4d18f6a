import { ArraySchema, Encoder, schema, t, type SchemaType } from '@colyseus/schema';
import type { Clue, GamePayload, HitPayload, PlayerPayload, Slot } from '../../shared/rules/index.ts';

// Budget P12 (≤ 50 kB per idle room): Colyseus gives every room two buffers of
// Encoder.BUFFER_SIZE (the encoder's and the serializer's full-state buffer), 16 kB
// each by default: 33 kB per room before any state. An Open game encodes to under
// 1 kB, a 6-player game to ~8 kB once its players hold 7 hits each. Larger states
// grow the buffer on demand (Colyseus then warns on each full-state encode, a join).
Encoder.BUFFER_SIZE = 8 * 1024;

/**
 * The synchronized room state: a mirror of the public GamePayload (views.ts), so
 * nothing hidden can ever enter it. Empty string / 0 stand for "none" where the
 * payload has null, because the wire format has no null for primitives. Parts
 * that change as a whole are JSON strings instead of schema objects (budget P1:
 * every schema object created costs work on every patch that carries it and
 * garbage that lives until the room's next action): a player's timeline (`hits`,
 * the HitPayload array; it changes when a card is won), his `guess` (a Slot),
 * the revealed `hit`, the `clue`, the `dj_seat` and the dispute's fields. The players' slots are left out, since they
 * follow from the hits. `roomStateToPayload` (shared/protocol/room.ts) turns the
 * state back into the GamePayload.
 */

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
    /** Index into the palette of player colours. */
    color: t.number(),
    /** One emoji, '' for initials. */
    avatar: t.string(),
    /** JSON of the timeline (HitPayload[]). */
    hits: t.string(),
    /** JSON of the Slot guessed, '' for none. */
    guess: t.string(),
    /** User id of the phone playing this name-only seat, '' for none. */
    controller: t.string(),
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
    reveal_time: t.number(),
    disputes: t.number(),
    dispute_timeout: t.number(),
    clue_mode: t.string(),
    clue_mode_auto: t.boolean(),
    /** The DJ chosen for `dj` rounds ('' = the creator). */
    dj: t.string(),
    dj_plays: t.boolean(),
    packs: t.array('string'),
    players: t.array(PlayerState),
    /** JSON of the revealed hit (HitPayload), '' for none. */
    hit: t.string(),
    /** Player id of who won the revealed card, '' for nobody. */
    last_scored: t.string(),
    winner: t.ref(PlayerState).optional(),
    standings: t.array(PlayerState),
    /** Epoch ms of the running phase's deadline, 0 = none. */
    deadline: t.number(),
    /** JSON of the clue, '' for none. */
    clue: t.string(),
    draws: t.number(),
    /** JSON of the running round's DJ ({ id, plays }), '' for none. */
    dj_seat: t.string(),
    /** JSON of the card that may be disputed ({ hit, until }), '' for none. */
    disputable: t.string(),
    /** JSON of the dispute being voted on or last decided (DisputePayload), '' for none. */
    dispute: t.string(),
    /** JSON of the disputes each seat raised this round ({ player id: count }). */
    disputes_used: t.string(),
    /** Sequence number of the last game event (same as the SSE ids). */
    seq: t.number(),
  },
  'GameState',
);
export type GameState = SchemaType<typeof GameState>;

// ---------------------------------------------------------------------------
// projection: payload -> schema, touching only what changed

/**
 * Keeps a GameState equal to the game's public view. It remembers the payload it
 * mirrored last and compares the next one with that (plain objects), not with the
 * schema, whose arrays are proxies and whose fields are accessors: an action
 * costs a few comparisons and only the changed fields are written (and patched).
 * A player whose payload is the same object as last time is unchanged: views
 * reuse the payloads of unchanged players (`viewGame`'s `previous`), and the
 * engine keeps its winner and standings payloads. A new payload is compared
 * field by field (a new winner or standings are rebuilt), so one that only looks
 * new costs time, never correctness.
 */
export class StateMirror {
  readonly state: GameState;
  private last: GamePayload | null = null;

  constructor(state: GameState) {
    this.state = state;
  }

  /** Mirrors `g` (the view after event `seq`) into the state. */
  sync(g: GamePayload, seq: number): void {
    const s = this.state;
    const was = this.last;
    if (was?.id !== g.id) s.id = g.id;
    if (was?.state !== g.state) s.state = g.state;
    if (was?.mode !== g.mode) s.mode = g.mode;
    if (was?.goal !== g.goal) s.goal = g.goal;
    if (was?.start_tokens !== g.start_tokens) s.start_tokens = g.start_tokens;
    if (was?.hit_duration !== g.hit_duration) s.hit_duration = g.hit_duration;
    if (was?.guess_timeout !== g.guess_timeout) s.guess_timeout = g.guess_timeout;
    if (was?.intercept_timeout !== g.intercept_timeout) s.intercept_timeout = g.intercept_timeout;
    if (was?.confirm_timeout !== g.confirm_timeout) s.confirm_timeout = g.confirm_timeout;
    if (was?.reveal_time !== g.reveal_time) s.reveal_time = g.reveal_time;
    if (was?.disputes !== g.disputes) s.disputes = g.disputes;
    if (was?.dispute_timeout !== g.dispute_timeout) s.dispute_timeout = g.dispute_timeout;
    if (was?.clue_mode !== g.clue_mode) s.clue_mode = g.clue_mode;
    if (was?.clue_mode_auto !== g.clue_mode_auto) s.clue_mode_auto = g.clue_mode_auto;
    if (was?.dj !== g.dj) s.dj = g.dj;
    if (was?.dj_plays !== g.dj_plays) s.dj_plays = g.dj_plays;
    if (!was || !sameList(was.packs, g.packs)) s.packs.splice(0, s.packs.length, ...g.packs);
    syncPlayers(s.players, was?.players ?? null, g.players);
    if (!was || !sameHit(was.hit, g.hit)) s.hit = g.hit ? hitJson(g.hit) : '';
    const scorer = g.last_scored?.id ?? '';
    if ((was?.last_scored?.id ?? '') !== scorer || !was) s.last_scored = scorer;
    if (!was || was.winner !== g.winner) s.winner = g.winner ? newPlayer(g.winner) : undefined;
    const standings = g.standings ?? [];
    const wasStandings = was?.standings ?? [];
    if (!was || wasStandings.length !== standings.length || standings.some((p, i) => wasStandings[i] !== p)) {
      s.standings.splice(0, s.standings.length, ...standings.map(newPlayer));
    }
    if (!was || was.deadline !== g.deadline) s.deadline = g.deadline ?? 0;
    if (!was || !sameClue(was.clue, g.clue)) s.clue = g.clue ? JSON.stringify(g.clue) : '';
    if (was?.draws !== g.draws) s.draws = g.draws;
    if (!was || was.dj_seat?.id !== g.dj_seat?.id || was.dj_seat?.plays !== g.dj_seat?.plays) s.dj_seat = g.dj_seat ? JSON.stringify(g.dj_seat) : '';
    // small and rare: compared as JSON
    const disputable = g.disputable ? JSON.stringify(g.disputable) : '';
    if (s.disputable !== disputable) s.disputable = disputable;
    const dispute = g.dispute ? JSON.stringify(g.dispute) : '';
    if (s.dispute !== dispute) s.dispute = dispute;
    const used = JSON.stringify(g.disputes_used);
    if (s.disputes_used !== used) s.disputes_used = used;
    if (s.seq !== seq) s.seq = seq;
    this.last = g;
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

const sameSlot = (a: Slot | null, b: Slot | null) => a === b || (!!a && !!b && a.id === b.id && a.from_year === b.from_year && a.to_year === b.to_year);

/** Hits of a game keep their id; only a dispute changes one, its year (docs/rules.md#disputes). */
const sameHit = (a: HitPayload | null, b: HitPayload | null) => a === b || (!!a && !!b && a.id === b.id && a.year === b.year);

const sameClue = (a: Clue | null, b: Clue | null) => a === b || (!!a && !!b && a.title === b.title && a.artist === b.artist && a.belongs_to === b.belongs_to);

/** JSON of each hit and timeline shown: payloads are frozen and shared (views.ts), so each is written once. */
const hitJsons = new WeakMap<HitPayload, string>();
const timelineJsons = new WeakMap<readonly HitPayload[], string>();

function hitJson(h: HitPayload): string {
  let json = hitJsons.get(h);
  if (json === undefined) {
    json = JSON.stringify(h);
    hitJsons.set(h, json);
  }
  return json;
}

function timelineJson(hits: readonly HitPayload[]): string {
  let json = timelineJsons.get(hits);
  if (json === undefined) {
    json = `[${hits.map(hitJson).join(',')}]`;
    timelineJsons.set(hits, json);
  }
  return json;
}

function newPlayer(p: PlayerPayload): PlayerState {
  const s = new PlayerState();
  syncPlayer(s, null, p);
  return s;
}

/** Mirrors player `p` into `s`, which holds `was` (null: a new entry). */
function syncPlayer(s: PlayerState, was: PlayerPayload | null, p: PlayerPayload): void {
  if (was?.id !== p.id) s.id = p.id;
  if (was?.name !== p.name) s.name = p.name;
  if (was?.state !== p.state) s.state = p.state;
  if (was?.creator !== p.creator) s.creator = p.creator;
  if (was?.tokens !== p.tokens) s.tokens = p.tokens;
  if (was?.turn_player !== p.turn_player) s.turn_player = p.turn_player;
  if (was?.virtual !== p.virtual) s.virtual = p.virtual;
  if (was?.connected !== p.connected) s.connected = p.connected;
  if (was?.color !== p.color) s.color = p.color;
  if (was?.avatar !== p.avatar) s.avatar = p.avatar;
  if (!was || was.hits !== p.hits) s.hits = timelineJson(p.hits);
  if (!was || was.controller !== p.controller) s.controller = p.controller ?? '';
  if (!was || !sameSlot(was.guess, p.guess)) s.guess = p.guess ? JSON.stringify(p.guess) : '';
}

/**
 * Players are updated in place while the seat order stays; a join appends. Any
 * other change of the list (a leave, the reseat at start) rebuilds the entries:
 * moving existing entries inside the array while their children change in the
 * same patch lost those changes on the clients (@colyseus/schema 5.0.34, when a
 * timeline was an array of hits: a player moved or kept by `splice` whose hits
 * were emptied in the same patch still showed his old hits on every client).
 */
function syncPlayers(target: ArraySchema<PlayerState>, was: readonly PlayerPayload[] | null, players: readonly PlayerPayload[]): void {
  const kept = was !== null && was.length <= players.length && was.every((p, i) => p.id === players[i]?.id);
  if (!kept) {
    target.splice(0, target.length, ...players.map(newPlayer));
    return;
  }
  players.forEach((p, i) => {
    const before = was[i];
    if (before === undefined) target.push(newPlayer(p));
    else if (before !== p) syncPlayer(target[i] as PlayerState, before, p);
  });
}
