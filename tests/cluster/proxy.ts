/**
 * A minimal reverse proxy for the cluster tests: "several processes behind one
 * address". `/<name>/…` goes to the process called `name` with that prefix
 * removed (what each process announces as its PUBLIC_ADDRESS, for its game
 * WebSockets); every other request goes to the processes in turn. HTTP requests,
 * streamed responses (SSE) and WebSocket upgrades are passed through unchanged,
 * headers included, unless {@link ProxyOptions} say otherwise.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface Proxy {
  port: number;
  /** Requests forwarded per target name (prefixed or round robin). */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/** How the proxy rewrites the headers it passes on (HTTP requests and WebSocket upgrades alike). */
export interface ProxyOptions {
  /**
   * `upstream`: Host becomes the target's own address (`127.0.0.1:<port>`), as
   * nginx's `proxy_pass` does unless told `proxy_set_header Host $host`; `keep`
   * (default): the client's Host is passed on.
   */
  host?: 'keep' | 'upstream';
  /**
   * Sets X-Forwarded-Host to the Host the client sent, replacing any the client
   * sent itself (nginx: `proxy_set_header X-Forwarded-Host $host`).
   */
  forwardedHost?: boolean;
}

/** The headers to send to the target on `port`, as `options` say. */
function rewrite(headers: IncomingHttpHeaders, port: number, options: ProxyOptions): IncomingHttpHeaders {
  const out = { ...headers };
  if (options.forwardedHost) out['x-forwarded-host'] = headers.host ?? '';
  if (options.host === 'upstream') out.host = `127.0.0.1:${port}`;
  return out;
}

export async function startProxy(targets: Record<string, () => number>, options: ProxyOptions = {}): Promise<Proxy> {
  const names = Object.keys(targets);
  const counts = new Map<string, number>(names.map((n) => [n, 0]));
  let next = 0;
  const route = (url: string): { name: string; port: number; path: string } => {
    const m = /^\/([^/?]+)(\/.*|\?.*)?$/.exec(url);
    const prefixed = m && names.includes(m[1]!) ? m[1]! : null;
    const name = prefixed ?? names[next++ % names.length]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const path = prefixed ? (m![2] ?? '/').replace(/^\?/, '/?') : url;
    return { name, port: targets[name]!(), path };
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const to = route(req.url ?? '/');
    const up = request({ host: '127.0.0.1', port: to.port, method: req.method, path: to.path, headers: rewrite(req.headers, to.port, options) }, (r: IncomingMessage) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    const to = route(req.url ?? '/');
    const up = connect(to.port, '127.0.0.1', () => {
      const lines = [`${req.method} ${to.path} HTTP/1.1`];
      const rewritten = options.host === 'upstream' || options.forwardedHost;
      if (rewritten) {
        for (const [name, value] of Object.entries(rewrite(req.headers, to.port, options))) {
          for (const v of [value ?? ''].flat()) lines.push(`${name}: ${v}`);
        }
      } else {
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    const end = () => {
      socket.destroy();
      up.destroy();
    };
    up.on('error', end);
    socket.on('error', end);
    socket.on('close', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    counts,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}
