/**
 * Child process of the SSE benchmark (bench/sse.ts): holds thousands of real SSE
 * streams (one HTTP connection each, plain node:http, no keep-alive pool) open
 * against the server process, and reports when each of them received a marked
 * event. Started with {@link spawnChild}; requests:
 *
 * * `open` { url, count, batch, headers }: opens `count` streams, `batch` at a
 *   time (a burst of thousands of SYNs overflows the listen backlog), each
 *   counted once its first bytes (the stream's initial events) arrived; answers
 *   { opened, failed, errors, ms }.
 * * `expect` { marker }: from now on, each stream notes the wall-clock time at
 *   which `marker` reaches it; once every open stream has it, the child emits
 *   `received` { arrivals } (ms, wall clock, one per stream).
 * * `close`: ends every stream.
 */
import http from 'node:http';
import { emit, openFilesLimit, serveRpc, wallNow } from './proc.ts';

interface StreamState {
  req: http.ClientRequest;
  res: http.IncomingMessage | null;
  /** Last characters seen, so a marker split over two reads is still found. */
  tail: string;
  got: boolean;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const streams: StreamState[] = [];
let marker: string | null = null;
let arrivals: number[] = [];
let dropped = 0;

function onChunk(s: StreamState, chunk: string): void {
  if (marker === null || s.got) {
    s.tail = chunk.slice(-64);
    return;
  }
  const text = s.tail + chunk;
  if (text.includes(marker)) {
    s.got = true;
    arrivals.push(wallNow());
    if (arrivals.length === streams.length - dropped) emit('received', { arrivals, dropped });
  }
  s.tail = text.slice(-Math.max(64, marker.length));
}

function open(url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const s: StreamState = { req: null as unknown as http.ClientRequest, res: null, tail: '', got: false };
    let first = true;
    s.req = http.get(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      s.res = res;
      if (res.statusCode !== 200) {
        reject(new Error(`status ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (first) {
          first = false;
          streams.push(s);
          resolve();
        }
        onChunk(s, chunk);
      });
      res.on('close', () => {
        if (!first && !s.got && marker !== null) dropped++;
      });
    });
    s.req.on('error', reject);
  });
}

serveRpc({
  open: async ({ url, count, batch, headers }: { url: string; count: number; batch: number; headers?: Record<string, string> }) => {
    const started = performance.now();
    let failed = 0;
    const errors = new Set<string>();
    for (let i = 0; i < count; i += batch) {
      const n = Math.min(batch, count - i);
      const results = await Promise.allSettled(Array.from({ length: n }, () => open(url, headers ?? {})));
      for (const r of results) {
        if (r.status === 'rejected') {
          failed++;
          if (errors.size < 5) errors.add(String(r.reason));
        }
      }
    }
    return { opened: streams.length, failed, errors: [...errors], ms: performance.now() - started, openFiles: openFilesLimit() };
  },
  expect: ({ marker: m }: { marker: string }) => {
    marker = m;
    arrivals = [];
    dropped = 0;
    for (const s of streams) s.got = false;
  },
  close: () => {
    for (const s of streams) s.req.destroy();
    streams.length = 0;
  },
});
