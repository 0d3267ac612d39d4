// Scale-out on Postgres + NATS JetStream, with real processes: two `stylist serve --role
// sync,ingest` workers (one sync slot each, unless a test says otherwise) on one database and one
// NATS prefix; this process runs the API, the projections and the scheduler. Two syncs run at once, one on each worker; a worker
// killed with SIGKILL mid-sync loses its job to the other within the heartbeat timeout plus a few
// seconds, and every product is imported once. Each store holds its second page until the test
// lets go, so "mid-sync" is a state, not a guess about timing. The organization's sync limit holds
// across the processes.
import t, { type Test } from 'tap';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { startProcessCluster } from '../support/process-cluster.js';
import { loadShopifyFixtures, shopifyFixturesAvailable, startShopifyStore } from '../support/shopify-store.js';

const serverUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const skip = !serverUrl || !natsUrl ? 'needs DATABASE_URL and NATS_URL (npm run test:integration)' : shopifyFixturesAvailable() ? false : 'needs ../shared/fixtures/shopify';
const HEARTBEAT_TIMEOUT_S = 5;
const SCHEDULER_INTERVAL_S = 1;

type Json = Record<string, any>;

async function cluster(t: Test, workerCount: number, settings: Record<string, string> = {}) {
  const { app, workers, organization } = await startProcessCluster(t, {
    label: 'scaleout',
    settings: {
      SYNC_HEARTBEAT_TIMEOUT_SECONDS: String(HEARTBEAT_TIMEOUT_S),
      SYNC_SCHEDULER_INTERVAL_SECONDS: String(SCHEDULER_INTERVAL_S),
      // One slot per process, and the test's stores all belong to one organization.
      SYNC_CONCURRENCY: '1',
      SYNC_MAX_PER_ORGANIZATION: '2',
      // The fake stores listen on 127.0.0.1.
      ...LOCAL_STORES_ENV,
      ...settings,
    },
    apiRoles: ['scheduler'],
    workerRoles: 'sync,ingest',
    workers: workerCount,
    organization: 'Scale Boutique',
  });
  const headers = { authorization: `Bearer ${organization.privateKey}` };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<Json> => {
    const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json();
  };
  const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const dead = workers.find((worker) => worker.process.exitCode !== null && !worker.process.killed);
      if (dead) throw new Error(`${dead.name} exited\n${dead.tail.join('\n')}`);
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A dataset with one source on a store that holds page 2 until released; resolves with its first job. */
  const connectedStore = async (name: string) => {
    const store = await startShopifyStore(t, { products: loadShopifyFixtures(), photos: 'none' });
    store.hangFrom(2);
    const datasetId = (await call('POST', '/v1/datasets', { name })).datasetId as string;
    const base = `/v1/datasets/${datasetId}`;
    const sourceId = (await call('POST', `${base}/sources`, { type: 'shopify-api', endpoint: store.url, syncPeriod: 0 })).source.sourceId as string;
    const jobId = (await call('GET', `${base}/sources/${sourceId}/sync/jobs`)).jobs[0].jobId as string;
    const job = () => call('GET', `${base}/sources/${sourceId}/sync/jobs/${jobId}`).then((body) => body.job as Json);
    const items = () => call('GET', base).then((body) => body.dataset.items as Record<string, number>);
    const total = () => call('GET', `${base}/items?limit=1`).then((body) => body.pagination.total as number);
    return { store, datasetId, job, items, total };
  };
  const pidOf = (job: Json) => Number(String(job.worker?.workerId ?? '').split('/')[1]);
  return { workers, until, connectedStore, pidOf };
}

t.test('two worker processes with one sync slot each run two syncs at once', { skip, timeout: 180_000 }, async (t) => {
  const { workers, until, connectedStore, pidOf } = await cluster(t, 2);
  const [first, second] = [await connectedStore('Store one'), await connectedStore('Store two')];
  // Both runs hold a page-2 request open at the same moment: they overlap, one on each process.
  const running = await until(
    'both syncs processing',
    () => Promise.all([first.job(), second.job()]),
    (jobs) => jobs.every((job) => job.status === 'processing') && first.store.requests.some((r) => r.page === 2) && second.store.requests.some((r) => r.page === 2),
    60_000,
  );
  t.same(running.map(pidOf).sort(), workers.map((worker) => worker.pid).sort(), 'each worker process runs one of them');
  first.store.release();
  second.store.release();
  const products = loadShopifyFixtures().length;
  for (const store of [first, second]) {
    const done = await until('the sync to finish', store.job, (job) => job.status === 'completed' || job.status === 'failed', 60_000);
    t.equal(done.status, 'completed', done.result?.error ?? 'completed');
    t.equal(done.result.stats.added, products, 'every product of the store queued');
  }
});

t.test('a worker killed mid-sync loses its job to the other within the heartbeat timeout, and every product is imported once', { skip, timeout: 180_000 }, async (t) => {
  const { workers, until, connectedStore, pidOf } = await cluster(t, 2);
  const shop = await connectedStore('Store');
  const claimed = await until('the sync to be claimed mid-fetch', shop.job, (job) => job.status === 'processing' && shop.store.requests.some((r) => r.page === 2), 60_000);
  const victim = workers.find((worker) => worker.pid === pidOf(claimed));
  if (!victim) throw new Error(`no worker process ${pidOf(claimed)} (job worker ${claimed.worker?.workerId})`);
  const survivor = workers.find((worker) => worker !== victim)!;

  victim.process.kill('SIGKILL');
  const killedAt = Date.now();
  await victim.exited;
  shop.store.release(); // the survivor's run reads the whole feed

  await until('another worker to claim the job', shop.job, (job) => job.status === 'processing' && pidOf(job) === survivor.pid, (HEARTBEAT_TIMEOUT_S + 30) * 1000);
  const recoverySeconds = (Date.now() - killedAt) / 1000;
  const bound = HEARTBEAT_TIMEOUT_S + SCHEDULER_INTERVAL_S + 5;
  t.ok(recoverySeconds <= bound, `resumed on the other worker ${recoverySeconds.toFixed(1)} s after the kill (heartbeat timeout ${HEARTBEAT_TIMEOUT_S} s; bound ${bound} s)`);

  const done = await until('the sync to finish', shop.job, (job) => job.status === 'completed' || job.status === 'failed', 60_000);
  t.equal(done.status, 'completed', done.result?.error ?? 'completed');
  const products = loadShopifyFixtures().length;
  t.equal(done.result.stats.added, products, 'the resumed run queued every product');
  const items = await until('every item active', shop.items, (counts) => (counts.active ?? 0) >= products || (counts.failed ?? 0) > 0, 90_000);
  t.same({ active: items.active, failed: items.failed ?? 0 }, { active: products, failed: 0 }, `${products} of ${products} products imported`);
  t.equal(await shop.total(), products, 'each product once');
});

t.test('two worker processes hold one organization to SYNC_MAX_PER_ORGANIZATION (1): its second sync waits for the first, then runs', { skip, timeout: 180_000 }, async (t) => {
  const { until, connectedStore } = await cluster(t, 2, { SYNC_CONCURRENCY: '4', SYNC_MAX_PER_ORGANIZATION: '1' });
  const [first, second] = [await connectedStore('Store one'), await connectedStore('Store two')];
  const reading = (shop: typeof first) => shop.store.requests.length > 0;
  const started = await until('one sync to hold its store', () => Promise.all([first.job(), second.job()]), () => reading(first) || reading(second), 60_000);
  const [running, waiting] = reading(first) ? [first, second] : [second, first];
  // Both processes have free slots; the organization has none.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  t.notOk(reading(waiting), 'the second store is not read while the first sync holds the organization’s slot');
  t.equal((await waiting.job()).status, 'pending', `its job waits (jobs then: ${started.map((job) => job.status).join(', ')})`);

  running.store.release();
  waiting.store.release();
  const done = await until('the first sync to finish', running.job, (job) => job.status === 'completed' || job.status === 'failed', 60_000);
  t.equal(done.status, 'completed', done.result?.error ?? 'completed');
  const next = await until('the waiting sync to finish', waiting.job, (job) => job.status === 'completed' || job.status === 'failed', 60_000);
  t.equal(next.status, 'completed', next.result?.error ?? 'completed');
  t.ok(Date.parse(next.worker.startedAt) >= Date.parse(done.result.completedAt), 'it started once the first had finished');
});
