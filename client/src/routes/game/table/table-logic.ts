import type { HitPayload, PlayerPayload, Slot } from '../../../../../shared/protocol/game.ts';
import { MAX_PLAYERS, MIN_PLAYERS } from '../../../../../shared/rules/constants.ts';
import { slotsFor } from '../../../../../shared/rules/slots.ts';
import type { Choice, GuessModel, SlotOption } from '../game-logic.ts';

/**
 * The table's layout as pure functions: a timeline as a row of cards in year
 * order with the gaps (the engine's slots) between them, who took which gap,
 * and what the open table waits for. The components only draw what these say
 * (tests/client/table-logic.test.ts).
 */

/** One card of a row, with the gap before it (none between cards of the same year) and, for the last card, the gap after it. */
export interface RowEntry {
  hit: HitPayload;
  before: Slot | null;
  after: Slot | null;
}

/** Cards by year (title on ties, as the hits dialog sorts them). */
export const byYear = (a: HitPayload, b: HitPayload): number => a.year - b.year || a.title.localeCompare(b.title);

/**
 * A timeline as a row: the cards in year order, each with the slot that opens
 * before it and, for the last, the slot after it. The slots are the engine's
 * own (slotsFor: one before the first year, one between each two distinct
 * years, one after the last), so their ids are the ones a guess sends.
 */
export function rowEntries(hits: readonly HitPayload[]): RowEntry[] {
  const cards = [...hits].sort(byYear);
  const slots = slotsFor(cards);
  // slot k+1 opens before the k-th distinct year; the last one after the last year
  const opening = new Map(slots.filter((s) => s.to_year !== 0).map((s) => [s.to_year, s]));
  const last = slots.find((s) => s.to_year === 0 && s.from_year !== 0) ?? null;
  return cards.map((hit, i) => {
    const previous = cards[i - 1];
    const before = previous && previous.year === hit.year ? null : (opening.get(hit.year) ?? null);
    return { hit, before, after: i === cards.length - 1 ? last : null };
  });
}

/** The newest card of a timeline (the hits are in acquisition order): the one a row scrolls to. */
export const newestHit = (player: Pick<PlayerPayload, 'hits'>): HitPayload | null => player.hits.at(-1) ?? null;

/** The players whose guess is `slot` (the turn player first: his was first), for the taken gap's colour and name. */
export function takersOf(players: readonly PlayerPayload[], slot: Pick<Slot, 'id'>): PlayerPayload[] {
  return players.filter((p) => p.guess?.id === slot.id).sort((a, b) => Number(b.turn_player) - Number(a.turn_player));
}

/** What a gap shows and does while someone picks (`model` from guessModel) or watches. */
export interface GapView {
  slot: Slot;
  /** Someone's guess is this gap (shown in his colour with his name); it cannot be chosen. */
  takers: PlayerPayload[];
  /** This device may choose it now. */
  choosable: boolean;
  chosen: boolean;
}

export function gapView(slot: Slot, players: readonly PlayerPayload[], model: GuessModel | null, choice: Choice): GapView {
  const takers = takersOf(players, slot);
  const option: SlotOption | undefined = model?.options.find((o) => o.slot.id === slot.id);
  const picking = !!model && (model.phase === 'guessing' || model.phase === 'intercepting');
  const choosable = picking && !!option && !option.disabled;
  return { slot, takers, choosable, chosen: choosable && choice === slot.id };
}

/**
 * The gap's short label: "before 1956", "1956–1967", "after 1967" (`between` is
 * the table's short form of the slot text; the radios keep the long one).
 */
export function gapLabel(slot: Slot, t: (key: string, params?: Record<string, unknown>) => string): string {
  if (slot.from_year === 0 && slot.to_year === 0) return t('slot.any');
  if (slot.from_year === 0) return t('slot.before', { year: slot.to_year });
  if (slot.to_year === 0) return t('slot.after', { year: slot.from_year });
  return t('table:row.gap_between', { from: slot.from_year, to: slot.to_year });
}

/** A card's decade (1956 → 1950), which gives it its colour. */
export const decadeOf = (year: number): number => Math.floor(year / 10) * 10;

/** Where a row scrolls to: the chosen or focused gap, else the newest card. */
export function rowFocus(choice: Choice, focused: Choice | undefined, player: Pick<PlayerPayload, 'hits'>): { gap: number } | { card: string } | null {
  const gap = typeof focused === 'number' ? focused : typeof choice === 'number' ? choice : null;
  if (gap !== null) return { gap };
  const newest = newestHit(player);
  return newest ? { card: newest.id } : null;
}

/** The open table: who is here, how many more can join, and whether it can start. */
export function openTable(players: readonly Pick<PlayerPayload, 'creator' | 'name'>[]): { count: number; free: number; enough: boolean; creator: string | null } {
  return {
    count: players.length,
    free: Math.max(0, MAX_PLAYERS - players.length),
    enough: players.length >= MIN_PLAYERS,
    creator: players.find((p) => p.creator)?.name ?? null,
  };
}
