// The search quality benchmark's metrics on small hand-made rankings, worked out by hand.
import t, { type Test } from 'tap';
import { dcg, mean, ndcgAt, recallAt, summarise, type QueryScore } from '../../bench/search-quality/metrics.js';

const close = (t: Test, actual: number | null, expected: number, message: string) => t.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${message}: ${actual} ≈ ${expected}`);

// Judged: a = 3, b = 2, c = 1; anything else is 0. Ideal order a, b, c: 7 + 3/log2(3) + 1/2.
const grades = new Map([
  ['a', 3],
  ['b', 2],
  ['c', 1],
]);
const ideal = 7 + 3 / Math.log2(3) + 0.5;

t.test('dcg: gain 2^grade - 1 discounted by log2(rank + 1)', async (t) => {
  close(t, dcg([3, 2, 1]), ideal, 'three graded items');
  close(t, dcg([0, 3]), 7 / Math.log2(3), 'a relevant item at rank 2');
  t.equal(dcg([]), 0, 'nothing returned');
});

t.test('nDCG@10', async (t) => {
  t.test('given the ideal order, when scored, then 1', async (t) => close(t, ndcgAt(10, ['a', 'b', 'c', 'x'], grades), 1, 'ideal'));
  t.test('given the best item second behind an unjudged one, when scored, then the ranks are discounted', async (t) => {
    const got = 7 / Math.log2(3) + 3 / 2 + 1 / Math.log2(5);
    close(t, ndcgAt(10, ['x', 'a', 'b', 'c'], grades), got / ideal, 'x a b c');
  });
  t.test('given a relevant item never returned, when scored, then the ideal still counts it', async (t) => {
    close(t, ndcgAt(10, ['a', 'c'], grades), (7 + 1 / Math.log2(3)) / ideal, 'b missing');
  });
  t.test('given the relevant items only past the cut-off, when scored at k = 2, then 0', async (t) => {
    t.equal(ndcgAt(2, ['x', 'y', 'a', 'b'], grades), 0);
  });
  t.test('given a key returned twice, when scored, then it counts once, at its first rank', async (t) => {
    close(t, ndcgAt(10, ['a', 'a', 'b', 'c'], grades), 1, 'duplicate dropped');
  });
  t.test('given nothing returned, when scored, then 0', async (t) => t.equal(ndcgAt(10, [], grades), 0));
  t.test('given no judged item, when scored, then 0 rather than a division by zero', async (t) => t.equal(ndcgAt(10, ['a'], new Map()), 0));
});

t.test('nDCG@10 with ties: products scored alike are credited their mean gain at their places, whatever order they came in', async (t) => {
  // a (gain 7) and x (0) tied at ranks 1 and 2: 3.5 at each.
  const tied = (3.5 + 3.5 / Math.log2(3)) / ideal;
  close(t, ndcgAt(10, ['a', 'x'], grades, [1, 1]), tied, 'a x, tied');
  close(t, ndcgAt(10, ['x', 'a'], grades, [1, 1]), tied, 'x a, tied: the same');
  t.ok(ndcgAt(10, ['a', 'x'], grades, [2, 1]) > tied && ndcgAt(10, ['x', 'a'], grades, [2, 1]) < tied, 'not tied: the order counts');
  t.equal(ndcgAt(10, ['a', 'x'], grades), ndcgAt(10, ['a', 'x'], grades, [2, 1]), 'no tie keys: no ties');
  // b (3) first; a (7) and x (0) tied across the cut-off at k = 2: 3.5 at rank 2 only.
  close(t, ndcgAt(2, ['b', 'x', 'a'], grades, [9, 1, 1]), (3 + 3.5 / Math.log2(3)) / (7 + 3 / Math.log2(3)), 'a tie across the cut-off');
  // Only neighbours tie: a and x share a key but c is between them.
  close(t, ndcgAt(10, ['a', 'c', 'x'], grades, [1, 2, 1]), (7 + 1 / Math.log2(3)) / ideal, 'the same key apart is no tie');
  close(t, ndcgAt(10, ['a', 'a', 'x'], grades, [1, 7, 1]), tied, 'a key returned twice keeps its first tie key');
});

t.test('recall@20 counts items of grade >= 2', async (t) => {
  t.equal(recallAt(20, ['a', 'c', 'x'], grades), 0.5, 'a found, b missing; c (grade 1) does not count');
  t.equal(recallAt(20, ['c', 'b', 'a'], grades), 1, 'both found, in any order');
  t.equal(recallAt(1, ['c', 'b', 'a'], grades), 0, 'only the top k count');
  t.equal(recallAt(20, ['a', 'a'], grades), 0.5, 'a duplicate is one item');
  t.equal(recallAt(20, ['c'], new Map([['c', 1]])), null, 'no item of grade >= 2: no recall');
});

t.test('averages per query type and overall', async (t) => {
  const scores: QueryScore[] = [
    { id: 'q1', type: 'garment', ndcg10: 1, recall20: 1 },
    { id: 'q2', type: 'garment', ndcg10: 0.5, recall20: 0.5 },
    { id: 'q3', type: 'similar', ndcg10: 0.25, recall20: null },
  ];
  t.same(summarise(scores), [
    { type: 'garment', queries: 2, ndcg10: 0.75, recall20: 0.75 },
    { type: 'similar', queries: 1, ndcg10: 0.25, recall20: null },
    { type: 'overall', queries: 3, ndcg10: 1.75 / 3, recall20: 0.75 },
  ]);
  t.equal(mean([]), null, 'the mean of nothing is no number');
});

t.test('the buyable view reads stock from the feed: sold out only when no variant is available', async (t) => {
  const { inStock, ProductIndex, productKey } = await import('../../bench/search-quality/feeds.js');
  t.equal(inStock({ id: 1, variants: [{ available: false }, { available: false }] }), false);
  t.equal(inStock({ id: 2, variants: [{ available: false }, { available: true }] }), true);
  t.equal(inStock({ id: 3, variants: [{}] }), true, 'a feed without the field sells');
  t.equal(inStock({ id: 4 }), true);
  const index = new ProductIndex();
  index.add('shop.json', '00000000-0000-4000-8000-000000000001', [
    { id: 1, title: 'Sold-out dress', variants: [{ available: false }] },
    { id: 2, title: 'Dress', variants: [{ available: true }] },
    { id: 3, title: 'Skirt', variants: [{ available: false }, { available: true }] },
  ]);
  const [soldOut, dress, skirt] = [1, 2, 3].map((id) => productKey('shop.json', id)) as [string, string, string];
  const judged = new Map([[soldOut, 3], [dress, 3], [skirt, 1], ['other.json#9', 2]]);
  const buyable = index.buyable(judged);
  t.same([...buyable.keys()].sort(), [dress, skirt].sort(), 'the sold-out product and one the index does not hold are left out');
  t.equal(ndcgAt(10, [dress, skirt], buyable), 1, 'what can be bought, in order, is a perfect answer');
  t.ok(ndcgAt(10, [dress, skirt], judged) < 1, 'judged without stock, the same answer misses the sold-out product');
});
