/**
 * The production build of the web client (what `npm run build` does), into a
 * folder of the caller's choice: benchmarks build into a temporary folder so
 * that dist/client, which the end-to-end tests and `npm start` serve, is never
 * half-written while something else reads it.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Runs `vite build` with the client's config into `outDir`; resolves with the wall time (ms). */
export function buildClient(outDir: string): Promise<number> {
  const started = performance.now();
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--config', join(ROOT, 'client', 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(performance.now() - started) : reject(new Error(`vite build failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}
