import type { GamePayload, HitPayload, PlayerPayload } from '../../shared/protocol/game.ts';
import { slotsFor } from '../../shared/rules/slots.ts';

/** Games as the game screen sees them, built from a few facts per player. */

export const PACK = '4c1a1c44-2c52-4f43-9d3b-6d0b1f0a0a01';
export const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const ids = { ana: uuid(1), ben: uuid(2), cleo: uuid(3), dana: uuid(4) };
export const users = {
  ana: { id: ids.ana, name: 'Ana', virtual: true, valid_until: '2030-01-01T10:00:00.000Z', permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false } },
};

let hitNo = 100;
export function hit(year: number, title = `Song ${year}`): HitPayload {
  return { id: uuid(hitNo++), title, artist: `Artist ${year}`, belongs_to: '', year, packs: [PACK] };
}

export function player(name: keyof typeof ids, facts: Partial<PlayerPayload> & { years?: number[] } = {}): PlayerPayload {
  const { years = [], ...rest } = facts;
  const hits = rest.hits ?? years.map((y) => hit(y));
  return {
    id: ids[name],
    name: name[0]!.toUpperCase() + name.slice(1),
    state: 'Waiting',
    creator: false,
    tokens: 2,
    turn_player: false,
    guess: null,
    virtual: false,
    connected: true,
    color: Object.keys(ids).indexOf(name),
    avatar: '',
    controller: null,
    ...rest,
    hits,
    slots: rest.slots ?? slotsFor(hits.map((h) => ({ ...h }))),
  };
}

export function game(players: PlayerPayload[], facts: Partial<GamePayload> = {}): GamePayload {
  return {
    id: 'AbCd1234',
    players,
    state: 'Open',
    mode: 'Public',
    hit: null,
    last_scored: null,
    winner: null,
    standings: null,
    deadline: null,
    clue: null,
    draws: 0,
    goal: 10,
    start_tokens: 2,
    hit_duration: 20,
    guess_timeout: 0,
    intercept_timeout: 30,
    confirm_timeout: 60,
    // no pause after a reveal unless a test asks for one (the store holds the next turn back meanwhile)
    reveal_time: 0,
    packs: [PACK],
    clue_mode: 'audio',
    clue_mode_auto: false,
    dj: '',
    dj_plays: true,
    dj_seat: null,
    disputes: 2,
    dispute_timeout: 60,
    disputable: null,
    dispute: null,
    disputes_used: {},
    ...facts,
  };
}

/**
 * What `room.state.toJSON()` gives for a payload (server/rooms/schema.ts): no
 * nulls (absent winner, '' / 0 / [] for none), `last_scored` as an id, JSON
 * strings for a player's hits and guess, the hit, the clue and the DJ, no slots, plus
 * `seq`.
 */
export function roomJson(g: GamePayload, seq = 1): Record<string, unknown> {
  const p = (pl: PlayerPayload): Record<string, unknown> => {
    const { guess, slots: _slots, hits, ...rest } = pl;
    return { ...rest, hits: JSON.stringify(hits), guess: guess ? JSON.stringify(guess) : '' };
  };
  const { hit: revealed, last_scored, winner, standings, deadline, clue, dj_seat, ...rest } = g;
  return {
    ...rest,
    players: g.players.map(p),
    hit: revealed ? JSON.stringify(revealed) : '',
    last_scored: last_scored?.id ?? '',
    ...(winner ? { winner: p(winner) } : {}),
    standings: (standings ?? []).map(p),
    deadline: deadline ?? 0,
    clue: clue ? JSON.stringify(clue) : '',
    dj_seat: dj_seat ? JSON.stringify(dj_seat) : '',
    seq,
  };
}
