import { EvidenceService } from './services/evidence/index.ts';
import { ReportsService } from './services/reports.ts';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineRoom, defineServer, LocalPresence, matchMaker, type Presence } from '@colyseus/core';
import { SpreadPingTransport } from './transport.ts';
import { configureApp } from './app.ts';
import { loadConfig, publicAddressOf, type Config } from './config.ts';
import { isPostgres, openDatabase, type Db } from './db/index.ts';
import { clipCache } from './http/audio-clips.ts';
import { leaveAllGames } from './http/games.ts';
import { matchmakeRoute } from './http/matchmake.ts';
import { bodyDeadline, connectionLimits } from './http/security.ts';
import { EventBus } from './events/bus.ts';
import { SseHub } from './http/sse-hub.ts';
import { createLogger, frameworkLogger, type Logger } from './logger.ts';
import { GameRoom, ROOM_NAME } from './rooms/game-room.ts';
import { setRoomServices } from './rooms/services.ts';
import { ffmpegPath } from './services/audio/ffmpeg.ts';
import { AudioPipeline } from './services/audio/pipeline.ts';
import { chooseYtdlp } from './services/audio/ytdlp.ts';
import { CaptchaService } from './services/captcha.ts';
import { CatalogueService } from './services/catalogue.ts';
import { GameStore, shiftDeadline } from './services/game-store.ts';
import { UsersService } from './services/users.ts';

/**
 * Process entry: configuration, database, Colyseus + Express on one port, and a
 * graceful shutdown. `startServer` is also what the tests use.
 */

export interface RunningServer {
  port: number;
  config: Config;
  db: Db;
  log: Logger;
  /** Where game and lobby events are published. */
  bus: EventBus;
  /** The SSE streams of this process. */
  hub: SseHub;
  users: UsersService;
  captcha: CaptchaService;
  catalogue: CatalogueService;
  /** Reports about hits and the review queue. */
  reports: ReportsService;
  /** The audio pipeline's worker and queue. */
  audio: AudioPipeline;
  /** Stops accepting, finishes in-flight requests, ends streams and rooms, closes the database. */
  close(): Promise<void>;
}

/** Starts Hitline with `config` (PORT 0 picks a free port). */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = createLogger(config.LOG_LEVEL);
  guardProcess(log);
  const publicAddress = publicAddressOf(config);
  const db = await openDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    onPoolError: (err) => log.warn({ err }, 'a pooled PostgreSQL connection failed; it is replaced'),
  });
  const catalogue = new CatalogueService(db, log);
  const users = new UsersService(db, config, log);
  const captcha = await CaptchaService.open(db, config);
  await catalogue.loadDemoIfEmpty(config.DEMO_CATALOGUE);
  // the search's typo vocabulary, built before the first search instead of during it
  await catalogue.search.ready();

  const { presence, driver } = await scaleOut(config, db, log, publicAddress);
  const bus = new EventBus(presence, log);
  const hub = new SseHub(bus, log);
  // every catalogue change made through the service (the catalogue routes, the import via catalogue.changed()) refreshes open catalogue views
  catalogue.onChanged(() => void bus.publishGlobal({ event: 'hits_changed', data: {} }));
  // the search index lives in the database; the typo vocabulary of each process learns other processes' changes
  const unfollow = followCatalogueChanges(presence, catalogue, log);
  const games = new GameStore(db, config.PROCESS_NAME, log);
  const reports = new ReportsService(db, log, { events: bus, catalogue });
  const evidence = new EvidenceService(db, log, (id) => reports.historyOf(id));
  setRoomServices({ config, log, bus, catalogue, users, games, clips: () => clipCache(config.AUDIO_DIR, ffmpegPath(config.FFMPEG_PATH), log), evidence, reports });
  // YTDLP_PATH, else the yt-dlp on the PATH: a host who installed it needs no configuration
  const ytdlp = chooseYtdlp(config.YTDLP_PATH);
  log.info(ytdlp.command ? { ytdlp: ytdlp.command } : { ytdlp: null, reason: ytdlp.reason }, ytdlp.command ? 'YouTube downloads with yt-dlp' : 'YouTube downloads are off');
  const audio = new AudioPipeline({
    db,
    log,
    audioDir: config.AUDIO_DIR,
    ffmpeg: ffmpegPath(config.FFMPEG_PATH),
    ytdlp: ytdlp.command,
    ...(ytdlp.reason ? { ytdlpMissing: ytdlp.reason } : {}),
    concurrency: config.AUDIO_CONCURRENCY,
    reports,
    fetchTimeoutMs: config.AUDIO_FETCH_TIMEOUT_SECONDS * 1000,
    processTimeoutMs: config.AUDIO_PROCESS_TIMEOUT_SECONDS * 1000,
    onProgress: (data) => {
      // audio became ready or went: the hits a new audio game may deal changed
      catalogue.forgetPlayable();
      void bus.publishGlobal({ event: 'process_hits', data });
    },
  });

  const limits = connectionLimits(config);
  // a phone on a bad network sends its headers and a body of the API (100 kB at most) in seconds;
  // Node allows 60 s and 300 s, and checks every 30 s. Bodies get their deadline from bodyDeadline.
  const timeoutMs = config.REQUEST_TIMEOUT_SECONDS * 1000;
  const http = createServer({ headersTimeout: timeoutMs, requestTimeout: 0, connectionsCheckingInterval: Math.min(5000, timeoutMs / 2) });
  const transport = new SpreadPingTransport({ server: http, ...(limits.websockets ? { perAddress: { max: limits.websockets, keyOf: limits.keyOf } } : {}) });
  // The client is served from this origin. Colyseus would answer every response with
  // CORS headers reflecting any Origin with credentials; a same-origin app needs none.
  matchMaker.controller.DEFAULT_CORS_HEADERS = {} as typeof matchMaker.controller.DEFAULT_CORS_HEADERS;
  matchMaker.controller.getCorsHeaders = () => ({});
  // Games are created by the API only (POST /api/games), which checks the session and
  // the request; the matchmaker's own create / join routes would hand any body to the
  // room's onCreate, unchecked. Clients only join a game by its id, or reconnect.
  matchMaker.controller.exposedMethods = ['joinById', 'reconnect'];
  const colyseus = defineServer({
    rooms: { [ROOM_NAME]: defineRoom(GameRoom) },
    transport,
    presence,
    ...(driver ? { driver } : {}),
    ...(publicAddress ? { publicAddress } : {}),
    // A game is created on the process that received the request (not on the least
    // loaded one): a load balancer already spreads the requests, and creating a game
    // never waits for another process.
    selectProcessIdToCreateRoom: async () => matchMaker.processId,
    greet: false,
    gracefullyShutdown: false,
    logger: frameworkLogger(log),
    express: (app) => configureApp(app, { config, log, hub, users, captcha, catalogue, reports, audio }),
  });
  await listenOrFail(colyseus.listen(config.PORT, config.HOST), http, config, db);
  const deadline = bodyDeadline(config.REQUEST_TIMEOUT_SECONDS);
  const matchmake = matchmakeRoute({ log, limit: limits.matchmake, keyOf: limits.keyOf });
  inFrontOfColyseus(http, (req, res) => {
    deadline(req, res);
    return matchmake(req, res);
  });
  const port = (http.address() as AddressInfo).port;
  log.info({ port, host: config.HOST }, `Hitline is listening on http://localhost:${port}`);
  await restoreGames(games, config, log);
  // the stored hits of starts that no log names any more: after the restore, then hourly
  const prune = () => void games.pruneHitSets().catch((err: unknown) => log.error({ err }, 'removing unused stored hits failed'));
  prune();
  const pruning = setInterval(prune, 3_600_000);
  pruning.unref();
  // a sign of life every few seconds: after a crash, it tells how long the games stood still
  await games.heartbeat().catch((err: unknown) => log.error({ err }, 'heartbeat failed'));
  const heartbeat = setInterval(() => void games.heartbeat().catch((err: unknown) => log.error({ err }, 'heartbeat failed')), HEARTBEAT_MS);
  heartbeat.unref();
  // after listening: the queue runs in the background and hits become playable as they finish
  if (config.AUDIO_WORKER) {
    await audio.start().catch((err: unknown) => log.error({ err, dir: config.AUDIO_DIR }, 'the audio pipeline could not start; hits get no new audio'));
  }
  // the editor's changes reach the audio: a new YouTube id downloads, a new offset re-cuts, a deletion removes the files
  catalogue.onChanged((change) => {
    if (change.kind !== 'hit') return;
    const done = (err: unknown) => log.error({ err, hit: change.id }, 'audio follow-up of a catalogue change failed');
    if (change.action === 'deleted') audio.removeAudio(change.id).catch(done);
    else if (change.audio === 'new_source') audio.enqueue(change.id, { kind: 'youtube' }).catch(done);
    else if (change.audio === 'reprocess') audio.enqueue(change.id).catch(done);
  });

  // sessions that ran out make their users leave their games (A7)
  const sweep = setInterval(() => {
    void users
      .sweep(Date.now())
      .then((gone) => Promise.all(gone.map(leaveAllGames)))
      .catch((err: unknown) => log.error({ err }, 'session sweep failed'));
  }, 60_000);
  sweep.unref();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweep);
      clearInterval(pruning);
      unfollow();
      clearInterval(heartbeat);
      // stop accepting; end the streams, then the rooms; sockets that turn idle meanwhile are closed too
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      bus.close();
      hub.close();
      // running audio jobs are cancelled and go back to the queue for the next start
      const audioStopped = audio.stop().catch((err: unknown) => log.error({ err }, 'stopping the audio pipeline failed'));
      await colyseus.gracefullyShutdown(false).catch((err: unknown) => log.error({ err }, 'room shutdown failed'));
      http.closeIdleConnections();
      const idle = setInterval(() => http.closeIdleConnections(), 50);
      const forced = setTimeout(() => http.closeAllConnections(), 3000);
      await stopped;
      clearInterval(idle);
      clearTimeout(forced);
      await audioStopped;
      // the games stand still from now on (their rooms are gone; their state is stored)
      await games.heartbeat().catch((err: unknown) => log.error({ err }, 'last heartbeat failed'));
      await db.destroy();
      log.info('Hitline stopped');
    })());

  return { port, config, db, log, bus, hub, users, captcha, catalogue, reports, audio, close };
}

const HEARTBEAT_MS = 5000;

/**
 * Puts `handle` in front of the HTTP server's request listeners (Colyseus' own,
 * which serves its routes and hands the rest to Express): a request it answers
 * (it returns true) goes no further. Call it after listening, when Colyseus has
 * bound its listener.
 */
function inFrontOfColyseus(http: HttpServer, handle: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const others = http.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!handle(req, res)) for (const listener of others) listener.call(http, req, res);
  });
}

/** The server could not take its port (in use, not allowed): the start fails with a message naming it. */
export class ListenError extends Error {}

/**
 * Waits for `listening` to settle, failing on the HTTP server's `error` too:
 * Colyseus' listen only hears errors after the server listened, so a port
 * already in use left its promise pending and the process running forever,
 * doing nothing. On failure the database is closed and the start rejects.
 */
async function listenOrFail(listening: Promise<void>, http: HttpServer, config: Config, db: Db): Promise<void> {
  let onError: ((err: NodeJS.ErrnoException) => void) | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    onError = (err) => {
      const why = err.code === 'EADDRINUSE' ? 'is already in use (another Hitline or another program listens there)' : `cannot be used (${err.code ?? err.message})`;
      reject(new ListenError(`Hitline cannot start: port ${config.PORT} on ${config.HOST} ${why}; stop that program or set PORT to a free port`, { cause: err }));
    };
    http.once('error', onError);
  });
  try {
    await Promise.race([listening, failed]);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  } finally {
    http.off('error', onError!);
  }
}

const CATALOGUE_TOPIC = 'hitline:catalogue';
/** How long a process waits after another one's catalogue change before it rebuilds its typo vocabulary (changes come in bursts). */
const VOCABULARY_REFRESH_DELAY_MS = 1000;

/**
 * Tells the other processes (through the presence) about every catalogue change
 * made here, and rebuilds this process's typo vocabulary (search.ts) shortly after
 * a change made elsewhere. Returns the function that stops both.
 */
function followCatalogueChanges(presence: Presence, catalogue: CatalogueService, log: Logger): () => void {
  const me = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  const listener = (message: { from?: unknown } | null) => {
    if (message?.from === me || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void catalogue.search.refresh();
    }, VOCABULARY_REFRESH_DELAY_MS);
    timer.unref();
  };
  Promise.resolve(presence.subscribe(CATALOGUE_TOPIC, listener)).catch((err: unknown) => log.error({ err }, 'subscribing to catalogue changes failed'));
  const off = catalogue.onChanged(() => {
    Promise.resolve(presence.publish(CATALOGUE_TOPIC, { from: me })).catch((err: unknown) => log.warn({ err }, 'announcing a catalogue change failed'));
  });
  return () => {
    off();
    clearTimeout(timer);
    presence.unsubscribe(CATALOGUE_TOPIC, listener);
  };
}

/**
 * The Colyseus presence and matchmaking driver: in memory for one process, or
 * Redis (REDIS_URL) shared by every process of a cluster, which then see each
 * other's rooms, calls and events. Both Redis clients get the URL, not a client
 * instance: they bring their own ioredis major version.
 */
async function scaleOut(config: Config, db: Db, log: Logger, publicAddress: string | undefined): Promise<{ presence: Presence; driver?: matchMaker.MatchMakerDriver }> {
  if (!config.REDIS_URL) return { presence: new LocalPresence() };
  const [{ RedisPresence }, { RedisDriver }] = await Promise.all([import('@colyseus/redis-presence'), import('@colyseus/redis-driver')]);
  const redacted = config.REDIS_URL.replace(/\/\/[^@/]*@/, '//***@');
  log.info({ redis: redacted, publicAddress, database: isPostgres(db) ? 'postgres' : 'sqlite' }, 'scale-out: rooms, matchmaking and events go through Redis');
  // processes on other machines cannot open this process's SQLite file
  if (!isPostgres(db)) log.warn('REDIS_URL is set with a SQLite database: every process must run on this machine and open the same file; use PostgreSQL across machines');
  return { presence: new RedisPresence(config.REDIS_URL), driver: new RedisDriver(config.REDIS_URL) };
}

/**
 * Brings back every game this process hosted before it stopped or crashed: same
 * id, players, seats, tokens, timelines, current hit and seq; deadlines move by
 * the downtime. Games idle beyond GAME_IDLE_HOURS are removed instead.
 */
async function restoreGames(games: GameStore, config: Config, log: Logger): Promise<void> {
  const stored = await games.load();
  if (stored.length === 0) return;
  const now = Date.now();
  const downAt = (await games.lastSeen()) ?? now;
  let restored = 0;
  for (const s of stored) {
    const id = s.game.id;
    if (now - s.updatedAt >= config.GAME_IDLE_HOURS * 3_600_000) {
      await games.remove(id).catch((err: unknown) => log.error({ err, game: id }, 'removing an idle stored game failed'));
      continue;
    }
    try {
      const game = shiftDeadline(s.game, Math.max(downAt, s.updatedAt), now);
      await matchMaker.handleCreateRoom(ROOM_NAME, { gameId: id, restore: { game, seq: s.seq, updatedAt: s.updatedAt } });
      restored++;
    } catch (err) {
      log.error({ err, game: id }, 'restoring a game failed; it stays stored');
    }
  }
  log.info({ restored, stored: stored.length, downtime_ms: now - downAt }, 'games restored');
}

/**
 * What the process does about errors nobody caught, and keeping PM2's agent off.
 *
 * Colyseus reports its room and client counts to PM2 through @pm2/io, which is
 * always installed (a dependency of @colyseus/core), and importing @pm2/io starts
 * its whole agent: an inspector session with the CPU and heap profilers enabled,
 * timing of every HTTP request, handlers for uncaught errors, and timers that list
 * every libuv handle each second (4,800 sockets: ~5 ms of CPU a second, budget
 * P1). Hitline does not run under PM2. @pm2/io keeps one instance per process
 * under a global symbol and uses the one it finds there, so a stand-in placed
 * there first takes Colyseus' two metrics and starts nothing.
 *
 * A promise rejection nobody handles is a bug, but not one that should end every
 * game of the process: it is logged and the server goes on (what the agent's
 * handler did too). An uncaught exception ends the process as Node does by
 * default, since its state may be broken; the games survive the restart.
 * Installed once per process; the first server's logger reports.
 */
function guardProcess(log: Logger): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[GUARDED]) return;
  g[GUARDED] = true;
  g[Symbol.for('@pm2/io')] ??= { metric: () => undefined };
  process.on('unhandledRejection', (err) => log.error({ err }, 'a promise was rejected and nobody handled it; the server goes on'));
}
const GUARDED = Symbol.for('hitline.process-guarded');

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (err) {
    if (!(err instanceof ListenError)) throw err;
    // nothing to shut down gracefully: no game ran here; other handles (the presence, timers) must not keep a failed start alive
    console.error(err.message);
    process.exit(1);
  }
  let signalled = false;
  const stop = (signal: string) => {
    if (signalled) return;
    signalled = true;
    server.log.info({ signal }, 'shutting down');
    const timeout = setTimeout(() => {
      server.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timeout.unref();
    void server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (import.meta.main) {
  void main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
