// Import by address (issue 27 §3): the catalogue fetched from another server's
// export (or any http(s) address) goes through the one importer, under a size
// limit, a time limit, http(s) only, a few redirects each checked again, and
// never to the server's own networks unless the operator allows them. Real HTTP
// servers on this machine's loopback stand in for the other server; the
// operator's permission (IMPORT_ALLOW_PRIVATE) names the exact addresses a test
// may reach, so every refusal below is the code's own decision.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AddressImportReportSchema, AddressImportRejectedSchema } from '../../server/http/catalogue-io.ts';
import { formatHitsYaml, type ExportHit, type ExportPack } from '../../server/services/catalogue-yaml/export.ts';
import { addressRefusal, embeddedIpv4, fetchCatalogue, MAX_REDIRECTS, REMOTE_CODES, RemoteFetchError, type PrivateAllowance, type Resolver } from '../../server/services/remote-catalogue.ts';
import { ADDRESS_IMPORT_ERROR_CODES } from '../../shared/protocol/catalogue.ts';
import { Permission } from '../../server/services/users.ts';
import { loadConfig } from '../../server/config.ts';
import { bootServer, User, type TestServer } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LOOPBACK_ONLY: PrivateAllowance = { all: false, ranges: ['127.0.0.1'] };
const NOTHING: PrivateAllowance = { all: false, ranges: [] };

const u = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const P = (n: number) => u(n, 'cccccccc');
const H = (n: number) => u(n, 'dddddddd');
const TS = '2025-07-24T09:31:10Z';
const hit = (n: number, over: Partial<ExportHit> = {}): ExportHit => ({
  id: H(n),
  artist: `Remote Artist ${n}`,
  title: `Remote Song ${n}`,
  belongs_to: '',
  year: 1960 + n,
  packs: [P(1)],
  playback_offset: n,
  yt_id: null,
  last_modified: TS,
  ...over,
});
const pack = (n: number, name = `Remote Pack ${n}`): ExportPack => ({ id: P(n), name, last_modified: TS });
const CATALOGUE = formatHitsYaml([hit(1), hit(2), hit(3)], [pack(1)]);

/** A self-signed certificate for catalogue.test (test only: no authority vouches for it). */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgpVyDQVEEEisAHThM
Ly9ZgCtb+cU8RpJuELcYvvA1uDihRANCAATHyn9ujW50df3CfyMPDYSVuE2DWCFz
CZr7CBwIP1Gwwko3RWr4rW3xepE0R8rzC/flQ0X7VV0FlsiSo3sbCN7U
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBpTCCAUqgAwIBAgIUANDtDvazYqVRaT/I4IuVNHSL/ykwCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOY2F0YWxvZ3VlLnRlc3QwIBcNMjYxMTI4MTkxMjMzWhgPMjEy
NjExMDQxOTEyMzNaMBkxFzAVBgNVBAMMDmNhdGFsb2d1ZS50ZXN0MFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEx8p/bo1udHX9wn8jDw2ElbhNg1ghcwma+wgcCD9R
sMJKN0Vq+K1t8XqRNEfK8wv35UNF+1VdBZbIkqN7Gwje1KNuMGwwHQYDVR0OBBYE
FBwyxDYAtvICCfTMKJx1ux/fr1iEMB8GA1UdIwQYMBaAFBwyxDYAtvICCfTMKJx1
ux/fr1iEMA8GA1UdEwEB/wQFMAMBAf8wGQYDVR0RBBIwEIIOY2F0YWxvZ3VlLnRl
c3QwCgYIKoZIzj0EAwIDSQAwRgIhANHE++oTCurDmSeNWvXeTswnuV5CA79vxgVk
Ts+ebnNtAiEA7dMqpNc2RmvFlcwLZO4rL/g4EN+sVg+yy4fQX7vFgm8=
-----END CERTIFICATE-----`;

/** A plain HTTP server on this machine, counting the requests it got. */
interface Local {
  base: string;
  port: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}
const locals: Local[] = [];
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1'): Promise<Local> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, host, ok));
  const port = (server.address() as AddressInfo).port;
  const local: Local = {
    base: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  locals.push(local);
  return local;
}
const yaml = (body: string, type = 'application/x-yaml; charset=utf-8') => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
const redirect = (to: (req: IncomingMessage) => string, status = 302) => (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { location: to(req) });
  res.end();
};

afterAll(async () => {
  for (const l of locals) await l.close();
});

/** The error a fetch ends with (the test fails if it succeeds). */
async function refusal(address: string, options: Partial<Parameters<typeof fetchCatalogue>[1]> = {}): Promise<RemoteFetchError> {
  try {
    await fetchCatalogue(address, { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: NOTHING, ...options });
  } catch (e) {
    if (e instanceof RemoteFetchError) return e;
    throw e;
  }
  throw new Error(`${address} was fetched`);
}

// ---------------------------------------------------------------------------

describe('which addresses the import may reach', () => {
  const own = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private network'],
    ['172.16.0.1', 'private network'],
    ['172.31.255.254', 'private network'],
    ['192.168.1.20', 'private network'],
    ['fc00::1', 'private network'],
    ['fd12:3456::1', 'private network'],
    ['100.64.0.1', 'shared address space'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private network'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'loopback'],
  ] as const;
  const never = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::ffff:0.0.0.0', 'unspecified'],
  ] as const;
  const outside = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.253.0.1', '2606:4700:4700::1111', '2a00:1450::1', '::ffff:93.184.216.34'];

  it('refuses loopback, private, shared and link-local addresses, in every IPv6 form of them, saying which kind', () => {
    for (const [address, kind] of own) {
      const why = addressRefusal(address);
      expect(why, address).toContain(kind);
      expect(why, address).toContain('IMPORT_ALLOW_PRIVATE');
    }
    expect(addressRefusal('::ffff:127.0.0.1')).toBe(
      '::ffff:127.0.0.1 (an IPv6 form of 127.0.0.1) is a loopback address (this server itself): this server imports from its own networks only when its operator allows it (set IMPORT_ALLOW_PRIVATE)',
    );
    expect(embeddedIpv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIpv4('::1')).toBeUndefined();
  });

  it('never reaches unspecified, multicast, broadcast or reserved addresses, whatever the operator allows', () => {
    for (const [address, kind] of never) {
      expect(addressRefusal(address), address).toContain(kind);
      expect(addressRefusal(address, { all: true, ranges: ['0.0.0.0/0', '::/0'] }), address).toContain(kind);
    }
  });

  it('reaches public addresses', () => {
    for (const address of outside) expect(addressRefusal(address), address).toBeUndefined();
  });

  it("follows the operator's permission: all own networks but link-local, or exactly the listed addresses and ranges", () => {
    const all = { all: true, ranges: [] };
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.20', 'fd12::1', '100.64.0.1', '::ffff:10.0.0.1']) expect(addressRefusal(address, all), address).toBeUndefined();
    // cloud metadata is not "the LAN": it has to be listed by itself
    expect(addressRefusal('169.254.169.254', all)).toContain('list it in IMPORT_ALLOW_PRIVATE');
    expect(addressRefusal('169.254.169.254', { all: false, ranges: ['169.254.169.254'] })).toBeUndefined();
    const lan = { all: false, ranges: ['192.168.1.0/24', '127.0.0.1', 'fd00::/8'] };
    expect(addressRefusal('192.168.1.77', lan)).toBeUndefined();
    expect(addressRefusal('::ffff:192.168.1.77', lan)).toBeUndefined();
    expect(addressRefusal('fd00::5', lan)).toBeUndefined();
    expect(addressRefusal('127.0.0.1', lan)).toBeUndefined();
    expect(addressRefusal('192.168.2.1', lan)).toContain('private network');
    expect(addressRefusal('127.0.0.2', lan)).toContain('loopback');
    expect(addressRefusal('::1', lan)).toContain('loopback');
    expect(addressRefusal('10.0.0.1', lan)).toContain('private network');
  });

  it('reads IMPORT_ALLOW_PRIVATE and IMPORT_FETCH_TIMEOUT_SECONDS, refusing what is neither a yes/no nor addresses', () => {
    expect(loadConfig({}).IMPORT_ALLOW_PRIVATE).toEqual({ all: false, ranges: [] });
    expect(loadConfig({}).IMPORT_FETCH_TIMEOUT_SECONDS).toBe(30);
    expect(loadConfig({}).EXPORT_PUBLIC).toBe(false);
    expect(loadConfig({ IMPORT_ALLOW_PRIVATE: '1' }).IMPORT_ALLOW_PRIVATE).toEqual({ all: true, ranges: [] });
    expect(loadConfig({ IMPORT_ALLOW_PRIVATE: 'false' }).IMPORT_ALLOW_PRIVATE).toEqual({ all: false, ranges: [] });
    expect(loadConfig({ IMPORT_ALLOW_PRIVATE: ' 192.168.1.0/24, fd00::/8 ,127.0.0.1' }).IMPORT_ALLOW_PRIVATE).toEqual({ all: false, ranges: ['192.168.1.0/24', 'fd00::/8', '127.0.0.1'] });
    for (const bad of ['lan', '192.168.1.0/33', '10.0.0.0/8/8', 'fd00::/129', '192.168.1.0/x']) {
      expect(() => loadConfig({ IMPORT_ALLOW_PRIVATE: bad }), bad).toThrow(/IMPORT_ALLOW_PRIVATE: true, false, or comma-separated IP addresses/);
    }
    expect(() => loadConfig({ IMPORT_FETCH_TIMEOUT_SECONDS: '0' })).toThrow(/IMPORT_FETCH_TIMEOUT_SECONDS/);
  });
});

// ---------------------------------------------------------------------------

describe('fetching a catalogue', () => {
  it('fetches with the permission for exactly this address, and says where the bytes came from', async () => {
    const source = await serve(yaml(CATALOGUE));
    const got = await fetchCatalogue(`${source.base}/api/hits/export`, { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: LOOPBACK_ONLY });
    expect(got.bytes.toString('utf8')).toBe(CATALOGUE);
    expect(got.url).toBe(`${source.base}/api/hits/export`);
    expect(got.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(source.requests[0]!.headers['accept-encoding']).toBe('identity');
  });

  it('refuses a loopback or private address without the permission, before connecting', async () => {
    const source = await serve(yaml(CATALOGUE));
    const e = await refusal(`${source.base}/api/hits/export`);
    expect(e).toMatchObject({ status: 400, code: 'address_refused' });
    expect(e.message).toBe(`refused ${source.base}: 127.0.0.1 is a loopback address (this server itself): this server imports from its own networks only when its operator allows it (set IMPORT_ALLOW_PRIVATE)`);
    expect((await refusal(`http://[::ffff:127.0.0.1]:${source.port}/`, { allowPrivate: NOTHING })).message).toContain('an IPv6 form of 127.0.0.1');
    // a name is resolved first, and its loopback addresses are refused too
    expect((await refusal(`http://localhost:${source.port}/`)).message).toMatch(/^refused http:\/\/localhost:\d+: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    expect((await refusal('http://169.254.169.254/latest/meta-data/')).message).toContain('link-local');
    expect((await refusal('http://10.0.0.1/hits.yml')).message).toContain('private network');
    expect(source.requests).toHaveLength(0);
  });

  it('checks every redirect again: from an allowed address to a private one is refused', async () => {
    const inner = await serve(yaml(CATALOGUE), '127.0.0.2');
    const hops = await serve(
      redirect((req) => {
        if (req.url === '/to-inner') return `${inner.base}/secret`;
        if (req.url === '/to-metadata') return 'http://169.254.169.254/latest/meta-data/';
        if (req.url === '/to-v6') return `http://[::1]:${inner.port}/`;
        if (req.url === '/to-file') return 'file:///etc/passwd';
        if (req.url === '/to-gopher') return 'gopher://127.0.0.1/';
        if (req.url === '/to-self') return '/final';
        if (req.url === '/final') return '/never';
        return '/to-self';
      }),
    );
    // without the redirects' check, the inner server (same machine, another loopback address) would answer
    const e = await refusal(`${hops.base}/to-inner`, { allowPrivate: LOOPBACK_ONLY });
    expect(e).toMatchObject({ status: 400, code: 'address_refused' });
    expect(e.message).toContain('127.0.0.2 is a loopback address');
    expect(inner.requests).toHaveLength(0);
    expect((await refusal(`${hops.base}/to-metadata`, { allowPrivate: LOOPBACK_ONLY })).message).toContain('169.254.169.254 is a link-local address');
    expect((await refusal(`${hops.base}/to-v6`, { allowPrivate: LOOPBACK_ONLY })).message).toContain('::1 is a loopback address');
    expect(await refusal(`${hops.base}/to-file`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ code: 'address_scheme', message: `the redirect from ${hops.base}/to-file uses file: the import fetches http and https addresses only` });
    expect(await refusal(`${hops.base}/to-gopher`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ code: 'address_scheme' });
    // a redirect loop ends after MAX_REDIRECTS
    const loop = await refusal(`${hops.base}/loop`, { allowPrivate: LOOPBACK_ONLY });
    expect(loop).toMatchObject({ status: 502, code: 'fetch_failed' });
    expect(loop.message).toContain(`more than ${MAX_REDIRECTS} redirects`);
  });

  it('follows a few redirects to an allowed address', async () => {
    const source = await serve(yaml(CATALOGUE));
    const hops = await serve(redirect((req) => (req.url === '/a' ? '/b' : req.url === '/b' ? `${source.base}/export` : '/a'), 307));
    const got = await fetchCatalogue(`${hops.base}/start`, { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: LOOPBACK_ONLY });
    expect(got.url).toBe(`${source.base}/export`);
    expect(got.bytes.toString()).toBe(CATALOGUE);
  });

  it('connects to the address it checked: a second DNS answer (rebinding) is never asked for', async () => {
    const source = await serve(yaml(CATALOGUE));
    const asked: string[] = [];
    // the first answer is the allowed address, every later one a private address the test does not allow
    const rebinding: Resolver = async (name) => {
      asked.push(name);
      return asked.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }];
    };
    const got = await fetchCatalogue(`http://catalogue.test:${source.port}/api/hits/export`, { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: LOOPBACK_ONLY, resolve: rebinding });
    expect(got.bytes.toString()).toBe(CATALOGUE);
    expect(asked).toEqual(['catalogue.test']);
    // the request still names the host it was for
    expect(source.requests[0]!.headers.host).toBe(`catalogue.test:${source.port}`);
  });

  it('checks https certificates against the name asked for (sent as SNI), not the address connected to', async () => {
    const names: string[] = [];
    const tls = createHttpsServer({ key: TEST_KEY, cert: TEST_CERT, SNICallback: (name, done) => (names.push(name), done(null, undefined)) }, yaml(CATALOGUE));
    await new Promise<void>((ok) => tls.listen(0, '127.0.0.1', ok));
    try {
      const port = (tls.address() as AddressInfo).port;
      const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
      // the test's certificate is its own (no authority vouches for it): refused, and said so
      const e = await refusal(`https://catalogue.test:${port}/hits.yml`, { allowPrivate: LOOPBACK_ONLY, resolve });
      expect(e).toMatchObject({ status: 502, code: 'fetch_failed' });
      expect(e.message).toMatch(new RegExp(`^the TLS certificate of catalogue\\.test:${port} was not accepted \\(`));
      expect(names).toEqual(['catalogue.test']);
    } finally {
      tls.close();
    }
  });

  it('refuses a name with any address in a refused network, and names it', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '192.168.0.10', family: 4 },
    ];
    const e = await refusal('https://mixed.test/hits.yml', { resolve: mixed });
    expect(e.message).toBe('refused https://mixed.test: mixed.test resolves to 192.168.0.10 is a private network address (RFC 1918 / unique local): this server imports from its own networks only when its operator allows it (set IMPORT_ALLOW_PRIVATE)');
    const unknown = await refusal('http://no-such-host.invalid/hits.yml');
    expect(unknown).toMatchObject({ status: 502, code: 'fetch_failed' });
    expect(unknown.message).toMatch(/^the name no-such-host\.invalid could not be resolved/);
  });

  it('refuses an answer over the size limit, announced or not', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const announced = await serve(yaml(big));
    let e = await refusal(`${announced.base}/big`, { allowPrivate: LOOPBACK_ONLY });
    expect(e).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(e.message).toBe(`the file at ${announced.base}/big is too large (2 MB): the import takes at most 1 MB`);
    // chunked, without a length: counted as it comes, cut off at the limit
    let sent = 0;
    const endless = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      const more = () => {
        while (sent < 50 * 1024 * 1024 && res.write('hits: []\n'.repeat(1000))) sent += 9000;
        if (sent < 50 * 1024 * 1024) res.once('drain', more);
        else res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    e = await refusal(`${endless.base}/stream`, { allowPrivate: LOOPBACK_ONLY });
    expect(e).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(e.message).toContain('more than 1 MB');
    expect(sent).toBeLessThan(20 * 1024 * 1024);
  });

  it('gives up a slow answer at the time limit: headers that never come, or a body that trickles', async () => {
    const silent = await serve(() => {});
    let started = Date.now();
    let e = await refusal(`${silent.base}/`, { allowPrivate: LOOPBACK_ONLY, timeoutMs: 800 });
    expect(e).toMatchObject({ status: 504, code: 'fetch_timeout', message: 'the address did not answer in full within 0.8 s (IMPORT_FETCH_TIMEOUT_SECONDS)' });
    expect(Date.now() - started).toBeLessThan(3000);
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.write('hits:\n');
      const timer = setInterval(() => res.write('\n'), 100);
      res.on('close', () => clearInterval(timer));
    });
    started = Date.now();
    e = await refusal(`${trickle.base}/`, { allowPrivate: LOOPBACK_ONLY, timeoutMs: 800 });
    expect(e).toMatchObject({ status: 504, code: 'fetch_timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('answers only the error codes the client words (shared ADDRESS_IMPORT_ERROR_CODES)', () => {
    const worded: readonly string[] = ADDRESS_IMPORT_ERROR_CODES;
    expect([...Object.values(REMOTE_CODES), 'import_source_changed'].filter((code) => !worded.includes(code))).toEqual([]);
  });

  it('fetches http and https only, without credentials', async () => {
    for (const address of ['ftp://example.com/hits.yml', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/yaml,hits: []']) {
      expect(await refusal(address), address).toMatchObject({ status: 400, code: 'address_scheme' });
    }
    expect(await refusal('not an address')).toMatchObject({ status: 400, code: 'address_invalid' });
    expect(await refusal('/api/hits/export')).toMatchObject({ code: 'address_invalid' });
    expect(await refusal('https://user:secret@example.com/hits.yml')).toMatchObject({ code: 'address_refused', message: 'the address holds a user name or password: the import sends no credentials' });
  });

  it('refuses answers that are not a catalogue, or not a success, saying what came', async () => {
    const page = await serve(yaml('<!doctype html><title>Hi</title>', 'text/html; charset=utf-8'));
    expect(await refusal(`${page.base}/`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ status: 502, code: 'not_a_catalogue', message: `${page.base}/ answered text/html, not a hits.yml (YAML text): a web page, not the export` });
    const image = await serve(yaml('PNG', 'image/png'));
    expect(await refusal(`${image.base}/x.png`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ code: 'not_a_catalogue' });
    const missing = await serve((_req, res) => {
      res.writeHead(404, 'Not Found');
      res.end();
    });
    expect(await refusal(`${missing.base}/nope`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ status: 502, code: 'fetch_failed', message: `${missing.base}/nope answered 404 Not Found` });
    const login = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"type":"error","code":"unauthenticated","message":"not authenticated"}');
    });
    expect((await refusal(`${login.base}/api/hits/export`, { allowPrivate: LOOPBACK_ONLY })).message).toContain('EXPORT_PUBLIC=true');
    const gzip = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/yaml', 'content-encoding': 'gzip' });
      res.end(Buffer.from([0x1f, 0x8b]));
    });
    expect((await refusal(`${gzip.base}/`, { allowPrivate: LOOPBACK_ONLY })).message).toContain('compressed (gzip)');
    // a refused port is said as such
    const closed = await serve(yaml(''));
    await closed.close();
    expect(await refusal(`${closed.base}/`, { allowPrivate: LOOPBACK_ONLY })).toMatchObject({ status: 502, code: 'fetch_failed', message: `127.0.0.1:${closed.port} refused the connection` });
  });
});

// ---------------------------------------------------------------------------

describe('HTTP: POST /api/hits/import-url', () => {
  let source: TestServer;
  let t: TestServer;
  let editor: User;
  let guest: User;
  let hitsOnly: User;
  let plain: Local;
  const count = async (server: TestServer) => Number((await server.server.db.selectFrom('hits').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    // the other server publishes its export; this one may reach exactly 127.0.0.1
    [source, t] = await Promise.all([bootServer({ EXPORT_PUBLIC: 'true' }), bootServer({ IMPORT_ALLOW_PRIVATE: '127.0.0.1', IMPORT_FETCH_TIMEOUT_SECONDS: '1' })]);
    guest = await User.guest(t.base);
    editor = await User.guest(t.base);
    hitsOnly = await User.guest(t.base);
    await t.server.db.updateTable('users').set({ permissions: Permission.WRITE_HITS | Permission.WRITE_PACKS }).where('id', '=', editor.id).execute();
    await t.server.db.updateTable('users').set({ permissions: Permission.WRITE_HITS }).where('id', '=', hitsOnly.id).execute();
    plain = await serve((req, res) => {
      if (req.url === '/new-pack.yml') return yaml(formatHitsYaml([hit(9, { packs: [P(9)] })], [pack(9)]))(req, res);
      if (req.url === '/bad.yml') return yaml(formatHitsYaml([hit(1, { year: 3000 })], [pack(1)]))(req, res);
      if (req.url === '/slow') return; // never answers
      if (req.url === '/big') return yaml('x'.repeat(21 * 1024 * 1024))(req, res);
      if (req.url === '/page') return yaml('<html></html>', 'text/html')(req, res);
      if (req.url === '/garbage') return yaml('just some words\n', 'text/plain')(req, res);
      return yaml(CATALOGUE)(req, res);
    });
  });
  afterAll(async () => {
    await Promise.all([source?.stop(), t?.stop()]);
  });

  it("imports another server's public export: the same dry run and report as a file, then the apply", async () => {
    const address = `${source.base}/api/hits/export`;
    // the other server's export needs no login with EXPORT_PUBLIC
    expect((await fetch(address)).status).toBe(200);
    const before = await count(t);
    const dry = await editor.request('POST', '/api/hits/import-url', { url: address });
    expect(dry.status).toBe(200);
    const report = AddressImportReportSchema.parse(dry.body);
    // both test servers load the same generated packs, and 200 hits of their own (new ids)
    expect(report).toMatchObject({ ok: true, applied: false, summary: { hits: { added: 200, changed: 0, rejected: 0 }, packs: { unchanged: 2 } } });
    expect(report.source).toMatchObject({ url: address, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(report.source.bytes).toBe(Buffer.byteLength((await (await fetch(address)).text()) as string));
    expect(await count(t)).toBe(before);

    const applied = await editor.request('POST', '/api/hits/import-url?apply=true', { url: address, sha256: report.source.sha256 });
    expect(applied.status).toBe(200);
    expect(AddressImportReportSchema.parse(applied.body)).toEqual({ ...report, applied: true, message: expect.stringMatching(/; applied$/) });
    expect(await count(t)).toBe(before + 200);
  });

  it("refuses to apply other bytes than the dry run's, and applies nothing with rejected rows", async () => {
    const before = await count(t);
    const changed = await editor.request('POST', '/api/hits/import-url?apply=true', { url: `${plain.base}/hits.yml`, sha256: '0'.repeat(64) });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({ type: 'error', code: 'import_source_changed', message: 'the file at the address changed since the dry run: check it again before applying' });
    const bad = await editor.request('POST', '/api/hits/import-url?apply=true', { url: `${plain.base}/bad.yml` });
    expect(bad.status).toBe(400);
    const body = AddressImportRejectedSchema.parse(bad.body);
    expect(body).toMatchObject({ code: 'import_rejected', ok: false, applied: false, source: { url: `${plain.base}/bad.yml` } });
    expect(body.hits.rejected[0]!.reasons.join()).toContain('year');
    // a user without write_packs may not add a pack this way either
    const packs = await hitsOnly.request('POST', '/api/hits/import-url', { url: `${plain.base}/new-pack.yml` });
    expect(packs.body).toMatchObject({ ok: false, packs: { rejected: [{ label: 'Remote Pack 9' }] } });
    // an answer that is text but no catalogue: the importer's own report, as for such a file
    const garbage = await editor.request('POST', '/api/hits/import-url', { url: `${plain.base}/garbage` });
    expect(garbage.status).toBe(200);
    expect(garbage.body).toMatchObject({ ok: false, errors: [{ message: expect.stringContaining('not a hits.yml') }] });
    expect(await count(t)).toBe(before);
  });

  it('answers refusals and failures as errors that say why, writing nothing', async () => {
    const before = await count(t);
    const cases: [string, number, string, string | RegExp][] = [
      ['http://127.0.0.2:9/hits.yml', 400, 'address_refused', 'refused http://127.0.0.2:9: 127.0.0.2 is a loopback address'],
      [`http://[::1]:${plain.port}/`, 400, 'address_refused', '::1 is a loopback address'],
      ['http://169.254.169.254/latest/meta-data/', 400, 'address_refused', 'link-local'],
      ['http://192.168.0.1/hits.yml', 400, 'address_refused', 'private network'],
      ['ftp://example.com/hits.yml', 400, 'address_scheme', 'the import fetches http and https addresses only'],
      ['nonsense', 400, 'address_invalid', 'not an absolute URL'],
      [`${plain.base}/slow`, 504, 'fetch_timeout', 'within 1 s'],
      [`${plain.base}/big`, 413, 'body_too_large', 'the import takes at most 20 MB'],
      [`${plain.base}/page`, 502, 'not_a_catalogue', 'answered text/html'],
    ];
    for (const [url, status, code, text] of cases) {
      const r = await editor.request('POST', '/api/hits/import-url?apply=true', { url });
      expect(r.status, url).toBe(status);
      expect(r.body, url).toMatchObject({ type: 'error', code, message: expect.stringContaining(text as string) });
    }
    expect(await count(t)).toBe(before);
  });

  it('needs write_hits, a JSON body with the address, and a valid apply flag', async () => {
    const url = `${plain.base}/hits.yml`;
    const anonymous = await fetch(`${t.base}/api/hits/import-url`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
    expect(anonymous.status).toBe(401);
    const denied = await guest.request('POST', '/api/hits/import-url', { url });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ type: 'error', code: 'permission_denied', message: 'permission denied' });
    const requestsBefore = plain.requests.length;
    expect((await editor.request('POST', '/api/hits/import-url', {})).body).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('url') });
    expect((await editor.request('POST', '/api/hits/import-url', { url: 'x'.repeat(2049) })).status).toBe(400);
    expect((await editor.request('POST', '/api/hits/import-url', { url, sha256: 'abc' })).body).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('sha256') });
    expect((await editor.request('POST', '/api/hits/import-url?apply=maybe', { url })).body).toEqual({ type: 'error', code: 'invalid_input', message: 'apply must be true or false' });
    expect((await editor.request('POST', '/api/hits/import-url', url, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await editor.request('POST', '/api/hits/import-url', { url }, { origin: 'https://evil.example' })).body).toMatchObject({ code: 'csrf' });
    // none of these made the server fetch anything
    expect(plain.requests.length).toBe(requestsBefore);
  });

  it('keeps the export behind write_hits unless the operator makes it public', async () => {
    expect((await fetch(`${t.base}/api/hits/export`)).status).toBe(401);
    const r = await fetch(`${source.base}/api/hits/export`);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect((parse(await r.text()) as { hits: unknown[] }).hits).toHaveLength(200);
  });
});

describe('HTTP: the rate limit of imports by address', () => {
  let t: TestServer;
  afterAll(async () => {
    await t?.stop();
  });
  it('counts per user, like the other expensive routes', async () => {
    t = await bootServer({ IMPORT_ALLOW_PRIVATE: '127.0.0.1', RATE_LIMIT_FACTOR: '0.1' });
    const source = await serve(yaml(CATALOGUE));
    const editor = await User.guest(t.base);
    const other = await User.guest(t.base);
    await t.server.db.updateTable('users').set({ permissions: Permission.WRITE_HITS }).where('id', 'in', [editor.id, other.id]).execute();
    expect((await editor.request('POST', '/api/hits/import-url', { url: `${source.base}/a` })).status).toBe(200);
    const limited = await editor.request('POST', '/api/hits/import-url', { url: `${source.base}/b` });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(source.requests.map((r) => r.url)).toEqual(['/a']);
    expect((await other.request('POST', '/api/hits/import-url', { url: `${source.base}/c` })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------

describe('CLI: import URL', () => {
  let dir: string;
  let dbUrl: string;
  let source: Local;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hitline-import-url-'));
    dbUrl = `sqlite:${join(dir, 'cli.sqlite')}`;
    source = await serve((req, res) => {
      if (req.url === '/slow') return;
      if (req.url === '/moved') return redirect(() => '/api/hits/export')(req, res);
      if (req.url === '/big') return yaml('x'.repeat(2 * 1024 * 1024))(req, res);
      return yaml(CATALOGUE)(req, res);
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((ok) => {
      execFile(
        process.execPath,
        ['server/cli/index.ts', ...args],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', IMPORT_ALLOW_PRIVATE: '', ...env } },
        (error, stdout, stderr) => ok({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('imports from an address with the same report as a file: dry run, then --apply', async () => {
    const address = `${source.base}/api/hits/export`;
    let r = await cli(['import', address], { IMPORT_ALLOW_PRIVATE: '127.0.0.1' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${address}:\n  hits:  3 added, 0 changed, 0 unchanged, 0 rejected\n  packs: 1 added, 0 changed, 0 unchanged, 0 rejected\ndry run: nothing was written; run again with --apply to import.\n`);
    expect(r.code).toBe(0);
    r = await cli(['import', `${source.base}/moved`, '--apply'], { IMPORT_ALLOW_PRIVATE: '127.0.0.0/8' });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`${source.base}/moved (from ${address}):`);
    expect(r.stdout).toContain('applied.');
    r = await cli(['export', '-']);
    expect((parse(r.stdout) as { hits: { title: string }[] }).hits.map((h) => h.title)).toEqual(['Remote Song 1', 'Remote Song 2', 'Remote Song 3']);
  });

  it('refuses private addresses without IMPORT_ALLOW_PRIVATE, other schemes, slow and oversize answers', async () => {
    let r = await cli(['import', `${source.base}/api/hits/export`, '--apply']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: cannot import ${source.base}/api/hits/export: refused ${source.base}: 127.0.0.1 is a loopback address (this server itself): this server imports from its own networks only when its operator allows it (set IMPORT_ALLOW_PRIVATE)\n`);
    r = await cli(['import', 'ftp://example.com/hits.yml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: cannot import ftp://example.com/hits.yml: the address uses ftp: the import fetches http and https addresses only\n');
    r = await cli(['import', `${source.base}/slow`], { IMPORT_ALLOW_PRIVATE: '127.0.0.1', IMPORT_FETCH_TIMEOUT_SECONDS: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: cannot import ${source.base}/slow: the address did not answer in full within 1 s (IMPORT_FETCH_TIMEOUT_SECONDS)\n`);
    r = await cli(['import', `${source.base}/big`, '--max-mb', '1'], { IMPORT_ALLOW_PRIVATE: '127.0.0.1' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`error: the file at ${source.base}/big is too large (2 MB): the import takes at most 1 MB`);
    expect(r.stdout).toContain('nothing was written.');
    r = await cli(['import', 'http://x.test/'], { IMPORT_ALLOW_PRIVATE: 'the lan' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('IMPORT_ALLOW_PRIVATE');
  });
});
