// Liveness and readiness for orchestrators. /readyz checks each store with a short timeout and
// names only the failing component: the cause goes to the log, not to an unauthenticated caller.
import type { FastifyInstance } from 'fastify';

export type ReadinessChecks = Record<string, () => Promise<void>>;

const CHECK_TIMEOUT_MS = 2000;

const withTimeout = (check: () => Promise<void>): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    check().then(resolve, reject).finally(() => clearTimeout(timer));
  });

export function healthRoutes(app: FastifyInstance, checks: ReadinessChecks): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!)));
    const report: Record<string, 'ok' | 'unavailable'> = {};
    results.forEach((result, index) => {
      const name = names[index]!;
      report[name] = result.status === 'fulfilled' ? 'ok' : 'unavailable';
      if (result.status === 'rejected') request.log.warn({ component: name, err: result.reason }, 'readiness check failed');
    });
    const ready = results.every((result) => result.status === 'fulfilled');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: report });
  });
}
