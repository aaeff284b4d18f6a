/**
 * A steady-rate HTTP GET load generator, run as a child process (spawned with
 * `process.execPath` by {@link runHttpLoad}) so that making the load never shares
 * an event loop or a core's time slice with the server it measures.
 *
 * Open loop: requests leave on a fixed schedule whether or not earlier ones have
 * answered, so a server stall shows up as latency instead of slowing the load
 * down (closed-loop generators hide exactly the stalls that matter). Latency is
 * taken from just before the request is written to the end of the response body.
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';

export interface HttpLoadJob {
  /** e.g. http://127.0.0.1:1234 */
  base: string;
  /** Paths requested in turn (cycled). */
  paths: string[];
  /** Requests per second. */
  rate: number;
  /** Length of the measured window. */
  seconds: number;
  /** Unmeasured requests at the same rate first (JIT, caches, connection pool). */
  warmupSeconds: number;
}

export interface HttpLoadResult {
  /** Milliseconds per measured request that answered 200. */
  latencies: number[];
  /** Measured requests that failed or answered anything but 200. */
  errors: number;
  /** First few error descriptions. */
  errorSamples: string[];
  /** How late the generator itself sent its worst request (ms): a large value means the load was not steady. */
  maxSendLag: number;
  sent: number;
  /** CPU the generator itself used over the measured window (% of one core). */
  cpuPercent: number;
}

type ChildMessage = { type: 'measuring' } | { type: 'done'; result: HttpLoadResult };

/**
 * Runs `job` in a child process. `onMeasuring` is called when the measured window
 * opens (after the warm-up), so the caller can start its own server-side counters.
 */
export function runHttpLoad(job: HttpLoadJob, onMeasuring: () => void): Promise<HttpLoadResult> {
  const child = spawn(process.execPath, [import.meta.filename], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<HttpLoadResult>((resolve, reject) => {
    let result: HttpLoadResult | undefined;
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'measuring') onMeasuring();
      else result = m.result;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`the load generator exited with ${code} before reporting`))));
    child.send(job);
  });
}

/** The child's side: runs one job and reports. */
async function generate(job: HttpLoadJob): Promise<HttpLoadResult> {
  // keep-alive: a browser reuses its connection too, and connection setup is not what P6 measures
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const result: HttpLoadResult = { latencies: [], errors: 0, errorSamples: [], maxSendLag: 0, sent: 0, cpuPercent: 0 };
  let cpu = process.cpuUsage();
  let measuredFrom = 0;
  const interval = 1000 / job.rate;
  const warmup = Math.round(job.warmupSeconds * job.rate);
  const total = warmup + Math.round(job.seconds * job.rate);
  const pending: Promise<void>[] = [];
  const fail = (what: string) => {
    result.errors++;
    if (result.errorSamples.length < 5) result.errorSamples.push(what);
  };

  const send = (i: number) => {
    const measured = i >= warmup;
    if (i === warmup) {
      process.send!({ type: 'measuring' } satisfies ChildMessage);
      cpu = process.cpuUsage();
      measuredFrom = performance.now();
    }
    const path = job.paths[i % job.paths.length]!;
    const t0 = performance.now();
    pending.push(
      new Promise<void>((done) => {
        const req = get(`${job.base}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (measured) {
              if (res.statusCode === 200) result.latencies.push(performance.now() - t0);
              else fail(`${res.statusCode} for ${path}`);
            }
            done();
          });
          res.on('error', (e) => {
            if (measured) fail(`${e.message} for ${path}`);
            done();
          });
        });
        req.setTimeout(10_000, () => req.destroy(new Error('timed out after 10 s')));
        req.on('error', (e) => {
          if (measured) fail(`${e.message} for ${path}`);
          done();
        });
      }),
    );
  };

  const start = performance.now();
  await new Promise<void>((finished) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      // catch up if a timer fired late, so the rate stays what was asked for
      while (i < total && start + i * interval <= now) {
        const lag = now - (start + i * interval);
        if (i >= warmup && lag > result.maxSendLag) result.maxSendLag = lag;
        send(i++);
      }
      if (i >= total) return finished();
      setTimeout(tick, Math.max(0, start + i * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  const used = process.cpuUsage(cpu);
  result.cpuPercent = ((used.user + used.system) / 1000 / (performance.now() - measuredFrom)) * 100;
  result.sent = total - warmup;
  agent.destroy();
  return result;
}

if (import.meta.main) {
  process.once('message', (job: HttpLoadJob) => {
    void generate(job).then(
      (result) => process.send!({ type: 'done', result } satisfies ChildMessage, () => process.exit(0)),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
