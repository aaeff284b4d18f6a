import { setTimeout as sleep } from 'node:timers/promises';
import { isoNow, type Db } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { YearEvidence } from '../../rooms/host-ports.ts';
import { SourceAnswerSchema, type Evidence, type HitHistory, type SourceAnswer, type SourceStatus } from '../../../shared/protocol/reports.ts';
import type { Hit } from '../../../shared/rules/index.ts';
import type { Config } from '../../config.ts';
import { MusicBrainzSource } from './musicbrainz.ts';
import { fold, Pacer, userAgent, type HttpOptions, type YearSource } from './source.ts';
import { WikidataSource } from './wikidata.ts';

/**
 * Year evidence (docs/disputes.md#evidence): the catalogue's own history and
 * the outside sources' answers. Lookups run in the background (started at a
 * card's draw), one at a time per source; answers are cached in
 * `year_evidence` per song and source, so a card drawn again, in any game,
 * asks nobody. Nothing here throws into a game: a source that fails is only
 * "unavailable" for a while.
 */

type Song = Pick<Hit, 'id' | 'title' | 'artist' | 'year'>;

export interface EvidenceOptions {
  sources?: YearSource[];
  /** How long a cached answer is trusted. */
  ttlMs?: number;
  /** How long a source that failed for a song is not asked again about it (failures are not stored). */
  retryAfterMs?: number;
  /** How long gather() waits for lookups still running. */
  waitMs?: number;
  now?: () => number;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The cache key of a song: its artist and title, case, accents and
 * punctuation folded. Not the hit's id: an answer stays valid when the hit's
 * year, pack or audio is edited (and is shared by two hits of one song); an
 * edit of the title or artist asks the sources again.
 */
export function songKey(s: Pick<Hit, 'title' | 'artist'>): string {
  return `${fold(s.artist)}|${fold(s.title)}`;
}

/** Both services allow one request a second from a client. */
const PACE_MS = 1000;
/** Pause before the one retry of a "slow down" (503/429) answer. */
const RETRY_MS = 2000;
/** A source out of reach is not asked for this long. */
const REST_MS = 30_000;

/** The sources EVIDENCE_SOURCES names, each with its own pacing queue (one per process). */
export function configuredSources(config: Pick<Config, 'EVIDENCE_SOURCES' | 'MUSICBRAINZ_URL' | 'WIKIDATA_URL' | 'EVIDENCE_CONTACT' | 'EVIDENCE_TIMEOUT_SECONDS' | 'PUBLIC_URL'>): YearSource[] {
  const http = (): HttpOptions => ({
    userAgent: userAgent(config.EVIDENCE_CONTACT ?? config.PUBLIC_URL),
    timeoutMs: config.EVIDENCE_TIMEOUT_SECONDS * 1000,
    retryMs: RETRY_MS,
    restMs: REST_MS,
    pacer: new Pacer(PACE_MS),
  });
  return config.EVIDENCE_SOURCES.map((name) => (name === 'musicbrainz' ? new MusicBrainzSource(config.MUSICBRAINZ_URL, http()) : new WikidataSource(config.WIKIDATA_URL, http())));
}

export class EvidenceService implements YearEvidence {
  readonly db: Db;
  readonly log: Logger;
  /** The catalogue's own evidence: the year, its changes and the reports (ReportsService.historyOf). */
  readonly history: (hitId: string) => Promise<HitHistory | null>;
  readonly sources: readonly YearSource[];
  private readonly ttlMs: number;
  private readonly retryAfterMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;
  /** Lookups running, by song key and source: a second draw of the same song joins the first. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();
  private readonly stop = new AbortController();

  constructor(db: Db, log: Logger, history: (hitId: string) => Promise<HitHistory | null>, options: EvidenceOptions = {}) {
    this.db = db;
    this.log = log;
    this.history = history;
    this.sources = options.sources ?? [];
    this.ttlMs = options.ttlMs ?? 30 * DAY;
    this.retryAfterMs = options.retryAfterMs ?? 10 * 60 * 1000;
    this.waitMs = options.waitMs ?? 1500;
    this.now = options.now ?? Date.now;
  }

  prefetch(hit: Song): void {
    for (const source of this.sources) void this.ensure(hit, source);
  }

  async gather(hit: Song): Promise<Omit<Evidence, 'hit'>> {
    const known = await this.history(hit.id).catch((err: unknown) => {
      this.log.warn({ err, hit: hit.id }, 'the hit history could not be read for its evidence');
      return null;
    });
    const lookups = this.sources.map((s) => this.ensure(hit, s));
    await Promise.race([Promise.all(lookups), sleep(this.waitMs, undefined, { ref: false })]);
    const { sources, missing } = await this.cachedOrMissing(hit);
    return { year: known?.year ?? null, changes: known?.changes ?? [], reports: known?.reports ?? [], sources, missing };
  }

  /**
   * Every source's answer for a song, asked now where none is cached (the
   * audit): waits for the lookups; the names of the sources that failed.
   */
  async answers(hit: Song, signal?: AbortSignal): Promise<{ sources: SourceAnswer[]; unavailable: string[] }> {
    await Promise.all(this.sources.map((s) => this.ensure(hit, s, signal, true)));
    const { sources, missing } = await this.cachedOrMissing(hit);
    return { sources, unavailable: missing.map((m) => m.source) };
  }

  /** Ends the lookups running (the server is closing). */
  close(): void {
    this.stop.abort();
  }

  /** A fresh cached answer, or one lookup (joined when already running); never rejects. */
  private ensure(hit: Song, source: YearSource, signal?: AbortSignal, retryFailed = false): Promise<void> {
    const key = songKey(hit);
    const id = `${key}\u0000${source.name}`;
    const running = this.running.get(id);
    if (running) return running;
    const failed = this.failedAt.get(id);
    if (!retryFailed && failed !== undefined && this.now() - failed < this.retryAfterMs) return Promise.resolve();
    const task = (async () => {
      try {
        if (await this.cached(key, source.name)) return;
        const found = await source.lookup({ title: hit.title, artist: hit.artist }, signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal);
        const answer: SourceAnswer = { source: source.name, label: source.label, ...found, detail: found.detail.slice(0, 500), found_at: isoNow(this.now()) };
        const row = { hit_key: key, source: source.name, answer: JSON.stringify(SourceAnswerSchema.parse(answer)), found_at: answer.found_at };
        await this.db
          .insertInto('year_evidence')
          .values(row)
          .onConflict((oc) => oc.columns(['hit_key', 'source']).doUpdateSet({ answer: row.answer, found_at: row.found_at }))
          .execute();
        this.failedAt.delete(id);
      } catch (err) {
        this.forgetOldFailures();
        this.failedAt.set(id, this.now());
        if (!this.stop.signal.aborted && !signal?.aborted) this.log.info({ source: source.name, reason: (err as Error).message }, 'a year evidence source is unavailable');
      } finally {
        this.running.delete(id);
      }
    })();
    this.running.set(id, task);
    return task;
  }

  /** Failures older than the retry delay say nothing any more: the map stays small on a server long offline. */
  private forgetOldFailures(): void {
    if (this.failedAt.size < 1000) return;
    for (const [id, at] of this.failedAt) if (this.now() - at >= this.retryAfterMs) this.failedAt.delete(id);
  }

  private async cached(key: string, source: string): Promise<SourceAnswer | null> {
    const row = await this.db.selectFrom('year_evidence').select(['answer', 'found_at']).where('hit_key', '=', key).where('source', '=', source).executeTakeFirst();
    if (!row || this.now() - Date.parse(row.found_at) > this.ttlMs) return null;
    let parsed;
    try {
      parsed = SourceAnswerSchema.safeParse(JSON.parse(row.answer));
    } catch {
      return null;
    }
    return parsed.success ? parsed.data : null;
  }

  private async cachedOrMissing(hit: Song): Promise<{ sources: SourceAnswer[]; missing: SourceStatus[] }> {
    const key = songKey(hit);
    const sources: SourceAnswer[] = [];
    const missing: SourceStatus[] = [];
    for (const s of this.sources) {
      const answer = await this.cached(key, s.name).catch(() => null);
      if (answer) sources.push(answer);
      else missing.push({ source: s.name, label: s.label, state: this.running.has(`${key}\u0000${s.name}`) ? 'pending' : 'unavailable' });
    }
    return { sources, missing };
  }
}
