// Store sync end to end: a local fake Shopify store serving the real fixture feeds, the sync worker
// and the scheduler on the in-process queue (JetStream on the integration run), items checked
// through HTTP. The store changes between syncs the way stores do: a product removed, a price
// changed, a title changed, a product added.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { startWorkers } from '../../app/workers.js';
import { requestSyncJob } from '../../commands/sync-jobs.js';
import { itemIdFor } from '../../domain/item/identity.js';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { startTestService } from '../support/service.js';
import { loadShopifyFixtures, shopifyFixturesAvailable, startShopifyStore } from '../support/shopify-store.js';
import { until as untilDone } from '../support/until.js';

/** Every test here reads the real store feeds; without ../shared they are skipped, visibly. */
const needsFixtures = { skip: shopifyFixturesAvailable() ? false : 'needs ../shared/fixtures/shopify (absent)' };

type Product = Record<string, any>;

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs?: number) => untilDone(what, read, done, { timeoutMs });

/** `localStores: false` runs the service as configured by default, which refuses the fake store's 127.0.0.1. */
const setUp = async (t: Test, options: { workers?: string[]; env?: Record<string, string>; store?: Parameters<typeof startShopifyStore>[1]; localStores?: boolean } = {}) => {
  const store = await startShopifyStore(t, { photos: 'none', ...options.store });
  const service = await startTestService(t, { workers: options.workers ?? ['sync', 'ingest', 'scheduler'], env: { ...(options.localStores === false ? {} : LOCAL_STORES_ENV), ...options.env } });
  const org = await service.cli(['org', 'create', '--name', 'Woven Boutique', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const response = await service.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Woven' })).body.datasetId as string;
  const connect = async (body: object = {}) => {
    const { status, body: created } = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: store.url, syncPeriod: 0, ...body });
    if (status !== 201) throw new Error(JSON.stringify(created));
    return created.source.sourceId as string;
  };
  const jobs = (sourceId: string) => call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`).then((r) => r.body.jobs as Product[]);
  const finished = (sourceId: string, jobId: string, timeoutMs?: number) =>
    until(`job ${jobId}`, () => call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs/${jobId}`).then((r) => r.body.job), (job) => job?.status === 'completed' || job?.status === 'failed', timeoutMs);
  const activeItems = () => call('GET', `/v1/datasets/${datasetId}/items?limit=1`).then((r) => r.body.pagination.total as number);
  const logs = (sourceId: string) => call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/logs`).then((r) => r.body.logs as Product[]);
  return { store, service, org, call, datasetId, connect, jobs, finished, activeItems, logs };
};

const fixtures = () => loadShopifyFixtures() as Product[];

t.test('first sync imports the store; a re-sync after the store changes reports exactly what changed', needsFixtures, async (t) => {
  const products = fixtures();
  const { store, call, datasetId, connect, jobs, finished, activeItems, logs } = await setUp(t, { store: { products: structuredClone(products), repeatAcrossPages: 3 } });
  const sourceId = await connect();
  const [first] = await jobs(sourceId);
  const done = await finished(sourceId, first!.jobId);
  t.equal(done.status, 'completed', done.result.error ?? 'completed');
  const firstStats = done.result.stats;
  t.equal(firstStats.retrieved, products.length, 'every product read once, repeats across pages dropped');
  t.equal(firstStats.added + firstStats.failed, products.length);
  t.same({ updated: firstStats.updated, archived: firstStats.archived }, { updated: 0, archived: 0 });
  t.ok(store.requests.filter((r) => r.path === '/products.json').length >= Math.ceil(products.length / 250), 'paged by 250');
  t.ok(store.requests.every((r) => r.limit === null || r.limit === 250));
  t.match(done, { worker: { workerId: String, lockedAt: String, startedAt: String }, logId: String, result: { completedAt: String, error: null } });
  const imported = firstStats.added;
  await until('items active', activeItems, (n) => n === imported);

  const source = (await call('GET', `/v1/datasets/${datasetId}/sources`)).body.sources[0];
  t.equal(source.sync.previous, done.result.completedAt, 'sync.previous is the finish time');
  t.same(source.sync.lastStats, firstStats);

  // The store changes: one product gone, one price, one title, one new product.
  const [removed, repriced, renamed] = store.products.slice(0, 3) as [Product, Product, Product];
  store.products.splice(0, 1);
  for (const variant of repriced.variants) variant.price = (Number(variant.price) + 5).toFixed(2);
  renamed.title = `${renamed.title} (new season)`;
  store.products.push({ ...structuredClone(renamed), id: 9_000_000_000_001, handle: 'brand-new-piece', title: 'Brand new piece', variants: renamed.variants.map((v: Product, i: number) => ({ ...v, id: 9_100_000_000_000 + i, sku: `NEW-${i}` })) });

  const resync = await call('POST', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`);
  t.equal(resync.status, 200);
  const second = await finished(sourceId, resync.body.jobId);
  t.equal(second.status, 'completed', second.result.error ?? 'completed');
  t.same(second.result.stats, { retrieved: products.length, added: 1, updated: 2, archived: 1, failed: 0 });

  await until('items after the re-sync', activeItems, (n) => n === imported);
  const gone = await call('GET', `/v1/datasets/${datasetId}/items/${itemIdFor(datasetId, String(removed.id))}`);
  t.equal(gone.body.item?.status ?? gone.body.status, 'archived', 'the product that left the store is archived');
  const price = await until(
    'new price',
    () => call('GET', `/v1/datasets/${datasetId}/items/${itemIdFor(datasetId, String(repriced.id))}`).then((r) => r.body),
    (body) => JSON.stringify(body).includes(`"price":${Number(repriced.variants[0].price)}`),
  );
  t.ok(price, 'the price change reached the item');
  await until('new title', () => call('GET', `/v1/datasets/${datasetId}/items/${itemIdFor(datasetId, String(renamed.id))}`).then((r) => JSON.stringify(r.body)), (body) => body.includes('(new season)'));

  const history = await call('GET', `/v1/datasets/${datasetId}/items/${itemIdFor(datasetId, String(removed.id))}/history`);
  t.match(history.body.events.at(-1), { type: 'ItemStatusChanged', actor: { kind: 'source', id: sourceId }, data: { status: 'archived' } }, 'the audit trail names the source');

  const runLogs = await logs(sourceId);
  t.equal(runLogs.length, 2);
  t.match(runLogs[0]!, { jobId: second.jobId, status: 'completed', stats: second.result.stats, finishedAt: String });
  t.ok(runLogs[1]!.entries.some((entry: Product) => entry.level === 'info' && /Read \d+ products/.test(entry.message)));

  // Nothing changed: nothing is queued.
  const quiet = await finished(sourceId, (await call('POST', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`)).body.jobId);
  t.same(quiet.result.stats, { retrieved: products.length, added: 0, updated: 0, archived: 0, failed: 0 });

  // The product comes back: the item this source archived is live again.
  store.products.unshift(removed);
  const back = await finished(sourceId, (await call('POST', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`)).body.jobId);
  t.match(back.result.stats, { added: 1, archived: 0 });
  await until('returned item active', activeItems, (n) => n === imported + 1);
});

t.test('a store that answers 500 then recovers; a store that refuses fails the job with the reason', needsFixtures, async (t) => {
  const products = fixtures().slice(0, 40);
  const { store, connect, jobs, finished, logs, call, datasetId } = await setUp(t, { workers: ['sync'], store: { products } });
  store.failNext(2, 500);
  const sourceId = await connect();
  const done = await finished(sourceId, (await jobs(sourceId))[0]!.jobId);
  t.equal(done.status, 'completed');
  t.equal(done.result.stats.retrieved, 40);
  const [log] = await logs(sourceId);
  t.equal(log!.entries.filter((entry: Product) => entry.level === 'warn' && /500/.test(entry.message)).length, 2, 'each retry is in the log');

  store.answerNext('<html><body>Enter store using password</body></html>', 'text/html; charset=utf-8');
  const failed = await finished(sourceId, (await call('POST', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`)).body.jobId);
  t.equal(failed.status, 'failed');
  t.match(failed.result.error, /text\/html, not JSON/);
  t.ok(failed.logId, 'the run had started: its log is kept');
  const [failedLog] = await logs(sourceId);
  t.match(failedLog, { status: 'failed', jobId: failed.jobId });
  t.ok(failedLog!.entries.some((entry: Product) => entry.level === 'error' && /not JSON/.test(entry.message)));
  const source = (await call('GET', `/v1/datasets/${datasetId}/sources`)).body.sources[0];
  t.equal(source.sync.previous, done.result.completedAt, 'a failed run leaves sync.previous alone');
});

t.test('a run broken by the database fails with a reference for the merchant; the detail goes only to the log', needsFixtures, async (t) => {
  // A short pause between attempts (SYNC_RETRY_DELAY_MS): the run is tried again before it fails.
  const { connect, jobs, finished, service } = await setUp(t, { workers: ['sync'], store: { products: fixtures().slice(0, 5) }, env: { SYNC_RETRY_DELAY_MS: '200' } });
  // The worker's own log table goes missing: every run breaks on its first write there.
  await sql`alter table sync_log_entries rename to sync_log_entries_away`.execute(service.platform.database.db);
  t.teardown(() => sql`alter table sync_log_entries_away rename to sync_log_entries`.execute(service.platform.database.db).catch(() => undefined));
  const sourceId = await connect();
  const failed = await finished(sourceId, (await jobs(sourceId))[0]!.jobId, 120_000);
  t.equal(failed.status, 'failed');
  t.match(failed.result.error, /^Sync stopped by an internal error \(reference [0-9a-f]{8}\)\. Try again later/);
  t.notMatch(failed.result.error, /sync_log_entries|relation|does not exist/, 'no raw database error for the merchant');
});

t.test('a feed product with NUL or an unpaired surrogate is skipped with a log entry; the products beside it are imported', needsFixtures, async (t) => {
  const products = structuredClone(fixtures().slice(0, 4));
  products[1]!.title = 'Bad\u0000title';
  products[2]!.body_html = 'half an emoji \ud83d';
  const { connect, jobs, finished, logs, activeItems } = await setUp(t, { workers: ['sync', 'ingest'], store: { products } });
  const sourceId = await connect();
  const done = await finished(sourceId, (await jobs(sourceId))[0]!.jobId);
  t.equal(done.status, 'completed', 'the run goes on past the bad products');
  t.match(done.result.stats, { retrieved: 4, added: 2, failed: 2 });
  const [log] = await logs(sourceId);
  const errors = log!.entries.filter((entry: Product) => entry.level === 'error').map((entry: Product) => entry.message as string);
  t.ok(errors.some((message: string) => /was not imported: title must not contain NUL characters or unpaired surrogates\./.test(message)), errors.join(' | '));
  t.ok(errors.some((message: string) => /was not imported: body_html must not contain NUL characters or unpaired surrogates\./.test(message)));
  await until('the good products active', activeItems, (n) => n === 2);
});

t.test('a job for an archived dataset fails before a log exists', needsFixtures, async (t) => {
  const { connect, finished, call, datasetId, jobs, service } = await setUp(t, { workers: [] });
  const sourceId = await connect();
  const [job] = await jobs(sourceId);
  await call('PATCH', `/v1/datasets/${datasetId}/archive`);
  const workers = await startWorkers(service.platform, ['sync'], service.platform.logger);
  t.teardown(() => workers.stop());
  const failed = await finished(sourceId, job!.jobId);
  t.match(failed, { status: 'failed', logId: null, result: { error: 'The dataset is archived; activate it to sync.' } });
  t.same((await call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/logs`)).body.total, 0);
});

t.test('the scheduler syncs a due source and never opens a second job beside an open one', needsFixtures, async (t) => {
  const { connect, jobs, finished, service } = await setUp(t, { workers: ['sync', 'scheduler'], env: { SYNC_SCHEDULER_INTERVAL_SECONDS: '1' }, store: { products: fixtures().slice(0, 10) } });
  const sourceId = await connect({ syncPeriod: 60 });
  const [first] = await jobs(sourceId);
  await finished(sourceId, first!.jobId);
  // Pretend the last success was over an hour ago: the next tick finds the source due.
  await service.platform.database.db.updateTable('data_sources').set({ sync_previous: new Date(Date.now() - 61 * 60_000) }).where('source_id', '=', sourceId).execute();
  const scheduled = await until('a scheduled job', () => jobs(sourceId), (list) => list.some((job) => job.trigger === 'schedule'));
  const job = scheduled.find((j) => j.trigger === 'schedule')!;
  t.equal(job.priority, 0, 'scheduled jobs queue behind ones someone asked for');
  await finished(sourceId, job.jobId);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  t.equal((await jobs(sourceId)).length, 2, 'a fresh sync.previous is not due again');
});

t.test('a worker killed mid-run: the job goes back to pending after the heartbeat timeout and another worker finishes it', needsFixtures, async (t) => {
  const products = fixtures();
  const { store, connect, jobs, finished, activeItems, logs, service } = await setUp(t, {
    workers: ['ingest', 'scheduler'],
    env: { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3', SYNC_SCHEDULER_INTERVAL_SECONDS: '1' },
    store: { products },
  });
  store.hangFrom(2);
  const first = await startWorkers(service.platform, ['sync'], service.platform.logger);
  const sourceId = await connect();
  const [job] = await jobs(sourceId);
  const claimed = await until('the first worker to claim', () => jobs(sourceId).then((list) => list[0]!), (j) => j.status === 'processing' && store.requests.some((r) => r.page === 2));
  await first.abandon();
  store.release();
  const second = await startWorkers(service.platform, ['sync'], service.platform.logger);
  t.teardown(() => second.stop());

  const done = await finished(sourceId, job!.jobId, 90_000);
  t.equal(done.status, 'completed', done.result.error ?? 'completed');
  t.not(done.worker.workerId, claimed.worker.workerId, 'finished by another worker');
  t.equal(done.retries.count, 0, 'heartbeat recovery is not a retry');
  t.equal(done.result.stats.retrieved, products.length);
  await until('every product imported once', activeItems, (n) => n === done.result.stats.added);
  const runLogs = await logs(sourceId);
  t.same(runLogs.map((log: Product) => log.status), ['completed', 'failed'], 'the abandoned run ended as failed, the second completed');
  const items = await service.platform.database.db.selectFrom('catalogue_items').select((eb) => [eb.fn.countAll().as('rows'), eb.fn.count('sku').distinct().as('skus')]).executeTakeFirstOrThrow();
  t.equal(Number(items.rows), Number(items.skus), 'no sku twice');
  t.equal(Number(items.rows), products.length - done.result.stats.failed);
});

t.test('the command line connects a store, starts a sync and shows its progress and log', needsFixtures, async (t) => {
  const { service, org, datasetId, store } = await setUp(t, { workers: ['sync'], store: { products: fixtures().slice(0, 30) } });
  const ids = ['--org', org.organizationId, '--dataset', datasetId];
  const added = await service.cli(['source', 'add', ...ids, '--endpoint', store.url, '--period', '0', '--json']);
  t.match(added, { sourceId: String, endpoint: `${store.url}/products.json`, syncPeriod: 0, status: 'active', firstJobId: String });
  const status = await until('the first sync', () => service.cli(['sync', 'status', ...ids, '--source', added.sourceId, '--json']), (r) => r.job?.status === 'completed');
  t.match(status, { job: { jobId: added.firstJobId, result: { stats: { retrieved: 30 } } }, log: { status: 'completed', entries: Array } });
  t.ok(status.log.entries.length >= 2, 'the log shows how the run went');

  const listed = await service.cli(['source', 'list', ...ids, '--json']);
  t.equal(listed.sources[0].sync.lastStats.retrieved, 30);
  const started = await service.cli(['sync', 'start', ...ids, '--source', added.sourceId, '--json']);
  t.match(started, { jobId: String, existing: false });
  await until('the second sync', () => service.cli(['sync', 'status', ...ids, '--source', added.sourceId, '--job', started.jobId, '--json']), (r) => r.job?.status === 'completed');
  t.equal((await service.cli(['sync', 'jobs', ...ids, '--source', added.sourceId, '--json'])).jobs.length, 2);
  await t.rejects(service.cli(['sync', 'cancel', ...ids, '--source', added.sourceId, '--job', started.jobId, '--json']), { message: "Cannot cancel job with status 'completed'. Only pending jobs can be cancelled." });
  await t.rejects(service.cli(['sync', 'start', ...ids, '--source', '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', '--json']), { message: 'Data source not found: 0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4' });
});

t.test('markets: prices and stock per market from their own feeds; a market without a feed or whose feed fails is unread', needsFixtures, async (t) => {
  const products = fixtures().slice(0, 20);
  const { store, service, connect, jobs, finished, call, datasetId } = await setUp(t, { workers: ['sync'], store: { products } });
  // The US storefront: the same products in dollars, one sold out there, one not sold there at all.
  const us = await startShopifyStore(t, { photos: 'none', products: structuredClone(products.slice(0, 19)) });
  for (const product of us.products) for (const variant of product.variants as Product[]) variant.price = (Number(variant.price) * 0.75).toFixed(2);
  for (const variant of us.products[0]!.variants as Product[]) variant.available = false;
  const broken = await startShopifyStore(t, { photos: 'none', products: [] });
  broken.failNext(1_000, 404);

  const sourceId = await connect({
    markets: [
      { handle: 'ca', countries: ['CA'], currency: 'CAD' },
      { handle: 'us', countries: ['us'], currency: 'usd', endpoint: us.url },
      { handle: 'uk', countries: ['GB'], currency: 'GBP', endpoint: broken.url },
      { handle: 'eu', countries: ['FR', 'DE'], currency: 'EUR' },
    ],
    defaultMarket: 'ca',
  });
  const done = await finished(sourceId, (await jobs(sourceId))[0]!.jobId);
  t.equal(done.status, 'completed', 'a market never fails the run');

  const source = (await call('GET', `/v1/datasets/${datasetId}/sources`)).body.sources[0];
  t.equal(source.config.defaultMarket, 'ca');
  const markets = Object.fromEntries(source.config.markets.map((market: Product) => [market.handle, market]));
  t.match(markets.ca, { status: 'read', products: done.result.stats.added, currency: 'CAD' });
  t.match(markets.us, { status: 'read', products: 19, countries: ['US'], currency: 'USD', endpoint: `${us.url}/products.json` });
  t.match(markets.uk, { status: 'unread', reason: /HTTP 404/ });
  t.match(markets.eu, { status: 'unread', reason: 'The market has no feed endpoint.' });

  const db = service.platform.database.db;
  const rows = await db.selectFrom('market_prices').selectAll().where('market', '=', 'us').execute();
  t.equal(rows.length, 19, 'the product the US storefront does not list has no US row');
  const soldOut = rows.find((row) => row.item_id === itemIdFor(datasetId, String(products[0]!.id)))!;
  t.equal(soldOut.available, false, 'sold out in the US');
  const second = rows.find((row) => row.item_id === itemIdFor(datasetId, String(products[1]!.id)))!;
  const caPrice = Math.min(...(products[1]!.variants as Product[]).map((variant) => Number(variant.price)));
  t.ok(Math.abs(second.price - caPrice * 0.75) < 0.02, 'the US price is the US feed’s');
  t.match(second, { currency: 'USD', available: true, default_market: 'ca' });

  const refused = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: store.url, markets: [{ handle: 'us', countries: ['US'], currency: 'USD' }], defaultMarket: 'ca' });
  t.equal(refused.status, 422);
  t.match(refused.body.error, /defaultMarket must be the handle of one of the markets/);
  const shared = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: store.url, markets: [{ handle: 'a', countries: ['US'], currency: 'USD' }, { handle: 'b', countries: ['US'], currency: 'CAD' }] });
  t.equal(shared.status, 422);
  t.match(JSON.stringify(shared.body), /a country can belong to one market only: US/);
});

t.test('workers claim the highest priority first, then the oldest', needsFixtures, async (t) => {
  const { service, org, connect, jobs, finished, call, datasetId } = await setUp(t, { workers: [], store: { products: fixtures().slice(0, 5) } });
  // An older scheduled job (priority 0) and a newer one someone asked for (priority 10).
  const scheduledSource = await connect({ status: 'inactive' });
  await call('PATCH', `/v1/datasets/${datasetId}/sources/${scheduledSource}`, { status: 'active' });
  const meta = { now: new Date().toISOString(), actor: { kind: 'system' as const, id: 'test' }, correlationId: randomUUID() };
  const { job: scheduled, position } = await requestSyncJob({ store: service.platform.eventStore, queue: service.platform.queue }, { organizationId: org.organizationId, datasetId, sourceId: scheduledSource }, 'schedule', meta);
  if (position) await service.platform.projections.waitFor(position, ['data_sources']);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const askedSource = await connect();
  const [asked] = await jobs(askedSource);

  const workers = await startWorkers(service.platform, ['sync'], service.platform.logger);
  t.teardown(() => workers.stop());
  const [first, second] = [await finished(askedSource, asked!.jobId), await finished(scheduledSource, scheduled.jobId)];
  t.equal(scheduled.priority, 0);
  t.equal(asked!.priority, 10);
  t.ok(Date.parse(scheduled.createdAt) < Date.parse(asked!.createdAt), 'the scheduled job is older');
  t.ok(Date.parse(first.worker.startedAt) < Date.parse(second.worker.startedAt), 'yet the job someone asked for ran first');
});

t.test('with the default configuration a store on this machine is refused: the job fails with a reason the merchant can read, nothing is imported', async (t) => {
  const products = Array.from({ length: 5 }, (_, i) => ({ id: 6_100_000 + i, title: `Silk scarf ${i}`, variants: [{ id: 6_200_000 + i, sku: `SS-${i}`, price: '35.00' }], images: [] }));
  const { store, connect, jobs, finished, activeItems, logs } = await setUp(t, { workers: ['sync', 'ingest'], localStores: false, store: { products } });
  const sourceId = await connect();
  const failed = await finished(sourceId, (await jobs(sourceId))[0]!.jobId);
  const reason = 'Page 1: refused: 127.0.0.1 is a loopback address (this machine); Stylist only fetches addresses on the public internet';
  t.match(failed, { status: 'failed', result: { error: reason, stats: { retrieved: 0, added: 0 } } });
  const [log] = await logs(sourceId);
  t.match(log, { status: 'failed' });
  t.ok(log!.entries.some((entry: Product) => entry.level === 'error' && entry.message === reason), 'the log says why');
  t.equal(await activeItems(), 0);
  t.same(store.requests, [], 'the store never saw a request');
});

t.test('a feed over SYNC_MAX_FEED_MB fails the run with the reason and changes nothing; SYNC_MAX_PRODUCTS caps the run and archives nothing', needsFixtures, async (t) => {
  const big = await setUp(t, { workers: ['sync'], env: { SYNC_MAX_FEED_MB: '1' }, store: { products: fixtures() } });
  const sourceId = await big.connect();
  const failed = await big.finished(sourceId, (await big.jobs(sourceId))[0]!.jobId);
  t.equal(failed.status, 'failed');
  t.match(failed.result.error, /^Page \d+: the feed is larger than 1 MB in all, the most one sync reads \(the operator's SYNC_MAX_FEED_MB\)$/);
  const [log] = await big.logs(sourceId);
  t.ok(log!.entries.some((entry: Product) => entry.level === 'error' && entry.message === failed.result.error), 'the log says why');
  t.equal((await big.call('GET', `/v1/datasets/${big.datasetId}/items/queue`)).body.pagination.total, 0, 'nothing queued');

  const capped = await setUp(t, { workers: ['sync'], env: { SYNC_MAX_PRODUCTS: '100' }, store: { products: fixtures() } });
  const cappedSource = await capped.connect();
  const done = await capped.finished(cappedSource, (await capped.jobs(cappedSource))[0]!.jobId);
  t.equal(done.status, 'completed');
  t.match(done.result.stats, { retrieved: 100, added: 100, archived: 0 });
  const [cappedLog] = await capped.logs(cappedSource);
  t.ok(cappedLog!.entries.some((entry: Product) => /nothing was archived this run/.test(entry.message)));
});
