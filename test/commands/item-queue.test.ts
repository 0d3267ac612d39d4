// Queuing items goes through the item decider with each stream's revision: two uploads of one sku,
// or a sync racing an upload, cannot both win a revision; the loser reads what the winner queued
// and decides again. A retried request (same correlation id) answers as the first time.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { parseEntries, queueListings, uploadItems } from '../../commands/items.js';
import { itemIdFor, itemStream, listingHashes } from '../../domain/item/index.js';
import type { CommandMeta } from '../../domain/metadata.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import { racingStore } from '../support/racing-store.js';
import type { Teardown } from '../support/database.js';
import { startTestService } from '../support/service.js';

const tee = (price: number, name = 'Organic Cotton Tee') => ({ sku: 'TEE-1', name, productType: 'T-Shirts', description: 'Soft jersey.', brand: 'Acme', price });
const meta = (correlationId = randomUUID()): CommandMeta => ({ now: new Date().toISOString(), actor: { kind: 'system', id: 'test' }, correlationId });

async function setUp(t: Teardown) {
  const service = await startTestService(t);
  const ids = { organizationId: randomUUID(), datasetId: randomUUID() };
  const deps = (store: EventStore = service.platform.eventStore) => ({ store, db: service.platform.database.db, queue: service.platform.queue });
  const upload = (store: EventStore, entries: object[], m = meta()) => uploadItems(deps(store), { ...ids, storeUrl: 'https://shop.example.com', shape: 'items', entries }, m);
  const stream = async () => (await service.platform.eventStore.readStream(itemStream(itemIdFor(ids.datasetId, 'TEE-1')))).filter((e) => e.type === 'ItemQueued');
  return { service, ids, deps, upload, stream };
}

t.test('two uploads of one sku racing for the same revision: one wins, the other decides again on what it queued', async (t) => {
  const { service, upload, stream } = await setUp(t);
  const plain = service.platform.eventStore;
  // The second upload reads the empty stream, then the first appends before it does.
  const racing = racingStore(plain, () => upload(plain, [tee(30)]));
  const loser = await upload(racing, [tee(35)]);
  t.equal(racing.races, 1);
  t.same(loser.queued.map((q) => q.status), ['pending'], 'the loser still queues its different listing, after the winner');
  const events = await stream();
  t.same(events.map((e) => [e.revision, e.data.listing && (e.data.listing as { price: number }).price]), [[0n, 30], [1n, 35]], 'one ItemQueued per revision, the winner first');

  const same = racingStore(plain, () => upload(plain, [tee(40)]));
  const again = await upload(same, [tee(40)]);
  t.same(again.queued.map((q) => q.status), ['unchanged'], 'the same listing queued by the winner is unchanged for the loser');
  t.equal((await stream()).length, 3, 'and queued once');
});

t.test('a sync racing an upload: the sync re-decides on the uploaded listing', async (t) => {
  const { service, ids, upload, stream, deps } = await setUp(t);
  const plain = service.platform.eventStore;
  const listing = parseEntries('items', [tee(31)], 'https://shop.example.com').listings[0]!.listing;
  const itemId = itemIdFor(ids.datasetId, 'TEE-1');
  const sourceId = randomUUID();
  const racing = racingStore(plain, () => upload(plain, [tee(30)]));
  const { outcomes } = await queueListings(deps(racing), { ...ids, sourceId }, [{ itemId, listing, hashes: listingHashes(listing) }], meta());
  t.same(outcomes, ['pending'], 'its listing differs from the upload: queued after it');
  const events = await stream();
  t.same(events.map((e) => e.revision), [0n, 1n], 'the upload took revision 0, the sync revision 1');
  t.equal(events[1]!.data.sourceId, sourceId);
});

t.test('real concurrency: eight uploads of one listing queue it once; eight different listings queue eight versions', async (t) => {
  const { service, upload, stream } = await setUp(t);
  const plain = service.platform.eventStore;
  const same = await Promise.all(Array.from({ length: 8 }, () => upload(plain, [tee(30)])));
  t.same(same.map((o) => o.queued[0]!.status).sort(), ['pending', ...Array(7).fill('unchanged')], 'exactly one wins');
  t.equal((await stream()).length, 1);

  const different = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(plain, [tee(30, `Tee ${i}`)])));
  t.ok(different.every((o) => o.queued[0]!.status === 'pending' && o.failures.length === 0), 'every upload lands, each on its own revision');
  const revisions = (await stream()).map((e) => Number(e.revision));
  t.same(revisions, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
});

t.test('a retried request (same correlation id, its stored answer gone) answers as the first time', async (t) => {
  const { service, upload, stream } = await setUp(t);
  const plain = service.platform.eventStore;
  const request = meta();
  t.same((await upload(plain, [tee(30)], request)).queued.map((q) => q.status), ['pending']);
  t.same((await upload(plain, [tee(30)], { ...request, now: new Date(Date.now() + 86_400_000).toISOString() })).queued.map((q) => q.status), ['pending'], 'the retry finds its own ItemQueued');
  t.same((await upload(plain, [tee(30)])).queued.map((q) => q.status), ['unchanged'], 'another request sees it unchanged');
  t.equal((await stream()).length, 1);
});

t.test('an upload retried with its Idempotency-Key after the stored answer expired gets the same answer, not "unchanged"', async (t) => {
  const service = await startTestService(t);
  const org = await service.cli(['org', 'create', '--name', 'Acme', '--json']);
  const call = (url: string, payload: object, key?: string) =>
    service.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${org.privateKey}`, ...(key ? { 'idempotency-key': key } : {}) }, payload });
  const datasetId = (await call('/v1/datasets', { name: 'Main' })).json().datasetId as string;
  const body = { items: [tee(30)] };
  const first = await call(`/v1/datasets/${datasetId}/items/upload`, body, 'upload-1');
  const statuses = (answer: { json(): { items?: unknown; queued?: unknown } }) => JSON.stringify(answer.json());
  t.match(statuses(first), /pending/);
  await service.platform.database.db.deleteFrom('idempotency_keys').execute();
  const retried = await call(`/v1/datasets/${datasetId}/items/upload`, body, 'upload-1');
  t.equal(retried.headers['idempotent-replayed'], undefined, 'the stored answer is gone: the request ran again');
  t.equal(statuses(retried), statuses(first), 'and answered as the first time');
  t.match(statuses(await call(`/v1/datasets/${datasetId}/items/upload`, body, 'upload-2')), /unchanged/, 'a new request sees the item unchanged');
});
