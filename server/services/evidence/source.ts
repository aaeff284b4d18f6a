import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What every outside source of year evidence shares (docs/disputes.md#evidence):
 * the lookup interface, the pacing queue, the HTTP client with its timeout and
 * one retry, and the User-Agent the services' policies ask for.
 */

/** What a source is asked: only the title and the artist ever leave the server. */
export interface YearQuery {
  title: string;
  artist: string;
}

/** A source's answer; `year` and `date` null when it knows no such song. */
export interface Found {
  year: number | null;
  /** As precise as the source is: `1975`, `1975-10` or `1975-10-31`. */
  date: string | null;
  /** What the date is of, in words. */
  detail: string;
  url: string | null;
}

/** The source could not answer now (no network, rate-limited, timed out, a broken answer). */
export class SourceUnavailable extends Error {}

export interface YearSource {
  /** Stable id, stored with the cached answers (`musicbrainz`, `wikidata`). */
  readonly name: string;
  /** As shown to players. */
  readonly label: string;
  /** The answer, or a SourceUnavailable rejection. */
  lookup(q: YearQuery, signal?: AbortSignal): Promise<Found>;
}

/**
 * One request at a time, each starting at least `intervalMs` after the answer
 * to the one before arrived: MusicBrainz allows one request a second per
 * client as its servers count them (on arrival, so a request held up in a
 * connection's setup must not shorten the next gap), and Wikidata's query
 * service asks for no parallel requests. Waiters queue on a promise chain;
 * nothing spins.
 *
 * The queue is short (`maxWaiting`): cards are drawn faster than a source that
 * times out answers, and a lookup that would start minutes later is of no use
 * to the table. After a failure that says the source is out of reach (no
 * network, a timeout, a second "slow down"), it rests: lookups fail at once,
 * without a request, until the rest is over.
 */
export class Pacer {
  private tail: Promise<unknown> = Promise.resolve();
  private lastEnd = -Infinity;
  private waiting = 0;
  private restUntil = -Infinity;
  private readonly intervalMs: number;
  private readonly maxWaiting: number;

  constructor(intervalMs: number, maxWaiting = 30) {
    this.intervalMs = intervalMs;
    this.maxWaiting = maxWaiting;
  }

  /** No requests for `ms` from now. */
  rest(ms: number): void {
    this.restUntil = Math.max(this.restUntil, performance.now() + ms);
  }

  private checkOpen(): void {
    if (performance.now() < this.restUntil) throw new SourceUnavailable('resting after a failure');
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      this.checkOpen();
      if (this.waiting >= this.maxWaiting) throw new SourceUnavailable(`${this.waiting} lookups are waiting already`);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    this.waiting++;
    const turn = this.tail.then(async () => {
      signal?.throwIfAborted();
      this.checkOpen();
      const wait = this.lastEnd + this.intervalMs - performance.now();
      if (wait > 0) await sleep(wait, undefined, signal ? { signal } : {});
      this.checkOpen();
      try {
        return await task();
      } finally {
        this.lastEnd = performance.now();
      }
    });
    // the next waiter goes after this one, whatever became of it
    this.tail = turn.catch(() => undefined).finally(() => this.waiting--);
    return turn;
  }
}

export interface HttpOptions {
  userAgent: string;
  /** Longest one request may take. */
  timeoutMs: number;
  /** Wait before the one retry of a 503/429 answer (a Retry-After shorter than this is obeyed; longer ones are capped). */
  retryMs: number;
  /** How long the source rests after a failure that says it is out of reach. */
  restMs: number;
  pacer: Pacer;
}

/**
 * GETs a JSON document through the pacer. A 503 or 429 (the services' "slow
 * down") is asked once more after a pause; that, any other failure or a
 * timeout rejects with SourceUnavailable.
 */
export async function getJson(url: string, opts: HttpOptions, signal?: AbortSignal, accept = 'application/json'): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await opts.pacer.run(async () => {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      try {
        const r = await fetch(url, {
          headers: { 'User-Agent': opts.userAgent, Accept: accept },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          redirect: 'follow',
        });
        return { status: r.status, retryAfter: r.headers.get('retry-after'), body: r.ok ? ((await r.json()) as unknown) : (await r.body?.cancel(), null) };
      } catch (err) {
        if (signal?.aborted) throw err;
        opts.pacer.rest(opts.restMs);
        throw new SourceUnavailable(timeout.aborted ? `no answer within ${opts.timeoutMs} ms` : `failed: ${(err as Error).message}`);
      }
    }, signal);
    if (res.status === 200) return res.body;
    if ((res.status === 503 || res.status === 429) && attempt === 0) {
      const asked = Number(res.retryAfter) * 1000;
      await sleep(Number.isFinite(asked) && asked > 0 ? Math.min(asked, opts.retryMs) : opts.retryMs, undefined, signal ? { signal } : {});
      continue;
    }
    if (res.status === 503 || res.status === 429) opts.pacer.rest(opts.restMs);
    throw new SourceUnavailable(`HTTP ${res.status}`);
  }
}

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };

/** `Hitline/<version> ( <contact> )`: MusicBrainz and Wikimedia block anonymous clients. */
export function userAgent(contact: string | undefined): string {
  return contact ? `Hitline/${pkg.version} ( ${contact} )` : `Hitline/${pkg.version}`;
}

/** Case, accents, punctuation and spacing folded: how titles and names are compared. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** "Queen" matches "Queen", "Queen & David Bowie" and "David Bowie feat. Queen", word by word. */
export function sameArtist(found: string, wanted: string): boolean {
  const a = ` ${fold(found)} `;
  const b = ` ${fold(wanted)} `;
  return a.trim() !== '' && b.trim() !== '' && (a.includes(b) || b.includes(a));
}

/** The earliest of partial ISO dates (`1975` sorts before `1975-10`: the less precise one is kept then). */
export function earliest<T extends { date: string }>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((best, i) => (best === undefined || i.date < best.date ? i : best), undefined);
}

/** A usable partial ISO date (year 1000–9999), cut to what it holds. */
export function partialDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})(-\d{2})?(-\d{2})?/.exec(value);
  return m ? m[0] : null;
}
