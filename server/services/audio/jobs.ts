import { sql, type Kysely } from 'kysely';
import { isoNow, type Db } from '../../db/index.ts';
import type { AudioSource, Database } from '../../db/schema.ts';
import { failureCause } from './ytdlp.ts';
import type { FailureCause } from '../../../shared/protocol/catalogue.ts';

/**
 * The audio job queue in the database (docs/api.md#b9). A job's state is the hit's
 * `audio_state` (none | queued | fetching | processing | ready | failed), so the
 * games and the progress counts read one column; `audio_jobs` keeps the source,
 * attempts, backoff and the failure reason.
 *
 * Nothing is processed twice: a worker claims a job with one
 * `UPDATE … WHERE audio_state = 'queued'` (atomic in SQLite, also across
 * processes) and stamps it with a random token; every later step names that token
 * and changes nothing once the job was re-queued or claimed by someone else.
 */

/** Every value of `hits.audio_state`. */
export const AUDIO_STATES = ['none', 'queued', 'fetching', 'processing', 'ready', 'failed'] as const;
export type AudioState = (typeof AUDIO_STATES)[number];

/** A job a worker holds. */
export interface ClaimedJob {
  hitId: string;
  claim: string;
  source: AudioSource;
  sourcePath: string | null;
  /** Failed attempts so far. */
  attempts: number;
  ytId: string | null;
  playbackOffset: number;
  title: string;
  artist: string;
}

/** One failed hit for the status endpoint. */
export interface AudioFailure {
  id: string;
  title: string;
  artist: string;
  source: AudioSource;
  reason: string;
  /** The reason in a word (ytdlp.ts `failureCause`), for the status page to say in the reader's language. */
  cause: FailureCause;
  attempts: number;
  failed_at: string;
}

/**
 * {@link AudioJobStore.enqueue} inside a caller's transaction (the folder import
 * queues its hits in the same transaction that creates them).
 */
export async function queueJob(db: Kysely<Database>, hitId: string, source: AudioSource, sourcePath: string | null, now = isoNow()): Promise<boolean> {
  // the write comes first: a transaction that reads first may not upgrade under WAL when another process writes
  const r = await db.updateTable('hits').set({ audio_state: 'queued' }).where('id', '=', hitId).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  const fresh = { source, source_path: sourcePath, claim: null, attempts: 0, run_after: now, error: null, updated_at: now };
  await db
    .insertInto('audio_jobs')
    .values({ hit_id: hitId, ...fresh, created_at: now })
    .onConflict((oc) => oc.column('hit_id').doUpdateSet(fresh))
    .execute();
  return true;
}

/** Queue operations; every method is one short statement or transaction. */
export class AudioJobStore {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Queues `hitId` with `source` (a fresh start: attempts and reason cleared, due
   * now), whatever its state was. A worker still holding the old job loses its
   * claim. False when the hit does not exist.
   */
  async enqueue(hitId: string, source: AudioSource, sourcePath: string | null, now = isoNow()): Promise<boolean> {
    return this.db.transaction().execute((trx) => queueJob(trx, hitId, source, sourcePath, now));
  }

  /** Marks `hitId` failed at once with `reason`, without a worker (e.g. its only source is switched off). */
  async failNow(hitId: string, source: AudioSource, sourcePath: string | null, reason: string, now = isoNow()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx.updateTable('hits').set({ audio_state: 'failed' }).where('id', '=', hitId).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      const row = { source, source_path: sourcePath, claim: null, attempts: 1, run_after: now, error: reason, updated_at: now };
      await trx
        .insertInto('audio_jobs')
        .values({ hit_id: hitId, ...row, created_at: now })
        .onConflict((oc) => oc.column('hit_id').doUpdateSet(row))
        .execute();
      return true;
    });
  }

  /** The job row of a hit, if any. */
  async job(hitId: string) {
    return this.db.selectFrom('audio_jobs').selectAll().where('hit_id', '=', hitId).executeTakeFirst();
  }

  /**
   * Takes the next due queued job for the worker `claim` (state → fetching), or
   * returns undefined when none is due. A job another worker took between the look
   * and the update is skipped.
   */
  async claimNext(claim: string, now = isoNow()): Promise<ClaimedJob | undefined> {
    for (let tries = 0; tries < 5; tries++) {
      // a read first, so an idle poll never takes the write lock
      const next = await this.db
        .selectFrom('audio_jobs')
        .innerJoin('hits', 'hits.id', 'audio_jobs.hit_id')
        .select('audio_jobs.hit_id')
        .where('hits.audio_state', '=', 'queued')
        .where('audio_jobs.run_after', '<=', now)
        .orderBy('audio_jobs.run_after')
        .orderBy('audio_jobs.hit_id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      const taken = await this.db.transaction().execute(async (trx) => {
        const r = await trx.updateTable('hits').set({ audio_state: 'fetching' }).where('id', '=', next.hit_id).where('audio_state', '=', 'queued').executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return undefined;
        await trx.updateTable('audio_jobs').set({ claim, updated_at: isoNow() }).where('hit_id', '=', next.hit_id).execute();
        return trx
          .selectFrom('audio_jobs')
          .innerJoin('hits', 'hits.id', 'audio_jobs.hit_id')
          .select(['audio_jobs.hit_id', 'audio_jobs.source', 'audio_jobs.source_path', 'audio_jobs.attempts', 'hits.yt_id', 'hits.playback_offset', 'hits.title', 'hits.artist'])
          .where('audio_jobs.hit_id', '=', next.hit_id)
          .executeTakeFirstOrThrow();
      });
      if (taken) {
        return {
          hitId: taken.hit_id,
          claim,
          source: taken.source,
          sourcePath: taken.source_path,
          attempts: taken.attempts,
          ytId: taken.yt_id,
          playbackOffset: taken.playback_offset,
          title: taken.title,
          artist: taken.artist,
        };
      }
    }
    return undefined;
  }

  /** When the earliest queued job is due (ISO), if any is queued. */
  async nextDue(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('audio_jobs')
      .innerJoin('hits', 'hits.id', 'audio_jobs.hit_id')
      .select(({ fn }) => fn.min('audio_jobs.run_after').as('due'))
      .where('hits.audio_state', '=', 'queued')
      .executeTakeFirst();
    return (row?.due as string | null | undefined) ?? undefined;
  }

  /** Whether `claim` still holds the job of `hitId` (nobody re-queued or took it meanwhile). */
  async holds(hitId: string, claim: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('audio_jobs')
      .innerJoin('hits', 'hits.id', 'audio_jobs.hit_id')
      .select('audio_jobs.hit_id')
      .where('audio_jobs.hit_id', '=', hitId)
      .where('audio_jobs.claim', '=', claim)
      .where('hits.audio_state', 'in', ['fetching', 'processing'])
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Moves a held job to `to` and updates its row with `fields`. `to` = queued,
   * ready or failed releases the claim. False (and no change) when `claim` no longer
   * holds the job.
   */
  async transition(
    hitId: string,
    claim: string,
    to: Exclude<AudioState, 'none'>,
    fields: { source_path?: string; attempts?: number; run_after?: string; error?: string | null; duration?: number | null; input_lufs?: number | null } = {},
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('hits')
        .set({ audio_state: to })
        .where('id', '=', hitId)
        .where('audio_state', 'in', ['fetching', 'processing'])
        .where(({ exists, selectFrom }) => exists(selectFrom('audio_jobs').select('hit_id').where('hit_id', '=', hitId).where('claim', '=', claim)))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      const release = to === 'queued' || to === 'ready' || to === 'failed';
      await trx
        .updateTable('audio_jobs')
        .set({ ...fields, ...(release ? { claim: null } : {}), updated_at: isoNow() })
        .where('hit_id', '=', hitId)
        .execute();
      return true;
    });
  }

  /**
   * After a restart: jobs a worker held (fetching, processing) go back to the queue,
   * and queued hits without a job row (set by hand or by an older version) get a
   * YouTube job. Returns how many jobs were put back. Only one server may run the
   * queue of a database: this takes back every claim.
   */
  async recover(now = isoNow()): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx.updateTable('hits').set({ audio_state: 'queued' }).where('audio_state', 'in', ['fetching', 'processing']).executeTakeFirst();
      await trx.updateTable('audio_jobs').set({ claim: null }).where('claim', 'is not', null).execute();
      await trx
        .insertInto('audio_jobs')
        .columns(['hit_id', 'source', 'source_path', 'claim', 'attempts', 'run_after', 'error', 'created_at', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('hits')
            .select([
              'hits.id',
              sql.lit('youtube').as('source'),
              sql.lit(null).as('source_path'),
              sql.lit(null).as('claim'),
              sql.lit(0).as('attempts'),
              sql.val(now).as('run_after'),
              sql.lit(null).as('error'),
              sql.val(now).as('created_at'),
              sql.val(now).as('updated_at'),
            ])
            .where('hits.audio_state', '=', 'queued')
            .where((w) => w.not(w.exists(w.selectFrom('audio_jobs').select('audio_jobs.hit_id').whereRef('audio_jobs.hit_id', '=', 'hits.id')))),
        )
        .execute();
      return Number(r.numUpdatedRows);
    });
  }

  /** Queues every hit with a YouTube id that has no audio yet (state none). Returns how many. */
  async queueYoutube(now = isoNow()): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const ids = await trx.selectFrom('hits').select('id').where('audio_state', '=', 'none').where('yt_id', 'is not', null).execute();
      if (ids.length === 0) return 0;
      const fresh = { source: 'youtube' as const, source_path: null, claim: null, attempts: 0, run_after: now, error: null, updated_at: now };
      for (let i = 0; i < ids.length; i += 200) {
        const chunk = ids.slice(i, i + 200).map((r) => r.id);
        await trx.updateTable('hits').set({ audio_state: 'queued' }).where('id', 'in', chunk).execute();
        await trx
          .insertInto('audio_jobs')
          .values(chunk.map((hit_id) => ({ hit_id, ...fresh, created_at: now })))
          .onConflict((oc) => oc.column('hit_id').doUpdateSet(fresh))
          .execute();
      }
      return ids.length;
    });
  }

  /** Hits per audio state (every state present, 0 when none). */
  async counts(): Promise<Record<AudioState, number>> {
    const rows = await this.db
      .selectFrom('hits')
      .select(['audio_state', ({ fn }) => fn.countAll<number>().as('n')])
      .groupBy('audio_state')
      .execute();
    const counts = Object.fromEntries(AUDIO_STATES.map((s) => [s, 0])) as Record<AudioState, number>;
    for (const r of rows) if ((AUDIO_STATES as readonly string[]).includes(r.audio_state)) counts[r.audio_state as AudioState] = Number(r.n);
    return counts;
  }

  /** Failed hits, most recent first. */
  async failures(limit: number): Promise<AudioFailure[]> {
    const rows = await this.db
      .selectFrom('hits')
      .innerJoin('audio_jobs', 'audio_jobs.hit_id', 'hits.id')
      .select(['hits.id', 'hits.title', 'hits.artist', 'audio_jobs.source', 'audio_jobs.error', 'audio_jobs.attempts', 'audio_jobs.updated_at'])
      .where('hits.audio_state', '=', 'failed')
      .orderBy('audio_jobs.updated_at', 'desc')
      .orderBy('hits.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      artist: r.artist,
      source: r.source,
      reason: r.error ?? 'unknown reason',
      cause: failureCause(r.error ?? ''),
      attempts: r.attempts,
      failed_at: r.updated_at,
    }));
  }
}
