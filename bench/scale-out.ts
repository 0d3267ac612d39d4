// What a second worker process adds, on Postgres + NATS JetStream: the same work done by 1 and by
// 2 `stylist serve --role ingest,sync` child processes (8 ingest slots and 1 sync slot each) on one
// database and one NATS prefix; this process runs the API, the projections and the scheduler.
// - ingest: BENCH_SCALE_ITEMS products (the Shopify fixtures replicated with new ids, no photos)
//   uploaded through the API, timed until every one is active. CPU-bound: on a 2-core machine
//   the processes share the same cores, and this process's projections share them too.
// - sync: BENCH_SCALE_SYNCS sources, each on a store that holds its second page for
//   BENCH_SCALE_STORE_DELAY seconds (a slow storefront), timed until every job is completed.
//   Waiting on the store costs no CPU, so these runs overlap across processes.
//   node --import tsx bench/scale-out.ts
//   BENCH_SCALE_ITEMS=5000  BENCH_SCALE_SYNCS=4  BENCH_SCALE_STORE_DELAY=4  BENCH_SCALE_WORKERS=1,2
//   DATABASE_URL=postgres://… (server; a fresh database per run, dropped afterwards)  NATS_URL=nats://…
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { startWorkers } from '../app/workers.js';
import { loadConfig } from '../infra/config/config.js';
import { deleteStreams } from '../test/support/nats.js';
import { LOCAL_STORES_ENV } from '../test/support/outbound.js';
import { loadShopifyFixtures, replicateProducts, shopifyFixturesAvailable, shopifyFixturesDir, startShopifyStore, type FakeShopifyStore } from '../test/support/shopify-store.js';
import { freshDatabase, startWorkerProcess, stopWorkerProcess, type WorkerProcess } from '../test/support/worker-processes.js';
import { DEFAULT_URL } from './eventstore.js';

type Json = Record<string, any>;

interface Row {
  workers: number;
  'ingest items': number;
  'ingest s': number;
  'items/s': number;
  syncs: number;
  'store delay s': number;
  'all syncs s': number;
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(server: string, natsUrl: string, workerCount: number, items: number, syncs: number, delayS: number): Promise<Row> {
  const database = await freshDatabase(server, 'bench_scale');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-scale-'));
  // One sync slot per process, as the measure is what a second process adds; the bench's sources all
  // belong to one organization, so its sync limit is lifted to let them overlap.
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: natsUrl,
    NATS_PREFIX: `bench${randomBytes(4).toString('hex')}`,
    STYLIST_SECRET: 'b'.repeat(40),
    SYNC_SCHEDULER_INTERVAL_SECONDS: '2',
    SYNC_CONCURRENCY: '1',
    SYNC_MAX_PER_ORGANIZATION: String(Math.min(16, Math.max(1, syncs))),
    ...LOCAL_STORES_ENV,
  };
  const logger = createLogger({ level: 'silent' });
  const platform = await openPlatform(loadConfig({ ...env, DATA_DIR: path.join(dataDir, 'api'), LOG_LEVEL: 'silent' }), logger);
  const workers: WorkerProcess[] = [];
  const stores: FakeShopifyStore[] = [];
  const cleanups: Array<() => Promise<unknown>> = [() => platform.close()];
  try {
    await platform.projections.start();
    const app = await buildServiceApi(platform);
    cleanups.unshift(() => app.close());
    const scheduler = await startWorkers(platform, ['scheduler'], logger);
    cleanups.unshift(() => scheduler.stop());
    for (let i = 1; i <= workerCount; i++) workers.push(await startWorkerProcess(`worker ${i}`, 'ingest,sync', { ...env, DATA_DIR: path.join(dataDir, `worker-${i}`) }));

    const org = await executeCommand(platform, ['org', 'create', '--name', 'Bench Boutique', '--plan', 'unlimited', '--json']);
    if (!org.ok) throw new Error(org.error);
    const headers = { authorization: `Bearer ${(org.result as Json).privateKey}` };
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object): Promise<Json> => {
      const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      return response.json();
    };
    const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const dead = workers.find((worker) => worker.process.exitCode !== null);
        if (dead) throw new Error(`${dead.name} exited\n${dead.tail.join('\n')}`);
        const value = await read();
        if (done(value)) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 300)}`);
        await sleep(200);
      }
    };

    // Ingest: uploads of 1,000 until every item is active.
    const products = replicateProducts(loadShopifyFixtures(), items).map((product) => ({ ...product, images: [] }));
    const datasetId = (await call('POST', '/v1/datasets', { name: 'Bench ingest' })).datasetId as string;
    await call('PATCH', `/v1/datasets/${datasetId}/activate`);
    const ingestStarted = performance.now();
    for (let start = 0; start < products.length; start += 1000) {
      const answer = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { products: products.slice(start, start + 1000) });
      if (answer.summary.failed) throw new Error(`upload: ${JSON.stringify(answer.failures?.slice(0, 2))}`);
    }
    const expected = (await call('GET', `/v1/datasets/${datasetId}`)).dataset.items;
    const queued = Object.values(expected as Record<string, number>).reduce((sum, n) => sum + n, 0);
    await until(`${queued} items active`, () => call('GET', `/v1/datasets/${datasetId}`).then((body) => body.dataset.items as Record<string, number>), (counts) => {
      if (counts.failed) throw new Error(`${counts.failed} items failed`);
      return (counts.active ?? 0) >= queued;
    }, 30 * 60_000);
    const ingestS = (performance.now() - ingestStarted) / 1000;
    console.error(`  [${workerCount}w] ingest: ${queued} items active in ${round(ingestS)} s`);

    // Syncs: each store holds page 2 for the delay after it is first asked for it.
    const syncProducts = loadShopifyFixtures().slice(0, 300);
    const jobs: Array<() => Promise<Json>> = [];
    const syncStarted = performance.now();
    for (let i = 0; i < syncs; i++) {
      const store = await startShopifyStore(null, { products: syncProducts, photos: 'none' });
      store.hangFrom(2);
      stores.push(store);
      const id = (await call('POST', '/v1/datasets', { name: `Bench sync ${i}` })).datasetId as string;
      const sourceId = (await call('POST', `/v1/datasets/${id}/sources`, { type: 'shopify-api', endpoint: store.url, syncPeriod: 0 })).source.sourceId as string;
      const jobId = (await call('GET', `/v1/datasets/${id}/sources/${sourceId}/sync/jobs`)).jobs[0].jobId as string;
      jobs.push(() => call('GET', `/v1/datasets/${id}/sources/${sourceId}/sync/jobs/${jobId}`).then((body) => body.job));
    }
    const heldSince = new Map<FakeShopifyStore, number>();
    const finished = await until('every sync completed', async () => {
      for (const store of stores) {
        if (!heldSince.has(store) && store.requests.some((r) => r.page === 2)) heldSince.set(store, performance.now());
        const since = heldSince.get(store);
        if (since !== undefined && performance.now() - since >= delayS * 1000) store.release();
      }
      return Promise.all(jobs.map((job) => job()));
    }, (all) => all.every((job) => job.status === 'completed' || job.status === 'failed'), 10 * 60_000);
    const failed = finished.filter((job) => job.status !== 'completed');
    if (failed.length) throw new Error(`syncs failed: ${failed.map((job) => job.result.error).join('; ')}`);
    const syncsS = (performance.now() - syncStarted) / 1000;
    console.error(`  [${workerCount}w] ${syncs} syncs (store delay ${delayS} s) completed in ${round(syncsS)} s`);

    return { workers: workerCount, 'ingest items': queued, 'ingest s': round(ingestS), 'items/s': Math.round(queued / ingestS), syncs, 'store delay s': delayS, 'all syncs s': round(syncsS) };
  } finally {
    await Promise.all(workers.map((worker) => stopWorkerProcess(worker)));
    for (const cleanup of cleanups) await cleanup().catch((error: Error) => console.error(`bench/scale-out.ts: cleanup: ${error.message}`));
    await Promise.all(stores.map((store) => store.close()));
    await rm(dataDir, { recursive: true, force: true });
    await deleteStreams(natsUrl, `${env.NATS_PREFIX}_`).catch(() => undefined);
    await database.drop();
  }
}

async function main(): Promise<void> {
  if (!shopifyFixturesAvailable()) {
    console.log(`bench/scale-out.ts: ${shopifyFixturesDir} is absent; nothing to measure.`);
    return;
  }
  const items = Number(process.env.BENCH_SCALE_ITEMS) || 5000;
  const syncs = Number(process.env.BENCH_SCALE_SYNCS) || 4;
  const delayS = Number(process.env.BENCH_SCALE_STORE_DELAY) || 4;
  const workerCounts = (process.env.BENCH_SCALE_WORKERS || '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const server = process.env.DATABASE_URL || DEFAULT_URL;
  const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  console.error(`bench/scale-out.ts: ${items} items, ${syncs} syncs; ${workerCounts.join(' and ')} worker process(es); ${cpus().length} cores`);
  const rows: Row[] = [];
  for (const workers of workerCounts) rows.push(await measure(server, natsUrl, workers, items, syncs, delayS));
  console.table(rows);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/scale-out.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, cpu: cpus()[0]?.model, rows }, null, 2));
}

if ((process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) || process.env.BENCH_MAIN) await main();
