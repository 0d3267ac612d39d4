// The group commit of the counters: which requests share a statement, and what a failed statement
// does to the requests that were waiting on it.
import t from 'tap';
import { Coalescer } from '../../infra/metering/coalesce.js';

const recorder = () => {
  const batches: Array<{ key: string; items: number[] }> = [];
  let release: (() => void) | null = null;
  const coalescer = new Coalescer<number, number>(async (key, items) => {
    batches.push({ key, items });
    // The first statement stays in flight until the test lets it go.
    if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    return items.map((item) => item * 10);
  });
  return { coalescer, batches, release: () => release?.() };
};

t.test('requests that arrive in one turn of the event loop share one statement', async (t) => {
  const { coalescer, batches, release } = recorder();
  const answers = Promise.all([1, 2, 3].map((n) => coalescer.submit('row', n)));
  await new Promise((resolve) => setImmediate(resolve));
  release();
  t.same(await answers, [10, 20, 30], 'each request gets its own answer, in arrival order');
  t.same(batches, [{ key: 'row', items: [1, 2, 3] }]);
});

t.test('requests arriving while a statement is in flight go together in the next one', async (t) => {
  const { coalescer, batches, release } = recorder();
  const first = coalescer.submit('row', 1);
  await new Promise((resolve) => setImmediate(resolve));
  const later = [2, 3, 4].map((n) => coalescer.submit('row', n));
  const otherRow = coalescer.submit('other', 5);
  t.same(await otherRow, 50, 'another row does not wait for this one');
  release();
  t.same(await Promise.all([first, ...later]), [10, 20, 30, 40]);
  t.same(
    batches.filter((batch) => batch.key === 'row').map((batch) => batch.items),
    [[1], [2, 3, 4]],
  );
});

t.test('a failed statement rejects its own batch only', async (t) => {
  let calls = 0;
  const coalescer = new Coalescer<number, number>(async (_key, items) => {
    calls += 1;
    if (calls === 1) throw new Error('connection lost');
    return items;
  });
  await t.rejects(coalescer.submit('row', 1), /connection lost/);
  t.equal(await coalescer.submit('row', 2), 2, 'the next request is counted normally');
});
