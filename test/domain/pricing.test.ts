// Market pricing: a stored product re-priced for the shopper's country, each of document 1's six
// fallback reasons, what `available`, `onSale` and `discount` mean, and the order the reasons win in.
import t from 'tap';
import type { ListingVariant } from '../../domain/catalogue/product-input.js';
import {
  MARKET_FALLBACKS,
  marketForCountry,
  percentOff,
  priceForMarket,
  shopperMarket,
  type MarketPriceRow,
  type PricingInput,
  type PricingSource,
  type StoredProduct,
} from '../../domain/pricing/index.js';
import type { Market } from '../../domain/source/markets.js';

const variant = (sku: string, fields: Partial<ListingVariant> = {}): ListingVariant => ({
  variantId: `v-${sku}`, sku, label: sku.toUpperCase(), options: [{ name: 'Size', value: sku.toUpperCase() }], inStock: true, quantity: null, price: 100, compareAtPrice: null, ...fields,
});

const markets: Market[] = [
  { handle: 'ca', countries: ['CA'], currency: 'CAD', endpoint: null },
  { handle: 'us', countries: ['US'], currency: 'USD', endpoint: 'https://shop.example/en-us/products.json' },
  { handle: 'eu', countries: ['FR', 'DE'], currency: 'EUR', endpoint: 'https://shop.example/en-eu/products.json' },
  { handle: 'uk', countries: ['GB'], currency: 'GBP', endpoint: null },
];

const queuedAt = '2026-03-01T10:00:00.000Z';
const readAfter = '2026-03-01T10:00:05.000Z';
const readBefore = '2026-03-01T09:00:00.000Z';

/** Sizes S and M in Canada at 100 CAD, S reduced from 125. */
const product: StoredProduct = {
  price: 100, currency: 'CAD', market: null,
  variants: [variant('s', { compareAtPrice: 125, quantity: 3 }), variant('m', { quantity: 7 })],
};

const source = (fields: Partial<PricingSource> = {}): PricingSource => ({
  markets, defaultMarket: 'ca', reads: { ca: { status: 'read', readAt: readAfter }, us: { status: 'read', readAt: readAfter }, eu: { status: 'read', readAt: readAfter }, uk: { status: 'unread', readAt: readAfter } }, ...fields,
});

/** The US feed: 75 USD, S reduced from 90 and sold out, M in stock. */
const usRow = (fields: Partial<MarketPriceRow> = {}): MarketPriceRow => ({
  market: 'us', currency: 'USD', price: 75, compareAtPrice: null, available: true, defaultMarket: 'ca', readAt: readAfter,
  variants: [{ sku: 's', price: 75, compareAtPrice: 90, inStock: false, quantity: 0 }, { sku: 'm', price: 75, compareAtPrice: null, inStock: true, quantity: 2 }],
  ...fields,
});

const given = (fields: Partial<PricingInput>) => ({
  whenTheShopperIsIn: (country: string | null) => priceForMarket({ product, source: source(), rows: [usRow()], queuedAt, ...fields, country }),
});

t.test('given a US shopper and a read US market, the product is priced from the US feed', async (t) => {
  const priced = given({}).whenTheShopperIsIn('US');
  t.match(priced, { market: 'us', currency: 'USD', price: 75, marketExact: true, available: true, referencePrice: 100, referenceCurrency: 'CAD' });
  t.notOk('marketFallback' in priced, 'no fallback when exact');
  t.same(priced.variants, [
    { ...product.variants[0], price: 75, compareAtPrice: 90, inStock: false, quantity: 0 },
    { ...product.variants[1], price: 75, compareAtPrice: null, inStock: true, quantity: 2 },
  ], 'each variant carries the US price, list price and stock; ids, labels and options stay');
});

t.test('given a Canadian shopper, the default market is their own: the stored product, exact', async (t) => {
  const priced = given({}).whenTheShopperIsIn('CA');
  t.match(priced, { market: 'ca', currency: 'CAD', price: 100, marketExact: true, available: true, onSale: true, discount: 20 });
  t.same(priced.variants, product.variants);
  t.notOk('marketFallback' in priced);
});

t.test('a lower-case or padded country is the same country', async (t) => {
  t.match(given({}).whenTheShopperIsIn(' us '), { market: 'us', marketExact: true });
  t.equal(marketForCountry(markets, 'de')?.handle, 'eu');
  t.equal(marketForCountry(markets, 'JP'), null);
  t.equal(marketForCountry(markets, null), null);
});

t.test('fallback no-markets: an upload, or a source without markets, is priced as stored whatever the country', async (t) => {
  for (const src of [null, source({ markets: [], defaultMarket: null })]) {
    const priced = given({ source: src, rows: [] }).whenTheShopperIsIn('US');
    t.match(priced, { market: null, currency: 'CAD', price: 100, marketExact: false, marketFallback: 'no-markets', available: true, onSale: true, discount: 20, referencePrice: 100 });
    t.same(priced.variants, product.variants);
  }
});

t.test('fallback no-country: the default market stands in, with its stock', async (t) => {
  for (const country of [null, '', '  ']) {
    t.match(given({}).whenTheShopperIsIn(country), { market: 'ca', currency: 'CAD', price: 100, marketExact: false, marketFallback: 'no-country', available: true, onSale: true, discount: 20 });
  }
  const soldOut = { ...product, variants: product.variants.map((v) => ({ ...v, inStock: false })) };
  t.match(given({ product: soldOut }).whenTheShopperIsIn(null), { marketFallback: 'no-country', available: false, onSale: false, discount: 0 }, 'sold out in the default market');
});

t.test('fallback not-served: a country no market lists cannot buy; prices shown are the default market’s', async (t) => {
  const priced = given({}).whenTheShopperIsIn('JP');
  t.match(priced, { market: 'ca', currency: 'CAD', price: 100, marketExact: false, marketFallback: 'not-served', available: false, onSale: false, discount: 0, referencePrice: 100 });
});

t.test('fallback unread: a market whose feed failed, or that has no endpoint, is priced from the default market and its stock', async (t) => {
  const failed = source({ reads: { ...source().reads, us: { status: 'unread', readAt: readAfter } } });
  t.match(given({ source: failed }).whenTheShopperIsIn('US'), { market: 'ca', currency: 'CAD', price: 100, marketExact: false, marketFallback: 'unread', available: true, onSale: true, discount: 20 },
    'the old US row is not shown: the default market stands in');
  t.match(given({ rows: [] }).whenTheShopperIsIn('GB'), { market: 'ca', marketFallback: 'unread', available: true }, 'no endpoint');
  const notYetSynced = source({ reads: {} });
  t.match(given({ source: notYetSynced, rows: [] }).whenTheShopperIsIn('GB'), { marketFallback: 'unread' }, 'a market without an endpoint is unread before any sync');
});

t.test('fallback stale: a row read against another default market is not shown', async (t) => {
  const priced = given({ rows: [usRow({ defaultMarket: 'eu' })] }).whenTheShopperIsIn('US');
  t.match(priced, { market: 'ca', currency: 'CAD', price: 100, marketExact: false, marketFallback: 'stale', available: true });
});

t.test('fallback no-row: nothing stored yet, the default market stands in, stock included', async (t) => {
  const neverRead = source({ reads: { ca: { status: 'read', readAt: readAfter } } });
  t.match(given({ source: neverRead, rows: [] }).whenTheShopperIsIn('FR'), { market: 'ca', currency: 'CAD', marketExact: false, marketFallback: 'no-row', available: true, onSale: true },
    'a market configured but not read yet');
  const readBeforeQueued = source({ reads: { ...source().reads, eu: { status: 'read', readAt: readBefore } } });
  t.match(given({ source: readBeforeQueued, rows: [] }).whenTheShopperIsIn('FR'), { marketFallback: 'no-row', available: true },
    'the item was queued after the market was last read');
});

t.test('fallback no-row after a read that did not list the product: not sold there', async (t) => {
  t.match(given({ rows: [] }).whenTheShopperIsIn('DE'), { market: 'ca', marketExact: false, marketFallback: 'no-row', available: false, onSale: false, discount: 0 });
  t.match(given({ rows: [], queuedAt: null }).whenTheShopperIsIn('DE'), { marketFallback: 'no-row', available: false }, 'queued time unknown: the read is trusted');
});

t.test('the reasons are checked in the documented order when several hold', async (t) => {
  t.same(MARKET_FALLBACKS, ['no-country', 'not-served', 'unread', 'no-row', 'no-markets', 'stale'], "document 1's table order");
  for (const src of [null, source({ markets: [], defaultMarket: null })]) {
    t.match(given({ source: src, rows: [] }).whenTheShopperIsIn(null), { marketFallback: 'no-country', market: null, currency: 'CAD', available: true }, 'no-country before no-markets: with no country sent it is no-country, whatever the source');
    t.equal(given({ source: src, rows: [] }).whenTheShopperIsIn('JP').marketFallback, 'no-markets', 'a store without markets is not "not serving" a country');
  }
  const unreadAndStale = source({ reads: { ...source().reads, us: { status: 'unread', readAt: readAfter } } });
  t.equal(given({ source: unreadAndStale, rows: [usRow({ defaultMarket: 'eu' })] }).whenTheShopperIsIn('US').marketFallback, 'unread', 'unread before stale: the failed read is why the row is old');
  t.equal(given({ source: unreadAndStale, rows: [] }).whenTheShopperIsIn('US').marketFallback, 'unread', 'unread before no-row');
  t.equal(given({ rows: [usRow({ defaultMarket: null })] }).whenTheShopperIsIn('US').marketFallback, 'stale', 'a row from before the default was set is stale');
  const noDefaultNamed = source({ defaultMarket: null });
  t.match(given({ source: noDefaultNamed, rows: [usRow({ defaultMarket: null })] }).whenTheShopperIsIn('US'), { marketExact: true, market: 'us' }, 'no default named: rows read so are current');
  t.match(given({ source: noDefaultNamed }).whenTheShopperIsIn('CA'), { marketExact: true, market: 'ca' }, 'no default named: the first market is the default');
});

t.test('a row of another market is not this market’s row', async (t) => {
  t.match(given({ rows: [usRow({ market: 'eu', currency: 'EUR' })] }).whenTheShopperIsIn('US'), { marketFallback: 'no-row', available: false });
});

t.test('availability in the exact market: a variant in stock there, among those its feed lists', async (t) => {
  const allSoldOut = usRow({ variants: usRow().variants.map((v) => ({ ...v, inStock: false })) });
  t.match(given({ rows: [allSoldOut] }).whenTheShopperIsIn('US'), { marketExact: true, available: false, onSale: false, discount: 0 }, 'sold out in the US though in stock in Canada');

  const onlyS = usRow({ variants: [{ sku: 's', price: 80, compareAtPrice: null, inStock: true, quantity: 1 }] });
  const priced = given({ rows: [onlyS] }).whenTheShopperIsIn('US');
  t.same(priced.variants.map((v) => v.sku), ['s'], 'M is not listed by the US feed: not sold there');
  t.equal(priced.available, true);

  const onlyUnknown = usRow({ variants: [{ sku: 'xl', price: 80, compareAtPrice: null, inStock: true, quantity: 1 }] });
  t.match(given({ rows: [onlyUnknown] }).whenTheShopperIsIn('US'), { available: false, variants: [] }, 'a variant the catalogue does not hold is not added');
});

t.test('a product with no variants is sold as one piece: available unless not sold there', async (t) => {
  const single: StoredProduct = { price: 40, currency: 'CAD', market: null, variants: [] };
  t.match(given({ product: single, rows: [usRow({ variants: [], price: 30 })] }).whenTheShopperIsIn('US'), { price: 30, currency: 'USD', available: true, onSale: false, discount: 0, variants: [] });
  t.match(given({ product: single, rows: [usRow({ variants: [], available: false })] }).whenTheShopperIsIn('US'), { marketExact: true, available: false }, 'the market row says it is sold out there');
  t.match(given({ product: single }).whenTheShopperIsIn(null), { available: true, marketFallback: 'no-country' });
  t.match(given({ product: single, source: null }).whenTheShopperIsIn('US'), { available: true });
  t.match(given({ product: single }).whenTheShopperIsIn('JP'), { available: false });
  t.match(given({ product: single, rows: [] }).whenTheShopperIsIn('DE'), { available: false, marketFallback: 'no-row' });
});

t.test('onSale needs an in-stock reduced variant in the market priced for; a sold-out reduced one does not count', async (t) => {
  t.match(given({}).whenTheShopperIsIn('US'), { onSale: false, discount: 0 }, 'in the US, S is reduced but sold out');
  const reducedInStock = usRow({ variants: [{ sku: 's', price: 60, compareAtPrice: 80, inStock: true, quantity: 1 }, { sku: 'm', price: 45, compareAtPrice: 90, inStock: false, quantity: 0 }] });
  t.match(given({ rows: [reducedInStock] }).whenTheShopperIsIn('US'), { onSale: true, discount: 25 }, 'the sold-out 50% off does not set the discount');
  const equalListPrice = usRow({ variants: [{ sku: 's', price: 80, compareAtPrice: 80, inStock: true, quantity: 1 }] });
  t.match(given({ rows: [equalListPrice] }).whenTheShopperIsIn('US'), { onSale: false, discount: 0 }, 'a list price equal to the price is no reduction');
  const soldOutInCanada = { ...product, variants: [variant('s', { compareAtPrice: 125, inStock: false }), variant('m')] };
  t.match(given({ product: soldOutInCanada }).whenTheShopperIsIn('CA'), { available: true, onSale: false, discount: 0 });
});

t.test('discount: the largest percent off among in-stock variants, rounded half up', async (t) => {
  const row = usRow({ variants: [{ sku: 's', price: 70, compareAtPrice: 100, inStock: true, quantity: 1 }, { sku: 'm', price: 66.66, compareAtPrice: 100, inStock: true, quantity: 1 }] });
  t.match(given({ rows: [row] }).whenTheShopperIsIn('US'), { onSale: true, discount: 33 });
  t.equal(percentOff(87.5, 100), 13, '12.5 rounds up');
  t.equal(percentOff(79.99, 100), 20);
  t.equal(percentOff(0.07, 0.08), 13, '12.5 computed as 12.499999999999993 still rounds up');
  t.equal(percentOff(19.99, 39.99), 50);
  t.equal(percentOff(99.8, 100), 0, 'a cut under half a percent is on sale at 0%');
  t.equal(percentOff(100, 90), 0);
  t.equal(percentOff(0, 0), 0);
});

t.test('the response’s market: the shopper’s country, its currency, exact when every result is', async (t) => {
  const us = given({}).whenTheShopperIsIn('US');
  const fallback = given({ rows: [] }).whenTheShopperIsIn('US');
  t.same(shopperMarket('us', [source()], [us], 'CAD'), { country: 'US', currency: 'USD', exact: true });
  t.same(shopperMarket('US', [source()], [us, fallback], 'CAD'), { country: 'US', currency: 'USD', exact: false }, 'one result priced from the default');
  t.same(shopperMarket('US', [source()], [], 'CAD'), { country: 'US', currency: 'USD', exact: false }, 'no results');
  t.same(shopperMarket(null, [source()], [given({}).whenTheShopperIsIn(null)], 'EUR'), { country: null, currency: 'CAD', exact: false }, 'no country: what the results are priced in');
  t.same(shopperMarket(null, [null], [], 'EUR'), { country: null, currency: 'EUR', exact: false }, 'nothing to go on: the dataset’s currency');
  t.same(shopperMarket('JP', [source(), null], [], 'EUR'), { country: 'JP', currency: 'CAD', exact: false }, 'not served: the default market’s currency');
});

t.test('a budget named in another currency is converted by reference rates; every currency a shopper can name has one', async (t) => {
  const { budgetIn, convertAmount, REFERENCE_RATES_PER_USD } = await import('../../domain/pricing/index.js');
  const { CURRENCY_WORDS } = await import('../../domain/search/shopper-words.js');
  const named = [...new Set(Object.values(CURRENCY_WORDS).filter((code): code is string => code !== null))];
  t.same(named.filter((code) => !REFERENCE_RATES_PER_USD[code]), [], 'no currency word whose budget could not be converted');
  t.equal(convertAmount(50, 'CAD', 'cad'), 50, 'the same currency is the same amount, whatever its case');
  const rupeesInCad = convertAmount(1300, 'INR', 'CAD')!;
  t.ok(rupeesInCad > 15 && rupeesInCad < 30, `1300 rupees are about 21 CAD (${rupeesInCad.toFixed(2)})`);
  t.ok(Math.abs(convertAmount(convertAmount(80, 'EUR', 'JPY')!, 'JPY', 'EUR')! - 80) < 1e-9, 'there and back is the same amount');
  t.equal(convertAmount(10, 'XYZ', 'CAD'), null, 'no rate: no conversion');
  t.same(budgetIn({ maxPrice: 1300, currency: 'INR' }, 'INR'), { maxPrice: 1300 });
  t.same(budgetIn({ minPrice: 20, maxPrice: 40 }, 'GBP'), { minPrice: 20, maxPrice: 40 }, 'no currency named: the answer’s own');
  const converted = budgetIn({ minPrice: 20, maxPrice: 40, currency: 'GBP' }, 'USD');
  t.ok(converted.minPrice! > 20 && converted.maxPrice! > 40 && converted.maxPrice! === converted.minPrice! * 2, 'both bounds, at one rate');
  t.same(budgetIn({ maxPrice: 40, currency: 'GBP' }, 'XYZ'), { maxPrice: 40 }, 'priced in a currency without a rate: the shopper’s figure at face value');
});
