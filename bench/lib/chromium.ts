/**
 * Debian's Chromium for the browser benchmarks (Lighthouse, audio playback):
 * installed by tests/e2e/ensure-chromium.ts when missing, always started with a
 * fresh profile and the flags this machine needs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_PATH, ensureChromium } from '../../tests/e2e/ensure-chromium.ts';

export { CHROMIUM_PATH };

/** What every benchmark's Chromium runs with (headless on a box without GPU, sandbox or network). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Makes sure Chromium is there; returns its version line. */
export function chromiumVersion(): string {
  return ensureChromium();
}

export interface DebuggableChromium {
  /** The DevTools port (for Lighthouse). */
  port: number;
  version: string;
  /** Ends the browser (its whole process group) and removes the profile. */
  stop(): Promise<void>;
}

/** Starts Chromium with a fresh profile and a DevTools port; resolves once the port is open. */
export async function launchDebuggableChromium(extraFlags: string[] = []): Promise<DebuggableChromium> {
  const version = chromiumVersion();
  const profile = mkdtempSync(join(tmpdir(), 'hitline-bench-chromium-'));
  // its own process group, so that stop() ends the renderers and helpers with it
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', ...extraFlags, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const forced = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, 5000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port within 30 s:\n${err.slice(-2000)}`)), 30_000);
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        err = (err + chunk).slice(-8000);
        const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (${code}) before opening its DevTools port:\n${err.slice(-2000)}`));
      });
    });
    // keep reading stderr, or a chatty browser blocks on a full pipe
    child.stderr.resume();
    return { port, version, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
