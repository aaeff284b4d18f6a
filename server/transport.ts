import { WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocket } from 'ws';

/** Length of one round of the heartbeat, ms: each socket gets one ping per round. */
const PING_SLICE_MS = 50;

type PingedSocket = WebSocket & { pingCount: number; pingSlice?: number };

/**
 * Colyseus' WebSocket transport with its heartbeat spread out. The stock one
 * pings every socket of the process in a single event-loop task every 3 s
 * (4,800 sockets: a stall of about 100 ms, and every game action that arrives
 * meanwhile waits; budget P2). Here each socket belongs to one of
 * interval / 50 ms slices and one slice is pinged every 50 ms, so each socket is
 * still pinged once per interval and dropped after the same number of
 * unanswered pings, in tasks of a few milliseconds.
 */
export class SpreadPingTransport extends WebSocketTransport {
  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    const slices = Math.max(1, Math.round(pingInterval / PING_SLICE_MS));
    let next = 0;
    let turn = 0;
    this.pingInterval = setInterval(() => {
      const slice = turn;
      turn = (turn + 1) % slices;
      for (const socket of this.wss.clients as Set<PingedSocket>) {
        socket.pingSlice ??= next++ % slices;
        if (socket.pingSlice !== slice) continue;
        if (socket.pingCount >= pingMaxRetries) {
          socket.terminate();
          continue;
        }
        socket.pingCount++;
        socket.ping(noop);
      }
    }, pingInterval / slices);
  }
}

const noop = (): void => undefined;
