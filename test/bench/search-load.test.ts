// The performance benchmark's measuring parts without the real route: the query mix, the shares
// of a catalogue, and the load process against a stand-in search route.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import t from 'tap';
import { shares } from '../../bench/search.js';
import { JUDGED_QUERIES } from '../../bench/search-quality/queries.js';
import { quantile, runLoad, type LoadConfig } from '../../bench/search/load.js';
import { colourOf, queryMix, slotOf } from '../../bench/search/mix.js';
import { COLOR_FAMILIES, SLOTS } from '../../domain/catalogue/vocabulary.js';

t.test('the query mix', async (t) => {
  const mix = queryMix(JUDGED_QUERIES, (feed) => `dataset-of-${feed}`);
  t.ok(mix.length >= 3 * JUDGED_QUERIES.length, `${mix.length} requests`);
  t.same(queryMix(JUDGED_QUERIES, (feed) => `dataset-of-${feed}`), mix, 'the same sequence every run');
  t.ok(
    mix.every((body) => body.query.length >= 1 && body.query.length <= 500 && body.limit === 20),
    'every query and limit within the contract',
  );
  const scoped = JUDGED_QUERIES.filter((q) => q.store).map((q) => q.text);
  t.ok(
    mix.filter((b) => scoped.includes(b.query) && !JUDGED_QUERIES.some((q) => !q.store && q.text === b.query)).every((b) => b.datasetIds?.[0]?.startsWith('dataset-of-')),
    'a store query searches its store dataset',
  );
  t.ok(mix.every((b) => !b.filters?.slot || (SLOTS as readonly string[]).includes(b.filters.slot)), 'slots from the vocabulary');
  t.ok(mix.every((b) => !b.filters?.color_family || (COLOR_FAMILIES as readonly string[]).includes(b.filters.color_family)), 'colour families from the vocabulary');
  for (const [what, found] of [
    ['slot', mix.some((b) => b.filters?.slot)],
    ['color_family', mix.some((b) => b.filters?.color_family)],
    ['maxPrice', mix.some((b) => b.filters?.maxPrice)],
    ['onSale', mix.some((b) => b.filters?.onSale)],
    ['country', mix.some((b) => b.country)],
  ] as const)
    t.ok(found, `some requests carry ${what}`);
  t.same([slotOf('red midi dress'), slotOf('black boots size 42'), slotOf('linen pants'), colourOf('red midi dress'), colourOf('something for a wedding')], ['full body', 'footwear', 'bottom', 'red', undefined]);
});

t.test('shares of a catalogue follow the feeds and add up to its size', async (t) => {
  t.same(shares([30, 184, 242, 30, 9, 25, 43], 563), [30, 184, 242, 30, 9, 25, 43]);
  const split = shares([30, 184, 242, 30, 9, 25, 43], 10_000);
  t.equal(split.reduce((a, b) => a + b, 0), 10_000);
  t.ok(split.every((n, i) => Math.abs(n - (10_000 * [30, 184, 242, 30, 9, 25, 43][i]!) / 563) < 8), `${split}`);
});

t.test('quantiles by nearest rank', async (t) => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  t.same([quantile(values, 0.5), quantile(values, 0.95), quantile(values, 0.99), quantile([7], 0.99)], [50, 95, 99, 7]);
  t.ok(Number.isNaN(quantile([], 0.5)));
});

t.test('the load process against a stand-in route: latencies of the 200s, other answers counted as errors', async (t) => {
  const app = Fastify();
  let calls = 0;
  const seen = new Set<string>();
  app.post('/v1/search', async (request, reply) => {
    calls++;
    seen.add(String(request.headers.authorization));
    const body = request.body as { query: string };
    if (body.query === 'bad') return reply.status(422).send({ error: 'query must be at most 500 characters.' });
    await new Promise((resolve) => setTimeout(resolve, 2));
    return { results: [], market: { country: null, currency: 'USD', exact: false } };
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const dir = await mkdtemp(path.join(tmpdir(), 'search-load-test-'));
  t.teardown(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  const config: LoadConfig = { baseUrl, publicKey: 'sgpt-pk-test', bodies: [{ query: 'dress' }, { query: 'shoes' }, { query: 'bad' }], clients: 4, warmupSeconds: 0.3, seconds: 1 };
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(config));
  const result = await runLoad(path.join(dir, 'config.json'));
  t.ok(result.requests > 50, `${result.requests} requests measured`);
  t.ok(calls > result.requests, 'the warm-up is not measured');
  t.ok(result.p50 >= 2 && result.p50 <= result.p95 && result.p95 <= result.p99 && result.p99 <= result.max, `p50 ${result.p50} ≤ p95 ${result.p95} ≤ p99 ${result.p99} ≤ max ${result.max}`);
  t.ok((result.errors['422'] ?? 0) > 0, 'the 422s are counted');
  t.match(result.firstError, /^422 /);
  t.same([...seen], ['Bearer sgpt-pk-test'], 'the public key in the authorization header');
});
