import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Application } from 'express';
import { pinoHttp } from 'pino-http';
import type { Config } from './config.ts';
import { audioRouter } from './http/audio.ts';
import { AUDIO_UPLOAD_PATH, audioAdminRouter } from './http/audio-admin.ts';
import { sessionMiddleware } from './http/auth.ts';
import { catalogueIoRouter, HITS_IMPORT_PATH } from './http/catalogue-io.ts';
import { catalogueRouter } from './http/catalogue.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { eventsRouter, type GlobalEventEnvelope } from './http/events.ts';
import { gameSnapshot, gamesRouter, leaveAllGames, listGames } from './http/games.ts';
import { apiDocsRouter } from './http/openapi.ts';
import { csrfGuardWith, rateLimits, securityHeaders } from './http/security.ts';
import type { SseHub } from './http/sse-hub.ts';
import { usersRouter } from './http/users.ts';
import type { Logger } from './logger.ts';
import type { AudioPipeline } from './services/audio/pipeline.ts';
import type { CatalogueService } from './services/catalogue.ts';
import type { UsersService } from './services/users.ts';
import { summarizeGame } from '../shared/rules/index.ts';

/** Everything the HTTP layer needs; built once by the process entry (index.ts). */
export interface AppContext {
  config: Config;
  log: Logger;
  hub: SseHub;
  users: UsersService;
  catalogue: CatalogueService;
  /** The audio pipeline (absent in tests that build the app without one). */
  audio?: AudioPipeline;
}

/**
 * Mounts the whole HTTP side on `app` (Colyseus owns the server and mounts its
 * matchmaking routes in front): security, sessions, the API under /api, the API
 * reference, the built client with an SPA fallback, and the error handlers.
 */
export function configureApp(app: Application, ctx: AppContext): void {
  const { config, log } = ctx;
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // one line per request: method, path, status, ms; never headers, cookies or bodies
  const path = (req: { originalUrl?: string; url?: string }) => (req.originalUrl ?? req.url ?? '').split('?')[0];
  app.use(
    pinoHttp({
      logger: log,
      quietReqLogger: true,
      autoLogging: { ignore: (req) => req.url === '/__healthcheck' },
      serializers: { req: () => undefined, res: () => undefined },
      customAttributeKeys: { responseTime: 'ms' },
      customProps: (req) => ({ method: req.method, path: path(req) }),
      customSuccessMessage: (req, res, ms) => `${req.method} ${path(req)} ${res.statusCode} ${Math.round(ms)}ms`,
      customErrorMessage: (req, res) => `${req.method} ${path(req)} ${res.statusCode}`,
    }),
  );
  app.use(securityHeaders({ https: config.COOKIE_SECURE }));
  app.use('/api', express.json({ limit: '100kb', strict: false }), cookieParser());
  app.use('/api', sessionMiddleware(ctx.users));
  app.use('/api', csrfGuardWith({ anyBodyPaths: [HITS_IMPORT_PATH, AUDIO_UPLOAD_PATH] }));

  const limits = rateLimits(config);
  app.use('/api/users', usersRouter({ users: ctx.users, config, log, limits, onUserGone: leaveAllGames }));
  app.use('/api', limits.writes);
  app.use('/api', catalogueIoRouter({ db: ctx.catalogue.db, log, limits, search: () => ctx.catalogue.search, changed: () => ctx.catalogue.changed() }));
  app.use('/api', catalogueRouter({ catalogue: ctx.catalogue, limits }));
  app.use('/api', gamesRouter({ catalogue: ctx.catalogue }));
  app.use('/api', audioRouter({ config, db: ctx.catalogue.db, log }));
  if (ctx.audio) app.use('/api', audioAdminRouter({ pipeline: ctx.audio, config, log }));
  app.use(
    '/api',
    eventsRouter({
      hub: ctx.hub,
      gameSnapshot,
      globalInitial: (viewer) => globalInitial(ctx, viewer),
    }),
  );
  app.use(apiDocsRouter());
  app.use('/api', apiNotFound);

  // the built web client, with index.html for every other path (client-side routes)
  const index = join(config.CLIENT_DIR, 'index.html');
  app.use(express.static(config.CLIENT_DIR, { index: false, maxAge: '1h' }));
  app.get('/{*path}', (_req, res) => {
    if (existsSync(index)) res.sendFile(index);
    else res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build`.');
  });
  app.use(errorHandler(log));
}

/** What a new global-stream subscriber gets first: hit progress, then the lobby's games. */
async function globalInitial(ctx: AppContext, viewer: string | null): Promise<GlobalEventEnvelope[]> {
  const games = await listGames(viewer);
  const progress = await ctx.catalogue.progress();
  return [
    { event: 'process_hits', data: progress },
    ...games.map((g) => ({ event: 'game_summary' as const, data: summarizeGame(g) })),
  ];
}
