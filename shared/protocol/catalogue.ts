import { z } from 'zod';
import { latestHitYear } from '../rules/constants.ts';
import { cleanText, CountSchema, UuidSchema } from './common.ts';
import { HitPayloadSchema } from './game.ts';
import { HitIssueSchema } from './reports.ts';

/**
 * The hit catalogue on the wire: packs, hits, search and download progress
 * (docs/api.md#b6, #b7, #b9, #endpoints, #search, #progress).
 */

// ---------------------------------------------------------------------------
// packs

/** `POST /api/hits/packs` and `PATCH /api/hits/packs/{id}` body. */
export const PackBodySchema = z.object({
  name: cleanText(1, 100),
});

/** A pack with the number of hits in it. */
export const PackPayloadSchema = z.strictObject({
  id: UuidSchema,
  name: z.string(),
  hits: CountSchema,
});

/**
 * `GET /api/hits/packs` reply: the packs, and (Hitline's addition) `total`, the
 * number of hits in any pack, each counted once (the packs' `hits` added up
 * count a hit in two packs twice).
 */
export const PackListSchema = z.strictObject({
  packs: z.array(PackPayloadSchema),
  total: CountSchema,
});

// ---------------------------------------------------------------------------
// hits

/** A YouTube video id: 11 characters of `[A-Za-z0-9_-]`. */
export const YtIdSchema = z.string().regex(/^[A-Za-z0-9_-]{11}$/, { error: 'must be 11 characters of A-Z, a-z, 0-9, _ or -' });

/** Seconds cut from the start of the source audio; the reference server stores a u16. */
const PlaybackOffsetSchema = z.int().min(0).max(65_535);

/** A hit's video in replies: a YouTube id, or `""` for none or not shown (the reference server's client needs a string). */
const ShownYtIdSchema = z.union([YtIdSchema, z.literal('')]);

/**
 * A catalogue hit's release year: 1 up to the current year ({@link latestHitYear},
 * read when the request is checked, not when the server started). Games show
 * hits with game.ts's wider YearSchema: a hit stored before the rule stays playable.
 */
export const HitYearSchema = z
  .int()
  .min(1)
  .refine((year) => year <= latestHitYear(), { error: () => `must be at most ${latestHitYear()} (the current year)` });

/**
 * `POST /api/hits` and `PATCH /api/hits/{id}` body (a full replacement). `id`,
 * `downloaded` and `issues` of a fetched hit are dropped, as in the reference server. A hit
 * without a yt_id (null, left out, or the `""` a fetched hit has) gets its
 * audio from an upload or a demo clip.
 */
export const HitBodySchema = z.object({
  title: cleanText(1, 300),
  artist: cleanText(1, 300),
  belongs_to: cleanText(0, 300).default(''),
  year: HitYearSchema,
  packs: z
    .array(UuidSchema)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  yt_id: ShownYtIdSchema.nullish().transform((v) => (v ? v : null)),
  playback_offset: PlaybackOffsetSchema.default(0),
});

/** A hit in catalogue replies: the game view plus `downloaded` when the caller asked for it (`parts=downloaded`). */
export const CatalogueHitSchema = z.strictObject({
  ...HitPayloadSchema.shape,
  downloaded: z.boolean().optional(),
  /** `parts=issues` for a caller with read_issues: the hit's open reports, oldest first (the reference server's order). */
  issues: z.array(HitIssueSchema).optional(),
});

/** Where a hit's audio stands in the pipeline (docs/api.md#b9): `ready` means playable in `audio` clue mode. */
export const AUDIO_STATES = ['none', 'queued', 'fetching', 'processing', 'ready', 'failed'] as const;
export type AudioState = (typeof AUDIO_STATES)[number];
export const AudioStateSchema = z.enum(AUDIO_STATES);

/**
 * `GET /api/hits/{id}` and `POST /api/hits` reply: everything an editor needs
 * and (Hitline's addition, absent in the reference server) the audio state. yt_id and
 * playback_offset are the hit's only for a caller with write_hits; anybody
 * else gets `""` and 0 (as for a hit without a video).
 */
export const FullHitPayloadSchema = z.strictObject({
  ...CatalogueHitSchema.shape,
  yt_id: ShownYtIdSchema,
  playback_offset: PlaybackOffsetSchema,
  audio: AudioStateSchema.optional(),
});

/**
 * `parts` of `GET /api/hits/search` and `GET /api/hits/{id}` (repeatable): `downloaded`
 * adds whether the audio is ready, `issues` the open reports (read_issues only). Unknown parts are
 * ignored, like unknown sort keys.
 */
export const HitPartsSchema = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.unknown()).transform((parts) => ({ downloaded: parts.includes('downloaded'), issues: parts.includes('issues') })),
);

// ---------------------------------------------------------------------------
// search

/** The sort keys of the search, in the default order (the client's default: title → artist → belongs_to → year). */
export const SORT_KEYS = ['title', 'artist', 'belongs_to', 'year'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
const isSortKey = (v: unknown): v is SortKey => SORT_KEYS.includes(v as SortKey);

/** Query strings repeat a key for lists (`?packs=a&packs=b`); one occurrence arrives as a plain string. */
const asList = (v: unknown): unknown => (v === undefined || Array.isArray(v) ? v : [v]);
/** For single-valued keys given twice, the last occurrence wins (as URLSearchParams.set would leave it). */
const lastOf = (v: unknown): unknown => (Array.isArray(v) ? v.at(-1) : v);

/** A positive whole number from a query string ("12") or a number (when built in code). */
function queryInt(min: number, max: number, fallback: number) {
  return z.preprocess((v) => {
    const one = lastOf(v);
    return typeof one === 'string' && /^[+-]?\d+$/.test(one.trim()) ? Number(one) : one;
  }, z.int().min(min).max(max).default(fallback));
}

/**
 * `GET /api/hits/search` query (also the export's filter). Lenient where the reference server's
 * client relies on it (unknown sort keys dropped, unknown direction = ascending,
 * unknown query keys ignored), strict where a wrong value would silently change
 * the answer (`start` 0, `amount` over 1000, a malformed pack id: 400).
 * `packs`: absent = no filter; several = a hit in any of them (OR); "" = hits
 * without packs. `filters=has_issues`: hits with open reports (read_issues only).
 */
export const HitSearchQuerySchema = z.object({
  query: z.preprocess(lastOf, z.string().max(256).default('')),
  start: queryInt(1, Number.MAX_SAFE_INTEGER, 1),
  amount: queryInt(1, 1000, 50),
  sort_by: z.preprocess(
    asList,
    z
      .array(z.unknown())
      .default([])
      .transform((keys): SortKey[] => {
        const known = [...new Set(keys.filter(isSortKey))];
        return known.length > 0 ? known : [...SORT_KEYS];
      }),
  ),
  sort_direction: z.preprocess(
    lastOf,
    z.unknown().transform((v): 'ascending' | 'descending' => (v === 'descending' ? 'descending' : 'ascending')),
  ),
  packs: z.preprocess(
    asList,
    z.array(z.union([z.literal(''), UuidSchema], { error: 'must be a pack id (UUID), or empty for "no pack"' })).optional(),
  ),
  /**
   * Repeatable: `has_issues` keeps the hits with at least one open report (read_issues
   * only: silently ignored for anybody else). Unknown filters are ignored.
   */
  filters: z.preprocess(
    asList,
    z
      .array(z.unknown())
      .default([])
      .transform((f) => ({ has_issues: f.includes('has_issues') })),
  ),
});

/** `GET /api/hits/playable` query: a pack selection (`packs`, repeatable, as the search's); absent = every pack. */
export const PlayableQuerySchema = z.object({
  packs: z.preprocess(asList, z.array(UuidSchema, { error: 'must be a list of pack ids (UUIDs)' }).max(1000)).optional(),
});

/**
 * `GET /api/hits/playable` reply: how many hits of the selection a game can deal,
 * each hit once: `hits` with cards, `audio` with audio (its audio is ready),
 * `youtube` by a DJ from YouTube (it has a YouTube id).
 */
export const PlayableCountsSchema = z.strictObject({
  hits: CountSchema,
  audio: CountSchema,
  youtube: CountSchema,
});

/** A page of results: `start` is the 1-based echo of the request, `end` = start + returned − 1, `total` counts before paging. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.strictObject({
    results: z.array(item),
    total: CountSchema,
    start: z.int().min(1),
    end: CountSchema,
  });
}

/** `GET /api/hits/search` reply. */
export const HitSearchReplySchema = paginated(CatalogueHitSchema);

/**
 * Audio pipeline progress (`process_hits`): hits ready to play, jobs queued or
 * running per step, hits whose audio failed, hits without audio that nothing
 * prepares (played as cards), and whether the server downloads from YouTube.
 */
export const ProcessHitsSchema = z.strictObject({
  available: CountSchema,
  downloading: CountSchema,
  processing: CountSchema,
  failed: CountSchema,
  cards: CountSchema,
  youtube: z.boolean(),
});

// ---------------------------------------------------------------------------
// import (docs/api.md#b8)

const FileProblemSchema = z.strictObject({ line: z.int().min(1).optional(), column: z.int().min(1).optional(), message: z.string() });
const RejectedRowSchema = z.strictObject({
  index: CountSchema,
  line: CountSchema,
  id: z.string().optional(),
  label: z.string().optional(),
  reasons: z.array(z.string()).min(1),
});
const FieldChangeSchema = z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() });
const AddedHitSchema = z.strictObject({ index: CountSchema, line: CountSchema, id: z.string(), artist: z.string(), title: z.string(), year: z.int() });
const ChangedHitSchema = z.strictObject({
  ...AddedHitSchema.shape,
  matched_by: z.enum(['id', 'yt_id']),
  file_id: z.string().optional(),
  changes: z.array(FieldChangeSchema).min(1),
});
const AddedPackSchema = z.strictObject({ index: CountSchema, line: CountSchema, id: z.string(), name: z.string() });
const ChangedPackSchema = z.strictObject({
  ...AddedPackSchema.shape,
  matched_by: z.enum(['id', 'name']),
  file_id: z.string().optional(),
  changes: z.array(FieldChangeSchema).min(1),
});
const DiffCountsSchema = z.strictObject({ added: CountSchema, changed: CountSchema, unchanged: CountSchema, rejected: CountSchema });

/**
 * The import report (`POST /api/hits/import`, the CLI's import, the start-up
 * load; the importer in server/services/catalogue-yaml/ builds it): the dry-run
 * diff, or what an apply wrote. `ok` = no file error and no rejected row, so the
 * file can be applied. Row lists stop at MAX_REPORTED_ROWS entries
 * (`truncated`); `summary` always has the exact counts. `index` is 0-based in
 * its list, `line` 1-based in the file.
 */
export const ImportReportSchema = z.strictObject({
  ok: z.boolean(),
  applied: z.boolean(),
  message: z.string(),
  errors: z.array(FileProblemSchema),
  summary: z.strictObject({ hits: DiffCountsSchema, packs: DiffCountsSchema }),
  hits: z.strictObject({ added: z.array(AddedHitSchema), changed: z.array(ChangedHitSchema), unchanged: CountSchema, rejected: z.array(RejectedRowSchema) }),
  packs: z.strictObject({ added: z.array(AddedPackSchema), changed: z.array(ChangedPackSchema), unchanged: CountSchema, rejected: z.array(RejectedRowSchema) }),
  truncated: z.boolean(),
});

/** A hex SHA-256. */
const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a SHA-256 in hex (64 characters 0-9, a-f)' });

/**
 * `POST /api/hits/import-url`: the catalogue's address (http or https); with
 * `sha256` (the dry run's `source.sha256`), an apply writes only the bytes that
 * dry run showed.
 */
export const ImportAddressBodySchema = z.object({
  url: z.string().trim().min(1, { error: 'is required' }).max(2048, { error: 'must be at most 2048 characters long' }),
  sha256: Sha256Schema.optional(),
});

/** Error codes of `POST /api/hits/import-url` beyond every route's own: why the address gave no catalogue to check. */
export const ADDRESS_IMPORT_ERROR_CODES = ['address_invalid', 'address_scheme', 'address_refused', 'fetch_failed', 'fetch_timeout', 'body_too_large', 'not_a_catalogue', 'import_source_changed'] as const;

/** The report of an import by address: the file import's, and where the file came from. */
export const AddressImportReportSchema = ImportReportSchema.extend({
  source: z.strictObject({
    /** The address the file came from, after redirects. */
    url: z.string(),
    sha256: Sha256Schema,
    bytes: CountSchema,
  }),
});

// ---------------------------------------------------------------------------
// audio pipeline status (docs/api.md#b9)

/**
 * What the hit-download status page reads of `GET /api/hits/audio/status`.
 * server/http/audio-admin.ts owns the reply's full, strict schema (for the API
 * reference); this one is deliberately open (`z.object`), so the server can add
 * fields without breaking a client already loaded in a browser.
 */
/** Why a hit's audio failed, in a word (the server classifies its reason; the status page says it in the reader's language). */
export const FAILURE_CAUSES = ['no_ytdlp', 'unavailable', 'country', 'age', 'network', 'too_long', 'other'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export const AudioStatusViewSchema = z.object({
  available: CountSchema,
  downloading: CountSchema,
  processing: CountSchema,
  states: z.object({ none: CountSchema, queued: CountSchema, fetching: CountSchema, processing: CountSchema, ready: CountSchema, failed: CountSchema }),
  sources: z.object({ youtube: z.object({ enabled: z.boolean(), reason: z.string().optional() }) }),
  failures: z.array(
    z.object({
      id: UuidSchema,
      title: z.string(),
      artist: z.string(),
      source: z.string(),
      reason: z.string(),
      // an unknown cause (a newer server's) reads as "other"
      cause: z.enum(FAILURE_CAUSES).catch('other'),
      attempts: CountSchema,
      failed_at: z.string(),
    }),
  ),
});

/** `POST /api/hits/{id}/audio` and `…/audio/retry` (202): the audio state the hit went to. */
export const AudioQueuedViewSchema = z.object({ message: z.string(), audio_state: z.string() });

export type PackBody = z.infer<typeof PackBodySchema>;
export type PackPayload = z.infer<typeof PackPayloadSchema>;
export type PackList = z.infer<typeof PackListSchema>;
export type HitBody = z.output<typeof HitBodySchema>;
export type HitBodyInput = z.input<typeof HitBodySchema>;
export type CatalogueHit = z.infer<typeof CatalogueHitSchema>;
export type FullHitPayload = z.infer<typeof FullHitPayloadSchema>;
export type HitSearchQuery = z.output<typeof HitSearchQuerySchema>;
export type HitSearchReply = z.infer<typeof HitSearchReplySchema>;
export type PlayableCounts = z.infer<typeof PlayableCountsSchema>;
export type ProcessHits = z.infer<typeof ProcessHitsSchema>;
export type HitParts = z.output<typeof HitPartsSchema>;
export type ImportReportPayload = z.infer<typeof ImportReportSchema>;
/** A problem with an imported file as a whole (size, encoding, YAML structure): nothing is read when there is one. */
export type ImportFileProblem = z.infer<typeof FileProblemSchema>;
/** A row of an imported file that cannot be imported, and every reason why; `id` and `label` when readable, to find the row. */
export type RejectedRow = z.infer<typeof RejectedRowSchema>;
/** One field of a changed row: its value in the database and in the file. */
export type FieldChange = z.infer<typeof FieldChangeSchema>;
export type AddedHit = z.infer<typeof AddedHitSchema>;
/** A hit an import changes: `id` is the database's; `file_id` the file's when it differs (matched by yt_id). */
export type ChangedHit = z.infer<typeof ChangedHitSchema>;
export type AddedPack = z.infer<typeof AddedPackSchema>;
export type ChangedPack = z.infer<typeof ChangedPackSchema>;
/** Exact counts of one list of an import report. */
export type DiffCounts = z.infer<typeof DiffCountsSchema>;
export type AddressImportReportPayload = z.infer<typeof AddressImportReportSchema>;
export type ImportAddressBody = z.input<typeof ImportAddressBodySchema>;
export type AudioStatusView = z.infer<typeof AudioStatusViewSchema>;
