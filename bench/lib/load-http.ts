import { Agent, request, type IncomingMessage } from 'node:http';

/**
 * HTTP for the load generator: guest users with their session cookie (as a
 * browser gets them from `GET /api/users/auth`), JSON calls on a keep-alive
 * pool, and a small SSE reader on a connection of its own per stream.
 */

/** Keep-alive pool for REST calls (SSE streams use a socket each, outside it). */
export const restAgent = new Agent({ keepAlive: true, maxSockets: 256 });

export interface HttpReply {
  status: number;
  body: string;
  setCookie: string[];
}

/**
 * One request; resolves with the whole body (never rejects on a status, only on
 * a network failure). A kept-alive socket that the server closed just as it was
 * reused fails before any answer: retried once on a fresh socket, as browsers do
 * (and as Node's docs advise, see `request.reusedSocket`).
 */
export async function httpCall(base: URL, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<HttpReply> {
  try {
    return await httpOnce(base, method, path, headers, body, restAgent);
  } catch (err) {
    // on a socket of its own: the pool may hold more sockets the server is closing
    if ((err as { reusedSocket?: boolean }).reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return httpOnce(base, method, path, headers, body, false);
    throw err;
  }
}

function httpOnce(base: URL, method: string, path: string, headers: Record<string, string>, body: unknown, agent: Agent | false): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, setCookie: res.headers['set-cookie'] ?? [] }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });
}

/** A guest user and his session cookie. */
export class HttpUser {
  readonly base: URL;
  cookie = '';
  id = '';
  name = '';

  private constructor(base: URL) {
    this.base = base;
  }

  /** A new guest (`GET /api/users/auth` without cookies). */
  static async guest(base: URL): Promise<HttpUser> {
    const u = new HttpUser(base);
    const r = await httpCall(base, 'GET', '/api/users/auth', {});
    if (r.status !== 200) throw new Error(`GET /api/users/auth answered ${r.status}: ${r.body.slice(0, 200)}`);
    const cookies = new Map<string, string>();
    for (const line of r.setCookie) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const id = cookies.get('id');
    const user = cookies.get('user');
    if (!id || !user) throw new Error('GET /api/users/auth set no session cookies');
    const me = JSON.parse(decodeURIComponent(user)) as { id: string; name: string };
    // both cookies, as a browser sends them back (the server rewrites a missing `user` cookie on every request)
    u.cookie = `id=${id}; user=${user}`;
    u.id = me.id;
    u.name = me.name;
    return u;
  }

  async call(method: string, path: string, body?: unknown): Promise<HttpReply> {
    const r = await httpCall(this.base, method, path, { cookie: this.cookie }, body);
    // a renewed session comes back in Set-Cookie, as a browser would keep it
    if (r.setCookie.length > 0) {
      const jar = new Map(this.cookie.split('; ').map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] as const));
      for (const line of r.setCookie) {
        const pair = line.split(';', 1)[0] ?? '';
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    return r;
  }
}

/** One SSE frame: its `id:` (NaN when none), event name and raw data line(s). */
export interface SseFrame {
  id: number;
  event: string;
  data: string;
}

/**
 * An SSE stream on a socket of its own. `onFrame` sees every frame as it is
 * parsed (comments and heartbeats skipped), in the same turn its bytes arrived.
 */
export class SseStream {
  private res: IncomingMessage | undefined;
  private readonly req;
  private buf = '';
  closed = false;
  status = 0;

  constructor(base: URL, path: string, cookie: string, onFrame: (f: SseFrame) => void, onEnd: (why: string) => void) {
    // once: the first of end / error / close reports; closing it ourselves reports nothing
    const end = (why: string) => {
      if (this.closed) return;
      this.closed = true;
      onEnd(why);
    };
    this.req = request({ host: base.hostname, port: base.port, path, agent: false, headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      this.res = res;
      this.status = res.statusCode ?? 0;
      if (this.status !== 200) {
        res.resume();
        end(`status ${this.status}`);
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        this.buf += chunk;
        let end: number;
        while ((end = this.buf.indexOf('\n\n')) >= 0) {
          const block = this.buf.slice(0, end);
          this.buf = this.buf.slice(end + 2);
          const f: SseFrame = { id: NaN, event: 'message', data: '' };
          let any = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            any = true;
            const i = line.indexOf(':');
            const key = i < 0 ? line : line.slice(0, i);
            const value = i < 0 ? '' : line.slice(line[i + 1] === ' ' ? i + 2 : i + 1);
            if (key === 'id') f.id = Number(value);
            else if (key === 'event') f.event = value;
            else if (key === 'data') f.data += value;
          }
          if (any) onFrame(f);
        }
      });
      res.on('end', () => end('ended'));
      res.on('error', () => end('error'));
      res.on('close', () => end('closed'));
    });
    this.req.on('error', (err) => end(`request failed: ${err.message}`));
    this.req.end();
  }

  close(): void {
    this.closed = true;
    this.res?.destroy();
    this.req.destroy();
  }
}
