// Items through HTTP with the ingest worker running: upload in both shapes, per-entry failures,
// classification (new, unchanged, partial update), the queue, processing into labelled items with
// stored photos, autoPublish and publishing, targetGender, history, deletion and a rebuild.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import t, { type Test } from 'tap';
import { UPLOAD_BODY_LIMIT } from '../../api/routes/item-upload.js';
import { allProjectors } from '../../projections/index.js';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { productShot, startPhotoServer } from '../support/photo-server.js';
import { sharedTestService, startTestService } from '../support/service.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/shopify');

/**
 * Each test works in an organization of its own on the file's shared service, unless it asks for
 * a service of its own (`own`: it stops projections or rebuilds every read model) or needs an
 * environment of its own.
 */
const setUp = async (t: Test, dataset: object = {}, env: Record<string, string> = {}, { own = false } = {}) => {
  // Photos come from a server on 127.0.0.1.
  const options = { workers: ['ingest'], env: { ...LOCAL_STORES_ENV, ...env } };
  const service = own || Object.keys(env).length ? await startTestService(t, options) : await sharedTestService(options);
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => service.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const created = await call('POST', '/v1/datasets', { name: 'Main', config: { storeUrl: 'https://acme.example.com', currency: 'EUR' }, ...dataset });
  const datasetId = created.json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const upload = (body: object) => call('POST', `/v1/datasets/${datasetId}/items/upload`, body);
  /** Until the ingest queue is empty (or only failed rows are left). */
  const drained = async (timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { queue } = (await call('GET', `/v1/datasets/${datasetId}/items/queue?limit=200`)).json();
      if (queue.every((row: { status: string }) => row.status === 'failed')) return queue;
      if (Date.now() > until) throw new Error(`queue not drained: ${JSON.stringify(queue)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { service, org, call, datasetId, upload, drained };
};

const tee = (overrides: object = {}) => ({
  sku: 'TEE-1',
  name: "Men's Organic Cotton Crew Neck T-Shirt",
  productType: 'T-Shirts',
  description: '<p>Soft jersey.</p><ul><li>100% organic cotton</li></ul>',
  brand: 'Acme',
  price: 30,
  variants: [
    { sku: 'TEE-1-BLK-M', label: 'Black / M', options: [{ name: 'Color', value: 'Black' }, { name: 'Size', value: 'M' }], inStock: true, quantity: 4, price: 30 },
    { sku: 'TEE-1-WHT-M', label: 'White / M', options: [{ name: 'Color', value: 'White' }, { name: 'Size', value: 'M' }], inStock: false, quantity: 0, price: 30 },
  ],
  ...overrides,
});

t.test('upload queues each entry, reports bad ones without sinking the rest, and the worker makes live labelled items', async (t) => {
  const { call, datasetId, upload, drained, service, org } = await setUp(t);
  const response = await upload({ items: [tee(), { name: 'No sku here' }, tee({ sku: 'DRESS-1', name: 'Floral Midi Wrap Dress', productType: 'Dresses', variants: [] })] });
  t.equal(response.statusCode, 202);
  const body = response.json();
  t.same(body.summary, { total: 3, queued: 2, failed: 1, unchanged: 0 });
  t.match(body.failures[0], { index: 1, sku: null, error: /sku/ });
  t.match(body.queued, [{ sku: 'TEE-1', status: 'pending' }, { sku: 'DRESS-1', status: 'pending' }]);
  const { active, pending, processing } = (await call('GET', `/v1/datasets/${datasetId}`)).json().dataset.items;
  t.equal(active + pending + processing, 2, 'both are there as soon as the upload answers (read-your-writes)');

  t.same(await drained(), []);
  const list = (await call('GET', `/v1/datasets/${datasetId}/items`)).json();
  t.equal(list.pagination.total, 2);
  const shirt = list.items.find((item: { product: { sku: string } }) => item.product.sku === 'TEE-1');
  t.match(shirt, {
    itemId: body.queued[0].itemId,
    datasetId,
    status: 'active',
    metadata: { slot: 'top', gender: 'mens', colors: ['black', 'white'], material: ['cotton'], searchTextVersion: 2 },
    product: { name: "Men's Organic Cotton Crew Neck T-Shirt", currency: 'EUR', price: 30, market: null, careInstructions: '', setItems: [], assets: { images: [], generated: { thumbnail: { url: null }, segmented: [] } } },
  });
  t.ok(shirt.metadata.description.startsWith("Men's Organic Cotton Crew Neck T-Shirt"), 'search text leads with the name');
  t.ok(shirt.metadata.description.length <= 400);
  t.same(shirt.metadata.featureKeys, [...shirt.metadata.featureKeys].sort(), 'featureKeys sorted');
  t.match(shirt.product.variants[1], { sku: 'TEE-1-WHT-M', inStock: false, quantity: 0 });
  const retrieved = await call('GET', `/v1/datasets/${datasetId}/items/${shirt.itemId}`);
  t.same(retrieved.json().item, shirt);
  const counts = (await call('GET', `/v1/datasets/${datasetId}`)).json().dataset.items;
  t.same(counts, { active: 2, archived: 0, pending: 0, processing: 0, failed: 0 });
  const genders = (await service.app.inject({ url: '/v1/datasets/genders', headers: { authorization: `Bearer ${org.publicKey}` } })).json().genders;
  t.equal(genders.reduce((sum: number, g: { count: number }) => sum + g.count, 0), 2, 'available genders count the live items');
  t.match(genders, [{ gender: String, count: Number }]);
  t.ok(genders.some((g: { gender: string }) => g.gender === 'mens'), "the Men's T-shirt counts as mens");
});

t.test('the same products again are unchanged; new prices or stock are a partial update without relabelling', async (t) => {
  const { call, datasetId, upload, drained } = await setUp(t);
  const first = (await upload({ items: [tee()] })).json();
  await drained();
  const before = (await call('GET', `/v1/datasets/${datasetId}/items/${first.queued[0].itemId}`)).json().item;
  const again = (await upload({ items: [tee()] })).json();
  t.same(again.summary, { total: 1, queued: 0, failed: 0, unchanged: 1 });
  t.same(again.queued, [{ itemId: first.queued[0].itemId, sku: 'TEE-1', status: 'unchanged' }]);
  const cheaper = tee({ price: 20, variants: tee().variants.map((v) => ({ ...v, price: 20, compareAtPrice: 30, inStock: true })) });
  const partial = (await upload({ items: [cheaper] })).json();
  t.same(partial.queued, [{ itemId: first.queued[0].itemId, sku: 'TEE-1', status: 'partial_update' }]);
  await drained();
  const after = (await call('GET', `/v1/datasets/${datasetId}/items/${first.queued[0].itemId}`)).json().item;
  t.equal(after.product.price, 20);
  t.match(after.product.variants, [{ price: 20, compareAtPrice: 30, inStock: true }, { price: 20, compareAtPrice: 30, inStock: true }]);
  t.same(after.metadata, before.metadata, 'labels untouched');
  const history = (await call('GET', `/v1/datasets/${datasetId}/items/${first.queued[0].itemId}/history`)).json();
  t.same(
    history.events.map((e: { type: string }) => e.type),
    ['ItemQueued', 'ItemProcessed', 'ItemQueued', 'ItemCommerceUpdated'],
    'no photos to fetch: no processing step is recorded',
  );
  t.match(history.events[0], { actor: { kind: 'key' }, data: { kind: 'pending', sku: 'TEE-1' } });
  t.match(history.events[1], { actor: { kind: 'system', id: 'ingest' } });
  const renamed = (await upload({ items: [tee({ name: 'Organic Cotton Crew Neck T-Shirt' })] })).json();
  t.equal(renamed.queued[0].status, 'pending', 'a new title is relabelled in full');
});

t.test('photos: stored as images/<uuid>.jpeg; a broken one is noted on the item and skipped', async (t) => {
  const photos = await startPhotoServer(t, { '/red.png': await productShot('#c0392b'), '/navy.jpg': await productShot('#1f2a44', 'jpeg') });
  const { call, datasetId, upload, drained, service } = await setUp(t);
  const images = ['/red.png', '/missing.jpg', '/not-an-image.jpg', '/loop.jpg', '/moved/navy.jpg'].map((p) => ({ src: `${photos.url}${p}` }));
  const { queued } = (await upload({ items: [{ sku: 'SCARF-1', name: 'Wool Scarf', images }] })).json();
  await drained();
  const item = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`)).json().item;
  t.equal(item.product.assets.images.length, 2, 'the two readable photos, in supplied order');
  t.match(item.product.assets.images, [{ originalImageUrl: images[0]!.src, uploaded: { key: /^images\/[0-9a-f-]{36}\.jpeg$/ } }, { originalImageUrl: images[4]!.src }]);
  for (const image of item.product.assets.images) {
    const stored = await service.platform.objects.get(image.uploaded.key);
    t.ok(stored && stored.body[0] === 0xff && stored.body[1] === 0xd8, `${image.uploaded.key} is a JPEG`);
    t.equal(image.uploaded.id, image.uploaded.key.slice('images/'.length, -'.jpeg'.length));
  }
  const processed = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}/history`)).json().events.find((e: { type: string }) => e.type === 'ItemProcessed');
  const types = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}/history`)).json().events.map((e: { type: string }) => e.type);
  t.same(types, ['ItemQueued', 'ItemProcessingStarted', 'ItemProcessed'], 'photos to fetch: the queue row showed processing');
  t.match(processed.data.photoProblems, [
    { src: images[1]!.src, problem: 'HTTP 404' },
    { src: images[2]!.src, problem: /not an image/ },
    { src: images[3]!.src, problem: /redirects/ },
  ]);
  // Deleting the dataset removes its photos from the object store in the background.
  const keys = item.product.assets.images.map((image: { uploaded: { key: string } }) => image.uploaded.key);
  t.equal((await call('DELETE', `/v1/datasets/${datasetId}`)).json().itemsDeletedCount, 1);
  const until = Date.now() + 30_000;
  while (Date.now() < until && (await Promise.all(keys.map((key: string) => service.platform.objects.head(key)))).some(Boolean)) await new Promise((resolve) => setTimeout(resolve, 100));
  t.same(await Promise.all(keys.map((key: string) => service.platform.objects.head(key))), [null, null], 'photos removed after the dataset is deleted');
});

t.test('a photo that stalls or trickles fails that photo; the item is processed with the rest', async (t) => {
  const photos = await startPhotoServer(t, { '/red.png': await productShot('#c0392b') });
  // A short photo timeout (INGEST_PHOTO_TIMEOUT_MS), so the stalls cost the test seconds, not tens.
  const { call, datasetId, upload, drained } = await setUp(t, {}, { INGEST_PHOTO_TIMEOUT_MS: '1500' });
  const images = ['/red.png', '/stalls.jpg', '/trickle.jpg'].map((p) => ({ src: `${photos.url}${p}` }));
  const { queued } = (await upload({ items: [{ sku: 'GLOVE-1', name: 'Leather Gloves', images }] })).json();
  await drained();
  const item = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`)).json().item;
  t.match(item.product.assets.images, [{ originalImageUrl: images[0]!.src }]);
  t.equal(item.product.assets.images.length, 1);
  const processed = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}/history`)).json().events.find((e: { type: string }) => e.type === 'ItemProcessed');
  t.match(processed.data.photoProblems, [
    { src: images[1]!.src, problem: 'no answer within 1500 ms' },
    { src: images[2]!.src, problem: 'no answer within 1500 ms' },
  ]);
});

t.test('a photo body without end fails that photo at the size bound; the item is processed with the rest', async (t) => {
  const photos = await startPhotoServer(t, { '/red.png': await productShot('#c0392b') });
  // The default photo timeout (10 s): the size bound, not the clock, must end the endless body, and
  // a short timeout would race it on a saturated machine.
  const { call, datasetId, upload, drained } = await setUp(t);
  const images = ['/red.png', '/endless.jpg'].map((p) => ({ src: `${photos.url}${p}` }));
  const { queued } = (await upload({ items: [{ sku: 'GLOVE-2', name: 'Leather Mittens', images }] })).json();
  await drained();
  const item = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`)).json().item;
  t.match(item.product.assets.images, [{ originalImageUrl: images[0]!.src }]);
  const processed = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}/history`)).json().events.find((e: { type: string }) => e.type === 'ItemProcessed');
  t.match(processed.data.photoProblems, [{ src: images[1]!.src, problem: /^larger than \d+ bytes$/ }]);
});

t.test('with the default configuration a photo on this machine is refused: the item is processed without it', async (t) => {
  const photos = await startPhotoServer(t, { '/red.png': await productShot('#c0392b') });
  const service = await startTestService(t, { workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => service.app.inject({ method, url, headers, payload });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId as string;
  const src = `${photos.url}/red.png`;
  const { queued } = (await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [tee({ images: [{ src }] })] })).json();
  const until = Date.now() + 60_000;
  let history: Array<{ type: string; data: { photoProblems?: unknown } }> = [];
  while (Date.now() < until && !history.some((e) => e.type === 'ItemProcessed')) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    history = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}/history`)).json().events;
  }
  t.same(history.find((e) => e.type === 'ItemProcessed')?.data.photoProblems, [{ src, problem: 'refused: 127.0.0.1 is a loopback address (this machine); Stylist only fetches addresses on the public internet' }]);
  // The history reads the event store; the item's read model follows its projection a moment later.
  let item: { product?: { assets: { images: unknown[] } } } | undefined;
  while (Date.now() < until && !item?.product) {
    item = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`)).json().item;
    if (!item?.product) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.same(item?.product?.assets.images, [], 'processed, without the photo');
  t.same([...photos.hits], [], 'the photo server saw nothing');
});

t.test('autoPublish off: processed items wait archived until set active; targetGender forces the gender', async (t) => {
  const { call, datasetId, upload, drained } = await setUp(t, { autoPublish: false, config: { storeUrl: 'https://acme.example.com', targetGender: 'womens' } });
  const { queued } = (await upload({ items: [tee()] })).json();
  await drained();
  const waiting = (await call('GET', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`)).json().item;
  t.equal(waiting.status, 'archived');
  t.equal(waiting.metadata.gender, 'womens', "targetGender wins over the listing's Men's");
  t.equal((await call('GET', `/v1/datasets/${datasetId}/items`)).json().pagination.total, 0, 'not listed');
  const published = await call('PATCH', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`, { status: 'active' });
  t.equal(published.statusCode, 200);
  t.equal(published.json().item.status, 'active');
  t.equal((await call('GET', `/v1/datasets/${datasetId}/items`)).json().pagination.total, 1);
  const bad = await call('PATCH', `/v1/datasets/${datasetId}/items/${queued[0].itemId}`, { status: 'deleted' });
  t.same(bad.json(), { error: 'status must be active or archived.', details: [{ path: 'status', message: 'status must be active or archived.' }] });
});

t.test('archiving a dataset switches its items off; activating brings them back', async (t) => {
  const { call, datasetId, upload, drained } = await setUp(t);
  await upload({ items: [tee()] });
  await drained();
  await call('PATCH', `/v1/datasets/${datasetId}/archive`);
  t.equal((await call('GET', `/v1/datasets/${datasetId}/items`)).json().pagination.total, 0);
  t.match((await call('GET', `/v1/datasets/${datasetId}`)).json().dataset.items, { active: 0, archived: 1 });
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  t.equal((await call('GET', `/v1/datasets/${datasetId}/items`)).json().pagination.total, 1);
});

t.test('upload refuses a body of the wrong shape, and an unknown dataset', async (t) => {
  const { upload, call } = await setUp(t);
  const shape = "Send items (ItemInput objects) or products (objects of a store's products.json): an array of 1 to 1000 entries.";
  t.equal((await upload({ items: [] })).json().error, shape);
  t.equal((await upload({})).json().error, shape);
  const tooMany = await upload({ items: Array.from({ length: 1001 }, (_, i) => ({ sku: String(i), name: 'x' })) });
  t.equal(tooMany.statusCode, 422);
  t.equal(tooMany.json().error, shape);
  t.equal((await upload({ items: [tee()], products: [] })).json().error, 'Send items or products, not both.');
  const missing = await call('POST', '/v1/datasets/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4/items/upload', { items: [tee()] });
  t.equal(missing.statusCode, 404);
  for (const list of ['items', 'items/queue']) {
    const { datasetId } = (await call('GET', '/v1/datasets')).json().datasets[0];
    const bad = await call('GET', `/v1/datasets/${datasetId}/${list}?limit=500`);
    t.equal(bad.statusCode, 422, `${list}: limit over 200`);
    t.equal(bad.json().error, 'limit must be an integer between 1 and 200.');
    t.same((await call('GET', `/v1/datasets/${datasetId}/${list}?page=3.7`)).json().pagination, { page: 3, limit: 10, total: 0, hasMore: false }, `${list}: decimals truncated`);
  }
});

t.test('upload bodies are capped at UPLOAD_BODY_LIMIT (413), and every field of an entry is bounded (the entry refused with the bound)', async (t) => {
  const { upload, call, datasetId } = await setUp(t);
  const raw = (payload: string) => call('POST', `/v1/datasets/${datasetId}/items/upload`, payload);
  const json = JSON.stringify({ items: [tee({ sku: 'PAD-1' })] });
  const atLimit = await raw(json.padEnd(UPLOAD_BODY_LIMIT, ' '));
  t.equal(atLimit.statusCode, 202, 'a body of exactly the limit is read');
  const over = await raw(json.padEnd(UPLOAD_BODY_LIMIT + 1, ' '));
  t.equal(over.statusCode, 413);
  t.same(over.json(), { error: 'Request body is too large.' });

  const response = await upload({
    items: [
      tee({ sku: 'AT-1', tags: Array.from({ length: 250 }, (_, i) => `tag-${i}`), images: Array.from({ length: 250 }, (_, i) => ({ src: `https://cdn.example/${i}.jpg` })) }),
      tee({ sku: 'OVER-TAGS', tags: Array.from({ length: 251 }, (_, i) => `tag-${i}`) }),
      tee({ sku: 'OVER-TAG', tags: ['x'.repeat(256)] }),
      tee({ sku: 'OVER-IMAGES', images: Array.from({ length: 251 }, (_, i) => ({ src: `https://cdn.example/${i}.jpg` })) }),
      tee({ sku: 'OVER-VARIANTS', variants: Array.from({ length: 2049 }, (_, i) => ({ sku: `V-${i}` })) }),
      tee({ sku: 'OVER-DESCRIPTION', description: 'x'.repeat(100_001) }),
    ],
  });
  t.equal(response.statusCode, 202);
  const body = response.json();
  t.same(body.queued.map((entry: { sku: string }) => entry.sku), ['AT-1']);
  t.same(body.failures, [
    { index: 1, sku: 'OVER-TAGS', error: 'tags must have at most 250 entries.' },
    { index: 2, sku: 'OVER-TAG', error: 'tags[0] must be at most 255 characters.' },
    { index: 3, sku: 'OVER-IMAGES', error: 'images must have at most 250 entries.' },
    { index: 4, sku: 'OVER-VARIANTS', error: 'variants must have at most 2,048 entries.' },
    { index: 5, sku: 'OVER-DESCRIPTION', error: 'description must be at most 100,000 characters.' },
  ]);
});

t.test('a Shopify product id too long for an sku is refused as an entry, and the catalogue goes on taking writes', async (t) => {
  // Found by the fuzz test: an id of 3,000 characters became an sku that the catalogue's unique
  // index cannot hold, stopped the catalogue_items projection, and every later catalogue write of
  // every organization answered 500.
  const { upload, call } = await setUp(t);
  const response = await upload({ products: [{ id: 'a'.repeat(3000), title: 'Tee' }, { id: 'b'.repeat(200), title: 'Tee' }] });
  t.equal(response.statusCode, 202);
  t.same(response.json().failures.map(({ index, error }: { index: number; error: string }) => ({ index, error })), [{ index: 0, error: 'id must be at most 200 characters.' }]);
  t.equal(response.json().queued.length, 1, 'an id of 200 characters is taken');
  t.equal((await call('POST', '/v1/datasets', { name: 'After' })).statusCode, 201, 'the catalogue still takes writes');
});

t.test('history: the dataset stream with the actor of each change', async (t) => {
  const { call, datasetId, org } = await setUp(t);
  await call('PATCH', `/v1/datasets/${datasetId}`, { name: 'Renamed' });
  const { events, pagination } = (await call('GET', `/v1/datasets/${datasetId}/history?limit=2`)).json();
  t.same(pagination, { page: 1, limit: 2, total: 3, hasMore: true });
  t.same(events.map((e: { type: string }) => e.type), ['DatasetCreated', 'DatasetActivated']);
  t.match(events[0], { actor: { kind: 'key', id: org.keyId }, data: { name: 'Main' } });
});

t.test('Shopify products.json products upload as they are, and deleting the dataset removes everything', { skip: existsSync(FIXTURES) ? false : 'needs ../shared/fixtures (absent)' }, async (t) => {
  const { products } = JSON.parse(await readFile(path.join(FIXTURES, 'jmikh-ecom-shopify_products-converted.json'), 'utf8'));
  const { call, datasetId, upload, drained, service } = await setUp(t);
  const response = (await upload({ products: products.slice(0, 20).map((p: object) => ({ ...p, images: [] })) })).json();
  t.equal(response.summary.queued, 20);
  t.same(response.failures, []);
  await drained();
  const first = (await call('GET', `/v1/datasets/${datasetId}/items/${response.queued[0].itemId}`)).json().item;
  t.equal(first.product.sku, String(products[0].id), 'sku is the product id');
  t.equal(first.product.url, `https://acme.example.com/products/${products[0].handle}`);
  const deleted = (await call('DELETE', `/v1/datasets/${datasetId}`)).json();
  t.same(deleted, { deleted: true, deletedCount: 1, itemsDeletedCount: 20, queuedDeletedCount: 0, sourcesDeletedCount: 0, syncJobsDeletedCount: 0 });
  const rows = await service.platform.database.db.selectFrom('catalogue_items').select('item_id').where('dataset_id', '=', datasetId).execute();
  t.same(rows, [], 'item rows gone at once');
});

t.test('replaying every event reproduces the dataset and item read models exactly', async (t) => {
  const { upload, drained, service, call, datasetId } = await setUp(t, {}, {}, { own: true });
  await upload({ items: [tee(), tee({ sku: 'TEE-2', name: 'Striped Linen Shirt' })] });
  await drained();
  await call('PATCH', `/v1/datasets/${datasetId}/archive`);
  const db = service.platform.database.db;
  const dump = async () => JSON.stringify([await db.selectFrom('datasets').selectAll().orderBy('dataset_id').execute(), await db.selectFrom('catalogue_items').selectAll().orderBy('item_id').execute()].map((rows) => rows.map(({ sequence: _s, ...row }) => row)));
  const before = await dump();
  const rebuilt = await service.cli(['projections', 'rebuild']);
  t.same(rebuilt.rebuilt, allProjectors.map((p) => p.name), 'stylist projections rebuild replays every read model');
  t.equal(await dump(), before);
});

t.test('an item whose processing keeps failing is retried a bounded number of times, then its queue row is failed with the reason', async (t) => {
  // An OpenAI-compatible embeddings server that is down.
  const { createServer } = await import('node:http');
  let calls = 0;
  const down = createServer((_request, response) => {
    calls++;
    response.writeHead(503, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'model overloaded' } }));
  });
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => down.close(() => resolve())));
  const address = down.address() as { port: number };
  const service = await startTestService(t, {
    workers: ['ingest'],
    // A short pause between attempts (INGEST_RETRY_DELAY_MS) keeps the test to a second or two.
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${address.port}/v1`, OPENAI_API_KEY: 'test', STYLIST_EMBEDDING_MODEL: 'text-embedding-3-small', INGEST_RETRY_DELAY_MS: '200' },
  });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const datasetId = (await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Main' } })).json().datasetId;
  const { queued } = (await service.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/items/upload`, headers, payload: { items: [tee()] } })).json();
  const until = Date.now() + 90_000;
  let row: { status: string; error: string | null; attempts: number } | undefined;
  while (Date.now() < until) {
    row = (await service.app.inject({ url: `/v1/datasets/${datasetId}/items/queue`, headers })).json().queue[0];
    if (row?.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.match(row, { itemId: queued[0].itemId, status: 'failed', attempts: 3, error: /503/ });
  t.same((await service.app.inject({ url: `/v1/datasets/${datasetId}`, headers })).json().dataset.items, { active: 0, archived: 0, pending: 0, processing: 0, failed: 1 });
  const before = calls;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal(calls, before, 'no attempts after the last one (seven retry pauses later)');
});

t.test('an upload whose read models do not catch up answers 500 with the reason; the products are queued all the same', async (t) => {
  const { upload, service, call, datasetId } = await setUp(t, {}, {}, { own: true });
  // No projections running: the queue rows cannot appear within the wait.
  await service.platform.projections.stop();
  const started = Date.now();
  const response = await upload({ items: [tee()] });
  t.equal(response.statusCode, 500, 'never a silent 202');
  t.match(response.json(), {
    error: 'Internal server error.',
    reason: /^The change was saved but projections? .*'catalogue_items'.* did not catch up within 5 s: /,
  });
  t.ok(Date.now() - started < 8000, 'within the wait');
  await service.platform.projections.start();
  await service.platform.projections.waitFor((await service.platform.eventStore.committedHead())!, ['catalogue_items'], 30_000);
  const { active, pending, processing } = (await call('GET', `/v1/datasets/${datasetId}`)).json().dataset.items;
  t.equal(active + pending + processing, 1, 'the row arrives once projections run again');
});
