import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_SPACING_MS, createAnnouncer, GATHER_MS } from '../../client/src/a11y/announcer.ts';
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
    // the first goes out once the rest of its burst had time to come
    vi.advanceTimersByTime(GATHER_MS - 1);
    expect(texts(a.getSnapshot().polite)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(texts(a.getSnapshot().polite)).toEqual(['one']);
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS - 1);
    expect(texts(a.getSnapshot().polite)).toEqual(['one']);
    vi.advanceTimersByTime(1);
    expect(texts(a.getSnapshot().polite)).toEqual(['one', 'two']);
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite)).toEqual(['one', 'two', 'three']);
  });

  it('announces an idle message after the gathering moment, then spaces the next one', () => {
    const a = createAnnouncer();
    a.announce('first');
    vi.advanceTimersByTime(1000);
    a.announce('later');
    vi.advanceTimersByTime(GATHER_MS);
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('later');
    a.announce('right after');
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('later');
    vi.advanceTimersByTime(ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite).at(-1)).toBe('right after');
  });

  it('an interrupting message is assertive and immediate; it drops transient messages and empties the polite region', () => {
    const a = createAnnouncer();
    a.announce('10 seconds left.', { transient: true });
    a.announce('5 seconds left.', { transient: true });
    vi.advanceTimersByTime(10 * ANNOUNCE_SPACING_MS);
    a.announce('4 seconds left.', { transient: true });
    a.announce('3 seconds left.', { transient: true });
    a.announce('Game over', { interrupt: true });
    expect(texts(a.getSnapshot().assertive)).toEqual(['Game over']);
    expect(a.getSnapshot().polite).toEqual([]);
    vi.advanceTimersByTime(10 * ANNOUNCE_SPACING_MS);
    // the queued transient one never comes
    expect(a.getSnapshot().polite).toEqual([]);
  });

  it('an interruption reads the news still queued first, in order, so the last guess before a reveal is not lost', () => {
    const a = createAnnouncer();
    // the burst of one reveal: the last interception, then the outcome
    a.announce('Ana chose before 1990.');
    a.announce('Ben does not intercept.');
    a.announce('3 seconds left.', { transient: true });
    a.announce('Nobody scored.', { interrupt: true });
    // one assertive message (a second one would cut the first off), news first
    expect(texts(a.getSnapshot().assertive)).toEqual(['Ana chose before 1990. Ben does not intercept. Nobody scored.']);
    a.announce('The hit was Wonderwall by Oasis (1995).');
    vi.advanceTimersByTime(10 * ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().polite)).toEqual(['The hit was Wonderwall by Oasis (1995).']);
    // carried once: the next interruption does not repeat them
    a.announce('before 1975', { interrupt: true });
    expect(texts(a.getSnapshot().assertive).at(-1)).toBe('before 1975');
  });

  it('a burst with an interruption in it is read once: no polite message of it is released, then repeated', () => {
    const a = createAnnouncer();
    const politeEver: string[] = [];
    a.subscribe(() => politeEver.push(...texts(a.getSnapshot().polite)));
    a.announce('Ben does not intercept.');
    // the next socket message of the same update, a few milliseconds later
    vi.advanceTimersByTime(5);
    a.announce('Ben scored.', { interrupt: true });
    vi.advanceTimersByTime(10 * ANNOUNCE_SPACING_MS);
    expect(texts(a.getSnapshot().assertive)).toEqual(['Ben does not intercept. Ben scored.']);
    // a reader never started on it in the polite region
    expect(politeEver).toEqual([]);
  });

  it('does not repeat a message already released, however recently', () => {
    const a = createAnnouncer();
    a.announce('Ben does not intercept.');
    vi.advanceTimersByTime(GATHER_MS + 100);
    expect(texts(a.getSnapshot().polite)).toEqual(['Ben does not intercept.']);
    a.announce('Nobody scored.', { interrupt: true });
    expect(texts(a.getSnapshot().assertive)).toEqual(['Nobody scored.']);
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
    vi.advanceTimersByTime(GATHER_MS);
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
    act(() => vi.advanceTimersByTime(GATHER_MS));
    expect(screen.getByRole('status').textContent).toBe(hostile);
    expect(screen.getByRole('status').querySelector('img, b')).toBeNull();
    act(() => vi.advanceTimersByTime(ANNOUNCE_SPACING_MS));
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
    act(() => vi.advanceTimersByTime(GATHER_MS + ANNOUNCE_SPACING_MS));
    expect(screen.getByRole('status').querySelectorAll('p')).toHaveLength(2);
  });
});
