/**
 * Screen-reader announcements (docs/product.md#states "Notification events"). Messages are
 * plain text, rendered as text nodes by <LiveRegion>, never parsed as HTML
 * (player names are typed by strangers). Polite messages are queued and released
 * 150 ms apart, so a burst (a reveal, a score, a token) is read in order instead
 * of each replacing the last; an interrupting message clears that queue and is
 * announced assertively at once.
 *
 * A polite message is released GATHER_MS after it comes, so the messages of
 * one burst are all queued before the first is read.
 *
 * Clearing the queue must not lose news a player needs: the interruption is
 * usually the end of the same burst (the last guess, then "Nobody scored."). So
 * the queued messages are read first, in order, as part of the interrupting
 * message; only messages marked `transient` (a countdown's "10 seconds left")
 * are dropped. A message already released is not repeated: players heard the
 * same news twice when it was.
 */

/**
 * How long a polite message waits for the rest of its burst before it is
 * released (the events of one game update arrive as separate socket messages,
 * a few milliseconds apart at most).
 */
export const GATHER_MS = 40;
/** docs/product.md#limits: spacing of queued announcements. */
export const ANNOUNCE_SPACING_MS = 150;
/** How many past messages stay in a region (old ones are removed silently). */
const KEEP = 3;

export interface Announcement {
  id: number;
  text: string;
}

export interface AnnouncerSnapshot {
  polite: readonly Announcement[];
  assertive: readonly Announcement[];
}

export interface AnnounceOptions {
  /** Clears queued polite messages and is read at once, assertively (queued news first, see above). */
  interrupt?: boolean;
  /** Only worth hearing now: an interruption drops it instead of reading it first. */
  transient?: boolean;
}

export interface Announcer {
  announce(text: string, options?: AnnounceOptions): void;
  /** Drops queued messages and empties both regions. */
  clear(): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): AnnouncerSnapshot;
}

export interface AnnouncerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: AnnouncerTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

interface Queued {
  text: string;
  transient: boolean;
}

export function createAnnouncer(spacingMs = ANNOUNCE_SPACING_MS, timers: AnnouncerTimers = realTimers): Announcer {
  let snapshot: AnnouncerSnapshot = { polite: [], assertive: [] };
  const queue: Queued[] = [];
  const listeners = new Set<() => void>();
  let timer: unknown = null;
  let nextId = 1;

  const emit = (next: AnnouncerSnapshot): void => {
    snapshot = next;
    for (const l of listeners) l();
  };

  const push = (list: readonly Announcement[], text: string): Announcement[] => [...list.slice(-(KEEP - 1)), { id: nextId++, text }];

  /** Releases one queued message, then waits the spacing before the next. */
  const pump = (): void => {
    const next = queue.shift();
    if (next === undefined) {
      timer = null;
      return;
    }
    emit({ ...snapshot, polite: push(snapshot.polite, next.text) });
    timer = timers.setTimeout(pump, spacingMs);
  };

  /** The news an interruption must not lose: what is still queued, in order. */
  const carried = (): string[] => {
    const texts = queue.filter((q) => !q.transient).map((q) => q.text);
    queue.length = 0;
    return texts;
  };

  return {
    announce(text, options = {}) {
      // Coerce: a caller passing a number or an object must not reach the DOM as anything but text.
      const plain = String(text).trim();
      if (plain === '') return;
      if (options.interrupt) {
        // One message, not one per piece: a second assertive addition would cut off the first.
        const text = [...carried(), plain].join(' ');
        if (timer !== null) timers.clearTimeout(timer);
        timer = null;
        // Emptying the polite region stops a reader from finishing stale news after the interruption.
        emit({ polite: [], assertive: push(snapshot.assertive, text) });
        // Polite messages after an interruption still wait their turn behind it.
        timer = timers.setTimeout(pump, spacingMs);
        return;
      }
      queue.push({ text: plain, transient: !!options.transient });
      // released a moment later, not at once: the rest of a burst (the events of one update,
      // which arrive as several socket messages) joins the queue first, and an interruption
      // among them reads the queued news once, in itself, instead of cutting off a message
      // it then repeats
      if (timer === null) timer = timers.setTimeout(pump, GATHER_MS);
    },
    clear() {
      queue.length = 0;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      emit({ polite: [], assertive: [] });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
  };
}

/** The app's announcer, rendered by the one <LiveRegion> in the shell. */
export const announcer = createAnnouncer();

/** Announces `text` to screen readers (politely unless `interrupt`). */
export function announce(text: string, options?: AnnounceOptions): void {
  announcer.announce(text, options);
}
