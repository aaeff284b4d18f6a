import { describe, expect, it } from 'vitest';
import { SORT_KEYS } from '../../shared/protocol/catalogue.ts';
import {
  browseHref,
  browseParams,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  DEFAULT_STATE,
  pageCount,
  pageStart,
  PAGE_SIZES,
  parseBrowseState,
  parseSortBy,
  restart,
} from '../../client/src/routes/hits/url-state.ts';
import { searchQueryString } from '../../client/src/net/hits.ts';

const parse = (qs: string) => parseBrowseState(new URLSearchParams(qs));
const PACK_A = '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01';
const PACK_B = '7d0e5c2a-9b1f-4c3e-8a6d-5e4f3a2b1c0d';

describe('browse state from the address (docs/product.md#screens)', () => {
  it('has the spec defaults for an empty address', () => {
    expect(parse('')).toEqual({ page: 1, query: '', packs: [], sortBy: ['title', 'artist', 'belongs_to', 'year'], direction: 'ascending', size: 50 });
    expect(parse('')).toEqual(DEFAULT_STATE);
  });

  it('keeps the default order in step with the server (shared SORT_KEYS) and the spec sizes', () => {
    expect(DEFAULT_SORT).toEqual([...SORT_KEYS]);
    expect(PAGE_SIZES).toEqual([10, 50, 100, 500, 1000]);
    expect(DEFAULT_PAGE_SIZE).toBe(50);
  });

  it('reads p as a 1-based page; anything else is page 1', () => {
    expect(parse('p=3').page).toBe(3);
    expect(parse('p=1').page).toBe(1);
    for (const bad of ['0', '-2', '1.5', 'abc', '', '2x', '1e3', 'Infinity', '99999999999999999999']) expect(parse(`p=${encodeURIComponent(bad)}`).page, bad).toBe(1);
  });

  it('caps a huge page so the first hit index stays a safe integer', () => {
    const state = parse('p=123456789012');
    expect(Number.isSafeInteger(pageStart({ page: state.page, size: 1000 }))).toBe(true);
  });

  it('reads q as the search text (the first one), cut at 256 characters', () => {
    expect(parse('q=beat').query).toBe('beat');
    expect(parse('q=a%20b&q=c').query).toBe('a b');
    expect(parse(`q=${'x'.repeat(300)}`).query).toHaveLength(256);
  });

  it('reads repeatable pack ids, dropping repeats and values that are not ids; "" means hits without packs', () => {
    expect(parse(`pack=${PACK_A}&pack=${PACK_B}&pack=${PACK_A}`).packs).toEqual([PACK_A, PACK_B]);
    expect(parse(`pack=nonsense&pack=${PACK_B}`).packs).toEqual([PACK_B]);
    expect(parse('pack=').packs).toEqual(['']);
    expect(parse('packs=' + PACK_A).packs).toEqual([]);
  });

  it('falls back to ascending for an unknown sort_direction', () => {
    expect(parse('sort_direction=descending').direction).toBe('descending');
    expect(parse('sort_direction=ascending').direction).toBe('ascending');
    for (const bad of ['down', 'DESCENDING', '', 'desc']) expect(parse(`sort_direction=${bad}`).direction, bad).toBe('ascending');
  });

  it('drops unknown sort_by values and uses the default order when none remain', () => {
    expect(parse('sort_by=bogus').sortBy).toEqual(['title', 'artist', 'belongs_to', 'year']);
    expect(parse('sort_by=bogus&sort_by=Title&sort_by=').sortBy).toEqual(['title', 'artist', 'belongs_to', 'year']);
    expect(parse('sort_by=year&sort_by=bogus&sort_by=artist').sortBy).toEqual(['year', 'artist', 'title', 'belongs_to']);
  });

  it('keeps the given priority, drops repeats and completes it with the missing keys in default order', () => {
    expect(parse('sort_by=year&sort_by=title&sort_by=artist&sort_by=belongs_to').sortBy).toEqual(['year', 'title', 'artist', 'belongs_to']);
    expect(parse('sort_by=year&sort_by=year').sortBy).toEqual(['year', 'title', 'artist', 'belongs_to']);
    expect(parseSortBy(['belongs_to'])).toEqual(['belongs_to', 'title', 'artist', 'year']);
    expect(parseSortBy([])).toEqual([...DEFAULT_SORT]);
  });

  it('reads size from the spec options only', () => {
    for (const n of PAGE_SIZES) expect(parse(`size=${n}`).size).toBe(n);
    for (const bad of ['0', '20', '5000', 'many', '-10']) expect(parse(`size=${bad}`).size, bad).toBe(50);
  });
});

describe('browse state to the address', () => {
  it('writes p always and the rest only when it differs from its default', () => {
    expect(browseParams(DEFAULT_STATE).toString()).toBe('p=1');
    expect(browseHref(DEFAULT_STATE)).toBe('/hits?p=1');
    const state = { page: 2, query: 'a b', packs: [PACK_A, PACK_B], sortBy: ['year' as const, 'title' as const, 'artist' as const, 'belongs_to' as const], direction: 'descending' as const, size: 100 };
    expect(browseParams(state).toString()).toBe(
      `q=a+b&p=2&pack=${PACK_A}&pack=${PACK_B}&sort_by=year&sort_by=title&sort_by=artist&sort_by=belongs_to&sort_direction=descending&size=100`,
    );
  });

  it('round-trips', () => {
    const state = { page: 7, query: 'Ünïcode & more', packs: [PACK_B, ''], sortBy: ['artist' as const, 'year' as const, 'title' as const, 'belongs_to' as const], direction: 'descending' as const, size: 10 };
    expect(parseBrowseState(browseParams(state))).toEqual(state);
    expect(parseBrowseState(browseParams(DEFAULT_STATE))).toEqual(DEFAULT_STATE);
  });

  it('restarts at page 1 on a search, sort, filter or size change', () => {
    const at5 = { ...DEFAULT_STATE, page: 5 };
    expect(restart(at5, { query: 'x' })).toEqual({ ...DEFAULT_STATE, query: 'x', page: 1 });
    expect(restart(at5, { direction: 'descending' }).page).toBe(1);
    expect(restart(at5, { packs: [PACK_A] }).page).toBe(1);
    expect(restart(at5, { size: 10 }).page).toBe(1);
  });

  it('turns a page into the search start and counts pages', () => {
    expect(pageStart({ page: 1, size: 50 })).toBe(1);
    expect(pageStart({ page: 3, size: 50 })).toBe(101);
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });

  it('builds the search request the server reads (repeated sort_by and packs)', () => {
    expect(searchQueryString({ query: '', start: 1, amount: 50, sortBy: DEFAULT_SORT, direction: 'ascending', packs: [] })).toBe(
      'start=1&amount=50&sort_by=title&sort_by=artist&sort_by=belongs_to&sort_by=year&sort_direction=ascending',
    );
    expect(searchQueryString({ query: 'beat', start: 51, amount: 50, sortBy: ['year'], direction: 'descending', packs: [PACK_A, PACK_B] })).toBe(
      `query=beat&start=51&amount=50&sort_by=year&sort_direction=descending&packs=${PACK_A}&packs=${PACK_B}`,
    );
  });
});
