/**
 * Screen-reader announcements (spec §4 "Notification events"). Messages are
 * plain text, rendered as text nodes by <LiveRegion>, never parsed as HTML
 * (player names are typed by strangers). Polite messages are queued and released
 * 150 ms apart, so a burst (a reveal, a score, a token) is read in order instead
 * of each replacing the last; an interrupting message clears that queue and is
 * announced assertively at once.
 */

/** Spec §9: spacing of queued announcements. */
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
  /** Clears queued polite messages and is read at once, assertively. */
  interrupt?: boolean;
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

export function createAnnouncer(spacingMs = ANNOUNCE_SPACING_MS, timers: AnnouncerTimers = realTimers): Announcer {
  let snapshot: AnnouncerSnapshot = { polite: [], assertive: [] };
  const queue: string[] = [];
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
    const text = queue.shift();
    if (text === undefined) {
      timer = null;
      return;
    }
    emit({ ...snapshot, polite: push(snapshot.polite, text) });
    timer = timers.setTimeout(pump, spacingMs);
  };

  return {
    announce(text, options = {}) {
      // Coerce: a caller passing a number or an object must not reach the DOM as anything but text.
      const plain = String(text).trim();
      if (plain === '') return;
      if (options.interrupt) {
        queue.length = 0;
        if (timer !== null) timers.clearTimeout(timer);
        timer = null;
        // Emptying the polite region stops a reader from finishing stale news after the interruption.
        emit({ polite: [], assertive: push(snapshot.assertive, plain) });
        // Polite messages after an interruption still wait their turn behind it.
        timer = timers.setTimeout(pump, spacingMs);
        return;
      }
      queue.push(plain);
      if (timer === null) pump();
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
