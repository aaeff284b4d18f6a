import { isUtf8 } from 'node:buffer';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import cookieParser from 'cookie-parser';
import express, { type Application, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { allowedOriginsOf, type Config } from './config.ts';
import type { GlobalEventEnvelope } from './events/bus.ts';
import { audioRouter } from './http/audio.ts';
import { AUDIO_UPLOAD_PATH, audioAdminRouter } from './http/audio-admin.ts';
import { sessionMiddleware } from './http/auth.ts';
import { captchaRouter } from './http/captcha.ts';
import { catalogueIoRouter, HITS_IMPORT_PATH } from './http/catalogue-io.ts';
import { catalogueRouter } from './http/catalogue.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { eventsRouter } from './http/events.ts';
import { joinAddressRouter } from './http/join-address.ts';
import { gameSnapshot, gamesRouter, leaveAllGames, listGames, renameInAllGames } from './http/games.ts';
import { apiDocsRouter } from './http/openapi.ts';
import { reportsRouter } from './http/reports.ts';
import { clientPageCsp, csrfGuardWith, rateLimits, securityHeaders } from './http/security.ts';
import type { SseHub } from './http/sse-hub.ts';
import { usersRouter } from './http/users.ts';
import type { Logger } from './logger.ts';
import type { AudioPipeline } from './services/audio/pipeline.ts';
import type { CaptchaService } from './services/captcha.ts';
import type { CatalogueService } from './services/catalogue.ts';
import type { ReportsService } from './services/reports.ts';
import type { UsersService } from './services/users.ts';
import { illFormedText, INVALID_INPUT_STATUS } from '../shared/protocol/common.ts';
import { summarizeGame } from '../shared/rules/index.ts';

/** Everything the HTTP layer needs; built once by the process entry (index.ts). */
export interface AppContext {
  config: Config;
  log: Logger;
  hub: SseHub;
  users: UsersService;
  /** The registration captcha (GET /api/altcha, checked by POST /api/users/register). */
  captcha: CaptchaService;
  catalogue: CatalogueService;
  /** Reports about hits and the review queue (absent in tests that build the app without them). */
  reports?: ReportsService;
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
  app.use('/api', express.json({ limit: '100kb', strict: false, verify: refuseInvalidUtf8 }), refuseIllFormedText, cookieParser());
  app.use('/api', sessionMiddleware(ctx.users));
  app.use('/api', csrfGuardWith({ anyBodyPaths: [HITS_IMPORT_PATH, AUDIO_UPLOAD_PATH], origins: allowedOriginsOf(config) }));

  const limits = rateLimits(config);
  app.use('/api', captchaRouter(ctx.captcha));
  app.use('/api/users', usersRouter({ users: ctx.users, captcha: ctx.captcha, config, log, limits, onUserGone: leaveAllGames, onUserRenamed: renameInAllGames }));
  app.use('/api', limits.writes);
  app.use(
    '/api',
    catalogueIoRouter({
      db: ctx.catalogue.db,
      log,
      limits,
      search: () => ctx.catalogue.search,
      changed: () => ctx.catalogue.changed(),
      exportPublic: config.EXPORT_PUBLIC,
      remote: { timeoutMs: config.IMPORT_FETCH_TIMEOUT_SECONDS * 1000, allowPrivate: config.IMPORT_ALLOW_PRIVATE },
    }),
  );
  if (ctx.reports) app.use('/api', reportsRouter({ reports: ctx.reports, captcha: ctx.captcha, limits }));
  app.use('/api', catalogueRouter({ catalogue: ctx.catalogue, reports: ctx.reports, limits }));
  app.use('/api', gamesRouter({ catalogue: ctx.catalogue, youtube: youtubePlayer(config) }));
  app.use('/api', joinAddressRouter({ publicUrl: config.PUBLIC_URL }));
  app.use('/api', audioRouter({ config, db: ctx.catalogue.db, log }));
  if (ctx.audio) app.use('/api', audioAdminRouter({ pipeline: ctx.audio, config, log }));
  app.use(
    '/api',
    eventsRouter({
      hub: ctx.hub,
      gameSnapshot: (id, viewer) => gameSnapshot(id, viewer, true),
      globalInitial: (viewer) => globalInitial(ctx, viewer),
      limit: limits.streams,
    }),
  );
  app.use(apiDocsRouter());
  app.use('/api', apiNotFound);

  // the built web client, with index.html for every other path (client-side routes)
  const index = join(config.CLIENT_DIR, 'index.html');
  app.use(compressedStatic(config.CLIENT_DIR, STATIC_MAX_AGE_SECONDS, log));
  app.use(express.static(config.CLIENT_DIR, { index: false, maxAge: STATIC_MAX_AGE_SECONDS * 1000 }));
  // the page's own CSP: the game screen may load the DJ's YouTube player
  app.get('/{*path}', clientPageCsp({ https: config.COOKIE_SECURE, youtube: youtubePlayer(config) }), clientPage(index));
  app.use(errorHandler(log));
}

/** Where the DJ's YouTube player comes from (the configuration). */
const youtubePlayer = (config: Config) => ({ api: config.YOUTUBE_IFRAME_API, host: config.YOUTUBE_PLAYER_HOST });

/**
 * The client's page (index.html) for every client-side route, with its module
 * scripts at low fetch priority (budget P10): the page's static shell needs
 * only the page, its style sheet and the small boot script to paint, and the
 * app's JavaScript (deferred as every module script is, ~165 kB compressed)
 * then no longer competes with them for a phone's bandwidth. Read again when
 * the file changes; `no-cache`, so a new build is picked up at once.
 */
function clientPage(file: string): RequestHandler {
  let cached: { mtimeMs: number; size: number; html: string } | undefined;
  return async (_req, res) => {
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) {
      res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build`.');
      return;
    }
    if (cached?.mtimeMs !== st.mtimeMs || cached.size !== st.size) {
      cached = { mtimeMs: st.mtimeMs, size: st.size, html: lowPriorityModuleScripts(await readFile(file, 'utf8')) };
    }
    res.type('html').set('Cache-Control', 'no-cache').send(cached.html);
  };
}

/** Adds `fetchpriority="low"` to every module script of a page that does not set its priority. */
export function lowPriorityModuleScripts(html: string): string {
  return html.replace(/<script\b(?=[^>]*\btype=["']?module\b)(?![^>]*\bfetchpriority=)/gi, '<script fetchpriority="low"');
}

const STATIC_MAX_AGE_SECONDS = 3600;
/** Text files of the built client worth compressing (images and audio are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/i;
const hidden = (path: string): boolean => path.split(sep).some((part) => part.startsWith('.'));
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One file of the client, compressed: gzip at once (milliseconds), brotli after it in the background. */
interface Compressed {
  mtimeMs: number;
  size: number;
  /** null: not worth it (tiny file) or failed; served as it is. */
  gzip: Promise<Buffer | null>;
  br: Promise<Buffer | null>;
  /** The brotli result once there; until then gzip is served rather than waiting. */
  brDone?: Buffer | null;
}

/**
 * Serves the built client's text files brotli- or gzip-compressed (budget P10:
 * the first page's JavaScript is ~600 kB as built, ~190 kB in gzip and ~165 kB in
 * brotli; a phone on a slow network waits seconds for the difference). Each file is
 * compressed once per version in the thread pool, never on the event loop the game
 * rooms share: gzip right away, brotli (highest quality, ~1 s for the main chunk)
 * one file after the other behind it, serving gzip until it is there. The files
 * present at start are compressed in the background at once, any other on its
 * first request. Whatever this does not answer (other files, clients without
 * br/gzip) goes on to express.static.
 */
function compressedStatic(root: string, maxAgeSeconds: number, log: Logger): RequestHandler {
  const base = resolve(root);
  const cache = new Map<string, Compressed>();
  // one brotli job at a time: the thread pool also serves file and database work
  let brotliQueue: Promise<unknown> = Promise.resolve();
  const failed = (file: string) => (err: unknown) => {
    log.warn({ err, file }, 'compressing a client file failed; serving it uncompressed');
    return null;
  };
  const compress = (file: string, st: { mtimeMs: number; size: number }): Compressed => {
    const raw = readFile(file);
    // not worth it for tiny files: served as they are
    const gz = raw.then(async (b) => {
      const z = await gzipAsync(b, { level: 9 });
      return z.length < b.length ? z : null;
    });
    const entry: Compressed = { mtimeMs: st.mtimeMs, size: st.size, gzip: gz.catch(failed(file)), br: Promise.resolve(null) };
    const job = brotliQueue.then(async () => {
      if (!(await entry.gzip)) return null;
      const b = await raw;
      return brotli(b, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: b.length } });
    });
    brotliQueue = job.catch(() => undefined);
    entry.br = job.then((b) => (entry.brDone = b)).catch(failed(file));
    cache.set(file, entry);
    return entry;
  };
  const current = (file: string, st: { mtimeMs: number; size: number }): Compressed => {
    const cached = cache.get(file);
    return cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size ? cached : compress(file, st);
  };
  void (async () => {
    const names = await readdir(base, { recursive: true }).catch(() => [] as string[]);
    for (const name of names) {
      if (!COMPRESSIBLE.test(name) || hidden(name)) continue;
      const file = join(base, name);
      const st = await stat(file).catch(() => null);
      if (st?.isFile() && !cache.has(file)) await compress(file, st).gzip;
    }
  })();

  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !COMPRESSIBLE.test(req.path)) return next();
    res.vary('Accept-Encoding');
    // browsers list gzip first ("gzip, deflate, br, zstd") with equal weight: brotli is preferred when ready
    const br = req.acceptsEncodings('br') === 'br';
    const gzip = req.acceptsEncodings('gzip') === 'gzip';
    if (!br && !gzip) return next();
    let file: string;
    try {
      file = resolve(base, `.${decodeURIComponent(req.path)}`);
    } catch {
      return next();
    }
    // inside the client folder, and no dot-files (express.static ignores them too)
    if (!file.startsWith(base + sep) || hidden(relative(base, file))) return next();
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) return next();
    const c = current(file, st);
    let encoding: 'br' | 'gzip';
    let body: Buffer | null;
    if (br && c.brDone) [encoding, body] = ['br', c.brDone];
    else if (gzip) [encoding, body] = ['gzip', await c.gzip];
    else [encoding, body] = ['br', await c.br];
    if (!body) return next();
    res.type(extname(file));
    res.set({
      'Content-Encoding': encoding,
      'Cache-Control': `public, max-age=${maxAgeSeconds}`,
      'Last-Modified': st.mtime.toUTCString(),
      ETag: `W/"${st.size.toString(16)}-${Math.trunc(st.mtimeMs).toString(16)}-${encoding}"`,
    });
    if (req.fresh) return void res.status(304).end();
    res.set('Content-Length', String(body.length));
    if (req.method === 'HEAD') return void res.end();
    res.end(body);
  };
}

/** What a new global-stream subscriber gets first: hit progress, then the lobby's games. */
async function globalInitial(ctx: AppContext, viewer: string | null): Promise<GlobalEventEnvelope[]> {
  const games = await listGames(viewer);
  // (a server without an audio pipeline downloads nothing)
  const progress = ctx.audio ? await ctx.audio.progressNow() : { ...(await ctx.catalogue.progress()), youtube: false };
  return [
    { event: 'process_hits', data: progress },
    ...games.map((g) => ({ event: 'game_summary' as const, data: summarizeGame(g) })),
  ];
}

/**
 * express.json's `verify`: a body that is not valid UTF-8 is malformed JSON
 * (400 malformed_json), not text to decode with replacement characters (a pack
 * named "\uFFFD\uFFFD bad" would be saved).
 */
function refuseInvalidUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw Object.assign(new Error('the request body is not valid UTF-8'), { status: 400, type: 'entity.parse.failed' });
}

/**
 * After express.json, before any route: valid UTF-8 can still spell a lone
 * surrogate as an escape ("\\ud800"), which no route should see, since it would
 * be stored as U+FFFD; 400 invalid_input naming the field.
 */
const refuseIllFormedText: RequestHandler = (req, res, next) => {
  const error = illFormedText(req.body);
  if (error) {
    res.status(INVALID_INPUT_STATUS).json(error);
    return;
  }
  next();
};
