/**
 * Child processes of the benchmarks (the server, the client generators) and a
 * small request/answer protocol over their IPC channel, so a benchmark can ask
 * its server process for its memory after a GC, or start and stop its meters,
 * without sharing an event loop with it.
 *
 * Parent side: {@link spawnChild}. Child side: {@link serveRpc} and {@link emit}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Parent → child: one request. */
interface RpcRequest {
  rpc: number;
  type: string;
  payload?: unknown;
}
/** Child → parent: the answer to request `rpc`, or an event (`event` set, no `rpc`). */
type RpcAnswer = { rpc: number; result?: unknown; error?: string };
type ChildMessage = RpcAnswer | { event: string; [k: string]: unknown };

export interface ChildHandle {
  child: ChildProcess;
  /** Sends one request and resolves with the child's answer; rejects when the child answers an error or exits first. */
  call<T = unknown>(type: string, payload?: unknown): Promise<T>;
  /** Resolves with the next event `event` the child emits (its whole message). */
  next<T = Record<string, unknown>>(event: string, timeoutMs?: number): Promise<T>;
  /** Ends the child (SIGTERM, then SIGKILL after 5 s) and resolves when it has exited. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  args?: string[];
  /** Node options (e.g. `--expose-gc`, `--cpu-prof`). */
  execArgv?: string[];
  env?: Record<string, string | undefined>;
  /**
   * Open files (sockets) the child needs: its soft `ulimit -n` is raised to this
   * (or to the hard limit when that is lower) before Node starts. Node has no call
   * for it, so the child is started through `sh -c 'ulimit -n …; exec node …'`.
   */
  openFiles?: number;
}

/** Starts `script` under this Node (Node 24) with an IPC channel. */
export function spawnChild(script: string, opts: SpawnOptions = {}): ChildHandle {
  const node = [process.execPath, ...(opts.execArgv ?? []), script, ...(opts.args ?? [])];
  const child = opts.openFiles
    ? spawn('/bin/sh', ['-c', `ulimit -n ${Math.ceil(opts.openFiles)} 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"`, 'sh', ...node], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: opts.env ?? process.env,
      })
    : spawn(node[0]!, node.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: opts.env ?? process.env });

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const waiters = new Map<string, ((m: Record<string, unknown>) => void)[]>();
  let exitError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitError = new Error(`${script} exited (${signal ?? code})`);
      for (const p of pending.values()) p.reject(exitError);
      pending.clear();
      resolve();
    });
  });
  child.on('error', (err) => {
    exitError = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  });
  child.on('message', (m: ChildMessage) => {
    if ('rpc' in m) {
      const a = m as RpcAnswer;
      const p = pending.get(a.rpc);
      pending.delete(a.rpc);
      if (!p) return;
      if (a.error !== undefined) p.reject(new Error(a.error));
      else p.resolve(a.result);
      return;
    }
    const list = waiters.get(m.event as string);
    if (list?.length) list.shift()!(m);
  });

  return {
    child,
    call<T>(type: string, payload?: unknown): Promise<T> {
      if (exitError) return Promise.reject(exitError);
      const rpc = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(rpc, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ rpc, type, payload } satisfies RpcRequest);
      });
    },
    next<T>(event: string, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script}: no "${event}" within ${timeoutMs / 1000} s`)), timeoutMs);
        const done = (m: Record<string, unknown>) => {
          clearTimeout(timer);
          resolve(m as T);
        };
        void exited.then(() => {
          clearTimeout(timer);
          reject(exitError ?? new Error(`${script} exited`));
        });
        const list = waiters.get(event) ?? [];
        list.push(done);
        waiters.set(event, list);
      });
    },
    async stop(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(forced);
    },
  };
}

/** Child side: answers the parent's requests with `handlers[type](payload)`. */
export function serveRpc(handlers: Record<string, (payload: any) => unknown>): void {
  process.on('message', (m: RpcRequest) => {
    if (typeof m?.rpc !== 'number') return;
    const handler = handlers[m.type];
    void (async () => {
      try {
        if (!handler) throw new Error(`unknown request ${m.type}`);
        const result = await handler(m.payload);
        process.send?.({ rpc: m.rpc, result });
      } catch (err) {
        process.send?.({ rpc: m.rpc, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      }
    })();
  });
  // the parent went away (or stopped us): nothing left to do
  process.on('disconnect', () => process.exit(0));
}

/** Child side: sends an event to the parent. */
export function emit(event: string, fields: Record<string, unknown> = {}): void {
  process.send?.({ ...fields, event });
}

/** This process's soft limit of open files (from /proc/self/limits; Infinity where unknown or unlimited). */
export function openFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
  } catch {
    return Infinity;
  }
}

/** Wall-clock time in ms with sub-millisecond precision, comparable between processes of one machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** Forces full garbage collections (the process must run with `--expose-gc`) and returns its memory after them. */
export async function memoryAfterGc(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: (opts?: unknown) => void }).gc;
  if (!gc) throw new Error('memoryAfterGc needs node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    // let finalizers and weak callbacks run between collections
    await new Promise((r) => setTimeout(r, 30));
  }
  return process.memoryUsage();
}
