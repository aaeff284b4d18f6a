import type { GameMode } from '../../../shared/protocol/game.ts';
import type { ProcessHits } from '../../../shared/protocol/catalogue.ts';
import { playSfx, type SfxName } from '../audio/sfx.ts';
import { hitText, slotText, type HitLike, type YearRange } from '../format.ts';
import { i18next } from '../i18n.ts';
import { useNotifications, type ToastKind } from '../stores/notifications.ts';
import { announce } from './announcer.ts';

/**
 * The spec's notification events (§4) as functions: each builds its text in the
 * current language, announces it to screen readers (interrupting or polite),
 * plays its sound cue and tells any subscriber (toasts, logs, tests). The game
 * screen calls these when it sees the matching room events.
 */

/** A player as notifications name him; `you` when he is the person at this device (never in local games). */
export interface Who {
  name: string;
  you?: boolean;
}

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

function publish(type: NotificationType, text: string, interrupt: boolean, sfx?: SfxName, transient = false): Notification {
  const n: Notification = { type, text, interrupt, ...(sfx ? { sfx } : {}) };
  if (text) announce(text, { interrupt, transient });
  if (sfx) void playSfx(sfx);
  for (const l of listeners) l(n);
  return n;
}

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});
/** Picks the "you" form of a text when the subject is the person at this device. */
const youOr = (who: Who, key: string, params: Record<string, unknown> = {}): string =>
  t(who.you ? `${key}_you` : key, { name: who.name, ...params });

/** Local games have no "you": every seat is someone at the same device. */
export const isYou = (playerId: string, myId: string | undefined, mode: GameMode): boolean => mode !== 'Local' && playerId === myId;

export const notify = {
  joined: (who: Who) => publish('joined', youOr(who, 'notify.joined'), false, 'join_game'),
  /** Someone left; `by`: the creator removed him. Being removed interrupts, and shows as a toast too. */
  left: (who: Who, by?: Who) => {
    if (!by) return publish('left', youOr(who, 'notify.left'), false, 'leave_game');
    const text = by.you ? t('notify.removed_by_you', { name: who.name }) : youOr(who, 'notify.removed', { by: by.name });
    if (who.you) useNotifications.getState().toast({ kind: 'warning', title: text });
    return publish('left', text, !!who.you, 'leave_game');
  },
  tokenReceived: (who: Who) => publish('token_received', youOr(who, 'notify.token_received'), false, 'receive_token'),
  hitRevealed: (hit: HitLike) => publish('hit_revealed', t('notify.hit_revealed', { hit: hitText(hit) }), false),
  /**
   * A guess or interception; `slot` null = declined ("don't intercept"), or did
   * not answer: `cause` timeout (time ran out) or absent (not connected);
   * `paid` = an interception that cost a token.
   */
  guessed: (who: Who, slot: YearRange | null, paid = false, cause?: 'timeout' | 'absent') =>
    slot
      ? publish('guessed', youOr(who, 'notify.guessed', { slot: slotText(slot) }), false, paid ? 'pay_token' : undefined)
      : publish('guessed', youOr(who, cause ? `notify.guessed_${cause}` : 'notify.guessed_none'), false, 'no_interception'),
  /** A skip reveals the skipped hit to everybody (spec §4): shown as a toast too. */
  skippedHit: (who: Who, hit: HitLike) => {
    const text = youOr(who, 'notify.skipped_hit', { hit: hitText(hit) });
    useNotifications.getState().toast({ kind: 'info', title: text });
    return publish('skipped_hit', text, false, 'pay_token');
  },
  claimedHit: (who: Who, hit: HitLike) => publish('claimed_hit', youOr(who, 'notify.claimed_hit', { hit: hitText(hit) }), false, 'claim_hit'),
  /** The round's outcome: who won the card (null = nobody). Interrupts: it matters more than anything queued. */
  scored: (winner: Who | null) =>
    winner
      ? publish('scored', youOr(winner, 'notify.scored'), true, winner.you ? 'you_score' : 'you_fail')
      : publish('scored', t('notify.scored_nobody'), true, 'you_fail'),
  gameEnded: (winner: Who | null) =>
    winner
      ? publish('game_ended', youOr(winner, 'notify.game_ended'), true, winner.you ? 'you_win' : 'you_lose')
      : publish('game_ended', t('notify.game_ended_nobody'), true, 'you_lose'),
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
  gameStarted: () => publish('game_started', t('notify.game_started'), true),
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
  /** A bare sound cue (play hit, stop hit…), with no text. */
  playSfx: (name: SfxName) => publish('play_sfx', '', false, name),
};
