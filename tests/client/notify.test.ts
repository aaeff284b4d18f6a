import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import { isYou, notify, onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { useNotifications } from '../../client/src/stores/notifications.ts';

let seen: Notification[] = [];
let off: () => void = () => undefined;

beforeEach(() => {
  vi.useFakeTimers();
  announcer.clear();
  seen = [];
  off = onNotification((n) => seen.push(n));
});
afterEach(() => {
  off();
  vi.useRealTimers();
});

const hit = { title: 'Wonderwall', artist: 'Oasis', year: 1995, belongs_to: '' };

describe('notification events', () => {
  it('speak of "you" or of the player by name, politely, with their sound cue', () => {
    notify.joined({ name: 'Ana' });
    notify.joined({ name: 'Ben', you: true });
    expect(seen.map((n) => [n.text, n.interrupt, n.sfx])).toEqual([
      ['Ana joined the game.', false, 'join_game'],
      ['You joined the game.', false, 'join_game'],
    ]);
    vi.advanceTimersByTime(1000);
    expect(announcer.getSnapshot().polite.map((m) => m.text)).toEqual(['Ana joined the game.', 'You joined the game.']);
  });

  it('words guesses as year ranges, and a declined interception as such', () => {
    expect(notify.guessed({ name: 'Ana' }, { from_year: 0, to_year: 1990 }).text).toBe('Ana chose before 1990.');
    expect(notify.guessed({ name: 'Ana' }, { from_year: 1990, to_year: 0 }, true)).toMatchObject({ text: 'Ana chose after 1990.', sfx: 'pay_token' });
    expect(notify.guessed({ name: 'Ana', you: true }, { from_year: 1980, to_year: 1990 }).text).toBe('You chose between 1980 and 1990.');
    expect(notify.guessed({ name: 'Ana' }, null)).toMatchObject({ text: 'Ana does not intercept.', sfx: 'no_interception' });
  });

  it('names hits with title, artist and year', () => {
    expect(notify.hitRevealed(hit).text).toBe('The hit was Wonderwall by Oasis (1995).');
    expect(notify.skippedHit({ name: 'Ana' }, { ...hit, belongs_to: 'Some Film' }).text).toBe('Ana skipped Wonderwall by Oasis (1995), from Some Film.');
    expect(notify.claimedHit({ name: 'x', you: true }, hit)).toMatchObject({ text: 'You claimed Wonderwall by Oasis (1995).', sfx: 'claim_hit' });
  });

  it('interrupts for the outcome of a round and of the game', () => {
    notify.tokenReceived({ name: 'Ana' });
    expect(notify.scored({ name: 'Ana', you: true })).toMatchObject({ text: 'You scored!', interrupt: true, sfx: 'you_score' });
    expect(notify.scored(null)).toMatchObject({ text: 'Nobody scored.', interrupt: true, sfx: 'you_fail' });
    expect(notify.gameEnded({ name: 'Ben' })).toMatchObject({ text: 'Game over: Ben wins.', interrupt: true, sfx: 'you_lose' });
    expect(notify.gameEnded({ name: 'Ben', you: true }).sfx).toBe('you_win');
    expect(notify.gameEnded(null).text).toBe('Game over: no one wins.');
    // the queued polite token message was dropped by the interruptions
    vi.advanceTimersByTime(1000);
    expect(announcer.getSnapshot().polite.map((m) => m.text)).not.toContain('Ana received a token.');
    expect(announcer.getSnapshot().assertive.at(-1)?.text).toBe('Game over: no one wins.');
  });

  it('reads the selected slot, and says when it is taken', () => {
    expect(notify.slotSelected({ from_year: 1970, to_year: 1980 })).toMatchObject({ text: 'between 1970 and 1980', interrupt: true, sfx: 'select_slot' });
    expect(notify.slotSelected({ from_year: 0, to_year: 1970 }, true)).toMatchObject({ text: 'before 1970, already taken', sfx: 'slot_unavailable' });
    expect(notify.slotSelected(null).text).toBe('no slot');
  });

  it('covers the lobby and system events', () => {
    expect(notify.gameCreated('Ana').text).toBe('New game by Ana.');
    expect(notify.gameRemoved('Ana').text).toBe("Ana's game was closed.");
    expect(notify.gameStarted()).toMatchObject({ text: 'The game has started.', interrupt: true });
    expect(notify.hitsProgress({ available: 3, downloading: 2, processing: 1 }).text).toBe('Hits: 3 available, 2 downloading, 1 processing.');
    expect(notify.popup('Game settings')).toMatchObject({ text: 'Game settings', sfx: 'popup' });
    expect(notify.playSfx('play_hit')).toMatchObject({ text: '', sfx: 'play_hit' });
  });

  it('a generic notification is also a toast', () => {
    useNotifications.setState({ toasts: [] });
    notify.notification('Saved.');
    expect(useNotifications.getState().toasts.map((t) => t.title)).toEqual(['Saved.']);
    notify.notification('Quiet.', { toast: false, interrupt: true });
    expect(useNotifications.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(5000);
    expect(useNotifications.getState().toasts).toHaveLength(0);
  });

  it('has no "you" in local games', () => {
    expect(isYou('a', 'a', 'Public')).toBe(true);
    expect(isYou('a', 'a', 'Local')).toBe(false);
    expect(isYou('a', 'b', 'Private')).toBe(false);
  });
});
