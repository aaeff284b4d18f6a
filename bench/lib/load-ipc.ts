import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Request/reply over a child process's IPC channel, for the load benchmark's
 * children (the server under test and the load generator): the parent calls
 * `rpc.call(name, args)`, the child answers from `serve(handlers)`. A child may
 * also push notes (`notify`) that the parent prints as they come.
 */

type Request = { rpc: number; name: string; args: unknown };
type Reply = { rpc: number; ok: true; result: unknown } | { rpc: number; ok: false; error: string };
type Note = { note: string };

export interface ChildRpc {
  child: ChildProcess;
  call<T>(name: string, args?: unknown): Promise<T>;
  /** Resolves with the exit code once the child is gone. */
  exited: Promise<number | null>;
}

/**
 * Spawns `file` with this Node (type stripping and all) and `execArgv` (e.g.
 * `--cpu-prof`), stdout/stderr passed through unless `quiet`, and waits for its
 * `ready` message, whose payload is returned beside the handle.
 */
export async function spawnChild<T>(file: string, opts: { execArgv?: string[]; env?: Record<string, string>; onOutput?: (line: string) => void } = {}): Promise<{ rpc: ChildRpc; ready: T }> {
  const child = spawn(process.execPath, [...(opts.execArgv ?? []), file], {
    stdio: ['ignore', opts.onOutput ? 'pipe' : 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...opts.env },
  });
  if (opts.onOutput && child.stdout) {
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) opts.onOutput!(line);
    });
  }
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 1;
  let gone = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      gone = true;
      for (const w of waiting.values()) w.reject(new Error(`${file} exited (${code}) before answering`));
      waiting.clear();
      resolve(code);
    }),
  );
  let readyResolve!: (v: T) => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<T>((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  void exited.then((code) => readyReject(new Error(`${file} exited (${code}) before it was ready`)));
  child.on('message', (m: Reply | Note | { ready: T }) => {
    if ('ready' in m) readyResolve(m.ready);
    else if ('note' in m) console.log(`   ${m.note}`);
    else {
      const w = waiting.get(m.rpc);
      if (!w) return;
      waiting.delete(m.rpc);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(m.error));
    }
  });
  const rpc: ChildRpc = {
    child,
    exited,
    call<R>(name: string, args?: unknown): Promise<R> {
      if (gone) return Promise.reject(new Error(`${file} is gone`));
      const id = next++;
      return new Promise<R>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ rpc: id, name, args } satisfies Request);
      });
    },
  };
  return { rpc, ready: await ready };
}

/** The child's side: announces `ready` and answers calls with `handlers`. */
export function serve(ready: unknown, handlers: Record<string, (args: any) => unknown>): void {
  if (!process.send) throw new Error('this file runs as a child process of bench/load.ts');
  process.on('message', (m: Request) => {
    const handler = handlers[m.name];
    void (async () => {
      try {
        if (!handler) throw new Error(`unknown call ${m.name}`);
        const result = await handler(m.args);
        process.send!({ rpc: m.rpc, ok: true, result } satisfies Reply);
      } catch (err) {
        process.send!({ rpc: m.rpc, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies Reply);
      }
    })();
  });
  // the parent going away ends the child (a killed benchmark leaves no server behind)
  process.on('disconnect', () => process.exit(0));
  process.send({ ready });
}

/** A line for the parent to print now (progress of long phases). */
export function notify(note: string): void {
  process.send?.({ note } satisfies Note);
}
