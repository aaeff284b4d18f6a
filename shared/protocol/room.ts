import { z } from 'zod';
import { ErrorBodySchema, INVALID_INPUT_CODE, parseInput, UuidSchema, type ParseOutcome } from './common.ts';
import { GAME_EVENT_NAMES } from '../rules/types.ts';
import { GameUpdateSchema, LocalPlayerNameSchema, SettingsUpdateSchema, SlotIdSchema } from './game.ts';

/**
 * Messages of a game's Colyseus room. The message name is Colyseus' message type
 * (`room.send('guess', { slot: 3 })`), so the map below is the discriminated
 * union: name → payload schema. `player` names the seat acted for, which only the
 * creator of a Local game may do (the engine checks that).
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
  /** Take a seat as oneself. */
  join: z.strictObject({}).prefault({}),
  /** Add a local, name-only player (creator of a Local game). */
  join_local: z.strictObject({ name: LocalPlayerNameSchema }),
  /** Leave, or remove `player` (creator). */
  leave: z.strictObject(OptionalPlayer).prefault({}),
  /** Change settings while the game is Open (creator). */
  update: z.strictObject({ settings: SettingsUpdateSchema }),
} as const;

/** Server → client messages of a game room, by message name. */
export const ROOM_SERVER_MESSAGES = {
  /** A message was refused: malformed (`invalid_input`) or against the rules (the engine's code). */
  error: ErrorBodySchema,
  /** Every game event as the SSE stream carries it (with its sequence number), for announcements and sounds. */
  event: z.strictObject({ seq: z.int().min(1), event: z.enum(GAME_EVENT_NAMES), data: GameUpdateSchema }),
} as const;

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
  const parsed = parseInput(ROOM_MESSAGES[type] as z.ZodType, raw, 'payload');
  if (!parsed.ok) return parsed;
  // TS cannot correlate `type` with its schema's output; the lookup above guarantees the pairing.
  return { ok: true, data: { type, payload: parsed.data } as RoomMessage };
}
