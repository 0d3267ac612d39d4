// Retrieval keeps each leg's best LEG_DEPTH candidates: the cut-off key is found in one pass through
// a heap rather than by sorting every candidate. It must be the key sorting would give.
import fc from 'fast-check';
import t from 'tap';
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
