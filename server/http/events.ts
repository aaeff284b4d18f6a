import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { GamePayload } from '../../shared/rules/views.ts';
import { EVENT_ROUTES } from '../../shared/protocol/routes-events.ts';
import type { GlobalEventEnvelope } from '../events/bus.ts';
import { permissionsObject } from '../services/users.ts';
import { mount } from './routes.ts';
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

/** The caller's permissions by name, as they are now: a global stream keeps them while it is open. */
function permissionsOf(res: Response): Set<string> {
  const bits = res.locals.user?.permissions ?? 0;
  return new Set(Object.entries(permissionsObject(bits)).flatMap(([name, held]) => (held ? [name] : [])));
}

/**
 * The SSE endpoints (shared/protocol/routes-events.ts), mounted at `/api`: `GET /events` (global stream, docs/api.md#sse) and `GET /games/:id/events` (one game, docs/api.md#sse with docs/rules.md#a13).
 * Both work anonymously; who may see a game is `gameSnapshot`'s decision.
 */
export function eventsRouter(deps: EventsRouterDeps): Router {
  const router = Router();
  const limits = { streams: deps.limit };

  mount(router, EVENT_ROUTES.globalEvents, async (_input, req: Request, res: Response) => {
    const viewer = viewerOf(res);
    await deps.hub.streamGlobal(req, res, viewer, () => deps.globalInitial(viewer), permissionsOf(res));
  }, { limits });

  mount(router, EVENT_ROUTES.gameEvents, async ({ params: { id } }, req: Request, res: Response) => {
    const viewer = viewerOf(res);
    await deps.hub.streamGame(req, res, id, () => deps.gameSnapshot(id, viewer));
  }, { limits });

  return router;
}
