// The upload budget (api/body-budget.ts): bodies beyond it wait their turn and are then answered
// like any other; organizations are served in turn; a request that leaves the line holds nothing.
import t from 'tap';
import { BodyBudget } from '../../api/body-budget.js';
import { startTestService } from '../support/service.js';

const MB = 1024 * 1024;
const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test('the budget grants what fits, runs a request bigger than itself alone, and serves organizations in turn', async (t) => {
  const budget = new BodyBudget(10);
  const order: string[] = [];
  const take = (owner: string, bytes: number, name: string) => budget.acquire(owner, bytes).then((release) => (order.push(name), release));
  const a1 = await take('a', 6, 'a1');
  const a2 = take('a', 6, 'a2');
  const a3 = take('a', 6, 'a3');
  const b1 = take('b', 6, 'b1');
  await tick();
  t.same(order, ['a1'], 'a second 6 of 10 waits');
  t.equal(budget.waiting, 3);
  a1();
  a1();
  const releaseA2 = await a2;
  t.equal(budget.inUse, 6, 'released once, however often called');
  releaseA2();
  const releaseB1 = await b1;
  t.same(order, ['a1', 'a2', 'b1'], 'b arrived while a held the budget: served before a\'s next');
  releaseB1();
  (await a3)();
  t.equal(budget.inUse, 0);

  const big = await take('c', 50, 'big');
  t.equal(budget.inUse, 10, 'a request over the budget counts as the whole budget');
  const small = take('d', 1, 'small');
  await tick();
  t.equal(order.at(-1), 'big', 'and runs alone');
  big();
  (await small)();
});

t.test('a waiting request that goes away leaves the line holding nothing', async (t) => {
  const budget = new BodyBudget(10);
  const first = await budget.acquire('a', 10);
  const gone = new AbortController();
  const leaving = budget.acquire('b', 5, gone.signal);
  const next = budget.acquire('c', 5);
  gone.abort();
  (await leaving)();
  t.equal(budget.waiting, 1);
  first();
  const release = await next;
  t.equal(budget.inUse, 5);
  release();
  t.equal(budget.inUse, 0);
});

t.test('concurrent uploads beyond the budget all answer 202 with their own results, and one organization does not starve another', async (t) => {
  const service = await startTestService(t, { env: { UPLOAD_BUDGET_MB: '1' } });
  const shop = async (name: string) => {
    const org = await service.cli(['org', 'create', '--name', name, '--json']);
    const headers = { authorization: `Bearer ${org.privateKey}` };
    const created = await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Main', config: { storeUrl: 'https://shop.example.com' } } });
    const { datasetId } = created.json();
    await service.app.inject({ method: 'PATCH', url: `/v1/datasets/${datasetId}/activate`, headers });
    return (tag: string, count: number) =>
      service.app.inject({
        method: 'POST',
        url: `/v1/datasets/${datasetId}/items/upload`,
        headers,
        // About 0.7 MB: two never fit the budget at once.
        payload: { items: Array.from({ length: count }, (_, i) => ({ sku: `${tag}-${i}`, name: `Linen shirt ${i}`, description: 'd'.repeat(Math.floor((0.7 * MB) / count)) })) },
      });
  };
  const [busy, quiet] = [await shop('Busy Boutique'), await shop('Quiet Corner')];
  const finished: string[] = [];
  const sent = (name: string, response: ReturnType<typeof busy>) => response.then((answer) => (finished.push(name), answer));
  const answers = await Promise.all([sent('busy-1', busy('A', 50)), sent('busy-2', busy('B', 50)), sent('busy-3', busy('C', 50)), sent('busy-4', busy('D', 50)), sent('quiet-1', quiet('Q', 20))]);
  for (const [i, answer] of answers.entries()) {
    t.equal(answer.statusCode, 202, `upload ${i + 1}`);
    const body = answer.json();
    t.same(body.summary, { total: i < 4 ? 50 : 20, queued: i < 4 ? 50 : 20, failed: 0, unchanged: 0 });
    t.equal(body.queued[0].sku, `${'ABCDQ'[i]}-0`, 'its own items');
  }
  t.ok(finished.indexOf('quiet-1') < finished.indexOf('busy-3'), `the quiet shop is served before the busy one's third upload (${finished.join(', ')})`);
});
