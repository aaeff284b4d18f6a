import { stat } from 'node:fs/promises';
import { matchMaker } from '@colyseus/core';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { AUDIO_ADMIN_ROUTES, AudioQuerySchema, GAME_AUDIO_ROUTES } from '../../shared/protocol/routes-audio.ts';
import { gameNotFound, ruleError } from '../../shared/rules/index.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { GameRoom } from '../rooms/game-room.ts';
import { ffmpegPath } from '../services/audio/ffmpeg.ts';
import { clipCache, processedSource, type AudioFormat, type Clip, type ClipCache, type ClipSource } from './audio-clips.ts';
import { HIT_ID_NOT_FOUND } from './catalogue.ts';
import { apiError, sendError } from './errors.ts';
import { mount } from './routes.ts';

/**
 * The audio of a running game (docs/rules.md#a12, docs/api.md#b10, docs/rules.md#audio):
 *
 * * `GET /games/{id}/hit?draw=<draws>`: the current card. While it is hidden, a clip
 *   of at most `hit_duration` seconds made for this turn alone (audio-clips.ts),
 *   `no-store`, whose URL, headers, bytes and size say nothing about the hit; `draw` (the game's `draws`, public in every payload) is
 *   required, so the URL changes every turn and a stale one is refused (409
 *   `stale_clip`). While Confirming, the whole processed file.
 * * `GET /games/{id}/hit/{hitId}`: a hit a player owns (or the revealed one), whole,
 *   cached for good.
 * * `GET /hits/{hitId}/audio`: any hit's processed file, whole, for catalogue editors
 *   (write_hits) only: the hit detail page's player. Players must not get it: with
 *   every hit's audio by id (and its title, artist and year from the public
 *   catalogue) a hidden clip could be looked up by its sound. `private, no-cache`:
 *   revalidated by ETag, as a new offset re-processes the file under the same URL.
 *
 * Access is decided by the game's room (`GameRoom.audio` → `audioAccess`); files are
 * the pipeline's `<AUDIO_DIR>/<hitId>.opus|.mp3`. Byte ranges, HEAD, ETags and
 * conditional requests are Express's `res.sendFile` (the `send` package), with:
 * multiple ranges answered 200 with the whole file; a malformed `bytes=` range
 * ignored (200 whole); a range that selects nothing (`bytes=5-1`, `bytes=<size>-`,
 * `bytes=-0`) is a 416 whose `Content-Range` gives the size; a suffix range longer
 * than the file is the whole file (RFC 9110 §14.1.2).
 */

const ROOM = 'game';

/** The processed formats, in the server's order of preference. */
const FORMATS: readonly AudioFormat[] = ['opus', 'mp3'];
const CONTENT_TYPE: Record<AudioFormat, string> = { opus: 'audio/ogg; codecs=opus', mp3: 'audio/mpeg' };
const OGG = 'audio/ogg';
const MPEG = 'audio/mpeg';
/** Other types whose players decode Opus. */
const OPUS_ALIASES = ['audio/webm', 'audio/opus', 'application/ogg'];
const REVEALED_CACHE = 'public, max-age=31536000, immutable';
/** The editor's copy: per user (it needs write_hits), checked again on every use (a re-processed file keeps its URL). */
const EDITOR_CACHE = 'private, no-cache';

/** 404 of `GET /hits/{hitId}/audio` for a hit without processed audio (none yet, queued, processing or failed). */
export const AUDIO_NOT_READY = (state: string) => apiError(404, 'audio_not_ready', `this hit has no processed audio (its audio is ${state})`);



/** A hit id safe to put in a path (the room hands out uuids; this guards the join anyway). */
const SAFE_HIT_ID = /^[0-9a-fA-F-]{36}$/;

/** What the audio routes need: where the processed files are, which ffmpeg cuts clips, the hits' audio state. */
export interface AudioRouterDeps {
  config: Pick<Config, 'AUDIO_DIR' | 'FFMPEG_PATH'>;
  db: Db;
  log?: Logger;
}

type Access = ReturnType<GameRoom['audio']>;

/**
 * The formats `req` accepts, best first. The files are `audio/ogg` and `audio/mpeg`,
 * negotiated by their own types (q-values respected, Opus on ties); a client that
 * takes neither but lists `audio/webm` (or another Opus container) plays Opus; one
 * that accepts nothing we have still gets audio, Opus first (HTTP lets a server
 * ignore Accept rather than answer 406).
 */
function negotiateFormats(req: Request): AudioFormat[] {
  const best = req.accepts([OGG, MPEG]);
  if (best === false) return req.accepts(OPUS_ALIASES) ? ['opus'] : [...FORMATS];
  const first: AudioFormat = best === MPEG ? 'mp3' : 'opus';
  const other: AudioFormat = first === 'opus' ? 'mp3' : 'opus';
  return req.accepts(other === 'opus' ? OGG : MPEG) ? [first, other] : [first];
}

/**
 * RFC 9110 §14.1.2: a suffix range longer than the representation selects all of it;
 * range-parser (inside `send`) calls it unsatisfiable, so it is rewritten to `0-`.
 */
function normaliseRange(req: Request, size: number): void {
  const range = req.headers.range;
  if (!range || !/^\s*bytes=/i.test(range)) return;
  const fixed = range.replace(/(=|,)\s*-\s*(\d+)\s*(?=,|$)/g, (m, sep: string, n: string) => (Number(n) > size ? `${sep}0-` : m));
  if (fixed !== range) req.headers.range = fixed;
}

/** What is known of a hit's processed audio: the file, or why there is none. */
type Lookup = { ok: true; file: ClipSource } | { ok: false; reason: 'no_hit' | 'not_ready' | 'missing'; state?: string };

/** The processed file of `hitId` in the first available of `formats` (the pipeline's `<AUDIO_DIR>/<hitId>.<format>`). */
async function lookupProcessed(deps: AudioRouterDeps, hitId: string, formats: readonly AudioFormat[]): Promise<Lookup> {
  if (!SAFE_HIT_ID.test(hitId)) return { ok: false, reason: 'no_hit' };
  const row = await deps.db.selectFrom('hits').select('audio_state').where('id', '=', hitId).executeTakeFirst();
  if (!row) return { ok: false, reason: 'no_hit' };
  if (row.audio_state !== 'ready') return { ok: false, reason: 'not_ready', state: row.audio_state };
  for (const format of formats) {
    const file = await processedSource(deps.config.AUDIO_DIR, hitId, format);
    if (file) return { ok: true, file };
  }
  return { ok: false, reason: 'missing' };
}

type SendFileError = Error & { status?: number; code?: string; headers?: Record<string, string> };

/**
 * Sends the audio file at `path` with `headers` (its Content-Type and Cache-Control
 * at least): byte ranges, HEAD, ETag, conditional requests (Express's `send`), and
 * every refusal as a JSON error without the file's headers. Shared by every audio route.
 */
async function sendAudio(
  req: Request,
  res: Response,
  deps: AudioRouterDeps,
  path: string,
  headers: Record<string, string>,
  options: { lastModified: boolean; context: Record<string, string> },
): Promise<void> {
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) return sendError(res, ruleError('hit_file_missing'));
  normaliseRange(req, size);
  res.sendFile(path, { headers, lastModified: options.lastModified, cacheControl: false, dotfiles: 'allow', acceptRanges: true }, (err?: SendFileError) => {
    if (!err) return;
    if (res.headersSent) {
      if (err.code !== 'ECONNABORTED') deps.log?.warn({ err, ...options.context }, 'audio transfer failed');
      return;
    }
    // send set the file's headers before it gave up; an error body must not carry them
    for (const h of ['Content-Type', 'Content-Length', 'Content-Range', 'ETag', 'Last-Modified']) res.removeHeader(h);
    res.set('Cache-Control', 'no-store');
    if (err.status === 416) {
      res.set('Content-Range', err.headers?.['Content-Range'] ?? `bytes */${size}`);
      return sendError(res, apiError(416, 'range_not_satisfiable', `the requested range is outside the file (${size} bytes)`));
    }
    if (err.status === 412) return sendError(res, apiError(412, 'precondition_failed', 'the file does not match the If-Match or If-Unmodified-Since condition'));
    if (err.status === 404) return sendError(res, ruleError('hit_file_missing'));
    deps.log?.error({ err, ...options.context }, 'serving audio failed');
    sendError(res, apiError(500, 'internal', 'internal server error'));
  });
}

/**
 * The routes `GET|HEAD /games/:id/hit`, `/games/:id/hit/:hit` and
 * `/hits/:hitId/audio` (mounted under `/api`, after the session middleware).
 */
export function audioRouter(deps: AudioRouterDeps): Router {
  const r = Router();
  const clips: ClipCache = clipCache(deps.config.AUDIO_DIR, ffmpegPath(deps.config.FFMPEG_PATH), deps.log);

  // errors and hidden clips are never stored; revealed files replace this below
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };

  const gameAudio = async ({ id, hit }: { id: string; hit?: string }, query: z.output<typeof AudioQuerySchema>, req: Request, res: Response) => {

    const listing = await matchMaker.getRoomById(id);
    if (!listing || listing.name !== ROOM) return sendError(res, gameNotFound('audio'));
    let access: Access;
    try {
      access = (await matchMaker.remoteRoomCall<GameRoom>(id, 'audio', [res.locals.user?.id ?? null, hit])) as Access;
    } catch {
      return sendError(res, gameNotFound('audio')); // disposed meanwhile
    }
    if (!access.ok) return sendError(res, access.error);

    // The current card's URL may name its turn (`draw`, as the web client does): a request
    // of a past turn is refused, and a revealed card so named may be cached. Without it
    // (the reference server's `?key=<random>`, ignored) it is whatever card is current, never stored.
    const current = hit === undefined;
    if (current && query.draw !== undefined && query.draw !== access.draws) {
      return sendError(
        res,
        apiError(409, 'stale_clip', `this clip's turn is over: the game is at draw ${access.draws}, ask for ?draw=${access.draws}`),
      );
    }

    res.vary('Accept');
    const found = await lookupProcessed(deps, access.hitId, query.format ? [query.format] : negotiateFormats(req));
    if (!found.ok) return sendError(res, ruleError('hit_file_missing'));
    const source = found.file;

    let path = source.path;
    const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPE[source.format] };
    let lastModified = true;
    if (access.hidden) {
      let clip: Clip;
      try {
        // normally cut when the card was drawn (the room asked for it), else now
        clip = await clips.clip(source, access.seconds, { game: id, draw: access.draws });
      } catch (err) {
        deps.log?.error({ err, game: id }, 'cutting a hidden clip failed');
        return sendError(res, apiError(500, 'clip_failed', 'the clip of this hit could not be made'));
      }
      path = clip.path;
      // keyed by the game and turn and the clip itself, never by the hit: clips of one hit look unrelated
      headers.ETag = `"${(await clips.digest('etag', id, access.draws, source.format, access.seconds, clip.name, clip.size, Math.trunc(clip.mtimeMs))).slice(0, 27)}"`;
      headers['Cache-Control'] = 'no-store';
      // a clip's mtime would tell when this hit was first played
      lastModified = false;
    } else {
      // `/hit` without a draw names whatever card is current: it must not be cached as this one
      headers['Cache-Control'] = current && query.draw === undefined ? 'no-store' : REVEALED_CACHE;
    }
    await sendAudio(req, res, deps, path, headers, { lastModified, context: { game: id } });
  };
  const G = GAME_AUDIO_ROUTES;
  mount(r, G.getCurrentHitAudio, ({ params, query }, req, res) => gameAudio(params, query, req, res), { before: [noStore] });
  mount(r, G.getOwnedHitAudio, ({ params, query }, req, res) => gameAudio(params, query, req, res), { before: [noStore] });

  // the hit detail page's player: catalogue editors only (see the top of this file); refusals (401, 403, 404) are not stored either
  mount(r, AUDIO_ADMIN_ROUTES.getHitAudio, async ({ params: { hitId }, query }, req, res) => {
    res.vary('Accept');
    const found = await lookupProcessed(deps, hitId, query.format ? [query.format] : negotiateFormats(req));
    if (!found.ok) {
      if (found.reason === 'no_hit') return sendError(res, HIT_ID_NOT_FOUND);
      if (found.reason === 'not_ready') return sendError(res, AUDIO_NOT_READY(found.state ?? 'none'));
      return sendError(res, ruleError('hit_file_missing'));
    }
    const headers = { 'Content-Type': CONTENT_TYPE[found.file.format], 'Cache-Control': EDITOR_CACHE };
    await sendAudio(req, res, deps, found.file.path, headers, { lastModified: true, context: { hit: hitId } });
  }, { before: [noStore] });

  return r;
}
