// Request logging: method, path, status, timing, and the headers that help an operator, with every
// credential replaced before the line is written.
import pino, { type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-session"]',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
];

/**
 * `pretty`: one readable line per entry (pino-pretty), for a person at a terminal; `json`: one JSON
 * object per line, for a log collector; `auto` (the default): pretty when stdout is a terminal.
 */
export type LogFormat = 'auto' | 'pretty' | 'json';

export function createLogger(options: { level: string; destination?: pino.DestinationStream; name?: string; format?: LogFormat }): Logger {
  const format = options.format ?? 'json';
  const pretty = !options.destination && (format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true));
  return pino(
    {
      level: options.level,
      name: options.name ?? 'stylist',
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; headers: Record<string, unknown> }) => ({
          method: req.method,
          url: req.url,
          ip: req.ip,
          headers: req.headers,
        }),
      },
    },
    options.destination ?? (pretty ? prettyStream() : undefined),
  );
}

/** Synchronous, so a line is on the terminal before the process exits. */
const prettyStream = (): pino.DestinationStream =>
  PinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,name', sync: true, singleLine: true });
