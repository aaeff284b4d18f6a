/**
 * The cluster example of docs/operations.md, run as written: `node scripts/cluster.ts` starts
 * its own PostgreSQL and Redis (in a state folder of its own) and two server
 * processes; a game made on the first is listed by the second and joined through
 * it; Ctrl-C (SIGINT) stops the servers and both services by their process ids.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@colyseus/sdk';
import { afterAll, expect, it } from 'vitest';
import { GameListSchema } from '../../shared/protocol/index.ts';
import { User, waitFor } from '../server/harness.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
let dir = '';

/** Two consecutive free ports (the script uses --port and --port + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((done, fail) => {
      const s = createServer();
      s.once('error', fail);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => done(p));
      });
    });
    if (port >= 65535) continue;
    const next = await new Promise<boolean>((done) => {
      const s = createServer();
      s.once('error', () => done(false));
      s.listen(port + 1, '127.0.0.1', () => s.close(() => done(true)));
    });
    if (next) return port;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    sock.once('connect', () => {
      sock.destroy();
      done(false);
    });
    sock.once('error', () => done(true));
  });

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('runs two processes with their own PostgreSQL and Redis, and stops everything on Ctrl-C', async () => {
  dir = mkdtempSync(join(tmpdir(), 'hitline-cluster-script-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user and keeps its data inside
  const port = await freePortPair();
  const { DATABASE_URL: _d, REDIS_URL: _r, ...env } = process.env;
  const script = spawn(process.execPath, ['scripts/cluster.ts', '--processes', '2', '--port', String(port), '--host-name', '127.0.0.1', '--state', join(dir, 'state'), '--no-build'], {
    cwd: ROOT,
    env: { ...env, EVIDENCE_SOURCES: '', LOG_LEVEL: 'warn', DEMO_CATALOGUE: join(ROOT, 'assets', 'demo-hits.yml'), AUDIO_DIR: join(dir, 'audio'), CLIENT_DIR: join(dir, 'no-client'), ARGON2_MEMORY_KIB: '1024' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  script.stdout.on('data', (d: Buffer) => (out += d.toString()));
  script.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => script.once('exit', (code) => done(code)));
  /** Every process id the script reported (servers, PostgreSQL, Redis). */
  const reported = () => [...out.matchAll(/(?:pid|PostgreSQL pid|Redis pid) (\d+)/g)].map((m) => Number(m[1]));
  try {
    await waitFor(() => out.includes('[cluster] ready') || script.exitCode !== null, 60_000, 'the cluster to start');
    expect(script.exitCode, out).toBeNull();
    const pids = /PostgreSQL pid (\d+) .*Redis pid (\d+)/.exec(out);
    expect(pids, out).not.toBeNull();
    const [pgPid, redisPid] = [Number(pids![1]), Number(pids![2])];

    const first = `http://127.0.0.1:${port}`;
    const second = `http://127.0.0.1:${port + 1}`;
    const host = await User.guest(first);
    const created = await host.request('POST', '/api/games', { mode: 'Public', settings: { clue_mode: 'card' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const list = await new User(second).request('GET', '/api/games');
    expect(GameListSchema.parse(list.body).games.map((g) => g.id)).toContain(id);
    const guest = await User.guest(second);
    expect((await guest.request('PATCH', `/api/games/${id}/join`)).status).toBe(200);
    const room = await new Client(second, { headers: { cookie: guest.cookieHeader() } }).joinById(id);
    expect(Number(new URL(room.connection.url!).port)).toBe(port);
    await room.leave();

    script.kill('SIGINT');
    expect(await exited, out).toBe(0);
    expect(out).toContain('[cluster] stopped');
    expect(alive(pgPid) || alive(redisPid)).toBe(false);
    expect(reported().filter(alive)).toEqual([]);
    expect((await Promise.all([refused(port), refused(port + 1)])).every(Boolean)).toBe(true);
  } finally {
    if (script.exitCode === null) script.kill('SIGKILL');
    await exited;
    // after a failure: nothing the script started may outlive the test
    for (const pid of reported().filter(alive)) process.kill(pid, 'SIGKILL');
  }
});
