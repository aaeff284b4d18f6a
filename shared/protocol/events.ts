import { z } from 'zod';
import { GAME_EVENT_NAMES } from '../rules/types.ts';
import { ProcessHitsSchema } from './catalogue.ts';
import { CountSchema, GameIdSchema, parseInput, type ParseOutcome } from './common.ts';
import {
  ClueSchema,
  DisputePayloadSchema,
  GamePayloadSchema,
  GameStateSchema,
  GameSummarySchema,
  GameUpdateSchema,
  HitPayloadSchema,
  PlayerPayloadSchema,
  SettingsSchema,
} from './game.ts';
import { DeletedIssueSchema, HitIssueSchema } from './reports.ts';

/**
 * Server-sent events (docs/api.md#sse, docs/rules.md#events). Each stream is a
 * discriminated union on `event` (the SSE event name); `data` is what the SSE
 * `data:` line carries. Game events are exactly what the engine emits
 * (`GameEvent`), narrowed per name to the keys that event always has.
 */

/** The one player an event is about (the joiner, the leaver, the actor). */
const OnePlayerSchema = z.array(PlayerPayloadSchema).length(1);

/** `join`: a player (real or virtual) sat down. */
export const JoinEventSchema = z.strictObject({
  event: z.literal('join'),
  data: z.strictObject({ players: OnePlayerSchema }),
});

/**
 * `leave`: a player left or was removed (`removed_by`: the creator who removed
 * him; `dj`: the round's new DJ when the DJ left); always followed by `change_state`.
 */
export const LeaveEventSchema = z.strictObject({
  event: z.literal('leave'),
  data: z.strictObject({ players: OnePlayerSchema, removed_by: PlayerPayloadSchema.optional(), dj: PlayerPayloadSchema.optional() }),
});

/**
 * `change_state`: the phase or the seats changed (a seat's presence, name or
 * avatar too, in the same phase). Carries the full player list
 * (absent only when the game was just deleted), the revealed `hit` and
 * `last_scored` on a reveal, `winner` and `standings` when a round ended, the
 * phase `deadline` (epoch ms) and, in card clue mode, the `clue`.
 */
export const ChangeStateEventSchema = z.strictObject({
  event: z.literal('change_state'),
  data: z.strictObject({ ...GameUpdateSchema.shape, state: GameStateSchema }),
});

/**
 * `guess`: a player placed (or declined, or timed out of) his guess; shows him
 * after paying. `cause`: an interceptor who did not answer in time (`timeout`)
 * or is not connected (`absent`).
 */
export const GuessEventSchema = z.strictObject({
  event: z.literal('guess'),
  data: z.strictObject({ players: OnePlayerSchema, cause: z.enum(['timeout', 'absent']).optional() }),
});

/** `skip`: the turn player paid to skip; `hit` is the skipped card, deadline and clue belong to the new one. */
export const SkipEventSchema = z.strictObject({
  event: z.literal('skip'),
  data: z.strictObject({
    players: OnePlayerSchema,
    hit: HitPayloadSchema,
    deadline: CountSchema.optional(),
    clue: ClueSchema.optional(),
  }),
});

/** `claim`: the turn player paid for the next card; `hit` is the claimed card. */
export const ClaimEventSchema = z.strictObject({
  event: z.literal('claim'),
  data: z.strictObject({ players: OnePlayerSchema, hit: HitPayloadSchema }),
});

/** `update`: the settings changed; carries the stored settings (docs/rules.md#a9), not the request. */
export const UpdateEventSchema = z.strictObject({
  event: z.literal('update'),
  data: z.strictObject({ settings: SettingsSchema }),
});

/**
 * `dispute`: a seat disputed the revealed card's year (`players`: the disputer,
 * `deadline`: when the vote closes), or the vote was decided (`dispute.outcome`
 * set; a `change_state` with the re-judged table follows).
 */
export const DisputeEventSchema = z.strictObject({
  event: z.literal('dispute'),
  data: z.strictObject({ dispute: DisputePayloadSchema, players: OnePlayerSchema.optional(), deadline: CountSchema.optional(), cause: z.enum(['timeout', 'absent']).optional() }),
});

/** `vote`: a seat voted on the open dispute. */
export const VoteEventSchema = z.strictObject({
  event: z.literal('vote'),
  data: z.strictObject({ dispute: DisputePayloadSchema, players: OnePlayerSchema }),
});

/** Any event the engine emits for one game (its `GameEvent`). */
export const GameEventSchema = z.discriminatedUnion('event', [
  JoinEventSchema,
  LeaveEventSchema,
  ChangeStateEventSchema,
  GuessEventSchema,
  SkipEventSchema,
  ClaimEventSchema,
  UpdateEventSchema,
  DisputeEventSchema,
  VoteEventSchema,
]);

/** `snapshot`: the whole game, sent first to a new or resuming subscriber (docs/rules.md#a13); not an engine event. */
export const SnapshotEventSchema = z.strictObject({
  event: z.literal('snapshot'),
  data: GamePayloadSchema,
});

/** Everything `GET /api/games/{id}/events` may send: the engine's events plus the snapshot. */
export const GameStreamEventSchema = z.discriminatedUnion('event', [...GameEventSchema.options, SnapshotEventSchema]);

/** Names on the per-game stream, for clients that subscribe by name. */
export const GAME_STREAM_EVENT_NAMES = [...GAME_EVENT_NAMES, 'snapshot'] as const;

/** Any event on the global stream `GET /api/events`. */
export const GlobalEventSchema = z.discriminatedUnion('event', [
  /** A Public game was created. */
  z.strictObject({ event: z.literal('create_game'), data: GamePayloadSchema }),
  /** A listed game is gone (its last real player left); data is its id. */
  z.strictObject({ event: z.literal('remove_game'), data: GameIdSchema }),
  /** Audio pipeline progress; the first event of every subscription. */
  z.strictObject({ event: z.literal('process_hits'), data: ProcessHitsSchema }),
  /** A listed game's lobby line changed (players, mode, state): one stream serves the whole lobby (docs/api.md#b11). */
  z.strictObject({ event: z.literal('game_summary'), data: GameSummarySchema }),
  /** Hits or packs changed: catalogue views should refetch. */
  z.strictObject({ event: z.literal('hits_changed'), data: z.strictObject({}) }),
  /** A report about a hit was filed (docs/disputes.md#reports); only to subscribers whose user had read_issues when they connected. */
  z.strictObject({ event: z.literal('create_hit_issue'), data: HitIssueSchema }),
  /** A report left the open list (deleted, accepted or dismissed); read_issues subscribers only. */
  z.strictObject({ event: z.literal('delete_hit_issue'), data: DeletedIssueSchema }),
]);

/** Names on the global stream, for clients that subscribe by name. */
export const GLOBAL_EVENT_NAMES: readonly GlobalEventName[] = GlobalEventSchema.options.map((o) => o.shape.event.value);

export type GameEvent = z.infer<typeof GameEventSchema>;
export type GameStreamEvent = z.infer<typeof GameStreamEventSchema>;
export type GameStreamEventName = GameStreamEvent['event'];
export type GlobalEvent = z.infer<typeof GlobalEventSchema>;
export type GlobalEventName = GlobalEvent['event'];

/**
 * The JSON of a global event's `data:` line. The reference server tags it externally (the root
 * key repeats the event name: `{"remove_game":"AbCd1234"}`), and its clients read
 * it that way, so we keep that.
 */
export function globalEventData(event: GlobalEvent): Record<string, unknown> {
  return { [event.event]: event.data };
}

/** Validates a global event received as SSE name + parsed `data:` JSON (externally tagged). */
export function parseGlobalEvent(name: string, data: unknown): ParseOutcome<GlobalEvent> {
  const tagged = typeof data === 'object' && data !== null && Object.hasOwn(data, name);
  return parseInput(GlobalEventSchema, { event: name, data: tagged ? (data as Record<string, unknown>)[name] : undefined }, 'event');
}

/** Validates a per-game event received as SSE name + parsed `data:` JSON (the flat GameUpdate). */
export function parseGameStreamEvent(name: string, data: unknown): ParseOutcome<GameStreamEvent> {
  return parseInput(GameStreamEventSchema, { event: name, data }, 'event');
}
