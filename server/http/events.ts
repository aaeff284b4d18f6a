import { Router, type Request, type RequestHandler, type Response } from 'express';
import { GameIdSchema } from '../../shared/protocol/common.ts';
import type { GamePayload } from '../../shared/rules/views.ts';
import { parseOr400 } from './errors.ts';
import type { GlobalEventEnvelope } from '../events/bus.ts';
import type { SseHub } from './sse-hub.ts';

export interface EventsRouterDeps {
  hub: SseHub;
  /** The game as `viewer` may see it with its current seq, for a stream that starts from it (the game publishes its events from then on); null when it does not exist for him (404). */
  gameSnapshot: (gameId: string, viewer: string | null) => Promise<{ seq: number; game: GamePayload } | null>;
  /** What a new global subscriber gets first: `process_hits`, then the lobby's game summaries. */
  globalInitial: (viewer: string | null) => Promise<GlobalEventEnvelope[]>;
  /** Limits the streams one client opens (rateLimits().streams). */
  limit: RequestHandler;
}

/** The caller as resolved by the session middleware mounted before this router. */
function viewerOf(res: Response): string | null {
  const user = (res.locals as { user?: { id?: unknown } }).user;
  return typeof user?.id === 'string' ? user.id : null;
}

/**
 * The SSE endpoints, mounted at `/api`: `GET /events` (global stream, docs/api.md#sse) and `GET /games/:id/events` (one game, docs/api.md#sse with docs/rules.md#a13).
 * Both work anonymously; who may see a game is `gameSnapshot`'s decision.
 */
export function eventsRouter(deps: EventsRouterDeps): Router {
  const router = Router();

  router.get('/events', deps.limit, async (req: Request, res: Response) => {
    const viewer = viewerOf(res);
    await deps.hub.streamGlobal(req, res, viewer, () => deps.globalInitial(viewer));
  });

  router.get('/games/:id/events', deps.limit, async (req: Request<{ id: string }>, res: Response) => {
    const id = parseOr400(res, GameIdSchema, req.params.id, 'id');
    if (id === undefined) return;
    const viewer = viewerOf(res);
    await deps.hub.streamGame(req, res, id, () => deps.gameSnapshot(id, viewer));
  });

  return router;
}
