/**
 * Starts the real server in a child process (bench/lib/server-child.ts) on a
 * fresh SQLite database in a temporary folder, with the demo catalogue, and
 * returns a handle to ask it for its memory and meters. See server-child.ts for
 * the requests it answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnChild, type ChildHandle } from './proc.ts';
import type { ServerMeter } from './server-child.ts';

export type { FanoutTurn, ServerMeter } from './server-child.ts';

export interface ServerProcess {
  port: number;
  base: string;
  /** The child's soft limit of open files. */
  openFiles: number;
  /** Its temporary folder (database, audio). */
  dir: string;
  memory(): Promise<NodeJS.MemoryUsage>;
  meterStart(): Promise<void>;
  meterStop(): Promise<ServerMeter>;
  publishGlobal(e: { event: string; data: unknown }): Promise<number>;
  stats(): Promise<{ gameStreams: number; globalStreams: number; rooms: number }>;
  /** Graceful shutdown; removes the temporary folder. */
  stop(): Promise<void>;
  handle: ChildHandle;
}

export interface ServerProcessOptions {
  /** Extra or overriding environment (configuration variables). */
  env?: Record<string, string>;
  /** Sockets the server must be able to hold (raises its `ulimit -n`). */
  openFiles?: number;
  /** Write a V8 CPU profile (`--cpu-prof`) of the server into this folder on exit. */
  cpuProfDir?: string;
  /** Keep the temporary folder. */
  keep?: boolean;
}

const ROOT = resolve(import.meta.dirname, '..', '..');

export async function startServerProcess(opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-bench-server-'));
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'hitline.sqlite')}`,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_FACTOR: '0',
    CLIENT_DIR: join(dir, 'no-client'),
    AUDIO_DIR: join(dir, 'audio'),
    DEMO_CATALOGUE: join(ROOT, 'assets', 'demo-hits.yml'),
    // never the internet: a yt-dlp on this machine's PATH stays unused
    YTDLP_PATH: 'off',
    // nor MusicBrainz or Wikidata: no year evidence is looked up
    EVIDENCE_SOURCES: '',
    ...opts.env,
  };
  const handle = spawnChild(join(import.meta.dirname, 'server-child.ts'), {
    execArgv: ['--expose-gc', ...(opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : [])],
    env,
    ...(opts.openFiles ? { openFiles: opts.openFiles } : {}),
  });
  let ready: { port: number; openFiles: number };
  try {
    ready = await handle.next<{ port: number; openFiles: number }>('ready', 60_000);
  } catch (err) {
    await handle.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port: ready.port,
    base: `http://127.0.0.1:${ready.port}`,
    openFiles: ready.openFiles,
    dir,
    handle,
    memory: () => handle.call('memory'),
    meterStart: () => handle.call('meterStart'),
    meterStop: () => handle.call('meterStop'),
    publishGlobal: (e) => handle.call('publishGlobal', e),
    stats: () => handle.call('stats'),
    async stop() {
      // graceful, so that --cpu-prof writes its profile; forced after 10 s
      const exited = new Promise<void>((r) => (handle.child.exitCode !== null ? r() : handle.child.once('exit', () => r())));
      await handle.call('close').catch(() => undefined);
      const forced = setTimeout(() => void handle.stop(), 10_000);
      await exited;
      clearTimeout(forced);
      if (!opts.keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A guest session on `base` (GET /api/users/auth): the cookie header to send with its requests. */
export async function guestCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/users/auth`, { redirect: 'manual' });
  if (res.status !== 200) throw new Error(`guest login answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((c) => c.split(';', 1)[0]!);
  if (!cookies.some((c) => c.startsWith('id='))) throw new Error('guest login set no session cookie');
  return cookies.join('; ');
}
