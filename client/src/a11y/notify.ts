import type { ProcessHits } from '../../../shared/protocol/catalogue.ts';
import { playSfx, type PlaySfxOptions, type SfxName } from '../audio/sfx.ts';
import { slotText, type YearRange } from '../format.ts';
import { i18next } from '../i18n.ts';
import { useNotifications, type ToastKind } from '../stores/notifications.ts';
import { announce } from './announcer.ts';

/**
 * The spec's notification events (docs/product.md#states) as functions: each announces its text to
 * screen readers (interrupting or polite), plays its sound cue and tells any
 * subscriber (toasts, logs, tests). What a game event means, in words, comes
 * from game-meaning.ts (the event feed shows the same); the others build their
 * text here, in the current language.
 */

export type NotificationType =
  | 'joined'
  | 'left'
  | 'token_received'
  | 'hit_revealed'
  | 'guessed'
  | 'skipped_hit'
  | 'claimed_hit'
  | 'scored'
  | 'game_ended'
  | 'slot_selected'
  | 'game_created'
  | 'game_removed'
  | 'game_started'
  | 'hits_progress'
  | 'hit_created'
  | 'popup'
  | 'notification'
  | 'play_sfx';

export interface Notification {
  type: NotificationType;
  /** What was announced ("" for a bare sound cue). */
  text: string;
  interrupt: boolean;
  sfx?: SfxName;
}

const listeners = new Set<(n: Notification) => void>();

/** Subscribes to every notification; returns the unsubscribe function. */
export function onNotification(listener: (n: Notification) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish(type: NotificationType, text: string, interrupt: boolean, sfx?: SfxName, transient = false, sfxOptions?: PlaySfxOptions): Notification {
  const n: Notification = { type, text, interrupt, ...(sfx ? { sfx } : {}) };
  if (text) announce(text, { interrupt, transient });
  if (sfx) void playSfx(sfx, sfxOptions);
  for (const l of listeners) l(n);
  return n;
}

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

/** What notify says of a game event (game-meaning.ts's Meaning carries this and more, for the feed). */
export interface Said {
  type: NotificationType;
  text: string;
  interrupt: boolean;
  sfx?: SfxName;
  toast?: ToastKind;
}

export const notify = {
  /**
   * What a game event means (game-meaning.ts): said, with its sound, shown as a
   * toast when it asks for one. The event feed shows the same meaning.
   */
  meaning: <M extends Said>(m: M) => {
    if (m.toast) useNotifications.getState().toast({ kind: m.toast, title: m.text });
    return publish(m.type, m.text, m.interrupt, m.sfx);
  },
  /** The slot picker moved; interrupts, so arrowing through slots reads only the current one. */
  slotSelected: (slot: YearRange | null, unavailable = false) =>
    publish(
      'slot_selected',
      unavailable ? t('notify.slot_unavailable', { slot: slotText(slot) }) : slotText(slot),
      true,
      unavailable ? 'slot_unavailable' : 'select_slot',
    ),
  /** A game appeared in the lobby (`creator`: its creator's name). */
  gameCreated: (creator: string) => publish('game_created', t('notify.game_created', { name: creator }), false),
  /** A game left the lobby (`creator`: its creator's name). */
  gameRemoved: (creator: string) => publish('game_removed', t('notify.game_removed', { name: creator }), false),
  hitsProgress: (p: ProcessHits) => publish('hits_progress', t('notify.hits_progress', p), false),
  /** A hit was saved in the catalogue; the text comes from the (lazily loaded) catalogue screens' messages. */
  hitCreated: (text: string) => {
    useNotifications.getState().toast({ kind: 'success', title: text });
    return publish('hit_created', text, false);
  },
  /** A dialog opened: its cue, and its title for those who cannot see it appear. */
  popup: (title: string) => publish('popup', title, false, 'popup'),
  /**
   * Any other message; shown as a toast too unless `toast` is false. `transient`:
   * only worth hearing now, so an interruption may drop it (announcer.ts).
   */
  notification: (text: string, options: { interrupt?: boolean; toast?: ToastKind | false; transient?: boolean } = {}) => {
    if (options.toast !== false) useNotifications.getState().toast({ kind: options.toast ?? 'info', title: text });
    return publish('notification', text, options.interrupt ?? false, undefined, options.transient ?? false);
  },
  /** A bare sound cue (play hit, stop hit, the countdown's tick…), with no text. */
  playSfx: (name: SfxName, options?: PlaySfxOptions) => publish('play_sfx', '', false, name, false, options),
};
