import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { GamesTable } from '../../client/src/routes/lobby/GamesTable.tsx';
import { LobbyScreen } from '../../client/src/routes/lobby/LobbyScreen.tsx';
import { useLobby, type LobbyGame } from '../../client/src/stores/lobby.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { json, renderApp } from './render.tsx';
import { game } from './game-fixtures.ts';

const games: LobbyGame[] = [
  { id: 'AbCd1234', mode: 'Public', state: 'Open', players: 3, creator: 'kindly-brave-otter' },
  { id: 'XyZ98765', mode: 'Private', state: 'Intercepting', players: 2, creator: 'Ana' },
];

const payload = (id: string) => game([], { id, packs: [] });

const guest = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'kindly-brave-otter',
  virtual: true,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false },
};

beforeEach(() => {
  useLobby.getState().reset();
  resetSessionForTests();
});
afterEach(() => vi.unstubAllGlobals());

describe('GamesTable', () => {
  it('shows id link, players, mode and open/running for each game', () => {
    renderApp(<GamesTable games={games} />);
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3); // header + 2
    expect(within(rows[0] as HTMLElement).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Game', 'Players', 'Mode', 'State']);
    const first = within(rows[1] as HTMLElement);
    const link = first.getByRole('link', { name: 'Game AbCd1234, created by kindly-brave-otter' });
    expect(link.getAttribute('href')).toBe('/game/AbCd1234');
    // the creator shows under the id
    expect(first.getAllByRole('cell').map((c) => c.textContent)).toEqual(['AbCd1234by kindly-brave-otter', '3', 'public', 'open']);
    expect(first.getByText('by kindly-brave-otter').getAttribute('aria-hidden')).toBe('true');
    expect(within(rows[2] as HTMLElement).getAllByRole('cell').map((c) => c.textContent?.replace(/by .*$/, ''))).toEqual(['XyZ98765', '2', 'private', 'running']);
  });

  it('says so when there are no games', () => {
    renderApp(<GamesTable games={[]} />);
    expect(screen.getByText('No games yet. Create one!')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('lobby store', () => {
  it('adds, updates in place and removes games', () => {
    const { upsert, remove } = useLobby.getState();
    upsert(games[0] as LobbyGame);
    upsert(games[1] as LobbyGame);
    upsert({ ...(games[0] as LobbyGame), players: 4, state: 'Guessing' });
    expect(useLobby.getState().games.map((g) => [g.id, g.players, g.state])).toEqual([
      ['AbCd1234', 4, 'Guessing'],
      ['XyZ98765', 2, 'Intercepting'],
    ]);
    remove('AbCd1234');
    expect(useLobby.getState().games.map((g) => g.id)).toEqual(['XyZ98765']);
    remove('unknown1');
    expect(useLobby.getState().games).toHaveLength(1);
  });
});

describe('LobbyScreen', () => {
  it('loads the games, follows store updates, and offers the create menu to a guest', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ games: [payload('AbCd1234')] })));
    useSession.setState({ user: guest, ready: true });
    renderApp(<LobbyScreen />);
    expect(await screen.findByRole('link', { name: /Game AbCd1234/ })).toBeTruthy();
    act(() => useLobby.getState().upsert(games[1] as LobbyGame));
    expect(screen.getByRole('link', { name: /Game XyZ98765/ })).toBeTruthy();
    act(() => useLobby.getState().remove('AbCd1234'));
    expect(screen.queryByRole('link', { name: /Game AbCd1234/ })).toBeNull();
    const create = screen.getByRole('button', { name: /Create new game/ });
    expect((create as HTMLButtonElement).disabled).toBe(false);
  });

  it('disables creating games for an anonymous visitor', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ games: [] })));
    useSession.setState({ user: null, ready: true });
    renderApp(<LobbyScreen />);
    await screen.findByText('No games yet. Create one!');
    expect((screen.getByRole('button', { name: /Create new game/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('creates a game with Alt+Shift+L and goes to it', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST' ? json({ ...payload('NeWg4me1'), mode: 'Local' }, 201) : json({ games: [] }),
    );
    vi.stubGlobal('fetch', fetch);
    useSession.setState({ user: guest, ready: true });
    const { installShortcuts } = await import('../../client/src/a11y/shortcuts.ts');
    const uninstall = installShortcuts();
    renderApp(
      <Routes>
        <Route path="/" element={<LobbyScreen />} />
        <Route path="/game/:gameId" element={<p>game page</p>} />
      </Routes>,
    );
    await screen.findByText('No games yet. Create one!');
    fireEvent.keyDown(window, { key: 'L', code: 'KeyL', altKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getByText('game page')).toBeTruthy());
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[1]?.body).toBe(JSON.stringify({ mode: 'Local' }));
    uninstall();
  });
});
