/**
 * The numbered part of the pager (docs/product.md#screens "Pagination: first, previous,
 * numbered pages with ellipses, next, last"): the first and last pages, the
 * current one with `siblings` neighbours each side, and an ellipsis for each
 * gap. A gap of a single page shows that page instead (an ellipsis standing
 * for one number saves nothing). Once there are enough pages the list always
 * has the same length, so the pager does not jump around while paging.
 */

export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

const range = (from: number, to: number): number[] => (to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i));

/** Pages to show for `current` of `last` (both 1-based; `current` is clamped into 1..last). */
export function pageItems(current: number, last: number, siblings = 1): PageItem[] {
  const total = Math.max(1, Math.floor(last));
  const page = Math.min(Math.max(1, Math.floor(current)), total);
  const s = Math.max(0, Math.floor(siblings));
  // first + last + current + siblings + two gaps: everything fits without ellipses
  if (total <= 2 * s + 5) return range(1, total);

  // the window around the current page, shifted inwards at the edges so the length stays constant
  const start = Math.max(2, Math.min(page - s, total - 2 * s - 2));
  const end = Math.min(total - 1, Math.max(page + s, 2 * s + 3));
  const items: PageItem[] = [1];
  if (start > 3) items.push('start-ellipsis');
  else if (start === 3) items.push(2);
  items.push(...range(start, end));
  if (end < total - 2) items.push('end-ellipsis');
  else if (end === total - 2) items.push(total - 1);
  items.push(total);
  return items;
}
