import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import { notify, onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { isYou } from '../../client/src/stores/game-events.ts';
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

describe('notification events', () => {
  it('a game event\'s meaning is said politely or at once, with its sound cue and, when it asks for one, a toast', () => {
    useNotifications.setState({ toasts: [] });
    notify.meaning({ kind: 'joined', type: 'joined', text: 'Ana joined the game.', actors: [], tone: 'neutral', interrupt: false, sfx: 'join_game' });
    notify.meaning({ kind: 'skipped', type: 'skipped_hit', text: 'Ben skipped Wonderwall by Oasis (1995).', actors: [], tone: 'neutral', interrupt: false, sfx: 'pay_token', toast: 'info' });
    expect(seen.map((n) => [n.type, n.text, n.interrupt, n.sfx])).toEqual([
      ['joined', 'Ana joined the game.', false, 'join_game'],
      ['skipped_hit', 'Ben skipped Wonderwall by Oasis (1995).', false, 'pay_token'],
    ]);
    expect(useNotifications.getState().toasts.map((t) => t.title)).toEqual(['Ben skipped Wonderwall by Oasis (1995).']);
    vi.advanceTimersByTime(1000);
    expect(announcer.getSnapshot().polite.map((m) => m.text)).toEqual(['Ana joined the game.', 'Ben skipped Wonderwall by Oasis (1995).']);
    notify.meaning({ kind: 'scored', type: 'scored', text: 'Nobody scored.', actors: [], tone: 'bad', interrupt: true, sfx: 'you_fail' });
    expect(announcer.getSnapshot().assertive.at(-1)?.text).toBe('Nobody scored.');
  });

  it('reads the selected slot, and says when it is taken', () => {
    expect(notify.slotSelected({ from_year: 1970, to_year: 1980 })).toMatchObject({ text: 'between 1970 and 1980', interrupt: true, sfx: 'select_slot' });
    expect(notify.slotSelected({ from_year: 0, to_year: 1970 }, true)).toMatchObject({ text: 'before 1970, already taken', sfx: 'slot_unavailable' });
    expect(notify.slotSelected(null).text).toBe('no slot');
  });

  it('covers the lobby and system events', () => {
    expect(notify.gameCreated('Ana').text).toBe('New game by Ana.');
    expect(notify.gameRemoved('Ana').text).toBe("Ana's game was closed.");
    expect(notify.hitsProgress({ available: 3, downloading: 2, processing: 1, failed: 0, cards: 0, youtube: true }).text).toBe('Hits: 3 available, 2 downloading, 1 processing.');
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
