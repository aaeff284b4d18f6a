import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The one logger of the server. Secrets never reach it: cookies, passwords,
 * tokens and authorization headers are redacted wherever they appear.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.token', 'password', 'token'],
      censor: '[redacted]',
    },
  });
}
