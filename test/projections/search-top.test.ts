// Retrieval keeps each leg's best candidates (LEG_DEPTH): the cut-off key is found in one pass through
// a heap rather than by sorting every candidate. It must be the key sorting would give. How many a
// leg keeps follows the page asked for and whether pricing may drop candidates.
import fc from 'fast-check';
import t from 'tap';
import { understandQuery } from '../../domain/search/index.js';
import { legDepth } from '../../projections/queries/search/retrieve.js';
import { kthLargest } from '../../projections/search-memory/best.js';

t.test('the k-th largest key is the one a sort puts k-th from the top, ties and repeats included', async (t) => {
  const keys = fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 400 });
  fc.assert(
    fc.property(keys, fc.nat(), (list, pick) => {
      const k = 1 + (pick % list.length);
      const values = Float64Array.from(list);
      const sorted = [...list].sort((a, b) => b - a);
      return kthLargest(values, values.length, k) === sorted[k - 1];
    }),
    { numRuns: 500 },
  );
  t.equal(kthLargest(Float64Array.from([3, 9, 1, 9, 4]), 3, 1), 9, 'only the first n values count');
  t.equal(kthLargest(Float64Array.from([3, 9, 1, 9, 4]), 3, 3), 1);
});

t.test('each leg contributes three times the page, 60 to 120, and 120 whenever pricing may drop candidates or the words name a gender or fit', async (t) => {
  const plain = understandQuery('red dress');
  t.equal(legDepth(20, {}, plain), 60, 'a page of 20');
  t.equal(legDepth(1, {}, plain), 60, 'never fewer than 60');
  t.equal(legDepth(30, {}, plain), 90);
  t.equal(legDepth(100, {}, plain), 120, 'never more than 120');
  // Pricing drops what fails an offer filter: the page must fill from the deeper pool.
  for (const [what, filters, words] of [
    ['sale asked', { onSale: true }, 'red dress'],
    ['sale in the words', {}, 'red dress on sale'],
    ['a price bound', { maxPrice: 80 }, 'red dress'],
    ['a budget in the words', {}, 'red dress under 80'],
    ['a size in the words', {}, 'red dress size M'],
    ['a size asked (the agent)', { size: 'M' }, 'red dress'],
    ['only what is in stock (the agent)', { inStock: true }, 'red dress'],
    // Ranking weighs these; the attribute leg does not, and keeps a family's items by id.
    ['a gender in the words', {}, "women's sneakers"],
    ['a fit in the words', {}, 'slim fit jeans'],
  ] as const) {
    t.equal(legDepth(20, filters, understandQuery(words)), 120, what);
  }
});
