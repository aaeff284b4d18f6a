import { act, fireEvent, render as rtlRender, screen } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import HitsScreen from '../../client/src/routes/hits/HitsScreen.tsx';
import { PLAYER_TIMEOUT_MS, VideoPlayer } from '../../client/src/routes/hits/VideoPlayer.tsx';
import { onNotification } from '../../client/src/a11y/notify.ts';
import { applyLanguage, loadNamespace } from '../../client/src/i18n.ts';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { system } from '../../client/src/theme.ts';
import { json, renderApp } from './render.tsx';

/**
 * Hit detail as a component: the processed file's player (editors only, once
 * the audio is ready, Opus then MP3), and the video player's placeholders.
 */

const PACK = '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01';
const HIT = '00000000-0000-4000-8000-000000000042';
let audio = 'ready';
/** What the server answers for the hit's video and offset (it sends "" and 0 to callers without write_hits). */
let video = { yt_id: '', playback_offset: 0 };

const user = (writeHits: boolean) => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'curator',
  virtual: false,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: writeHits, write_packs: writeHits, read_issues: false, write_issues: true, delete_issues: false },
});

const render = () =>
  renderApp(
    <Routes>
      <Route path="/hits/*" element={<HitsScreen />} />
    </Routes>,
    `/hits/${HIT}`,
  );

beforeAll(async () => {
  await loadNamespace('hits');
});

beforeEach(() => {
  resetSessionForTests();
  audio = 'ready';
  video = { yt_id: '', playback_offset: 0 };
  useSession.setState({ ready: true, user: user(true) });
  useCatalogue.setState({ packs: [{ id: PACK, name: 'Pack', hits: 3 }], packsLoaded: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === `/api/hits/${HIT}`) {
        return json({ id: HIT, title: 'Song', artist: 'Band', belongs_to: '', year: 1999, packs: [PACK], ...video, audio });
      }
      if (url.pathname === '/api/hits/packs') return json({ packs: [{ id: PACK, name: 'Pack', hits: 3 }] });
      // the page's history section (hit-reports.test.tsx tests it)
      if (url.pathname === `/api/hits/${HIT}/history`) return json({ hit_id: HIT, year: 1999, changes: [], reports: [] });
      return json({ type: 'error', code: 'not_found', message: 'not found' }, 404);
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const player = (): HTMLAudioElement | null => document.querySelector('audio');

describe('the processed audio on the hit detail page', () => {
  it('an editor gets a labelled player for a ready hit: Opus first, then MP3, from the editors’ route', async () => {
    render();
    await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
    const el = player();
    expect(el).not.toBeNull();
    expect(el!.controls).toBe(true);
    expect(el!.getAttribute('aria-label')).toBe('Processed audio of Band – Song');
    expect(el!.getAttribute('preload')).toBe('metadata');
    const sources = [...el!.querySelectorAll('source')].map((s) => [s.getAttribute('src'), s.getAttribute('type')]);
    expect(sources).toEqual([
      [`/api/hits/${HIT}/audio?format=opus`, 'audio/ogg; codecs=opus'],
      [`/api/hits/${HIT}/audio?format=mp3`, 'audio/mpeg'],
    ]);
    // its description says what is heard
    const note = document.getElementById(el!.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe(
      'As games play it: loudness-normalised, and the file starts at the playback offset. A game plays its first seconds while the hit is hidden (20 unless the game is set otherwise), and all of it once the hit is revealed.',
    );
  });

  it('plays the hit as a game’s hidden hit: a named button, the position, stopped after the clip length and rewound', async () => {
    const played = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async () => {});
    const paused = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    const heard: string[] = [];
    const off = onNotification((n) => heard.push(n.text));
    try {
      render();
      await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
      const button = screen.getByRole('button', { name: 'Play the 20-second clip' });
      // a real button, reachable and pressed by keyboard like any other
      expect(button.tagName).toBe('BUTTON');
      expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe('0:00 of 0:20');
      const bar = screen.getByRole('progressbar', { name: 'Position in the clip' });
      expect(bar.getAttribute('aria-valuetext')).toBe('0:00 of 0:20');
      const el = player()!;
      el.currentTime = 35; // wherever the browser's own controls left it
      fireEvent.click(button);
      expect(played).toHaveBeenCalledTimes(1);
      // from the start of the file, which is the playback offset
      expect(el.currentTime).toBe(0);
      const stopButton = await screen.findByRole('button', { name: 'Stop the clip' });
      el.currentTime = 7.4;
      fireEvent(el, new Event('timeupdate'));
      expect(screen.getByRole('progressbar', { name: 'Position in the clip' }).getAttribute('aria-valuetext')).toBe('0:07 of 0:20');
      expect(document.getElementById(stopButton.getAttribute('aria-describedby')!)?.textContent).toBe('0:07 of 0:20');
      // the clip's end: stopped, rewound, said
      el.currentTime = 20.1;
      fireEvent(el, new Event('timeupdate'));
      await screen.findByRole('button', { name: 'Play the 20-second clip' });
      expect(paused).toHaveBeenCalled();
      expect(el.currentTime).toBe(0);
      expect(heard).toContain('The clip has ended.');
      // Stop ends it at once, rewound, without saying it ended by itself
      fireEvent.click(screen.getByRole('button', { name: 'Play the 20-second clip' }));
      el.currentTime = 3;
      fireEvent(el, new Event('timeupdate'));
      fireEvent.click(await screen.findByRole('button', { name: 'Stop the clip' }));
      await screen.findByRole('button', { name: 'Play the 20-second clip' });
      expect(el.currentTime).toBe(0);
      expect(heard.filter((h) => h === 'The clip has ended.')).toHaveLength(1);
      // a file shorter than the clip: the clip is the file
      Object.defineProperty(el, 'duration', { configurable: true, value: 12.5 });
      fireEvent(el, new Event('loadedmetadata'));
      expect(screen.getByRole('progressbar', { name: 'Position in the clip' }).getAttribute('aria-valuetext')).toBe('0:00 of 0:12');
      expect(screen.getByRole('button', { name: 'Play the 13-second clip' })).toBeTruthy();
    } finally {
      off();
      played.mockRestore();
      paused.mockRestore();
    }
  });

  it('says the clip’s words in German', async () => {
    await act(() => applyLanguage('de'));
    try {
      render();
      await screen.findByRole('heading', { level: 1 });
      expect(screen.getByRole('button', { name: 'Ausschnitt von 20 Sekunden abspielen' })).toBeTruthy();
      expect(screen.getByRole('progressbar', { name: 'Position im Ausschnitt' }).getAttribute('aria-valuetext')).toBe('0:00 von 0:20');
    } finally {
      await act(() => applyLanguage('en'));
    }
  });

  it('says so when neither file can be played', async () => {
    render();
    await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
    fireEvent.error(player()!.querySelectorAll('source')[1]!);
    expect((await screen.findByRole('alert')).textContent).toBe('The processed audio could not be loaded: reload the page to try again.');
    expect(player()).toBeNull();
  });

  it('no player while the audio is not ready', async () => {
    audio = 'processing';
    render();
    await screen.findByText('Processing');
    expect(player()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Play the 20-second clip' })).toBeNull();
  });

  it('no player for a visitor, even when the audio is ready (the file is for editors only)', async () => {
    useSession.setState({ user: user(false) });
    render();
    await screen.findByText('Ready');
    expect(player()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Play the 20-second clip' })).toBeNull();
    expect((globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls.some(([u]) => String(u).includes('/audio'))).toBe(false);
  });
});

describe('the video and its offset', () => {
  it('an editor sees the video, its link and the offset', async () => {
    video = { yt_id: 'dQw4w9WgXcQ', playback_offset: 42 };
    render();
    await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
    expect(screen.getByText('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBeTruthy();
    expect(screen.getByText('42 seconds')).toBeTruthy();
    expect(document.querySelector('iframe')?.getAttribute('src')).toMatch(/\/embed\/dQw4w9WgXcQ\?start=42&/);
  });

  it('an editor reads a hit without a video ("" from the server) as one without', async () => {
    render();
    await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
    expect(screen.getByText('This hit has no video.')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('a visitor gets neither a video nor a link nor an offset, and is not told there is none', async () => {
    useSession.setState({ user: user(false) });
    render();
    await screen.findByRole('heading', { level: 1, name: 'Band: Song' });
    await screen.findByText('Ready');
    expect(screen.queryByText('Video URL')).toBeNull();
    expect(screen.queryByText('Playback offset')).toBeNull();
    expect(screen.queryByText('This hit has no video.')).toBeNull();
    expect(screen.queryByRole('link', { name: /YouTube/ })).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
  });
});

describe('the video player', () => {
  const show = (ytId: string | null, offset = 0) =>
    rtlRender(
      <ChakraProvider value={system}>
        <VideoPlayer ytId={ytId} offset={offset} label="YouTube video of Band – Song" />
      </ChakraProvider>,
    );

  it('embeds YouTube from the playback offset, and shows a placeholder when the player does not answer in time', () => {
    vi.useFakeTimers();
    // (happy-dom loads no frames and prints a NotSupportedError saying so: expected here, like being offline)
    show('dQw4w9WgXcQ', 42);
    const frame = document.querySelector('iframe');
    expect(frame?.getAttribute('title')).toBe('YouTube video of Band – Song');
    expect(frame?.getAttribute('src')).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?start=42&enablejsapi=1&origin=/);
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    act(() => {
      fireEvent.load(frame!);
      vi.advanceTimersByTime(PLAYER_TIMEOUT_MS + 10);
    });
    expect(screen.getByText('The YouTube player could not be loaded (offline, or blocked by the browser).')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
    expect(screen.getByRole('link', { name: 'Watch on YouTube (opens in a new tab)' }).getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  });

  it('says there is no video without a video id', () => {
    show(null);
    expect(screen.getByText('This hit has no video.')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
  });
});
