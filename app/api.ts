// The service's HTTP API as `stylist serve` runs it: key lookups that follow the event store,
// the demo organization, authentication, metering, idempotency and every endpoint group.
// Tests build the same thing on their own database, so the wiring under test is the real one.
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../api/app.js';
import { BodyBudget } from '../api/body-budget.js';
import { KeyDirectory } from '../api/auth/key-directory.js';
import { endpointGroups } from '../api/routes/index.js';
import { ensureDemoOrganization } from '../commands/demo.js';
import { DEMO_ORGANIZATION_ID } from '../domain/demo.js';
import { demoPlan } from '../domain/plan.js';
import { postgresUsageStore } from '../infra/metering/usage-store.js';
import { openModels } from '../infra/models/index.js';
import { SearchMemory } from '../projections/search-memory.js';
import type { Platform } from './platform.js';

export interface ServiceApiOptions {
  /** The clock of metering and idempotency; tests move it. */
  now?: () => Date;
  /** Key lookup cache lifetime (default 60 s, at most 5 minutes). */
  keyCacheTtlMs?: number;
  /** Load every active dataset into the search memory at once, so no shopper waits for it (`stylist serve`). */
  warmSearch?: boolean;
}

export async function buildServiceApi(platform: Platform, options: ServiceApiOptions = {}): Promise<FastifyInstance> {
  const { config, logger } = platform;
  const keys = new KeyDirectory({ db: platform.database.db, ttlMs: options.keyCacheTtlMs });
  platform.keys = keys;
  await keys.follow(platform.eventStore, (position) => platform.projections.waitFor(position, ['organizations', 'api_keys'], 60_000));

  const plan = demoPlan(config.demo.quota, config.demo.rpm);
  const seeded = await ensureDemoOrganization(platform.eventStore, plan, new Date().toISOString());
  if (seeded) {
    logger.info({ organizationId: DEMO_ORGANIZATION_ID }, 'demo organization created');
    await platform.projections.waitFor(seeded, ['organizations'], 30_000).catch(() => {
      logger.warn('demo organization not projected yet: is a projections role running?');
    });
  }

  // Search embeds the shopper's words with the model that embedded the catalogue.
  const memory = new SearchMemory(platform.database.db, { onError: (error) => logger.warn({ err: error }, 'search memory could not load or catch up; the next search retries') });
  if (options.warmSearch) {
    const started = performance.now();
    void memory.warm().then(
      () => {
        const loaded = memory.stats();
        logger.info({ datasets: loaded.length, items: loaded.reduce((sum, d) => sum + d.items, 0), mb: Math.round(loaded.reduce((sum, d) => sum + d.bytes, 0) / 2 ** 20), ms: Math.round(performance.now() - started) }, 'search memory loaded');
      },
      () => {},
    );
  }
  const usage = postgresUsageStore(platform.database.db);
  const app = await buildApi({
    logger,
    readiness: platform.readiness,
    trustProxy: config.trustProxy,
    database: platform.database,
    now: options.now,
    authentication: { keys, serverSecret: platform.secret, demo: { key: config.demo.key, organizationId: DEMO_ORGANIZATION_ID, plan } },
    usage,
    routes: endpointGroups({
      objects: platform.objects,
      usage,
      eventStore: platform.eventStore,
      db: platform.database.db,
      waitFor: (position, projections) => platform.projections.waitFor(position, projections),
      serverSecret: platform.secret,
      queue: platform.queue,
      uploadBudget: new BodyBudget(config.uploadBudgetBytes),
      search: { memory, embedder: openModels(config).embedder },
    }),
  });
  return app;
}
