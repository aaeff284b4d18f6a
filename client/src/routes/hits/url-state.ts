import type { SortKey } from '../../../../shared/protocol/catalogue.ts';

/**
 * Browse hits keeps its whole state in the address (docs/product.md#screens "Browse hits"), so
 * a view can be bookmarked, shared and restored with Back:
 *
 * * `p`: page, 1-based; anything but a whole number ≥ 1 is page 1.
 * * `q`: the search text; absent = "".
 * * `pack`: repeatable pack id (a hit in any of them); "" = hits without packs;
 *   values that are neither a UUID nor "" are dropped (the server would refuse them).
 * * `sort_direction`: `ascending` (default) or `descending`; anything else is ascending.
 * * `sort_by`: repeatable, in priority order, from title, artist, belongs_to and
 *   year. Unknown values and repeats are dropped; none left = the default order
 *   (title, artist, belongs_to, year). A partial list is completed with the keys it
 *   lacks, in default order, because the sort-priority list always shows all four.
 * * `size`: hits per page, one of 10, 50, 100, 500, 1000 (docs/product.md#limits); default 50.
 *
 * Pure functions without zod (kept out of this chunk's start-up path): the
 * constants mirror shared/protocol/catalogue.ts, which tests/client check.
 */

/** docs/product.md#screens: the default sort priority. */
export const DEFAULT_SORT: readonly SortKey[] = ['title', 'artist', 'belongs_to', 'year'];
export type SortDirection = 'ascending' | 'descending';
/** docs/product.md#limits: page size options and the default. */
export const PAGE_SIZES = [10, 50, 100, 500, 1000] as const;
export const DEFAULT_PAGE_SIZE = 50;
/** The server caps a search text at 256 characters. */
export const MAX_QUERY_LENGTH = 256;
/** A page number whose first hit index still fits the server's integer range. */
const MAX_PAGE = 1_000_000_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BrowseState {
  page: number;
  query: string;
  /** Pack ids, deduplicated, in address order; "" = hits without packs. */
  packs: string[];
  /** All four keys, highest priority first. */
  sortBy: SortKey[];
  direction: SortDirection;
  size: number;
}

export const DEFAULT_STATE: BrowseState = {
  page: 1,
  query: '',
  packs: [],
  sortBy: [...DEFAULT_SORT],
  direction: 'ascending',
  size: DEFAULT_PAGE_SIZE,
};

const isSortKey = (v: string): v is SortKey => (DEFAULT_SORT as readonly string[]).includes(v);

/** A whole number ≥ 1 written in decimal, else the fallback. */
function positiveInt(raw: string | null, fallback: number): number {
  if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return fallback;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 ? n : fallback;
}

/** The sort priority of `sort_by` values: known keys once each, completed in default order. */
export function parseSortBy(values: readonly string[]): SortKey[] {
  const known = [...new Set(values.filter(isSortKey))];
  return [...known, ...DEFAULT_SORT.filter((k) => !known.includes(k))];
}

/** Reads the browse state from the address's query string. */
export function parseBrowseState(params: URLSearchParams): BrowseState {
  const page = Math.min(positiveInt(params.get('p'), 1), MAX_PAGE);
  const size = positiveInt(params.get('size'), DEFAULT_PAGE_SIZE);
  const packs = [...new Set(params.getAll('pack').filter((id) => id === '' || UUID.test(id)))];
  return {
    page,
    query: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    packs,
    sortBy: parseSortBy(params.getAll('sort_by')),
    direction: params.get('sort_direction') === 'descending' ? 'descending' : 'ascending',
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

const sameOrder = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The query string of a state: `p` always (the search box writes q and p), the
 * others only when they differ from their defaults, so a plain /hits stays plain.
 */
export function browseParams(state: BrowseState): URLSearchParams {
  const out = new URLSearchParams();
  if (state.query !== '') out.set('q', state.query);
  out.set('p', String(state.page));
  for (const pack of state.packs) out.append('pack', pack);
  if (!sameOrder(state.sortBy, DEFAULT_SORT)) for (const key of state.sortBy) out.append('sort_by', key);
  if (state.direction !== 'ascending') out.set('sort_direction', state.direction);
  if (state.size !== DEFAULT_PAGE_SIZE) out.set('size', String(state.size));
  return out;
}

/** The address of a browse state. */
export function browseHref(state: BrowseState): string {
  return `/hits?${browseParams(state).toString()}`;
}

/** The 1-based index of the page's first hit, as the search's `start`. */
export const pageStart = (state: Pick<BrowseState, 'page' | 'size'>): number => (state.page - 1) * state.size + 1;

/** Number of pages for `total` hits (at least 1, so an empty result still has a page 1). */
export const pageCount = (total: number, size: number): number => Math.max(1, Math.ceil(total / size));

/** The state after a change that starts the listing over (search, sort, filter, page size): back to page 1. */
export function restart(state: BrowseState, change: Partial<Omit<BrowseState, 'page'>>): BrowseState {
  return { ...state, ...change, page: 1 };
}
