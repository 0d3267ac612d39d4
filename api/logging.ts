// Request logging: method, path, status, timing, and the headers that help an operator, with every
// credential replaced before the line is written.
import pino, { type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-session"]',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
];

export function createLogger(options: { level: string; destination?: pino.DestinationStream; name?: string }): Logger {
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
    options.destination,
  );
}
