// The composition root: reads the configuration and opens the adapter behind each port, the
// embedded default (PGlite, in-process queue, files) unless a URL picks the production one.
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../infra/config/config.js';
import { openDatabase, type Database } from '../infra/db/database.js';
import type { EventStore } from '../infra/eventstore/port.js';
import { openPostgresEventStore } from '../infra/eventstore/postgres.js';
import { probeEventStore } from '../infra/eventstore/probe.js';
import { upcasting } from '../infra/eventstore/upcasting.js';
import { openFileObjectStore } from '../infra/objects/files.js';
import type { ObjectStore } from '../infra/objects/port.js';
import { createInProcessQueue } from '../infra/queue/inprocess.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { deadLetterStore, type DeadLetterStore } from '../infra/queue/dead-letters.js';
import { projectionLanes } from '../projections/index.js';
import { migrate } from '../projections/migrations.js';
import { ProjectionRunner } from '../projections/runner.js';
import { AnalyticsBuilder } from '../projections/analytics-builder.js';
import { createInProcessChannel } from '../infra/channel/inprocess.js';
import type { TurnChannel } from '../infra/channel/port.js';
import { openModels } from '../infra/models/index.js';
import type { Embedder } from '../infra/models/port.js';
import { SEARCH_MEMORY_READ_MODELS, SearchMemory } from '../projections/search-memory.js';
import { followStaleness } from '../api/stale-follower.js';
import { ensureDataDir, narrowTreeToOwner } from './data-dir.js';
import { serverSecret } from './secret.js';
import type { KeyDirectory } from '../api/auth/key-directory.js';
import type { TurnRelay } from '../api/agent-relay.js';
import type { ReadinessChecks } from '../api/routes/health.js';

export interface Platform {
  config: Config;
  logger: Logger;
  database: Database;
  eventStore: EventStore;
  queue: WorkQueue;
  /** Messages the queue gave up on, of every subject (`stylist queue dead-letters`). */
  deadLetters: DeadLetterStore;
  objects: ObjectStore;
  /** Agent turns' frames, worker to API, and cancels, API to worker: NATS subjects, or in-process. */
  channel: TurnChannel;
  /**
   * The search memory and the query embedder of this process, made on first use: the API's search
   * and the agent worker's tools share them, so a process holds one copy of the catalogue's index.
   */
  search(): { memory: SearchMemory; embedder: Embedder };
  projections: ProjectionRunner;
  /** Fills analytics generations from history (a new timezone, a rebuild); started with the projections role. */
  analytics: AnalyticsBuilder;
  /** Key lookups of the API role; commands run in this process drop what they make stale. */
  keys?: KeyDirectory;
  /** The API role's relay of agent turns (benchmarks read what its hops cost). */
  relay?: TurnRelay;
  secret: string;
  /** Names of the migrations applied while opening. */
  migrated: string[];
  readiness: ReadinessChecks;
  close(): Promise<void>;
}

/** A start-up failure whose message is the one line to print. */
export class StartupError extends Error {
  override name = 'StartupError';
}

export interface PlatformOverrides {
  /** An already open database (tests: PGlite in memory or a schema of their own); the caller closes it. */
  database?: Database;
}

export async function openPlatform(config: Config, logger: Logger, overrides: PlatformOverrides = {}): Promise<Platform> {
  const opened: Array<{ close(): Promise<void> }> = [];
  const step = async <T extends { close(): Promise<void> }>(what: string, open: () => Promise<T>): Promise<T> => {
    try {
      const resource = await open();
      opened.push(resource);
      return resource;
    } catch (error) {
      await closeAll(opened.reverse());
      throw new StartupError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  if (!config.databaseUrl || !config.s3) {
    await ensureDataDir(config.dataDir).catch((error: Error) => {
      throw new StartupError(`DATA_DIR ${config.dataDir} cannot be created: ${error.message}`);
    });
  }
  const secret = await serverSecret(config.dataDir, config.secret);
  const database =
    overrides.database ??
    (await step('database', () => openDatabase({
          url: config.databaseUrl,
          pgliteDir: path.join(config.dataDir, 'pglite'),
          onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost; the pool opens a new one'),
        })));
  if (!config.databaseUrl && !overrides.database) {
    const narrowed = await narrowTreeToOwner(path.join(config.dataDir, 'pglite'));
    if (narrowed) logger.debug({ narrowed }, 'embedded database files narrowed to the service user');
  }
  let migrated: string[];
  try {
    migrated = (await migrate(database.db)).applied;
  } catch (error) {
    await closeAll(opened.reverse());
    throw new StartupError(`database migrations failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Deciders and projectors read through the upcaster: they only ever see current, checked events.
  const eventStore = upcasting(
    await step('event store', () =>
      config.eventStoreUrl
        ? openProbedEventStoreDb(config.eventStoreUrl)
        : openPostgresEventStore(database, {
            onConnectionError: (error) => logger.warn({ err: error }, 'event store LISTEN connection lost; reconnecting'),
          }),
    ),
  );
  const deadLetters = deadLetterStore(database.db);
  const queueOptions = { maxInFlight: config.queue.maxInFlight, deadLetters: deadLetters.record };
  const queue = await step('work queue', async () =>
    // The production adapters are loaded only when configured: the embedded default never holds their modules (about 70 MB of RSS together).
    config.natsUrl ? (await import('../infra/queue/jetstream.js')).openJetStreamQueue({ url: config.natsUrl, name: 'stylist', prefix: config.natsPrefix, ...queueOptions }) : createInProcessQueue(queueOptions),
  );
  const objects = await step('object store', () =>
    config.s3 ? import('../infra/objects/s3.js').then(({ openS3ObjectStore }) => openS3ObjectStore(config.s3!)) : openFileObjectStore(path.join(config.dataDir, 'objects')),
  );
  const channel = await step('turn channel', async () =>
    config.natsUrl ? (await import('../infra/channel/nats.js')).openNatsChannel({ url: config.natsUrl, prefix: config.natsPrefix, name: 'stylist-turns' }) : createInProcessChannel(),
  );
  let search: { memory: SearchMemory; embedder: Embedder } | undefined;
  const projections = new ProjectionRunner({ store: eventStore, db: database.db, lanes: projectionLanes, logger });
  const analytics = new AnalyticsBuilder({ store: eventStore, db: database.db, logger });

  // One search memory a process, within SEARCH_MEMORY_MB, its datasets' copies saved in the object
  // store; an archived or deleted dataset leaves it when its event arrives (SearchMemory.staleBy).
  const openSearch = () => {
    const memory = new SearchMemory(database.db, {
      budgetBytes: config.search.memoryBytes,
      snapshots: objects,
      log: logger,
      onError: (error) => logger.warn({ err: error }, 'search memory could not load or catch up; the next search retries'),
    });
    followStaleness(eventStore, (position) => projections.waitFor(position, SEARCH_MEMORY_READ_MODELS, 60_000), { log: logger, cache: 'search memory' }, memory.staleBy).then(
      (following) => memory.stopOnClose(() => following.abort()),
      (error: unknown) => logger.warn({ err: error }, 'search memory is not following dataset events: archived and deleted datasets leave it only when evicted'),
    );
    return { memory, embedder: openModels(config).embedder };
  };
  // Closed in reverse: the runner before the event store it reads, the stores before the database.
  const resources = [...opened].reverse();
  const platform: Platform = {
    config,
    logger,
    database,
    eventStore,
    queue,
    deadLetters,
    objects,
    channel,
    search: () => (search ??= openSearch()),
    projections,
    analytics,
    secret,
    migrated,
    readiness: {
      eventStore: () => eventStore.ping(),
      database: () => database.ping(),
      queue: () => queue.ping(),
      objectStore: () => objects.ping(),
      turnChannel: () => channel.ping(),
      // Poisoned or lagging projections, and the oldest transaction the event store waits for.
      projections: () => projections.readiness(config.projections.lagLimitSeconds),
      // What this process's search memory holds and has dropped (none until it first searches or warms):
      // a growing `evictedSoonAfterLoad` is SEARCH_MEMORY_MB too small for the datasets searched here.
      searchMemory: async () => (search ? { ok: true, ...search.memory.report() } : undefined),
    },
    close: async () => {
      platform.keys?.stop();
      await analytics.stop();
      await projections.stop();
      await search?.memory.close();
      await closeAll(resources);
    },
  };
  return platform;
}

async function closeAll(resources: Array<{ close(): Promise<void> }>): Promise<void> {
  for (const resource of resources) await resource.close().catch(() => {});
}

/** EventStoreDB runs in no CI run: each start proves the server keeps the port's promises first. */
async function openProbedEventStoreDb(url: string): Promise<EventStore> {
  const { openEventStoreDb } = await import('../infra/eventstore/esdb.js');
  const store = await openEventStoreDb(url);
  try {
    await probeEventStore(store);
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}
