/**
 * Test harness for the game server: a real server (real SQLite file, real HTTP,
 * real WebSockets) on an ephemeral port, users with cookie jars, SSE readers and
 * Colyseus SDK clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { inject } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../server/config.ts';
import { isPostgres } from '../../server/db/index.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { freshDatabase } from '../infra/services.ts';

/**
 * The engine the server tests run on: SQLite files by default; PostgreSQL in the
 * `server-pg` project of vitest.scale.config.ts (a new database per server, on the
 * PostgreSQL its global setup started or found in TEST_PG_URL).
 */
export const TEST_ON_POSTGRES = process.env.HITLINE_TEST_DATABASE === 'postgres';

/** A new, empty database for one test server: a SQLite file in `dir`, or a new PostgreSQL database. */
export async function testDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_ON_POSTGRES) return { url: `sqlite:${join(dir, 'test.sqlite')}`, drop: async () => {} };
  const admin = inject('pgUrl');
  if (!admin) throw new Error('HITLINE_TEST_DATABASE=postgres needs the global setup of vitest.scale.config.ts (it provides pgUrl)');
  return freshDatabase(admin);
}

export const PACK_ONE = '11111111-1111-4111-8111-111111111111';
export const PACK_TWO = '22222222-2222-4222-8222-222222222222';

/** The YouTube id writeCatalogue gives hit `i` (11 characters). */
export const videoOf = (i: number): string => `vid${String(i).padStart(8, '0')}`;

/**
 * Writes a hits.yml with `count` hits (years 1950..2024) split over two packs;
 * the first `videos` of them have a YouTube id (videoOf) and a playback offset of 10 + i.
 */
export function writeCatalogue(dir: string, count = 200, videos = 0): string {
  const hits = Array.from({ length: count }, (_, i) => ({
    artist: `Artist ${i}`,
    title: `Song ${i}`,
    belongs_to: '',
    year: 1950 + ((i * 13) % 75),
    packs: [i % 2 === 0 ? PACK_ONE : PACK_TWO],
    playback_offset: i < videos ? 10 + i : 0,
    id: randomUUID(),
    ...(i < videos ? { yt_id: videoOf(i) } : {}),
  }));
  const file = join(dir, 'hits.yml');
  writeFileSync(file, stringify({ hits, packs: [{ id: PACK_ONE, name: 'One' }, { id: PACK_TWO, name: 'Two' }] }));
  return file;
}

export interface TestServer {
  server: RunningServer;
  base: string;
  ws: string;
  dir: string;
  stop(): Promise<void>;
}

/** Boots Hitline on a free port with its own database and catalogue. */
export async function bootServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hitline-test-'));
  const database = await testDatabase(dir);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DEMO_CATALOGUE: writeCatalogue(dir),
    CLIENT_DIR: join(dir, 'no-client'),
    // never the repository's data/audio: processed files and clips stay in the test's folder
    AUDIO_DIR: join(dir, 'audio'),
    LOG_LEVEL: 'silent',
    ARGON2_MEMORY_KIB: '1024',
    RATE_LIMIT_FACTOR: '0',
    // tests never reach the internet: a yt-dlp on this machine's PATH stays unused unless a test gives its fake one
    YTDLP_PATH: 'off',
    // nor MusicBrainz or Wikidata: no year evidence is looked up
    EVIDENCE_SOURCES: '',
    ...env,
  });
  const server = await startServer(config);
  if (isPostgres(server.db) !== TEST_ON_POSTGRES) throw new Error(`the test server runs on the wrong database engine (${database.url})`);
  const base = `http://127.0.0.1:${server.port}`;
  return {
    server,
    base,
    ws: `ws://127.0.0.1:${server.port}`,
    dir,
    async stop() {
      await server.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser-like user: keeps the cookies the server sets. */
export class User {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  id = '';
  name = '';

  constructor(base: string) {
    this.base = base;
  }

  /** Creates (or refreshes) the session: a guest on first call. */
  static async guest(base: string): Promise<User> {
    const u = new User(base);
    await u.auth();
    return u;
  }

  async auth(): Promise<void> {
    const r = await this.request('GET', '/api/users/auth');
    if (r.status !== 200) throw new Error(`auth failed: ${r.status}`);
    const me = await this.request('GET', '/api/users/me');
    this.id = me.body.id;
    this.name = me.body.name;
  }

  /** The session token (the `id` cookie), for WebSocket clients. */
  get token(): string {
    return this.cookies.get('id') ?? '';
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { cookie: this.cookieHeader(), ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + path, init);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** A Colyseus client that authenticates with this user's session cookie. */
  colyseus(wsBase: string): Client {
    return new Client(wsBase.replace(/^ws/, 'http'), { headers: { cookie: this.cookieHeader() } });
  }

  /** Opens the game's room as this user. */
  async joinRoom(wsBase: string, gameId: string): Promise<Room> {
    const room = await this.colyseus(wsBase).joinById(gameId);
    return room;
  }
}

/** An SSE reader on a real HTTP stream, collecting parsed events. */
export class SseReader {
  readonly events: { id?: string; event: string; data: any }[] = [];
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];
  status = 0;
  done: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.done = this.read(url, headers);
  }

  private async read(url: string, headers: Record<string, string>): Promise<void> {
    try {
      const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: this.controller.signal });
      this.status = res.status;
      this.wake();
      if (!res.body) return;
      const decoder = new TextDecoder();
      let buf = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const ev: { id?: string; event: string; data: string } = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const i = line.indexOf(':');
            const key = i < 0 ? line : line.slice(0, i);
            const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (key === 'event') ev.event = value;
            else if (key === 'data') ev.data += value;
            else if (key === 'id') ev.id = value;
          }
          if (block.split('\n').every((l) => l.startsWith(':'))) continue;
          this.events.push({ ...ev, data: ev.data ? JSON.parse(ev.data) : undefined });
          this.wake();
        }
      }
    } catch {
      // aborted or closed
    } finally {
      this.wake();
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until `pred` holds for the collected events (or times out). */
  async until(pred: (events: SseReader['events']) => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE: condition not met in ${ms} ms; got ${this.events.map((e) => e.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}

/** Polls `pred` until it holds. */
export async function waitFor(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A TCP port that was free a moment ago (for a server that must keep its port across restarts). */
export async function freePort(): Promise<number> {
  return new Promise<number>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => res(p));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Sends `signal` and resolves with how it ended. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `server/index.ts` as its own process with exactly `env` (plus PATH and HOME) and Node options `nodeArgs`; resolves once it listens. */
export async function spawnServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, 'server/index.ts'], {
    cwd: resolve(import.meta.dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), YTDLP_PATH: 'off', EVIDENCE_SOURCES: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const t0 = Date.now();
  while (!out.includes('is listening')) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}: ${out}`);
    if (Date.now() - t0 > 20_000) throw new Error(`the server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    child,
    output: () => out,
    stop(signal) {
      child.kill(signal);
      return exited;
    },
  };
}
