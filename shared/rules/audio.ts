import { ruleError } from './errors.ts';
import type { Game, Hit, RuleError } from './types.ts';
import { canView } from './views.ts';

/** What the audio endpoint may serve: the hit, and whether only a hidden clip of it. */
export interface AudioTarget {
  hit: Hit;
  /** true while the hit is hidden: serve at most `seconds` seconds, never cached. */
  hidden: boolean;
  seconds: number;
}

/**
 * Decides what `viewer` may hear (docs/rules.md#a12, #audio): the hidden clip of the
 * current card to the players (and to anyone in Public games), the revealed card or
 * any card a player owns in full. Local games exist for their creator only.
 */
export function audioAccess(
  game: Game,
  viewer: string | null,
  hitId?: string,
): { ok: true; target: AudioTarget } | { ok: false; error: RuleError } {
  if (!canView(game, viewer)) return { ok: false, error: ruleError('game_not_found') };
  if (game.state === 'Open') return { ok: false, error: ruleError('audio_not_running') };
  const seconds = game.settings.hit_duration;
  if (hitId !== undefined) {
    const owned = game.players.flatMap((p) => p.hits).find((h) => h.id === hitId);
    const hit = owned ?? (game.hit?.id === hitId ? game.hit : undefined);
    if (!hit) return { ok: false, error: ruleError('hit_not_revealed') };
    return { ok: true, target: { hit, hidden: false, seconds } };
  }
  if (game.state === 'Confirming' && game.hit) return { ok: true, target: { hit: game.hit, hidden: false, seconds } };
  if (!game.current) return { ok: false, error: ruleError('no_hit') };
  if (game.settings.clue_mode === 'card') return { ok: false, error: ruleError('no_audio_card_mode') };
  if (game.settings.clue_mode === 'dj') return { ok: false, error: ruleError('no_audio_dj_mode') };
  const member = viewer !== null && game.players.some((p) => !p.virtual && p.id === viewer);
  if (game.mode === 'Private' && !member) return { ok: false, error: ruleError('audio_members_only') };
  return { ok: true, target: { hit: game.current, hidden: true, seconds } };
}
