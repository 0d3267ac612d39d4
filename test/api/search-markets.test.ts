// Market pricing through `POST /v1/search` (document 1, response-only fields; document 3 §3): a
// store synced with four markets from local fake storefronts, searched from each kind of country.
// Every one of the six fallback reasons comes back through HTTP, with the exact market's prices,
// stock and sale, and what the shopper cannot buy in their market ranked after what they can.
import t, { type Test } from 'tap';
import { searchResponse } from '../../api/routes/search.js';
import { pricedProducts } from '../../projections/queries/products.js';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { sharedTestService, startTestService, type TestService } from '../support/service.js';
import { startShopifyStore } from '../support/shopify-store.js';
import { until } from '../support/until.js';

type Product = Record<string, any>;

const variant = (id: number, size: string, price: string, available = true, compareAt: string | null = null) => ({
  id,
  title: size,
  option1: size,
  sku: `V${id}`,
  price,
  compare_at_price: compareAt,
  available,
});

/** The home (Canadian) storefront: three linen dresses in CAD. */
const homeProducts = (): Product[] => [
  { id: 7001, title: 'Linen Wrap Dress', handle: 'linen-wrap-dress', product_type: 'Dresses', options: [{ name: 'Size' }], variants: [variant(1, 'S', '100.00'), variant(2, 'M', '100.00')] },
  { id: 7002, title: 'Linen Shirt Dress', handle: 'linen-shirt-dress', product_type: 'Dresses', options: [{ name: 'Size' }], variants: [variant(3, 'S', '90.00'), variant(4, 'M', '90.00')] },
  { id: 7003, title: 'Linen Slip Dress', handle: 'linen-slip-dress', product_type: 'Dresses', options: [{ name: 'Size' }], variants: [variant(5, 'S', '80.00')] },
];


const setUp = async (t: Test) => {
  const home = await startShopifyStore(t, { photos: 'none', products: homeProducts() });
  // The US storefront: the wrap dress at 80 reduced from 100 (S) with M sold out there, the shirt
  // dress sold out in every size; the slip dress is not sold there at all.
  const us = await startShopifyStore(t, { photos: 'none', products: homeProducts().slice(0, 2) });
  const [wrap, shirt] = us.products as [Product, Product];
  Object.assign(wrap.variants[0], { price: '80.00', compare_at_price: '100.00' });
  Object.assign(wrap.variants[1], { price: '80.00', available: false });
  for (const v of shirt.variants) Object.assign(v, { price: '70.00', available: false });
  const broken = await startShopifyStore(t, { photos: 'none', products: [] });
  broken.failNext(1_000, 404);

  const service = await startTestService(t, { workers: ['sync', 'ingest'], env: LOCAL_STORES_ENV });
  const org = await service.cli(['org', 'create', '--name', 'Linen House', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const dataset = async (name: string) => {
    const datasetId = (await call('POST', '/v1/datasets', { name, config: { currency: 'CAD' } })).body.datasetId as string;
    await call('PATCH', `/v1/datasets/${datasetId}/activate`);
    return datasetId;
  };
  const store = await dataset('Linen House');
  const created = await call('POST', `/v1/datasets/${store}/sources`, {
    type: 'shopify-api',
    endpoint: home.url,
    syncPeriod: 0,
    markets: [
      { handle: 'ca', countries: ['CA'], currency: 'CAD' },
      { handle: 'us', countries: ['US'], currency: 'USD', endpoint: us.url },
      { handle: 'uk', countries: ['GB'], currency: 'GBP', endpoint: broken.url },
      { handle: 'eu', countries: ['FR', 'DE'], currency: 'EUR' },
    ],
    defaultMarket: 'ca',
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const sourceId = created.body.source.sourceId as string;
  const [job] = (await call('GET', `/v1/datasets/${store}/sources/${sourceId}/sync/jobs`)).body.jobs;
  const finished = await until(
    'the first sync',
    () => call('GET', `/v1/datasets/${store}/sources/${sourceId}/sync/jobs/${job.jobId}`).then((r) => r.body.job),
    (j) => j?.status === 'completed' || j?.status === 'failed',
  );
  t.equal(finished.status, 'completed', finished.result?.error ?? 'completed');

  // A second dataset filled by upload: no source, so no markets.
  const uploads = await dataset('Uploads');
  const uploaded = await call('POST', `/v1/datasets/${uploads}/items/upload`, {
    items: [{ sku: 'UP-1', name: 'Linen Tunic Dress', productType: 'Dresses', price: 60, variants: [{ sku: 'UP-1-S', label: 'S', options: [{ name: 'Size', value: 'S' }], inStock: true, price: 60 }] }],
  });
  t.equal(uploaded.status, 202);

  const search = (body: object) => service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: body });
  await until('all four dresses searchable', () => search({ query: 'linen dress' }).then((r) => r.json().results?.length ?? 0), (n) => n === 4);
  return { service, search, store, uploads, sourceId };
};

const bySku = (results: any[]) => Object.fromEntries(results.map((r) => [r.product.sku, r.product]));

t.test('search prices every product in the shopper’s market, or says why the default market stands in', async (t) => {
  const { service, search, store, uploads, sourceId } = await setUp(t);
  const linen = async (body: object) => {
    const response = await search({ query: 'linen dress', datasetIds: [store], ...body });
    t.equal(response.statusCode, 200);
    const answer = response.json() as { results: any[]; market: object };
    // Not checked per request by the route: every market's answer is held to the schema here.
    t.same(searchResponse.parse(answer), answer, "the answer is the response schema's shape");
    return answer;
  };

  await t.test('no country: the default market stands in (no-country), its stock says what is available', async (t) => {
    const { results, market } = await linen({});
    t.same(market, { country: null, currency: 'CAD', exact: false });
    for (const product of results) t.match(product.product, { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'no-country', available: true });
    t.equal(bySku(results)['7001'].price, 100);
  });

  await t.test('a Canadian shopper: the default market is their own, exact', async (t) => {
    const { results, market } = await linen({ country: 'ca' });
    t.same(market, { country: 'CA', currency: 'CAD', exact: true });
    for (const { product } of results) {
      t.match(product, { market: 'ca', marketExact: true, available: true });
      t.notOk('marketFallback' in product, 'no fallback when exact');
    }
  });

  await t.test('a US shopper: the US feed’s prices, stock and sale; what is not sold or sold out there comes last', async (t) => {
    const { results, market } = await linen({ country: 'US' });
    t.same(market, { country: 'US', currency: 'USD', exact: false }, 'not exact: one product is not priced in the US market');
    const products = bySku(results);
    t.match(products['7001'], { market: 'us', currency: 'USD', price: 80, marketExact: true, available: true, onSale: true, discount: 20, referencePrice: 100, referenceCurrency: 'CAD' });
    t.same(
      products['7001'].variants.map((v: any) => [v.label, v.price, v.compareAtPrice, v.inStock]),
      [['S', 80, 100, true], ['M', 80, null, false]],
      'variant prices and stock in the US',
    );
    t.match(products['7002'], { market: 'us', currency: 'USD', price: 70, marketExact: true, available: false, onSale: false });
    t.match(products['7003'], { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'no-row', available: false }, 'the US feed does not list it: not sold there');
    t.equal(results[0].product.sku, '7001', 'the one product a US shopper can buy is first');
    t.ok(results.slice(1).every((r) => !r.product.available), 'everything after it is unavailable');
  });

  await t.test('a budget named in another currency is converted to the one the answer is priced in, never read as that currency', async (t) => {
    const skus = async (query: string, country?: string) => {
      const response = await search({ query, datasetIds: [store], ...(country ? { country } : {}) });
      t.equal(response.statusCode, 200);
      return (response.json().results as any[]).map((r) => `${r.product.sku} ${r.product.price} ${r.product.currency}`).sort();
    };
    // The home market prices the dresses at 100, 90 and 80 CAD: 65 euros is about 100 CAD and
    // 5,500 rupees about 87, where 65 or 5,500 CAD would let none or all of them through.
    t.same(await skus('linen dress under 65 euros'), ['7002 90 CAD', '7003 80 CAD']);
    t.same(await skus('linen dress under 5500 rs'), ['7003 80 CAD']);
    t.same(await skus('linen dress under 55 €'), ['7003 80 CAD']);
    // In the US market the wrap dress is 80 USD and the shirt dress 70: 100 CAD is about 72 USD.
    t.same((await skus('linen dress under 100 cad', 'US')).filter((line) => line.endsWith('USD')), ['7002 70 USD']);
    // Stored at 100 CAD, 80 USD in the US: the US shopper's budget reads the US price, not the stored one.
    t.ok((await skus('linen dress under 85', 'US')).includes('7001 80 USD'), 'the wrap dress is within 85 in the US');
    // A budget with no currency named is the answer's own.
    t.same(await skus('linen dress under 95'), ['7002 90 CAD', '7003 80 CAD']);
  });

  await t.test('a British shopper: the UK feed failed (unread), so the default market and its stock stand in', async (t) => {
    const { results, market } = await linen({ country: 'GB' });
    t.same(market, { country: 'GB', currency: 'GBP', exact: false });
    for (const { product } of results) t.match(product, { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'unread', available: true });
  });

  await t.test('a French shopper: the EU market has no feed endpoint (unread)', async (t) => {
    const { results } = await linen({ country: 'FR' });
    for (const { product } of results) t.match(product, { marketFallback: 'unread', available: true });
  });

  await t.test('a Japanese shopper: no market sells there (not-served); nothing can be bought', async (t) => {
    const { results, market } = await linen({ country: 'JP' });
    t.equal(results.length, 3, 'still shown, so the shopper sees the store');
    t.match(market, { country: 'JP', exact: false });
    for (const { product } of results) t.match(product, { marketExact: false, marketFallback: 'not-served', available: false, onSale: false });
  });

  await t.test('an uploaded product: no source, so no markets: no-markets with a country, no-country without', async (t) => {
    const response = await search({ query: 'linen dress', datasetIds: [uploads], country: 'US' });
    const [result] = response.json().results;
    t.match(result.product, { sku: 'UP-1', market: null, currency: 'CAD', price: 60, marketExact: false, marketFallback: 'no-markets', available: true });
    const [unsent] = (await search({ query: 'linen dress', datasetIds: [uploads] })).json().results;
    t.match(unsent.product, { sku: 'UP-1', market: null, currency: 'CAD', price: 60, marketExact: false, marketFallback: 'no-country', available: true }, 'no country sent: no-country comes first in the table');
  });

  await t.test('prices read against another default market are stale', async (t) => {
    // Markets are fixed when a source is created (document 2 has no field to change them), so a
    // source whose default market moved under its stored rows cannot be made through the API; the
    // read model is changed as such a change would leave it.
    await service.platform.database.db.updateTable('data_sources').set({ default_market: 'eu' }).where('source_id', '=', sourceId).execute();
    const { results } = await linen({ country: 'US' });
    t.match(bySku(results)['7001'], { market: 'eu', marketExact: false, marketFallback: 'stale', available: true, price: 100 });
  });
});

/** A Shopify source of the organization's own dataset, synced once; `markets` as POST /v1/datasets/{id}/sources takes them. */
const syncedStore = async (t: Test, service: TestService, privateKey: string, name: string, source: { endpoint: string; markets?: object[]; defaultMarket?: string }) => {
  const headers = { authorization: `Bearer ${privateKey}` };
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const datasetId = (await call('POST', '/v1/datasets', { name, config: { currency: 'CAD' } })).body.datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const created = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', syncPeriod: 0, ...source });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const sourceId = created.body.source.sourceId as string;
  const [job] = (await call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`)).body.jobs;
  const finished = await until(
    `the first sync of ${name}`,
    () => call('GET', `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs/${job.jobId}`).then((r) => r.body.job),
    (j) => j?.status === 'completed' || j?.status === 'failed',
  );
  t.equal(finished.status, 'completed', finished.result?.error ?? 'completed');
  return datasetId;
};

t.test('a market with its own feed answers in that market’s currency and prices; a source without markets says why not', async (t) => {
  // The Canadian feed in CAD; the US feed lists both dresses, in USD, the wrap dress reduced there.
  const home = await startShopifyStore(t, { photos: 'none', products: homeProducts().slice(0, 2) });
  const us = await startShopifyStore(t, { photos: 'none', products: homeProducts().slice(0, 2) });
  const [wrap, shirt] = us.products as [Product, Product];
  for (const v of wrap.variants) Object.assign(v, { price: '74.00', compare_at_price: '92.50' });
  for (const v of shirt.variants) Object.assign(v, { price: '66.00' });
  const plain = await startShopifyStore(t, { photos: 'none', products: homeProducts().slice(2) });

  const service = await sharedTestService({ workers: ['sync', 'ingest'], env: LOCAL_STORES_ENV });
  const org = await service.cli(['org', 'create', '--name', 'Two Markets', '--json']);
  const store = await syncedStore(t, service, org.privateKey, 'Two Markets', {
    endpoint: home.url,
    markets: [
      { handle: 'ca', countries: ['CA'], currency: 'CAD' },
      { handle: 'us', countries: ['US'], currency: 'USD', endpoint: us.url },
    ],
    defaultMarket: 'ca',
  });
  const single = await syncedStore(t, service, org.privateKey, 'One Price List', { endpoint: plain.url });
  const search = async (body: object) => {
    const response = await service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: { query: 'linen dress', ...body } });
    t.equal(response.statusCode, 200);
    return response.json() as { results: any[]; market: object };
  };
  await until('both dresses searchable', () => search({ datasetIds: [store] }).then((r) => r.results.length), (n) => n === 2);
  await until('the single store’s dress searchable', () => search({ datasetIds: [single] }).then((r) => r.results.length), (n) => n === 1);

  await t.test('a US shopper: USD, the US feed’s prices and sale, every result exact', async (t) => {
    const { results, market } = await search({ datasetIds: [store], country: 'US' });
    t.same(market, { country: 'US', currency: 'USD', exact: true });
    const products = bySku(results);
    t.match(products['7001'], { market: 'us', currency: 'USD', price: 74, marketExact: true, available: true, onSale: true, discount: 20, referencePrice: 100, referenceCurrency: 'CAD' });
    t.match(products['7002'], { market: 'us', currency: 'USD', price: 66, marketExact: true, available: true, onSale: false, referencePrice: 90 });
    for (const { product } of results) {
      t.notOk('marketFallback' in product, 'no fallback when exact');
      t.ok(product.variants.every((v: any) => v.price === product.price), 'the variants carry the US prices');
    }
  });

  await t.test('the same store without a country: CAD, the default market standing in (no-country)', async (t) => {
    const { results, market } = await search({ datasetIds: [store] });
    t.same(market, { country: null, currency: 'CAD', exact: false });
    for (const { product } of results) t.match(product, { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'no-country' });
  });

  await t.test('a source without markets: no-markets when a country is sent, no-country when none is', async (t) => {
    const [sent] = (await search({ datasetIds: [single], country: 'US' })).results;
    t.match(sent.product, { sku: '7003', market: null, currency: 'CAD', price: 80, marketExact: false, marketFallback: 'no-markets', available: true });
    const [unsent] = (await search({ datasetIds: [single] })).results;
    t.match(unsent.product, { sku: '7003', marketExact: false, marketFallback: 'no-country', available: true });
  });

  await t.test('the agent’s product look-ups price the same products the same way', async (t) => {
    for (const [datasetIds, country] of [[[store], 'US'], [[store], null], [[single], 'US'], [[single], null]] as const) {
      const { results } = await search({ datasetIds, ...(country ? { country } : {}) });
      const looked = await pricedProducts(service.platform.database.db, { organizationId: org.organizationId, datasetIds }, results.map((r) => r.itemId), country);
      for (const { itemId, product } of results) {
        const agent = looked.get(itemId)?.product;
        t.match(agent, { price: product.price, currency: product.currency, market: product.market, marketExact: product.marketExact, available: product.available }, `${product.sku} in ${country}`);
        t.equal(agent?.marketFallback, product.marketFallback, `${product.sku} in ${country}: the same reason`);
      }
    }
  });
});
