import { i18next } from './i18n.ts';

/** Texts built from game data, shared by announcements and screens. */

export interface YearRange {
  from_year: number;
  to_year: number;
}

/** A slot or guess as words: from 0 = "before {to}", to 0 = "after {from}", else "between {from} and {to}" (docs/product.md#entities). */
export function slotText(range: YearRange | null): string {
  if (!range) return i18next.t('slot.none');
  if (range.from_year === 0 && range.to_year === 0) return i18next.t('slot.any');
  if (range.from_year === 0) return i18next.t('slot.before', { year: range.to_year });
  if (range.to_year === 0) return i18next.t('slot.after', { year: range.from_year });
  return i18next.t('slot.between', { from: range.from_year, to: range.to_year });
}

export interface HitLike {
  title: string;
  artist: string;
  year: number;
  belongs_to?: string;
}

/** "Title by Artist (1985)", with "from {belongs_to}" when the hit belongs to a film or show. */
export function hitText(hit: HitLike): string {
  const base = i18next.t('hit.summary', { title: hit.title, artist: hit.artist, year: hit.year });
  return hit.belongs_to ? i18next.t('hit.summary_belongs_to', { summary: base, belongs_to: hit.belongs_to }) : base;
}
