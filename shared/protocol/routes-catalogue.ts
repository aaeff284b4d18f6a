import { z } from 'zod';
import { INVALID_INPUT_CODE, UuidSchema } from './common.ts';
import {
  AddressImportReportSchema,
  FullHitPayloadSchema,
  HitBodySchema,
  HitSearchQuerySchema,
  HitSearchReplySchema,
  ImportAddressBodySchema,
  ImportReportSchema,
  PackBodySchema,
  PackListSchema,
  PackPayloadSchema,
  PlayableCountsSchema,
  PlayableQuerySchema,
} from './catalogue.ts';
import { AcceptBodySchema, DismissBodySchema, HitHistorySchema, HitIssueSchema, IssueBodySchema, ProblemBodySchema, ReviewQueueSchema } from './reports.ts';
import { badUuid, HTTP_ERRORS, httpError as err, invalidInput, type HttpError, type RouteSpec } from './routes.ts';

/** The catalogue (docs/api.md#endpoints, #b4, #b6, #b7): packs, search, single hits, and its import and export (#b8). */

export const CATALOGUE_HTTP_ERRORS = {
  /** 409: another pack has that name (ignoring case). */
  packNameTaken: err(409, 'pack_name_taken', 'a pack with that name already exists'),
  /** 404 of a rename (the reference server words the rename's and the delete's differently). */
  packRenameNotFound: err(404, 'pack_not_found', "a pack with that id doesn't exist"),
  /** 404 of a pack delete. */
  packNotFound: err(404, 'pack_not_found', 'pack not found'),
  /** 404 of a hit read (the reference server: a read says "hit id not found", an edit or delete "hit not found"). */
  hitIdNotFound: err(404, 'hit_not_found', 'hit id not found'),
  /** 404 of a hit edit or delete. */
  hitNotFound: err(404, 'hit_not_found', 'hit not found'),
  /** 409: another hit has that yt_id. */
  ytIdTaken: err(409, 'yt_id_taken', 'a hit for that YouTube ID already exists'),
  /** 415: the import body is not YAML text. */
  notYaml: err(415, 'unsupported_media_type', 'send the hits.yml text as the request body, with Content-Type application/x-yaml or text/yaml'),
  /** 400: an import without a body. */
  emptyBody: err(400, 'empty_body', 'the request body is empty: send the hits.yml text'),
  /** 400: `?apply=` neither true nor false. */
  badApply: err(400, INVALID_INPUT_CODE, 'apply must be true or false'),
  /** 409: the apply's `sha256` is not that of the bytes the address gives now. */
  sourceChanged: err(409, 'import_source_changed', 'the file at the address changed since the dry run: check it again before applying'),
} as const;

/** 400 of an apply that wrote nothing; the body carries the whole report besides type, code and message. */
export const IMPORT_REJECTED_CODE = 'import_rejected';
/** 413 of an oversize upload (the message names the size and the limit). */
export const FILE_TOO_LARGE_CODE = 'body_too_large';

/** Error codes of an import by address (the HTTP route answers them; the CLI prints the message). */
export const REMOTE_CODES = {
  invalid: 'address_invalid',
  scheme: 'address_scheme',
  refused: 'address_refused',
  failed: 'fetch_failed',
  timeout: 'fetch_timeout',
  tooLarge: FILE_TOO_LARGE_CODE,
  notYaml: 'not_a_catalogue',
} as const;

/** Most redirects an import by address follows. */
export const MAX_REDIRECTS = 5;

/**
 * `?apply=` of an import: absent, empty, "false" or "0" = dry run; "true" or "1" =
 * apply; anything else is refused (a repeated key: its last value).
 */
const ApplyFlagSchema = z
  .preprocess((v) => (Array.isArray(v) ? v.at(-1) : v), z.enum(['', 'false', '0', 'true', '1'], { error: 'must be true or false' }).optional())
  .transform((v) => v === 'true' || v === '1');
const applyQuery = {
  query: z.object({ apply: ApplyFlagSchema }),
  queryDoc: z.object({ apply: z.enum(['true', 'false', '1', '0']).optional().meta({ description: '`true` writes the changes; absent or `false` is a dry run.' }) }),
};

/** 400 of a hit write naming a pack that does not exist (its index in `packs`). */
export const unknownPack = (index: number): HttpError => err(400, INVALID_INPUT_CODE, `packs[${index}] must be the id of an existing pack`);

export const hitParam = z.object({ hitId: UuidSchema.meta({ description: 'The hit id.' }) });
const packParam = z.object({ packId: UuidSchema.meta({ description: 'The pack id.' }) });

const E = CATALOGUE_HTTP_ERRORS;

export const SORT_DIRECTION_DOC = 'Anything but `descending` means ascending.';
const UNKNOWN_PACK = invalidInput('The body', 'packs[1] must be the id of an existing pack');
const WRITE_HITS = { permission: ['write_hits'] } as const;
const issueParam = z.object({ ...hitParam.shape, issueId: UuidSchema.meta({ description: 'The report (issue) id.' }) });
const ISSUE_NOT_FOUND = err(404, 'issue_not_found', 'issue not found');
const WRITE_PACKS = { permission: ['write_packs'] } as const;

export const CATALOGUE_ROUTES = {
  listPacks: {
    id: 'listPacks',
    method: 'get',
    path: '/api/hits/packs',
    tag: 'catalogue',
    summary: 'Packs',
    access: 'public',
    reply: { status: 200, schema: PackListSchema, description: 'Every pack with its number of hits, and `total`: the hits in any pack, each counted once.' },
    errors: [],
  },
  createPack: {
    id: 'createPack',
    method: 'post',
    path: '/api/hits/packs',
    tag: 'catalogue',
    summary: 'Create a pack',
    description: 'Needs the write_packs permission. Answers 200 (not 201), as in the reference server. Names are unique ignoring case. Sends `hits_changed`.',
    access: WRITE_PACKS,
    rateLimit: 'writes',
    body: { schema: PackBodySchema, required: true },
    reply: { status: 200, schema: PackPayloadSchema, description: 'The new pack (`hits: 0`).' },
    invalid: { what: 'The body', example: 'name must not be empty' },
    errors: [E.packNameTaken],
  },
  renamePack: {
    id: 'renamePack',
    method: 'patch',
    path: '/api/hits/packs/{packId}',
    tag: 'catalogue',
    summary: 'Rename a pack',
    description: "Needs the write_packs permission. Refuses another pack's name (ignoring case; the reference server did not check). Sends `hits_changed`.",
    access: WRITE_PACKS,
    rateLimit: 'writes',
    params: packParam,
    body: { schema: PackBodySchema, required: true },
    reply: { status: 200, message: 'pack updated successfully' },
    invalid: { what: 'The pack id or body', example: 'name must not be empty' },
    errors: [E.packRenameNotFound, E.packNameTaken],
  },
  deletePack: {
    id: 'deletePack',
    method: 'delete',
    path: '/api/hits/packs/{packId}',
    tag: 'catalogue',
    summary: 'Delete a pack',
    description: 'Needs the write_packs permission. Its hits stay, without this pack. Sends `hits_changed`.',
    access: WRITE_PACKS,
    rateLimit: 'writes',
    params: packParam,
    reply: { status: 200, message: 'pack deleted successfully' },
    invalid: { what: 'The pack id', example: badUuid('packId') },
    errors: [E.packNotFound],
  },
  searchHits: {
    id: 'searchHits',
    method: 'get',
    path: '/api/hits/search',
    tag: 'catalogue',
    summary: 'Search the catalogue',
    description: [
      'Every hit is listed, whether its audio is ready or not. The order is total and repeatable: the `sort_by` keys, then the keys left out in the default order (title, artist, belongs_to, year), then the id; text ignores case (A–Z). `sort_direction` reverses all of it.',
      'With a `query` and no `sort_by` parameter at all, the order is by relevance: first the hits where every word matched a whole word (or one typo away), then those where some word only matched the start of a longer one; within each, best bm25 first (title and artist count double), ties in the default order. A part with more than 3,000 hits is listed in the default order instead.',
      'The reference server\'s name `pack` is accepted for `packs`; `parts=downloaded` adds `downloaded` to each hit. For a caller with read_issues, `parts=issues` adds each hit\'s open reports (oldest first) and `filters=has_issues` keeps only hits with at least one open report; both are silently left out for anybody else (docs/disputes.md#reports).',
    ].join('\n\n'),
    access: 'optional',
    rateLimit: 'search',
    query: HitSearchQuerySchema,
    // `sort_direction` accepts anything (even nothing), which zod reports as a required unknown
    queryDoc: z.object({ ...HitSearchQuerySchema.shape, sort_direction: HitSearchQuerySchema.shape.sort_direction.optional().meta({ description: SORT_DIRECTION_DOC }) }),
    reply: { status: 200, schema: HitSearchReplySchema, description: 'A page of matching hits (past the end: no results, with the total).' },
    invalid: { what: 'A query parameter', example: 'amount must be at most 1000' },
    errors: [],
  },
  playableHits: {
    id: 'playableHits',
    method: 'get',
    path: '/api/hits/playable',
    tag: 'catalogue',
    summary: 'How many hits of a pack selection can be played',
    description:
      'The hits of the chosen packs a game can deal with cards (`hits`: all of them) and with audio (`audio`: those whose audio is ready), each hit once. A game whose clue mode is automatic (`clue_mode_auto`) starts with audio when `audio` reaches players × goal × 2 (the figure of "not enough hits"), else with cards. Unknown pack ids count nothing. `Cache-Control: no-cache`.',
    access: 'optional',
    rateLimit: 'search',
    query: PlayableQuerySchema,
    reply: { status: 200, schema: PlayableCountsSchema, description: 'The counts.' },
    invalid: { what: 'A query parameter', example: 'packs[0] must be a list of pack ids (UUIDs)' },
    errors: [],
  },
  getHit: {
    id: 'getHit',
    method: 'get',
    path: '/api/hits/{hitId}',
    tag: 'catalogue',
    summary: 'A hit, for the detail page and the editor',
    description:
      'With its audio state (`audio`), and for a caller with write_hits its YouTube id and offset; anybody else gets `yt_id` `""` and `playback_offset` 0 (the same shape). `Cache-Control: private, no-cache`. Query `parts=downloaded` adds `downloaded`.',
    access: 'optional',
    params: hitParam,
    reply: { status: 200, schema: FullHitPayloadSchema, description: 'The hit; YouTube id and offset for write_hits callers only.' },
    invalid: { what: 'The hit id', example: badUuid('hitId') },
    errors: [E.hitIdNotFound],
  },
  createHit: {
    id: 'createHit',
    method: 'post',
    path: '/api/hits',
    tag: 'catalogue',
    summary: 'Create a hit',
    description: 'Needs the write_hits permission. Answers 200 (not 201), as in the reference server. The packs must exist; the yt_id must be unused. Sends `hits_changed`.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    body: { schema: HitBodySchema, required: true },
    reply: { status: 200, schema: FullHitPayloadSchema, description: 'The new hit with its id.' },
    invalid: { what: 'The body', example: 'yt_id must be 11 characters of A-Z, a-z, 0-9, _ or -' },
    errors: [UNKNOWN_PACK, E.ytIdTaken],
  },
  updateHit: {
    id: 'updateHit',
    method: 'patch',
    path: '/api/hits/{hitId}',
    tag: 'catalogue',
    summary: 'Replace a hit',
    description:
      'Needs the write_hits permission. A full replacement (fields left out take their defaults); a new yt_id or offset sets the audio state back to `none`. The packs must exist; the yt_id must not be another hit\'s. Sends `hits_changed`.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: hitParam,
    body: { schema: HitBodySchema, required: true },
    reply: { status: 200, message: 'hit updated successfully' },
    invalid: { what: 'The hit id or body', example: 'year must be at least 1' },
    errors: [UNKNOWN_PACK, E.hitNotFound, E.ytIdTaken],
  },
  deleteHit: {
    id: 'deleteHit',
    method: 'delete',
    path: '/api/hits/{hitId}',
    tag: 'catalogue',
    summary: 'Delete a hit',
    description: 'Needs the write_hits permission. Running games keep their copy. Sends `hits_changed`.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: hitParam,
    reply: { status: 200, message: 'hit deleted successfully' },
    invalid: { what: 'The hit id', example: badUuid('hitId') },
    errors: [E.hitNotFound],
  },
  reportHitIssue: {
    id: 'reportHitIssue',
    method: 'post',
    path: '/api/hits/{hitId}/issues',
    tag: 'catalogue',
    summary: 'Report a problem with a hit (the reference API)',
    description:
      'Needs the write_issues permission (every user has it, guests included) and a solved ALTCHA challenge (`GET /api/altcha`), as the registration does. Body `{"message": string, "altcha_token": string}`; Hitline\'s clients may add `kind` (wrong_year, wrong_song, bad_audio, other) and a proposed `year`. The message is trimmed and must not be empty. Checks in the reference server\'s order: permission, captcha, message, hit. Answers the new report and sends `create_hit_issue` to read_issues subscribers (docs/disputes.md#reports).',
    access: { permission: ['write_issues'] },
    rateLimit: 'writes',
    params: hitParam,
    body: { schema: IssueBodySchema, required: true },
    reply: { status: 200, schema: HitIssueSchema, description: 'The new report (`type: "custom"`).' },
    invalid: { what: 'The hit id or body', example: 'message must be at most 2000 characters' },
    errors: [
      err(403, 'captcha_failed', 'altcha solution incorrect'),
      err(400, 'issue_message_required', 'issue message is required'),
      HTTP_ERRORS.malformedJson,
      HTTP_ERRORS.unsupportedMediaType,
      E.hitNotFound,
    ],
  },
  deleteHitIssue: {
    id: 'deleteHitIssue',
    method: 'delete',
    path: '/api/hits/{hitId}/issues/{issueId}',
    tag: 'catalogue',
    summary: 'Delete a report',
    description: 'Needs the delete_issues permission. The report is gone (an accepted or dismissed one stays in the hit\'s history: resolve it instead, `accept`/`dismiss`). Sends `delete_hit_issue`.',
    access: { permission: ['delete_issues'] },
    rateLimit: 'writes',
    params: issueParam,
    reply: { status: 200, message: 'issue deleted successfully' },
    invalid: { what: 'An id', example: badUuid('issueId') },
    errors: [ISSUE_NOT_FOUND],
  },
  reportProblem: {
    id: 'reportProblem',
    method: 'post',
    path: '/api/hits/{hitId}/reports',
    tag: 'catalogue',
    summary: 'Report a problem from a hit\'s page',
    description:
      'Any signed-in user with write_issues (guests included), without a captcha but rate-limited per user (5 reports in 10 minutes): `kind` wrong_year (with the `year` it should be), wrong_song, bad_audio or other, and what is wrong. Lands in the review queue like every report; sends `create_hit_issue`.',
    access: { permission: ['write_issues'] },
    rateLimit: 'reports',
    retryAfter: true,
    params: hitParam,
    body: { schema: ProblemBodySchema, required: true },
    reply: { status: 200, schema: HitIssueSchema, description: 'The new report.' },
    invalid: { what: 'The hit id or body', example: 'year is required for a wrong year' },
    errors: [E.hitNotFound],
  },
  getHitHistory: {
    id: 'getHitHistory',
    method: 'get',
    path: '/api/hits/{hitId}/history',
    tag: 'catalogue',
    summary: 'A hit\'s year history and reports',
    description: 'Anybody: the year changes (from, to, who, why), oldest first; the reports of every status, newest first, are listed for a caller with read_issues or write_hits (others get an empty list).',
    access: 'optional',
    rateLimit: 'search',
    params: hitParam,
    reply: { status: 200, schema: HitHistorySchema, description: 'The history.' },
    invalid: { what: 'The hit id', example: badUuid('hitId') },
    errors: [E.hitIdNotFound],
  },
  reviewQueue: {
    id: 'reviewQueue',
    method: 'get',
    path: '/api/reports',
    tag: 'catalogue',
    summary: 'The review queue',
    description: 'Needs the write_hits permission. Hits with open reports, the most reported first, then by their newest report; each with its open reports, newest first (disputes carry their votes and evidence).',
    access: WRITE_HITS,
    rateLimit: 'search',
    reply: { status: 200, schema: ReviewQueueSchema, description: 'The open reports by hit.' },
    errors: [],
  },
  acceptReport: {
    id: 'acceptReport',
    method: 'post',
    path: '/api/hits/{hitId}/issues/{issueId}/accept',
    tag: 'catalogue',
    summary: 'Accept a report',
    description: 'Needs the write_hits permission. Sets the hit\'s year to `year` (default: the report\'s proposed year; a report without one sets nothing) with a history entry naming the curator and the reason, and closes the report (and the hit\'s other open year reports that proposed the same year). Sends `delete_hit_issue` for each and `hits_changed`. Games already running keep the year they dealt; the next game deals the new one.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: issueParam,
    body: { schema: AcceptBodySchema, required: false },
    reply: { status: 200, schema: HitIssueSchema, description: 'The accepted report.' },
    invalid: { what: 'An id or the body', example: 'year must be at least 1' },
    errors: [ISSUE_NOT_FOUND, err(409, 'issue_closed', 'the report was already accepted or dismissed')],
  },
  dismissReport: {
    id: 'dismissReport',
    method: 'post',
    path: '/api/hits/{hitId}/issues/{issueId}/dismiss',
    tag: 'catalogue',
    summary: 'Dismiss a report',
    description: 'Needs the write_hits permission and a reason, which the hit\'s history keeps. Sends `delete_hit_issue`.',
    access: WRITE_HITS,
    rateLimit: 'writes',
    params: issueParam,
    body: { schema: DismissBodySchema, required: true },
    reply: { status: 200, schema: HitIssueSchema, description: 'The dismissed report.' },
    invalid: { what: 'An id or the body', example: 'reason must be at least 1 character' },
    errors: [ISSUE_NOT_FOUND, err(409, 'issue_closed', 'the report was already accepted or dismissed')],
  },
  exportHits: {
    id: 'exportHits',
    method: 'get',
    path: '/api/hits/export',
    tag: 'catalogue',
    summary: 'Export hits as YAML',
    description:
      'Needs the write_hits permission, unless the operator made the export public (`EXPORT_PUBLIC=true`, so that other servers can import it by address: `POST /api/hits/import-url`). The matching hits and only the packs they use, in the `hits.yml` format (docs/api.md#hits-yml) that the import reads: hits in natural, case-sensitive order of "artist title year belongs_to", their pack ids ascending, each followed by the pack\'s name as a YAML comment (`- <id> # <name>`: for people; every reader skips it), packs by name, `last_modified` = when the row last changed. The same catalogue always gives the same bytes. `query` matches as the search does; `pack` (the reference server\'s name; `packs` is accepted too) is repeatable: a hit in any listed pack, and an empty value (`pack=`) = the hits without a pack.',
    // the router drops the check when the operator made the export public
    access: WRITE_HITS,
    rateLimit: 'search',
    // the server gathers `pack` and `packs` into `packs`
    query: z.object({ query: HitSearchQuerySchema.shape.query, packs: HitSearchQuerySchema.shape.packs }),
    queryDoc: z.object({
      query: HitSearchQuerySchema.shape.query,
      pack: HitSearchQuerySchema.shape.packs.meta({ description: 'A pack id, or empty for the hits without a pack; repeatable (OR).' }),
      packs: HitSearchQuerySchema.shape.packs.meta({ description: 'The same as `pack`.' }),
    }),
    reply: { status: 200, media: ['application/x-yaml'], description: 'The YAML file (`Content-Disposition: attachment; filename="hits.yml"`).' },
    invalid: { what: 'A query parameter', example: 'packs[0] must be a pack id (UUID), or empty for "no pack"' },
    errors: [],
  },
  importHits: {
    id: 'importHits',
    method: 'post',
    path: '/api/hits/import',
    tag: 'catalogue',
    summary: 'Import a hits.yml (dry run, or apply)',
    description: [
      'Needs the write_hits permission. The body is the file itself (`Content-Type: application/x-yaml` or `text/yaml`, UTF-8, at most 20 MB), the format of the export (docs/api.md#hits-yml; `yt_id` and `last_modified` optional, unknown keys ignored). A hit row without an `id` is a new hit: it gets a new id when applied. A year after the current one is refused, as in `POST /api/hits`. Texts follow the rules of `POST /api/hits`: a row whose title, artist, belongs_to or pack name holds control, text-direction or invisible characters is rejected with that reason.',
      'Without `apply` (or `apply=false`) nothing is written: the answer is the diff against the catalogue (added, changed with the fields, unchanged, rejected rows with every reason). With `apply=true` the same diff is written in one transaction and the answer is the report with `applied: true`; a file with any rejected row writes nothing and is answered 400 `import_rejected`, whose body carries the whole report besides `type`, `code` and `message`.',
      'Rows match the catalogue by id; a hit with an unknown id but a known yt_id is that hit (kept under the catalogue\'s id), a pack with an unknown id but a known name (ignoring case) is that pack. Hits and packs missing from the file are never touched. Importing the same file twice changes nothing the second time (but for hit rows without an id, which are added again). An applied import that changed something sends `hits_changed`.',
    ].join('\n\n'),
    access: WRITE_HITS,
    rateLimit: 'writes',
    ...applyQuery,
    body: { schema: z.string(), required: true, media: ['application/x-yaml', 'text/yaml'] },
    reply: { status: 200, schema: ImportReportSchema, description: 'The report: the diff of a dry run, or what an apply wrote (`applied: true`).' },
    errors: [
      E.badApply,
      E.emptyBody,
      { status: 400, code: IMPORT_REJECTED_CODE, message: 'the file has rejected rows or cannot be read; nothing was written (the body also holds the report)' },
      { status: 413, code: FILE_TOO_LARGE_CODE, message: 'the file is too large: the import takes at most 20 MB' },
      E.notYaml,
    ],
  },
  importHitsFromAddress: {
    id: 'importHitsFromAddress',
    method: 'post',
    path: '/api/hits/import-url',
    tag: 'catalogue',
    summary: 'Import a hits.yml from an address (dry run, or apply)',
    description: [
      'Needs the write_hits permission. The server fetches the file at `url` (another server\'s `GET /api/hits/export`, made public there with `EXPORT_PUBLIC=true`, or any hits.yml on the web) and imports it exactly as `POST /api/hits/import` imports an uploaded file: the same dry run, apply, report and rules; the report also says where the file came from (`source`: the address after redirects, its SHA-256 and size). An apply with the dry run\'s `sha256` writes only if the file is still the one the dry run showed (else 409 `import_source_changed`).',
      `The fetch: http and https only; at most ${MAX_REDIRECTS} redirects, each checked as the first address; the import's size limit (20 MB); one time limit for the whole fetch (IMPORT_FETCH_TIMEOUT_SECONDS, 30 s by default); no credentials sent; no compressed answers. No address on the server's own networks (loopback, private, shared, link-local — the cloud metadata service 169.254.169.254 among them —, in any IPv6 form) unless the operator allows it (IMPORT_ALLOW_PRIVATE), and never unspecified, multicast, broadcast or reserved addresses; the host's name is resolved by the server, every address it has is checked, and the connection goes to the checked address. Counted against a limit of its own per user.`,
    ].join('\n\n'),
    access: WRITE_HITS,
    rateLimit: 'remoteImports',
    ...applyQuery,
    body: { schema: ImportAddressBodySchema, required: true },
    reply: { status: 200, schema: AddressImportReportSchema, description: 'The report, with its source: the diff of a dry run, or what an apply wrote (`applied: true`).' },
    invalid: { what: 'The body', example: 'url must be at most 2048 characters long' },
    errors: [
      E.badApply,
      { status: 400, code: IMPORT_REJECTED_CODE, message: 'the file has rejected rows or cannot be read; nothing was written (the body also holds the report and its source)' },
      { status: 400, code: REMOTE_CODES.invalid, message: 'the address is not an absolute URL', example: 'the address is not an absolute URL (such as https://other.example/api/hits/export): "hits.yml"' },
      { status: 400, code: REMOTE_CODES.scheme, message: 'the address (or a redirect) is not http or https', example: 'the address uses ftp: the import fetches http and https addresses only' },
      {
        status: 400,
        code: REMOTE_CODES.refused,
        message: 'the address (or a redirect, or an address its name resolves to) is on the server\'s own networks, or names no host, or holds credentials; the message says which address and why',
        example: 'refused http://192.168.1.10:8000: 192.168.1.10 is a private network address (RFC 1918 / unique local): this server imports from its own networks only when its operator allows it (set IMPORT_ALLOW_PRIVATE)',
      },
      E.sourceChanged,
      { status: 413, code: FILE_TOO_LARGE_CODE, message: 'the file at the address is larger than the import takes (20 MB)', example: 'the file at https://other.example/hits.yml is too large (31.2 MB): the import takes at most 20 MB' },
      { status: 502, code: REMOTE_CODES.failed, message: 'the name did not resolve, the connection failed, the answer was not a success (401/403: the other server\'s export is not public), too many redirects, or a compressed answer', example: 'https://other.example/api/hits/export answered 404 Not Found' },
      { status: 502, code: REMOTE_CODES.notYaml, message: 'the answer is not YAML text (e.g. a web page)', example: 'https://other.example/ answered text/html, not a hits.yml (YAML text): a web page, not the export' },
      { status: 504, code: REMOTE_CODES.timeout, message: 'the whole fetch took longer than IMPORT_FETCH_TIMEOUT_SECONDS', example: 'the address did not answer in full within 30 s (IMPORT_FETCH_TIMEOUT_SECONDS)' },
    ],
  },
} as const satisfies Record<string, RouteSpec>;
