import { z } from 'zod';
import { INVALID_INPUT_CODE, UuidSchema } from './common.ts';
import { FullHitPayloadSchema, HitBodySchema, HitSearchQuerySchema, HitSearchReplySchema, PackBodySchema, PackListSchema, PackPayloadSchema, PlayableCountsSchema, PlayableQuerySchema } from './catalogue.ts';
import { badUuid, HTTP_ERRORS, httpError as err, invalidInput, type HttpError, type RouteSpec } from './routes.ts';

/** The catalogue (docs/api.md#endpoints, #b4, #b6, #b7): packs, search, single hits. Import and export: catalogue-io. */

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
} as const;

/** 400 of a hit write naming a pack that does not exist (its index in `packs`). */
export const unknownPack = (index: number): HttpError => err(400, INVALID_INPUT_CODE, `packs[${index}] must be the id of an existing pack`);

export const hitParam = z.object({ hitId: UuidSchema.meta({ description: 'The hit id.' }) });
const packParam = z.object({ packId: UuidSchema.meta({ description: 'The pack id.' }) });

const E = CATALOGUE_HTTP_ERRORS;

export const SORT_DIRECTION_DOC = 'Anything but `descending` means ascending.';
const UNKNOWN_PACK = invalidInput('The body', 'packs[1] must be the id of an existing pack');
const WRITE_HITS = { permission: ['write_hits'] } as const;
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
      'The reference server\'s name `pack` is accepted for `packs`; `parts=downloaded` adds `downloaded` to each hit.',
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
    summary: 'Report a problem with a hit',
    description: 'Needs the write_issues permission (every user has it). Body `{"message": string, "altcha_token"?: string}`; answers the new issue and emits `create_hit_issue` to read_issues subscribers.',
    access: { permission: ['write_issues'] },
    rateLimit: 'writes',
    params: hitParam,
    reply: { status: 200, description: 'The new issue (`type: "custom"`).' },
    // its body is not written down yet, only its JSON refusals
    errors: [{ status: 400, message: 'issue message is required' }, HTTP_ERRORS.malformedJson, HTTP_ERRORS.unsupportedMediaType, E.hitNotFound],
    planned: true,
  },
  deleteHitIssue: {
    id: 'deleteHitIssue',
    method: 'delete',
    path: '/api/hits/{hitId}/issues/{issueId}',
    tag: 'catalogue',
    summary: 'Delete an issue',
    description: 'Needs the delete_issues permission.',
    access: { permission: ['delete_issues'] },
    rateLimit: 'writes',
    params: z.object({ ...hitParam.shape, issueId: UuidSchema.meta({ description: 'The issue id.' }) }),
    reply: { status: 200, message: 'issue deleted successfully' },
    invalid: { what: 'An id', example: badUuid('issueId') },
    errors: [{ status: 404, message: 'issue not found' }],
    planned: true,
  },
} as const satisfies Record<string, RouteSpec>;
