// POST /v1/search through HTTP with the ingest worker running, on a small catalogue the test makes
// itself: every field of document 3 §3, the scope rules, what the shopper's words do (family,
// colour, length, price, size, gender), filters, products the shopper cannot buy coming last among
// the matches, and the 422s.
import t, { type Test } from 'tap';
import { searchResponse } from '../../api/routes/search.js';
import { searchCatalogue, type SearchFilters } from '../../projections/queries/search/index.js';
import { SearchMemory } from '../../projections/search-memory.js';
import { sharedTestService, startTestService } from '../support/service.js';
import { product, variant } from '../support/items.js';

const CATALOGUE = [
  product('DRESS-RED-MIDI', 'Red Satin Midi Dress', 'Dresses', 70, [variant('DRM-S', 'S', 70), variant('DRM-M', 'M', 70)]),
  product('DRESS-RED-MAXI', 'Red Tiered Maxi Dress', 'Dresses', 120, [variant('DRX-S', 'S', 120)]),
  product('DRESS-BLUE-MIDI', 'Blue Linen Midi Dress', 'Dresses', 60, [variant('DBM-S', 'S', 60, true, 75)], { tags: ['summer', 'wedding guest'] }),
  product('BOOT-BLACK', "Men's Black Leather Chelsea Boots", 'Boots', 150, [variant('BB-41', '41', 150, false), variant('BB-42', '42', 150)]),
  product('BOOT-BROWN', "Men's Brown Suede Boots", 'Boots', 140, [variant('BR-42', '42', 140, false), variant('BR-43', '43', 140)]),
  product('SHIRT-LINEN', "Men's Navy Linen Shirt", 'Shirts', 60, [variant('SL-M', 'M', 60)]),
  product('SHIRT-WOMEN', "Women's White Cotton Shirt", 'Shirts', 55, [variant('SW-M', 'M', 55)]),
  // The better text match is sold out: it must still come after the one the shopper can buy.
  product('SNEAKER-SOLD', 'White Leather Sneakers Classic White', 'Sneakers', 90, [variant('SS-40', '40', 90, false)]),
  product('SNEAKER-OK', 'White Canvas Sneakers', 'Sneakers', 65, [variant('SO-40', '40', 65)]),
];
/** For the pattern and fit filters. */
const STRIPED_TEE = product('TEE-STRIPE', 'Striped Slim Fit Cotton T-Shirt', 'T-Shirts', 25, [variant('TS-M', 'M', 25)]);

/** `own`: a service of the test's own, for a test that looks at the whole process (the search memory). */
const setUp = async (t: Test, { own = false } = {}) => {
  const service = own ? await startTestService(t, { workers: ['ingest'] }) : await sharedTestService({ workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const admin = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const dataset = async (name: string, storeUrl: string, items: object[]) => {
    const datasetId = (await call('POST', '/v1/datasets', { name, config: { storeUrl, currency: 'EUR' } })).json().datasetId as string;
    await call('PATCH', `/v1/datasets/${datasetId}/activate`);
    t.equal((await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items })).statusCode, 202);
    const until = Date.now() + 60_000 + 500 * items.length;
    for (;;) {
      const { pagination } = (await call('GET', `/v1/datasets/${datasetId}/items?limit=1`)).json();
      if (pagination.total === items.length) break;
      if (Date.now() > until) throw new Error('items not processed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return datasetId;
  };
  const search = (body: object, key = org.publicKey as string) =>
    service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${key}` }, payload: body });
  /**
   * Search settles once the search read model has the items (read-your-writes holds for the item
   * list, not for search): once `dataset` returns every item is processed, and the read model is
   * waited on up to the store's head (the event, not a clock); the polling after it is a safety net.
   */
  const settled = async (body: object, count: number) => {
    await service.platform.projections.waitFor((await service.platform.eventStore.committedHead())!, ['search_index'], 60_000);
    const until = Date.now() + 60_000;
    for (;;) {
      const response = await search(body);
      if (response.statusCode !== 200 || response.json().results.length >= count || Date.now() > until) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { service, org, call, dataset, search, settled };
};

const skus = (response: { json(): any }) => response.json().results.map((r: any) => r.product.sku);

t.test('a search result carries every field of document 3 §3 and document 1', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  const datasetId = await dataset('Main', 'https://acme.example.com', CATALOGUE);
  const response = await settled({ query: 'red dress' }, 2);
  t.equal(response.statusCode, 200);
  const body = response.json();
  t.same(Object.keys(body).sort(), ['market', 'results']);
  t.same(body.market, { country: null, currency: 'EUR', exact: false });
  const [first] = body.results;
  t.same(Object.keys(first).sort(), ['datasetId', 'itemId', 'metadata', 'product', 'score']);
  t.equal(first.datasetId, datasetId);
  t.type(first.score, 'number');
  t.match(first.metadata, { slot: 'full body', family: 'dress', color_family: 'red' });
  t.notOk('embedding' in first.metadata || 'vector' in first.metadata, 'no embeddings');
  t.match(first.product, {
    sku: String,
    name: /Red/,
    currency: 'EUR',
    market: null,
    // No country sent: the stored prices stand in, and no-country is the first reason of the table.
    marketExact: false,
    marketFallback: 'no-country',
    available: true,
    onSale: false,
    discount: 0,
    referencePrice: Number,
    referenceCurrency: 'EUR',
    variants: Array,
  });
  t.equal(first.product.price, first.product.referencePrice);

  const sale = (await settled({ query: 'blue linen midi dress' }, 1)).json().results[0];
  t.match(sale.product, { sku: 'DRESS-BLUE-MIDI', onSale: true, discount: 20 }, 'an in-stock reduced variant puts the product on sale');

  // The route does not check its answer per request: the answers are held to the schema here.
  for (const query of ['red dress', 'blue linen midi dress', 'shirt', 'gift']) {
    const response = await search({ query, country: 'DE' });
    // Sent as bytes the route wrote itself: still JSON to the shopper's browser, never cached or sniffed.
    t.match(response.headers, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, `"${query}": JSON`);
    const answer = response.json();
    t.same(searchResponse.parse(answer), answer, `"${query}": the answer is the response schema's shape, not a field more or less`);
  }
});

t.test("the shopper's words: family, colour, length, budget, size, gender", async (t) => {
  const { dataset, settled, search } = await setUp(t);
  await dataset('Main', 'https://acme.example.com', CATALOGUE);
  await settled({ query: 'dress' }, 3);

  const redMidi = await search({ query: 'red midi dress under 80' });
  t.equal(skus(redMidi)[0], 'DRESS-RED-MIDI', 'the red midi dress first');
  t.notOk(skus(redMidi).includes('DRESS-RED-MAXI'), 'over budget is left out');
  t.ok(redMidi.json().results.every((r: any) => r.product.price <= 80), 'every result within the budget');

  const boots = await search({ query: 'black boots size 42' });
  t.equal(skus(boots)[0], 'BOOT-BLACK');
  t.ok(skus(boots).every((sku: string) => sku.startsWith('BOOT')), 'only boots offer a size 42');

  const mensShirt = await search({ query: "men's linen shirt" });
  t.equal(skus(mensShirt)[0], 'SHIRT-LINEN');
  t.notOk(skus(mensShirt).includes('SHIRT-WOMEN'), "a women's shirt is not a men's shirt");

  const misspelt = await search({ query: 'lether boots' });
  t.ok(skus(misspelt).slice(0, 2).includes('BOOT-BLACK'), 'a misspelt word still finds the product');

  const occasion = await search({ query: 'something for a summer wedding' });
  t.equal(skus(occasion)[0], 'DRESS-BLUE-MIDI', 'occasion words raise what fits them');
});

t.test('a product the shopper cannot buy ranks after those they can among the things asked for, and before the looser matches', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  await dataset('Main', 'https://acme.example.com', CATALOGUE);
  await settled({ query: 'sneakers' }, 2);
  const results = (await search({ query: 'white leather sneakers classic' })).json().results;
  const firstUnavailable = results.findIndex((r: any) => !r.product.available);
  t.ok(firstUnavailable > 0, 'the sold-out pair is there, but not first');
  t.match(results[firstUnavailable].product, { sku: 'SNEAKER-SOLD', available: false, onSale: false });
  t.ok(results.slice(0, firstUnavailable).every((r: any) => r.metadata.family === 'sneaker'), 'only sneakers the shopper can buy before it');
  const after = results.slice(firstUnavailable + 1);
  t.ok(after.length > 0 && after.every((r: any) => r.metadata.family !== 'sneaker'), 'the looser matches after it');
  // Among the looser matches, too, what the shopper can buy comes first.
  t.same(after.map((r: any) => r.product.available), [...after.map((r: any) => r.product.available)].sort((a, b) => Number(b) - Number(a)));

  const size = (await search({ query: 'boots size 42' })).json().results;
  t.same(
    size.map((r: any) => r.product.sku),
    ['BOOT-BLACK', 'BOOT-BROWN'],
    'the pair whose size 42 is sold out comes after the one in stock',
  );
});

t.test('the next best thing: a near family after the family asked for and before the rest of its slot', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  await dataset('Main', 'https://acme.example.com', [
    product('SWEAT-GREY', 'Grey Crewneck Sweatshirt', 'Sweatshirts', 45, [variant('SG-M', 'M', 45)]),
    product('HOODIE-BLACK', 'Black Pullover Hoodie', 'Hoodies', 50, [variant('HB-M', 'M', 50)]),
    product('BLOUSE-SILK', 'Ivory Silk Blouse', 'Blouses', 70, [variant('BS-M', 'M', 70)]),
    product('JOGGER-GREY', 'Grey Fleece Joggers', 'Joggers', 40, [variant('JG-M', 'M', 40)]),
    product('TROUSER-CHINO', 'Navy Chino Trousers', 'Trousers', 60, [variant('TC-M', 'M', 60)]),
    product('SHORTS-DENIM', 'Denim Shorts', 'Shorts', 35, [variant('SD-M', 'M', 35)]),
  ]);
  await settled({ query: 'sweatshirt' }, 3);
  t.same(skus(await search({ query: 'sweatshirt' })), ['SWEAT-GREY', 'HOODIE-BLACK', 'BLOUSE-SILK'], 'a hoodie is nearer a sweatshirt than a blouse is');
  t.same(skus(await search({ query: 'joggers' })), ['JOGGER-GREY', 'TROUSER-CHINO', 'SHORTS-DENIM'], 'trousers are nearer joggers than shorts are');
});

t.test('the next best thing, nearest first: trousers whose listing shows what makes joggers (a drawstring, "sweats") before plain trousers', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  const plain = Array.from({ length: 6 }, (_, i) => product(`TROUSER-${i}`, `Tailored Trousers ${i}`, 'Trousers', 60, [variant(`T${i}-M`, 'M', 60)]));
  await dataset('Main', 'https://acme.example.com', [
    ...plain,
    product('TROUSER-DRAW', 'Linen Trousers', 'Trousers', 55, [variant('TD-M', 'M', 55)], { description: 'Easy linen trousers with a drawstring waist.' }),
    product('PANT-KNIT', 'Knit Pant', 'Trousers', 65, [variant('PK-M', 'M', 65)], { description: "Funky 'sweats' in a soft cotton knit, with ankle bands." }),
    // Elastane is not elastic: a whole word, not the start of one.
    product('TROUSER-STRETCH', 'Stretch Trousers', 'Trousers', 70, [variant('TS-M', 'M', 70)], { description: 'Cotton with elastane.' }),
  ]);
  await settled({ query: 'trousers', limit: 20 }, 9);
  const answer = await search({ query: 'joggers', limit: 20 });
  const found = skus(answer);
  t.equal(found.length, 9, 'every pair of trousers is still shown');
  t.same(found.slice(0, 2).sort(), ['PANT-KNIT', 'TROUSER-DRAW'], 'the two that are nearly joggers lead');
  const score = new Map<string, number>(answer.json().results.map((r: any) => [r.product.sku, r.score as number]));
  t.ok(score.get('TROUSER-STRETCH')! < score.get('TROUSER-DRAW')! - 0.1, 'the elastane pair earns what plain trousers do');
});

t.test('a near family of many: the trousers that are nearly joggers are found however many plain trousers there are', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  // More plain trousers than a retrieval leg keeps (120), all equal to the attribute leg.
  const plain = Array.from({ length: 300 }, (_, i) => product(`TR-${i}`, `Tailored Trousers No. ${i}`, 'Trousers', 60, [variant(`TR-${i}-M`, 'M', 60)]));
  await dataset('Trousers', 'https://trousers.example.com', [
    ...plain,
    product('TR-DRAW', 'Linen Trousers', 'Trousers', 55, [variant('TRD-M', 'M', 55)], { description: 'Easy linen trousers with a drawstring waist.' }),
    product('TR-CUFF', 'Cotton Trousers', 'Trousers', 55, [variant('TRC-M', 'M', 55)], { description: 'Soft cotton trousers, cuffed at the ankle.' }),
  ]);
  await settled({ query: 'joggers', limit: 20 }, 20);
  const found = skus(await search({ query: 'joggers', limit: 20 }));
  t.same(found.slice(0, 2).sort(), ['TR-CUFF', 'TR-DRAW']);
});

t.test('what suits an occasion counts by whole phrases: a "sports bra" or a "tank top" suits yoga, a lace bra top does not', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  // Lingerie holding a word of two of yoga's phrases ("sports bra", "tank top") and neither phrase.
  const lace = Array.from({ length: 3 }, (_, i) => product(`LACE-${i}`, `Lace Bra Top ${i}`, 'Lingerie', 30, [variant(`LACE-${i}-M`, 'M', 30)]));
  await dataset('Main', 'https://acme.example.com', [
    ...lace,
    product('LEGGINGS', 'High-Rise Leggings', 'Leggings', 45, [variant('LG-M', 'M', 45)]),
    product('TANK', 'Ribbed Tank Top', 'Tank Tops', 25, [variant('TK-M', 'M', 25)]),
  ]);
  await settled({ query: 'what to wear to yoga', limit: 20 }, 2);
  const found = skus(await search({ query: 'what to wear to yoga', limit: 20 }));
  t.same(found.slice(0, 2).sort(), ['LEGGINGS', 'TANK'], 'the leggings and the tank top before the lace');
});

t.test('a rare word says more than a common one: "waffle knit top" finds the waffle top before the knit tops', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  const knit = Array.from({ length: 8 }, (_, i) => product(`KNIT-${i}`, `Cotton Knit Top ${i}`, 'Tops', 30, [variant(`K${i}-M`, 'M', 30)]));
  await dataset('Main', 'https://acme.example.com', [...knit, product('WAFFLE', 'Grey Waffle Tee', 'T-Shirts', 35, [variant('W-M', 'M', 35)])]);
  await settled({ query: 'top', limit: 20 }, 9);
  t.equal(skus(await search({ query: 'waffle knit top' }))[0], 'WAFFLE');
});

t.test('a budget holds while retrieving: every match within it is found, however many matches are over it', async (t) => {
  const { service, dataset, search } = await setUp(t);
  // More sneakers over the budget than a retrieval leg keeps (120), the few within it among them.
  const over = Array.from({ length: 260 }, (_, i) => product(`SNK-${i}`, `Court Sneakers No. ${i}`, 'Sneakers', 150, [variant(`SNK-${i}-42`, '42', 150)]));
  const within = Array.from({ length: 6 }, (_, i) => product(`CHEAP-${i}`, `Court Sneakers Basic ${i}`, 'Sneakers', 40, [variant(`CHEAP-${i}-42`, '42', 40)]));
  await dataset('Sneakers', 'https://sneakers.example.com', [...over, ...within]);
  // Every item processed; then the search read model has them all (search reads it, not the item list).
  await service.platform.projections.waitFor((await service.platform.eventStore.committedHead())!, ['search_index'], 60_000);
  const found = skus(await search({ query: 'sneakers under 50', limit: 20 }));
  t.same([...found].sort(), within.map((p) => p.sku).sort(), 'the six within the budget, and only they');
  const filtered = skus(await search({ query: 'sneakers', limit: 20, filters: { maxPrice: 50 } }));
  t.same([...filtered].sort(), within.map((p) => p.sku).sort(), 'the same with the filter');
});

t.test('a sale asked for fills its page from deeper than a plain page reads: every reduced match is found, however many full-price ones rank before them', async (t) => {
  const { service, dataset, search } = await setUp(t);
  // More full-price sneakers than a page of 20 reads a leg deep (60), the reduced ones among them
  // with longer names (a weaker text and vector match), so they rank after most of them.
  const full = Array.from({ length: 100 }, (_, i) => product(`FULL-${i}`, `Court Sneakers No. ${i}`, 'Sneakers', 90, [variant(`FULL-${i}-42`, '42', 90)]));
  const reduced = Array.from({ length: 8 }, (_, i) => product(`SALE-${i}`, `Court Sneakers Basic Canvas Low Edition ${i}`, 'Sneakers', 60, [variant(`SALE-${i}-42`, '42', 60, true, 90)]));
  await dataset('Sneakers', 'https://sale.example.com', [...full, ...reduced]);
  await service.platform.projections.waitFor((await service.platform.eventStore.committedHead())!, ['search_index'], 60_000);
  const filtered = skus(await search({ query: 'sneakers', limit: 20, filters: { onSale: true } }));
  t.same([...filtered].sort(), reduced.map((p) => p.sku).sort(), 'the eight reduced pairs, and only they');
  const said = skus(await search({ query: 'sneakers on sale', limit: 20 }));
  t.same([...said].sort(), reduced.map((p) => p.sku).sort(), 'the same when the words ask for the sale');
});

t.test('a look-up for the agent or match (filters.inStock) answers only what the shopper can buy, as many as asked', async (t) => {
  const { service, org, dataset, settled } = await setUp(t);
  await dataset('Main', 'https://acme.example.com', CATALOGUE);
  await settled({ query: 'sneakers' }, 2);
  const deps = { db: service.platform.database.db, memory: service.platform.search().memory, embedder: service.platform.search().embedder };
  const look = (filters: SearchFilters) => searchCatalogue(deps, { organizationId: org.organizationId, query: 'white leather sneakers classic', limit: 2, filters });
  const shown = (await look({})).results.map((r) => r.product.sku);
  t.same(shown, ['SNEAKER-OK', 'SNEAKER-SOLD'], "a shopper's search shows the sold-out pair after the one in stock");
  const buyable = (await look({ inStock: true })).results;
  t.equal(buyable.length, 2, 'the sold-out pair takes no place');
  t.equal(buyable[0]!.product.sku, 'SNEAKER-OK');
  t.ok(buyable.every((r) => r.product.available), 'only what the shopper can buy');
});

t.test('filters narrow the results to the field values given', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  await dataset('Main', 'https://acme.example.com', [...CATALOGUE, STRIPED_TEE]);
  await settled({ query: 'dress' }, 3);
  const footwear = (await search({ query: 'white', filters: { slot: 'footwear' } })).json().results;
  t.ok(footwear.length >= 1 && footwear.every((r: any) => r.metadata.slot === 'footwear'));
  const mens = (await search({ query: 'shirt', filters: { gender: 'mens' } })).json().results;
  t.ok(mens.length >= 1 && mens.every((r: any) => r.metadata.gender === 'mens'));
  const priced = (await search({ query: 'dress', filters: { minPrice: 65, maxPrice: 100 } })).json().results;
  t.same(priced.map((r: any) => r.product.sku).sort(), ['DRESS-RED-MIDI'], 'price bounds on the product price (the blue dress sells at 60)');
  const sale = (await search({ query: 'dress', filters: { onSale: true } })).json().results;
  t.same(sale.map((r: any) => r.product.sku), ['DRESS-BLUE-MIDI']);
  const red = (await search({ query: 'dress', filters: { color_family: 'red' } })).json().results;
  t.same(red.map((r: any) => r.product.sku).sort(), ['DRESS-RED-MAXI', 'DRESS-RED-MIDI']);
  const limited = (await search({ query: 'dress', limit: 1 })).json().results;
  t.equal(limited.length, 1);
  const dresses = (await search({ query: 'red', filters: { family: 'dress' } })).json().results;
  t.same(dresses.map((r: any) => r.product.sku).sort(), ['DRESS-RED-MAXI', 'DRESS-RED-MIDI'], 'family');
  const linen = (await search({ query: 'dress', filters: { material: 'linen' } })).json().results;
  t.same(linen.map((r: any) => r.product.sku), ['DRESS-BLUE-MIDI'], 'material: any of the item’s materials');
  const striped = (await search({ query: 'cotton', filters: { pattern: 'striped' } })).json().results;
  t.same(striped.map((r: any) => r.product.sku), ['TEE-STRIPE'], 'pattern');
  const slim = (await search({ query: 'shirt', filters: { fit: 'slim' } })).json().results;
  t.same(slim.map((r: any) => r.product.sku), ['TEE-STRIPE'], 'fit');
  const none = (await search({ query: 'dress', filters: { family: 'dress', color_family: 'green' } })).json();
  t.same(none.results, [], 'filters combine: no green dress');
});

t.test('scope: datasetIds, else the store, else every active dataset; only active items', async (t) => {
  const { dataset, settled, search, call, service } = await setUp(t);
  const main = await dataset('Main', 'https://acme.example.com', CATALOGUE.slice(0, 3));
  const outlet = await dataset('Outlet', 'https://outlet.example.com', [product('OUT-DRESS', 'Red Outlet Dress', 'Dresses', 30, [variant('OD-S', 'S', 30)])]);
  await settled({ query: 'red dress' }, 3);

  const everywhere = (await search({ query: 'red dress' })).json().results;
  t.same(new Set(everywhere.map((r: any) => r.datasetId)), new Set([main, outlet]), 'every active dataset by default');
  const onlyOutlet = (await search({ query: 'red dress', datasetIds: [outlet] })).json().results;
  t.same(onlyOutlet.map((r: any) => r.product.sku), ['OUT-DRESS']);
  const byStore = (await search({ query: 'red dress', store: { origin: 'https://outlet.example.com/products/x', shop: null } })).json().results;
  t.same(byStore.map((r: any) => r.product.sku), ['OUT-DRESS'], 'the store narrows to its datasets');
  const unknownStore = (await search({ query: 'red dress', store: { origin: 'https://elsewhere.example.com', shop: null } })).json().results;
  t.equal(unknownStore.length, everywhere.length, 'a store that matches nothing searches every active dataset');
  const ignoredStore = (await search({ query: 'red dress', datasetIds: [main], store: { origin: 'https://outlet.example.com' } })).json().results;
  t.ok(ignoredStore.every((r: any) => r.datasetId === main), 'the store is ignored when datasetIds is sent');

  const other = await service.cli(['org', 'create', '--name', 'Other Shop', '--json']);
  const foreign = await search({ query: 'red dress', datasetIds: [main] }, other.publicKey);
  t.same(foreign.json().results, [], "another organization's dataset is invisible");

  // An archived item leaves search; an archived dataset takes all of its items with it.
  const itemId = everywhere.find((r: any) => r.product.sku === 'DRESS-RED-MIDI').itemId;
  t.equal((await call('PATCH', `/v1/datasets/${main}/items/${itemId}`, { status: 'archived' })).statusCode, 200);
  t.notOk(skus(await search({ query: 'red dress' })).includes('DRESS-RED-MIDI'), 'an archived item is not searchable');
  await call('PATCH', `/v1/datasets/${outlet}/archive`);
  t.notOk(skus(await search({ query: 'red dress' })).includes('OUT-DRESS'), 'items of an archived dataset are not searchable');
});

t.test('a dataset activated since the same search last ran is searched by it at once', async (t) => {
  const { dataset, settled, search } = await setUp(t);
  const main = await dataset('Main', 'https://main.example.com', [CATALOGUE[0]!]);
  t.same(skus(await settled({ query: 'red dress' }, 1)), ['DRESS-RED-MIDI']);
  await dataset('Outlet', 'https://outlet.example.com', [CATALOGUE[1]!]);
  // A search of the first dataset alone catches its memory up with the read model, the new
  // dataset's items included: only the scope read tells that there are two datasets now.
  t.same(skus(await settled({ query: 'red dress', datasetIds: [main] }, 1)), ['DRESS-RED-MIDI']);
  t.same(skus(await search({ query: 'red dress' })).sort(), ['DRESS-RED-MAXI', 'DRESS-RED-MIDI'], 'both datasets searched');
});

t.test('a search retrieves while its scope read is on the way to the database, not before sending it', async (t) => {
  const { service, org, dataset, settled } = await setUp(t);
  await dataset('Main', 'https://main.example.com', CATALOGUE);
  await settled({ query: 'red dress' }, 2);
  // As pg's pool does, a connection is handed over on process.nextTick: a query is sent only once
  // the microtasks queued before it have run. Recorded: when each query is sent, when retrieval asks
  // the memory for its datasets.
  const happened: string[] = [];
  const bound = <T extends object>(target: T, overrides: Partial<Record<PropertyKey, unknown>>): T =>
    new Proxy(target, {
      get: (object, name) => {
        if (name in overrides) return overrides[name];
        const value: unknown = Reflect.get(object, name);
        // Bound to the object itself: a method reading a private field throws when called on a proxy.
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
  const { db } = service.platform.database;
  const executor = db.getExecutor();
  const handedOnNextTick = bound(executor, {
    executeQuery: async (query: { sql: string }, queryId: unknown) => {
      await new Promise((resolve) => process.nextTick(resolve));
      happened.push(/from datasets d where/.test(query.sql) ? 'scope read sent' : 'other query sent');
      return executor.executeQuery(query as never, queryId as never);
    },
  });
  const { memory, embedder } = service.platform.search();
  const deps = {
    db: bound(db, { getExecutor: () => handedOnNextTick }),
    memory: bound(memory, { ready: (...args: Parameters<SearchMemory['ready']>) => (happened.push('retrieval'), memory.ready(...args)) }),
    embedder,
  };
  const request = { organizationId: org.organizationId, query: 'red dress', limit: 5 };
  const first = (await searchCatalogue(deps, request)).results.map((result) => result.product.sku);
  t.same(first.slice(0, 2).sort(), ['DRESS-RED-MAXI', 'DRESS-RED-MIDI']);
  happened.length = 0;
  // The scope is the same as last time: retrieval starts on its datasets before the scope is read.
  t.same((await searchCatalogue(deps, request)).results.map((result) => result.product.sku), first, 'the same answer');
  t.same(happened.filter((event) => event !== 'other query sent').slice(0, 2), ['scope read sent', 'retrieval'], 'the scope read is sent first, and retrieval runs while it is answered');
});

t.test('bad queries, limits and filters are refused with 422 and a message', async (t) => {
  const { search } = await setUp(t);
  const cases: Array<[string, object, RegExp]> = [
    ['no query', {}, /^query must be a string of 1 to 500 characters\.$/],
    ['an empty query', { query: '   ' }, /^query must be/],
    ['a query too long', { query: 'x'.repeat(501) }, /^query must be/],
    ['a query not text', { query: 42 }, /^query must be/],
    ['limit 0', { query: 'dress', limit: 0 }, /^limit must be an integer from 1 to 100\.$/],
    ['limit 101', { query: 'dress', limit: 101 }, /^limit must be/],
    ['a fractional limit', { query: 'dress', limit: 2.5 }, /^limit must be/],
    ['a limit in words', { query: 'dress', limit: 'ten' }, /^limit must be/],
    ['an unknown slot', { query: 'dress', filters: { slot: 'hats' } }, /^filters\.slot must be one of: accessory, /],
    ['an unknown colour family', { query: 'dress', filters: { color_family: 'reddish' } }, /^filters\.color_family must be one of/],
    ['a negative price', { query: 'dress', filters: { maxPrice: -1 } }, /^filters\.maxPrice must be a number/],
    ['bounds the wrong way round', { query: 'dress', filters: { minPrice: 50, maxPrice: 10 } }, /^filters\.minPrice must not be above filters\.maxPrice\.$/],
    ['onSale not a boolean', { query: 'dress', filters: { onSale: 'yes' } }, /^filters\.onSale must be a boolean\.$/],
    ['filters not an object', { query: 'dress', filters: 'red' }, /^filters must be an object\.$/],
    ['a bad country', { query: 'dress', country: 'Canada' }, /^country must be a 2-letter/],
    ['datasetIds not a list', { query: 'dress', datasetIds: 'abc' }, /^datasetIds must be an array/],
  ];
  for (const [what, body, message] of cases) {
    const response = await search(body);
    t.equal(response.statusCode, 422, what);
    t.match(response.json().error, message, what);
  }
  const several = await search({ query: '', limit: 0 });
  t.equal(several.json().error, 'Validation failed.');
  t.equal(several.json().details.length, 2);
});

t.test('warming the search memory loads every active dataset with its active items, as `stylist serve` does at start', async (t) => {
  const { dataset, settled, call, service } = await setUp(t, { own: true });
  const main = await dataset('Main', 'https://acme.example.com', CATALOGUE);
  const outlet = await dataset('Outlet', 'https://outlet.example.com', CATALOGUE.slice(0, 2));
  await settled({ query: 'dress' }, 3);
  t.equal((await call('PATCH', `/v1/datasets/${outlet}/archive`)).statusCode, 200);
  const db = service.platform.database.db;
  // The search read model has its own projector: wait until it holds every item.
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const { n } = await db.selectFrom('search_documents').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', main).where('status', '=', 'active').executeTakeFirstOrThrow();
    if (Number(n) === CATALOGUE.length) break;
  }
  const memory = new SearchMemory(db);
  t.teardown(() => memory.close());
  await memory.warm();
  t.same(
    memory.stats().map((d) => [d.datasetId, d.items]),
    [[main, CATALOGUE.length]],
    'the active dataset and all of its items; the archived one is not loaded',
  );
  t.ok(memory.stats()[0]!.bytes > 0);
});
