// `stylist serve`: the HTTP API and the worker roles in one process, or only those named by --role.
import type { FastifyInstance } from 'fastify';
import { createLogger } from '../api/logging.js';
import type { Config } from '../infra/config/config.js';
import { openAdminChannel, type AdminChannel } from './admin.js';
import { buildServiceApi } from './api.js';
import { executeCommand } from './cli/execute.js';
import { lockDataDir } from './lock.js';
import { workersFor } from '../workers/index.js';
import { seedDemo } from './demo.js';
import { startWorkers } from './workers.js';
import { openPlatform, type Platform } from './platform.js';
import { ensureDataDir } from './data-dir.js';
import { startupSummary } from './startup-summary.js';
import { isProjectionRole, lanesOfRoles } from './projection-roles.js';
import { webBundles } from '../infra/web/bundles.js';
import { autovacuumOff, startUpkeep } from '../infra/db/upkeep.js';

// `projections` runs both projection lanes; `projections-catalogue` and `projections-shopper` one
// each (app/projection-roles.ts). The default (no --role) runs every role but these two, which
// `projections` covers.
export const ROLES = ['api', 'ingest', 'sync', 'agent', 'scheduler', 'projections', 'projections-catalogue', 'projections-shopper'] as const;
export type Role = (typeof ROLES)[number];
const DEFAULT_ROLES: readonly Role[] = ['api', 'ingest', 'sync', 'agent', 'scheduler', 'projections'];

export interface RunningService {
  url?: string;
  platform: Platform;
  app?: FastifyInstance;
  /** Stops taking work, lets in-flight requests and jobs finish (or gives them back), closes the stores. */
  shutdown(): Promise<void>;
}

export async function serve(config: Config, roles: readonly Role[] = DEFAULT_ROLES): Promise<RunningService> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const cleanups: Array<() => Promise<void>> = [];
  await ensureDataDir(config.dataDir);
  if (!config.databaseUrl) {
    const lock = await lockDataDir(config.dataDir);
    cleanups.push(() => lock.release());
  }
  let platform: Platform;
  try {
    platform = await openPlatform(config, logger);
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup();
    throw error;
  }
  cleanups.unshift(() => platform.close());
  if (platform.migrated.length) logger.info({ applied: platform.migrated }, 'read-model migrations applied');
  // PGlite has no autovacuum: the embedded database vacuums and analyses itself (infra/db/upkeep.ts).
  if (platform.database.kind === 'pglite') {
    const upkeep = startUpkeep(platform.database.db, { log: logger });
    // Before the database closes (cleanups run first to last; platform.close() is already in).
    cleanups.unshift(() => upkeep.stop());
  } else if (await autovacuumOff(platform.database.db).catch(() => false)) {
    logger.warn(
      {},
      'Postgres runs with autovacuum off: the read models’ rewritten rows are never reclaimed and queries are planned without statistics; turn autovacuum on (its default), or run VACUUM ANALYZE after large loads',
    );
  }
  const lanes = lanesOfRoles(roles);
  if (lanes.length) await platform.projections.start(lanes);
  // The analytics builder fills the shopper lane's analytics generations from history.
  if (lanes.includes('shopper')) platform.analytics.start();

  const admin: AdminChannel = await openAdminChannel(config.dataDir, (argv, progress) => executeCommand(platform, argv, progress), {
    onLate: (argv) => logger.warn({ command: argv.slice(0, 2).join(' ') }, 'an admin command arrived after the CLI had given up on it; not run'),
  });
  cleanups.unshift(() => admin.close());

  const workers = await startWorkers(platform, roles, logger);
  // Stop the consumers before anything else closes: in-flight jobs finish or are given back.
  cleanups.unshift(() => workers.stop());
  for (const role of roles.filter((r) => r !== 'api' && !isProjectionRole(r))) {
    const subjects = workersFor([role]).map((w) => w.subject);
    logger.info({ role, subjects }, subjects.length ? 'role enabled' : 'role enabled; no workers registered for it yet');
  }

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (roles.includes('api')) {
    app = await buildServiceApi(platform, { warmSearch: true });
    url = await app.listen({ port: config.port, host: config.host });
    // app.close() first: stop accepting requests and finish the ones in flight before the stores go.
    cleanups.unshift(() => app!.close());
  }
  logger.info({ roles, projectionLanes: lanes, url, eventStore: platform.eventStore.kind, database: platform.database.kind, queue: platform.queue.kind, objects: platform.objects.kind }, 'stylist is running');
  if (process.stdout.isTTY) process.stdout.write(`${startupSummary(config, platform, url, roles).join('\n')}\n`);
  // The scripts are built before the first shopper asks for them.
  if (app) void webBundles().catch((error: unknown) => logger.warn({ err: error }, 'the widget and demo storefront scripts could not be built'));

  // The embedded default serves a catalogue at once: the demo organization's store, loaded in the
  // background through the merchant path (`stylist demo seed` does the same on any deployment).
  if (config.demo.seedAtStart && !config.databaseUrl && lanes.includes('catalogue') && roles.includes('api')) {
    const seeding = seedDemo(platform).then(
      (seeded) => logger.info({ datasetId: seeded.datasetId, products: seeded.products, queued: seeded.queued, unchanged: seeded.unchanged }, 'demo catalogue loaded'),
      (error: Error) => logger.warn({ err: error }, 'demo catalogue not loaded'),
    );
    cleanups.unshift(() => seeding);
  }

  let stopping: Promise<void> | undefined;
  return {
    url,
    platform,
    app,
    shutdown: () =>
      (stopping ??= (async () => {
        for (const cleanup of cleanups) {
          await cleanup().catch((error: Error) => logger.error({ err: error }, 'error while shutting down'));
        }
        logger.info('stopped');
      })()),
  };
}

export function parseRoles(text: string | undefined): Role[] {
  if (!text) return [...DEFAULT_ROLES];
  const roles = text.split(',').map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length || !roles.length) throw new Error(`--role takes a comma-separated list of ${ROLES.join(', ')} (got ${JSON.stringify(text)})`);
  return roles as Role[];
}
