import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnnouncerSnapshot } from '../../client/src/a11y/announcer.ts';
import { InviteButton } from '../../client/src/routes/game/InviteButton.tsx';
import { isLoopbackHost, joinOrigin, pickJoinOrigin, playLink } from '../../client/src/routes/game/join-origin.ts';
import { newAnnouncements, shouldAutoplay, silentReason, tvFontSize } from '../../client/src/routes/game/tv/tv-logic.ts';
import { json, renderApp } from './render.tsx';

/** The TV view's pure parts, and the join address the TV's QR code and the invite dialog use. */

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the join origin', () => {
  it('knows the loopback hosts', () => {
    expect(['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['hitline.example.org', '192.168.1.20', '[fd00::2]', 'localhost.example.org', '10.0.0.127'].some(isLoopbackHost)).toBe(false);
  });

  it('is the page’s own origin unless the page is on loopback', () => {
    expect(pickJoinOrigin('https://party.example.org', { public_url: 'https://other.example.org', lan: ['http://192.168.1.2:3000'] })).toEqual({ origin: 'https://party.example.org', loopbackOnly: false });
  });

  it('on loopback: PUBLIC_URL first, then a LAN address, else loopback with the warning', () => {
    const page = 'http://localhost:3000';
    expect(pickJoinOrigin(page, { public_url: 'https://party.example.org', lan: ['http://192.168.1.2:3000'] })).toEqual({ origin: 'https://party.example.org', loopbackOnly: false });
    expect(pickJoinOrigin(page, { public_url: null, lan: ['http://192.168.1.2:3000', 'http://[fd00::2]:3000'] })).toEqual({ origin: 'http://192.168.1.2:3000', loopbackOnly: false });
    expect(pickJoinOrigin(page, { public_url: null, lan: [] })).toEqual({ origin: page, loopbackOnly: true });
    expect(pickJoinOrigin('http://127.0.0.1:3000', null)).toEqual({ origin: 'http://127.0.0.1:3000', loopbackOnly: true });
  });

  it('asks the server only from a loopback page', async () => {
    const fetch = vi.fn(async () => json({ public_url: null, lan: ['http://192.168.1.2:3000'] }));
    vi.stubGlobal('fetch', fetch);
    expect(await joinOrigin('https://party.example.org')).toEqual({ origin: 'https://party.example.org', loopbackOnly: false });
    expect(fetch).not.toHaveBeenCalled();
    expect(await joinOrigin('http://localhost:3000')).toEqual({ origin: 'http://192.168.1.2:3000', loopbackOnly: false });
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain('/api/join-address');
  });

  it('the play link is the controller view; a Local game’s carries the seat key', () => {
    expect(playLink('http://192.168.1.2:3000', 'AbCd1234')).toBe('http://192.168.1.2:3000/game/AbCd1234/play');
    expect(playLink('https://party.example.org', 'AbCd1234', 'k3y/+')).toBe('https://party.example.org/game/AbCd1234/play?key=k3y%2F%2B');
  });

  it('the invite dialog on a loopback page with no other address warns that phones cannot open it', async () => {
    expect(isLoopbackHost(window.location.hostname)).toBe(true);
    vi.stubGlobal('fetch', vi.fn(async () => json({ public_url: null, lan: [] })));
    renderApp(<InviteButton gameId="AbCd1234" mode="Public" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Invite' })));
    expect(await screen.findByText(/Phones cannot open “localhost”/)).toBeTruthy();
  });
});

describe('the TV view', () => {
  const game = { state: 'Guessing', mode: 'Public', clue_mode: 'audio' } as const;

  it('says why it plays no hit: card mode, DJ mode, a Private game for a viewer who is not seated', () => {
    expect(silentReason(game, false)).toBeNull();
    expect(silentReason({ ...game, state: 'Open' }, false)).toBeNull();
    expect(silentReason({ ...game, clue_mode: 'card' }, true)).toBe('card');
    expect(silentReason({ ...game, clue_mode: 'dj' }, true)).toBe('dj');
    expect(silentReason({ ...game, mode: 'Private' }, false)).toBe('private');
    expect(silentReason({ ...game, mode: 'Private' }, true)).toBeNull();
    // the revealed hit is for everybody
    expect(silentReason({ ...game, mode: 'Private', state: 'Confirming' }, false)).toBeNull();
  });

  it('starts each draw’s hidden clip once, only after the unlock, not when it plays already', () => {
    expect(shouldAutoplay('draw:G:3', false, null, null)).toBe(false);
    expect(shouldAutoplay('draw:G:3', true, null, null)).toBe(true);
    expect(shouldAutoplay('draw:G:3', true, 'draw:G:3', null)).toBe(false);
    expect(shouldAutoplay('draw:G:4', true, 'draw:G:3', null)).toBe(true);
    expect(shouldAutoplay('draw:G:4', true, null, 'draw:G:4')).toBe(false);
    // the revealed hit plays on request only
    expect(shouldAutoplay('hit:abc', true, null, null)).toBe(false);
    expect(shouldAutoplay(null, true, null, null)).toBe(false);
  });

  it('speaks what the live region released since last time, in order, nothing empty', () => {
    const snap: AnnouncerSnapshot = {
      polite: [
        { id: 3, text: 'Ben’s turn.' },
        { id: 5, text: ' ' },
        { id: 6, text: '1987: correct!' },
      ],
      assertive: [{ id: 4, text: 'Time is up.' }],
    };
    expect(newAnnouncements(snap, 3).map((a) => a.text)).toEqual(['Time is up.', '1987: correct!']);
    expect(newAnnouncements(snap, 6)).toEqual([]);
  });

  it('scales its type to the screen: 20 px on a 1920×1080 TV, the reader’s 16 px on a laptop or phone', () => {
    expect(tvFontSize(1920, 1080)).toBe(20);
    expect(tvFontSize(3840, 2160)).toBe(24);
    expect(tvFontSize(1366, 800)).toBe(16);
    expect(tvFontSize(390, 844)).toBe(16);
    // a wide but low window: the height decides
    expect(tvFontSize(1920, 900)).toBeCloseTo(16.7, 5);
  });
});
