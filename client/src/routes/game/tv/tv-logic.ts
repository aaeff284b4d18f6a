import type { GamePayload } from '../../../../../shared/protocol/game.ts';
import type { Announcement, AnnouncerSnapshot } from '../../../a11y/announcer.ts';

/**
 * The pure parts of the TV view (docs/product.md#screens "TV"): why it cannot play a hit,
 * when a draw starts by itself, what speech says, how big its type is.
 */

/** Why the TV plays no hit now (null: it does, or nothing is to be played: the game is Open). */
export type SilentReason = 'card' | 'dj' | 'private' | null;

export function silentReason(game: Pick<GamePayload, 'state' | 'mode' | 'clue_mode'>, seated: boolean): SilentReason {
  if (game.state === 'Open') return null;
  if (game.clue_mode === 'card') return 'card';
  if (game.clue_mode === 'dj') return 'dj';
  // docs/rules.md#a12: a Private game's hidden clip is for its players (the revealed hit is for all)
  if (game.mode === 'Private' && !seated && game.state !== 'Confirming') return 'private';
  return null;
}

/**
 * Does the loaded source start by itself now? Only a draw's hidden clip (a new
 * card), once per draw, once the page may play sound, and not when it already
 * plays (the play shortcut may have been the key that unlocked the page).
 */
export function shouldAutoplay(sourceKey: string | null, unlocked: boolean, lastStarted: string | null, playing: string | null): boolean {
  return unlocked && !!sourceKey && sourceKey.startsWith('draw:') && sourceKey !== lastStarted && playing !== sourceKey;
}

/** The live region's messages released since `afterId`, oldest first (what speech says next). */
export function newAnnouncements(snapshot: AnnouncerSnapshot, afterId: number): Announcement[] {
  return [...snapshot.assertive, ...snapshot.polite].filter((a) => a.id > afterId && a.text.trim() !== '').sort((a, b) => a.id - b.id);
}

/**
 * The root font size of the TV page in px: the components are sized in rem, so
 * this one number scales the whole table for a screen seen from 3 m (1920 px
 * wide: 20 px; a laptop or a phone keeps the reader's 16 px).
 */
export function tvFontSize(width: number, height: number): number {
  const byWidth = width / 96;
  const byHeight = height / 54;
  return Math.round(Math.max(16, Math.min(24, byWidth, byHeight)) * 10) / 10;
}
