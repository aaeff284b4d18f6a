import type { DisputePayload, GamePayload, PlayerPayload } from '../../../../shared/protocol/game.ts';
import type { Evidence } from '../../../../shared/protocol/reports.ts';
import { answersOnThisDevice } from '../../stores/game-events.ts';

export { cardHolder } from '../../stores/game-events.ts';
import type { Perspective } from './game-logic.ts';

/**
 * The year dispute at the table (docs/rules.md#disputes, docs/product.md#disputes),
 * without React: which seats this device disputes and votes for, how many
 * disputes each has left, the year the dialog proposes, and the vote's count.
 */

type DisputeGame = Pick<GamePayload, 'mode' | 'players' | 'disputes' | 'disputes_used' | 'disputable' | 'dispute'>;

/**
 * The seats this device speaks for in a dispute: one's own seat; on a Local
 * game's shared screen every seat no phone plays (the creator's own among
 * them); on a phone its one seat. A viewer without a seat (a TV whose user is
 * not seated) speaks for nobody.
 */
export function seatsHere(game: Pick<GamePayload, 'mode' | 'players'>, perspective: Perspective): PlayerPayload[] {
  if (!perspective.me) return [];
  if (perspective.local && game.mode === 'Local') return game.players.filter(answersOnThisDevice);
  return [perspective.me];
}

/** How many disputes `seat` may still raise this round (`disputes` a round, 0 = off). */
export const disputesLeft = (game: Pick<GamePayload, 'disputes' | 'disputes_used'>, seat: string): number =>
  Math.max(0, game.disputes - (game.disputes_used[seat] ?? 0));

/** A vote is open: the game is paused until the table decides. */
export const voteOpen = (game: Pick<GamePayload, 'dispute'>): game is { dispute: DisputePayload } => !!game.dispute && game.dispute.outcome === null;

/**
 * The seats of this device that may dispute the revealed card now, the turn
 * player first (the one most likely to have lost the card to a wrong year):
 * the card may be disputed, no vote is open, and the seat has disputes left.
 */
export function disputers(game: DisputeGame, perspective: Perspective): PlayerPayload[] {
  if (!game.disputable || voteOpen(game) || game.disputes <= 0) return [];
  const seats = seatsHere(game, perspective).filter((p) => disputesLeft(game, p.id) > 0);
  return [...seats.filter((p) => p.turn_player), ...seats.filter((p) => !p.turn_player)];
}

/** Why this device cannot dispute now (an i18n key of the `table` namespace), or null when it can. */
export function whyNoDispute(game: DisputeGame, perspective: Perspective): string | null {
  if (seatsHere(game, perspective).length === 0) return 'errors.not_a_player';
  if (game.disputes <= 0) return 'errors.disputes_off';
  if (voteOpen(game)) return 'errors.dispute_open';
  if (!game.disputable) return 'errors.nothing_to_dispute';
  if (disputers(game, perspective).length === 0) return 'errors.no_disputes_left';
  return null;
}

/** The year the dialog proposes: the earliest year an outside source gives that differs from the card's, else none. */
export function proposedYear(evidence: Pick<Evidence, 'sources'> | null, cardYear: number): number | null {
  const years = (evidence?.sources ?? []).map((s) => s.year).filter((y): y is number => y !== null && y !== cardYear);
  return years.length ? Math.min(...years) : null;
}

/** The seats of this device that have not voted on the open dispute yet. */
export function votersHere(game: DisputeGame, perspective: Perspective): PlayerPayload[] {
  if (!voteOpen(game)) return [];
  const voted = new Set(game.dispute.votes.map((v) => v.player));
  return seatsHere(game, perspective).filter((p) => !voted.has(p.id));
}

/** The vote so far: for the proposed year, for the card's, and how many seats have not voted. */
export function tally(dispute: Pick<DisputePayload, 'votes' | 'voters'>): { take: number; keep: number; waiting: number } {
  const take = dispute.votes.filter((v) => v.take).length;
  const keep = dispute.votes.length - take;
  return { take, keep, waiting: Math.max(0, dispute.voters - dispute.votes.length) };
}
