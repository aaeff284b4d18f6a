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

/** Colyseus' logger interface (`defineServer({ logger })`): console-like methods. */
export interface FrameworkLogger {
  debug(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** What a socket's peer did wrong (ws' errors for an oversized or broken frame): the client's fault, not the server's. */
const PEER_FAULT = /^(Max payload size exceeded|Invalid WebSocket frame|Invalid (UTF-8|close code|opcode)|RSV[123] must be clear|MASK must be set|Unsupported WebSocket frame)/;
/**
 * A room message that is not MessagePack: msgpackr threw while RoomMessages
 * unpacked a client's bytes (every frame above it in msgpackr), so the peer sent
 * garbage. V8 keeps ten frames: bytes nested ten lists deep leave only msgpackr's
 * in the trace, which counts the same (a review finding: such frames flooded the
 * log again). The same msgpackr error from any other caller (the server's own
 * data, with its caller in the trace) stays an error.
 */
const UNDECODABLE_MESSAGE = /^\w*Error: [^\n]*(?:\n\s+at [^\n]*[\\/]msgpackr[\\/][^\n]*)+(?:\n\s+at RoomMessages\.on(?:Data|Request) |\s*$)/;
const isPeerFault = (message: string): boolean => PEER_FAULT.test(message) || UNDECODABLE_MESSAGE.test(message);

/**
 * Colyseus' messages in the server's log, as lines of JSON like the rest (by
 * default it prints them with console, stack traces over several lines). A
 * socket's protocol error (a 5 MB frame, a broken frame, a room message that
 * is not MessagePack) is the peer's doing:
 * a warning of one line, at most one per `quietMs`, then one line with the
 * number left out meanwhile, so a client sending such frames in a loop cannot
 * flood the log.
 */
export function frameworkLogger(log: Logger, quietMs = 10_000): FrameworkLogger {
  const text = (args: unknown[]): string => args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ');
  let quietUntil = 0;
  let left = 0;
  return {
    debug: () => undefined,
    trace: () => undefined,
    info: (...args) => log.info({ source: 'colyseus' }, text(args)),
    warn: (...args) => log.warn({ source: 'colyseus' }, text(args)),
    error: (...args) => {
      const message = text(args);
      if (!isPeerFault(message)) {
        log.error({ source: 'colyseus' }, message);
        return;
      }
      const now = Date.now();
      if (now < quietUntil) {
        left++;
        return;
      }
      log.warn({ source: 'colyseus' }, `a socket sent a broken frame and was closed: ${message.split('\n', 1)[0]}`);
      quietUntil = now + quietMs;
      left = 0;
      // the ones left out meanwhile are counted when the quiet time ends
      setTimeout(() => {
        if (left > 0) log.warn({ source: 'colyseus', left_out: left }, `sockets sent ${left} more broken frames in ${quietMs / 1000} s`);
        left = 0;
      }, quietMs).unref();
    },
  };
}
