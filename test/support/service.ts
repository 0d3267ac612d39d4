// The service's API as `stylist serve` builds it, on a database of the test's own (PGlite in
// memory, or a fresh schema on the integration run), with the operator commands of the CLI.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '../../api/logging.js';
import { buildServiceApi } from '../../app/api.js';
import { executeCommand } from '../../app/cli/execute.js';
import { openPlatform, type Platform } from '../../app/platform.js';
import { startWorkers } from '../../app/workers.js';
import { deleteStreams } from './nats.js';
import { loadConfig } from '../../infra/config/config.js';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { integrationDatabaseUrl, openTestDatabase, type Teardown } from './database.js';

export interface TestService {
  app: FastifyInstance;
  platform: Platform;
  /** Runs an operator command (`['key', 'create', …]`) exactly as the CLI would; throws its error. */
  cli(argv: string[]): Promise<Record<string, any>>;
  /** With `deferWorkers`: starts the `workers` roles now (once). */
  startWorkers(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  now?: () => Date;
  /** A database another service of the same test already uses (two API processes, one Postgres). */
  shareWith?: TestService;
  maxConnections?: number;
  /** Worker roles to run beside the API (`['ingest']`), as `stylist serve` would. */
  workers?: string[];
  /** Start the `workers` roles only when the test calls `startWorkers()` (work queued before waits for them). */
  deferWorkers?: boolean;
  /** Widget preflight's cache entries live this long without a change (default 10 s). */
  preflightCacheTtlMs?: number;
}

export async function startTestService(t: Teardown, options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-api-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const database = options.shareWith
    ? await secondConnection(t, options.shareWith.platform.database, options.maxConnections)
    : await openTestDatabase(t, { maxConnections: options.maxConnections });
  // Workers run on JetStream in the integration run, each test on streams of its own.
  const natsUrl = options.workers?.length ? process.env.NATS_URL : undefined;
  const queue: Record<string, string> = natsUrl ? { NATS_URL: natsUrl, NATS_PREFIX: `t${randomBytes(6).toString('hex')}` } : {};
  const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 's'.repeat(40), LOG_LEVEL: 'silent', ...queue, ...options.env });
  const platform = await openPlatform(config, createLogger({ level: 'silent' }), { database });
  await platform.projections.start();
  // As `stylist serve` runs it beside the projections: analytics generations fill in the background.
  platform.analytics.start();
  const app = await buildServiceApi(platform, { now: options.now, preflightCacheTtlMs: options.preflightCacheTtlMs });
  let workers: Awaited<ReturnType<typeof startWorkers>> | null = null;
  const startRoles = async () => {
    if (!workers && options.workers?.length) workers = await startWorkers(platform, options.workers, platform.logger);
  };
  if (!options.deferWorkers) await startRoles();
  t.teardown(async () => {
    await app.close();
    await workers?.stop();
    await platform.close();
    if (natsUrl) await deleteStreams(natsUrl, `${queue.NATS_PREFIX}_`);
  });
  return {
    app,
    platform,
    cli: async (argv) => {
      const answer = await executeCommand(platform, argv);
      if (!answer.ok) throw new Error(answer.error);
      return answer.result as Record<string, any>;
    },
    startWorkers: startRoles,
  };
}

/**
 * Another API process on the same database: on Postgres a pool of its own on the same schema;
 * PGlite admits one connection per process, so there the two instances share it.
 */
async function secondConnection(t: Teardown, shared: Database, maxConnections?: number): Promise<Database> {
  if (shared.kind !== 'postgres' || !integrationDatabaseUrl) return shared;
  const schema = /search_path=(\w+)/.exec(String(shared.clientConfig?.options ?? ''))?.[1];
  const database = await openDatabase({ url: integrationDatabaseUrl, schema, maxConnections });
  t.teardown(() => database.close());
  return database;
}

const sharedServices = new Map<string, Promise<TestService>>();

/**
 * One service per test file and set of options, torn down when the file ends: for tests that each
 * work in an organization of their own and change nothing process-wide (a service costs about a
 * second to start and stop, and some files start one per test). A test that stops projections,
 * sets a clock or needs an environment of its own starts its own with startTestService.
 */
export function sharedTestService(options: Pick<TestServiceOptions, 'workers' | 'env'> = {}): Promise<TestService> {
  const key = JSON.stringify(options);
  let service = sharedServices.get(key);
  if (!service) {
    service = import('tap').then(({ default: root }) => startTestService(root, options));
    sharedServices.set(key, service);
  }
  return service;
}
