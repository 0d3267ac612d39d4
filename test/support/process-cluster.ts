// The service split over processes as the Postgres + NATS integration tests run it: a fresh
// database on the server of DATABASE_URL and a random prefix on NATS_URL; this process runs the
// API and the projections (and the worker roles a test keeps here), and `stylist serve --role …`
// child processes (worker-processes.ts) run the rest on the same database and prefix. One
// organization on the unlimited plan. Everything is killed, deleted and dropped when the test ends.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { createLogger } from '../../api/logging.js';
import { buildServiceApi } from '../../app/api.js';
import { executeCommand } from '../../app/cli/execute.js';
import { openPlatform, type Platform } from '../../app/platform.js';
import { startWorkers } from '../../app/workers.js';
import { loadConfig } from '../../infra/config/config.js';
import { deleteStreams } from './nats.js';
import { freshDatabase, startWorkerProcess, type WorkerProcess } from './worker-processes.js';

export interface ProcessClusterOptions {
  /** Names the database, the data directory and the NATS prefix (letters only: it is part of a database name). */
  label: string;
  /** Settings for every process, this one and the workers (e.g. SYNC_CONCURRENCY). */
  settings: Record<string, string>;
  /** The worker roles this process runs beside the API; [] sends all the work to the worker processes. */
  apiRoles: readonly string[];
  /** The roles of each worker process, as `--role` takes them ("sync,ingest"). */
  workerRoles: string;
  /** Worker processes started before this resolves; `addWorker` starts more. */
  workers: number;
  /** The organization's name. */
  organization: string;
}

export interface ProcessCluster {
  platform: Platform;
  /** The API, not listening: `app.inject`, or `app.listen` for real sockets. */
  app: Awaited<ReturnType<typeof buildServiceApi>>;
  /** The worker processes started so far, in order. */
  workers: WorkerProcess[];
  /** Starts one more worker process; resolves once it says it is running. */
  addWorker(): Promise<WorkerProcess>;
  organization: { organizationId: string; privateKey: string; publicKey: string };
}

export async function startProcessCluster(t: Test, options: ProcessClusterOptions): Promise<ProcessCluster> {
  const database = await freshDatabase(process.env.DATABASE_URL!, options.label);
  const dataDir = await mkdtemp(path.join(tmpdir(), `stylist-${options.label}-`));
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: process.env.NATS_URL!,
    NATS_PREFIX: `${options.label}${randomBytes(5).toString('hex')}`,
    STYLIST_SECRET: 's'.repeat(40),
    ...options.settings,
  };
  const logger = createLogger({ level: 'silent' });
  const platform = await openPlatform(loadConfig({ ...env, DATA_DIR: path.join(dataDir, 'api'), LOG_LEVEL: 'silent' }), logger);
  const workers: WorkerProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [() => platform.close()];
  t.teardown(async () => {
    for (const worker of workers) worker.process.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await deleteStreams(env.NATS_URL, `${env.NATS_PREFIX}_`).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
  });
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  cleanups.unshift(() => app.close());
  const inProcess = await startWorkers(platform, options.apiRoles, logger);
  cleanups.unshift(() => inProcess.stop());
  const addWorker = async () => {
    const n = workers.length + 1;
    const worker = await startWorkerProcess(`${options.workerRoles} worker ${n}`, options.workerRoles, { ...env, DATA_DIR: path.join(dataDir, `worker-${n}`) });
    workers.push(worker);
    return worker;
  };
  for (let i = 1; i <= options.workers; i++) await addWorker();
  const org = await executeCommand(platform, ['org', 'create', '--name', options.organization, '--plan', 'unlimited', '--json']);
  if (!org.ok) throw new Error(org.error);
  return { platform, app, workers, addWorker, organization: org.result as ProcessCluster['organization'] };
}
