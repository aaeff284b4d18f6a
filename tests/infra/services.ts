/**
 * PostgreSQL and Redis for the scale-out tests and the cluster example, from the
 * Debian packages (installed with apt-get when missing), each on a loopback port
 * of its own with its own data folder, and stopped by their process ids.
 *
 * Library: {@link startServices} (and {@link freshDatabase} for one database per
 * test server). Command line (`node tests/infra/services.ts …`):
 *
 *   start [--dir D]      start both (or find them running in D), print their URLs
 *   stop [--dir D]       stop the ones started in D
 *   run -- CMD ARGS…     start both in a new folder, run CMD with TEST_PG_URL and
 *                        TEST_REDIS_URL set, stop both, exit with CMD's status
 *
 * Ports: HITLINE_PG_PORT (55432) and HITLINE_REDIS_PORT (56379); when one is taken
 * by something else (another test run), a free port is used instead.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export interface Services {
  /** Superuser URL of the `postgres` database (trust auth on loopback). */
  pgUrl: string;
  redisUrl: string;
  /** Process ids of the PostgreSQL postmaster and of redis-server. */
  pids: { postgres: number; redis: number };
  dir: string;
  /** Stops both by their process ids (only what this call started) and, for a temporary folder, removes it. */
  stop(): Promise<void>;
}

export const DEFAULT_PG_PORT = 55432;
export const DEFAULT_REDIS_PORT = 56379;

const log = (msg: string) => process.stderr.write(`[services] ${msg}\n`);

// ---------------------------------------------------------------------------
// packages

function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Installs postgresql and redis-server with apt-get when they are missing; returns their binaries. */
export function ensurePackages(): { pgBin: string; redisServer: string } {
  let pgBin = findPgBin();
  let redisServer = which('redis-server');
  const missing = [...(pgBin ? [] : ['postgresql']), ...(redisServer ? [] : ['redis-server'])];
  if (missing.length > 0) {
    log(`installing ${missing.join(', ')} with apt-get…`);
    const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const run = (args: string[]) => execFileSync(sudo[0] ?? args[0]!, sudo.length ? args : args.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
    pgBin = findPgBin();
    redisServer = which('redis-server');
  }
  if (!pgBin || !redisServer) throw new Error('postgresql or redis-server is still missing after apt-get install');
  return { pgBin, redisServer };
}

// ---------------------------------------------------------------------------
// helpers

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => done(port));
    });
  });
}

async function pickPort(preferred: number): Promise<number> {
  return (await portFree(preferred)) ? preferred : freePort();
}

/** Sends SIGINT (PostgreSQL: fast shutdown) or SIGTERM and waits for the process to go; SIGKILL after 10 s. */
async function stopPid(pid: number, signal: NodeJS.Signals): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, signal);
  const deadline = Date.now() + 10_000;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 100));
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function redisPing(port: number): Promise<boolean> {
  return new Promise((done) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (ok: boolean) => {
      sock.destroy();
      done(ok);
    };
    sock.setTimeout(1000, () => finish(false));
    sock.once('error', () => finish(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

/** Sends one command to the Redis at `url` and returns its reply line (e.g. `+OK`). */
export async function redisCommand(url: string, ...args: string[]): Promise<string> {
  const u = new URL(url);
  const payload = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  return new Promise((done, fail) => {
    const sock = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
    let reply = '';
    sock.setTimeout(5000, () => {
      sock.destroy();
      fail(new Error(`redis ${args[0]}: no reply`));
    });
    sock.once('error', fail);
    sock.once('connect', () => sock.write(payload));
    sock.on('data', (d) => {
      reply += d.toString();
      const end = reply.indexOf('\r\n');
      if (end >= 0) {
        sock.destroy();
        done(reply.slice(0, end));
      }
    });
  });
}

/** Runs `args` as the `postgres` user when this process is root (initdb and postgres refuse to run as root). */
function asPostgres(bin: string, args: string[], opts: { logFile?: string } = {}): void {
  const root = process.getuid?.() === 0;
  const cmd = root ? 'runuser' : bin;
  const full = root ? ['-u', 'postgres', '--', bin, ...args] : args;
  const r = spawnSync(cmd, full, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    const logTail = opts.logFile && existsSync(opts.logFile) ? readFileSync(opts.logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    throw new Error(`${bin} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr}${r.stdout}\n${logTail}`);
  }
}

// ---------------------------------------------------------------------------
// PostgreSQL

interface Started {
  pid: number;
  port: number;
  /** False when it was running already (found in the folder): then stop() leaves it alone. */
  ours: boolean;
}

async function startPostgres(pgBin: string, dir: string, preferredPort: number): Promise<Started> {
  const pgDir = join(dir, 'pg');
  const data = join(pgDir, 'data');
  const logFile = join(pgDir, 'postgres.log');
  const running = readPid(join(data, 'postmaster.pid'));
  if (running && alive(running)) {
    const port = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return { pid: running, port, ours: false };
  }
  mkdirSync(pgDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // initdb and postgres run as `postgres`: every folder above the data folder must let that user through
    if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]).status !== 0) {
      throw new Error(`the postgres user cannot reach ${dir} (a parent folder is closed to other users): use a folder it can reach, e.g. under /tmp`);
    }
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(pgDir, uid, gid);
  }
  if (!existsSync(join(data, 'PG_VERSION'))) {
    // C.UTF-8: UTF-8 text, code point order, Unicode case mapping for lower()
    asPostgres(join(pgBin, 'initdb'), ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
  }
  const port = await pickPort(preferredPort);
  // throwaway test data: no fsync; TCP on loopback only, no Unix socket
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=64MB',
  ].join(' ');
  asPostgres(join(pgBin, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', data, '-l', logFile, '-o', options], { logFile });
  const pid = readPid(join(data, 'postmaster.pid'));
  if (!pid) throw new Error(`PostgreSQL started but ${data}/postmaster.pid has no pid`);
  return { pid, port, ours: true };
}

// ---------------------------------------------------------------------------
// Redis

async function startRedis(redisServer: string, dir: string, preferredPort: number): Promise<Started> {
  const redisDir = join(dir, 'redis');
  const pidFile = join(redisDir, 'redis.pid');
  const portFile = join(redisDir, 'port');
  const running = readPid(pidFile);
  if (running && alive(running)) return { pid: running, port: Number(readFileSync(portFile, 'utf8')), ours: false };
  mkdirSync(redisDir, { recursive: true });
  const port = await pickPort(preferredPort);
  writeFileSync(portFile, String(port));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes', '--pidfile', pidFile, '--logfile', join(redisDir, 'redis.log'), '--dir', redisDir];
  const r = spawnSync(redisServer, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`redis-server failed to start: ${r.stderr}${r.stdout}`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pid = readPid(pidFile);
    if (pid && (await redisPing(port))) return { pid, port, ours: true };
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}; see ${redisDir}/redis.log`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// ---------------------------------------------------------------------------

export interface StartOptions {
  /** State folder; default a new temporary folder, removed again by stop(). */
  dir?: string;
  pgPort?: number;
  redisPort?: number;
}

/** Starts (or finds running, in `dir`) PostgreSQL and Redis. */
export async function startServices(opts: StartOptions = {}): Promise<Services> {
  const t0 = Date.now();
  const { pgBin, redisServer } = ensurePackages();
  const temporary = opts.dir === undefined;
  const dir = opts.dir ? resolve(opts.dir) : mkdtempSync(join(tmpdir(), 'hitline-services-'));
  mkdirSync(dir, { recursive: true });
  // the postgres user must reach its data folder inside
  if (temporary) chmodSync(dir, 0o755);
  const pgPort = opts.pgPort ?? Number(process.env.HITLINE_PG_PORT ?? DEFAULT_PG_PORT);
  const redisPort = opts.redisPort ?? Number(process.env.HITLINE_REDIS_PORT ?? DEFAULT_REDIS_PORT);
  const postgres = await startPostgres(pgBin, dir, pgPort);
  let redis: Started;
  try {
    redis = await startRedis(redisServer, dir, redisPort);
  } catch (err) {
    if (postgres.ours) await stopPid(postgres.pid, 'SIGINT');
    throw err;
  }
  log(`PostgreSQL pid ${postgres.pid} on 127.0.0.1:${postgres.port}, Redis pid ${redis.pid} on 127.0.0.1:${redis.port} (${Date.now() - t0} ms)`);
  let stopped: Promise<void> | undefined;
  return {
    pgUrl: `postgres://postgres@127.0.0.1:${postgres.port}/postgres`,
    redisUrl: `redis://127.0.0.1:${redis.port}`,
    pids: { postgres: postgres.pid, redis: redis.pid },
    dir,
    stop: () =>
      (stopped ??= (async () => {
        await Promise.all([postgres.ours ? stopPid(postgres.pid, 'SIGINT') : undefined, redis.ours ? stopPid(redis.pid, 'SIGTERM') : undefined]);
        if (temporary) rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

/** Stops what `start` left running in `dir`, by the process ids in its pid files. */
export async function stopServices(dir: string): Promise<void> {
  const pgPid = readPid(join(dir, 'pg', 'data', 'postmaster.pid'));
  const redisPid = readPid(join(dir, 'redis', 'redis.pid'));
  await Promise.all([pgPid ? stopPid(pgPid, 'SIGINT') : undefined, redisPid ? stopPid(redisPid, 'SIGTERM') : undefined]);
  log(`stopped ${[pgPid && `PostgreSQL (pid ${pgPid})`, redisPid && `Redis (pid ${redisPid})`].filter(Boolean).join(' and ') || 'nothing'}`);
}

/**
 * A new, empty database on the server of `adminUrl` (named `prefix_<random>`);
 * drop() removes it again, closing whatever is still connected to it.
 */
export async function freshDatabase(adminUrl: string, prefix = 'hitline_test'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

// ---------------------------------------------------------------------------
// command line

const DEFAULT_DIR = join(tmpdir(), 'hitline-services');

function dirArg(args: string[]): string {
  const i = args.indexOf('--dir');
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]!) : DEFAULT_DIR;
}

async function cli(args: string[]): Promise<number> {
  const command = args[0];
  if (command === 'start') {
    const s = await startServices({ dir: dirArg(args) });
    console.log(`TEST_PG_URL=${s.pgUrl}\nTEST_REDIS_URL=${s.redisUrl}\nPG_PID=${s.pids.postgres}\nREDIS_PID=${s.pids.redis}`);
    return 0;
  }
  if (command === 'stop') {
    await stopServices(dirArg(args));
    return 0;
  }
  if (command === 'run') {
    const sep = args.indexOf('--');
    const cmd = args.slice(sep >= 0 ? sep + 1 : 1);
    if (cmd.length === 0) throw new Error('usage: services.ts run -- CMD ARGS…');
    const s = await startServices();
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: 'inherit', env: { ...process.env, TEST_PG_URL: s.pgUrl, TEST_REDIS_URL: s.redisUrl } });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const code = await new Promise<number>((done) => child.on('exit', (c, sig) => done(c ?? (sig ? 1 : 0))));
    await s.stop();
    return code;
  }
  console.error('usage: node tests/infra/services.ts start|stop [--dir D] | run -- CMD ARGS…');
  return 2;
}

if (import.meta.main) {
  cli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
