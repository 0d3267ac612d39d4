// The demo catalogue: seeded into the demo organization through the merchant path, idempotent,
// and its drawn photos go through the same photo pipeline as a store's.
import t from 'tap';
import { seedDemo } from '../../app/demo.js';
import { DEMO_DATASET_ID } from '../../commands/demo-catalogue.js';
import { generateDemoCatalogue } from '../../domain/demo-catalogue/generate.js';
import { startTestService } from '../support/service.js';

t.test('stylist demo seed: an active dataset of generated products, queued once', async (t) => {
  const service = await startTestService(t);
  const first = await service.cli(['demo', 'seed', '--json']);
  const products = generateDemoCatalogue().length;
  t.match(first, { datasetId: DEMO_DATASET_ID, products, queued: products, unchanged: 0 });
  const again = await seedDemo(service.platform);
  t.match(again, { datasetId: DEMO_DATASET_ID, queued: 0, unchanged: products }, 'a second run changes nothing');
  const row = await service.platform.database.db.selectFrom('datasets').select(['status', 'name']).where('dataset_id', '=', DEMO_DATASET_ID).executeTakeFirstOrThrow();
  t.equal(row.status, 'active');
  const queued = await service.platform.database.db.selectFrom('catalogue_items').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', DEMO_DATASET_ID).executeTakeFirstOrThrow();
  t.equal(Number(queued.n), products);
});

t.test('DEMO_PRODUCTS loads the catalogue\'s first products: the same ones, fewer', async (t) => {
  const service = await startTestService(t, { env: { DEMO_PRODUCTS: '80' } });
  t.match(await service.cli(['demo', 'seed', '--json']), { datasetId: DEMO_DATASET_ID, products: 80, queued: 80, unchanged: 0 });
  const rows = await service.platform.database.db.selectFrom('catalogue_items').select('sku').where('dataset_id', '=', DEMO_DATASET_ID).execute();
  t.same(rows.map((r) => r.sku).sort(), generateDemoCatalogue().slice(0, 80).map((p) => p.input.sku).sort(), 'the first 80 of the whole catalogue, so their drawn photos match');
});

t.test('demo products ingest like a merchant upload: drawn photos stored, labels match what was generated', async (t) => {
  const service = await startTestService(t, { workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const datasetId = (await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Demo copy' } })).json().datasetId;
  // One product of each of a few slots.
  const sample = generateDemoCatalogue().filter((product, index, all) => all.findIndex((other) => other.facts.slot === product.facts.slot) === index).slice(0, 6);
  const upload = await service.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/items/upload`, headers, payload: { items: sample.map((p) => p.input) } });
  t.equal(upload.statusCode, 202);
  const until = Date.now() + 60_000;
  let items: Array<{ product: { sku: string; assets: { images: unknown[] } }; metadata: { slot: string } }> = [];
  while (Date.now() < until) {
    items = (await service.app.inject({ url: `/v1/datasets/${datasetId}/items?limit=50`, headers })).json().items;
    if (items.length === sample.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.equal(items.length, sample.length, 'all processed');
  for (const product of sample) {
    const item = items.find((i) => i.product.sku === product.input.sku)!;
    t.equal(item.product.assets.images.length, product.photos.length, `${product.input.sku}: every drawn photo stored`);
    t.equal(item.metadata.slot, product.facts.slot, `${product.input.name}: slot ${product.facts.slot}`);
  }
});
