import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_SPACING_MS, createAnnouncer } from '../../client/src/a11y/announcer.ts';
import { LiveRegion } from '../../client/src/a11y/LiveRegion.tsx';

const texts = (list: readonly { text: string }[]) => list.map((m) => m.text);

describe('announcer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('releases polite messages one by one, 150 ms apart', () => {
    const a = createAnnouncer();
    a.announce('one');
    a.announce('two');
    a.announce('three');
    expect(texts(a.getSnapshot().polite)).toEqual(['one']);
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS - 1);
    expect(texts(a.getSnapshot().polite)).toEqual(['one']);
    vi.advanceTimersByTime(1);
    expect(texts(a.getSnapshot().polite)).toEqual(['one', 'two']);
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite)).toEqual(['one', 'two', 'three']);
  });

  it('announces an idle message at once, then spaces the next one', () => {
    const a = createAnnouncer();
    a.announce('first');
    vi.advanceTimersByTime(1000);
    a.announce('later');
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('later');
    a.announce('right after');
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('later');
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('right after');
  });

  it('an interrupting message is assertive, immediate, and drops the polite queue', () => {
    const a = createAnnouncer();
    a.announce('queued 1');
    a.announce('queued 2');
    a.announce('queued 3');
    a.announce('Game over', { interrupt: true });
    expect(texts(a.getSnapshot().assertive)).toEqual(['Game over']);
    expect(a.getSnapshot().polite).toEqual([]);
    vi.advanceTimersByTime(10 * ANNOUNCE_SPACING_MS);
    // the queued ones never come
    expect(a.getSnapshot().polite).toEqual([]);
  });

  it('polite messages after an interruption wait their spacing', () => {
    const a = createAnnouncer();
    a.announce('stop', { interrupt: true });
    a.announce('next');
    expect(a.getSnapshot().polite).toEqual([]);
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite)).toEqual(['next']);
  });

  it('ignores empty messages and keeps only the last few in a region', () => {
    const a = createAnnouncer(0);
    a.announce('   ');
    expect(a.getSnapshot().polite).toEqual([]);
    for (const t of ['a', 'b', 'c', 'd', 'e']) {
      a.announce(t);
      vi.advanceTimersByTime(1);
    }
    expect(texts(a.getSnapshot().polite)).toEqual(['c', 'd', 'e']);
  });
});

describe('LiveRegion', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('renders messages as text only, in polite and assertive regions', () => {
    const a = createAnnouncer();
    render(<LiveRegion announcer={a} />);
    const hostile = '<img src=x onerror="alert(1)"><b>Bob</b> joined';
    act(() => a.announce(hostile));
    act(() => a.announce('Nobody scored.', { interrupt: true }));
    const polite = screen.getByRole('status');
    const assertive = screen.getByRole('alert');
    expect(polite.getAttribute('aria-live')).toBe('polite');
    expect(assertive.getAttribute('aria-live')).toBe('assertive');
    expect(assertive.textContent).toBe('Nobody scored.');
    // the interruption emptied the polite region
    expect(polite.textContent).toBe('');
    act(() => a.announce(hostile));
    act(() => vi.advanceTimersByTime(ANNOUNCE_SPACING_MS));
    expect(polite.textContent).toBe(hostile);
    expect(polite.querySelector('img, b')).toBeNull();
  });

  it('re-announces a repeated message as a new addition', () => {
    const a = createAnnouncer();
    render(<LiveRegion announcer={a} />);
    act(() => a.announce('You chose before 1990.'));
    act(() => a.announce('You chose before 1990.'));
    act(() => vi.advanceTimersByTime(ANNOUNCE_SPACING_MS));
    expect(screen.getByRole('status').querySelectorAll('p')).toHaveLength(2);
  });
});
