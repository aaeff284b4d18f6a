import type { Logger } from '../../logger.ts';

/**
 * `process_hits` data (docs/api.md#progress, and ours): ready hits, hits waiting
 * for or in download, hits being processed, failed hits, hits without audio
 * that nothing prepares, and whether this server downloads from YouTube.
 */
export interface AudioProgress {
  available: number;
  downloading: number;
  processing: number;
  failed: number;
  cards: number;
  youtube: boolean;
}

/**
 * Publishes the audio progress whenever it changes, at most once per
 * `intervalMs`: a burst of job transitions (a folder import queues hundreds of
 * hits at once) becomes one event with the latest counts, never a flood.
 */
export class ProgressPublisher {
  private readonly read: () => Promise<AudioProgress>;
  private readonly publish: (progress: AudioProgress) => void;
  private readonly intervalMs: number;
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  private lastSent: string | undefined;
  private busy = false;
  private dirty = false;
  private closed = false;

  constructor(read: () => Promise<AudioProgress>, publish: (progress: AudioProgress) => void, intervalMs: number, log: Logger) {
    this.read = read;
    this.publish = publish;
    this.intervalMs = intervalMs;
    this.log = log;
  }

  /** Remembers the current counts without publishing them (subscribers get them on connect). */
  async prime(): Promise<void> {
    this.lastSent = JSON.stringify(await this.read());
  }

  /** Something may have changed: publish the counts soon, if they differ from the last published. */
  poke(): void {
    if (this.closed || this.timer) return;
    if (this.busy) {
      this.dirty = true;
      return;
    }
    const wait = Math.max(0, this.lastFlush + this.intervalMs - Date.now());
    this.timer = setTimeout(() => void this.flush(), wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    this.busy = true;
    this.dirty = false;
    this.lastFlush = Date.now();
    try {
      const progress = await this.read();
      const text = JSON.stringify(progress);
      if (!this.closed && text !== this.lastSent) {
        this.lastSent = text;
        this.publish(progress);
      }
    } catch (err) {
      if (!this.closed) this.log.warn({ err }, 'reading the audio progress failed');
    } finally {
      this.busy = false;
      if (this.dirty) this.poke();
    }
  }

  /** Stops publishing. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
