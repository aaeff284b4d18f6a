/**
 * `npm run cluster`: Hitline as several server processes on one machine, sharing
 * one PostgreSQL database and one Redis, the way a scaled-out deployment runs
 * (docs/operations.md, "Several processes and machines"). Procfile-style: one command starts
 * everything, prefixes each process's output with its name, and Ctrl-C stops the
 * servers (SIGTERM), then the services it started.
 *
 *   node scripts/cluster.ts [--processes 2] [--port 8001] [--host-name localhost]
 *                           [--state data/cluster] [--no-build]
 *
 * Process i listens on port + i − 1 and announces `<host-name>:<port>` as its
 * PUBLIC_ADDRESS (use the host name the browser uses: cookies go with it). With
 * DATABASE_URL (postgres://…) and REDIS_URL set, those are used; otherwise
 * PostgreSQL and Redis are started from the Debian packages (installed with
 * apt-get when missing) with their data in `<state>/services`, and the database
 * `hitline` is created on first use. The first process runs the audio worker.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startServices, type Services } from '../tests/infra/services.ts';
import { SERVER_NODE_OPTIONS } from '../server/node-options.ts';

const root = join(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    processes: { type: 'string', default: '2' },
    port: { type: 'string', default: '8001' },
    'host-name': { type: 'string', default: 'localhost' },
    state: { type: 'string', default: join(root, 'data', 'cluster') },
    'no-build': { type: 'boolean', default: false },
  },
});
const count = Number(args.processes);
const firstPort = Number(args.port);
if (!Number.isInteger(count) || count < 1 || count > 32) throw new Error('--processes: 1 to 32');
if (!Number.isInteger(firstPort) || firstPort < 1 || firstPort + count - 1 > 65535) throw new Error('--port: a port number');

const say = (msg: string) => console.log(`[cluster] ${msg}`);

/** Builds the web client when it is missing or older than its sources (as `npm start` does). */
function buildClient(): void {
  const built = join(root, 'dist', 'client', 'index.html');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);
  if (existsSync(built) && newest(join(root, 'client')) <= statSync(built).mtimeMs) return;
  say('building the web client…');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The database `name` on the server of `adminUrl`, created when missing; returns its URL. */
async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
      say(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Copies a child's output line by line with its name in front. */
function prefix(stream: NodeJS.ReadableStream, name: string, out: NodeJS.WriteStream): void {
  let rest = '';
  stream.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on('end', () => rest && out.write(`[${name}] ${rest}\n`));
}

async function answering(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server on port ${port} exited during start-up`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/games`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server on port ${port} did not start within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let services: Services | undefined;
const children: { name: string; child: ChildProcess; exited: Promise<number | null> }[] = [];
let stopping: Promise<never> | undefined;

function stop(code: number): Promise<never> {
  return (stopping ??= (async () => {
    say('stopping…');
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
    const codes = await Promise.all(children.map((c) => c.exited));
    await services?.stop();
    const failed = codes.some((c) => c !== 0);
    say(failed ? `stopped (exit codes ${codes.join(', ')})` : 'stopped');
    process.exit(code || (failed ? 1 : 0));
  })());
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  if (!databaseUrl?.startsWith('postgres') || !redisUrl) {
    services = await startServices({ dir: resolve(args.state, 'services') });
    databaseUrl = await ensureDatabase(services.pgUrl, 'hitline');
    redisUrl = services.redisUrl;
  }
  if (!args['no-build']) buildClient();
  for (let i = 0; i < count; i++) {
    const port = firstPort + i;
    const name = `hitline-${i + 1}`;
    const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, join(root, 'server', 'index.ts')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_ADDRESS: `${args['host-name']}:${port}`,
        PROCESS_NAME: name,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        AUDIO_WORKER: i === 0 ? 'true' : 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prefix(child.stdout!, name, process.stdout);
    prefix(child.stderr!, name, process.stderr);
    const exited = new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    children.push({ name, child, exited });
    say(`${name} pid ${child.pid} on port ${port}`);
    void exited.then((c) => {
      if (!stopping) {
        say(`${name} exited (${c}); stopping the others`);
        void stop(1);
      }
    });
  }
  await Promise.all(children.map((c, i) => answering(firstPort + i, c.child)));
  say(`ready: ${children.map((_, i) => `http://${args['host-name']}:${firstPort + i}`).join(' ')} (Ctrl-C stops)`);
} catch (err) {
  console.error(err);
  await stop(1);
}
