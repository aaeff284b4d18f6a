import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineRoom, defineServer, LocalPresence, Room, type Client } from '@colyseus/core';
import { schema, t, type SchemaType } from '@colyseus/schema';
import { WebSocketTransport } from '@colyseus/ws-transport';

/**
 * The load benchmark's yardstick (docs/budgets.md#p1, #p2): a minimal Colyseus 0.18
 * room with a 6-player schema state and `broadcastPatch()` right after each
 * action, no game logic, no HTTP API, no database. The load generator drives it
 * exactly as it drives Hitline's rooms (6 SDK clients per room, one action per
 * room per second, latency to the last client), in the same run, so the ratio
 * of the two survives a noisy machine.
 *
 * Colyseus defaults everywhere else (the 50 ms patch interval stays, as in the
 * reference measurement of docs/budgets.md).
 */

export const BarePlayer = schema(
  {
    name: t.string(),
    state: t.string(),
    tokens: t.number(),
    score: t.number(),
    turn_player: t.boolean(),
    connected: t.boolean(),
  },
  'BarePlayer',
);
export type BarePlayer = SchemaType<typeof BarePlayer>;

export const BareState = schema(
  {
    state: t.string(),
    turn: t.string(),
    players: t.map(BarePlayer),
    /** Bumped by every action: what the generator watches, like Hitline's `seq`. */
    seq: t.number(),
  },
  'BareState',
);
export type BareState = SchemaType<typeof BareState>;

const PHASES = ['Guessing', 'Intercepting', 'Confirming'] as const;

/** Room name the generator creates and joins. */
export const BARE_ROOM = 'bare';

export class BareRoom extends Room<{ state: BareState }> {
  override state = new BareState();
  override maxClients = 6;

  override onCreate(): void {
    this.state.state = 'Open';
    this.state.turn = '';
    this.state.seq = 0;
    this.onMessage('act', (client: Client, message: { n?: number } | undefined) => {
      const me = this.state.players.get(client.sessionId);
      if (!me) return;
      // a few fields change per action, about what a turn step changes in a game
      const n = typeof message?.n === 'number' ? message.n : 0;
      me.score += 1;
      me.tokens = n % 5;
      me.state = PHASES[n % PHASES.length] as string;
      this.state.state = me.state;
      const previous = this.state.players.get(this.state.turn);
      if (previous && previous !== me) previous.turn_player = false;
      me.turn_player = true;
      this.state.turn = client.sessionId;
      this.state.seq += 1;
      this.broadcastPatch();
    });
  }

  override onJoin(client: Client): void {
    const p = new BarePlayer();
    p.name = `player ${this.state.players.size + 1}`;
    p.state = 'Waiting';
    p.tokens = 0;
    p.score = 0;
    p.turn_player = false;
    p.connected = true;
    this.state.players.set(client.sessionId, p);
    this.state.seq += 1;
  }

  override onLeave(client: Client): void {
    this.state.players.delete(client.sessionId);
    this.state.seq += 1;
  }
}

/** Starts a Colyseus server with only the bare room on 127.0.0.1 (port 0: a free one). */
export async function startBareServer(port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const transport = new WebSocketTransport();
  const server = defineServer({
    rooms: { [BARE_ROOM]: defineRoom(BareRoom) },
    transport,
    presence: new LocalPresence(),
    greet: false,
    gracefullyShutdown: false,
  });
  await server.listen(port, '127.0.0.1');
  const http = transport.server as HttpServer;
  return {
    port: (http.address() as AddressInfo).port,
    async close() {
      await server.gracefullyShutdown(false).catch(() => undefined);
      http.closeAllConnections();
    },
  };
}
