import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Client } from '@colyseus/core';
import { WebSocketClient, WebSocketTransport, type TransportOptions } from '@colyseus/ws-transport';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';

/** Length of one round of the heartbeat, ms: each socket gets one ping per round. */
const PING_SLICE_MS = 50;

type PingedSocket = WebSocket & {
  pingCount: number;
  /** Bytes read from the socket at its last heartbeat check. */
  heardBytes?: number;
  /** A ping is due: it goes out with the next messages of the socket's room, or on its own half a round after the check. */
  pingOwed?: boolean;
  _socket?: { bytesRead: number };
};

/**
 * Colyseus' WebSocket transport with a cheaper heartbeat (budget P1, P2).
 *
 * - Spread out: the stock one pings every socket of the process in a single
 *   event-loop task every 3 s (4,800 sockets: a stall of about 100 ms, and
 *   every game action that arrives meanwhile waits). Here each socket belongs to
 *   one of interval / 50 ms slices, and one slice is checked every 50 ms, its
 *   sockets only.
 * - Only silent sockets are pinged: a socket that sent anything since its last
 *   check (a game message, or the pong of the last ping) has shown it is alive,
 *   so it gets no ping this round. A silent socket is pinged as by the stock
 *   heartbeat (every 3 s, 2 retries by default), and dropped after
 *   `pingMaxRetries` unanswered pings: a pong still has two intervals to come.
 *   Players who play, or answered the last ping, cost no ping and no pong. The
 *   check after a socket's last bytes is one without a ping, so a dead peer is
 *   dropped 3–4 intervals after it last spoke (the stock heartbeat: 2–3).
 * - A ping rides along: a socket found silent owes a ping, which goes out in the
 *   same socket write as the next messages its room sends (`sendTogether`), so
 *   a player who watches a running game costs no write of its own for it. When
 *   the room sends nothing for half a round, the ping goes out alone. Either way
 *   its pong has at least half a round to come before the next check.
 */
export class SpreadPingTransport extends WebSocketTransport {
  private perAddress: SocketLimit | undefined;
  /** Sockets open (or being opened) per address key. */
  private readonly openPerAddress = new Map<string, number>();

  /** `perAddress`: the most WebSockets one address may hold open (none: no limit). */
  constructor(options: TransportOptions & { perAddress?: SocketLimit } = {}) {
    const { perAddress, ...rest } = options;
    super(rest);
    this.perAddress = perAddress;
  }

  protected override listenForUpgrade(server: HttpServer, filter?: (req: IncomingMessage) => boolean): void {
    // called by the constructor above: `this.admit` runs for requests only, when the fields are set
    super.listenForUpgrade(server, (req) => (!filter || filter(req)) && this.admit(req));
  }

  /**
   * Counts the upgrade against its address until its socket closes; beyond the
   * limit it is answered 429 (JSON, as the API's errors) and goes no further.
   */
  private admit(req: IncomingMessage): boolean {
    if (!this.perAddress) return true;
    const key = this.perAddress.keyOf(req);
    const open = this.openPerAddress.get(key) ?? 0;
    if (open >= this.perAddress.max) {
      const body = JSON.stringify({ type: 'error', code: 'too_many_connections', message: 'too many connections from this address; close some first' });
      const head = ['HTTP/1.1 429 Too Many Requests', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', ''];
      // nobody else listens on this socket any more: a reset must not become an uncaught error
      req.socket.on('error', () => req.socket.destroy());
      req.socket.end(head.join('\r\n') + body);
      return false;
    }
    this.openPerAddress.set(key, open + 1);
    req.socket.once('close', () => {
      const left = (this.openPerAddress.get(key) ?? 1) - 1;
      if (left <= 0) this.openPerAddress.delete(key);
      else this.openPerAddress.set(key, left);
    });
    return true;
  }

  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    const slices = Math.max(1, Math.round(pingInterval / PING_SLICE_MS));
    // a ping owed at a check and not carried by a room's messages goes out alone this many slices later
    const wait = Math.floor(slices / 2);
    // each socket belongs to one slice: a tick visits only its own slice's sockets, not all of them
    const buckets = Array.from({ length: slices }, () => new Set<PingedSocket>());
    let next = 0;
    const track = (socket: PingedSocket): void => {
      const bucket = buckets[next++ % slices]!;
      bucket.add(socket);
      socket.once('close', () => bucket.delete(socket));
    };
    for (const socket of this.wss.clients) track(socket as PingedSocket);
    this.wss.on('connection', track);
    let turn = 0;
    this.pingInterval = setInterval(() => {
      const slice = turn;
      turn = (turn + 1) % slices;
      if (wait > 0) {
        for (const socket of buckets[(slice + slices - wait) % slices]!) {
          if (!socket.pingOwed) continue;
          socket.pingOwed = false;
          socket.ping(noop);
        }
      }
      for (const socket of buckets[slice]!) {
        const heard = socket._socket?.bytesRead;
        if (heard !== undefined && heard !== socket.heardBytes) {
          socket.heardBytes = heard;
          socket.pingCount = 0;
          socket.pingOwed = false;
          continue;
        }
        if (socket.pingCount >= pingMaxRetries) {
          socket.terminate();
          continue;
        }
        socket.pingCount++;
        if (wait > 0) socket.pingOwed = true;
        else socket.ping(noop);
      }
    }, pingInterval / slices);
  }
}

const noop = (): void => undefined;

/** A limit of open WebSockets per client address. */
export interface SocketLimit {
  max: number;
  /** The key of a request's client address. */
  keyOf: (req: IncomingMessage) => string;
}

/** ws' frame builder (public in ws, missing from its type definitions). */
const { Sender } = wsModule as unknown as { Sender: { frame(data: Uint8Array, options: FrameOptions): Buffer[] } };
interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
/** An unmasked, unfragmented binary frame: what a server sends (RFC 6455). */
const BINARY_FRAME: FrameOptions = { fin: true, opcode: 2, mask: false, readOnly: false, rsv1: false };
/** A ping with no payload, as ws' `ping()` sends it. */
const PING_FRAME = Buffer.concat(Sender.frame(Buffer.alloc(0), { fin: true, opcode: 9, mask: false, readOnly: false, rsv1: false }));

type RawSend = (this: WebSocketClient, data: Uint8Array, options?: unknown, cb?: (err?: Error) => void) => void;

/** The messages each client of the running `sendTogether` was sent, by client. */
let gathering: Map<WebSocketClient, Uint8Array[]> | null = null;

const sendNow = WebSocketClient.prototype.raw as RawSend;
// Colyseus sends every message to a WebSocket client through raw(); while a room
// step runs `sendTogether`, the messages of its clients are gathered instead
// (a send with a callback wants to know when it is out, and goes at once).
WebSocketClient.prototype.raw = function (this: WebSocketClient, data: Uint8Array, options?: unknown, cb?: (err?: Error) => void) {
  const list = cb === undefined ? gathering?.get(this) : undefined;
  if (list) list.push(data);
  else sendNow.call(this, data, options, cb);
} as typeof WebSocketClient.prototype.raw;

/**
 * Runs `send` (everything a room sends for one step: the state patch and the
 * events) and delivers what it sent to each WebSocket client of `clients` in one
 * socket write (budget P1). Every client of a room gets the same messages, so
 * their frames are built once and the one buffer goes to each socket: no framing,
 * buffering and writev per message and client, as sending each through ws would
 * cost. The bytes on the wire are the same. Writing to ws' socket directly keeps
 * the order because ws queues frames only while compressing (per-message deflate
 * is off, Colyseus' default; a socket that negotiated an extension is sent to
 * through ws) or reading a Blob (Colyseus sends Buffers). Clients of other
 * transports are sent to as usual. What `send` sent before it threw is delivered
 * too.
 */
export function sendTogether(clients: Iterable<Client>, send: () => void): void {
  const batch = new Map<WebSocketClient, Uint8Array[]>();
  for (const c of clients) if (c instanceof WebSocketClient) batch.set(c, []);
  const outer = gathering;
  gathering = batch;
  try {
    send();
  } finally {
    gathering = outer;
    // what was sent before a failure still goes out: the state patch is encoded only once
    deliver(batch);
  }
}

/**
 * Writes each client's gathered messages to its socket, framed once for all
 * clients that got the same, with the ping the heartbeat owes the socket, if any.
 */
function deliver(batch: Map<WebSocketClient, Uint8Array[]>): void {
  let lastList: Uint8Array[] | null = null;
  let lastFrames: Buffer | null = null;
  let lastWithPing: Buffer | null = null;
  for (const [client, list] of batch) {
    if (list.length === 0) continue;
    const socket = client.ref as Omit<PingedSocket, '_socket'> & { _socket?: { write(data: Buffer): boolean } };
    // compression would make ws queue frames, which a direct write could overtake
    if (socket.readyState !== socket.OPEN || !socket._socket || socket.extensions !== '') {
      for (const data of list) sendNow.call(client, data);
      continue;
    }
    if (!lastList || !sameMessages(lastList, list)) {
      lastFrames = Buffer.concat(list.flatMap((data) => Sender.frame(data, BINARY_FRAME)));
      lastWithPing = null;
      lastList = list;
    }
    if (socket.pingOwed) {
      socket.pingOwed = false;
      socket._socket.write((lastWithPing ??= Buffer.concat([lastFrames as Buffer, PING_FRAME])));
    } else socket._socket.write(lastFrames as Buffer);
  }
}

const sameMessages = (a: Uint8Array[], b: Uint8Array[]): boolean => a.length === b.length && a.every((m, i) => m === b[i]);
