// Fair syncs across organizations (issue 12): one organization's slow store cannot hold up
// another's sync, a run that outlives its deadline fails with a reason the merchant can read, and
// one organization runs at most SYNC_MAX_PER_ORGANIZATION syncs at once, the rest waiting their
// turn without holding a worker slot. In-process queue and PGlite here; Postgres and JetStream on
// the integration run.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { startTestService, type TestService } from '../support/service.js';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { startShopifyStore, type FakeShopifyStore } from '../support/shopify-store.js';
import { freeSilentSlots, takeSlot, wakeAllWaiting, waitForSlot } from '../../workers/sync/slots.js';
import { createInProcessQueue } from '../../infra/queue/inprocess.js';
import { until as untilDone } from '../support/until.js';

type Json = Record<string, any>;

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000) => untilDone(what, read, done, { timeoutMs, everyMs: 50 });

/** A few products, enough for a sync to complete; ids and skus unique per store. */
const products = (prefix: number, n = 5): Json[] =>
  Array.from({ length: n }, (_, i) => ({
    id: prefix * 1000 + i,
    title: `Linen shirt ${i}`,
    handle: `linen-shirt-${prefix}-${i}`,
    product_type: 'Shirts',
    vendor: 'Woven',
    body_html: '<p>A linen shirt.</p>',
    tags: [],
    options: [{ name: 'Size', values: ['M'] }],
    variants: [{ id: prefix * 100_000 + i, title: 'M', sku: `SKU-${prefix}-${i}`, price: '49.00', available: true, option1: 'M' }],
    images: [],
  }));

/** An organization with one dataset, connecting sources to stores as the test asks. */
async function organization(service: TestService, name: string) {
  const org = await service.cli(['org', 'create', '--name', name, '--plan', 'unlimited', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<Json> => {
    const response = await service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json();
  };
  const datasetId = (await call('POST', '/v1/datasets', { name })).datasetId as string;
  /** Connects a source (its first sync is requested at once); returns that job's reader. */
  const connect = async (store: FakeShopifyStore) => {
    const base = `/v1/datasets/${datasetId}/sources`;
    const sourceId = (await call('POST', base, { type: 'shopify-api', endpoint: store.url, syncPeriod: 0 })).source.sourceId as string;
    const jobId = (await call('GET', `${base}/${sourceId}/sync/jobs`)).jobs[0].jobId as string;
    return {
      sourceId,
      jobId,
      job: () => call('GET', `${base}/${sourceId}/sync/jobs/${jobId}`).then((body) => body.job as Json),
      logs: () => call('GET', `${base}/${sourceId}/logs`).then((body) => body.logs as Json[]),
      resync: async () => {
        const again = await call('POST', `${base}/${sourceId}/sync/jobs`);
        return () => call('GET', `${base}/${sourceId}/sync/jobs/${again.jobId}`).then((body) => body.job as Json);
      },
    };
  };
  return { organizationId: org.organizationId as string, connect };
}

const finished = (job: Json) => job.status === 'completed' || job.status === 'failed';

t.test("a slow store holds one slot: another organization's sync starts within seconds and completes; the slow run fails at its deadline", async (t) => {
  const DEADLINE_S = 5;
  const service = await startTestService(t, { workers: ['sync'], env: { ...LOCAL_STORES_ENV, SYNC_DEADLINE_SECONDS: String(DEADLINE_S) } });
  const slowStore = await startShopifyStore(t, { photos: 'none', products: products(1) });
  slowStore.hangFrom(1); // never answers: only the deadline ends this run
  const quickStore = await startShopifyStore(t, { photos: 'none', products: products(2) });
  const [slowOrg, quickOrg] = [await organization(service, 'Slow Boutique'), await organization(service, 'Quick Boutique')];

  const slow = await slowOrg.connect(slowStore);
  await until('the slow sync to be fetching', slow.job, (job) => job.status === 'processing' && slowStore.requests.length > 0);

  const requestedAt = Date.now();
  const quick = await quickOrg.connect(quickStore);
  const started = await until('the other organization’s sync to start', quick.job, (job) => job.status !== 'pending', 10_000);
  const startedIn = (Date.now() - requestedAt) / 1000;
  t.ok(startedIn < 3, `the other organization's sync started ${startedIn.toFixed(1)} s after it was requested (bound 3 s)`);
  t.not(started.status, 'failed');
  const done = await until('the other organization’s sync to finish', quick.job, finished);
  t.equal(done.status, 'completed', done.result.error ?? 'completed');
  t.equal(done.result.stats.retrieved, 5);
  t.equal((await slow.job()).status, 'processing', 'while the slow store still holds its run');

  const failed = await until('the slow sync to hit its deadline', slow.job, finished, (DEADLINE_S + 10) * 1000);
  t.equal(failed.status, 'failed');
  t.match(failed.result.error, new RegExp(`^Sync stopped after ${DEADLINE_S} seconds, the longest a sync may run: the store answered too slowly \\(no products had been read\\)\\. Nothing in the catalogue was changed`));
  const ranFor = (Date.parse(failed.result.completedAt) - Date.parse(failed.worker.startedAt)) / 1000;
  t.ok(ranFor >= DEADLINE_S - 0.5 && ranFor < DEADLINE_S + 3, `stopped ${ranFor.toFixed(1)} s after it started (deadline ${DEADLINE_S} s)`);
  t.equal(failed.retries.count, 0, 'a deadline is the store’s failure, not retried as an internal error');
  const [log] = await slow.logs();
  t.match(log, { status: 'failed', jobId: slow.jobId });
  t.ok(log!.entries.some((entry: Json) => entry.level === 'error' && /answered too slowly/.test(entry.message)), 'the log says why');

  // The slot is free at once: the organization's next sync runs as soon as it is asked for.
  slowStore.release();
  const next = await slow.resync();
  const again = await until('the next sync of the slow organization', next, finished);
  t.equal(again.status, 'completed', again.result.error ?? 'completed');
});

t.test('one organization runs at most SYNC_MAX_PER_ORGANIZATION syncs at once; the others wait their turn and all complete', async (t) => {
  const service = await startTestService(t, { workers: ['sync'], env: { ...LOCAL_STORES_ENV, SYNC_MAX_PER_ORGANIZATION: '2', SYNC_CONCURRENCY: '4' } });
  const stores = await Promise.all([1, 2, 3].map((n) => startShopifyStore(t, { photos: 'none', products: products(10 + n) })));
  for (const store of stores) store.hangFrom(1); // each run is held on its first page until released
  const org = await organization(service, 'Three Stores');
  const sources: Array<Awaited<ReturnType<typeof org.connect>>> = [];
  for (const store of stores) sources.push(await org.connect(store));
  const db = service.platform.database.db;

  // Sampled throughout: never more than two of the organization's runs, in the read model or in the slot rows.
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const slots = await db.selectFrom('sync_heartbeats').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', org.organizationId).executeTakeFirstOrThrow();
      const jobs = await db.selectFrom('sync_jobs').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', org.organizationId).where('status', '=', 'processing').executeTakeFirstOrThrow();
      const processing = Number(jobs.n);
      most = Math.max(most, Number(slots.n), processing);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })().catch((error: unknown) => {
    if (sampling) throw error; // after a failure, the teardown closes the database under it
  });

  t.teardown(() => {
    sampling = false;
    return sampler;
  });
  const reading = () => stores.filter((store) => store.requests.length > 0).length;
  const two = await until('two runs reading their stores', () => Promise.all(sources.map((source) => source.job())), () => reading() >= 2);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(reading(), 2, 'the third store is not read while two runs hold the slots');
  const waiting = sources[two.findIndex((job) => job.status === 'pending')]!;
  t.ok(waiting, 'one job is still pending');
  t.equal(Number((await db.selectFrom('sync_waiting').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 1, 'it waits for a slot, not in a worker');

  // One run ends: the waiting job takes its slot.
  const first = sources.findIndex((_, i) => two[i]!.status === 'processing');
  stores[first]!.release();
  await until('the first run to finish', sources[first]!.job, finished);
  await until('the waiting job to start', waiting.job, (job) => job.status === 'processing');
  for (const store of stores) store.release();
  const done = await Promise.all(sources.map((source) => until('every sync to finish', source.job, finished)));
  sampling = false;
  await sampler;
  t.same(done.map((job) => job.status), ['completed', 'completed', 'completed']);
  t.equal(most, 2, 'at most two at once, and two did run at once');
});

t.test('slots: only as many runs as the limit win, even all at once; a waiting job is announced once a slot is free; a silent holder\'s slot is freed', async (t) => {
  const service = await startTestService(t);
  const db = service.platform.database.db;
  const organizationId = randomUUID();
  const job = () => ({ jobId: randomUUID(), sourceId: randomUUID(), datasetId: randomUUID(), organizationId });
  const jobs = Array.from({ length: 6 }, job);
  const outcomes = await Promise.all(jobs.map((ref, i) => takeSlot(db, { job: ref, workerId: `worker-${i}`, maxPerOrganization: 2 })));
  t.same(outcomes.filter((outcome) => outcome === 'taken').length, 2, 'two slots, two winners');
  t.same(outcomes.filter((outcome) => outcome === 'full').length, 4);
  const holder = outcomes.indexOf('taken');
  t.equal(await takeSlot(db, { job: jobs[holder]!, workerId: 'another', maxPerOrganization: 2 }), 'busy', 'a held job is not taken twice');
  t.equal(await takeSlot(db, { job: { ...job(), organizationId: randomUUID() }, workerId: 'w', maxPerOrganization: 2 }), 'taken', 'another organization has slots of its own');

  const queue = createInProcessQueue();
  t.teardown(() => queue.close());
  const announced: string[] = [];
  await queue.consume<Json>('sync.jobs', async (message) => void announced.push(message.payload.jobId));
  const [low, high] = [jobs[2]!, jobs[3]!];
  await waitForSlot(db, { ...low, priority: 0, createdAt: new Date(Date.now() - 60_000).toISOString() });
  await waitForSlot(db, { ...high, priority: 10, createdAt: new Date().toISOString() });
  t.equal(await wakeAllWaiting(db, queue, 2), 0, 'no free slot: nobody is woken');
  await db.deleteFrom('sync_heartbeats').where('job_id', '=', jobs[holder]!.jobId).execute();
  t.equal(await wakeAllWaiting(db, queue, 2), 1, 'one free slot: one job announced');
  await until('the announcement', async () => announced, (list) => list.length === 1);
  t.same(announced, [high.jobId], 'the higher priority first, though younger');
  t.same((await db.selectFrom('sync_waiting').select('job_id').execute()).map((row) => row.job_id), [low.jobId]);

  // A worker that died between taking a slot and claiming its job: the scheduler frees the slot once the row is silent.
  const dead = { ...job(), organizationId: randomUUID() };
  t.equal(await takeSlot(db, { job: dead, workerId: 'dead-worker', maxPerOrganization: 1 }), 'taken');
  t.equal(await takeSlot(db, { job: { ...job(), organizationId: dead.organizationId }, workerId: 'w', maxPerOrganization: 1 }), 'full');
  t.same(await freeSilentSlots(db, new Date(Date.now() - 60_000)), [], 'a fresh slot is not silent');
  await db.updateTable('sync_heartbeats').set({ beat_at: new Date(Date.now() - 120_000) }).where('job_id', '=', dead.jobId).execute();
  t.same(await freeSilentSlots(db, new Date(Date.now() - 60_000)), [dead.organizationId], 'a silent slot with no processing job is freed');
  t.equal(await takeSlot(db, { job: { ...job(), organizationId: dead.organizationId }, workerId: 'w', maxPerOrganization: 1 }), 'taken', 'and can be taken again');
});
