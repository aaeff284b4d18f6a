import { ruleError } from './errors.ts';
import { slotsFor } from './slots.ts';
import type { Clue, Dispute, DisputePayload, Dj, Game, GameMode, GameState, Hit, HitPayload, Player, PlayerPayload, RuleError, Settings, Slot } from './types.ts';

/**
 * The one place that decides what a viewer may see (docs/rules.md#a12). Nothing here
 * ever includes the hidden mystery card (`game.current`) except, in `card` clue
 * mode, its title, artist and belongs_to as the clue, and in `dj` clue mode its
 * video to the DJ alone (djClip).
 */

/** Payloads of hits already shown: a Hit is never mutated, so its payload never changes. */
const hitPayloads = new WeakMap<Hit, HitPayload>();

/**
 * A hit as shown in games: no yt_id, no playback offset. The payload is made once
 * per Hit and frozen: every view and event of every game shares it instead of
 * copying the hit again on each action (budget P1).
 */
export function hitPayload(hit: Hit): HitPayload {
  let payload = hitPayloads.get(hit);
  if (!payload) {
    payload = Object.freeze({ id: hit.id, title: hit.title, artist: hit.artist, belongs_to: hit.belongs_to, year: hit.year, packs: Object.freeze([...hit.packs]) as string[] });
    hitPayloads.set(hit, payload);
  }
  return payload;
}

/** A timeline as shown, with its slots. */
interface TimelinePayload {
  hits: HitPayload[];
  slots: Slot[];
}

/** Payloads of timelines already shown: the engine replaces a timeline that changes, never writes into it. */
const timelines = new WeakMap<readonly Hit[], TimelinePayload>();

/**
 * A player's timeline and its slots, made once per timeline array and frozen:
 * a player's cards change a few times per round, while every action makes new
 * views of every player (budget P1: less work and less garbage per action).
 */
function timelinePayload(hits: readonly Hit[]): TimelinePayload {
  let payload = timelines.get(hits);
  if (!payload) {
    payload = { hits: Object.freeze(hits.map(hitPayload)) as HitPayload[], slots: Object.freeze(slotsFor(hits).map((sl) => Object.freeze(sl))) as Slot[] };
    timelines.set(hits, payload);
  }
  return payload;
}

export function playerPayload(player: Player): PlayerPayload {
  const timeline = timelinePayload(player.hits);
  return {
    id: player.id,
    name: player.name,
    state: player.state,
    creator: player.creator,
    hits: timeline.hits,
    tokens: player.tokens,
    slots: timeline.slots,
    turn_player: player.turn_player,
    guess: player.guess ? { ...player.guess } : null,
    virtual: player.virtual,
    connected: player.connected,
    color: player.color,
    avatar: player.avatar,
    controller: player.controller ?? null,
  };
}

/** The reference server's GamePayload plus our additions (timeouts, clue mode, deadline, standings). */
export interface GamePayload extends Settings {
  id: string;
  players: PlayerPayload[];
  state: GameState;
  mode: GameMode;
  /** The revealed hit while Confirming, else null. */
  hit: HitPayload | null;
  last_scored: PlayerPayload | null;
  winner: PlayerPayload | null;
  standings: PlayerPayload[] | null;
  /** Absolute epoch ms when the current phase times out, or null. */
  deadline: number | null;
  /** In `card` clue mode while a hit is hidden: what the table reads aloud. */
  clue: Clue | null;
  /** Number of mystery cards drawn so far (changes every turn and skip). */
  draws: number;
  /** The DJ of a running `dj` round (who plays the hits from YouTube, and whether he plays along), else null. */
  dj_seat: Dj | null;
  /** The revealed card that may be disputed now (until `until`, or while its confirmation is awaited), else null. */
  disputable: { hit: HitPayload; until: number } | null;
  /** The dispute being voted on, or the last decided one until the next reveal; else null. */
  dispute: DisputePayload | null;
  /** Disputes each seat raised this round. */
  disputes_used: Record<string, number>;
}

/**
 * Whether `key` is the game's seat key. Compared in constant time: how long a
 * refusal takes says nothing of how much of a guess was right.
 */
export function isSeatKey(game: Pick<Game, 'seat_key'>, key: string | null | undefined): boolean {
  const secret = game.seat_key;
  if (!secret || typeof key !== 'string' || key.length !== secret.length) return false;
  let diff = 0;
  for (let i = 0; i < secret.length; i++) diff |= secret.charCodeAt(i) ^ key.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether `viewer` (a user id, or null when anonymous) may see the game at all:
 * a Local game only its creator, the phones playing its seats, and whoever
 * presents its seat key (docs/rules.md#local).
 */
export function canView(game: Game, viewer: string | null, key?: string | null): boolean {
  if (game.mode !== 'Local') return true;
  if (isSeatKey(game, key)) return true;
  return viewer !== null && game.players.some((p) => (p.virtual ? p.controller === viewer : p.creator && p.id === viewer));
}

/**
 * The seat key of a Local game, for its creator's device alone (which shows it
 * to the phones as a join link). Others who may view the game are told only
 * the creator gets it; those who may not, that there is no such game.
 */
export function seatKeyOf(game: Game, viewer: string | null): { ok: true; key: string } | { ok: false; error: RuleError } {
  if (!canView(game, viewer)) return { ok: false, error: ruleError('game_not_found') };
  if (game.mode !== 'Local' || !game.seat_key) return { ok: false, error: ruleError('local_only_seat_key') };
  if (!game.players.some((p) => p.creator && !p.virtual && p.id === viewer)) return { ok: false, error: ruleError('creator_only_seat_key') };
  return { ok: true, key: game.seat_key };
}

/** Whether the game appears in `viewer`'s lobby list (docs/rules.md#create). */
export function isListedFor(game: Game, viewer: string | null): boolean {
  if (game.mode === 'Public') return true;
  if (viewer === null) return false;
  if (game.mode === 'Private') return game.players.some((p) => !p.virtual && p.id === viewer);
  // a Local game is its creator's: the phones playing its seats open it by its link, not from the lobby
  return game.players.some((p) => p.creator && !p.virtual && p.id === viewer);
}

/** The clue of the hidden card in `card` mode, else null. */
export function clueOf(game: Game): Clue | null {
  if (game.settings.clue_mode !== 'card' || !game.current) return null;
  return { title: game.current.title, artist: game.current.artist, belongs_to: game.current.belongs_to };
}

/** Whether `shown` (a payload made earlier) still shows `player` exactly. */
function stillShows(shown: PlayerPayload | undefined, player: Player): shown is PlayerPayload {
  return (
    shown !== undefined &&
    shown.id === player.id &&
    shown.name === player.name &&
    shown.state === player.state &&
    shown.creator === player.creator &&
    shown.tokens === player.tokens &&
    shown.turn_player === player.turn_player &&
    shown.virtual === player.virtual &&
    shown.connected === player.connected &&
    shown.color === player.color &&
    shown.avatar === player.avatar &&
    shown.controller === (player.controller ?? null) &&
    shown.hits === timelinePayload(player.hits).hits &&
    (shown.guess === player.guess || (!!shown.guess && !!player.guess && shown.guess.id === player.guess.id && shown.guess.from_year === player.guess.from_year && shown.guess.to_year === player.guess.to_year))
  );
}

/**
 * The game as `viewer` sees it, or null when he may not see it (a Local game of
 * another user). `previous`, an earlier view of the same game for the same
 * viewer, lends the new view its player payloads that did not change (budget
 * P1: a game room makes a view on every action, which mostly changes one or two
 * players; the state mirror then skips the others by identity).
 */
export function viewGame(game: Game, viewer: string | null, previous?: GamePayload | null, key?: string | null): GamePayload | null {
  if (!canView(game, viewer, key)) return null;
  const scorer = game.last_scored ? game.players.find((p) => p.id === game.last_scored) : undefined;
  const before = previous?.id === game.id ? previous.players : undefined;
  const players = game.players.map((p, i) => {
    const shown = before?.[i];
    return stillShows(shown, p) ? shown : playerPayload(p);
  });
  return {
    id: game.id,
    players,
    state: game.state,
    mode: game.mode,
    ...game.settings,
    packs: [...game.settings.packs],
    hit: game.hit ? hitPayload(game.hit) : null,
    last_scored: scorer ? (players[game.players.indexOf(scorer)] as PlayerPayload) : null,
    winner: game.winner,
    standings: game.standings,
    deadline: game.deadline?.at ?? null,
    clue: clueOf(game),
    draws: game.draws,
    dj_seat: game.dj ? { id: game.dj.id, plays: game.dj.plays } : null,
    disputable: disputableOf(game),
    dispute: game.dispute ? disputePayload(game, game.dispute) : null,
    disputes_used: { ...game.disputes_used },
  };
}

/** The dispute as clients see it (docs/rules.md#disputes). */
export function disputePayload(game: Pick<Game, 'players'>, d: Dispute): DisputePayload {
  return { hit: hitPayload(d.hit), year: d.year, by: d.by, votes: d.votes.map((v) => ({ ...v })), until: d.until, outcome: d.outcome, voters: game.players.length };
}

/**
 * The revealed card that may be disputed (docs/rules.md#disputes): until
 * `until`, and after it while the game is Confirming with this card. The engine
 * drops it at the first action after the window closed, so a client also
 * compares `until` with its clock.
 */
export function disputableOf(game: Game): { hit: HitPayload; until: number } | null {
  const r = game.rejudge;
  if (!r || game.settings.disputes === 0 || (game.dispute && game.dispute.outcome === null)) return null;
  return { hit: hitPayload(r.hit), until: r.until };
}

/** What the DJ's device plays: a hit's video from its playback offset. */
export interface DjClip {
  /** The draw it belongs to (the game's `draws`). */
  draws: number;
  yt_id: string;
  /** Seconds into the video to start at (the hit's playback offset). */
  start: number;
  /** Seconds to play: `hit_duration` while the hit is hidden, null (to its end) once it is revealed. */
  seconds: number | null;
  /** true while the hit is hidden from the table. */
  hidden: boolean;
}

/**
 * What `viewer` may play as the DJ (`dj` clue mode): the hidden hit's video to
 * the DJ alone, while Guessing or Intercepting, and the revealed hit's while
 * Confirming. Everybody else gets `dj_only`, whatever the phase, so the answer
 * tells nobody but the DJ anything about the card.
 */
export function djClip(game: Game, viewer: string | null): { ok: true; clip: DjClip } | { ok: false; error: RuleError } {
  if (!canView(game, viewer)) return { ok: false, error: ruleError('game_not_found') };
  if (game.state === 'Open') return { ok: false, error: ruleError('audio_not_running') };
  if (game.settings.clue_mode !== 'dj' || !game.dj) return { ok: false, error: ruleError('no_dj_mode') };
  if (viewer === null || game.dj.id !== viewer) return { ok: false, error: ruleError('dj_only') };
  const hidden = game.state !== 'Confirming';
  const hit = hidden ? game.current : game.hit;
  if (!hit?.yt_id) return { ok: false, error: ruleError('no_hit') };
  return {
    ok: true,
    clip: { draws: game.draws, yt_id: hit.yt_id, start: hit.playback_offset ?? 0, seconds: hidden ? game.settings.hit_duration : null, hidden },
  };
}

/** A short summary for lobby lists (player count, mode, state). */
export interface GameSummary {
  id: string;
  mode: GameMode;
  state: GameState;
  players: number;
  creator: string;
}

/** Works on the engine's Game and on a GamePayload alike. */
export function summarizeGame(game: Pick<Game, 'id' | 'mode' | 'state'> & { players: readonly { creator: boolean; name: string }[] }): GameSummary {
  return {
    id: game.id,
    mode: game.mode,
    state: game.state,
    players: game.players.length,
    creator: game.players.find((p) => p.creator)?.name ?? '',
  };
}

/**
 * The seat a local game's device acts for (docs/product.md#screens): the turn player while
 * Guessing, the next Intercepting player after the turn player while Intercepting,
 * the creator otherwise.
 */
export function localActingPlayer(game: Game): Player | null {
  const n = game.players.length;
  const turn = game.players.findIndex((p) => p.turn_player);
  if (game.state === 'Guessing') return game.players[turn] ?? null;
  if (game.state === 'Intercepting') {
    for (let i = 1; i <= n; i++) {
      const p = game.players[(turn + i) % n];
      if (p?.state === 'Intercepting') return p;
    }
  }
  return game.players.find((p) => p.creator) ?? null;
}
