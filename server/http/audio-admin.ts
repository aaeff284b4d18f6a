import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline as pipe } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { FAILURE_CAUSES } from '../../shared/protocol/catalogue.ts';
import { CountSchema, UuidSchema } from '../../shared/protocol/common.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { AudioJobError } from '../services/audio/errors.ts';
import type { AudioPipeline, EnqueueResult } from '../services/audio/pipeline.ts';
import { Permission } from '../services/users.ts';
import { requirePermission } from './auth.ts';
import { apiError, parseOr400, sendError } from './errors.ts';
import { allowLongBody } from './security.ts';

/**
 * Audio administration for catalogue editors (write_hits, docs/api.md#b9): upload a
 * hit's audio, see the pipeline's progress and failures, retry a failed hit.
 * Everything answers at once; the processing happens in the pipeline's worker.
 */

/** `GET /api/hits/audio/status` (for the API reference and clients). */
export const AudioStatusSchema = z
  .strictObject({
    available: CountSchema.meta({ description: 'Hits whose audio is ready (as in `process_hits`).' }),
    downloading: CountSchema.meta({ description: 'Hits queued or being fetched (as in `process_hits`).' }),
    processing: CountSchema.meta({ description: 'Hits being processed (as in `process_hits`).' }),
    states: z.strictObject({ none: CountSchema, queued: CountSchema, fetching: CountSchema, processing: CountSchema, ready: CountSchema, failed: CountSchema }).meta({ description: 'Hits per audio state.' }),
    sources: z.strictObject({
      youtube: z.strictObject({ enabled: z.boolean(), reason: z.string().optional() }).meta({ description: 'On when the server has a `yt-dlp` (YTDLP_PATH, else the one on the PATH); `reason` says why not.' }),
      upload: z.strictObject({ enabled: z.literal(true), max_bytes: z.int().optional() }),
      folder: z.strictObject({ enabled: z.literal(true) }).meta({ description: '`npm run cli -- import-folder DIR`.' }),
    }),
    processing_settings: z.strictObject({
      loudness_lufs: z.number().meta({ description: 'EBU R128 integrated loudness of every processed hit.' }),
      true_peak_dbtp: z.number(),
      max_seconds: z.int().meta({ description: 'A processed file runs from `playback_offset` to the end, at most this long.' }),
      max_source_seconds: z.int().meta({ description: 'Longer sources are refused.' }),
      formats: z.array(z.string()),
    }),
    failures: z
      .array(
        z.strictObject({
          id: UuidSchema,
          title: z.string(),
          artist: z.string(),
          source: z.enum(['youtube', 'upload', 'file']),
          reason: z.string().meta({ description: 'Why it failed, readable.', example: 'the playback offset (300 s) is past the end of the audio (3 min 20 s long)' }),
          cause: z.enum(FAILURE_CAUSES).meta({ description: 'The reason in a word: no yt-dlp, video unavailable, blocked in this country, age-restricted, network, too long, other.' }),
          attempts: CountSchema,
          failed_at: z.string(),
        }),
      )
      .meta({ description: 'Failed hits, most recent first (at most 500); `POST /api/hits/{hitId}/audio/retry` queues one again.' }),
  })
  .meta({ id: 'AudioStatus', description: 'The audio pipeline: counts, sources, the processing every hit gets, and the failures.' });

/** 202 answer of an upload or a retry. */
export const AudioQueuedSchema = z
  .strictObject({ type: z.literal('success'), message: z.string(), audio_state: z.enum(['queued', 'failed']) })
  .meta({ id: 'AudioQueued', description: 'The hit\'s audio is queued (`failed` when it failed at once, e.g. YouTube is off: see the status).' });

/** The upload path, for the CSRF guard's list of paths whose body is not JSON. */
export const AUDIO_UPLOAD_PATH = /^\/api\/hits\/[^/]+\/audio$/;

/** Content types an upload may have, with the extension its kept source gets. */
const UPLOAD_TYPES: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'application/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/webm': 'webm',
  'audio/aiff': 'aiff',
  'audio/x-aiff': 'aiff',
};

/** 415 for an upload without an audio content type. */
export const NOT_AUDIO_TYPE = apiError(415, 'unsupported_media_type', 'the body must be an audio file with an audio content type (e.g. audio/mpeg)');
/** 413 for an upload past the size limit. */
export const AUDIO_TOO_LARGE = (mb: number) => apiError(413, 'body_too_large', `the audio file is too large: at most ${mb} MB`);
/** 400 for an upload without bytes. */
export const AUDIO_EMPTY = apiError(400, 'empty_body', 'the audio file is empty');
/** 404 for an unknown hit. */
export const HIT_NOT_FOUND = apiError(404, 'hit_not_found', 'hit not found');

/** Dependencies of {@link audioAdminRouter}. */
export interface AudioAdminDeps {
  pipeline: AudioPipeline;
  config: Pick<Config, 'AUDIO_UPLOAD_MAX_MB'>;
  log: Logger;
}

const TOO_LARGE = Symbol('too large');

/** Answers an {@link EnqueueResult}: 202 with the new state, or the refusal. */
function answer(res: Response, r: EnqueueResult, message: string): void {
  if (r.ok) {
    res.status(202).json({ type: 'success', message: r.state === 'failed' ? `${message}, but it failed at once (see the status)` : message, audio_state: r.state });
    return;
  }
  const status = r.code === 'hit_not_found' ? 404 : 409;
  sendError(res, apiError(status, r.code, r.message));
}

/**
 * `GET /hits/audio/status`, `POST /hits/{hitId}/audio` (raw audio body),
 * `POST /hits/{hitId}/audio/retry`; mount under `/api` after the session middleware
 * and a CSRF guard that lets {@link AUDIO_UPLOAD_PATH} carry a non-JSON body.
 */
export function audioAdminRouter(deps: AudioAdminDeps): Router {
  const router = Router();
  const canWrite = requirePermission(Permission.WRITE_HITS);
  const maxBytes = deps.config.AUDIO_UPLOAD_MAX_MB * 1024 * 1024;

  router.get('/hits/audio/status', canWrite, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await deps.pipeline.status(maxBytes));
  });

  router.post('/hits/:hitId/audio/retry', canWrite, async (req, res) => {
    const hitId = parseOr400(res, UuidSchema, req.params.hitId, 'hitId');
    if (hitId === undefined) return;
    answer(res, await deps.pipeline.retry(hitId), 'audio queued again');
  });

  router.post('/hits/:hitId/audio', canWrite, async (req: Request, res: Response) => {
    const hitId = parseOr400(res, UuidSchema, req.params.hitId, 'hitId');
    if (hitId === undefined) return;
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const ext = UPLOAD_TYPES[type] ?? (type.startsWith('audio/') ? 'audio' : undefined);
    if (ext === undefined) return sendError(res, NOT_AUDIO_TYPE);
    const declared = Number(req.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      res.set('Connection', 'close');
      return sendError(res, AUDIO_TOO_LARGE(deps.config.AUDIO_UPLOAD_MAX_MB));
    }
    const hit = await deps.pipeline.store.db.selectFrom('hits').select('id').where('id', '=', hitId).executeTakeFirst();
    if (!hit) return sendError(res, HIT_NOT_FOUND);

    // streamed to disk with a byte count: a 50 MB body never sits in memory; over a slow uplink it takes minutes
    allowLongBody(req);
    const tmp = join(deps.pipeline.tmpDir, `upload-${randomBytes(9).toString('base64url')}.${ext}`);
    let bytes = 0;
    try {
      await pipe(
        req,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            bytes += chunk.length;
            if (bytes > maxBytes) throw TOO_LARGE;
            yield chunk;
          }
        },
        createWriteStream(tmp),
      );
    } catch (err) {
      await rm(tmp, { force: true });
      if (err === TOO_LARGE) {
        res.set('Connection', 'close');
        return sendError(res, AUDIO_TOO_LARGE(deps.config.AUDIO_UPLOAD_MAX_MB));
      }
      // the client went away mid-upload: nobody to answer
      if (req.destroyed || (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    }
    if (bytes === 0) {
      await rm(tmp, { force: true });
      return sendError(res, AUDIO_EMPTY);
    }
    try {
      await deps.pipeline.check(tmp);
    } catch (err) {
      await rm(tmp, { force: true });
      if (err instanceof AudioJobError) {
        const code = /too long/.test(err.message) ? 'audio_too_long' : 'not_audio';
        return sendError(res, apiError(400, code, err.message));
      }
      throw err;
    }
    const r = await deps.pipeline.useUpload(hitId, tmp, ext);
    deps.log.info({ hit: hitId, bytes }, 'audio uploaded');
    answer(res, r, 'audio uploaded; processing queued');
  });

  return router;
}
