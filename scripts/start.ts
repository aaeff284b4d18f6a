/**
 * `npm start`: builds the web client when it is missing or older than its
 * sources, then runs the server in this process (so signals reach it directly).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const built = join(root, 'dist', 'client', 'index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(built) || newestMtime(join(root, 'client')) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web client…');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import('../server/index.ts').then((m) => m.main());
