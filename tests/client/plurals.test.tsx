import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { applyLanguage, i18next, loadNamespace } from '../../client/src/i18n.ts';
import { SettingsSummary } from '../../client/src/routes/game/GameScreen.tsx';
import HitsScreen from '../../client/src/routes/hits/HitsScreen.tsx';
import { ImportButton } from '../../client/src/routes/hits/ImportDialog.tsx';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { useGame } from '../../client/src/stores/game.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import type { Language } from '../../client/src/stores/settings.ts';
import { game, player } from './game-fixtures.ts';
import { json, renderApp } from './render.tsx';

/**
 * Counts that can be 1 take the singular ("1 hit", "1 Hit"), never "1 hits":
 * i18next picks `key_one`/`key_other` by `count` (Intl.PluralRules), in English
 * and in German, on the game screen and in the catalogue's screens.
 */

const curator = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'curator',
  virtual: false,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: true, write_packs: true, read_issues: false, write_issues: true, delete_issues: false },
};

beforeAll(async () => {
  await loadNamespace('hits');
});
beforeEach(() => {
  resetSessionForTests();
  useSession.setState({ ready: true, user: curator });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  useGame.getState().reset(null);
  await act(() => applyLanguage('en'));
});
afterAll(async () => {
  await applyLanguage('en');
});

/** Test cases: language, count, what to expect (tuples kept as tuples). */
const counted = <const T,>(cases: readonly (readonly [Language, number, T])[]) => cases;

describe('plural forms of the messages', () => {
  const t = (lng: Language, key: string, options: Record<string, unknown>) => i18next.getFixedT(lng)(key, options);

  it.each(
    counted([
      ['en', 1, ['1 hit', '1-second clips', 'This page is past the end of the 1 hit found.']],
      ['en', 2, ['2 hits', '2-second clips', 'This page is past the end of the 2 hits found.']],
      ['de', 1, ['1 Hit', 'Ausschnitte von 1 Sekunde', 'Diese Seite liegt hinter dem Ende der Treffer (1 Hit gefunden).']],
      ['de', 2, ['2 Hits', 'Ausschnitte von 2 Sekunden', 'Diese Seite liegt hinter dem Ende der Treffer (2 Hits gefunden).']],
    ]),
  )('%s, count %i', async (lng, count, [hits, clips, pastEnd]) => {
    await applyLanguage(lng);
    expect(t(lng, 'count.hits', { count })).toBe(hits);
    expect(t(lng, 'game.summary_audio', { count })).toBe(clips);
    expect(t(lng, 'hits:browse.past_end', { count })).toBe(pastEnd);
  });
});

describe('game screen: the settings summary', () => {
  it.each(
    counted([
      ['en', 1, 'Goal: 1 hit · start tokens: 1 · 1-second clips · public game'],
      ['en', 2, 'Goal: 2 hits · start tokens: 2 · 2-second clips · public game'],
      ['de', 1, 'Ziel: 1 Hit · Start-Chips: 1 · Ausschnitte von 1 Sekunde · Art: öffentlich'],
      ['de', 2, 'Ziel: 2 Hits · Start-Chips: 2 · Ausschnitte von 2 Sekunden · Art: öffentlich'],
    ]),
  )('%s, goal %i', async (lng, n, text) => {
    await act(() => applyLanguage(lng));
    useGame.getState().reset('AbCd1234');
    act(() => useGame.setState({ game: game([player('ana'), player('ben')], { goal: n, start_tokens: n, hit_duration: n, guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 }) }));
    renderApp(<SettingsSummary />);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it.each<['en' | 'de', string]>([
    ['en', 'Goal: 3 hits · start tokens: 2 · cards instead of audio · public game · time limits: guess 30 s and confirm 60 s'],
    ['de', 'Ziel: 3 Hits · Start-Chips: 2 · Karten statt Musik · Art: öffentlich · Zeitlimits: Raten 30 s und Bestätigen 60 s'],
  ])('%s: the time limits that are set', async (lng, text) => {
    await act(() => applyLanguage(lng));
    useGame.getState().reset('AbCd1234');
    act(() => useGame.setState({ game: game([player('ana'), player('ben')], { goal: 3, start_tokens: 2, clue_mode: 'card', guess_timeout: 30, intercept_timeout: 0, confirm_timeout: 60 }) }));
    renderApp(<SettingsSummary />);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('an automatic clue mode: "clips if enough hits have audio, else cards" until the start, then the mode it decided', async () => {
    await act(() => applyLanguage('en'));
    useGame.getState().reset('AbCd1234');
    const open = game([player('ana'), player('ben')], { clue_mode_auto: true, clue_mode: 'audio', guess_timeout: 0, intercept_timeout: 0, confirm_timeout: 0 });
    act(() => useGame.setState({ game: open }));
    renderApp(<SettingsSummary />);
    expect(screen.getByText('Goal: 10 hits · start tokens: 2 · 20-second clips if enough hits have audio, else cards · public game')).toBeTruthy();
    act(() => useGame.setState({ game: { ...open, state: 'Guessing', clue_mode: 'card' } }));
    expect(screen.getByText('Goal: 10 hits · start tokens: 2 · cards instead of audio · public game')).toBeTruthy();
  });
});

/** A dry-run (or applied) import report with `added` new hits and no other change. */
const report = (added: number, applied: boolean) => ({
  ok: true,
  applied,
  message: '',
  errors: [],
  summary: { hits: { added, changed: 0, unchanged: 3, rejected: 0 }, packs: { added: 0, changed: 0, unchanged: 0, rejected: 0 } },
  hits: {
    added: Array.from({ length: added }, (_, i) => ({ index: i, line: 2 + i, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: `Song ${i}`, artist: 'Band', year: 1990 + i })),
    changed: [],
    unchanged: 3,
    rejected: [],
  },
  packs: { added: [], changed: [], unchanged: 0, rejected: [] },
  truncated: false,
});

describe('import dialog: ready and applied', () => {
  it.each(
    counted([
      ['en', 1, ['Ready to apply: 1 hit to add, 0 to change.', 'Import applied: 1 hit added, 0 changed.']],
      ['en', 2, ['Ready to apply: 2 hits to add, 0 to change.', 'Import applied: 2 hits added, 0 changed.']],
      ['de', 1, ['Bereit zum Anwenden: 1 Hit neu, 0 geändert.', 'Import angewendet: 1 Hit hinzugefügt, 0 geändert.']],
      ['de', 2, ['Bereit zum Anwenden: 2 Hits neu, 0 geändert.', 'Import angewendet: 2 Hits hinzugefügt, 0 geändert.']],
    ]),
  )('%s, %i added', async (lng, added, [ready, applied]) => {
    await act(() => applyLanguage(lng));
    useCatalogue.setState({ packs: [], packsLoaded: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://localhost');
        if (url.pathname === '/api/hits/import') return json(report(added, url.searchParams.get('apply') === 'true'));
        if (url.pathname === '/api/hits/packs') return json({ packs: [] });
        return json({}, 404);
      }),
    );
    const h = i18next.getFixedT(lng, 'hits');
    renderApp(<ImportButton onApplied={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: h('import.button') }));
    const input = (await screen.findByLabelText(h('import.file'))) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['hits: []\n'], 'hits.yml', { type: 'application/x-yaml' })] } });
    expect(await screen.findByText(ready)).toBeTruthy();
    const apply = screen.getByRole('button', { name: h('import.apply') }) as HTMLButtonElement;
    await waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    expect(await screen.findByText(applied)).toBeTruthy();
  });
});

describe('browse hits: a page past the end', () => {
  it.each(
    counted([
      ['en', 1, 'This page is past the end of the 1 hit found.'],
      ['en', 2, 'This page is past the end of the 2 hits found.'],
      ['de', 1, 'Diese Seite liegt hinter dem Ende der Treffer (1 Hit gefunden).'],
      ['de', 2, 'Diese Seite liegt hinter dem Ende der Treffer (2 Hits gefunden).'],
    ]),
  )('%s, %i found', async (lng, total, text) => {
    await act(() => applyLanguage(lng));
    useCatalogue.setState({ packs: [], packsLoaded: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://localhost');
        if (url.pathname === '/api/hits/search') return json({ results: [], total, start: Number(url.searchParams.get('start')), end: 0 });
        if (url.pathname === '/api/hits/packs') return json({ packs: [] });
        return json({}, 404);
      }),
    );
    renderApp(
      <Routes>
        <Route path="/hits/*" element={<HitsScreen />} />
      </Routes>,
      '/hits?p=3',
    );
    expect(await screen.findByText(text)).toBeTruthy();
  });
});
