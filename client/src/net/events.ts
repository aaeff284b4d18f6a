import type { GlobalEvent, GlobalEventName } from '../../../shared/protocol/events.ts';
import { loadSchemas, type Schemas } from './load-schemas.ts';

/**
 * The one global event stream of a tab (`GET /api/events`, docs/api.md#b11): lobby
 * lines, created and removed games, hit-download progress, catalogue changes.
 * One EventSource serves every subscriber; the browser reconnects it by itself.
 * Every event is validated with the shared schema before anyone sees it.
 */

export type GlobalEventData<K extends GlobalEventName> = Extract<GlobalEvent, { event: K }>['data'];
type Handler<K extends GlobalEventName> = (data: GlobalEventData<K>) => void;

const handlers = new Map<GlobalEventName, Set<Handler<GlobalEventName>>>();
const openHandlers = new Set<(reconnected: boolean) => void>();
const downHandlers = new Set<() => void>();
let source: EventSource | null = null;
let openedBefore = false;
/** Bumped by every open/close, so a stale asynchronous open never creates a second stream. */
let generation = 0;

export const GLOBAL_EVENTS_PATH = '/api/events';

function dispatch(schemas: Schemas, name: string, raw: string): void {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    console.warn(`global event ${name}: data is not JSON`);
    return;
  }
  const parsed = schemas.parseGlobalEvent(name, json);
  if (!parsed.ok) {
    console.warn(`global event ${name} dropped: ${parsed.error.message}`);
    return;
  }
  const event = parsed.data;
  for (const handler of handlers.get(event.event) ?? []) {
    try {
      handler(event.data);
    } catch (err) {
      // one broken subscriber must not starve the others
      console.error(err);
    }
  }
}

/**
 * Opens the stream if it is not open. The server decides per connection which
 * private and local games this viewer may list, so call {@link reopenGlobalEvents}
 * when the user changes.
 */
export async function openGlobalEvents(): Promise<void> {
  if (source) return;
  const mine = ++generation;
  const schemas = await loadSchemas();
  if (mine !== generation || source) return;
  const es = new EventSource(GLOBAL_EVENTS_PATH, { withCredentials: true });
  for (const name of schemas.GLOBAL_EVENT_NAMES) {
    es.addEventListener(name, (e) => dispatch(schemas, name, (e as MessageEvent<string>).data));
  }
  es.addEventListener('open', () => {
    retryMs = FIRST_RETRY_MS;
    // Events sent while the stream was down are lost (no resume for removals),
    // so subscribers re-read what they show after a reconnect.
    const reconnected = openedBefore;
    openedBefore = true;
    for (const h of openHandlers) h(reconnected);
  });
  // The browser reconnects by itself after a dropped connection, but gives up for good
  // on an answer that is not a stream (429 too many streams, 503 while the server stops):
  // then it is opened anew, later each time, up to a minute.
  es.addEventListener('error', () => {
    if (source === es && es.readyState !== EventSource.OPEN) {
      for (const h of downHandlers) {
        try {
          h();
        } catch (err) {
          // a broken subscriber must not keep the stream from being opened again below
          console.error(err);
        }
      }
    }
    if (es.readyState !== EventSource.CLOSED || source !== es || retryTimer !== null) return;
    const wait = retryMs;
    retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (source !== es) return;
      source = null;
      void openGlobalEvents();
    }, wait);
  });
  source = es;
}

/** First wait before a stream the browser gave up on is opened anew, ms; doubled each time up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;
let retryMs = FIRST_RETRY_MS;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** Closes the stream (tests, or a user change followed by {@link openGlobalEvents}). */
export function closeGlobalEvents(): void {
  generation++;
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  source?.close();
  source = null;
}

/** Reconnects as the current user; subscribers see it as a reconnect. */
export function reopenGlobalEvents(): Promise<void> {
  closeGlobalEvents();
  return openGlobalEvents();
}

/** Subscribes to one global event; returns the unsubscribe function. */
export function onGlobalEvent<K extends GlobalEventName>(name: K, handler: Handler<K>): () => void {
  let set = handlers.get(name);
  if (!set) {
    set = new Set();
    handlers.set(name, set);
  }
  set.add(handler as unknown as Handler<GlobalEventName>);
  return () => set.delete(handler as unknown as Handler<GlobalEventName>);
}

/** Called whenever the stream is down (its connection failed or dropped; the browser or this module retries). */
export function onGlobalStreamDown(handler: () => void): () => void {
  downHandlers.add(handler);
  return () => downHandlers.delete(handler);
}

/** Called whenever the stream (re)opens; `reconnected` is false for the first open of the tab. */
export function onGlobalStreamOpen(handler: (reconnected: boolean) => void): () => void {
  openHandlers.add(handler);
  return () => openHandlers.delete(handler);
}
