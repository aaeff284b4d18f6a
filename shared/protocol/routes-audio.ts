import { z } from 'zod';
import { FAILURE_CAUSES } from './catalogue.ts';
import { CountSchema, GameIdSchema, UuidSchema } from './common.ts';
import { badUuid, httpError as err, rule, rules, type RouteSpec } from './routes.ts';
import { CATALOGUE_HTTP_ERRORS, hitParam } from './routes-catalogue.ts';

/** The audio pipeline's endpoints for catalogue editors (write_hits, docs/api.md#b9): status, upload, retry. */

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

export const AUDIO_HTTP_ERRORS = {
  /** 415 for an upload without an audio content type. */
  notAudioType: err(415, 'unsupported_media_type', 'the body must be an audio file with an audio content type (e.g. audio/mpeg)'),
  /** 400 for an upload without bytes. */
  audioEmpty: err(400, 'empty_body', 'the audio file is empty'),
  /** 404 for an unknown hit. */
  hitNotFound: err(404, 'hit_not_found', 'hit not found'),
} as const;

/** How every audio route serves its file (server/http/audio.ts `sendAudio`). */
export const AUDIO_SERVING =
  'Opus (`audio/ogg; codecs=opus`) or MP3 (`audio/mpeg`) by the `Accept` header (Opus on ties; `Vary: Accept`), `?format=` overrides it. ' +
  'Byte ranges (206, `Accept-Ranges: bytes`; several ranges → the whole file; a malformed `bytes=` range is ignored; a range selecting nothing → 416 with `Content-Range: bytes */<size>`), `HEAD`, `ETag` with `If-None-Match` (304) and `If-Range`. No tags in the files.';

/** `?format=` of every audio route: overrides `Accept`. */
export const FormatSchema = z.enum(['opus', 'mp3'], { error: 'must be opus or mp3' }).optional();

/** The answers of a file served with ranges and conditions, besides the file. */
export const SERVED_FILE_ERRORS = [
  { status: 412, code: 'precondition_failed', message: 'the file does not match the If-Match or If-Unmodified-Since condition' },
  { status: 416, code: 'range_not_satisfiable', message: 'the requested range is outside the file (<size> bytes)' },
] as const;

/** The query of a game's audio: the turn it is for, and the format. */
export const AudioQuerySchema = z.object({
  draw: z
    .string()
    .regex(/^\d{1,15}$/, { error: "must be the game's draws counter (a whole number)" })
    .transform(Number)
    .optional(),
  format: FormatSchema,
});

const WRITE_HITS = { permission: ['write_hits'] } as const;

const gameParam = z.object({ id: GameIdSchema.meta({ description: 'The game id: 8 letters or digits.', example: 'AbCd1234' }) });
const formatDoc = FormatSchema.meta({ description: 'Overrides `Accept`. Browsers send `Accept: */*` for media: a client that cannot play Ogg Opus (`canPlayType`) asks for `mp3`.' });
const AUDIO_FILE = {
  description: 'The audio: a hidden clip or a whole processed file.',
  media: ['audio/ogg; codecs=opus', 'audio/mpeg'],
  more: { 206: 'A byte range (`Range` request), with `Content-Range`.', 304: 'Not modified (`If-None-Match` matched the `ETag`).' },
} as const;
const LOCAL_ONLY = 'Local games exist for their creator only.';

/** The audio of a running game (server/http/audio.ts). */
export const GAME_AUDIO_ROUTES = {
  getCurrentHitAudio: {
    id: 'getCurrentHitAudio',
    method: 'get',
    path: '/api/games/{id}/hit',
    tag: ['audio', 'games'],
    summary: 'Audio of the current hit',
    description: `The mystery hit as a clip of at most the game's \`hit_duration\` seconds, \`Cache-Control: no-store\`, for anyone who can see the game but only for its players in Private games; nothing in its URL, headers (the ETag is keyed by game and draw) or bytes names the hit. While Confirming, the whole revealed file (immutable with \`draw\`, \`no-store\` without). ${LOCAL_ONLY}\n\n${AUDIO_SERVING}`,
    access: 'optional',
    params: gameParam,
    query: AudioQuerySchema,
    queryDoc: z.object({
      draw: z.string().optional().meta({
        description:
          "The game's `draws` (in every game payload and the room state): names the turn, so the clip's URL changes every turn; any other number → 409 `stale_clip`. While Confirming it pins the revealed card (the answer may then be cached). Without it (the reference server clients add `?key=<random>`, which is ignored) the current card is served, never cached.",
        example: '7',
      }),
      format: formatDoc,
    }),
    reply: { status: 200, ...AUDIO_FILE },
    invalid: { what: 'The game id, `draw` or `format`', example: "query.draw: must be the game's draws counter (a whole number)" },
    errors: [
      ...rules('audio_not_running', 'no_hit', 'audio_members_only', 'no_audio_card_mode', 'no_audio_dj_mode'),
      { status: 409, code: 'stale_clip', message: "this clip's turn is over: the game is at draw <draws>, ask for ?draw=<draws>" },
      ...rules('hit_file_missing', 'game_not_found'),
      ...SERVED_FILE_ERRORS,
    ],
  },
  getOwnedHitAudio: {
    id: 'getOwnedHitAudio',
    method: 'get',
    path: '/api/games/{id}/hit/{hit}',
    tag: ['audio', 'games'],
    summary: 'Audio of a hit on a timeline',
    description: `Any hit a player of this game owns, or the one being confirmed: the whole processed file, \`Cache-Control: public, max-age=31536000, immutable\`. ${LOCAL_ONLY}\n\n${AUDIO_SERVING}`,
    access: 'optional',
    // the route names its hit parameter `hit` (and so do its 400 messages)
    params: z.object({ ...gameParam.shape, hit: UuidSchema.meta({ description: 'The hit id.' }) }),
    query: AudioQuerySchema,
    queryDoc: z.object({ format: formatDoc }),
    reply: { status: 200, ...AUDIO_FILE },
    invalid: { what: 'The game id, hit id or a query parameter', example: badUuid('hit') },
    errors: [...rules('audio_not_running', 'hit_not_revealed', 'hit_file_missing', 'game_not_found'), ...SERVED_FILE_ERRORS],
  },
} as const satisfies Record<string, RouteSpec>;
const E = AUDIO_HTTP_ERRORS;

export const AUDIO_ADMIN_ROUTES = {
  getAudioStatus: {
    id: 'getAudioStatus',
    method: 'get',
    path: '/api/hits/audio/status',
    tag: ['audio', 'catalogue'],
    summary: 'Audio pipeline status',
    description: 'Needs the write_hits permission. The `process_hits` counts, hits per audio state, which sources are on, and every failed hit with its reason and attempts. `Cache-Control: no-store`.',
    access: WRITE_HITS,
    reply: { status: 200, schema: AudioStatusSchema, description: 'The status.' },
    errors: [],
  },
  getHitAudio: {
    id: 'getHitAudio',
    method: 'get',
    path: '/api/hits/{hitId}/audio',
    tag: ['audio', 'catalogue'],
    summary: "A hit's processed audio",
    description:
      "Needs the write_hits permission: the hit editor's player. Players never get a hit's audio by its id (with every hit's sound and the public catalogue, a hidden clip could be looked up); in a game they hear it through `/api/games/{id}/hit`. " +
      "The whole processed file (loudness-normalised, from `playback_offset`, no tags) once the hit's `audio` is `ready`; `Cache-Control: private, no-cache` (revalidated by `ETag`: a new offset re-processes the file under the same URL).\n\n" +
      AUDIO_SERVING,
    access: WRITE_HITS,
    params: hitParam,
    query: z.object({ format: FormatSchema.meta({ description: 'Overrides `Accept`: `opus` or `mp3`.' }) }),
    reply: {
      status: 200,
      description: 'The processed file.',
      media: ['audio/ogg; codecs=opus', 'audio/mpeg'],
      more: { 206: 'A byte range (`Range` request), with `Content-Range`.', 304: 'Not modified (`If-None-Match` matched the `ETag`).' },
    },
    invalid: { what: 'The hit id or `format`', example: badUuid('hitId') },
    errors: [
      CATALOGUE_HTTP_ERRORS.hitIdNotFound,
      { status: 404, code: 'audio_not_ready', message: 'this hit has no processed audio (its audio is <state>)', example: 'this hit has no processed audio (its audio is processing)' },
      rule('hit_file_missing'),
      ...SERVED_FILE_ERRORS,
    ],
  },
  // before the upload's `/hits/{hitId}/audio`: the longer path first
  retryHitAudio: {
    id: 'retryHitAudio',
    method: 'post',
    path: '/api/hits/{hitId}/audio/retry',
    tag: ['audio', 'catalogue'],
    summary: "Retry a hit's failed audio",
    description: 'Needs the write_hits permission. Queues a failed hit again from its source, attempts counted from zero.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: hitParam,
    reply: { status: 202, schema: AudioQueuedSchema, description: 'Queued again.' },
    invalid: { what: 'The hit id', example: badUuid('hitId') },
    errors: [
      E.hitNotFound,
      { status: 409, code: 'audio_not_failed', message: 'only a hit whose audio failed can be retried (this one is <state>)', example: 'only a hit whose audio failed can be retried (this one is ready)' },
      { status: 409, code: 'no_audio_source', message: 'the hit has no audio source: upload a file or set a YouTube id' },
    ],
  },
  uploadHitAudio: {
    id: 'uploadHitAudio',
    method: 'post',
    path: '/api/hits/{hitId}/audio',
    tag: ['audio', 'catalogue'],
    summary: "Upload a hit's audio",
    description:
      "Needs the write_hits permission. The body is the audio file itself with its audio content type (`audio/mpeg`, `audio/ogg`, `audio/flac`, `audio/wav`, `audio/mp4`, …), at most AUDIO_UPLOAD_MAX_MB (default 50 MB). It is checked at once (audio? at most 30 min?), kept as the hit's source and queued: the answer comes before the processing (loudness-normalised Opus and MP3 from `playback_offset`, no tags), which `process_hits` and the status report.",
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: hitParam,
    body: { schema: z.string().meta({ format: 'binary' }), required: true, media: ['audio/*'] },
    reply: { status: 202, schema: AudioQueuedSchema, description: 'Queued for processing.' },
    invalid: { what: 'The hit id', example: badUuid('hitId') },
    errors: [
      E.audioEmpty,
      { status: 400, code: 'not_audio', message: 'the file is not audio (the message says why)', example: 'not an audio file (it has no audio stream)' },
      { status: 400, code: 'audio_too_long', message: 'the audio is longer than 30 minutes', example: 'the audio is too long (2 h 0 min; the limit is 30 min)' },
      E.hitNotFound,
      { status: 413, code: 'body_too_large', message: 'the audio file is too large: at most <AUDIO_UPLOAD_MAX_MB> MB', example: 'the audio file is too large: at most 50 MB' },
      E.notAudioType,
    ],
  },
} as const satisfies Record<string, RouteSpec>;
