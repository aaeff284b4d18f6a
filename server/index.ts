import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineRoom, defineServer, LocalPresence, matchMaker } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { configureApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/index.ts';
import { leaveAllGames } from './http/games.ts';
import { SseHub } from './http/sse-hub.ts';
import { createLogger, type Logger } from './logger.ts';
import { GameRoom } from './rooms/game-room.ts';
import { setRoomServices } from './rooms/services.ts';
import { ffmpegPath } from './services/audio/ffmpeg.ts';
import { AudioPipeline } from './services/audio/pipeline.ts';
import { CatalogueService } from './services/catalogue.ts';
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
  hub: SseHub;
  users: UsersService;
  catalogue: CatalogueService;
  /** The audio pipeline's worker and queue. */
  audio: AudioPipeline;
  /** Stops accepting, finishes in-flight requests, ends streams and rooms, closes the database. */
  close(): Promise<void>;
}

/** Starts Hitline with `config` (PORT 0 picks a free port). */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config.DATABASE_URL);
  const catalogue = new CatalogueService(db, log);
  const users = new UsersService(db, config, log);
  await catalogue.loadDemoIfEmpty(config.DEMO_CATALOGUE);
  // the search's typo vocabulary, built before the first search instead of during it
  await catalogue.search.ready();

  const presence = new LocalPresence();
  const hub = new SseHub(presence, log);
  // every catalogue change made through the service (the catalogue routes, the import via catalogue.changed()) refreshes open catalogue views
  catalogue.onChanged(() => void hub.publishGlobal({ event: 'hits_changed', data: {} }));
  setRoomServices({ config, log, hub, catalogue, users });
  const audio = new AudioPipeline({
    db,
    log,
    audioDir: config.AUDIO_DIR,
    ffmpeg: ffmpegPath(config.FFMPEG_PATH),
    ytdlp: config.YTDLP_PATH,
    concurrency: config.AUDIO_CONCURRENCY,
    fetchTimeoutMs: config.AUDIO_FETCH_TIMEOUT_SECONDS * 1000,
    processTimeoutMs: config.AUDIO_PROCESS_TIMEOUT_SECONDS * 1000,
    onProgress: (data) => void hub.publishGlobal({ event: 'process_hits', data }),
  });

  const transport = new WebSocketTransport();
  // The client is served from this origin. Colyseus would answer every response with
  // CORS headers reflecting any Origin with credentials; a same-origin app needs none.
  matchMaker.controller.DEFAULT_CORS_HEADERS = {} as typeof matchMaker.controller.DEFAULT_CORS_HEADERS;
  matchMaker.controller.getCorsHeaders = () => ({});
  const colyseus = defineServer({
    rooms: { game: defineRoom(GameRoom) },
    transport,
    presence,
    greet: false,
    gracefullyShutdown: false,
    express: (app) => configureApp(app, { config, log, hub, users, catalogue, audio }),
  });
  await colyseus.listen(config.PORT, config.HOST);
  const http = transport.server as HttpServer;
  const port = (http.address() as AddressInfo).port;
  log.info({ port, host: config.HOST }, `Hitline is listening on http://localhost:${port}`);
  // after listening: the queue runs in the background and hits become playable as they finish
  await audio.start().catch((err: unknown) => log.error({ err, dir: config.AUDIO_DIR }, 'the audio pipeline could not start; hits get no new audio'));
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
      // stop accepting; end the streams, then the rooms; sockets that turn idle meanwhile are closed too
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
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
      await db.destroy();
      log.info('Hitline stopped');
    })());

  return { port, config, db, log, hub, users, catalogue, audio, close };
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const server = await startServer(config);
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
