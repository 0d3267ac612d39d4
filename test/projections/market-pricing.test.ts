// The pricing context of a page of items, read after the sync's own market writer (readMarkets)
// has read a store's markets from local storefronts, then priced the way search prices them.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { parseEntries } from '../../commands/items.js';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { itemIdFor } from '../../domain/item/identity.js';
import { priceForMarket, type StoredProduct } from '../../domain/pricing/index.js';
import type { Market } from '../../domain/source/markets.js';
import { migrate } from '../../projections/migrations.js';
import { loadPricingContext } from '../../projections/queries/market-pricing.js';
import { readMarkets } from '../../workers/sync/markets.js';
import { SyncLogWriter } from '../../workers/sync/sync-log.js';
import { openTestDatabase } from '../support/database.js';
import { localStores } from '../support/outbound.js';
import { startShopifyStore } from '../support/shopify-store.js';

type Product = Record<string, any>;

/** Three made-up products: a shirt in two sizes, a reduced scarf, a belt the US storefront does not sell. */
const storeProducts = (): Product[] => [
  { id: 9001, title: 'Shirt', handle: 'shirt', variants: [{ id: 1, title: 'S', option1: 'S', price: '100.00', available: true }, { id: 2, title: 'M', option1: 'M', price: '100.00', available: true }], options: [{ name: 'Size' }] },
  { id: 9002, title: 'Scarf', handle: 'scarf', variants: [{ id: 3, title: 'Default Title', price: '40.00', compare_at_price: '50.00', available: true }] },
  { id: 9003, title: 'Belt', handle: 'belt', variants: [{ id: 4, title: 'Default Title', price: '30.00', available: true }] },
];

t.test('given a sync that read a store’s markets, each item’s context prices it as document 1 says', async (t) => {
  const database = await openTestDatabase(t);
  const { db } = database;
  await migrate(db); // a no-op on PGlite's migrated template; the schema's tables on the integration run
  const [datasetId, organizationId, sourceId, otherSourceId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  const home = await startShopifyStore(t, { photos: 'none', products: storeProducts() });
  // The US storefront: shirt at 75 with M sold out there, the scarf at 30 reduced from 45; no belt.
  const us = await startShopifyStore(t, { photos: 'none', products: storeProducts().slice(0, 2) });
  const [shirt, scarf] = us.products as [Product, Product];
  shirt.variants[0].price = '75.00';
  Object.assign(shirt.variants[1], { price: '75.00', available: false });
  Object.assign(scarf.variants[0], { price: '30.00', compare_at_price: '45.00' });
  const broken = await startShopifyStore(t, { photos: 'none', products: [] });
  broken.failNext(1_000, 404);

  const markets: Market[] = [
    { handle: 'ca', countries: ['CA'], currency: 'CAD', endpoint: null },
    { handle: 'us', countries: ['US'], currency: 'USD', endpoint: `${us.url}/products.json` },
    { handle: 'uk', countries: ['GB'], currency: 'GBP', endpoint: `${broken.url}/products.json` },
    { handle: 'eu', countries: ['FR'], currency: 'EUR', endpoint: null },
  ];
  const at = new Date().toISOString();
  await db.insertInto('data_sources').values([
    { source_id: sourceId, dataset_id: datasetId, organization_id: organizationId, type: 'shopify-api', status: 'active', endpoint: home.url, sync_period: 0, markets: JSON.stringify(markets), default_market: 'ca', created_at: at, updated_at: at },
    { source_id: otherSourceId, dataset_id: datasetId, organization_id: organizationId, type: 'shopify-api', status: 'active', endpoint: home.url, sync_period: 0, markets: null, default_market: null, created_at: at, updated_at: at },
  ]).execute();

  const listings: Listing[] = parseEntries('products', home.products, home.url).listings.map((entry) => entry.listing);
  const [shirtId, scarfId, beltId] = listings.map((listing) => itemIdFor(datasetId, listing.sku)) as [string, string, string];
  const queuedBefore = new Date(Date.now() - 60_000).toISOString();
  await db.insertInto('catalogue_items').values(listings.map((listing, i) => ({
    item_id: itemIdFor(datasetId, listing.sku), dataset_id: datasetId, organization_id: organizationId, sku: listing.sku, queue_version: 1, content_hash: `c${i}`, commerce_hash: `m${i}`,
    source_id: sourceId, created_at: queuedBefore, queued_at: queuedBefore, updated_at: queuedBefore,
  }))).execute();

  const log = new SyncLogWriter(db, randomUUID());
  await readMarkets({ db, sourceId, datasetId, markets, defaultMarket: 'ca', skus: new Set(listings.map((listing) => listing.sku)), listings, log, feed: { outbound: localStores, maxAttempts: 1, retryBaseMs: 1 } });

  const stored = (sku: string): StoredProduct => {
    const listing = listings.find((entry) => entry.sku === sku)!;
    return { price: listing.price, currency: 'CAD', market: null, variants: listing.variants };
  };
  const uploadId = randomUUID();
  const queuedLater = new Date(Date.now() + 60_000).toISOString();
  const candidates = [
    { itemId: shirtId, sourceId },
    { itemId: scarfId, sourceId },
    { itemId: beltId, sourceId },
    { itemId: uploadId, sourceId: null, queuedAt: null },
  ];

  await t.test('every market’s rows when no country is given; the queued time read from the catalogue', async (t) => {
    const context = await loadPricingContext(db, candidates);
    const shirtContext = context.get(shirtId)!;
    t.same(shirtContext.rows.map((row) => row.market), ['us'], 'the default market’s rows are never needed: the stored product is its prices');
    t.equal(shirtContext.queuedAt, queuedBefore);
    t.same(Object.keys(shirtContext.source!.reads).sort(), ['ca', 'eu', 'uk', 'us']);
    t.match(shirtContext.source!.reads, { us: { status: 'read' }, uk: { status: 'unread' }, eu: { status: 'unread' }, ca: { status: 'read' } });
    t.same(context.get(uploadId), { source: null, rows: [], queuedAt: null });
  });

  await t.test('a US shopper: exact prices and stock from the US feed; a product it does not list is not sold there', async (t) => {
    const context = await loadPricingContext(db, candidates, { country: 'US' });
    const price = (itemId: string, sku: string) => priceForMarket({ country: 'US', product: stored(sku), ...context.get(itemId)! });
    const shirtPriced = price(shirtId, listings[0]!.sku);
    t.match(shirtPriced, { market: 'us', currency: 'USD', price: 75, marketExact: true, available: true, onSale: false, referencePrice: 100, referenceCurrency: 'CAD' });
    t.same(shirtPriced.variants.map((v) => [v.label, v.price, v.inStock]), [['S', 75, true], ['M', 75, false]]);
    t.match(price(scarfId, listings[1]!.sku), { currency: 'USD', price: 30, onSale: true, discount: 33, available: true });
    t.match(price(beltId, listings[2]!.sku), { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'no-row', available: false });
    t.match(priceForMarket({ country: 'US', product: stored(listings[2]!.sku), ...context.get(uploadId)! }), { marketFallback: 'no-markets', available: true });
  });

  await t.test('an item queued after the market was read has no row yet: the default market stands in, stock included', async (t) => {
    const context = await loadPricingContext(db, [{ itemId: beltId, sourceId, queuedAt: queuedLater }], { country: 'US' });
    t.match(priceForMarket({ country: 'US', product: stored(listings[2]!.sku), ...context.get(beltId)! }), { marketFallback: 'no-row', available: true });
  });

  await t.test('a market whose feed failed, or without one, is unread; a country no market lists is not served', async (t) => {
    for (const [country, reason, available] of [['GB', 'unread', true], ['FR', 'unread', true], ['JP', 'not-served', false], [null, 'no-country', true]] as const) {
      const context = await loadPricingContext(db, candidates, { country });
      t.same(context.get(shirtId)!.rows, [], `${country}: no rows read`);
      t.match(priceForMarket({ country, product: stored(listings[0]!.sku), ...context.get(shirtId)! }), { market: 'ca', currency: 'CAD', price: 100, marketFallback: reason, available }, String(country));
    }
  });

  await t.test('rows another source wrote are not this item’s', async (t) => {
    const context = await loadPricingContext(db, [{ itemId: shirtId, sourceId: otherSourceId }], { country: 'US' });
    t.same(context.get(shirtId)!.rows, []);
    t.match(priceForMarket({ country: 'US', product: stored(listings[0]!.sku), ...context.get(shirtId)! }), { marketFallback: 'no-markets' });
  });

  await t.test('after the default market changes, rows read against the old one are stale', async (t) => {
    await db.updateTable('data_sources').set({ default_market: 'eu' }).where('source_id', '=', sourceId).execute();
    const context = await loadPricingContext(db, candidates, { country: 'US' });
    t.match(priceForMarket({ country: 'US', product: stored(listings[0]!.sku), ...context.get(shirtId)! }), { market: 'eu', marketExact: false, marketFallback: 'stale', available: true });
  });

  await t.test('malformed ids find nothing and cost no query', async (t) => {
    t.same([...(await loadPricingContext(db, [{ itemId: 'nope', sourceId: 'nope' }])).entries()], []);
  });
});
