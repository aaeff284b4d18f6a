import { describe, expect, it } from 'vitest';
import { pageItems, type PageItem } from '../../client/src/routes/hits/pagination.ts';

const E1 = 'start-ellipsis';
const E2 = 'end-ellipsis';

describe('pager items (docs/product.md#screens: numbered pages with ellipses)', () => {
  it('shows every page when they fit', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 2)).toEqual([1, 2]);
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('puts one ellipsis at the far edge when the current page is near the start', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, E2, 20]);
    expect(pageItems(2, 20)).toEqual([1, 2, 3, 4, 5, E2, 20]);
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, E2, 20]);
  });

  it('puts one ellipsis at the far edge when the current page is near the end', () => {
    expect(pageItems(20, 20)).toEqual([1, E1, 16, 17, 18, 19, 20]);
    expect(pageItems(19, 20)).toEqual([1, E1, 16, 17, 18, 19, 20]);
    expect(pageItems(17, 20)).toEqual([1, E1, 16, 17, 18, 19, 20]);
  });

  it('puts ellipses at both edges in the middle', () => {
    expect(pageItems(5, 20)).toEqual([1, E1, 4, 5, 6, E2, 20]);
    expect(pageItems(10, 20)).toEqual([1, E1, 9, 10, 11, E2, 20]);
    expect(pageItems(16, 20)).toEqual([1, E1, 15, 16, 17, E2, 20]);
  });

  it('shows a single hidden page as its number rather than an ellipsis', () => {
    expect(pageItems(4, 8)).toEqual([1, 2, 3, 4, 5, E2, 8]);
    expect(pageItems(5, 8)).toEqual([1, E1, 4, 5, 6, 7, 8]);
  });

  it('keeps the same length once there are more pages than fit', () => {
    for (let last = 8; last <= 30; last++) for (let p = 1; p <= last; p++) expect(pageItems(p, last), `${p}/${last}`).toHaveLength(7);
  });

  it('always contains the first, the last and the current page, in order, without neighbouring ellipses', () => {
    for (let last = 1; last <= 25; last++) {
      for (let p = 1; p <= last; p++) {
        const items = pageItems(p, last);
        const numbers = items.filter((i): i is number => typeof i === 'number');
        expect(numbers).toContain(1);
        expect(numbers).toContain(last);
        expect(numbers).toContain(p);
        expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
        expect(new Set(items).size).toBe(items.length);
        // an ellipsis always stands for at least two pages
        items.forEach((item: PageItem, i) => {
          if (typeof item === 'number') return;
          const before = items[i - 1] as number;
          const after = items[i + 1] as number;
          expect(after - before, `${p}/${last}`).toBeGreaterThan(2);
        });
      }
    }
  });

  it('has no neighbours with siblings 0 (phones)', () => {
    expect(pageItems(1, 20, 0)).toEqual([1, 2, 3, E2, 20]);
    expect(pageItems(10, 20, 0)).toEqual([1, E1, 10, E2, 20]);
    expect(pageItems(20, 20, 0)).toEqual([1, E1, 18, 19, 20]);
    expect(pageItems(3, 5, 0)).toEqual([1, 2, 3, 4, 5]);
  });

  it('clamps a current page outside 1..last', () => {
    expect(pageItems(0, 20)).toEqual(pageItems(1, 20));
    expect(pageItems(99, 20)).toEqual(pageItems(20, 20));
    expect(pageItems(1, 0)).toEqual([1]);
  });
});
