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

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** SQLite file path or `sqlite:` URL (default), or a `postgres://` URL (issue 10). */
  DATABASE_URL: z.string().min(1).default(`sqlite:${resolve(ROOT, 'data', 'hitline.sqlite')}`),
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
  /** Audio jobs processed at the same time (each runs ffmpeg or yt-dlp). */
  AUDIO_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Longest a yt-dlp download may take before it is killed (and retried later). */
  AUDIO_FETCH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Longest one ffmpeg step of a job may take before it is killed. */
  AUDIO_PROCESS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Largest audio file the hit editor may upload, in MB. */
  AUDIO_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(2048).default(50),
  /** Mark cookies Secure (set when served behind TLS). */
  COOKIE_SECURE: bool.default(false),
  /** Express `trust proxy` (hops), for rate limits behind a reverse proxy. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Seconds a dropped WebSocket may take to come back before the seat counts as absent (A5). */
  RECONNECT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Multiplies every rate limit (tests raise it; 0 switches limits off). */
  RATE_LIMIT_FACTOR: z.coerce.number().min(0).max(1000).default(1),
  /** Seconds a session stays valid without use (rolling), and the longest idle gap. */
  SESSION_TTL_SECONDS: z.coerce.number().int().min(10).default(3600),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).default(7),
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
