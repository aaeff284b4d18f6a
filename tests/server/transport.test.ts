/**
 * The heartbeat (server/transport.ts): sockets are checked once per interval, in
 * small slices rather than all at once; a socket that sent nothing since its last
 * check is pinged, one that sent something is not, and a socket that stops
 * answering is dropped after the configured number of unanswered pings.
 * Real sockets over loopback; the transport's own room handling is left out.
 * Also `sendTogether`: what a room step sends reaches each client as the same
 * WebSocket messages, in one socket write, with the ping the heartbeat owes it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, type WebSocketServer } from 'ws';
import { WebSocketClient } from '@colyseus/ws-transport';
import { sendTogether, SpreadPingTransport } from '../../server/transport.ts';
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
      probe.sockets.emit('connection', ws, req);
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
  it('pings only the sockets that went silent, in slices, and drops the ones that stopped answering', async () => {
    const open = (answers: boolean | 'chatty') =>
      new Promise<{ ws: WebSocket; pings: number[]; closedAt: number | null }>((resolve, reject) => {
        const ws = new WebSocket(url, { autoPong: answers !== false });
        const c = { ws, pings: [] as number[], closedAt: null as number | null };
        ws.on('ping', () => c.pings.push(performance.now()));
        ws.on('close', () => (c.closedAt = performance.now()));
        // a chatty client sends a message twice per interval, as players who play do
        if (answers === 'chatty') {
          const talk = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('x'), INTERVAL / 2);
          ws.on('close', () => clearInterval(talk));
        }
        ws.once('open', () => resolve(c));
        ws.once('error', reject);
      });
    const alive = await Promise.all(Array.from({ length: 24 }, () => open(true)));
    const chatty = await Promise.all(Array.from({ length: 4 }, () => open('chatty')));
    const silent = await Promise.all(Array.from({ length: 8 }, () => open(false)));
    await waitFor(() => probe.sockets.clients.size === 36, 5000, 'all sockets accepted');
    const t0 = performance.now();
    probe.start();

    // after the unanswered pings of the silent ones, the server dropped them; the others stay
    await waitFor(() => silent.every((c) => c.closedAt !== null), (RETRIES + 3) * INTERVAL, 'silent sockets dropped');
    // a little longer, so every live socket saw several rounds
    await new Promise((r) => setTimeout(r, 2 * INTERVAL));
    const tEnd = performance.now();
    expect([...alive, ...chatty].every((c) => c.closedAt === null && c.ws.readyState === WebSocket.OPEN)).toBe(true);
    expect(probe.sockets.clients.size).toBe(28);
    // the clients that talk are never pinged
    for (const c of chatty) expect(c.pings, 'pings to a socket that sends').toEqual([]);
    for (const c of silent) {
      expect(c.pings.length, 'unanswered pings before the drop').toBe(RETRIES);
      // the check that saw the handshake, then one round per unanswered ping
      expect(c.closedAt! - t0).toBeGreaterThan((RETRIES + 1) * INTERVAL - 100);
    }
    // an idle socket that answers: pinged, its pong counts as having spoken at the
    // next check, pinged again at the one after: one ping every other round (±1 at the edges)
    const rounds = (tEnd - t0) / INTERVAL;
    for (const c of alive) {
      expect(c.pings.length).toBeGreaterThanOrEqual(Math.floor(rounds / 2) - 1);
      expect(c.pings.length).toBeLessThanOrEqual(Math.ceil(rounds / 2) + 1);
    }
    // spread: the first pings of the 32 idle sockets fall into many different 50 ms slots, not one burst
    const firstSlots = new Set([...alive, ...silent].map((c) => Math.floor((c.pings[0]! - t0) / 50)));
    expect(firstSlots.size).toBeGreaterThanOrEqual(8);
    for (const c of [...alive, ...chatty]) c.ws.close();
  });
});

describe('sending a room step together', () => {
  it('delivers the messages in order as separate WebSocket messages, in one socket write per client', async () => {
    // three clients as a room holds them: Colyseus' WebSocketClient on the server side of a real socket
    const peers: { ws: WebSocket; got: Buffer[]; writes: number[]; client: WebSocketClient }[] = [];
    for (let i = 0; i < 3; i++) {
      const accepted = new Promise<WebSocket>((resolve) => probe.sockets.once('connection', resolve));
      const ws = new WebSocket(url);
      const got: Buffer[] = [];
      ws.on('message', (data) => got.push(data as Buffer));
      await new Promise((resolve) => ws.once('open', resolve));
      const server = await accepted;
      const socket = (server as unknown as { _socket: { write(b: Buffer): boolean } })._socket;
      const writes: number[] = [];
      const write = socket.write.bind(socket);
      socket.write = (b: Buffer) => (writes.push(b.length), write(b));
      peers.push({ ws, got, writes, client: new WebSocketClient(`c${i}`, server) });
    }
    const patch = Buffer.from([15, 1, 2, 3]);
    const big = Buffer.alloc(70_000, 7); // a 64-bit length in its frame header
    const event = Buffer.from([13, 9, 9]);
    const [a, b, c] = peers;
    // c's socket closes meanwhile: it is skipped, the others get theirs
    c!.ws.terminate();
    await waitFor(() => c!.client.readyState !== WebSocket.OPEN, 2000, 'closed on the server');
    sendTogether(
      peers.map((p) => p.client),
      () => {
        for (const p of peers) p.client.raw(patch);
        a!.client.raw(big);
        for (const p of peers) p.client.raw(event);
      },
    );
    await waitFor(() => a!.got.length === 3 && b!.got.length === 2, 2000, 'messages arrived');
    expect(a!.got).toEqual([patch, big, event]);
    expect(b!.got).toEqual([patch, event]);
    expect(a!.writes).toHaveLength(1);
    expect(b!.writes).toEqual([2 + 4 + 2 + 3]);
    expect(c!.writes).toEqual([]);
    // outside sendTogether, raw() sends at once as before
    b!.client.raw(event);
    await waitFor(() => b!.got.length === 3, 2000, 'a direct send');
    // what a failing step sent before it threw still goes out, and the error reaches the caller
    expect(() =>
      sendTogether([a!.client, b!.client], () => {
        a!.client.raw(patch);
        b!.client.raw(patch);
        throw new Error('a bug in the step');
      }),
    ).toThrow('a bug in the step');
    await waitFor(() => a!.got.length === 4 && b!.got.length === 4, 2000, 'the sends before the failure');
    expect(a!.got[3]).toEqual(patch);
    expect(b!.got[3]).toEqual(patch);
    for (const p of peers) p.ws.close();
  });

  it('carries the ping the heartbeat owes a silent socket in the write of its room\'s next messages', async () => {
    const accepted = new Promise<WebSocket>((resolve) => probe.sockets.once('connection', resolve));
    const ws = new WebSocket(url);
    const pings: number[] = [];
    const got: Buffer[] = [];
    ws.on('ping', () => pings.push(performance.now()));
    ws.on('message', (data) => got.push(data as Buffer));
    await new Promise((resolve) => ws.once('open', resolve));
    const server = (await accepted) as WebSocket & { pingOwed?: boolean; _socket: { write(b: Buffer): boolean } };
    const writes: number[] = [];
    const write = server._socket.write.bind(server._socket);
    server._socket.write = (b: Buffer) => (writes.push(b.length), write(b));
    const client = new WebSocketClient('w', server);
    // the socket stays silent: a check finds it so and it owes a ping
    await waitFor(() => server.pingOwed === true, 3 * INTERVAL, 'a ping owed');
    expect(pings).toEqual([]);
    const patch = Buffer.from([15, 4, 5]);
    sendTogether([client], () => client.raw(patch));
    await waitFor(() => got.length === 1 && pings.length === 1, 2000, 'message and ping arrived');
    expect(got).toEqual([patch]);
    // one write: the message's frame, then the 2-byte ping
    expect(writes).toEqual([2 + 3 + 2]);
    expect(server.pingOwed).toBe(false);
    // the ping is not sent again on its own half a round later; the pong counts as having spoken at the next check
    await new Promise((r) => setTimeout(r, 0.8 * INTERVAL));
    expect(pings).toHaveLength(1);
    expect(writes).toHaveLength(1);
    ws.close();
  });
});
