// The fastify application: error mapping, JSON bodies, health, and each endpoint group's routes.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerErrorHandling } from './plugins/errors.js';
import { registerJsonBodies } from './plugins/json-body.js';
import { healthRoutes, type ReadinessChecks } from './routes/health.js';

export interface ApiOptions {
  logger: Logger;
  readiness: ReadinessChecks;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy?: boolean;
  /** Endpoint groups, registered after the common plugins. */
  routes?: Array<(app: FastifyInstance) => void | Promise<void>>;
  bodyLimit?: number;
}

export async function buildApi(options: ApiOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    disableRequestLogging: false,
    return503OnClosing: true,
  });
  registerErrorHandling(app);
  registerJsonBodies(app);
  healthRoutes(app, options.readiness);
  for (const register of options.routes ?? []) await register(app);
  await app.ready();
  return app;
}
