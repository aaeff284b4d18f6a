import type { GlobalEventName } from '../../shared/protocol/events.ts';
import type { GameEventName, GameUpdate } from '../../shared/rules/types.ts';
import type { Logger } from '../logger.ts';

/**
 * The event bus: game rooms (and the catalogue, and the audio pipeline) publish
 * on it, the SSE streams subscribe to it. It sits below both, so neither imports
 * the other.
 *
 * Events travel through the Colyseus presence's pub/sub, never straight from a
 * publisher to a subscriber: with RedisPresence a room on process A reaches the
 * SSE subscribers on process B without any change here or in them.
 */

/** One engine event of one game, numbered by the game's host. */
export interface GameEventEnvelope {
  /** The game id (8 letters or digits). */
  game: string;
  /** Per-game sequence number assigned by the host: starts at 1, strictly increasing, never reused. */
  seq: number;
  event: GameEventName;
  data: GameUpdate;
  /** The game's last event (it was deleted): streams end after it. */
  final?: boolean;
}

/** One event of the global stream `GET /api/events` (its names: shared/protocol/events.ts). */
export interface GlobalEventEnvelope {
  event: GlobalEventName;
  data: unknown;
  /** User ids allowed to receive it; null or absent means everyone. */
  audience?: string[] | null;
  /**
   * A permission (its snake_case name) the subscriber's user must have had when
   * the stream opened (the reports' events: read_issues); absent means none.
   */
  permission?: string | null;
}

/** The pub/sub the bus travels on: what it uses of the Colyseus presence (local, or Redis). */
export interface PubSub {
  publish(topic: string, data: unknown): unknown;
  subscribe(topic: string, callback: (message: unknown) => void): unknown;
  unsubscribe(topic: string, callback?: (message: unknown) => void): unknown;
}

/** What publishers need of the bus (the game host is given this). */
export type EventPublisher = Pick<EventBus, 'publishGame' | 'publishGlobal' | 'publishGlobalLater'>;

export interface EventBusOptions {
  /**
   * How long an update published with `publishGlobalLater` may wait (ms): updates
   * of one key within it go out once, the newest, and everything waiting leaves
   * in one presence message.
   */
  coalesceMs?: number;
}

/** The presence topics; other processes of a cluster (possibly one version older) use the same. */
const GLOBAL_TOPIC = 'hitline:sse:global';
const gameTopic = (gameId: string): string => `hitline:sse:game:${gameId}`;
const topicOf = (gameId: string | null): string => (gameId === null ? GLOBAL_TOPIC : gameTopic(gameId));

/** One per process. Publishing never rejects: a presence failure is logged, the game goes on. */
export class EventBus {
  private readonly pubsub: PubSub;
  private readonly log: Logger;
  private readonly coalesceMs: number;
  /** Global updates waiting to be published, by key, in the order their keys first came. */
  private readonly waiting = new Map<string, GlobalEventEnvelope>();
  private waitingTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(pubsub: PubSub, log: Logger, opts: EventBusOptions = {}) {
    this.pubsub = pubsub;
    this.log = log;
    this.coalesceMs = Math.max(0, opts.coalesceMs ?? 250);
  }

  /** Publishes one game event to every process's subscribers of that game. */
  async publishGame(e: GameEventEnvelope): Promise<void> {
    try {
      await this.pubsub.publish(gameTopic(e.game), e);
    } catch (err) {
      this.log.error({ err, game: e.game, seq: e.seq }, 'publishing a game event failed');
    }
  }

  /**
   * Publishes one global event to every process's subscribers, after the updates
   * still waiting (`publishGlobalLater`), in one presence message.
   */
  async publishGlobal(e: GlobalEventEnvelope): Promise<void> {
    const batch = [...this.waiting.values(), e];
    this.waiting.clear();
    await this.publishBatch(batch);
  }

  /**
   * Publishes a global event that only brings something up to date (a game's
   * summary, whose phase changes several times a turn): it waits up to
   * `coalesceMs`, a newer one with the same `key` replaces it, and it leaves
   * with everything else waiting in one presence message (with several
   * processes, one Redis write instead of one per update), or earlier, ahead
   * of the next `publishGlobal`. So a summary never arrives after its game's
   * `remove_game`.
   */
  publishGlobalLater(key: string, e: GlobalEventEnvelope): void {
    if (this.closed) return;
    this.waiting.set(key, e);
    if (this.waitingTimer) return;
    this.waitingTimer = setTimeout(() => {
      this.waitingTimer = null;
      if (!this.waiting.size) return;
      const batch = [...this.waiting.values()];
      this.waiting.clear();
      void this.publishBatch(batch);
    }, this.coalesceMs);
    this.waitingTimer.unref();
  }

  private async publishBatch(batch: GlobalEventEnvelope[]): Promise<void> {
    try {
      await this.pubsub.publish(GLOBAL_TOPIC, batch);
    } catch (err) {
      this.log.error({ err, events: batch.map((e) => e.event) }, 'publishing global events failed');
    }
  }

  /**
   * Calls `listener` with every message published for game `gameId` (null: the
   * global events, each message a batch) on any process, from the moment the
   * returned promise resolves. Game messages arrive as published: a subscriber
   * checks them (another process may run another version).
   */
  subscribe(gameId: string | null, listener: (message: unknown) => void): Promise<void> {
    return Promise.resolve(this.pubsub.subscribe(topicOf(gameId), listener)).then(() => undefined);
  }

  /** Stops `listener` (after its subscribe resolved); may return a promise of the presence's answer. */
  unsubscribe(gameId: string | null, listener: (message: unknown) => void): unknown {
    return this.pubsub.unsubscribe(topicOf(gameId), listener);
  }

  /** Drops the updates still waiting and refuses new ones (graceful shutdown). */
  close(): void {
    this.closed = true;
    if (this.waitingTimer) clearTimeout(this.waitingTimer);
    this.waitingTimer = null;
    this.waiting.clear();
  }
}
