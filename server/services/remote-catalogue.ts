import { createHash } from 'node:crypto';
import { lookup as systemLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { MAX_REDIRECTS, REMOTE_CODES } from '../../shared/protocol/routes-catalogue.ts';

/**
 * Fetches a catalogue (`hits.yml`, e.g. another server's `GET /api/hits/export`)
 * by address for the import. The bytes go to the one importer
 * (catalogue-yaml/); this module only decides whether and how to fetch them:
 *
 * - http and https only; at most {@link MAX_REDIRECTS} redirects, each checked
 *   like the first address;
 * - one deadline for the whole fetch (every lookup, connection, redirect, header
 *   and body byte), and the import's size limit, checked on the announced length
 *   and again on every byte received;
 * - no addresses of the server's own networks (loopback, private, shared, link-local
 *   — which holds the clouds' metadata service at 169.254.169.254) unless the
 *   operator allows them (IMPORT_ALLOW_PRIVATE), and never the unspecified,
 *   multicast, broadcast or reserved ones. IPv4 addresses written in IPv6 (mapped,
 *   compatible, NAT64) count as the IPv4 address they carry. The name is resolved
 *   here, every address it has is checked, and the connection goes to the checked
 *   address: a DNS answer that changes between check and connection (DNS
 *   rebinding) is never asked for.
 */

// the error codes and the redirect limit are the route table's: the API reference states them
export { MAX_REDIRECTS, REMOTE_CODES };

/** An address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system's resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Which of the server's own networks the operator allows (the parsed IMPORT_ALLOW_PRIVATE). */
export interface PrivateAllowance {
  /** Every loopback, private and shared-space address (not link-local, which holds cloud metadata services: list it to allow it). */
  all: boolean;
  /** Addresses and CIDR ranges allowed whatever their kind (but never unspecified, multicast, broadcast or reserved). */
  ranges: readonly string[];
}

export const NO_PRIVATE: PrivateAllowance = { all: false, ranges: [] };

export interface RemoteFetchOptions {
  /** The import's size limit, in bytes. */
  maxBytes: number;
  /** The whole fetch, redirects included (ms). */
  timeoutMs: number;
  allowPrivate?: PrivateAllowance | undefined;
  /** Stops the fetch (e.g. the client that asked for it went away). */
  signal?: AbortSignal | undefined;
  /** Resolves host names; the default is the system's. Tests give names of their own. */
  resolve?: Resolver | undefined;
}

/** What was fetched. */
export interface FetchedCatalogue {
  bytes: Buffer;
  /** The address the bytes came from (after redirects). */
  url: string;
  /** SHA-256 of the bytes, hex: an apply can insist on the bytes its dry run showed. */
  sha256: string;
}

/** Why an address was not fetched: an API error (status, stable code, a sentence that says why). */
export class RemoteFetchError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// ---------------------------------------------------------------------------
// addresses

/** Kinds of addresses never fetched, whatever the operator allows: they name no single host. */
type NeverKind = 'unspecified' | 'multicast' | 'broadcast' | 'reserved';
/** Kinds of addresses of the server's own networks: fetched only when the operator allows them. */
type OwnKind = 'loopback' | 'private' | 'shared' | 'link-local';
type Kind = NeverKind | OwnKind;

const KIND_TEXT: Record<Kind, string> = {
  unspecified: 'the unspecified address (no host)',
  multicast: 'a multicast address (no single host)',
  broadcast: 'the broadcast address (no single host)',
  reserved: 'a reserved address (no host on the internet)',
  loopback: 'a loopback address (this server itself)',
  private: 'a private network address (RFC 1918 / unique local)',
  shared: 'a shared address space address (carrier-grade NAT, RFC 6598)',
  'link-local': 'a link-local address (this server’s own link; cloud metadata services live there)',
};

const RANGES: readonly [Kind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['shared', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  // site-local, deprecated but still routed inside some networks
  ['private', 'fec0::', 10, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const byKind = new Map<Kind, BlockList>();
for (const [kind, net, prefix, type] of RANGES) {
  const list = byKind.get(kind) ?? new BlockList();
  list.addSubnet(net, prefix, type);
  byKind.set(kind, list);
}
const NEVER: ReadonlySet<Kind> = new Set<NeverKind>(['unspecified', 'multicast', 'broadcast', 'reserved']);

/** The 16 bytes of an IPv6 address (zone left out), or undefined when it is none. */
function ipv6Bytes(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return undefined;
  let text = bare;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1]!.split('.').map(Number));
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, for the forms
 * that reach it: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and
 * NAT64 (64:ff9b::a.b.c.d).
 */
export function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return undefined;
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const mapped = zero(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const compatible = zero(0, 12) && !zero(12, 16) && !(zero(12, 15) && b[15] === 1);
  const nat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12);
  return mapped || compatible || nat64 ? b.slice(12).join('.') : undefined;
}

/** The most specific kinds first: 255.255.255.255 is the broadcast address within the reserved 240/4. */
const KIND_ORDER: readonly Kind[] = ['broadcast', 'unspecified', 'loopback', 'private', 'shared', 'link-local', 'multicast', 'reserved'];

function kindOf(address: string): Kind | undefined {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return KIND_ORDER.find((kind) => byKind.get(kind)?.check(address, type));
}

/** A BlockList of the operator's allowed ranges. */
function allowList(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [net, prefix] = range.split('/') as [string, string | undefined];
    const family = isIP(net);
    if (family === 0) continue; // config.ts refuses such values at start-up
    const type = family === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(net, prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix), type);
  }
  return list;
}

/**
 * Why the import must not connect to `address` (an IP address), or undefined when
 * it may: a sentence naming the address and its kind.
 */
export function addressRefusal(address: string, allow: PrivateAllowance = NO_PRIVATE): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const inner = embeddedIpv4(bare);
  const checked = inner ?? bare;
  const kind = kindOf(checked);
  if (kind === undefined) return undefined;
  const form = inner !== undefined ? `${bare} (an IPv6 form of ${inner}) is ` : `${bare} is `;
  if (NEVER.has(kind)) return `${form}${KIND_TEXT[kind]}`;
  const listed = allowList(allow.ranges);
  const type = isIP(checked) === 4 ? 'ipv4' : 'ipv6';
  if (listed.check(checked, type) || (inner !== undefined && listed.check(bare, 'ipv6'))) return undefined;
  if (allow.all && kind !== 'link-local') return undefined;
  const how = kind === 'link-local' ? 'list it in IMPORT_ALLOW_PRIVATE' : 'set IMPORT_ALLOW_PRIVATE';
  return `${form}${KIND_TEXT[kind]}: this server imports from its own networks only when its operator allows it (${how})`;
}

// ---------------------------------------------------------------------------
// the fetch

const refused = (message: string) => new RemoteFetchError(400, REMOTE_CODES.refused, message);

/** The address as a URL, if it is an http(s) URL without credentials. */
export function parseAddress(address: string, what = 'the address'): URL {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new RemoteFetchError(400, REMOTE_CODES.invalid, `${what} is not an absolute URL (such as https://other.example/api/hits/export): ${JSON.stringify(address.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteFetchError(400, REMOTE_CODES.scheme, `${what} uses ${url.protocol.slice(0, -1)}: the import fetches http and https addresses only`);
  }
  if (url.username !== '' || url.password !== '') throw refused(`${what} holds a user name or password: the import sends no credentials`);
  url.hash = '';
  return url;
}

const defaultResolve: Resolver = async (hostname) => {
  const found = await systemLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Resolves `url`'s host and checks every address it has; the first is the one to connect to. */
async function checkedAddress(url: URL, options: RemoteFetchOptions): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allow = options.allowPrivate ?? NO_PRIVATE;
  const literal = isIP(host);
  if (literal !== 0) {
    const why = addressRefusal(host, allow);
    if (why) throw refused(`refused ${url.origin}: ${why}`);
    return { address: host, family: literal === 6 ? 6 : 4 };
  }
  let found: ResolvedAddress[];
  try {
    found = await (options.resolve ?? defaultResolve)(host);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RemoteFetchError(502, REMOTE_CODES.failed, `the name ${host} could not be resolved${code ? ` (${code})` : ''}`);
  }
  if (found.length === 0) throw new RemoteFetchError(502, REMOTE_CODES.failed, `the name ${host} has no address`);
  // every address is checked: a name that also points into the server's network is refused whole
  for (const a of found) {
    const why = addressRefusal(a.address, allow);
    if (why) throw refused(`refused ${url.origin}: ${host} resolves to ${why}`);
  }
  return found[0]!;
}

/** Content types a catalogue may come as; missing and octet-stream are taken too (plain file servers). */
const CATALOGUE_TYPES = new Set(['application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml', 'text/plain', 'application/json', 'application/octet-stream']);

const mb = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function networkError(url: URL, e: unknown): RemoteFetchError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const host = url.host;
  const why =
    code === 'ECONNREFUSED'
      ? `${host} refused the connection`
      : code === 'ECONNRESET' || code === 'EPIPE'
        ? `${host} closed the connection`
        : code === 'EHOSTUNREACH' || code === 'ENETUNREACH'
          ? `${host} cannot be reached`
          : /CERT|SSL|TLS|SELF_SIGNED|ERR_TLS/i.test(code)
            ? `the TLS certificate of ${host} was not accepted (${code})`
            : `the connection to ${host} failed${code ? ` (${code})` : ''}`;
  return new RemoteFetchError(502, REMOTE_CODES.failed, why);
}

/** One GET of `url` on a connection to `target` (already checked). */
function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  // the connection goes to the checked address, never to a second answer of the resolver
  const lookup: LookupFunction = (_host, opts, done) => {
    if (opts.all) done(null, [target]);
    else done(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      // a connection of its own: a pooled socket could lead to an address checked for another request
      agent: false,
      lookup,
      signal,
      headers: {
        accept: 'application/x-yaml, text/yaml;q=0.9, text/plain;q=0.8, */*;q=0.1',
        // the size limit counts the bytes as they come: no compressed answers
        'accept-encoding': 'identity',
        'user-agent': 'Hitline catalogue import',
      },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

/** Reads `res` whole, up to `maxBytes`. */
async function readBody(res: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new RemoteFetchError(413, REMOTE_CODES.tooLarge, `the file at ${url.href} is too large (more than ${mb(maxBytes)}): the import takes at most ${mb(maxBytes)}`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Fetches the catalogue at `address` (see the module comment for the rules);
 * throws a {@link RemoteFetchError} that says why it did not.
 */
export async function fetchCatalogue(address: string, options: RemoteFetchOptions): Promise<FetchedCatalogue> {
  let url = parseAddress(address);
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  const timeout = new RemoteFetchError(504, REMOTE_CODES.timeout, `the address did not answer in full within ${seconds} s (IMPORT_FETCH_TIMEOUT_SECONDS)`);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  // a lookup cannot be aborted: the deadline also ends the wait for it
  let stop: (e: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const onAbort = () => stop(deadline.aborted ? timeout : new RemoteFetchError(499, REMOTE_CODES.failed, 'the import was cancelled'));
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  const inTime = <T>(p: Promise<T>): Promise<T> => Promise.race([p, stopped]);
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await inTime(checkedAddress(url, options));
      let res: IncomingMessage;
      try {
        res = await inTime(get(url, target, signal));
      } catch (e) {
        throw e instanceof RemoteFetchError ? e : signal.aborted ? (deadline.aborted ? timeout : e) : networkError(url, e);
      }
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        res.destroy();
        const location = res.headers.location;
        if (!location) throw new RemoteFetchError(502, REMOTE_CODES.failed, `${url.href} answered ${status} (a redirect) without saying where to`);
        if (redirects >= MAX_REDIRECTS) throw new RemoteFetchError(502, REMOTE_CODES.failed, `more than ${MAX_REDIRECTS} redirects: the import stopped at ${url.href}`);
        url = parseAddress(new URL(location, url).href, `the redirect from ${url.href}`);
        continue;
      }
      if (status !== 200) {
        res.destroy();
        const login = status === 401 || status === 403 ? ': the export of a Hitline server needs a curator’s login unless its operator sets EXPORT_PUBLIC=true (or download the file there and import it as a file)' : '';
        throw new RemoteFetchError(502, REMOTE_CODES.failed, `${url.href} answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}${login}`);
      }
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== '' && !CATALOGUE_TYPES.has(type)) {
        res.destroy();
        throw new RemoteFetchError(502, REMOTE_CODES.notYaml, `${url.href} answered ${type}, not a hits.yml (YAML text)${type === 'text/html' ? ': a web page, not the export' : ''}`);
      }
      const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (encoding !== 'identity' && encoding !== '') {
        res.destroy();
        throw new RemoteFetchError(502, REMOTE_CODES.failed, `${url.href} answered compressed (${encoding}) although the import asks for plain bytes`);
      }
      const announced = Number(res.headers['content-length']);
      if (Number.isFinite(announced) && announced > options.maxBytes) {
        res.destroy();
        throw new RemoteFetchError(413, REMOTE_CODES.tooLarge, `the file at ${url.href} is too large (${mb(announced)}): the import takes at most ${mb(options.maxBytes)}`);
      }
      let bytes: Buffer;
      try {
        bytes = await inTime(readBody(res, url, options.maxBytes));
      } catch (e) {
        res.destroy();
        throw e instanceof RemoteFetchError ? e : signal.aborted && deadline.aborted ? timeout : networkError(url, e);
      }
      return { bytes, url: url.href, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
