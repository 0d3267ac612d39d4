// The fastify application: error mapping, JSON bodies, zod validation, the OpenAPI document,
// authentication, metering, idempotent writes, health, retired endpoints, and each endpoint
// group's routes. A keyed request meets them in the order of document 1: authentication
// (onRequest), the common body errors and metering (preValidation), the route's schema,
// Idempotency-Key (preHandler), then the route.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Database } from '../infra/db/database.js';
import type { UsageStore } from '../infra/metering/usage-store.js';
import { registerAuthentication, type AuthenticationOptions } from './plugins/authentication.js';
import { registerCors } from './plugins/cors.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerIdempotency, type IdempotencyOptions } from './plugins/idempotency.js';
import { registerJsonBodies } from './plugins/json-body.js';
import { registerMetering } from './plugins/metering.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerValidation } from './plugins/validation.js';
import { healthRoutes, type ReadinessChecks } from './routes/health.js';
import { retiredRoutes } from './routes/retired.js';

export interface ApiOptions {
  logger: Logger;
  readiness: ReadinessChecks;
  /** Take the client address from X-Forwarded-For through this many proxies, or these proxies' addresses. */
  trustProxy?: false | number | string[];
  /** Endpoint groups, registered after the common plugins. */
  routes?: Array<(app: FastifyInstance) => void | Promise<void>>;
  bodyLimit?: number;
  /** The read-model database: Idempotency-Key records (without it keys only fix correlation ids). */
  database?: Database;
  /** The clock of time-bound state (idempotency keys); tests move it. */
  now?: () => Date;
  idempotency?: Pick<IdempotencyOptions, 'ttlMs' | 'staleClaimMs' | 'sweepIntervalMs'>;
  /** Key lookups and the demo organization: routes with `config.auth` need it. */
  authentication?: AuthenticationOptions;
  /** Quota and RPM counters: routes with `config.resource` are metered when it is set. */
  usage?: UsageStore;
  /** The whole request, and its headers, must have arrived within these (HTTP_REQUEST_TIMEOUT_SECONDS, HTTP_HEADERS_TIMEOUT_SECONDS). */
  timeouts?: { requestMs: number; headersMs: number };
}

/** Node's own answer to a request that did not arrive in time (the spec has none: `{ error }` like every other error). */
export const REQUEST_TIMEOUT_MESSAGE = 'Request was not received in time.';
const DEFAULT_TIMEOUTS = { requestMs: 150_000, headersMs: 20_000 };

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * A request Node refuses before any route sees it, answered as fastify would (then the connection
 * closes), except the timeout, which gets an error of our own shape.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, { error: REQUEST_TIMEOUT_MESSAGE }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { error: 'Request Header Fields Too Large', message: 'Exceeded maximum allowed HTTP header size', statusCode: 431 }]
        : [400, { error: 'Bad Request', message: 'Client Error', statusCode: 400 }];
  // An answer already under way (a route answered before the body arrived) is not written into.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answering) {
    const text = JSON.stringify(body);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy(error);
}

export async function buildApi(options: ApiOptions): Promise<FastifyInstance> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // A hop count as proxy-addr reads one: the n addresses nearest the service are proxies.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    return503OnClosing: true,
    // fastify leaves Node's request timeout off: a client could send one byte at a time for ever.
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // How often Node looks for requests past their time (30 s by default: too coarse for short timeouts).
      connectionsCheckingInterval: Math.max(100, Math.min(timeouts.headersMs, timeouts.requestMs) / 10),
    },
    clientErrorHandler: answerClientError,
  });
  registerErrorHandling(app);
  // API answers are per key and per moment: no cache may keep them, no browser may sniff them into
  // something else. A route that wants caching (images, later) sets its own Cache-Control.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Before authentication: a preflight carries no key.
  registerCors(app);
  if (options.authentication) registerAuthentication(app, options.authentication);
  registerJsonBodies(app);
  // After the body check: both run in preValidation, in the order they were added.
  if (options.usage) registerMetering(app, { usage: options.usage, now: options.now });
  registerValidation(app);
  // Before any route: the document collects routes as they are added.
  await registerOpenApi(app);
  registerIdempotency(app, { ...options.idempotency, database: options.database, now: options.now });
  healthRoutes(app, options.readiness);
  retiredRoutes(app);
  for (const register of options.routes ?? []) await register(app);
  await app.ready();
  return app;
}
