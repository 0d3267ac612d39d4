// Liveness and readiness for orchestrators. /readyz checks each store with a short timeout and
// names only the failing component: the cause goes to the log, not to an unauthenticated caller.
// A check may also answer with a report (the projections: which one is stopped or behind, and
// why); the report is shown under the check's name and its `ok` decides.
import type { FastifyInstance } from 'fastify';

export interface CheckReport {
  ok: boolean;
  /** Ready, but some tenants are not fully served (their read models are parked): /readyz still answers 200. */
  degraded?: unknown[];
  [detail: string]: unknown;
}

export type ReadinessChecks = Record<string, () => Promise<void | CheckReport>>;

const CHECK_TIMEOUT_MS = 2000;

const withTimeout = <T>(check: () => Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    check().then(resolve, reject).finally(() => clearTimeout(timer));
  });

export function healthRoutes(app: FastifyInstance, checks: ReadinessChecks): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!)));
    const report: Record<string, 'ok' | 'degraded' | 'unavailable'> = {};
    const details: Record<string, Omit<CheckReport, 'ok'>> = {};
    let ready = true;
    let degraded = false;
    results.forEach((result, index) => {
      const name = names[index]!;
      if (result.status === 'rejected') request.log.warn({ component: name, err: result.reason }, 'readiness check failed');
      const ok = result.status === 'fulfilled' && (!result.value || result.value.ok);
      if (result.status === 'fulfilled' && result.value) {
        const { ok: _ok, ...rest } = result.value;
        details[name] = rest;
        if (!ok) request.log.warn({ component: name, ...rest }, 'not ready');
      }
      const partial = ok && result.status === 'fulfilled' && !!result.value?.degraded?.length;
      report[name] = partial ? 'degraded' : ok ? 'ok' : 'unavailable';
      ready &&= ok;
      degraded ||= partial;
    });
    // Degraded is still ready: taking the instance out of rotation would stop every other tenant too.
    const status = !ready ? 'unavailable' : degraded ? 'degraded' : 'ready';
    return reply.code(ready ? 200 : 503).send({ status, checks: report, ...details });
  });
}
