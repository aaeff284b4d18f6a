import { WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocket } from 'ws';

/** Length of one round of the heartbeat, ms: each socket gets one ping per round. */
const PING_SLICE_MS = 50;

type PingedSocket = WebSocket & {
  pingCount: number;
  pingSlice?: number;
  /** Bytes read from the socket at its last heartbeat check. */
  heardBytes?: number;
  _socket?: { bytesRead: number };
};

/**
 * Colyseus' WebSocket transport with a cheaper heartbeat (budget P1, P2).
 *
 * - Spread out: the stock one pings every socket of the process in a single
 *   event-loop task every 3 s (4,800 sockets: a stall of about 100 ms, and
 *   every game action that arrives meanwhile waits). Here each socket belongs to
 *   one of interval / 50 ms slices, and one slice is checked every 50 ms.
 * - Only silent sockets are pinged: a socket that sent anything since its last
 *   check (a game message, or the pong of the last ping) has shown it is alive,
 *   so it gets no ping this round. A silent socket is pinged as by the stock
 *   heartbeat, and dropped after `pingMaxRetries` unanswered pings. Players who
 *   play, or answered the last ping, cost no ping and no pong. (The check after
 *   a pong is such a round, so a socket that stops answering is dropped one
 *   interval later than by the stock heartbeat with the same settings; so
 *   this transport's default is one retry where the stock default is two.)
 */
export class SpreadPingTransport extends WebSocketTransport {
  constructor(options: ConstructorParameters<typeof WebSocketTransport>[0] = {}) {
    // dropped 2–3 intervals after a socket last spoke, as with the stock 3 s × 2 retries
    super({ pingInterval: 3000, pingMaxRetries: 1, ...options });
  }

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
        const heard = socket._socket?.bytesRead;
        if (heard !== undefined && heard !== socket.heardBytes) {
          socket.heardBytes = heard;
          socket.pingCount = 0;
          continue;
        }
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
