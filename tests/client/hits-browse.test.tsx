import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import HitsScreen from '../../client/src/routes/hits/HitsScreen.tsx';
import { loadNamespace } from '../../client/src/i18n.ts';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { json, renderApp } from './render.tsx';

/**
 * Browse hits as a component: the address decides the search request (with the
 * spec's fallbacks), the debounced search box writes q and p back, and the
 * write controls and the create page follow the `user` cookie's permissions.
 */

const PACK = '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01';
const hit = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, title: `Song ${n}`, artist: 'Band', belongs_to: '', year: 1990 + n, packs: [PACK], downloaded: false });

const user = (writeHits: boolean) => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'curator',
  virtual: false,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: writeHits, write_packs: writeHits, read_issues: false, write_issues: true, delete_issues: false },
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function render(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/hits/*" element={<HitsScreen />} />
      </Routes>
      <Where />
    </>,
    path,
  );
}

const where = (): string => screen.getByTestId('where').textContent ?? '';
let searches: URL[] = [];

beforeAll(async () => {
  await loadNamespace('hits');
});

beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ ready: true, user: user(false) });
  useCatalogue.setState({ packs: [{ id: PACK, name: 'Pack', hits: 3 }], packsLoaded: true });
  searches = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/hits/search') {
        searches.push(url);
        const amount = Number(url.searchParams.get('amount'));
        const start = Number(url.searchParams.get('start'));
        const total = 120;
        const results = Array.from({ length: Math.max(0, Math.min(amount, total - start + 1)) }, (_, i) => hit(start + i));
        return json({ results, total, start, end: start + results.length - 1 });
      }
      if (url.pathname === '/api/hits/packs') return json({ packs: [{ id: PACK, name: 'Pack', hits: 3 }] });
      return json({}, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('Browse hits', () => {
  it('searches with the defaults for a plain /hits', async () => {
    render('/hits');
    await screen.findByText('Hits 1–50 of 120');
    const q = searches.at(-1)!.searchParams;
    expect(q.get('start')).toBe('1');
    expect(q.get('amount')).toBe('50');
    expect(q.getAll('sort_by')).toEqual(['title', 'artist', 'belongs_to', 'year']);
    expect(q.get('sort_direction')).toBe('ascending');
    expect(q.has('query')).toBe(false);
    expect(q.has('packs')).toBe(false);
    expect(screen.getAllByRole('link', { name: /^Song \d+$/ })).toHaveLength(50);
  });

  it('falls back for unknown values in the address', async () => {
    render('/hits/?p=zero&sort_by=bogus&sort_direction=sideways&size=7&pack=nope');
    await screen.findByText('Hits 1–50 of 120');
    const q = searches.at(-1)!.searchParams;
    expect(q.get('start')).toBe('1');
    expect(q.getAll('sort_by')).toEqual(['title', 'artist', 'belongs_to', 'year']);
    expect(q.get('sort_direction')).toBe('ascending');
    expect(q.has('packs')).toBe(false);
  });

  it('reads page, text, packs, sort and size from the address', async () => {
    render(`/hits?p=2&q=beat&pack=${PACK}&sort_by=year&sort_direction=descending&size=10`);
    await screen.findByText('Hits 11–20 of 120');
    const q = searches.at(-1)!.searchParams;
    expect(q.get('query')).toBe('beat');
    expect(q.get('start')).toBe('11');
    expect(q.get('amount')).toBe('10');
    expect(q.getAll('packs')).toEqual([PACK]);
    expect(q.getAll('sort_by')).toEqual(['year', 'title', 'artist', 'belongs_to']);
    expect(q.get('sort_direction')).toBe('descending');
    expect((screen.getByLabelText('Search hits') as HTMLInputElement).value).toBe('beat');
    expect(screen.getByRole('button', { name: '1. Year' })).toBeTruthy();
    // the pager: 12 pages, page 2 current, ellipsis before the last
    const nav = screen.getByRole('navigation', { name: 'Pages' });
    expect(nav.querySelector('[aria-current=page]')?.textContent).toBe('2');
    expect(screen.getByRole('link', { name: 'Page 12' }).getAttribute('href')).toContain('p=12');
    expect(nav.textContent).toContain('…');
  });

  it('writes q and p to the address after a pause in typing, back at page 1', async () => {
    render('/hits?p=3&sort_direction=descending');
    await screen.findByText('Hits 101–120 of 120');
    const box = screen.getByLabelText('Search hits');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.change(box, { target: { value: 'bea' } });
      fireEvent.change(box, { target: { value: 'beat' } });
      await act(async () => {
        vi.advanceTimersByTime(299);
      });
      expect(where()).toBe('/hits?p=3&sort_direction=descending');
      await act(async () => {
        vi.advanceTimersByTime(1);
      });
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(where()).toBe('/hits?q=beat&p=1&sort_direction=descending'));
    await waitFor(() => expect(searches.at(-1)!.searchParams.get('query')).toBe('beat'));
    // one search for the pause, none for the intermediate "bea"
    expect(searches.filter((s) => s.searchParams.get('query') === 'bea')).toHaveLength(0);
  });

  it('changing the order restarts at page 1', async () => {
    render('/hits?p=3');
    await screen.findByText('Hits 101–120 of 120');
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'descending' } });
    await waitFor(() => expect(where()).toBe('/hits?p=1&sort_direction=descending'));
    fireEvent.change(screen.getByLabelText('Hits per page'), { target: { value: '100' } });
    await waitFor(() => expect(where()).toBe('/hits?p=1&sort_direction=descending&size=100'));
  });

  it('shows no write controls without write_hits', async () => {
    render('/hits');
    await screen.findByText('Hits 1–50 of 120');
    expect(screen.queryByRole('link', { name: 'Create hit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export hits.yml' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import hits.yml' })).toBeNull();
  });

  it('redirects /hits/create to /hits without write_hits', async () => {
    render('/hits/create');
    await waitFor(() => expect(where()).toBe('/hits'));
  });

  it('offers create, export and import with write_hits', async () => {
    useSession.setState({ user: user(true) });
    render('/hits');
    await screen.findByText('Hits 1–50 of 120');
    expect(screen.getByRole('link', { name: 'Create hit' }).getAttribute('href')).toBe('/hits/create');
    expect(screen.getByRole('button', { name: 'Export hits.yml' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import hits.yml' })).toBeTruthy();
  });
});
