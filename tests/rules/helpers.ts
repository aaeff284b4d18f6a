import { createHash } from 'node:crypto';
import { applyAction, createGame, mayRefuse, type Action, type ActionResult, type Game, type GameMode, type Hit } from '../../shared/rules/index.ts';

/** Test helpers: a catalogue of numbered hits and a driver that asserts success. */

export const PACK_A = '00000000-0000-4000-8000-00000000000a';
export const PACK_B = '00000000-0000-4000-8000-00000000000b';

/** `count` hits with distinct ids/titles; years spread over 1950..2024 unless given. */
export function makeHits(count: number, opts: { packs?: string[]; years?: (i: number) => number; prefix?: string } = {}): Hit[] {
  const prefix = opts.prefix ?? 'h';
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(5, '0')}`,
    title: `Title ${prefix}${i}`,
    artist: `Artist ${prefix}${i}`,
    belongs_to: '',
    year: opts.years ? opts.years(i) : 1950 + ((i * 7) % 75),
    packs: opts.packs ?? [PACK_A],
    yt_id: null,
  }));
}

export const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Fixed stream keys for tests, derived from `n` (the server draws real ones from crypto). */
export function testSeed(n: number): { deck: string; seats: string } {
  const key = (what: string) => createHash('sha256').update(`${what} ${n}`).digest('hex');
  return { deck: key('deck'), seats: key('seats') };
}

/** The seat key of every Local test game (the server makes real ones from crypto). */
export const SEAT_KEY = 'seat-key-of-the-tests_0001';

export function newGame(mode: GameMode = 'Public', opts: { seed?: number | { deck: string; seats: string }; settings?: unknown; creator?: string } = {}): Game {
  const r = createGame({
    id: 'AbCd1234',
    mode,
    creator: { id: opts.creator ?? uid(1), name: 'alice' },
    seed: typeof opts.seed === 'object' ? opts.seed : testSeed(opts.seed ?? 42),
    packIds: [PACK_A, PACK_B],
    settings: opts.settings,
    seatKey: SEAT_KEY,
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.game;
}

/** Applies an action and throws if it failed. */
export function act(game: Game, action: Action, now = 1_000_000): Extract<ActionResult, { ok: true }> {
  const r = applyAction(game, action, { now });
  if (!r.ok) throw new Error(`${action.type} failed: ${r.error.status} ${r.error.message}`);
  return r;
}

/** Applies an action that must fail and returns its error. */
export function reject(game: Game, action: unknown, now = 1_000_000) {
  const r = applyAction(game, action, { now });
  if (r.ok) throw new Error(`expected ${(action as Action).type} to fail`);
  // every refusal a test provokes is one the route table documents (ACTION_ERRORS)
  const type = String((action as { type?: unknown } | null)?.type);
  if (!mayRefuse(type, r.error.code)) throw new Error(`${type} refused with ${r.error.code}, which ACTION_ERRORS does not list`);
  return r.error;
}
