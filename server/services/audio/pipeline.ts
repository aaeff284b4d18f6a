import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isoNow, type Db } from '../../db/index.ts';
import type { AudioSource } from '../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import { CatalogueService } from '../catalogue.ts';
import { DOWNLOAD_FAILED_MESSAGE, type ReportsService } from '../reports.ts';
import { asJobError, JobAborted, permanentError } from './errors.ts';
import { AudioJobStore, type AudioFailure, type AudioState, type ClaimedJob } from './jobs.ts';
import { ProgressPublisher, type AudioProgress } from './progress.ts';
import { LOUDNESS_TARGET, MAX_OUTPUT_SECONDS, MAX_SOURCE_SECONDS, probeAudio, transcode } from './transcode.ts';
import { downloadYoutube, YTDLP_MISSING } from './ytdlp.ts';

/**
 * The audio pipeline (docs/api.md#b9): a worker that takes jobs from the database
 * queue ({@link AudioJobStore}), fetches the source when it is on YouTube,
 * processes it with ffmpeg ({@link transcode}) and puts the results in place as
 * `<AUDIO_DIR>/<hitId>.opus` and `<AUDIO_DIR>/<hitId>.mp3` (written under a
 * temporary name and renamed, so a reader never sees half a file) before the hit
 * turns `ready`.
 *
 * All heavy work runs in child processes with a time limit; the server's event
 * loop only waits. At most `concurrency` jobs run at once. Transient failures are
 * retried with exponential backoff, permanent ones fail at once with a readable
 * reason. Jobs survive a restart: what a stopped worker held goes back to the queue.
 */

/** Settings of an {@link AudioPipeline}. */
export interface AudioPipelineOptions {
  db: Db;
  log: Logger;
  /** Processed files go here; sources under `sources/`, work in progress under `.tmp/`. */
  audioDir: string;
  /** The ffmpeg executable. */
  ffmpeg: string;
  /** The yt-dlp executable; undefined or empty = the YouTube source is off. */
  ytdlp?: string | undefined;
  /** Why there is none (chooseYtdlp), said by the status and in the jobs that fail for it. */
  ytdlpMissing?: string;
  /** Jobs at once (default 2). */
  concurrency?: number;
  /** Time limit of a download (default 10 min). */
  fetchTimeoutMs?: number;
  /** Time limit of each ffmpeg step (default 10 min). */
  processTimeoutMs?: number;
  /** Attempts before a transiently failing job fails for good (default 4). */
  maxAttempts?: number;
  /** First retry delay; doubles with each attempt, at most an hour (default 30 s). */
  backoffMs?: number;
  /** How often to look for jobs queued by other processes (the CLI) and for due retries (default 2 s). */
  pollMs?: number;
  /** Queue every hit with a YouTube id and no audio on start when yt-dlp is configured (default true). */
  queueYoutubeOnStart?: boolean;
  /** Receives `process_hits` data when the counts changed. */
  onProgress?: (progress: AudioProgress) => void;
  /** Least time between two progress events (default 250 ms: at most 4 per second). */
  progressIntervalMs?: number;
  /** Where a failed download files its automatic report, cleared when the audio becomes ready (docs/disputes.md#reports). */
  reports?: Pick<ReportsService, 'fileAuto' | 'clearAuto'> | undefined;
}


/** Where a hit's audio comes from when queued by {@link AudioPipeline.enqueue}. */
export type SourceChoice = { kind: 'youtube' } | { kind: 'upload'; path: string } | { kind: 'file'; path: string };

/** Answer of {@link AudioPipeline.enqueue} and {@link AudioPipeline.retry}. */
export type EnqueueResult =
  | { ok: true; state: 'queued' | 'failed' }
  | { ok: false; code: 'hit_not_found' | 'no_audio_source' | 'audio_not_failed'; message: string };

/** Which sources can be used, for the status endpoint. */
export interface AudioSources {
  youtube: { enabled: boolean; reason?: string };
  upload: { enabled: true; max_bytes?: number };
  folder: { enabled: true };
}

/** `GET /api/hits/audio/status`. */
export interface AudioStatus extends Pick<AudioProgress, 'available' | 'downloading' | 'processing'> {
  /** Hits per audio state. */
  states: Record<AudioState, number>;
  sources: AudioSources;
  /** The processing every ready hit got. */
  processing_settings: { loudness_lufs: number; true_peak_dbtp: number; max_seconds: number; max_source_seconds: number; formats: string[] };
  /** Failed hits, most recent first (at most 500). */
  failures: AudioFailure[];
}

/** Files of one hit under `audioDir`. */
export const processedFiles = (audioDir: string, hitId: string) => ({ opus: join(audioDir, `${hitId}.opus`), mp3: join(audioDir, `${hitId}.mp3`) });

/** Work folders older than this belong to no running job (a crash): removed on start. */
const STALE_TMP_MS = 6 * 3600_000;

/** The pipeline's worker and its API for the HTTP layer, the catalogue and the CLI (see the module comment). */
export class AudioPipeline {
  readonly store: AudioJobStore;
  readonly audioDir: string;
  readonly sourcesDir: string;
  readonly tmpDir: string;
  private readonly db: Db;
  private readonly log: Logger;
  private readonly ffmpeg: string;
  private readonly ytdlp: string | undefined;
  private readonly ytdlpMissing: string;
  private readonly concurrency: number;
  private readonly fetchTimeoutMs: number;
  private readonly processTimeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly pollMs: number;
  private readonly queueYoutubeOnStart: boolean;
  private readonly progress: ProgressPublisher;
  private readonly catalogue: CatalogueService;
  private readonly reports: AudioPipelineOptions['reports'];
  /** An automatic report that cannot be written is logged: the job's outcome stands. */
  private readonly reportFailed = (err: unknown): void => this.log.error({ err }, 'writing an automatic report failed');
  private readonly running = new Map<string, { claim: string; ctl: AbortController; done: Promise<void> }>();
  private started = false;
  private stopped = false;
  private pumping = false;
  private pumpAgain = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: AudioPipelineOptions) {
    this.db = options.db;
    this.log = options.log;
    this.store = new AudioJobStore(options.db);
    this.audioDir = options.audioDir;
    this.sourcesDir = join(options.audioDir, 'sources');
    this.tmpDir = join(options.audioDir, '.tmp');
    this.ffmpeg = options.ffmpeg;
    this.ytdlp = options.ytdlp ? options.ytdlp : undefined;
    this.ytdlpMissing = options.ytdlpMissing ?? YTDLP_MISSING;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? 600_000;
    this.processTimeoutMs = options.processTimeoutMs ?? 600_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.backoffMs = options.backoffMs ?? 30_000;
    this.pollMs = options.pollMs ?? 2000;
    this.queueYoutubeOnStart = options.queueYoutubeOnStart ?? true;
    this.catalogue = new CatalogueService(options.db, options.log);
    this.reports = options.reports;
    this.progress = new ProgressPublisher(
      () => this.progressNow(),
      (p) => options.onProgress?.(p),
      options.progressIntervalMs ?? 250,
      options.log,
    );
  }

  /** The counts `process_hits` carries, now (a new subscriber's first event). */
  async progressNow(): Promise<AudioProgress> {
    return { ...(await this.catalogue.progress()), youtube: this.youtubeEnabled };
  }

  /** Whether the YouTube source is on. */
  get youtubeEnabled(): boolean {
    return this.ytdlp !== undefined;
  }

  /**
   * Starts the worker: folders made, leftovers of a crash removed, jobs a previous
   * run held put back in the queue, YouTube hits without audio queued (when yt-dlp
   * is configured); then processing begins in the background.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await mkdir(this.sourcesDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
    await this.sweepTmp();
    const recovered = await this.store.recover();
    const lost = await this.requeueMissingFiles();
    const queued = this.ytdlp && this.queueYoutubeOnStart ? await this.store.queueYoutube() : 0;
    if (recovered || lost || queued) this.log.info({ recovered, lost, queued }, 'audio queue resumed');
    await this.progress.prime().catch(() => undefined);
    if (recovered || lost || queued) this.progress.poke();
    this.pump();
  }

  /**
   * Stops the worker: no new jobs; running ones are cancelled (their child
   * processes killed) and go back to the queue for the next start. Resolves when
   * they have let go.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const jobs = [...this.running.values()];
    for (const j of jobs) j.ctl.abort();
    await Promise.allSettled(jobs.map((j) => j.done));
    this.progress.close();
  }

  /** Which sources are usable. */
  sources(maxUploadBytes?: number): AudioSources {
    return {
      youtube: this.ytdlp ? { enabled: true } : { enabled: false, reason: this.ytdlpMissing },
      upload: { enabled: true, ...(maxUploadBytes !== undefined ? { max_bytes: maxUploadBytes } : {}) },
      folder: { enabled: true },
    };
  }

  /** Counts, sources and failures for `GET /api/hits/audio/status`. */
  async status(maxUploadBytes?: number): Promise<AudioStatus> {
    const states = await this.store.counts();
    return {
      available: states.ready,
      downloading: states.queued + states.fetching,
      processing: states.processing,
      states,
      sources: this.sources(maxUploadBytes),
      processing_settings: {
        loudness_lufs: LOUDNESS_TARGET.integrated,
        true_peak_dbtp: LOUDNESS_TARGET.truePeak,
        max_seconds: MAX_OUTPUT_SECONDS,
        max_source_seconds: MAX_SOURCE_SECONDS,
        formats: ['audio/ogg; codecs=opus', 'audio/mpeg'],
      },
      failures: await this.store.failures(500),
    };
  }

  /**
   * (Re)processes the audio of `hitId` from `source`, or from the source it had
   * (its YouTube id when it never had one): after an upload, a new YouTube id or a
   * changed `playback_offset`. A job of this hit running here is cancelled first.
   * A YouTube job with yt-dlp off fails at once with that reason.
   */
  async enqueue(hitId: string, source?: SourceChoice): Promise<EnqueueResult> {
    const hit = await this.db.selectFrom('hits').select(['id', 'yt_id']).where('id', '=', hitId).executeTakeFirst();
    if (!hit) return { ok: false, code: 'hit_not_found', message: 'hit not found' };
    const job = await this.store.job(hitId);
    let kind: AudioSource;
    let path: string | null;
    if (source) {
      kind = source.kind;
      // an explicit YouTube source (a new YouTube id) means a new download
      path = source.kind === 'youtube' ? null : source.path;
    } else if (job && (job.source !== 'youtube' || hit.yt_id)) {
      kind = job.source;
      path = job.source_path;
    } else if (hit.yt_id) {
      kind = 'youtube';
      path = null;
    } else {
      return { ok: false, code: 'no_audio_source', message: 'the hit has no audio source: upload a file or set a YouTube id' };
    }
    await this.cancel(hitId);
    if (kind === 'youtube' && path === null) {
      if (!hit.yt_id) return { ok: false, code: 'no_audio_source', message: 'the hit has no YouTube id' };
      if (!this.ytdlp) {
        await this.store.failNow(hitId, kind, path, this.ytdlpMissing);
        this.progress.poke();
        return { ok: true, state: 'failed' };
      }
    }
    if (!(await this.store.enqueue(hitId, kind, path))) return { ok: false, code: 'hit_not_found', message: 'hit not found' };
    this.progress.poke();
    this.pump();
    return { ok: true, state: 'queued' };
  }

  /** Queues a failed hit again with its source (attempts start over). */
  async retry(hitId: string): Promise<EnqueueResult> {
    const hit = await this.db.selectFrom('hits').select('audio_state').where('id', '=', hitId).executeTakeFirst();
    if (!hit) return { ok: false, code: 'hit_not_found', message: 'hit not found' };
    if (hit.audio_state !== 'failed') return { ok: false, code: 'audio_not_failed', message: `only a hit whose audio failed can be retried (this one is ${hit.audio_state})` };
    return this.enqueue(hitId);
  }

  /**
   * Makes `file` (an upload, already checked) the source of `hitId`: moved to
   * `sources/<hitId>.<ext>`, replacing older sources of the hit, and queued.
   */
  async useUpload(hitId: string, file: string, ext: string): Promise<EnqueueResult> {
    const exists = await this.db.selectFrom('hits').select('id').where('id', '=', hitId).executeTakeFirst();
    if (!exists) {
      await rm(file, { force: true });
      return { ok: false, code: 'hit_not_found', message: 'hit not found' };
    }
    await this.cancel(hitId);
    const dest = join(this.sourcesDir, `${hitId}.${ext}`);
    await this.removeSources(hitId, dest);
    await rename(file, dest);
    return this.enqueue(hitId, { kind: 'upload', path: dest });
  }

  /** Removes a deleted hit's processed files and kept sources (the catalogue calls this after a delete). */
  async removeAudio(hitId: string): Promise<void> {
    await this.cancel(hitId);
    const files = processedFiles(this.audioDir, hitId);
    await Promise.all([rm(files.opus, { force: true }), rm(files.mp3, { force: true }), this.removeSources(hitId)]);
  }

  /** Quick check of an uploaded or imported file before it is queued: audio at all, not too long. Throws an AudioJobError. */
  async check(file: string): Promise<{ duration: number | null; format: string }> {
    return probeAudio({ ffmpeg: this.ffmpeg, timeoutMs: Math.min(this.processTimeoutMs, 60_000) }, file);
  }

  // --- worker ---------------------------------------------------------------

  /** Starts due jobs while there is room; then waits for the next due job or the poll. */
  private pump(): void {
    if (this.stopped || !this.started) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.fill()
      .catch((err: unknown) => {
        if (!this.stopped) this.log.error({ err }, 'audio queue: claiming a job failed');
      })
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        } else {
          void this.arm();
        }
      });
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      const job = await this.store.claimNext(randomBytes(9).toString('base64url'));
      if (!job) break;
      if (this.stopped) {
        await this.store.transition(job.hitId, job.claim, 'queued');
        break;
      }
      this.launch(job);
    }
    this.progress.poke();
  }

  /** Schedules the next look at the queue: when the next retry is due, at most one poll interval away. */
  private async arm(): Promise<void> {
    if (this.stopped) return;
    let delay = this.pollMs;
    if (this.running.size < this.concurrency) {
      const due = await this.store.nextDue().catch(() => undefined);
      if (due !== undefined) delay = Math.min(this.pollMs, Math.max(20, Date.parse(due) - Date.now()));
    }
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delay);
    this.timer.unref();
  }

  private launch(job: ClaimedJob): void {
    const ctl = new AbortController();
    const done = this.run(job, ctl.signal)
      .catch((err: unknown) => this.log.error({ err, hit: job.hitId }, 'audio job crashed'))
      .finally(() => {
        if (this.running.get(job.hitId)?.claim === job.claim) this.running.delete(job.hitId);
        this.progress.poke();
        this.pump();
      });
    this.running.set(job.hitId, { claim: job.claim, ctl, done });
    this.progress.poke();
  }

  /** Cancels this process's running job of `hitId`, if any, and waits until it has let go. */
  private async cancel(hitId: string): Promise<void> {
    const job = this.running.get(hitId);
    if (!job) return;
    job.ctl.abort();
    await job.done;
  }

  /** One job: fetch (YouTube), process, check, put in place; or re-queue / fail with the reason. */
  private async run(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    const work = join(this.tmpDir, `${job.hitId}-${job.claim}`);
    const t0 = Date.now();
    /** Whether the job failed downloading from YouTube (and not for want of yt-dlp). */
    let downloading = false;
    try {
      await mkdir(work, { recursive: true });
      let source = job.sourcePath;
      if (job.source === 'youtube' && !(source && (await isFile(source)))) {
        if (!this.ytdlp) throw permanentError(this.ytdlpMissing);
        if (!job.ytId) throw permanentError('the hit has no YouTube id');
        downloading = true;
        const downloaded = await downloadYoutube(this.ytdlp, job.ytId, work, this.fetchTimeoutMs, signal);
        downloading = false;
        const dest = join(this.sourcesDir, `${job.hitId}${extname(downloaded).toLowerCase() || '.audio'}`);
        if (!(await this.store.holds(job.hitId, job.claim))) throw new JobAborted();
        await this.removeSources(job.hitId, dest);
        await rename(downloaded, dest);
        source = dest;
      }
      if (source === null) throw permanentError('the job has no source file');
      if (signal.aborted) throw new JobAborted();
      if (!(await this.store.transition(job.hitId, job.claim, 'processing', { source_path: source }))) throw new JobAborted();
      this.progress.poke();

      const out = await transcode({ ffmpeg: this.ffmpeg, timeoutMs: this.processTimeoutMs, signal }, source, job.playbackOffset, join(work, 'out'));
      // someone re-queued the hit meanwhile (new upload, new offset): its newer job writes the files
      if (signal.aborted || !(await this.store.holds(job.hitId, job.claim))) throw new JobAborted();
      const files = processedFiles(this.audioDir, job.hitId);
      await rename(out.opus, files.opus);
      await rename(out.mp3, files.mp3);
      const ok = await this.store.transition(job.hitId, job.claim, 'ready', { error: null, duration: out.duration, input_lufs: out.input.integrated });
      if (ok) {
        await this.reports?.clearAuto(job.hitId, DOWNLOAD_FAILED_MESSAGE).catch(this.reportFailed);
        this.log.info(
          { hit: job.hitId, ms: Date.now() - t0, seconds: Math.round(out.duration * 10) / 10, input_lufs: out.input.integrated, gain_db: Math.round(out.gainDb * 10) / 10, limited: out.limited },
          'audio ready',
        );
      }
    } catch (err) {
      if (err instanceof JobAborted || signal.aborted) {
        // stopped or replaced: back to the queue if still ours (a stop), nothing counted
        await this.store.transition(job.hitId, job.claim, 'queued').catch(() => false);
        return;
      }
      const failure = asJobError(err);
      const attempts = job.attempts + 1;
      if (failure.transient && attempts < this.maxAttempts) {
        const delay = Math.min(3600_000, this.backoffMs * 2 ** (attempts - 1));
        await this.store.transition(job.hitId, job.claim, 'queued', { attempts, error: failure.message, run_after: isoNow(Date.now() + delay) });
        this.log.warn({ hit: job.hitId, attempts, retry_in_ms: delay, reason: failure.message }, 'audio job failed; will retry');
      } else {
        const ok = await this.store.transition(job.hitId, job.claim, 'failed', { attempts, error: failure.message });
        // a failed hit has no audio: stale files of an earlier offset or source must not be served
        if (ok) {
          const files = processedFiles(this.audioDir, job.hitId);
          await Promise.all([rm(files.opus, { force: true }), rm(files.mp3, { force: true })]);
        }
        this.log.warn({ hit: job.hitId, attempts, reason: failure.message }, 'audio job failed');
        if (ok && downloading) await this.reports?.fileAuto(job.hitId, 'bad_audio', DOWNLOAD_FAILED_MESSAGE).catch(this.reportFailed);
      }
    } finally {
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /**
   * A ready hit must have its files: when they are gone (an emptied AUDIO_DIR, a
   * restored backup of the database), the hit is processed again from its source,
   * or goes back to "no audio" when it has none. Returns how many hits were affected.
   */
  private async requeueMissingFiles(): Promise<number> {
    const ready = await this.db
      .selectFrom('hits')
      .leftJoin('audio_jobs', 'audio_jobs.hit_id', 'hits.id')
      .select(['hits.id', 'hits.yt_id', 'audio_jobs.source', 'audio_jobs.source_path'])
      .where('hits.audio_state', '=', 'ready')
      .execute();
    if (ready.length === 0) return 0;
    const names = new Set(await readdir(this.audioDir));
    let lost = 0;
    for (const hit of ready) {
      if (names.has(`${hit.id}.opus`) && names.has(`${hit.id}.mp3`)) continue;
      lost++;
      if (hit.source) await this.store.enqueue(hit.id, hit.source, hit.source_path);
      else if (hit.yt_id) await this.store.enqueue(hit.id, 'youtube', null);
      else await this.db.updateTable('hits').set({ audio_state: 'none' }).where('id', '=', hit.id).where('audio_state', '=', 'ready').execute();
    }
    if (lost > 0) this.log.warn({ hits: lost }, 'ready hits without their audio files: processing them again');
    return lost;
  }

  /** Removes kept sources of `hitId` (`sources/<hitId>.*`) except `keep`. */
  private async removeSources(hitId: string, keep?: string): Promise<void> {
    const names = await readdir(this.sourcesDir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith(`${hitId}.`) && join(this.sourcesDir, n) !== keep)
        .map((n) => rm(join(this.sourcesDir, n), { force: true })),
    );
  }

  /** Removes work folders and uploads a crash left behind. */
  private async sweepTmp(): Promise<void> {
    const names = await readdir(this.tmpDir).catch(() => [] as string[]);
    const now = Date.now();
    for (const n of names) {
      const path = join(this.tmpDir, n);
      const s = await stat(path).catch(() => undefined);
      if (s && now - s.mtimeMs > STALE_TMP_MS) await rm(path, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile() && s.size > 0,
    () => false,
  );
}
