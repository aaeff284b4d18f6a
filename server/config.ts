import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Configuration from environment variables, parsed once at start-up. A bad value
 * stops the start with a message naming the variable.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ROOT = resolve(import.meta.dirname, '..');

const ORIGIN_HINT = 'an origin such as https://hitline.example.org (scheme, host, optional port; no path)';

/** An http(s) origin, normalised as browsers send it in `Origin` (lower-case host, no default port, no trailing slash). */
function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return (url.protocol === 'http:' || url.protocol === 'https:') && bare ? url.origin : undefined;
}

const origin = z.string().transform((value, ctx) => {
  const parsed = parseOrigin(value);
  if (parsed === undefined) ctx.addIssue({ code: 'custom', message: ORIGIN_HINT });
  return parsed ?? z.NEVER;
});

/** An http(s) URL of a script: no credentials, no fragment. */
const scriptUrl = z.string().transform((value, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  const ok = !!url && (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.hash === '';
  if (!ok) ctx.addIssue({ code: 'custom', message: 'an http(s) URL such as https://www.youtube.com/iframe_api (no credentials, no #fragment)' });
  return ok ? url!.href : z.NEVER;
});

const originList = z.string().transform((value, ctx) => {
  const items = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  const parsed = items.map(parseOrigin);
  const bad = items.filter((_, i) => parsed[i] === undefined);
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `comma-separated origins; not ${bad.map((b) => JSON.stringify(b)).join(', ')} but ${ORIGIN_HINT}` });
  return bad.length > 0 ? z.NEVER : (parsed as string[]);
});

/** The outside sources of year evidence there are (server/services/evidence). */
export const EVIDENCE_SOURCE_NAMES = ['musicbrainz', 'wikidata'] as const;
export type EvidenceSourceName = (typeof EVIDENCE_SOURCE_NAMES)[number];

const ALLOW_HINT = 'true, false, or comma-separated IP addresses and CIDR ranges such as 192.168.1.0/24,fd00::/8';

/** IMPORT_ALLOW_PRIVATE: a yes/no for all of the server's own networks, or the addresses and ranges allowed. */
const privateAllowance = z.string().transform((value, ctx) => {
  const v = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(v)) return { all: false, ranges: [] as string[] };
  if (['true', '1', 'yes'].includes(v)) return { all: true, ranges: [] as string[] };
  const items = v.split(',').map((i) => i.trim()).filter((i) => i !== '');
  const bad = items.filter((item) => {
    const [net, prefix, extra] = item.split('/');
    const family = isIP(net ?? '');
    if (family === 0 || extra !== undefined) return true;
    if (prefix === undefined) return false;
    const n = Number(prefix);
    return !/^\d{1,3}$/.test(prefix) || n > (family === 4 ? 32 : 128);
  });
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `${ALLOW_HINT}; not ${bad.map((b) => JSON.stringify(b)).join(', ')}` });
  return bad.length > 0 ? z.NEVER : { all: false, ranges: items };
});

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** SQLite file path or `sqlite:` URL (default), or a `postgres://` URL (the database must exist; several processes may share it). */
  DATABASE_URL: z.string().min(1).default(`sqlite:${resolve(ROOT, 'data', 'hitline.sqlite')}`),
  /** PostgreSQL: most connections this process opens. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Redis (`redis://` or `rediss://`) shared by several server processes: rooms,
   * matchmaking, remote room calls and events go through it (Colyseus RedisPresence
   * and RedisDriver). Unset = a single process with in-memory presence.
   */
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL').optional(),
  /**
   * Where clients reach THIS process for a game's WebSocket: `host:port`, or
   * `host/path` behind a proxy that routes the path to this process. Needed with
   * REDIS_URL (a game lives on one process); default HOST:PORT (127.0.0.1:PORT
   * when HOST is a wildcard address).
   */
  PUBLIC_ADDRESS: z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[^\s/:[\]]+)(:\d{1,5})?(\/\S*)?$/, 'host:port or host/path, without a scheme').optional(),
  /** Run the audio job worker in this process; with several processes on one database, one worker is enough. */
  AUDIO_WORKER: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Built web client (index.html + assets). */
  CLIENT_DIR: z.string().min(1).default(resolve(ROOT, 'dist', 'client')),
  /** The demo catalogue loaded into an empty database. */
  DEMO_CATALOGUE: z.string().default(resolve(ROOT, 'assets', 'demo-hits.yml')),
  /** Processed audio files (and cached hidden clips). */
  AUDIO_DIR: z.string().min(1).default(resolve(ROOT, 'data', 'audio')),
  /** ffmpeg to run; default: the static build shipped in the @ffmpeg-installer/ffmpeg package. */
  FFMPEG_PATH: z.string().optional(),
  /** An external `yt-dlp` command; unset = the YouTube source is off. */
  YTDLP_PATH: z.string().optional(),
  /**
   * YouTube's IFrame Player API, the script the DJ's device loads in the `dj` clue
   * mode (the page's Content-Security-Policy allows it, and the player scripts
   * under its origin's /s/player/). Tests point it at a local stand-in.
   */
  YOUTUBE_IFRAME_API: scriptUrl.default('https://www.youtube.com/iframe_api'),
  /** The origin of the DJ's player frames (`<origin>/embed/<id>`): YouTube's privacy-enhanced mode by default. */
  YOUTUBE_PLAYER_HOST: origin.default('https://www.youtube-nocookie.com'),
  /** Audio jobs processed at the same time (each runs ffmpeg or yt-dlp). */
  AUDIO_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Longest a yt-dlp download may take before it is killed (and retried later). */
  AUDIO_FETCH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Longest one ffmpeg step of a job may take before it is killed. */
  AUDIO_PROCESS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * Import by address (`npm run cli -- import URL`, the import dialog): which of the
   * server's own networks it may fetch from. Unset or false: none (public addresses
   * only); true: loopback, private (RFC 1918, fc00::/7) and shared (100.64/10)
   * addresses; or a comma-separated list of addresses and CIDR ranges, the only
   * ones allowed (link-local, where cloud metadata services answer, only this way).
   */
  IMPORT_ALLOW_PRIVATE: privateAllowance.default({ all: false, ranges: [] }),
  /** Longest an import by address may take, from the first lookup to the last byte (redirects included). */
  IMPORT_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(30),
  /** Anyone may download the catalogue's export (GET /api/hits/export) without a login, so other servers can import it by address. */
  EXPORT_PUBLIC: bool.default(false),
  /** Largest audio file the hit editor may upload, in MB. */
  AUDIO_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(2048).default(50),
  /** Mark cookies Secure (set when served behind TLS). */
  COOKIE_SECURE: bool.default(false),
  /**
   * Express `trust proxy` (hops): how many reverse proxies stand in front. With 1 or
   * more, the client address for the rate limits comes from X-Forwarded-For, and
   * the host for the same-origin check from X-Forwarded-Host, as the proxy sets them.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The address players open, e.g. `https://hitline.example.org`: mutations whose
   * Origin it is are accepted even when a reverse proxy rewrote Host.
   */
  PUBLIC_URL: origin.optional(),
  /** More origins (comma-separated) whose mutations are accepted, e.g. a second domain. */
  ALLOWED_ORIGINS: originList.default([]),
  /**
   * The proof-of-work check (ALTCHA) of registration: `optional` checks a token
   * when one is sent, `required` refuses a registration without a valid one, `off`
   * ignores tokens and serves no challenges.
   */
  REGISTRATION_CAPTCHA: z.enum(['required', 'optional', 'off']).default('optional'),
  /** HMAC key signing the ALTCHA challenges; unset = a key generated once and kept in the database (every process on it shares it). */
  ALTCHA_HMAC_KEY: z.string().min(32, 'at least 32 characters').optional(),
  /** Seconds a dropped WebSocket may take to come back before the seat counts as absent (A5). */
  RECONNECT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Name of this server process: it restores the games it hosted after a restart (give each process of a cluster its own). */
  PROCESS_NAME: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)').default('main'),
  /** Hours without an accepted action after which a game is removed (from the lobby and from storage). */
  GAME_IDLE_HOURS: z.coerce.number().min(0.01).max(24 * 365).default(24),
  /** Minutes an Open game may stay with none of its players connected before it is removed. */
  OPEN_GAME_IDLE_MINUTES: z.coerce.number().min(0.02).max(7 * 24 * 60).default(60),
  /** Multiplies every rate limit (tests raise it; 0 switches limits off). */
  RATE_LIMIT_FACTOR: z.coerce.number().min(0).max(1000).default(1),
  /** WebSockets one address may hold open at once (times RATE_LIMIT_FACTOR). */
  MAX_WEBSOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Matchmaking requests (`/matchmake/*`: joining a game's room) one address may send per minute (times RATE_LIMIT_FACTOR). */
  MAX_MATCHMAKE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Seconds a client may take to send a request's headers, and then its body (an editor's upload only must not stall that long). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** Seconds a session stays valid without use (rolling), and the longest idle gap. */
  SESSION_TTL_SECONDS: z.coerce.number().int().min(10).default(3600),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).default(7),
  /**
   * Outside sources of year evidence (docs/disputes.md#evidence), comma-separated:
   * `musicbrainz`, `wikidata`; empty = none (no request leaves the server). Tests
   * set it empty or point the URLs below at local stand-ins.
   */
  EVIDENCE_SOURCES: z
    .string()
    .transform((value, ctx) => {
      const items = [...new Set(value.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))];
      const bad = items.filter((i) => !(EVIDENCE_SOURCE_NAMES as readonly string[]).includes(i));
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `comma-separated, of ${EVIDENCE_SOURCE_NAMES.join(', ')}; not ${bad.map((b) => JSON.stringify(b)).join(', ')}` });
      return bad.length > 0 ? z.NEVER : (items as EvidenceSourceName[]);
    })
    .default([...EVIDENCE_SOURCE_NAMES]),
  /** MusicBrainz's address (a mirror's, or a test's stand-in): its web service is under `/ws/2`. */
  MUSICBRAINZ_URL: origin.default('https://musicbrainz.org'),
  /** Wikidata's query service address: its SPARQL endpoint is `/sparql`. */
  WIKIDATA_URL: origin.default('https://query.wikidata.org'),
  /**
   * A contact (an e-mail address or a web page) in the User-Agent sent to the
   * sources, as MusicBrainz and Wikimedia ask; unset = PUBLIC_URL.
   */
  EVIDENCE_CONTACT: z.string().trim().min(3).max(200).regex(/^[^()\r\n]+$/, 'an e-mail address or URL, without parentheses').optional(),
  /** Longest one request to a source may take, in seconds. */
  EVIDENCE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(8),
  /** Argon2 cost (KiB); lowered in tests only. */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19456),
});

export type Config = z.infer<typeof configSchema>;

/** Parses `env`; throws one readable error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The origins (PUBLIC_URL, then ALLOWED_ORIGINS) whose mutations pass the same-origin check whatever Host says. */
export function allowedOriginsOf(config: Pick<Config, 'PUBLIC_URL' | 'ALLOWED_ORIGINS'>): string[] {
  return [...(config.PUBLIC_URL ? [config.PUBLIC_URL] : []), ...config.ALLOWED_ORIGINS];
}

/**
 * The address clients use for this process's WebSockets (see PUBLIC_ADDRESS), or
 * undefined for a single process without one (clients then use the address they
 * reached the API at). Throws when REDIS_URL is set with PORT 0 and no
 * PUBLIC_ADDRESS: the port is not known before listening.
 */
export function publicAddressOf(config: Config): string | undefined {
  if (config.PUBLIC_ADDRESS) return config.PUBLIC_ADDRESS.replace(/\/+$/, '');
  if (!config.REDIS_URL) return undefined;
  if (config.PORT === 0) throw new Error('Invalid configuration:\n  PUBLIC_ADDRESS: needed with REDIS_URL when PORT is 0');
  const wildcard = config.HOST === '0.0.0.0' || config.HOST === '::';
  const host = wildcard ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `${host}:${config.PORT}`;
}
