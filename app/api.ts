// The service's HTTP API as `stylist serve` runs it: key lookups that follow the event store,
// the demo organization, authentication, metering, idempotency and every endpoint group.
// Tests build the same thing on their own database, so the wiring under test is the real one.
import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../api/app.js';
import { TurnRelay } from '../api/agent-relay.js';
import { webBundles } from '../infra/web/bundles.js';
import { listWidgetPresets } from '../projections/queries/widget-presets.js';
import { BodyBudget } from '../api/body-budget.js';
import { openChatModel } from '../infra/models/index.js';
import { KeyDirectory } from '../api/auth/key-directory.js';
import { SessionLiveness } from '../api/auth/session-liveness.js';
import { ShopperEventRecorder } from '../commands/shopper-events.js';
import { PREFLIGHT_READ_MODELS, PreflightCache } from '../api/preflight-cache.js';
import type { EventLimits } from '../api/routes/events.js';
import { endpointGroups } from '../api/routes/index.js';
import { ensureDemoOrganization } from '../commands/demo.js';
import { DEMO_ORGANIZATION_ID } from '../domain/demo.js';
import { demoPlan } from '../domain/plan.js';
import { sharpTransformer } from '../infra/images/transform.js';
import { ImageDelivery, imageJobSlots } from '../infra/images/variants.js';
import { LookRenderer } from '../infra/images/look-renderer.js';
import { outboundClient } from '../infra/http/outbound.js';
import { createOpenAiImageModel } from '../infra/models/openai-images.js';
import { matchSlots } from '../api/routes/match.js';
import { createVisionMatcher } from '../infra/models/openai-vision-match.js';
import { postgresUsageStore } from '../infra/metering/usage-store.js';
import type { Platform } from './platform.js';

export interface ServiceApiOptions {
  /** The clock of metering and idempotency; tests move it. */
  now?: () => Date;
  /** Key lookup cache lifetime (default 60 s, at most 5 minutes). */
  keyCacheTtlMs?: number;
  /** Load every active dataset into the search memory at once, so no shopper waits for it (`stylist serve`). */
  warmSearch?: boolean;
  /** Per-minute bounds of POST /v1/events (defaults in api/routes/events.ts); benchmarks raise the per-address one. */
  eventLimits?: Partial<EventLimits>;
  /** Keep widget preflight's presets and stores in memory (default true; benchmarks compare without). */
  cachePreflight?: boolean;
  /** How long a preflight cache entry may live without a change seen on the event store (default 10 s). */
  preflightCacheTtlMs?: number;
}

export async function buildServiceApi(platform: Platform, options: ServiceApiOptions = {}): Promise<FastifyInstance> {
  const { config, logger } = platform;
  const keys = new KeyDirectory({ db: platform.database.db, ttlMs: options.keyCacheTtlMs });
  platform.keys = keys;
  await keys.follow(platform.eventStore, (position) => platform.projections.waitFor(position, ['organizations', 'api_keys'], 60_000), { log: logger, cache: 'api keys' });

  // Widget preflight's presets and stores, forgotten when a change to them reaches the event store
  // (the subscription ends when the event store closes, like the key directory's).
  const preflightCache = new PreflightCache({ db: platform.database.db, ttlMs: options.preflightCacheTtlMs });
  await preflightCache.follow(platform.eventStore, (position) => platform.projections.waitFor(position, PREFLIGHT_READ_MODELS, 60_000), { log: logger, cache: 'widget preflight' });

  const plan = demoPlan(config.demo.quota, config.demo.rpm);
  const seeded = await ensureDemoOrganization(platform.eventStore, plan, new Date().toISOString());
  if (seeded) {
    logger.info({ organizationId: DEMO_ORGANIZATION_ID }, 'demo organization created');
    await platform.projections.waitFor(seeded, ['organizations'], 30_000).catch(() => {
      logger.warn('demo organization not projected yet: is a projections role running?');
    });
  }

  // Search embeds the shopper's words with the model that embedded the catalogue.
  const search = platform.search();
  const memory = search.memory;
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
  const imageLimits = config.images;
  // One pool of sharp slots for the process (IMAGE_TRANSFORM_SLOTS, else one per core), shared by
  // image variants, looks and match: apart, each with a slot per core, they could run three times
  // as many sharp jobs as there are cores. Turns are fair across routes (owners `address:<ip>`,
  // `org:<id>`); its waiting bounds (IMAGE_QUEUE, IMAGE_QUEUE_PER_ADDRESS) are pool-wide, and looks
  // and match keep their own shorter lines in front of it.
  const sharpSlots = imageJobSlots({
    slots: imageLimits.slots,
    slotsPerAddress: imageLimits.slotsPerAddress,
    avifSlots: imageLimits.avifSlots,
    maxQueued: imageLimits.maxQueued,
    maxQueuedPerAddress: imageLimits.maxQueuedPerAddress,
  });
  const images = new ImageDelivery({
    objects: platform.objects,
    transformer: sharpTransformer({ avifEffort: imageLimits.avifEffort }),
    slotPool: sharpSlots,
    avifCost: imageLimits.avifCost,
    missRate: { perMinute: imageLimits.missesPerMinute, burst: imageLimits.missBurst },
    variantBudgetBytes: imageLimits.variantBudgetBytes,
    cacheBytes: imageLimits.cacheBytes,
    originalReads: imageLimits.originalReads,
    onStoreError: (error, key) => logger.warn({ err: error, key }, 'an image variant could not be kept in (or evicted from) the object store; it was still served'),
  });
  // The variants already kept count against the budget: learnt in the background.
  void images.scanStore();
  // Looks (POST /v2/agent/looks): LOOKS_RENDER_SLOTS in flight (model calls included), their sharp
  // work in the shared pool; drawn by the image model when one is configured.
  const imageModel = config.looks.imageModel;
  const looks = new LookRenderer({
    objects: platform.objects,
    model: imageModel ? createOpenAiImageModel({ model: imageModel.model, apiKey: imageModel.apiKey, baseURL: imageModel.baseUrl, timeoutMs: config.looks.imageTimeoutMs }) : null,
    modelTimeoutMs: config.looks.imageTimeoutMs,
    slots: config.looks.renderSlots || availableParallelism(),
    maxWaiting: config.looks.renderQueue,
    maxWaitingPerOwner: Math.ceil(config.looks.renderQueue / 2),
    sharpSlots,
  });
  const usage = postgresUsageStore(platform.database.db);
  const relay = new TurnRelay({
    channel: platform.channel,
    queue: platform.queue,
    logger,
    pickupTimeoutMs: config.agent.pickupTimeoutMs,
    silenceMs: config.agent.silenceMs,
    turnTimeoutMs: config.agent.turnTimeoutMs,
    maxPerOrganization: config.agent.maxPerOrganization,
  });
  platform.relay = relay;
  // Widget sessions: one recorder of their streams for the events and search routes, and whether
  // a session's key and organization still exist (checked again within EVENTS_SESSION_CHECK_SECONDS).
  const eventLimits = { ...config.events, ...options.eventLimits };
  const sessions = new ShopperEventRecorder(platform.eventStore, { limits: eventLimits });
  const liveness = new SessionLiveness(platform.eventStore, { ttlMs: config.events.sessionCheckMs });
  const app = await buildApi({
    logger,
    readiness: platform.readiness,
    trustProxy: config.trustProxy,
    timeouts: config.serverTimeouts,
    database: platform.database,
    now: options.now,
    authentication: { keys, serverSecret: platform.secret, demo: { key: config.demo.key, organizationId: DEMO_ORGANIZATION_ID, plan } },
    usage,
    routes: endpointGroups({
      objects: platform.objects,
      eventStore: platform.eventStore,
      db: platform.database.db,
      waitFor: (position, projections) => platform.projections.waitFor(position, projections),
      analyticsTimezoneWaitMs: config.projections.analyticsTimezoneWaitMs,
      serverSecret: platform.secret,
      preflightCache: options.cachePreflight === false ? undefined : preflightCache,
      eventLimits,
      sessions,
      liveness,
      onSessionRecordError: (error) => logger.warn({ err: error }, 'search results could not be recorded on their widget session'),
      queue: platform.queue,
      uploadBudget: new BodyBudget({ capacity: config.uploadBudgetBytes, ...config.uploadLimits }),
      relay,
      thinkingLevels: openChatModel(config).thinkingLevels,
      maxChats: config.agent.maxChats,
      bundles: webBundles,
      demoKey: config.demo.key,
      demoThemes: async () => (await listWidgetPresets(platform.database.db, DEMO_ORGANIZATION_ID)).map(({ id, name }) => ({ id, name })),
      search,
      images,
      looks,
      outbound: outboundClient(config.outbound.allowPrivate),
      // POST /v2/agent/match: photos read in the shared pool behind the route's own line (MATCH_SLOTS,
      // MATCH_MAX_QUEUED); the vision model names the pieces when one is configured.
      match: {
        slots: matchSlots(config.agent.matchSlots ?? availableParallelism(), config.agent.matchMaxQueued),
        sharpSlots,
        vision: config.openai?.visionModel ? createVisionMatcher({ model: config.openai.visionModel, apiKey: config.openai.apiKey, baseURL: config.openai.baseUrl, timeoutMs: config.agent.matchTimeoutMs }) : null,
        onVisionError: (error) => logger.warn({ err: error }, 'the vision model did not name the pieces of a photo; it was read offline'),
      },
      baseUrl: config.baseUrl,
    }),
  });
  return app;
}
