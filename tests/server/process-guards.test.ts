/**
 * The server process keeps PM2's agent off (it would profile, time every request
 * and walk every socket each second) and survives a rejected promise nobody
 * handled: it logs it and goes on serving; a start on a port already in use ends
 * it with a message naming the port. A real server process on its own SQLite
 * file; the rejection comes from a module preloaded into it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { freePort, spawnServer, User, waitFor, writeCatalogue } from './harness.ts';

const root = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'hitline-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the server process', () => {
  it('runs without PM2\'s agent and goes on after an unhandled promise rejection', async () => {
    const port = await freePort();
    const server = await spawnServer(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'hitline.db'),
        DEMO_CATALOGUE: writeCatalogue(dir),
        CLIENT_DIR: join(dir, 'no-client'),
        AUDIO_DIR: join(dir, 'audio'),
        AUDIO_WORKER: 'false',
        LOG_LEVEL: 'info',
      },
      ['--import', join(root, 'tests/server/helpers/forgotten-promise.ts')],
    );
    try {
      server.child.kill('SIGUSR2');
      await waitFor(() => server.output().includes('GUARDS '), 5000, 'the report');
      const report = JSON.parse(/GUARDS (.*)/.exec(server.output())![1]!) as Record<string, unknown>;
      expect(report).toEqual({ uncaughtExceptionListeners: 0, unhandledRejectionListeners: 1, pm2AgentStarted: false });
      expect(server.output()).toContain('a promise nobody awaited');
      expect(server.output()).toContain('nobody handled it; the server goes on');
      // still serving
      const r = await fetch(`http://127.0.0.1:${port}/api/games`);
      expect(r.status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('logs a socket\'s oversized frames as one warning line, not a stack trace per frame, and goes on', async () => {
    const port = await freePort();
    const server = await spawnServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'frames.db'),
      DEMO_CATALOGUE: writeCatalogue(dir),
      CLIENT_DIR: join(dir, 'no-client'),
      AUDIO_DIR: join(dir, 'audio'),
      AUDIO_WORKER: 'false',
      LOG_LEVEL: 'info',
      RATE_LIMIT_FACTOR: '0',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const alice = await User.guest(base);
      const created = await alice.request('POST', '/api/games', { mode: 'Public' });
      expect(created.status).toBe(201);
      for (let i = 0; i < 3; i++) {
        const room = await new Client(base, { headers: { cookie: alice.cookieHeader() } }).joinById(created.body.id as string);
        const closed = new Promise<number>((resolve) => room.onLeave((code) => resolve(code)));
        room.send('guess', { slot: 1, player: 'x'.repeat(64 * 1024) });
        // 1009: message too big
        expect(await closed).toBe(1009);
      }
      await waitFor(() => server.output().includes('a socket sent a broken frame'), 5000, 'the warning');
      const lines = server.output().split('\n').filter((l) => l.includes('Max payload size exceeded'));
      // one line of JSON for three frames within the quiet time, and no stack
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, source: 'colyseus', msg: 'a socket sent a broken frame and was closed: Max payload size exceeded' });
      expect(server.output()).not.toContain('RangeError');
      expect((await fetch(`${base}/api/games`)).status).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('exits non-zero, naming the port, when the port is already in use (instead of hanging)', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((ok) => holder.listen(port, '127.0.0.1', ok));
    try {
      // a start that hung would reject after 20 s with "did not start"
      const start = spawnServer({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'busy.db'),
        DEMO_CATALOGUE: writeCatalogue(dir),
        CLIENT_DIR: join(dir, 'no-client'),
        AUDIO_DIR: join(dir, 'audio'),
        AUDIO_WORKER: 'false',
        LOG_LEVEL: 'info',
      });
      await expect(start).rejects.toThrow(new RegExp(`exited with code 1: [^]*port ${port}\\b.*already in use`));
    } finally {
      await new Promise((ok) => holder.close(ok));
    }
  });
});
