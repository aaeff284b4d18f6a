import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorDialog } from '../../client/src/components/ErrorDialog.tsx';
import { ErrorPage } from '../../client/src/components/ErrorPage.tsx';
import { HitStatus } from '../../client/src/components/HitStatus.tsx';
import { pageTitle } from '../../client/src/components/page-title.ts';
import { UserMenu } from '../../client/src/components/UserMenu.tsx';
import { WelcomeDialog } from '../../client/src/components/WelcomeDialog.tsx';
import { copyrightYears } from '../../client/src/about.ts';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import type { ProcessHits } from '../../shared/protocol/catalogue.ts';
import { useNotifications } from '../../client/src/stores/notifications.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { useSettings } from '../../client/src/stores/settings.ts';
import { json, renderApp } from './render.tsx';

const user = (virtual: boolean) => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: virtual ? 'kindly-brave-otter' : 'Ana',
  virtual,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false },
});

beforeEach(() => {
  resetSessionForTests();
  useCatalogue.setState({ packs: [], packsLoaded: false, packsError: null, progress: null });
});
afterEach(() => vi.unstubAllGlobals());

describe('texts of the shell', () => {
  it('page titles end with the product name', () => {
    expect(pageTitle('Game lobby', 'Hitline')).toBe('Game lobby – Hitline');
    expect(pageTitle(undefined, 'Hitline')).toBe('Hitline');
  });

  it('the copyright line starts in 2024', () => {
    expect(copyrightYears(new Date('2024-05-01'))).toBe('2024');
    expect(copyrightYears(new Date('2027-05-01'))).toBe('2024–2027');
  });

  it('the error page says Oops, the apology and the status', () => {
    renderApp(<ErrorPage status={404} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Oops!');
    expect(screen.getByText('Sorry, an unexpected error has occurred.')).toBeTruthy();
    expect(screen.getByText('404 Not Found')).toBeTruthy();
    expect(document.title).toBe('Oops! – Hitline');
  });
});

/** Opens a Chakra (zag) menu; its items render a moment after the click. */
async function openMenu(name: string): Promise<string[]> {
  const trigger = screen.getByRole('button', { name });
  fireEvent.click(trigger);
  await waitFor(() => expect(trigger.getAttribute('aria-expanded')).toBe('true'));
  return screen.getAllByRole('menuitem').map((i) => i.textContent ?? '');
}

describe('UserMenu', () => {
  it('a guest is "known as" and may change his name, log in or register', async () => {
    useSession.setState({ user: user(true), ready: true });
    renderApp(<UserMenu />);
    expect(await openMenu('Known as kindly-brave-otter')).toEqual(['Change name', 'Log in', 'Register']);
  });

  it('a registered user is "logged in as" and may log out or delete his account', async () => {
    useSession.setState({ user: user(false), ready: true });
    renderApp(<UserMenu />);
    expect(await openMenu('Logged in as Ana')).toEqual(['Log out', 'Delete account']);
  });
});

describe('HitStatus', () => {
  const counts = (c: Partial<ProcessHits>): ProcessHits => ({ available: 0, downloading: 0, processing: 0, failed: 0, cards: 0, youtube: true, ...c });
  const items = (name: string): string[] => within(screen.getByRole('region', { name })).getAllByRole('listitem').map((l) => l.textContent ?? '');

  it('says how far the music is prepared while anything downloads or is processed, with the counts, then that the hits are ready', () => {
    useCatalogue.setState({ progress: counts({ available: 57, downloading: 210, processing: 3, cards: 52 }) });
    renderApp(<HitStatus />);
    const button = screen.getByRole('button', { name: 'Preparing music: 57 of 270' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(items('Preparing music: 57 of 270')).toEqual(['57 hits with audio, ready to play', '210 hits downloading', '3 hits processing', '52 hits without audio, played as cards']);
    // local files (or re-processing) only
    act(() => useCatalogue.setState({ progress: counts({ available: 5, processing: 2 }) }));
    expect(screen.getByRole('button', { name: 'Preparing music: 5 of 7' }).getAttribute('aria-expanded')).toBe('true');
    expect(items('Preparing music: 5 of 7')).toEqual(['5 hits with audio, ready to play', '2 hits processing']);
    act(() => useCatalogue.setState({ progress: counts({ available: 1268, failed: 2, cards: 52 }) }));
    expect(screen.getByRole('button', { name: 'Hits ready' })).toBeTruthy();
    expect(items('Hits ready')).toEqual(['1,268 hits with audio, ready to play', '2 hits failed (the status page says why)', '52 hits without audio, played as cards']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('button', { name: 'Hits ready' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('says "no audio yet" when no hit has audio, never "ready", and why: no YouTube downloads on this server', () => {
    useCatalogue.setState({ progress: counts({ cards: 322, youtube: false }) });
    renderApp(<HitStatus />);
    expect(screen.queryByRole('button', { name: 'Hits ready' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'No audio yet' }));
    expect(items('No audio yet')).toEqual([
      '0 hits with audio, ready to play',
      '322 hits without audio, played as cards',
      'This server cannot download from YouTube: yt-dlp is missing or switched off.',
      'No hit has audio yet, so games are played with cards: title and artist are read aloud.',
    ]);
  });

  it('does not blame YouTube when every hit has audio', () => {
    useCatalogue.setState({ progress: counts({ available: 10, youtube: false }) });
    renderApp(<HitStatus />);
    fireEvent.click(screen.getByRole('button', { name: 'Hits ready' }));
    expect(items('Hits ready')).toEqual(['10 hits with audio, ready to play']);
  });
});

describe('WelcomeDialog', () => {
  /** The packs as the server lists them: 1,234 links, but 1,200 hits (34 are in both packs). */
  const packList = () =>
    json({
      packs: [
        { id: '0f8fad5b-d9cb-469f-a165-70867728950a', name: 'Eighties', hits: 1200 },
        { id: '0f8fad5b-d9cb-469f-a165-70867728950b', name: 'Nineties', hits: 34 },
      ],
      total: 1200,
    });

  it('says how many hits there are (each once, not the packs added up) and that they are played as cards while none has audio', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => packList()));
    useCatalogue.setState({ progress: { available: 0, downloading: 0, processing: 0, failed: 0, cards: 1200, youtube: false } });
    useSettings.setState({ welcome: false });
    renderApp(<WelcomeDialog />);
    expect(await screen.findByText('1,200 hits in 2 packs, played as cards: no audio yet')).toBeTruthy();
    act(() => useCatalogue.setState({ progress: { available: 1100, downloading: 0, processing: 100, failed: 0, cards: 0, youtube: true } }));
    expect(screen.getByText('1,200 hits in 2 packs, 1,100 of them with audio')).toBeTruthy();
  });

  it('shows until dismissed, with the hit total and the pack count', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => packList()));
    useCatalogue.setState({ progress: null });
    useSettings.setState({ welcome: false });
    renderApp(<WelcomeDialog />);
    expect(await screen.findByRole('dialog', { name: 'Welcome to Hitline!' })).toBeTruthy();
    expect(await screen.findByText('1,200 hits in 2 packs to play with')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Basic' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: "Let's play" }));
    expect(useSettings.getState().welcome).toBe(true);
    expect(localStorage.getItem('welcome')).toBe('true');
  });
});

describe('ErrorDialog', () => {
  it('is titled "Error" and shows the message until closed', async () => {
    renderApp(<ErrorDialog />);
    act(() => useNotifications.getState().showError('You need at least two players to start a game.'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Error' });
    expect(within(dialog).getByText('You need at least two players to start a game.')).toBeTruthy();
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    expect(useNotifications.getState().errorMessage).toBeNull();
  });
});
