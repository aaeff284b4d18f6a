import { Client, type Room } from '@colyseus/sdk';
import { ErrorBodySchema, type ErrorBody } from '../../../shared/protocol/common.ts';
import { ROOM_SERVER_MESSAGES, type RoomEvent, type RoomMessageInput, type RoomMessageName } from '../../../shared/protocol/room.ts';
import { installFastStringDecoding } from '../../../shared/protocol/schema-strings.ts';

// the players' timelines arrive as long strings: decode them flat (shared/protocol/schema-strings.ts)
installFastStringDecoding();

/**
 * The game room over WebSocket (Colyseus), for the game screen only: import it
 * from lazily loaded code, so the SDK stays out of the initial bundle (budget P9).
 *
 * Joining the room makes you a viewer: the synchronized state mirrors the public
 * GamePayload (server/rooms/schema.ts). Taking a seat is the `join` message. The
 * session cookie authenticates the connection.
 */

export interface GameRoomConnection {
  /** The SDK room: `room.state`, `Callbacks.get(room)`, `room.onLeave`, `room.onDrop`, `room.onReconnect`. */
  room: Room;
  /** Sends a validated-shape action (`guess`, `confirm`, `skip`, `claim`, `start`, `stop`, `join`, `join_local`, `leave`, `update`). */
  send<K extends RoomMessageName>(type: K, payload: RoomMessageInput<K>): void;
  /** Game events (join, leave, change_state, guess, skip, claim, update) with their sequence number; for announcements and sounds. */
  onEvent(handler: (event: RoomEvent) => void): () => void;
  /** Refused actions: the engine's error code (an `errors.<code>` key) and English message. */
  onError(handler: (error: ErrorBody) => void): () => void;
  /** Leaves the room (consented: no reconnection is attempted). */
  leave(): Promise<void>;
}

let client: Client | undefined;

/** How a room is opened: `key`, a Local game's seat key (a phone's join link), lets a device that plays no seat yet view it. */
export interface GameRoomOptions {
  key?: string;
}

/** Opens game `gameId`'s room as a viewer (the SDK room). Rejects when the game does not exist for this user. */
export function openGameRoom(gameId: string, options: GameRoomOptions = {}): Promise<Room> {
  client ??= new Client(location.origin);
  return client.joinById(gameId, options.key ? { key: options.key } : {});
}

/** The typed messages of a joined room. */
export function connectionFor(room: Room): GameRoomConnection {
  return {
    room,
    send: (type, payload) => room.send(type, payload),
    onEvent: (handler) =>
      room.onMessage('event', (raw: unknown) => {
        const parsed = ROOM_SERVER_MESSAGES.event.safeParse(raw);
        if (parsed.success) handler(parsed.data);
        else console.warn('room event dropped', parsed.error.issues[0]?.message);
      }),
    onError: (handler) =>
      room.onMessage('error', (raw: unknown) => {
        const parsed = ErrorBodySchema.safeParse(raw);
        if (parsed.success) handler(parsed.data);
        else console.warn('room error message dropped', parsed.error.issues[0]?.message);
      }),
    leave: async () => {
      await room.leave(true);
    },
  };
}

/** Connects to game `gameId` as a viewer. Rejects when the game does not exist for this user. */
export async function joinGameRoom(gameId: string, options: GameRoomOptions = {}): Promise<GameRoomConnection> {
  return connectionFor(await openGameRoom(gameId, options));
}
