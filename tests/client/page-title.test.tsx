import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { announcer, GATHER_MS } from '../../client/src/a11y/announcer.ts';
import { usePageTitle } from '../../client/src/components/page-title.ts';

function Titled({ title, focusHeading }: { title: string; focusHeading: boolean }) {
  usePageTitle(title);
  return (
    <main id="main">
      <h1 tabIndex={-1} ref={(h) => (focusHeading ? h?.focus() : undefined)}>
        {title}
      </h1>
    </main>
  );
}

describe('usePageTitle', () => {
  it('announces a new page once: by its title, or not at all when its heading has the focus (read by the screen reader)', () => {
    vi.useFakeTimers();
    try {
      announcer.clear();
      const view = render(<Titled title="Game lobby" focusHeading={false} />);
      expect(document.title).toBe('Game lobby – Hitline');
      // (the first page of a visit is not announced)
      view.rerender(<Titled title="Game AbCd1234 (open)" focusHeading={false} />);
      act(() => vi.advanceTimersByTime(GATHER_MS));
      expect(announcer.getSnapshot().polite.map((m) => m.text)).toEqual(['Game AbCd1234 (open)']);
      view.unmount();
      announcer.clear();
      render(<Titled title="Hits" focusHeading />);
      act(() => vi.advanceTimersByTime(GATHER_MS));
      expect(document.title).toBe('Hits – Hitline');
      expect(announcer.getSnapshot().polite).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
