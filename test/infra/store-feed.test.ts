// Reading a store's products.json against a local fake Shopify store: every page read and nothing
// twice, the product cap, and each way a real store fails (flaky, rate-limited, gone, a password
// page, broken JSON, redirect loops, huge or hung answers) ending in a retry or a clear FeedError.
import t from 'tap';
import { FeedError, feedPageUrl, fetchStoreFeed as fetchAnyStoreFeed, type FeedNotice, type FeedOptions, type FeedProduct } from '../../infra/http/store-feed.js';
import { localStores } from '../support/outbound.js';
import { loadShopifyFixtures, replicateProducts, type FakeShopifyStore, shopifyFixturesAvailable, shopifyFixturesDir, startShopifyStore } from '../support/shopify-store.js';

/** The fake store listens on 127.0.0.1: it is read as with OUTBOUND_ALLOW_PRIVATE=true (the refusal is tested in store-feed-outbound.test.ts). */
const fetchStoreFeed = <T = FeedProduct>(endpoint: string, options: FeedOptions<T> = {}) => fetchAnyStoreFeed<T>(endpoint, { outbound: localStores, ...options });

const fixtures = shopifyFixturesAvailable() ? loadShopifyFixtures() : null;
const needsFixtures = `needs ../shared/fixtures/shopify (${shopifyFixturesDir})`;

/** Small stand-in products, enough for paging and failure tests that need no real data. */
const madeUpProducts = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: 7_000_000 + i,
    title: `Linen shirt ${i}`,
    handle: `linen-shirt-${i}`,
    variants: [{ id: 9_000_000 + i, sku: `LS-${i}`, price: '49.00' }],
    images: [],
  }));

/** Quick retries so failure tests take milliseconds, and a log of what the run told the sync log. */
const quick = (extra: FeedOptions = {}) => {
  const notices: FeedNotice[] = [];
  const options: FeedOptions = { retryBaseMs: 5, retryMaxMs: 50, onNotice: (notice) => notices.push(notice), ...extra };
  return { options, notices };
};

const feedRequests = (store: FakeShopifyStore) => store.requests.filter((request) => request.path === '/products.json');

t.test('page URLs keep the query the endpoint already has and set limit and page', async (t) => {
  t.equal(feedPageUrl('https://shop.example/products.json', 3, 250), 'https://shop.example/products.json?limit=250&page=3');
  t.equal(feedPageUrl('https://shop.example/collections/sale/products.json?currency=EUR&limit=30&page=9', 1, 100), 'https://shop.example/collections/sale/products.json?currency=EUR&limit=100&page=1');
});

t.test('every page of a real-looking store is read, each product once, in feed order', { skip: !fixtures && needsFixtures }, async (t) => {
  const store = await startShopifyStore(t, { products: replicateProducts(fixtures!, 1_234), photos: 'asis' });
  const progress: number[] = [];
  const result = await fetchStoreFeed(`${store.url}/products.json`, { onPage: ({ page, held }) => void progress.push(page, held) });
  t.equal(result.retrieved, 1_234);
  t.equal(result.products.length, 1_234);
  t.equal(result.pages, 5, 'four full pages of 250 and a short one of 234');
  t.equal(result.repeated, 0);
  t.equal(result.capped, false);
  t.equal(new Set(result.products.map((product) => String(product.id))).size, 1_234, 'ids are distinct');
  t.same(result.products, store.products, 'the raw products, in the store order');
  t.same(progress, [1, 250, 2, 500, 3, 750, 4, 1_000, 5, 1_234]);
  t.same(feedRequests(store).map(({ page, limit }) => [page, limit] as const), [1, 2, 3, 4, 5].map((page) => [page, 250]));
});

t.test('served photos point at the fake store and are JPEGs; the products list itself is untouched', { skip: !fixtures && needsFixtures }, async (t) => {
  const products = replicateProducts(fixtures!, 40);
  const store = await startShopifyStore(t, { products });
  const { products: served } = await fetchStoreFeed(`${store.url}/products.json`, { pageSize: 50 });
  const withImage = served.findIndex((product) => Array.isArray(product.images) && product.images.length > 0);
  const src = (served[withImage]!.images as Array<{ src: string }>)[0]!.src;
  t.ok(src.startsWith(`${store.url}/photos/`), src);
  t.notOk((products[withImage]!.images as Array<{ src: string }>)[0]!.src.startsWith(store.url));
  const photo = await fetch(src);
  t.equal(photo.headers.get('content-type'), 'image/jpeg');
  t.same([...new Uint8Array(await photo.arrayBuffer()).subarray(0, 3)], [0xff, 0xd8, 0xff]);
});

t.test('a store of exactly whole pages ends on its empty page and is not capped', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(500) });
  const result = await fetchStoreFeed(`${store.url}/products.json`);
  t.match(result, { retrieved: 500, pages: 3, capped: false });
  t.same(feedRequests(store).map((request) => request.page), [1, 2, 3]);

  const leaseLost = new Error('lease lost');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, { onPage: async () => Promise.reject(leaseLost) }), leaseLost, 'a failing onPage (heart-beat) stops the run');
  t.equal(feedRequests(store).length, 4, 'after its first page');
});

t.test('maxProducts cuts the last page to exactly the cap and stops asking', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(1_000) });
  const { options, notices } = quick({ maxProducts: 600 });
  const result = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.match(result, { retrieved: 600, pages: 3, capped: true });
  t.same(result.products.map((product) => product.id), store.products.slice(0, 600).map((product) => product.id));
  t.same(feedRequests(store).map((request) => request.page), [1, 2, 3], 'page 4 is never asked for');
  t.match(notices, [{ level: 'warn', message: /^Page 3: stopped at 600 products/ }]);

  store.products = madeUpProducts(600);
  const whole = await fetchStoreFeed(`${store.url}/products.json`, { maxProducts: 600 });
  t.match(whole, { retrieved: 600, pages: 3, capped: false }, 'a feed that ends at the cap (short page) is not capped');
});

t.test('a store of exactly the cap on whole pages: the next page decides, and failing to read it keeps what was read', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(500) });
  const exact = await fetchStoreFeed(`${store.url}/products.json`, { maxProducts: 500 });
  t.match(exact, { retrieved: 500, pages: 3, capped: false }, 'the empty page 3 shows the store ends at the cap');

  const { options, notices } = quick({ maxProducts: 500, onPage: ({ page }) => void (page === 2 && store.failNext(1, 404)) });
  const unsure = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.match(unsure, { retrieved: 500, pages: 2, capped: true }, 'not knowing counts as capped: nothing gets archived');
  t.match(notices.at(-1), { level: 'warn', message: /^Page 3: HTTP 404.*500 products already read are kept/ });
});

t.test('a store over 25,000 products stops at 25,000', { skip: !fixtures && needsFixtures }, async (t) => {
  const store = await startShopifyStore(t, { products: replicateProducts(fixtures!, 25_300), photos: 'none' });
  const started = performance.now();
  const result = await fetchStoreFeed(`${store.url}/products.json`);
  t.comment(`25,000 products in ${Math.round(performance.now() - started)} ms`);
  // Page 100 ends exactly at the cap; page 101 shows the store is larger.
  t.match(result, { retrieved: 25_000, pages: 101, capped: true, repeated: 0 });
  t.equal(new Set(result.products.map((product) => String(product.id))).size, 25_000);
  t.equal(result.products.at(-1)!.id, store.products[24_999]!.id);
  t.equal(feedRequests(store).length, 101);
});

t.test('products repeated across pages are dropped and counted', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(1_000), repeatAcrossPages: 10 });
  const { options, notices } = quick();
  const result = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.match(result, { retrieved: 1_000, pages: 5, repeated: 40, capped: false });
  t.same(result.products.map((product) => product.id), store.products.map((product) => product.id), 'first occurrences, in order');
  t.same(notices.map((notice) => notice.message), [2, 3, 4, 5].map((page) => `Page ${page}: 10 products already seen on an earlier page skipped`));
});

t.test('two server errors, then the page is read', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(300) });
  const { options, notices } = quick({ onPage: ({ page }) => void (page === 1 && store.failNext(2, 500)) });
  const result = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.match(result, { retrieved: 300, pages: 2 });
  t.same(feedRequests(store).map(({ page, status }) => [page, status]), [[1, 200], [2, 500], [2, 500], [2, 200]]);
  t.match(notices, [
    { level: 'warn', message: /^Page 2: HTTP 500 Internal Server Error, retrying in \d+ ms \(attempt 2 of 5\)$/ },
    { level: 'warn', message: /^Page 2: HTTP 500 Internal Server Error, retrying in \d+ ms \(attempt 3 of 5\)$/ },
  ]);
});

t.test('429 with Retry-After is honoured, up to retryMaxMs', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(10) });
  store.failNext(1, 429, { 'retry-after': '1' });
  const { options, notices } = quick({ retryBaseMs: 1, retryMaxMs: 60_000 });
  const started = performance.now();
  t.equal((await fetchStoreFeed(`${store.url}/products.json`, options)).retrieved, 10);
  t.ok(performance.now() - started >= 950, 'waited the second the store asked for');
  t.match(notices, [{ level: 'warn', message: 'Page 1: HTTP 429 Too Many Requests, retrying in 1 s (attempt 2 of 5)' }]);

  store.failNext(1, 429, { 'retry-after': '3600' });
  const capped = quick({ retryMaxMs: 100 });
  const again = performance.now();
  await fetchStoreFeed(`${store.url}/products.json`, capped.options);
  t.ok(performance.now() - again < 900, 'an hour is not waited');
  t.match(capped.notices, [{ message: /retrying in 100 ms/ }]);

  store.failNext(1, 503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() });
  const dated = quick({ retryMaxMs: 80 });
  await fetchStoreFeed(`${store.url}/products.json`, dated.options);
  t.match(dated.notices, [{ message: /^Page 1: HTTP 503 Service Unavailable, retrying in 80 ms/ }], 'an HTTP date is understood (and capped)');
});

t.test('a store that keeps failing ends in a FeedError after maxAttempts', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(10) });
  store.failNext(100, 503);
  const { options, notices } = quick({ maxAttempts: 4 });
  const failure = await fetchStoreFeed(`${store.url}/products.json`, options).catch((error: unknown) => error);
  t.ok(failure instanceof FeedError);
  t.match(failure, { message: 'Page 1: HTTP 503 Service Unavailable after 4 attempts', page: 1, status: 503 });
  t.equal(feedRequests(store).length, 4);
  t.equal(notices.length, 3, 'one notice per retry');
});

t.test('a missing or refused feed fails at once, with a hint', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(10) });
  await t.rejects(fetchStoreFeed(`${store.url}/collections/nope/products.json`, quick().options), {
    name: 'FeedError',
    message: /^Page 1: HTTP 404 Not Found \(check the store address: .*password-protected\)$/,
    page: 1,
    status: 404,
  });
  t.equal(store.requests.length, 1, 'not retried');
  store.failNext(1, 401);
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), { message: /^Page 1: HTTP 401 Unauthorized \(.*password-protected/, status: 401 });
  store.failNext(1, 403);
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), { message: /^Page 1: HTTP 403 Forbidden \(.*password-protected/, status: 403 });
  t.equal(feedRequests(store).length, 2);
});

t.test('answers that are not a products feed are refused with a clear message, not retried', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(10) });
  store.answerNext('<!doctype html><html><body><form action="/password">Enter store using password</form></body></html>', 'text/html; charset=utf-8');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), new FeedError('Page 1: the store answered with text/html, not JSON (is the store password-protected?)', 1));
  store.answerNext('{"products":[{"id":1,"title":"Wool co', 'application/json');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), { name: 'FeedError', message: /^Page 1: the answer is not valid JSON \(.+\)$/ });
  store.answerNext('{"errors":"Not Found"}', 'application/json');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), new FeedError('Page 1: the answer has no products list', 1));
  t.equal(feedRequests(store).length, 3);

  const later = await startShopifyStore(t, { products: madeUpProducts(300) });
  const onPage = () => later.answerNext('{"products": [', 'application/json; charset=utf-8');
  await t.rejects(fetchStoreFeed(`${later.url}/products.json`, quick({ onPage }).options), { message: /^Page 2: the answer is not valid JSON/, page: 2 });
});

t.test('redirects are followed; loops and other schemes are refused', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(300), redirectFrom: '/old' });
  const { options, notices } = quick();
  const result = await fetchStoreFeed(`${store.url}/old`, options);
  t.match(result, { retrieved: 300, pages: 2 });
  t.same(store.requests.map(({ path, page, status }) => [path, page, status]), [['/old', 1, 301], ['/products.json', 1, 200], ['/old', 2, 301], ['/products.json', 2, 200]]);
  t.same(notices, [{ level: 'info', message: `Page 1: followed a 301 redirect from ${store.url}/old to ${store.url}/products.json` }], 'noted once, not per page');

  store.failNext(4, 302, { location: '/products.json' });
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick({ maxRedirects: 3 }).options), new FeedError('Page 1: too many redirects (more than 3)', 1));
  t.equal(feedRequests(store).filter((request) => request.status === 302).length, 4, 'three followed, the fourth refused');

  store.failNext(1, 301, { location: 'ftp://files.example/products.json' });
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), { message: /^Page 1: redirected to ftp: .*only http and https are followed$/ });
});

t.test('an answer over maxPageBytes is refused, declared or streamed', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(250) });
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick({ maxPageBytes: 16 * 1024 }).options), new FeedError('Page 1: the answer is larger than 16 KB', 1), 'chunked page counted as it streams');
  // The body never comes: only a refusal from the headers alone can answer before the timeout.
  store.failNext(1, 200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick({ maxPageBytes: 16 * 1024, timeoutMs: 2_000, maxAttempts: 1 }).options), new FeedError('Page 1: the answer is larger than 16 KB', 1), 'a declared Content-Length over the cap is refused before the body');
  t.equal((await fetchStoreFeed(`${store.url}/products.json`, quick({ maxPageBytes: 64 * 1024 }).options)).retrieved, 250, 'under the cap is fine');
});

t.test('a page that never answers times out, is retried, then fails', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(300) });
  store.hangFrom(2);
  const { options, notices } = quick({ timeoutMs: 300, maxAttempts: 2 });
  const started = performance.now();
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, options), new FeedError('Page 2: no answer within 300 ms after 2 attempts', 2));
  const elapsed = performance.now() - started;
  t.ok(elapsed >= 590 && elapsed < 3_000, `two timeouts of 300 ms (${Math.round(elapsed)} ms)`);
  t.match(notices, [{ level: 'warn', message: /^Page 2: no answer within 300 ms, retrying in \d+ ms \(attempt 2 of 2\)$/ }]);

  const recovering = quick({ timeoutMs: 300, onNotice: () => store.release() });
  t.equal((await fetchStoreFeed(`${store.url}/products.json`, recovering.options)).retrieved, 300, 'the retry after the timeout succeeds');
});

t.test('aborting stops the run promptly with the abort reason, also while it waits to retry', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(300) });
  store.hangFrom(1);
  const cancelled = new Error('sync cancelled');
  const controller = new AbortController();
  setTimeout(() => controller.abort(cancelled), 100);
  const started = performance.now();
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, { timeoutMs: 30_000, signal: controller.signal }), cancelled);
  t.ok(performance.now() - started < 1_000, 'mid-request');

  store.release();
  store.failNext(1, 503, { 'retry-after': '30' });
  const waiting = new AbortController();
  const onNotice = () => setTimeout(() => waiting.abort(cancelled), 50);
  const begun = performance.now();
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, { signal: waiting.signal, onNotice }), cancelled);
  t.ok(performance.now() - begun < 1_000, 'mid-wait');

  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, { signal: AbortSignal.abort(cancelled) }), cancelled, 'already aborted');
});

t.test('an unreachable store is retried as a network failure, then fails', async (t) => {
  const store = await startShopifyStore(null, { products: [] });
  await store.close();
  const { options, notices } = quick({ maxAttempts: 2 });
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, options), { name: 'FeedError', message: 'Page 1: connection refused (ECONNREFUSED) after 2 attempts' });
  t.equal(notices.length, 1);
  await t.rejects(fetchStoreFeed('ftp://shop.example/products.json'), { name: 'FeedError', message: /not an http\(s\) address/ });
});

t.test('entries without an id are skipped with one notice per page; the rest of the page is kept', async (t) => {
  const store = await startShopifyStore(t, { products: [] });
  const [first, second] = madeUpProducts(2);
  store.answerNext(JSON.stringify({ products: [first, { title: 'No id' }, 42, null, second, { id: null }, ['x'], { ...first, title: 'again, id as a string', id: String(first!.id) }] }), 'application/json');
  const { options, notices } = quick();
  const result = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.same(result.products, [first, second]);
  t.match(result, { retrieved: 2, pages: 1, repeated: 1 });
  t.same(notices, [
    { level: 'warn', message: 'Page 1: 5 entries without a product id skipped' },
    { level: 'info', message: 'Page 1: 1 product already seen on an earlier page skipped' },
  ]);
});

t.test('a store that ignores paging and repeats its first page ends instead of looping', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(250) });
  const page = JSON.stringify({ products: madeUpProducts(250) });
  for (let i = 0; i < 5; i++) store.answerNext(page, 'application/json');
  const { options, notices } = quick();
  const result = await fetchStoreFeed(`${store.url}/products.json`, options);
  t.match(result, { retrieved: 250, pages: 2, repeated: 250, capped: false });
  t.match(notices.at(-1), { level: 'warn', message: /^Page 2: a full page with no new products/ });
});

t.test('the feed as a whole is capped in bytes: past maxFeedBytes the run fails at once, not retried', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(600) });
  const pageBytes = JSON.stringify({ products: madeUpProducts(250) }).length;
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick({ maxFeedBytes: Math.floor(pageBytes * 1.5) }).options), {
    name: 'FeedError',
    page: 2,
    message: /^Page 2: the feed is larger than [\d.]+ KB in all, the most one sync reads \(the operator's SYNC_MAX_FEED_MB\)$/,
  });
  t.equal(feedRequests(store).length, 2, 'page 2 asked once');
  const whole = await fetchStoreFeed(`${store.url}/products.json`, quick({ maxFeedBytes: pageBytes * 3 }).options);
  t.equal(whole.retrieved, 600, 'three pages fit');
});

t.test('keep reduces each product as it is read; ids, repeats and the cap are judged on the whole product', async (t) => {
  const store = await startShopifyStore(t, { products: madeUpProducts(300) });
  const seen: unknown[] = [];
  const result = await fetchStoreFeed(`${store.url}/products.json`, { retryBaseMs: 5, maxProducts: 260, keep: (product) => (seen.push(product), { title: product.title }) });
  t.equal(result.retrieved, 260);
  t.same(result.products[0], { title: 'Linen shirt 0' });
  t.match(result, { capped: true, pages: 2 });
  t.equal(seen.length, 300, 'every product with an id went through keep');
});

t.test('pages are parsed as they stream: a BOM, nesting thousands deep and odd shapes read as JSON.parse would', async (t) => {
  const store = await startShopifyStore(t, { products: [] });
  const [first, second] = madeUpProducts(2);
  const deep = `${JSON.stringify(second).slice(0, -1)},"metafields":${'['.repeat(5000)}1${']'.repeat(5000)}}`;
  store.answerNext(`\uFEFF{"shop":{"name":"x","nested":[[[{}]]]},"products":[${JSON.stringify(first)},${deep}]}`, 'application/json');
  const result = await fetchStoreFeed(`${store.url}/products.json`, quick().options);
  t.equal(result.retrieved, 2);
  t.same(result.products[0], first);
  let depth = 0;
  for (let value: unknown = (result.products[1] as unknown as { metafields: unknown }).metafields; Array.isArray(value); value = value[0]) depth++;
  t.ok(depth > 16 && depth < 50, `read nested as deep as the cut (${depth} levels), still too deep for an entry`);

  store.answerNext('{"products":{"1":{"id":1}}}', 'application/json');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), new FeedError('Page 1: the answer has no products list', 1));
  store.answerNext('   ', 'application/json');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), new FeedError('Page 1: the answer is not valid JSON (Unexpected end of JSON input)', 1));
  store.answerNext('{"products":[]} trailing', 'application/json');
  await t.rejects(fetchStoreFeed(`${store.url}/products.json`, quick().options), { message: /^Page 1: the answer is not valid JSON/ });
  store.answerNext('{"products":[]}', 'application/json');
  t.match(await fetchStoreFeed(`${store.url}/products.json`, quick().options), { retrieved: 0, pages: 1 });
});
