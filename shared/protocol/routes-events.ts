import { z } from 'zod';
import { GameStreamEventSchema, GlobalEventSchema, type GameStreamEventName, type GlobalEventName } from './events.ts';
import { BAD_GAME_ID, httpError, rule, type RouteSpec } from './routes.ts';
import { gameParam } from './routes-games.ts';

/**
 * The server-sent event streams (docs/api.md#sse): the global one and one per game.
 * Their handlers are server/http/events.ts; the WebSocket rooms are not HTTP
 * operations and are not here.
 */

export const EVENT_HTTP_ERRORS = {
  /** 429 of a client with too many streams open (server/http/security.ts counts them). */
  tooManyStreams: httpError(429, 'too_many_streams', 'too many event streams open at once; close some first'),
  /** 503 of a stream asked for while the server stops. */
  shuttingDown: httpError(503, 'shutting_down', 'the server is shutting down'),
} as const;

// typed per name, so a new event cannot go undocumented
const GAME_EVENT_DOCS: Record<GameStreamEventName, string> = {
  snapshot: 'always first (unless resuming): the whole game as the subscriber sees it (GamePayload); its `id:` is the game\'s event sequence number',
  join: '`{players:[joined player]}`',
  leave: '`{players:[player who left]}`, with `removed_by` (the creator) when he was removed and `dj` (the creator, who plays the hits from now on) when the DJ of a running `dj` round left; always followed by `change_state`',
  change_state: '`{state, players, …}`: the phase or the seats changed; `hit` and `last_scored` on a reveal, `winner` and `standings` when a round ended, `deadline` (epoch ms) and `clue`; `cause` when no player\'s own choice explains it: `confirmed` or `rejected` (the next turn after the confirmer `by` answered), `timeout` (the phase\'s time ran out), `absent` (the player the game waited for is not connected), `stopped` (the creator `by` stopped the game)',
  guess: '`{players:[acting player]}`: a guess was placed or an interception declined; `cause`: `timeout` or `absent` when the interceptor did not answer',
  skip: '`{players:[turn player], hit:<skipped card>}`',
  claim: '`{players:[turn player], hit:<claimed card>}`',
  update: '`{settings}`: the stored settings after a change',
  dispute: '`{dispute, players:[disputer], deadline}`: a player disputed the revealed card\'s year and the table votes (the game is paused); again with `dispute.outcome` set (`kept` or `changed`) when the vote is decided, followed by `change_state` with the re-judged table',
  vote: '`{dispute, players:[voter]}`: a seat voted on the open dispute',
};

const GLOBAL_EVENT_DOCS: Record<GlobalEventName, string> = {
  process_hits: '`{"process_hits":{available, downloading, processing}}`: audio pipeline progress; always the first event',
  game_summary: '`{"game_summary":GameSummary}`: a listed game\'s lobby line (sent for every visible game on connect, then on every change), so one stream serves the whole lobby',
  create_game: '`{"create_game":GamePayload}`: a Public game was created',
  remove_game: '`{"remove_game":"<game id>"}`: a listed game is gone',
  hits_changed: '`{"hits_changed":{}}`: hits or packs changed; catalogue views should refetch',
  create_hit_issue: '`{"create_hit_issue":HitIssue}`: a report about a hit was filed; only to subscribers whose user had read_issues when they connected',
  delete_hit_issue: '`{"delete_hit_issue":{hit_id, issue_id}}`: a report left the open list (deleted, accepted, dismissed); read_issues subscribers only',
};

const eventList = (docs: Record<string, string>): string =>
  Object.entries(docs)
    .map(([name, text]) => `- \`${name}\`: ${text}`)
    .join('\n');

const SSE_WIRE =
  'Each event is `id:` (game streams), `event: <name>` and one `data:` line of JSON; a `:` comment line every 15 s keeps the connection open. A subscriber that falls too far behind is disconnected (reconnect and resume).';

const STREAM = 'An endless `text/event-stream`. The schema describes one event (name and data), not the raw stream.';
const E = EVENT_HTTP_ERRORS;

export const EVENT_ROUTES = {
  globalEvents: {
    id: 'globalEvents',
    method: 'get',
    path: '/api/events',
    tag: 'events',
    summary: 'Global event stream (SSE)',
    description: `Server-sent events for the lobby and the catalogue; one per browser tab is enough. The JSON of each \`data:\` line is tagged with the event name (\`{"<name>": …}\`, as in the reference server).\n\n${eventList(GLOBAL_EVENT_DOCS)}\n\n${SSE_WIRE}`,
    access: 'optional',
    rateLimit: 'streams',
    reply: { status: 200, events: GlobalEventSchema, description: STREAM },
    errors: [E.tooManyStreams, E.shuttingDown],
  },
  gameEvents: {
    id: 'gameEvents',
    method: 'get',
    path: '/api/games/{id}/events',
    tag: ['events', 'games'],
    summary: 'Event stream of one game (SSE)',
    description: `Server-sent events of one game; the \`data:\` line is the flat JSON of the event.\n\n${eventList(GAME_EVENT_DOCS)}\n\nEvents carry their sequence number as \`id:\`; a reconnecting \`EventSource\` sends it back as \`Last-Event-ID\` and gets what it missed (or a fresh \`snapshot\`).\n\n${SSE_WIRE}`,
    access: 'optional',
    rateLimit: 'streams',
    params: gameParam,
    headers: z.object({ 'Last-Event-ID': z.string().optional().meta({ description: 'Sequence number of the last event received: resume after it.' }) }),
    reply: { status: 200, events: GameStreamEventSchema, description: STREAM },
    invalid: { what: 'The game id', example: BAD_GAME_ID },
    errors: [rule('game_id_not_found'), E.tooManyStreams, E.shuttingDown],
  },
} as const satisfies Record<string, RouteSpec>;
