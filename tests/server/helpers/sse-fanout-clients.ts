import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Child process of the SSE fan-out test: holds many SSE streams open, so the
 * test process's event loop measures the server's work and not the clients'.
 *
 * IPC protocol: the parent sends `{ url, count, event }`; the child answers
 * `{ type: 'ready', opened }` once every stream got its first event, then
 * `{ type: 'received', count, lastAt }` once every stream got `event`
 * (`lastAt`: wall-clock ms with sub-ms precision of the last arrival), and exits
 * when the parent disconnects.
 */

interface Start {
  url: string;
  count: number;
  event: string;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const send = (m: object): void => {
  process.send?.(m);
};
const now = (): number => performance.timeOrigin + performance.now();

function open(url: string, event: string, onFirst: () => void, onEvent: () => void): void {
  const marker = `event: ${event}\n`;
  http
    .get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      let first = true;
      let got = false;
      // Keep only a tail: the marker may straddle two chunks, the snapshot must not pile up.
      let tail = '';
      res.on('data', (chunk: string) => {
        if (first) {
          first = false;
          onFirst();
        }
        if (got) return;
        tail = (tail + chunk).slice(-(chunk.length + marker.length));
        if (tail.includes(marker)) {
          got = true;
          onEvent();
        }
      });
    })
    .on('error', (err) => send({ type: 'error', message: String(err) }));
}

process.on('message', async (m: Start) => {
  let opened = 0;
  let received = 0;
  const onEvent = (): void => {
    if (++received === m.count) send({ type: 'received', count: received, lastAt: now() });
  };
  // Connect in batches: a burst of thousands of SYNs would overflow the listen backlog.
  const batch = 100;
  for (let i = 0; i < m.count; i += batch) {
    const n = Math.min(batch, m.count - i);
    await new Promise<void>((resolve) => {
      let done = 0;
      for (let j = 0; j < n; j++) {
        open(m.url, m.event, () => {
          opened++;
          if (++done === n) resolve();
        }, onEvent);
      }
    });
  }
  send({ type: 'ready', opened });
});

process.on('disconnect', () => process.exit(0));
