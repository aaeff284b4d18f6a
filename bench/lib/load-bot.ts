import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { isCorrect, slotsFor } from '../../shared/rules/slots.ts';

/**
 * The load benchmark's players: scripted but varied decisions for one table of
 * Hitline, the same over WebSocket (room state) and REST (state rebuilt from
 * SSE events). Each decision is one legal action of the seat whose move it is:
 * the turn player places (right about half the time), skips or claims; pending
 * interceptors intercept or decline; the confirmer says yes or no; the creator
 * starts a new round when one ended.
 *
 * The bots read the card-mode clue (title and artist) and look the year up in
 * the demo catalogue, so they can be right on purpose: games then end after a
 * realistic number of turns instead of wandering on.
 */

export interface BotSlot {
  id: number;
  from_year: number;
  to_year: number;
}

export interface BotPlayer {
  id: string;
  state: string;
  tokens: number;
  turn_player: boolean;
  creator: boolean;
  /** The GamePayload's slots; the room state leaves them out (they follow from the hits). */
  slots?: Iterable<BotSlot> & { length: number };
  hits?: Iterable<{ year: number }>;
  guess?: BotSlot | null | undefined;
}

/** What a bot needs to know of the game (room state and GamePayload both fit). */
export interface BotView {
  state: string;
  players: Iterable<BotPlayer> & { length: number };
  clue?: { title: string; artist: string; belongs_to: string } | null | undefined;
}

export type MoveKind = 'start' | 'place' | 'place_right' | 'intercept' | 'decline' | 'skip' | 'claim' | 'confirm_yes' | 'confirm_no';

export type BotMove =
  | { player: string; kind: MoveKind; type: 'guess'; payload: { slot: number | null } }
  | { player: string; kind: MoveKind; type: 'confirm'; payload: { confirm: boolean } }
  | { player: string; kind: MoveKind; type: 'skip' | 'claim' | 'start'; payload?: undefined };

/** Small seeded PRNG (mulberry32): a run's decisions repeat for the same seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
}

/** A clue's key in `loadYears`' map. */
export const clueKey = (c: { title: string; artist: string; belongs_to: string }) => `${c.title}\u0000${c.artist}\u0000${c.belongs_to}`;

/** Years of the demo catalogue by clue (what a player who knows the song would know). */
export function loadYears(file = join(import.meta.dirname, '..', '..', 'assets', 'demo-hits.yml')): Map<string, number> {
  const doc = parse(readFileSync(file, 'utf8')) as { hits: { title: string; artist: string; belongs_to?: string; year: number }[] };
  const years = new Map<string, number>();
  for (const h of doc.hits) years.set(clueKey({ title: h.title, artist: h.artist, belongs_to: h.belongs_to ?? '' }), h.year);
  return years;
}

/** A player's slots: the payload's, or from his hits (room state). */
const slotsOf = (p: BotPlayer): BotSlot[] => (p.slots ? Array.from(p.slots) : slotsFor(Array.from(p.hits ?? [])));

/** How often each kind of decision is taken (when it is allowed). */
const P = { claim: 0.08, skip: 0.12, placeRight: 0.5, intercept: 0.3, interceptRight: 0.4, confirmYes: 0.65 };

/**
 * The next move at this table, or null when nobody can act (a round is not
 * running and the table is not full yet). `seats` is how many players the table
 * waits for before it starts.
 */
export function nextMove(view: BotView, rng: Rng, years: Map<string, number>, seats: number): BotMove | null {
  const players = Array.from(view.players);
  switch (view.state) {
    case 'Open': {
      const creator = players.find((p) => p.creator);
      if (!creator || players.length < seats) return null;
      return { player: creator.id, kind: 'start', type: 'start' };
    }
    case 'Guessing': {
      const turn = players.find((p) => p.turn_player && p.state === 'Guessing');
      if (!turn) return null;
      const r = rng.next();
      if (r < P.claim && turn.tokens >= 3) return { player: turn.id, kind: 'claim', type: 'claim' };
      if (r < P.claim + P.skip && turn.tokens >= 1) return { player: turn.id, kind: 'skip', type: 'skip' };
      const slots = slotsOf(turn);
      if (slots.length === 0) return null;
      const year = view.clue ? years.get(clueKey(view.clue)) : undefined;
      const right = year === undefined ? undefined : slots.find((s) => isCorrect(s, year));
      const knows = right !== undefined && rng.next() < P.placeRight;
      const slot = knows ? right : rng.pick(slots);
      return { player: turn.id, kind: knows ? 'place_right' : 'place', type: 'guess', payload: { slot: slot.id } };
    }
    case 'Intercepting': {
      const pending = players.filter((p) => p.state === 'Intercepting');
      if (pending.length === 0) return null;
      const p = rng.pick(pending);
      const turn = players.find((q) => q.turn_player);
      const taken = new Set(players.flatMap((q) => (q.guess ? [q.guess.id] : [])));
      const free = turn ? slotsOf(turn).filter((s) => !taken.has(s.id)) : [];
      if (p.tokens >= 1 && free.length > 0 && rng.next() < P.intercept) {
        const year = view.clue ? years.get(clueKey(view.clue)) : undefined;
        const right = year === undefined ? undefined : free.find((s) => isCorrect(s, year));
        const slot = right !== undefined && rng.next() < P.interceptRight ? right : rng.pick(free);
        return { player: p.id, kind: 'intercept', type: 'guess', payload: { slot: slot.id } };
      }
      return { player: p.id, kind: 'decline', type: 'guess', payload: { slot: null } };
    }
    case 'Confirming': {
      const confirmer = players.find((p) => p.state === 'Confirming');
      if (!confirmer) return null;
      const yes = rng.next() < P.confirmYes;
      return { player: confirmer.id, kind: yes ? 'confirm_yes' : 'confirm_no', type: 'confirm', payload: { confirm: yes } };
    }
    default:
      return null;
  }
}
