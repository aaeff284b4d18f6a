import { z } from 'zod';
import { ErrorBodySchema, illFormedText, INVALID_INPUT_CODE, parseInput, UuidSchema, type ParseOutcome } from './common.ts';
import { slotsFor } from '../rules/slots.ts';
import { GAME_EVENT_NAMES, type GameEvent } from '../rules/types.ts';
import {
  AvatarSchema,
  ControlBodySchema,
  GamePayloadSchema,
  GameUpdateSchema,
  LocalPlayerNameSchema,
  PlayerPayloadSchema,
  ReleaseBodySchema,
  SettingsUpdateSchema,
  SlotIdSchema,
  YearSchema,
  type GamePayload,
  type PlayerPayload,
} from './game.ts';

/**
 * Messages of a game's Colyseus room. The message name is Colyseus' message type
 * (`room.send('guess', { slot: 3 })`), so the map below is the discriminated
 * union: name → payload schema. `player` names the seat acted for, which only the
 * creator of a Local game (any seat) or the phone playing that seat may do (the
 * engine checks that).
 *
 * Payloads are strict (a typo is an error, not ignored). Those whose fields are
 * all optional also accept a missing payload (`.prefault({})`), because
 * `room.send('start')` delivers `undefined`.
 */

/** The seat an action is for; absent = the sender's own seat. */
const OptionalPlayer = { player: UuidSchema.optional() };

/** Client → server messages of a game room, by message name. */
export const ROOM_MESSAGES = {
  /** Place the turn guess or an interception (a slot id of the turn player's timeline), or decline with null. */
  guess: z.strictObject({ slot: SlotIdSchema.nullable(), ...OptionalPlayer }),
  /** The confirmer's verdict: did the turn player name title and artist? */
  confirm: z.strictObject({ confirm: z.boolean() }),
  /** Pay a token to swap the mystery card. */
  skip: z.strictObject(OptionalPlayer).prefault({}),
  /** Pay three tokens for the next card. */
  claim: z.strictObject(OptionalPlayer).prefault({}),
  /** Start the round (creator). */
  start: z.strictObject({}).prefault({}),
  /** Stop the running round (creator). */
  stop: z.strictObject({}).prefault({}),
  /** Take a seat as oneself (under one's user name), with an emoji or "" (initials; also when left out). */
  join: z.strictObject({ avatar: AvatarSchema.optional() }).prefault({}),
  /** Add a local, name-only player (creator of a Local game). */
  join_local: z.strictObject({ name: LocalPlayerNameSchema, avatar: AvatarSchema.optional() }),
  /** Change one's avatar (or, creator of a Local game, a seat's), in any phase. */
  avatar: z.strictObject({ avatar: AvatarSchema, ...OptionalPlayer }),
  /** Leave, or remove `player` (creator). */
  leave: z.strictObject(OptionalPlayer).prefault({}),
  /** Change settings while the game is Open (creator). */
  update: z.strictObject({ settings: SettingsUpdateSchema }),
  /** A phone takes a name-only seat of a Local game with its seat key: `player`, or a new seat `name` while Open. */
  control: ControlBodySchema,
  /** The seat `player` goes back to the creator's device (its phone, or the creator). */
  release: ReleaseBodySchema,
  /** Dispute the last revealed card's year, proposing `year` (docs/rules.md#disputes). */
  dispute: z.strictObject({ year: YearSchema, ...OptionalPlayer }),
  /** Vote on the open dispute: take the proposed year, or keep the card's. */
  vote: z.strictObject({ take: z.boolean(), ...OptionalPlayer }),
} as const;

/**
 * A player as room events name him: his cards and slots left out, because the
 * room state (sent just before every event) carries them.
 */
export const RoomEventPlayerSchema = PlayerPayloadSchema.omit({ hits: true, slots: true });

/**
 * A game event on the room: the SSE event (GameUpdate) without what the state
 * patch sent just before it already carries, so a move costs every client a few
 * hundred bytes instead of the whole table (budget P1). `change_state` leaves
 * out `players` (read them from the state), and the players an event names
 * (`players`, `last_scored`, `removed_by`, `by`, `dj`) come without their cards. `winner` and `standings`
 * stay whole: the game-over dialog shows them after the next start cleared them.
 */
export const RoomEventDataSchema = GameUpdateSchema.extend({
  players: z.array(RoomEventPlayerSchema).optional(),
  last_scored: RoomEventPlayerSchema.optional(),
  removed_by: RoomEventPlayerSchema.optional(),
  by: RoomEventPlayerSchema.optional(),
  dj: RoomEventPlayerSchema.optional(),
});

/** Server → client messages of a game room, by message name. */
export const ROOM_SERVER_MESSAGES = {
  /** A message was refused: malformed (`invalid_input`) or against the rules (the engine's code). */
  error: ErrorBodySchema,
  /**
   * Every game event with its sequence number (the SSE id), for announcements and
   * sounds, in the room's shape (RoomEventDataSchema). `final`: the game was
   * deleted with this event; the room closes next.
   */
  event: z.strictObject({ seq: z.int().min(1), event: z.enum(GAME_EVENT_NAMES), data: RoomEventDataSchema, final: z.literal(true).optional() }),
} as const;

export type RoomEventPlayer = z.infer<typeof RoomEventPlayerSchema>;
export type RoomEvent = z.infer<(typeof ROOM_SERVER_MESSAGES)['event']>;

/** A player without his cards and slots (RoomEventPlayerSchema). */
function eventPlayer(p: PlayerPayload): RoomEventPlayer {
  return { id: p.id, name: p.name, state: p.state, creator: p.creator, tokens: p.tokens, turn_player: p.turn_player, guess: p.guess, virtual: p.virtual, connected: p.connected, color: p.color, avatar: p.avatar, controller: p.controller };
}

/** The room message of engine event `e`, number `seq` (see RoomEventDataSchema). */
export function roomEvent(seq: number, e: GameEvent, final = false): RoomEvent {
  const { players, last_scored, removed_by, by, dj, ...rest } = e.data;
  const data: RoomEvent['data'] = rest;
  if (players && e.event !== 'change_state') data.players = players.map(eventPlayer);
  if (last_scored) data.last_scored = eventPlayer(last_scored);
  if (removed_by) data.removed_by = eventPlayer(removed_by);
  if (by) data.by = eventPlayer(by);
  if (dj) data.dj = eventPlayer(dj);
  return final ? { seq, event: e.event, data, final } : { seq, event: e.event, data };
}

// ---------------------------------------------------------------------------
// the synchronized room state

/**
 * The room state (server/rooms/schema.ts, as `room.state.toJSON()` gives it) as
 * the GamePayload it mirrors. The state has no null for primitives and absent
 * refs, so '' / 0 / [] / undefined stand for none; `last_scored` is an id; a
 * player's `hits` and `guess`, the `hit`, the `clue` and the `dj_seat` are JSON strings; slots
 * are not sent, they follow from the hits (docs/rules.md#slots); `seq` is extra. Fails
 * (naming the first problem) when the result does not match the wire contract.
 */
export function roomStateToPayload(raw: unknown): ParseOutcome<{ game: GamePayload; seq: number }> {
  if (!isRecord(raw)) return { ok: false, error: { type: 'error', code: INVALID_INPUT_CODE, message: 'the room state is not an object' } };
  const players = Array.isArray(raw.players) ? raw.players.map(statePlayer) : raw.players;
  const scorer =
    typeof raw.last_scored === 'string' && raw.last_scored !== '' && Array.isArray(players)
      ? ((players as Record<string, unknown>[]).find((p) => p.id === raw.last_scored) ?? null)
      : null;
  const standings = Array.isArray(raw.standings) && raw.standings.length > 0 ? raw.standings.map(statePlayer) : null;
  const { seq, ...rest } = raw;
  const candidate = {
    ...rest,
    players,
    hit: fromJson(rest.hit),
    last_scored: scorer,
    winner: rest.winner ? statePlayer(rest.winner) : null,
    standings,
    deadline: typeof rest.deadline === 'number' && rest.deadline > 0 ? rest.deadline : null,
    clue: fromJson(rest.clue),
    dj_seat: fromJson(rest.dj_seat),
    disputable: fromJson(rest.disputable),
    dispute: fromJson(rest.dispute),
    disputes_used: fromJson(rest.disputes_used) ?? {},
  };
  const parsed = parseInput(GamePayloadSchema, candidate, 'state');
  if (!parsed.ok) return parsed;
  return { ok: true, data: { game: parsed.data, seq: typeof seq === 'number' ? seq : 0 } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON field of the state: '' or absent is null; JSON that does not parse
 * stays the string it was, which the payload's schema then refuses by name.
 */
function fromJson(raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** A synchronized player: his timeline and guess from their JSON, his slots from his hits. */
function statePlayer(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const hits = fromJson(raw.hits) ?? [];
  const years = Array.isArray(hits) && hits.every((h) => isRecord(h) && typeof h.year === 'number') ? (hits as { year: number }[]) : [];
  return { ...raw, hits, slots: slotsFor(years), guess: fromJson(raw.guess), controller: typeof raw.controller === 'string' && raw.controller !== '' ? raw.controller : null };
}

export type RoomMessageName = keyof typeof ROOM_MESSAGES;
export type RoomMessagePayload<K extends RoomMessageName> = z.output<(typeof ROOM_MESSAGES)[K]>;
/** What a client may send, before defaults are applied. */
export type RoomMessageInput<K extends RoomMessageName> = z.input<(typeof ROOM_MESSAGES)[K]>;
/** A validated client message, discriminated by `type`. */
export type RoomMessage = { [K in RoomMessageName]: { type: K; payload: RoomMessagePayload<K> } }[RoomMessageName];
export type RoomServerMessageName = keyof typeof ROOM_SERVER_MESSAGES;

const isRoomMessageName = (type: unknown): type is RoomMessageName => typeof type === 'string' && Object.hasOwn(ROOM_MESSAGES, type);

/** Validates one incoming room message; on failure gives the `error` message to send back. */
export function parseRoomMessage(type: unknown, raw: unknown): ParseOutcome<RoomMessage> {
  if (!isRoomMessageName(type)) {
    return { ok: false, error: { type: 'error', code: INVALID_INPUT_CODE, message: `unknown message type ${JSON.stringify(String(type))}` } };
  }
  // msgpack strings decode to lone surrogates as JSON's escapes do (see illFormedText)
  const illFormed = illFormedText(raw, 'payload');
  if (illFormed) return { ok: false, error: illFormed };
  const parsed = parseInput(ROOM_MESSAGES[type] as z.ZodType, raw, 'payload');
  if (!parsed.ok) return parsed;
  // TS cannot correlate `type` with its schema's output; the lookup above guarantees the pairing.
  return { ok: true, data: { type, payload: parsed.data } as RoomMessage };
}

/**
 * Close code of a room socket that the server closed because it sent messages
 * faster than any player can (WebSocket's "policy violation"): the client must
 * not reconnect by itself, and its seat is not held for it.
 */
export const FLOODING_CLOSE_CODE = 1008;

/**
 * Body of a matchmaking request (`POST /matchmake/joinById/<game id>`): the
 * SDK's join options, handed to the room; a game room reads none of them.
 */
export const MatchmakeOptionsSchema = z.record(z.string(), z.unknown());
/** …of `POST /matchmake/reconnect/<game id>`: the token of the seat to take back. */
export const MatchmakeReconnectSchema = z.looseObject({ reconnectionToken: z.string().min(1).max(256) });
