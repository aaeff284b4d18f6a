import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline as pipe } from 'node:stream/promises';
import { Router, type Response } from 'express';
import { AUDIO_ADMIN_ROUTES, AUDIO_HTTP_ERRORS, AudioQueuedSchema, AudioStatusSchema } from '../../shared/protocol/routes-audio.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { AudioJobError } from '../services/audio/errors.ts';
import type { AudioPipeline, EnqueueResult } from '../services/audio/pipeline.ts';
import { apiError, sendError } from './errors.ts';
import { mount } from './routes.ts';
import { allowLongBody } from './security.ts';

/**
 * Audio administration for catalogue editors (write_hits, docs/api.md#b9): upload a
 * hit's audio, see the pipeline's progress and failures, retry a failed hit.
 * Everything answers at once; the processing happens in the pipeline's worker.
 */

/** The wire schemas live with the route table; re-exported for the tests. */
export { AudioQueuedSchema, AudioStatusSchema };

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
export const NOT_AUDIO_TYPE = AUDIO_HTTP_ERRORS.notAudioType;
/** 413 for an upload past the size limit. */
export const AUDIO_TOO_LARGE = (mb: number) => apiError(413, 'body_too_large', `the audio file is too large: at most ${mb} MB`);
/** 400 for an upload without bytes. */
export const AUDIO_EMPTY = AUDIO_HTTP_ERRORS.audioEmpty;
/** 404 for an unknown hit. */
export const HIT_NOT_FOUND = AUDIO_HTTP_ERRORS.hitNotFound;

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
  const A = AUDIO_ADMIN_ROUTES;
  const maxBytes = deps.config.AUDIO_UPLOAD_MAX_MB * 1024 * 1024;

  mount(router, A.getAudioStatus, async (_input, _req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await deps.pipeline.status(maxBytes));
  });

  mount(router, A.retryHitAudio, async ({ params }, _req, res) => {
    answer(res, await deps.pipeline.retry(params.hitId), 'audio queued again');
  });

  mount(router, A.uploadHitAudio, async ({ params: { hitId } }, req, res) => {
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
