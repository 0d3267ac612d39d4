// A store feed is fetched only from public addresses: a feed on this machine (or a redirect to one)
// fails at once with a message the merchant can act on, without a request reaching it. The fake
// store stands in for a public one through an injected resolver; every address used is loopback.
import t from 'tap';
import { createOutbound } from '../../infra/http/outbound.js';
import { FeedError, fetchStoreFeed, type FeedNotice } from '../../infra/http/store-feed.js';
import { startShopifyStore } from '../support/shopify-store.js';

const products = (count: number) => Array.from({ length: count }, (_, i) => ({ id: 8_000_000 + i, title: `Wool coat ${i}`, variants: [{ id: 9_100_000 + i, sku: `WC-${i}`, price: '120.00' }], images: [] }));

t.test('by default a feed on a loopback address is refused on the first try, and the store sees nothing', async (t) => {
  const store = await startShopifyStore(t, { products: products(3) });
  const notices: FeedNotice[] = [];
  const port = new URL(store.url).port;
  for (const endpoint of [`${store.url}/products.json`, `http://2130706433:${port}/products.json`, `http://[::ffff:127.0.0.1]:${port}/products.json`, `http://localhost:${port}/products.json`]) {
    await t.rejects(
      fetchStoreFeed(endpoint, { retryBaseMs: 1, onNotice: (notice) => notices.push(notice) }),
      { name: 'FeedError', page: 1, message: /^Page 1: refused: (127\.0\.0\.1|::ffff:7f00:1|localhost) is a loopback address \(this machine\); Stylist only fetches addresses on the public internet$/ },
      endpoint,
    );
  }
  t.same(notices, [], 'not retried: asking again would change nothing');
  t.same(store.requests, []);
});

t.test('every redirect is checked again: a public store redirecting to a private address is refused there', async (t) => {
  const store = await startShopifyStore(t, { products: products(3) });
  const port = new URL(store.url).port;
  const resolver = async (hostname: string) => {
    if (hostname === 'shop.example') return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'internal.example') return [{ address: '::ffff:127.0.0.1', family: 6 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  // 127.0.0.1 plays a public address; the same server under another spelling stays refused.
  const outbound = createOutbound({ resolve: resolver, treatAsPublic: ['127.0.0.1'] });
  t.teardown(() => outbound.close());
  const notices: FeedNotice[] = [];
  const read = () => fetchStoreFeed(`http://shop.example:${port}/products.json`, { outbound, retryBaseMs: 1, onNotice: (notice) => notices.push(notice) });
  t.equal((await read()).retrieved, 3, 'the store itself is read');

  const before = store.requests.length;
  store.failNext(1, 302, { location: `http://internal.example:${port}/products.json` });
  await t.rejects(read(), new FeedError('Page 1: refused: internal.example resolves to ::ffff:127.0.0.1, a loopback address (this machine); Stylist only fetches addresses on the public internet', 1));
  t.same(store.requests.slice(before).map(({ path, status }) => [path, status]), [['/products.json', 302]], 'the redirect target was never asked');

  store.failNext(1, 307, { location: `http://[::1]:${port}/admin` });
  await t.rejects(read(), { name: 'FeedError', message: /^Page 1: refused: ::1 is a loopback address/ });
  t.same(store.requests.slice(before).map(({ path, status }) => [path, status]), [['/products.json', 302], ['/products.json', 307]]);
  t.match(notices, [{ level: 'info', message: /followed a 302 redirect from http:\/\/shop\.example:\d+\/products\.json to http:\/\/internal\.example:\d+\/products\.json/ }]);
});
