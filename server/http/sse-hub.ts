import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import type { GamePayload } from '../../shared/rules/views.ts';
import type { EventBus, GameEventEnvelope, GlobalEventEnvelope } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
import { apiError, sendError } from './errors.ts';
import { admits, contiguousAfter, EVENT_NAME, globalFrame, HEARTBEAT, lastEventId, type Frame } from './sse-frames.ts';
import { EVENT_HTTP_ERRORS } from '../../shared/protocol/routes-events.ts';

/**
 * Server-sent events (docs/api.md#b11, #sse, docs/rules.md#a13): the streaming
 * side. Publishers never reach a response: they publish on the event bus
 * (events/bus.ts), and every process's hub delivers to its own subscribers.
 * Each process subscribes to a game's channel only while it has subscribers of
 * that game.
 */

/** What a game stream starts from: the game as the viewer sees it and the seq it reflects. */
export interface GameSnapshot {
  seq: number;
  game: GamePayload;
}

export interface SseHubOptions {
  /** Interval of the `:` keep-alive comment, ms (docs/api.md#b11: 15 s). */
  heartbeatMs?: number;
  /** A subscriber whose unsent output exceeds this many bytes is dropped. */
  maxBufferedBytes?: number;
  /** Most writes in one event-loop turn of a fan-out; turns shrink further when writes are slow. */
  chunkSize?: number;
  /** Most events of one game kept for `Last-Event-ID` replay. */
  historySize?: number;
  /** Most characters of events of one game kept for replay (events carry whole player lists). */
  historyChars?: number;
  /** Called after every fan-out turn with its duration (ms, socket writes included) and its writes; for benchmarks. */
  onFanoutChunk?: (ms: number, writes: number) => void;
}

interface Stream {
  res: Response;
  /** Global streams: the viewer, for audience filtering. */
  userId: string | null;
  /** Global streams: the viewer's permissions when the stream opened (docs/api.md#sse: read_issues events). */
  permissions: ReadonlySet<string>;
  channel: Channel;
  /** Game streams: seq of the last event this client has (snapshot or event). */
  sentSeq: number;
  /** Events received while the snapshot or initial events are being computed; null once live. */
  buffer: Frame[] | null;
  closed: boolean;
}

interface Channel {
  /** null for the global channel. */
  gameId: string | null;
  listener: (message: unknown) => void;
  /** Resolves once the presence subscription is active. */
  ready: Promise<void>;
  live: Set<Stream>;
  pending: Set<Stream>;
}

interface GameChannel extends Channel {
  gameId: string;
  /** Contiguous events `(baseSeq, lastSeq]` received by this process, oldest first. */
  history: Frame[];
  historyChars: number;
  /** null until the first event arrives: before that the hub knows nothing about the game's seq. */
  baseSeq: number | null;
  lastSeq: number;
}

interface Job {
  frame: Frame;
  targets: Stream[];
  next: number;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
} as const;

/** What one fan-out turn aims at: well under the 10 ms task budget (P7), leaving room for noise. */
const TURN_TARGET_MS = 2;
/** Turns never get smaller than this, so a hiccup cannot stretch a fan-out forever. */
const MIN_TURN_WRITES = 16;

/** Fans the bus's game and global events out to SSE subscribers. One instance per process. */
export class SseHub {
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly heartbeatMs: number;
  private readonly maxBufferedBytes: number;
  private readonly chunkSize: number;
  private readonly historySize: number;
  private readonly historyChars: number;
  private readonly onFanoutChunk: ((ms: number, writes: number) => void) | undefined;

  private readonly games = new Map<string, GameChannel>();
  private global: Channel | null = null;
  private liveGameStreams = 0;
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;

  /** Fan-out jobs in arrival order: one queue keeps every subscriber's events in order. */
  private queue: Job[] = [];
  private queueHead = 0;
  private pumpScheduled = false;
  /** Running estimate of one subscriber write, syscall included (ms). */
  private writeCostMs = 0.02;

  /** Creates the hub; it subscribes to the bus lazily, as streams open. */
  constructor(bus: EventBus, log: Logger, opts: SseHubOptions = {}) {
    this.bus = bus;
    this.log = log;
    this.heartbeatMs = opts.heartbeatMs ?? 15_000;
    this.maxBufferedBytes = opts.maxBufferedBytes ?? 1024 * 1024;
    this.chunkSize = Math.max(1, opts.chunkSize ?? 128);
    this.historySize = Math.max(0, opts.historySize ?? 64);
    this.historyChars = Math.max(0, opts.historyChars ?? 64 * 1024);
    this.onFanoutChunk = opts.onFanoutChunk;
  }

  /**
   * Serves `GET /api/games/{id}/events`: a `snapshot` event first (or, with a
   * `Last-Event-ID` header or `?lastEventId=` the hub can bridge, just the missed
   * events), then every event of the game in seq order, without gap or duplicate.
   * Answers 404 when `snapshot()` returns null (the caller decides visibility; it
   * is asked on every connect, resumes included). Rejects only if `snapshot()` or
   * the presence subscription fails before anything was sent.
   */
  async streamGame(req: Request, res: Response, gameId: string, snapshot: () => Promise<GameSnapshot | null>): Promise<void> {
    if (this.closed) return sendError(res, shuttingDown);
    const lastId = lastEventId(req);
    // Subscribed before the snapshot is taken: every event after it is buffered.
    const opened = await this.open(res, null, this.acquireGame(gameId), snapshot);
    if (!opened) return;
    const { stream: s, first: snap } = opened;
    const ch = s.channel as GameChannel;
    if (!snap) {
      this.detach(s);
      return sendError(res, apiError(404, 'game_id_not_found', 'game id not found'));
    }

    const buffered = s.buffer ?? [];
    s.buffer = null;
    ch.pending.delete(s);
    ch.live.add(s);
    this.liveGameStreams++;
    res.writeHead(200, SSE_HEADERS);
    this.startHeartbeat();

    // History and this stream's buffer both end with the newest event received;
    // whichever reaches further back holds everything the other one does.
    const received = buffered.length > ch.history.length ? buffered : ch.history;
    if (lastId !== null && lastId <= snap.seq) {
      const missed = contiguousAfter(received, lastId);
      // Resuming is safe when the client then has everything up to the snapshot, or up to
      // the newest event received here (whose successors all reach this process in order).
      if (missed && (missed.seq >= snap.seq || (ch.baseSeq !== null && missed.seq === ch.lastSeq))) {
        s.sentSeq = missed.seq;
        if (missed.text) this.write(s, missed.text);
        else res.flushHeaders();
        return;
      }
    }
    const after = contiguousAfter(received, snap.seq);
    s.sentSeq = after?.seq ?? snap.seq;
    this.write(s, `id: ${snap.seq}\nevent: snapshot\ndata: ${JSON.stringify(snap.game)}\n\n${after?.text ?? ''}`);
    if (!after) {
      // Only a lossy presence gets here: end the stream, the reconnect starts over.
      this.log.warn({ game: ch.gameId }, 'game events missing after a snapshot; ending the stream');
      this.detach(s);
      res.end();
    }
  }

  /**
   * Serves `GET /api/events`: the events of `initial()` first, then live global
   * events, each `event: <name>` with externally tagged data `{"<name>": data}`.
   * Events with an audience reach only the listed users, events that need a
   * permission only subscribers that had it when they connected. Rejects only if
   * `initial()` or the presence subscription fails before anything was sent.
   */
  async streamGlobal(
    req: Request,
    res: Response,
    userId: string | null,
    initial: () => Promise<GlobalEventEnvelope[]>,
    permissions: ReadonlySet<string> = new Set(),
  ): Promise<void> {
    if (this.closed) return sendError(res, shuttingDown);
    const opened = await this.open(res, userId, this.acquireGlobal(), initial, permissions);
    if (!opened) return;
    const { stream: s, first } = opened;
    const ch = s.channel;

    const buffered = s.buffer ?? [];
    s.buffer = null;
    ch.pending.delete(s);
    ch.live.add(s);
    res.writeHead(200, SSE_HEADERS);
    let out = '';
    for (const e of first) {
      const f = globalFrame(e);
      if (f && admits(f, userId, permissions)) out += f.text;
    }
    // Live events that arrived meanwhile follow; the lobby treats them as updates, so
    // one already reflected in `initial()` does no harm, and none is lost.
    for (const f of buffered) if (admits(f, userId, permissions)) out += f.text;
    if (out) this.write(s, out);
    else res.flushHeaders();
    this.startHeartbeat();
  }

  /** Ends every stream and drops every subscription (graceful shutdown); new streams get 503. */
  close(): void {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.queue = [];
    this.queueHead = 0;
    const channels: Channel[] = [...this.games.values()];
    if (this.global) channels.push(this.global);
    for (const ch of channels) {
      for (const s of [...ch.pending]) {
        this.detach(s);
        if (!s.res.headersSent) sendError(s.res, shuttingDown);
      }
      for (const s of [...ch.live]) {
        this.detach(s);
        s.res.end();
      }
    }
  }

  /**
   * Registers a pending stream on `ch` (so events are buffered from now on), then
   * fetches what the stream starts with. Undefined when the client went away meanwhile.
   */
  private async open<T>(
    res: Response,
    userId: string | null,
    ch: Channel,
    fetch: () => Promise<T>,
    permissions: ReadonlySet<string> = new Set(),
  ): Promise<{ stream: Stream; first: T } | undefined> {
    const stream: Stream = { res, userId, permissions, channel: ch, sentSeq: 0, buffer: [], closed: false };
    ch.pending.add(stream);
    this.watch(stream);
    let first: T;
    try {
      await ch.ready;
      first = await fetch();
    } catch (err) {
      this.detach(stream);
      throw err;
    }
    if (stream.closed) return undefined;
    if (res.destroyed) {
      this.detach(stream);
      return undefined;
    }
    return { stream, first };
  }

  /** Open streams (headers sent) on this process. */
  stats(): { gameStreams: number; globalStreams: number } {
    return { gameStreams: this.liveGameStreams, globalStreams: this.global?.live.size ?? 0 };
  }

  // ---------------------------------------------------------------------------
  // channels

  private acquireGame(gameId: string): GameChannel {
    const existing = this.games.get(gameId);
    if (existing) return existing;
    const ch: GameChannel = {
      gameId,
      listener: (m) => this.onGameMessage(ch, m),
      ready: Promise.resolve(),
      live: new Set(),
      pending: new Set(),
      history: [],
      historyChars: 0,
      baseSeq: null,
      lastSeq: 0,
    };
    ch.ready = this.subscribe(ch);
    this.games.set(gameId, ch);
    return ch;
  }

  private acquireGlobal(): Channel {
    if (this.global) return this.global;
    const ch: Channel = {
      gameId: null,
      listener: (m) => this.onGlobalMessage(ch, m),
      ready: Promise.resolve(),
      live: new Set(),
      pending: new Set(),
    };
    ch.ready = this.subscribe(ch);
    this.global = ch;
    return ch;
  }

  private subscribe(ch: Channel): Promise<void> {
    const ready = this.bus.subscribe(ch.gameId, ch.listener);
    // Awaited by the streams that wait for it; this only keeps an early failure from being "unhandled".
    ready.catch(() => undefined);
    return ready;
  }

  /** Drops the presence subscription once a channel has no stream left on this process. */
  private release(ch: Channel): void {
    if (ch.live.size || ch.pending.size) return;
    if (ch.gameId === null) {
      if (this.global !== ch) return;
      this.global = null;
    } else {
      if (this.games.get(ch.gameId) !== ch) return;
      this.games.delete(ch.gameId);
    }
    ch.ready
      .then(() => this.bus.unsubscribe(ch.gameId, ch.listener))
      .catch((err: unknown) => this.log.warn({ err, game: ch.gameId }, 'presence unsubscribe failed'));
  }

  private onGameMessage(ch: GameChannel, message: unknown): void {
    const e = message as Partial<GameEventEnvelope> | null;
    if (!e || e.game !== ch.gameId || !Number.isSafeInteger(e.seq) || (e.seq as number) < 1 || typeof e.event !== 'string' || !EVENT_NAME.test(e.event)) {
      this.log.error({ game: ch.gameId, got: { game: e?.game, seq: e?.seq, event: e?.event } }, 'malformed game event on the presence channel');
      return;
    }
    const seq = e.seq as number;
    if (ch.baseSeq === null) {
      ch.baseSeq = seq - 1; // the first event since subscribing starts the history
    } else if (seq <= ch.lastSeq) {
      return; // already seen
    } else if (seq !== ch.lastSeq + 1) {
      // Only a lossy presence gets here: history restarts, and deliver() ends the streams that missed events.
      this.log.warn({ game: ch.gameId, expected: ch.lastSeq + 1, got: seq }, 'gap in game events');
      ch.history = [];
      ch.historyChars = 0;
      ch.baseSeq = seq - 1;
    }
    const frame: Frame = { seq, text: `id: ${seq}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data ?? {})}\n\n`, audience: null, final: e.final === true };
    ch.lastSeq = seq;
    ch.history.push(frame);
    ch.historyChars += frame.text.length;
    while (ch.history.length > 0 && (ch.history.length > this.historySize || ch.historyChars > this.historyChars)) {
      const old = ch.history.shift() as Frame;
      ch.historyChars -= old.text.length;
      ch.baseSeq = old.seq;
    }
    for (const s of ch.pending) s.buffer?.push(frame);
    if (ch.live.size) this.enqueue(frame, [...ch.live]);
  }

  /** A batch of global events (or a single one, as older processes publish). */
  private onGlobalMessage(ch: Channel, message: unknown): void {
    const batch = (Array.isArray(message) ? message : [message]) as (GlobalEventEnvelope | null)[];
    const targets = ch.live.size ? [...ch.live] : null;
    for (const e of batch) {
      const frame = globalFrame(e);
      if (!frame) {
        this.log.error({ event: (e as { event?: unknown } | null)?.event }, 'malformed global event on the presence channel');
        continue;
      }
      for (const s of ch.pending) s.buffer?.push(frame);
      if (targets) this.enqueue(frame, targets);
    }
  }

  // ---------------------------------------------------------------------------
  // writing

  private enqueue(frame: Frame, targets: Stream[]): void {
    this.queue.push({ frame, targets, next: 0 });
    if (!this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(this.pump);
    }
  }

  /**
   * Writes queued events in short turns so rooms and requests run between them
   * (budget P7). A turn's size follows the measured cost of a write, so a slow
   * machine or a loaded network stack gets smaller turns, never longer ones.
   */
  private readonly pump = (): void => {
    const started = performance.now();
    const limit = Math.max(MIN_TURN_WRITES, Math.min(this.chunkSize, Math.floor(TURN_TARGET_MS / this.writeCostMs)));
    let writes = 0;
    let open = true;
    while (open && this.queueHead < this.queue.length) {
      const job = this.queue[this.queueHead] as Job;
      while (job.next < job.targets.length) {
        this.deliver(job.targets[job.next++] as Stream, job.frame);
        writes++;
        if (writes >= limit || ((writes & 31) === 0 && performance.now() - started > TURN_TARGET_MS)) {
          open = false;
          break;
        }
      }
      if (job.next >= job.targets.length) this.queueHead++;
    }
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 1024) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    // A chunked response hands its bytes to the socket in a nextTick (uncork), so the
    // syscalls run after this function: a tick queued behind them sees the whole turn.
    process.nextTick(this.endTurn, started, writes);
    if (this.queue.length) setImmediate(this.pump);
    else this.pumpScheduled = false;
  };

  private readonly endTurn = (started: number, writes: number): void => {
    const ms = performance.now() - started;
    if (writes >= MIN_TURN_WRITES) this.writeCostMs = Math.max(0.001, 0.7 * this.writeCostMs + (0.3 * ms) / writes);
    this.onFanoutChunk?.(ms, writes);
  };

  private deliver(s: Stream, f: Frame): void {
    if (s.closed) return;
    if (f.seq > 0 && s.channel.gameId !== null) {
      if (f.seq <= s.sentSeq) return;
      if (f.seq !== s.sentSeq + 1) {
        // A hole the client cannot see: end the stream, its reconnect (Last-Event-ID) gets a snapshot.
        this.log.warn({ game: s.channel.gameId, has: s.sentSeq, got: f.seq }, 'SSE subscriber missed events; ending its stream');
        this.detach(s);
        s.res.end();
        return;
      }
      s.sentSeq = f.seq;
    } else if (!admits(f, s.userId, s.permissions)) {
      return;
    }
    this.write(s, f.text);
    if (f.final && !s.closed) {
      this.detach(s);
      s.res.end();
    }
  }

  private write(s: Stream, text: string): void {
    const { res } = s;
    if (res.destroyed || res.writableEnded) {
      this.detach(s);
      return;
    }
    res.write(text);
    if (res.writableLength > this.maxBufferedBytes) {
      // A reader that stopped reading: drop it rather than hold its backlog in memory (docs/api.md#b11).
      this.log.info({ game: s.channel.gameId, buffered: res.writableLength }, 'dropping a slow SSE subscriber');
      this.detach(s);
      res.destroy();
    }
  }

  private watch(s: Stream): void {
    const done = (): void => this.detach(s);
    // 'close' fires for every ending (client gone, our end(), destroy()); a write error
    // without a listener would be thrown.
    s.res.on('close', done);
    s.res.on('error', done);
  }

  private detach(s: Stream): void {
    if (s.closed) return;
    s.closed = true;
    s.buffer = null;
    const ch = s.channel;
    if (ch.live.delete(s) && ch.gameId !== null) this.liveGameStreams--;
    ch.pending.delete(s);
    this.release(ch);
    if (!this.liveGameStreams && !this.global?.live.size) this.stopHeartbeat();
  }

  private startHeartbeat(): void {
    if (this.heartbeat || this.closed) return;
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** One timer for all streams: per-stream timers would cost memory and wake-ups. */
  private beat(): void {
    const targets: Stream[] = [];
    for (const ch of this.games.values()) for (const s of ch.live) targets.push(s);
    if (this.global) for (const s of this.global.live) targets.push(s);
    // A backlog already keeps the streams busy; a second heartbeat would only lengthen it.
    const queued = this.queue.some((j, i) => i >= this.queueHead && j.frame === HEARTBEAT);
    if (targets.length && !queued) this.enqueue(HEARTBEAT, targets);
  }
}

const shuttingDown = EVENT_HTTP_ERRORS.shuttingDown;
