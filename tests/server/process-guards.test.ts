/**
 * The server process keeps PM2's agent off (it would profile, time every request
 * and walk every socket each second) and survives a rejected promise nobody
 * handled: it logs it and goes on serving. A real server process on its own SQLite
 * file; the rejection comes from a module preloaded into it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, waitFor, writeCatalogue } from './harness.ts';

const root = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'hitline-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the server process', () => {
  it('runs without PM2\'s agent and goes on after an unhandled promise rejection', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', join(root, 'tests/server/helpers/forgotten-promise.ts'), 'server/index.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'hitline.db'),
        DEMO_CATALOGUE: writeCatalogue(dir),
        CLIENT_DIR: join(dir, 'no-client'),
        AUDIO_DIR: join(dir, 'audio'),
        AUDIO_WORKER: 'false',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    try {
      await waitFor(() => out.includes('is listening'), 20_000, 'the server listening');
      child.kill('SIGUSR2');
      await waitFor(() => out.includes('GUARDS '), 5000, 'the report');
      const report = JSON.parse(/GUARDS (.*)/.exec(out)![1]!) as Record<string, unknown>;
      expect(report).toEqual({ uncaughtExceptionListeners: 0, unhandledRejectionListeners: 1, pm2AgentStarted: false });
      expect(out).toContain('a promise nobody awaited');
      expect(out).toContain('nobody handled it; the server goes on');
      // still serving
      const r = await fetch(`http://127.0.0.1:${port}/api/games`);
      expect(r.status).toBe(200);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
