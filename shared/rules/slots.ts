import type { Hit, Slot } from './types.ts';

/**
 * The slots of a timeline (docs/rules.md#slots): distinct years ascending, y1 < … < yk, give
 * k+1 slots: before y1, between neighbours, after yk. Ids start at 1.
 */
export function slotsFor(hits: readonly Pick<Hit, 'year'>[]): Slot[] {
  const years = [...new Set(hits.map((h) => h.year))].sort((a, b) => a - b);
  if (years.length === 0) return [];
  const slots: Slot[] = [{ id: 1, from_year: 0, to_year: years[0] as number }];
  for (let i = 0; i < years.length - 1; i++) {
    slots.push({ id: i + 2, from_year: years[i] as number, to_year: years[i + 1] as number });
  }
  slots.push({ id: years.length + 1, from_year: years[years.length - 1] as number, to_year: 0 });
  return slots;
}

/** Whether `year` belongs in `slot`; both bounds inclusive, 0 = open end. */
export function isCorrect(slot: Slot, year: number): boolean {
  if (slot.from_year === 0) return year <= slot.to_year;
  if (slot.to_year === 0) return year >= slot.from_year;
  return slot.from_year <= year && year <= slot.to_year;
}

/** "Same hit" key: equal yt_ids mean the same recording; otherwise the id. */
export function hitKey(hit: Hit): string {
  return hit.yt_id ? `yt:${hit.yt_id}` : `id:${hit.id}`;
}
