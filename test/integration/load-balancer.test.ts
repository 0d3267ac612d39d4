// Two API processes behind nginx with the compose file's proxy settings (deploy/nginx.conf), as
// `docker compose up` runs them: requests are spread over both, the shopper's own address reaches
// the service (TRUST_PROXY=1) so per-address limits hold per shopper and cannot be dodged with a
// forged X-Forwarded-For, bodies larger than nginx's default limit reach the service, and the
// spec's error answers come through unchanged. Shoppers are told apart by the loopback address they
// connect from (127.0.0.2, 127.0.0.3), so nothing leaves this machine.
// Skipped, with the reason, without Postgres (two processes need one database) or without nginx.
import t from 'tap';
import { Agent, fetch as fetchVia } from 'undici';
import { findNginx, startNginx } from '../support/nginx.js';
import { startProcessCluster } from '../support/process-cluster.js';

const nginx = findNginx();
const skip = !process.env.DATABASE_URL || !process.env.NATS_URL
  ? 'two API processes need one Postgres database (the integration run)'
  : 'missing' in nginx
    ? nginx.missing
    : false;

const ADDRESS_RPM = 6;

t.test('two API processes behind nginx', { skip, timeout: 180_000 }, async (t) => {
  const { app, workers, organization } = await startProcessCluster(t, {
    label: 'balancer',
    settings: { TRUST_PROXY: '1', EVENTS_ADDRESS_RPM: String(ADDRESS_RPM), EVENTS_SESSION_RPM: '1000' },
    apiRoles: [],
    workerRoles: 'api',
    workers: 1,
    organization: 'Balanced Apparel',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const here = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const there = workers[0]!.url;
  if (!there) throw new Error(`the second API process logged no address:\n${workers[0]!.tail.join('\n')}`);
  const balancer = await startNginx([here, there]);
  if ('missing' in balancer) throw new Error(balancer.missing);
  t.teardown(() => balancer.stop());
  const lb = balancer.url;

  // Requests this process answers; the rest went to the other one.
  let answeredHere = 0;
  app.server.on('request', () => answeredHere++);
  const shopper = (address: string) => new Agent({ localAddress: address });
  const shopperA = shopper('127.0.0.2');
  const shopperB = shopper('127.0.0.3');
  t.teardown(() => Promise.all([shopperA.close(), shopperB.close()]));
  const call = (agent: Agent, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    fetchVia(`${lb}${path}`, { ...init, dispatcher: agent });
  const publicAuth = { authorization: `Bearer ${organization.publicKey}` };

  await t.test('round robin: both processes answer', async (t) => {
    const before = answeredHere;
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await call(shopperA, '/v1/widget/presets', { headers: { authorization: `Bearer ${organization.privateKey}` } })).status);
    t.same([...new Set(statuses)], [200]);
    const here = answeredHere - before;
    t.ok(here >= 5 && here <= 15, `this process answered ${here} of 20, the other ${20 - here}`);
  });

  await t.test("the shopper's address, not the balancer's, is what per-address limits count", async (t) => {
    const sessionOf = async (agent: Agent) => {
      const response = await call(agent, '/v1/widget/preflight', { headers: publicAuth });
      t.equal(response.status, 200);
      return ((await response.json()) as { session: { token: string } }).session.token;
    };
    const send = async (agent: Agent, token: string, n: number, headers: Record<string, string> = {}) =>
      (await call(agent, '/v1/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-session': token, ...headers },
        body: JSON.stringify({ events: [{ type: 'product_view', itemId: `item-${n}`, eventId: `e-${n}-${Math.random()}` }] }),
      })).status;
    const tokenA = await sessionOf(shopperA);
    const statusesA: number[] = [];
    for (let n = 0; n <= ADDRESS_RPM; n++) statusesA.push(await send(shopperA, tokenA, n));
    t.same(statusesA, [...Array(ADDRESS_RPM).fill(202), 429], `shopper A (127.0.0.2) reaches its bound of ${ADDRESS_RPM} over both processes`);
    t.equal(await send(shopperA, tokenA, 99, { 'x-forwarded-for': '203.0.113.9' }), 429, 'a forged X-Forwarded-For does not make a new shopper');
    const tokenB = await sessionOf(shopperB);
    t.equal(await send(shopperB, tokenB, 0), 202, 'shopper B (127.0.0.3) has a bound of its own: the balancer did not make them one client');
  });

  await t.test("bodies over nginx's default 1 MB reach the service, and its own errors come back unchanged", async (t) => {
    const admin = { authorization: `Bearer ${organization.privateKey}`, 'content-type': 'application/json' };
    const created = await call(shopperA, '/v1/datasets', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Behind nginx', config: { storeUrl: 'https://lb.example.com' } }) });
    t.equal(created.status, 201);
    const { datasetId } = (await created.json()) as { datasetId: string };
    const items = Array.from({ length: 300 }, (_, i) => ({ sku: `LB-${i}`, name: `Linen shirt ${i}`, description: 'Soft washed linen. '.repeat(400) }));
    const body = JSON.stringify({ items });
    t.ok(body.length > 2 * 1024 * 1024, `a ${(body.length / 1024 / 1024).toFixed(1)} MB upload`);
    const upload = await call(shopperA, `/v1/datasets/${datasetId}/items/upload`, { method: 'POST', headers: admin, body });
    t.equal(upload.status, 202, (await upload.clone().text()).slice(0, 200));

    const direct = await fetch(`${here}/v1/search`, { method: 'POST', headers: { ...publicAuth, 'content-type': 'application/json' }, body: '{"query": "shirt"' });
    const through = await call(shopperA, '/v1/search', { method: 'POST', headers: { ...publicAuth, 'content-type': 'application/json' }, body: '{"query": "shirt"' });
    t.equal(through.status, direct.status, `a truncated body: ${direct.status} either way`);
    t.same(await through.json(), await direct.json(), "the service's own message, not nginx's");
  });
});
