import type { AddressImportReportPayload, HitBodyInput, ImportReportPayload, SortKey } from '../../../shared/protocol/catalogue.ts';
import { api, ApiError, request, requestText } from './api.ts';
import { loadSchemas } from './load-schemas.ts';

/**
 * The catalogue screens' calls (docs/api.md#endpoints, #b8, #b9): search, single
 * hits, packs, import and export, and the audio pipeline. A module of its own
 * rather than part of net/catalogue.ts, which the first page loads: these are
 * only needed by the lazy catalogue screens (budget P9).
 */

export interface SearchParams {
  query: string;
  /** 1-based index of the first result. */
  start: number;
  amount: number;
  sortBy: readonly SortKey[];
  direction: 'ascending' | 'descending';
  /** Pack ids (any of them); "" = hits without packs. Empty list = no filter. */
  packs: readonly string[];
}

const opt = (signal?: AbortSignal) => (signal ? { signal } : {});
const hitPath = (id: string): string => `/api/hits/${encodeURIComponent(id)}`;

/** The query string of a search (repeated keys for lists, as the server reads them). */
export function searchQueryString(p: SearchParams): string {
  const q = new URLSearchParams();
  if (p.query !== '') q.set('query', p.query);
  q.set('start', String(p.start));
  q.set('amount', String(p.amount));
  for (const key of p.sortBy) q.append('sort_by', key);
  q.set('sort_direction', p.direction);
  for (const pack of p.packs) q.append('packs', pack);
  return q.toString();
}

/** `GET /api/hits/search`: one page of hits, with whether each one's audio is ready. */
export function searchHits(p: SearchParams, signal?: AbortSignal) {
  return request(`/api/hits/search?${searchQueryString(p)}&parts=downloaded`, { schema: (s) => s.HitSearchReplySchema, ...opt(signal) });
}

/** `GET /api/hits/{id}`: the whole hit (yt_id, offset, audio state). A 404 is an ApiError with status 404. */
export function getHit(id: string, signal?: AbortSignal) {
  return api('get', '/api/hits/{hitId}', { params: { hitId: id }, schema: (s) => s.FullHitPayloadSchema, ...opt(signal) });
}

/** `POST /api/hits`: the created hit, with its new id. */
export function createHit(body: HitBodyInput) {
  return api('post', '/api/hits', { body, schema: (s) => s.FullHitPayloadSchema });
}

/** `PATCH /api/hits/{id}`: a full replacement. */
export function updateHit(id: string, body: HitBodyInput) {
  return api('patch', '/api/hits/{hitId}', { params: { hitId: id }, body, schema: (s) => s.SuccessBodySchema });
}

/** `DELETE /api/hits/{id}`. */
export function deleteHit(id: string) {
  return api('delete', '/api/hits/{hitId}', { params: { hitId: id }, schema: (s) => s.SuccessBodySchema });
}

/** `POST /api/hits/packs`: the new pack. */
export function createPack(name: string) {
  return api('post', '/api/hits/packs', { body: { name }, schema: (s) => s.PackPayloadSchema });
}

/** `PATCH /api/hits/packs/{id}`: a new name. */
export function renamePack(id: string, name: string) {
  return api('patch', '/api/hits/packs/{packId}', { params: { packId: id }, body: { name }, schema: (s) => s.SuccessBodySchema });
}

/** `DELETE /api/hits/packs/{id}`. */
export function deletePack(id: string) {
  return api('delete', '/api/hits/packs/{packId}', { params: { packId: id }, schema: (s) => s.SuccessBodySchema });
}

/** `GET /api/hits/export`: the hits.yml text of the hits matching a query and packs (`query` left out when empty). */
export function exportHits(query: string, packs: readonly string[]): Promise<string> {
  const q = new URLSearchParams();
  if (query !== '') q.set('query', query);
  for (const pack of packs) q.append('pack', pack);
  const qs = q.toString();
  return requestText(`/api/hits/export${qs ? `?${qs}` : ''}`, { accept: 'application/x-yaml, text/plain, */*' });
}

/** `?apply=true` or `?apply=false`. */
const applyQuery = (apply: boolean): URLSearchParams => new URLSearchParams({ apply: `${apply}` });

/**
 * `POST /api/hits/import?apply=…` with the hits.yml text: the dry-run diff
 * (`apply` false), or what was written. An apply the server refuses (400
 * `import_rejected`) still answers with its report, returned here like any other.
 */
export async function importHits(file: Blob, apply: boolean): Promise<ImportReportPayload> {
  try {
    return await api('post', '/api/hits/import', {
      query: applyQuery(apply),
      raw: { data: file, type: 'application/x-yaml' },
      schema: (s) => s.ImportReportSchema,
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'import_rejected') {
      const { ImportReportSchema } = await loadSchemas();
      const { type: _type, code: _code, ...report } = (err.body ?? {}) as Record<string, unknown>;
      const parsed = ImportReportSchema.safeParse(report);
      if (parsed.success) return parsed.data;
    }
    throw err;
  }
}

/**
 * `POST /api/hits/import-url?apply=…`: the server fetches the hits.yml at `url`
 * and answers as {@link importHits} does, with where the file came from. An
 * apply with the dry run's `sha256` writes only that file (else 409
 * `import_source_changed`).
 */
export async function importHitsFromAddress(url: string, apply: boolean, sha256?: string): Promise<AddressImportReportPayload> {
  try {
    return await api('post', '/api/hits/import-url', {
      query: applyQuery(apply),
      body: { url, ...(sha256 ? { sha256 } : {}) },
      schema: (s) => s.AddressImportReportSchema,
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'import_rejected') {
      const { AddressImportReportSchema } = await loadSchemas();
      const { type: _type, code: _code, ...report } = (err.body ?? {}) as Record<string, unknown>;
      const parsed = AddressImportReportSchema.safeParse(report);
      if (parsed.success) return parsed.data;
    }
    throw err;
  }
}

/** Content types the server takes for an upload, by file extension (for files the browser gives no type). */
const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  webm: 'audio/webm',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
};

/** The content type to send a chosen audio file with. */
export function audioType(file: { name: string; type: string }): string {
  if (file.type.startsWith('audio/') || file.type === 'application/ogg') return file.type;
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return AUDIO_TYPES[ext] ?? 'audio/mpeg';
}

/** `POST /api/hits/{id}/audio`: the file as the raw body; answers the hit's new audio state (queued, or failed at once). */
export function uploadAudio(id: string, file: File) {
  return api('post', '/api/hits/{hitId}/audio', { params: { hitId: id }, raw: { data: file, type: audioType(file) }, schema: (s) => s.AudioQueuedViewSchema });
}

/** `POST /api/hits/{id}/audio/retry`: queues a failed hit again. */
export function retryAudio(id: string) {
  return api('post', '/api/hits/{hitId}/audio/retry', { params: { hitId: id }, schema: (s) => s.AudioQueuedViewSchema });
}

/** `GET /api/hits/audio/status` (write_hits): counts per state and the failures. */
export function audioStatus(signal?: AbortSignal) {
  return api('get', '/api/hits/audio/status', { schema: (s) => s.AudioStatusViewSchema, ...opt(signal) });
}
