/**
 * The spread heartbeat (server/transport.ts): every socket is pinged once per
 * interval, in small slices rather than all at once, and a socket that stops
 * answering is dropped after the same number of unanswered pings as Colyseus'.
 * Real sockets over loopback; the transport's own room handling is left out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, type WebSocketServer } from 'ws';
import { SpreadPingTransport } from '../../server/transport.ts';
import { waitFor } from './harness.ts';

const INTERVAL = 600;
const RETRIES = 2;

class Probe extends SpreadPingTransport {
  constructor() {
    super({ noServer: true, pingInterval: INTERVAL, pingMaxRetries: RETRIES });
    // only the heartbeat is under test: sockets join no room
    this.wss.removeAllListeners('connection');
  }
  get sockets(): WebSocketServer {
    return this.wss;
  }
  start(): void {
    this.autoTerminateUnresponsiveClients(this.pingIntervalMS, this.pingMaxRetries);
  }
  stop(): void {
    clearInterval(this.pingInterval);
  }
}

let probe: Probe;
let http: Server;
let url: string;
beforeAll(async () => {
  probe = new Probe();
  http = createServer();
  http.on('upgrade', (req, socket, head) =>
    probe.sockets.handleUpgrade(req, socket, head, (ws) => {
      // what the transport's onConnection does for the heartbeat
      const s = ws as WebSocket & { pingCount: number };
      s.pingCount = 0;
      s.on('pong', () => (s.pingCount = 0));
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  probe.stop();
  for (const s of probe.sockets.clients) s.terminate();
  await new Promise((resolve) => http.close(resolve));
});

describe('spread heartbeat', () => {
  it('pings each socket once per interval in slices, and drops the ones that stopped answering', async () => {
    const open = (answers: boolean) =>
      new Promise<{ ws: WebSocket; pings: number[]; closedAt: number | null }>((resolve, reject) => {
        const ws = new WebSocket(url, { autoPong: answers });
        const c = { ws, pings: [] as number[], closedAt: null as number | null };
        ws.on('ping', () => c.pings.push(performance.now()));
        ws.on('close', () => (c.closedAt = performance.now()));
        ws.once('open', () => resolve(c));
        ws.once('error', reject);
      });
    const alive = await Promise.all(Array.from({ length: 24 }, () => open(true)));
    const silent = await Promise.all(Array.from({ length: 8 }, () => open(false)));
    await waitFor(() => probe.sockets.clients.size === 32, 5000, 'all sockets accepted');
    const t0 = performance.now();
    probe.start();

    // after the unanswered pings of the silent ones, the server dropped them; the others stay
    await waitFor(() => silent.every((c) => c.closedAt !== null), (RETRIES + 2) * INTERVAL, 'silent sockets dropped');
    const tEnd = performance.now();
    expect(alive.every((c) => c.closedAt === null && c.ws.readyState === WebSocket.OPEN)).toBe(true);
    expect(probe.sockets.clients.size).toBe(24);
    for (const c of silent) {
      expect(c.pings.length, 'unanswered pings before the drop').toBe(RETRIES);
      expect(c.closedAt! - t0).toBeGreaterThan(RETRIES * INTERVAL - 100);
    }
    // once per interval: over the elapsed rounds each live socket got one ping per round (±1 at the edges)
    const rounds = (tEnd - t0) / INTERVAL;
    for (const c of alive) {
      expect(c.pings.length).toBeGreaterThanOrEqual(Math.floor(rounds) - 1);
      expect(c.pings.length).toBeLessThanOrEqual(Math.ceil(rounds) + 1);
    }
    // spread: the first pings of the 32 sockets fall into many different 50 ms slots, not one burst
    const firstSlots = new Set([...alive, ...silent].map((c) => Math.floor((c.pings[0]! - t0) / 50)));
    expect(firstSlots.size).toBeGreaterThanOrEqual(8);
    for (const c of alive) c.ws.close();
  });
});
