import type { FullHitPayload, HitBodyInput } from '../../../../shared/protocol/catalogue.ts';
import { latestHitYear } from '../../../../shared/rules/constants.ts';
import { textProblem } from '../../../../shared/rules/names.ts';
import { parseVideoUrl, watchUrl } from './video-url.ts';

/**
 * The hit form's values and rules (docs/product.md#screens "Create hit", docs/product.md#entities, #validation): title
 * and artist required, year a whole number from 1 to the current year, belongs_to
 * optional, no text with direction or invisible characters, packs, a video
 * URL that is empty or one of the accepted YouTube forms, and a playback
 * offset ≥ 0 (whole seconds; empty = 0).
 */

export interface HitFormValues {
  title: string;
  artist: string;
  year: string;
  belongs_to: string;
  packs: string[];
  videoUrl: string;
  offset: string;
}

export type FieldName = Exclude<keyof HitFormValues, 'packs'>;
export type FieldError = 'required' | 'year' | 'video_url' | 'offset' | 'too_long' | 'hidden';
export type FieldErrors = Partial<Record<FieldName, FieldError>>;

/** Limits of the server's schema (shared/protocol/catalogue.ts HitBodySchema). */
export const MAX_TEXT = 300;
export const MAX_OFFSET = 65_535;

export const EMPTY_VALUES: HitFormValues = { title: '', artist: '', year: '', belongs_to: '', packs: [], videoUrl: '', offset: '0' };

/** The form's values for a stored hit. */
export function valuesOf(hit: FullHitPayload): HitFormValues {
  return {
    title: hit.title,
    artist: hit.artist,
    year: String(hit.year),
    belongs_to: hit.belongs_to,
    packs: [...hit.packs],
    videoUrl: hit.yt_id ? watchUrl(hit.yt_id) : '',
    offset: String(hit.playback_offset),
  };
}

const wholeNumber = (s: string): number | null => (/^\s*\d+\s*$/.test(s) ? Number(s) : null);

/** Every field's problem (empty object = valid). */
export function validateHit(v: HitFormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['title', 'artist', 'belongs_to'] as const) {
    const text = v[field].trim();
    if (text === '' && field !== 'belongs_to') errors[field] = 'required';
    else if (text.length > MAX_TEXT) errors[field] = 'too_long';
    // the server's rule for shown text (no direction or invisible characters)
    else if (textProblem(text)) errors[field] = 'hidden';
  }
  const year = wholeNumber(v.year);
  if (v.year.trim() === '') errors.year = 'required';
  else if (year === null || year < 1 || year > latestHitYear()) errors.year = 'year';
  if (v.videoUrl.trim() !== '' && parseVideoUrl(v.videoUrl) === null) errors.videoUrl = 'video_url';
  const offset = v.offset.trim() === '' ? 0 : wholeNumber(v.offset);
  if (offset === null || offset > MAX_OFFSET) errors.offset = 'offset';
  return errors;
}

/** The request body of valid values (null when any field is invalid). */
export function hitBody(v: HitFormValues): HitBodyInput | null {
  if (Object.keys(validateHit(v)).length > 0) return null;
  return {
    title: v.title.trim(),
    artist: v.artist.trim(),
    year: Number(v.year),
    belongs_to: v.belongs_to.trim(),
    packs: [...v.packs],
    yt_id: v.videoUrl.trim() === '' ? null : parseVideoUrl(v.videoUrl),
    playback_offset: v.offset.trim() === '' ? 0 : Number(v.offset),
  };
}

/** What stays after a successful create (spec: "the form resets but keeps the chosen packs"). */
export const afterCreate = (v: HitFormValues): HitFormValues => ({ ...EMPTY_VALUES, packs: [...v.packs] });
