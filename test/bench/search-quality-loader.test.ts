// The search quality benchmark up to the search itself: the feeds loaded into a service of its
// own with every judged product found again as an active item, the requests the judged queries
// become, the scoring of an answer (a stub search route stands in for the real one), and the loud
// stop when the route is missing.
import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { loadFeeds, requestFor, scoreQuery } from '../../bench/search-quality.js';
import { missingFeeds, productKey, ProductIndex } from '../../bench/search-quality/feeds.js';
import { EGN, JUDGED_QUERIES, LACED, WOVEN, type JudgedQuery } from '../../bench/search-quality/queries.js';
import { search, SearchFailed, SearchRouteMissing, type SearchResult } from '../../bench/search/client.js';
import { startSearchService } from '../../bench/search/service.js';
import { itemIdFor } from '../../domain/item/identity.js';

const datasets = new Map([
  [WOVEN, '11111111-1111-4111-8111-111111111111'],
  [LACED, '22222222-2222-4222-8222-222222222222'],
  [EGN, '33333333-3333-4333-8333-333333333333'],
]);
const index = new ProductIndex();
index.add(WOVEN, datasets.get(WOVEN)!, [{ id: 101, title: 'Long Black Button Dress' }, { id: 102, title: 'Short Dress' }, { id: 103, title: 'Maxi' }]);
index.add(EGN, datasets.get(EGN)!, [{ id: 201, title: 'Boot' }, { id: 202, title: 'Sold Out Boot', variants: [{ available: false }] }]);
const itemOf = (feed: string, id: number) => itemIdFor(datasets.get(feed)!, String(id));

const similar: JudgedQuery = {
  id: 'similar-x',
  type: 'similar',
  text: 'more like this',
  store: WOVEN,
  country: 'CA',
  similarTo: { feed: WOVEN, id: '101' },
  judgements: [
    { feed: WOVEN, id: '102', grade: 3, why: 'a' },
    { feed: WOVEN, id: '103', grade: 2, why: 'b' },
  ],
};

/** A stand-in for the route: answers every search with `results`, and records the bodies. */
async function stubSearch(t: Test, results: Array<Partial<SearchResult>>, status = 200) {
  const bodies: unknown[] = [];
  const app = Fastify();
  app.post('/v1/search', async (request, reply) => {
    bodies.push(request.body);
    return reply.status(status).send(status === 200 ? { results, market: { country: 'CA', currency: 'CAD', exact: true } } : { error: 'query must be at most 500 characters.' });
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return { baseUrl, bodies };
}

t.test('the request a judged query becomes', async (t) => {
  t.test('given a query scoped to a store, when sent, then it searches that store dataset in its country', async (t) => {
    const query = JUDGED_QUERIES.find((q) => q.store === LACED && q.country)!;
    t.same(requestFor(query, { datasets, index }), { query: query.text, limit: 20, datasetIds: [datasets.get(LACED)], country: query.country });
  });
  t.test('given a query without a store, when sent, then it names no dataset', async (t) => {
    const query = JUDGED_QUERIES.find((q) => !q.store && !q.country)!;
    t.same(requestFor(query, { datasets, index }), { query: query.text, limit: 20 });
  });
  t.test("given a similar query, when sent, then the reference product's name follows the words and one more result is asked for", async (t) => {
    t.same(requestFor(similar, { datasets, index }), { query: 'more like this Long Black Button Dress', limit: 21, datasetIds: [datasets.get(WOVEN)], country: 'CA' });
  });
});

t.test('scoring an answer', async (t) => {
  t.test('given the reference product first and the judged ones after, when scored, then the reference is left out', async (t) => {
    const stub = await stubSearch(t, [
      { itemId: itemOf(WOVEN, 101), datasetId: datasets.get(WOVEN)! },
      { itemId: itemOf(WOVEN, 102), datasetId: datasets.get(WOVEN)! },
      { itemId: itemOf(WOVEN, 103), datasetId: datasets.get(WOVEN)! },
    ]);
    const scored = await scoreQuery({ baseUrl: stub.baseUrl, publicKey: 'sgpt-pk-test' }, similar, { datasets, index });
    t.same([scored.ndcg10, scored.recall20], [1, 1], 'the ideal order once the reference is out');
    t.same(scored.top.map((r) => [r.name, r.grade]), [['Short Dress', 3], ['Maxi', 2]]);
    t.same(stub.bodies, [requestFor(similar, { datasets, index })], 'the body sent');
  });
  t.test('given an unjudged item on top, when scored, then it counts as grade 0', async (t) => {
    const stub = await stubSearch(t, [
      { itemId: itemOf(EGN, 201), datasetId: datasets.get(EGN)! },
      { itemId: '99999999-9999-4999-8999-999999999999', datasetId: datasets.get(WOVEN)!, product: { name: 'Unknown' } },
      { itemId: itemOf(WOVEN, 103), datasetId: datasets.get(WOVEN)! },
    ]);
    const scored = await scoreQuery({ baseUrl: stub.baseUrl, publicKey: 'k' }, similar, { datasets, index });
    t.same(scored.top.map((r) => [r.name, r.grade]), [['Boot', 0], ['Unknown', 0], ['Maxi', 2]]);
    t.equal(scored.recall20, 0.5, '103 found, 102 not');
    t.ok(Math.abs(scored.ndcg10 - 3 / 2 / (7 + 3 / Math.log2(3))) < 1e-9, 'grade 2 at rank 3 over the ideal 3, 2');
  });
  t.test('given an unjudged item and a judged one scored alike, when scored, then they share the judged one\'s gain, in either order', async (t) => {
    for (const [first, second] of [
      [201, 103],
      [103, 201],
    ] as const) {
      const result = (n: number) => ({ itemId: itemOf(n === 201 ? EGN : WOVEN, n), datasetId: datasets.get(n === 201 ? EGN : WOVEN)!, score: 0.5, product: { available: true } });
      const stub = await stubSearch(t, [{ ...result(first) }, { ...result(second) }] as Array<Partial<SearchResult>>);
      const scored = await scoreQuery({ baseUrl: stub.baseUrl, publicKey: 'k' }, similar, { datasets, index });
      // Maxi (grade 2, gain 3) tied with the boot (0) at ranks 1 and 2: 1.5 at each.
      t.ok(Math.abs(scored.ndcg10 - (1.5 + 1.5 / Math.log2(3)) / (7 + 3 / Math.log2(3))) < 1e-9, `${first} then ${second}`);
    }
  });
  t.test('given every relevant product sold out, when scored, then the buyable view has nothing to find: null, not 0', async (t) => {
    const stub = await stubSearch(t, [{ itemId: itemOf(EGN, 202), datasetId: datasets.get(EGN)! }]);
    const soldOut: JudgedQuery = { id: 'sold-out', type: 'garment', text: 'boot', judgements: [{ feed: EGN, id: '202', grade: 3, why: 'a' }] };
    const scored = await scoreQuery({ baseUrl: stub.baseUrl, publicKey: 'k' }, soldOut, { datasets, index });
    t.same([scored.ndcg10, scored.recall20], [1, 1], 'found, as the judgements have it');
    t.same(scored.buyable, { ndcg10: null, recall20: null }, 'left out of the buyable averages');
  });
});

t.test('a route that is not there stops the bench with a message saying so', async (t) => {
  const app = Fastify();
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `Route not found: ${request.method} ${request.url}` }));
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  await t.rejects(search(baseUrl, 'k', { query: 'dress' }), SearchRouteMissing);
  await t.rejects(search(baseUrl, 'k', { query: 'dress' }), /no search route yet/);
  const refusing = await stubSearch(t, [], 422);
  await t.rejects(search(refusing.baseUrl, 'k', { query: 'dress' }), SearchFailed, 'any other status is a failure of its own');
});

t.test('the seven feeds loaded: every judged product is an active item with its Shopify id as sku', { skip: missingFeeds().length ? 'the fixture feeds are absent' : false }, async (t) => {
  const service = await startSearchService('pglite');
  t.teardown(() => service.close());
  const loaded = await loadFeeds(service, { log: () => {} });
  t.equal(loaded.failed, 0, 'no product refused or failed');
  const judged = new Set(JUDGED_QUERIES.flatMap((q) => [...q.judgements, ...(q.similarTo ? [q.similarTo] : [])].map((p) => productKey(p.feed, p.id))));
  const missing: string[] = [];
  for (const key of judged) {
    const product = loaded.index.product(key);
    const item = product && (await service.call('GET', `/v1/datasets/${product.datasetId}/items/${product.itemId}`, undefined, 200)).item;
    if (!item || item.status !== 'active' || `${[...loaded.datasets].find(([, id]) => id === product.datasetId)![0]}#${item.product.sku}` !== key) missing.push(key);
  }
  t.same(missing, [], `all ${judged.size} judged products found`);
});
