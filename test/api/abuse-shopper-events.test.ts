// Issue 23, part 3: shopper events are not taken on trust. Each attack a script with one
// organization's public key (public by design) could make, sent over HTTP on loopback to the real
// service, and what holds now:
//   - purchases of another organization's items or datasets are recorded but kept apart: they
//     count in no figure (before: they counted as the session's organization's revenue);
//   - a currency that is not ISO 4217 or a value past the bound of one event is a 422 (before: any
//     three letters and values up to 1e9 were recorded and counted);
//   - one session's counted revenue per currency is bounded (before: 1,000 events × 1e9);
//   - assisted revenue counts only products the service itself showed in the session, by a search
//     naming it or an agent turn, not a click the client reports (before: any product_view);
//   - a session token stops working within 10 s of its key's or organization's deletion (before:
//     for the rest of its day), in every API process;
//   - a token or intent spelled another way than it was issued (a trailing `=`, the unused bits of
//     its last character) does not verify (before: Node's lenient base64url decoding took them).
// The bounds come from the environment (EVENTS_MAX_VALUE, EVENTS_MAX_SESSION_REVENUE).
import t from 'tap';
import { issueCartIntent } from '../../infra/tokens/cart-intent.js';
import { sessionStream } from '../../domain/session/index.js';
import { loadConfig } from '../../infra/config/config.js';
import { product, variant } from '../support/items.js';
import { startTestService } from '../support/service.js';
import { until } from '../support/until.js';

const MAX_VALUE = 1_000_000;
const MAX_SESSION_REVENUE = 1_500_000;

const service = await startTestService(t, { workers: ['ingest'], env: { EVENTS_MAX_VALUE: String(MAX_VALUE), EVENTS_MAX_SESSION_REVENUE: String(MAX_SESSION_REVENUE) } });
await service.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = service.app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;

interface Answer {
  status: number;
  body: any;
}

async function http(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}, to = base): Promise<Answer> {
  const response = await fetch(`${to}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const today = () => new Date().toISOString().slice(0, 10);

interface Shop {
  organizationId: string;
  publicKey: string;
  privateKey: string;
  datasetId: string;
  /** itemId by sku. */
  items: Record<string, string>;
  session(publicKey?: string, to?: string): Promise<{ sessionId: string; token: string }>;
  /** Today's figures, once `done` holds of them. */
  day(done: (day: Record<string, any>) => boolean): Promise<Record<string, any>>;
}

async function openShop(name: string, catalogue: object[], { processed = false } = {}): Promise<Shop> {
  const org = await service.cli(['org', 'create', '--name', name, '--json']);
  const admin = { authorization: `Bearer ${org.privateKey}` };
  const { body: created } = await http('POST', '/v1/datasets', { headers: admin, body: { name, config: { storeUrl: 'https://shop.example.com', currency: 'CAD' } } });
  await http('PATCH', `/v1/datasets/${created.datasetId}/activate`, { headers: admin });
  const upload = await http('POST', `/v1/datasets/${created.datasetId}/items/upload`, { headers: admin, body: { items: catalogue } });
  if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  const items = Object.fromEntries(upload.body.queued.map((q: { sku: string; itemId: string }) => [q.sku, q.itemId]));
  if (processed) {
    await until('the catalogue processed', () => http('GET', `/v1/datasets/${created.datasetId}/items?limit=200`, { headers: admin }), (a) => a.body.items?.length === catalogue.length);
  }
  return {
    organizationId: org.organizationId,
    publicKey: org.publicKey,
    privateKey: org.privateKey,
    datasetId: created.datasetId,
    items,
    async session(publicKey = org.publicKey, to = base) {
      const answer = await http('GET', '/v1/widget/preflight', { headers: { authorization: `Bearer ${publicKey}` } }, to);
      if (answer.status !== 200) throw new Error(`preflight: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.session;
    },
    day: async (done) => {
      const date = today();
      const answer = await until(`${name}'s figures of today`, () => http('GET', `/v1/analytics/daily?from=${date}&to=${date}`, { headers: admin }), (a) => a.status === 200 && done(a.body.days[0]), { timeoutMs: 20_000 });
      return answer.body.days[0];
    },
  };
}

const send = (token: string, events: object[], to = base) => http('POST', '/v1/events', { headers: { 'x-service-session': token }, body: { events } }, to);
const streamOf = async (sessionId: string) => service.platform.eventStore.readStream(sessionStream(sessionId));
const unverifiedOf = async (sessionId: string) =>
  (await streamOf(sessionId)).filter((e) => e.type === 'ShopperEventsRecorded').flatMap((e) => (e.data.events as Array<{ unverified: string | null }>).map((s) => s.unverified));

const TEE = { sku: 'TEE-1', name: 'Crew Neck T-Shirt', price: 30 };
const COAT = { sku: 'COAT-1', name: 'Wool Coat', price: 300 };

t.test("another organization's items and datasets are recorded but never counted", async (t) => {
  const acme = await openShop('Acme Apparel', [TEE]);
  const rival = await openShop('Rival Apparel', [COAT]);
  const { sessionId, token } = await acme.session();
  const sent = await send(token, [
    { type: 'product_click', itemId: rival.items['COAT-1'] },
    { type: 'add_to_cart', itemId: rival.items['COAT-1'], value: 300, currency: 'CAD' },
    { type: 'purchase', itemId: rival.items['COAT-1'], value: MAX_VALUE, currency: 'CAD' },
    { type: 'purchase', datasetId: rival.datasetId, value: 999, currency: 'CAD' },
    { type: 'purchase', itemId: acme.items['TEE-1'], datasetId: rival.datasetId, value: 30, currency: 'CAD' },
    { type: 'purchase', itemId: acme.items['TEE-1'], datasetId: acme.datasetId, value: 30, currency: 'CAD' },
  ]);
  t.same([sent.status, sent.body], [202, { accepted: 6 }], 'recorded, as sent');
  t.same(await unverifiedOf(sessionId), ['item', 'item', 'item', 'dataset', 'dataset', null], 'each kept apart with its reason, but its own');
  const day = await acme.day((d) => d.purchases >= 1 && d.unverified >= 5);
  t.match(day, { sessions: 1, productClicks: 0, addToCarts: 0, purchases: 1, revenue: 30, unverified: 5 }, "only the purchase of Acme's own tee counts");
  t.match(await rival.day(() => true), { sessions: 0, purchases: 0, revenue: 0 }, "and nothing lands in the rival's figures");
  await service.cli(['analytics', 'rebuild', '--org', acme.organizationId, '--wait', '--json']);
  t.same(await acme.day(() => true), day, 'counted again from the events: the same numbers');
});

t.test('a currency that is not ISO 4217, or a value past the bound of one event, is refused whole', async (t) => {
  const acme = await openShop('Acme Apparel', [TEE]);
  const { sessionId, token } = await acme.session();
  const tee = acme.items['TEE-1'];
  const xyz = await send(token, [{ type: 'purchase', itemId: tee, value: 10, currency: 'XYZ' }]);
  t.same([xyz.status, xyz.body.error], [422, 'events[0].currency must be an ISO 4217 currency code.']);
  const billion = await send(token, [{ type: 'widget_open' }, { type: 'purchase', itemId: tee, value: 1e9, currency: 'CAD' }]);
  t.same([billion.status, billion.body.error], [422, `events[1].value must be at most ${MAX_VALUE}.`], 'EVENTS_MAX_VALUE');
  const both = await send(token, [{ type: 'purchase', itemId: tee, value: 1e9, currency: 'XYZ' }]);
  t.same([both.status, both.body.details.map((d: { path: string }) => d.path)], [422, ['events[0].value', 'events[0].currency']]);
  t.same(await streamOf(sessionId), [], 'nothing recorded');
  t.equal((await send(token, [{ type: 'purchase', itemId: tee, value: MAX_VALUE, currency: 'cad' }])).status, 202, 'the bound itself, an ISO code in any case');
});

t.test("one session's counted revenue per currency is bounded; past it purchases are kept apart", async (t) => {
  const acme = await openShop('Acme Apparel', [COAT]);
  const coat = acme.items['COAT-1'];
  const { sessionId, token } = await acme.session();
  const buy = (value: number, currency = 'CAD') => ({ type: 'purchase', itemId: coat, value, currency });
  t.equal((await send(token, [buy(MAX_VALUE), buy(MAX_VALUE)])).status, 202);
  t.equal((await send(token, [buy(400_000), buy(MAX_VALUE, 'USD')])).status, 202, 'a smaller one still fits; another currency has a bound of its own');
  // A flood of maximal purchases adds nothing more.
  for (let i = 0; i < 5; i++) t.equal((await send(token, Array.from({ length: 100 }, () => buy(MAX_VALUE)))).status, 202);
  t.same((await unverifiedOf(sessionId)).slice(0, 4), [null, 'session-revenue', null, null]);
  const other = await acme.session();
  t.equal((await send(other.token, [buy(MAX_VALUE)])).status, 202, 'another session starts afresh');
  const day = await acme.day((d) => d.purchases >= 4);
  t.match(day, { sessions: 2, purchases: 4, revenue: 2_400_000, revenueByCurrency: { USD: MAX_VALUE }, unverified: 501 }, `at most ${MAX_SESSION_REVENUE} a session (EVENTS_MAX_SESSION_REVENUE)`);
  await service.cli(['analytics', 'rebuild', '--org', acme.organizationId, '--wait', '--json']);
  t.same(await acme.day(() => true), day, 'counted again from the events: the same numbers');
});

t.test('assisted revenue counts only products the service showed: search results naming the session, not a click the client reports', async (t) => {
  const catalogue = [
    product('DRESS-RED', 'Red Satin Midi Dress', 'Dresses', 70, [variant('DR-S', 'S', 70)]),
    product('SHIRT-NAVY', "Men's Navy Linen Shirt", 'Shirts', 40, [variant('SN-M', 'M', 40)]),
  ];
  const acme = await openShop('Acme Apparel', catalogue, { processed: true });
  const rival = await openShop('Rival Apparel', [product('TEE-WHITE', 'White Cotton T-Shirt', 'T-Shirts', 25, [variant('TW-M', 'M', 25)])], { processed: true });
  const { sessionId, token } = await acme.session();
  const [dress, shirt] = [acme.items['DRESS-RED']!, acme.items['SHIRT-NAVY']!];
  const search = (body: object, key = acme.publicKey) => http('POST', '/v1/search', { headers: { authorization: `Bearer ${key}` }, body });

  t.equal((await send(token, [{ type: 'widget_open' }])).status, 202);
  const found = await until('the dress searchable', () => search({ query: 'red dress', limit: 1, sessionId }), (a) => a.status === 200 && a.body.results[0]?.itemId === dress);
  t.same(found.body.results.map((r: { itemId: string }) => r.itemId), [dress]);
  t.equal((await search({ query: 'navy shirt', limit: 5 })).status, 200, 'a search naming no session records nothing');
  await until("the rival's tee searchable", () => search({ query: 'white t-shirt' }, rival.publicKey), (a) => a.status === 200 && a.body.results.length > 0);
  const foreign = await search({ query: 'white t-shirt', sessionId }, rival.publicKey);
  t.ok(foreign.status === 200 && foreign.body.results.length > 0, "another organization's search naming the session finds its products");
  const stream = await streamOf(sessionId);
  t.same(
    stream.filter((e) => e.type === 'SearchResultsShown').map((e) => (e.data.shown as Array<{ itemId: string }>).map((s) => s.itemId)),
    [[dress]],
    'the results of the search naming the session are on it, nothing else: not the search without it, not the other organization\'s',
  );
  t.notOk(JSON.stringify(stream.map((e) => e.data)).includes('red dress'), "never the query's words");

  const sent = await send(token, [
    { type: 'product_view', itemId: shirt },
    { type: 'product_click', itemId: shirt },
    { type: 'purchase', itemId: shirt, value: 40, currency: 'CAD' },
    { type: 'purchase', itemId: dress, value: 70, currency: 'CAD' },
  ]);
  t.equal(sent.status, 202);
  const day = await acme.day((d) => d.purchases >= 2);
  t.match(day, { purchases: 2, revenue: 110, assistedRevenue: 70 }, 'the dress the search showed is assisted; the shirt the client says it showed is not');
  await service.cli(['analytics', 'rebuild', '--org', acme.organizationId, '--wait', '--json']);
  t.same(await acme.day(() => true), day, 'counted again from the events (what was shown included): the same numbers');
  t.equal((await search({ query: 'red dress', sessionId: 'not-a-uuid' })).status, 422, 'a sessionId that is not a uuid');
});

t.test("a session is revoked with its key, within 10 s, in every API process; the organization's other sessions go on", async (t) => {
  const acme = await openShop('Acme Apparel', [TEE]);
  const second = await startTestService(t, { shareWith: service });
  await second.app.listen({ port: 0, host: '127.0.0.1' });
  const secondBase = `http://127.0.0.1:${(second.app.server.address() as { port: number }).port}`;
  const widgetKey = await service.cli(['key', 'create', '--org', acme.organizationId, '--name', 'Widget', '--json']);
  const doomed = await acme.session(widgetKey.publicKey);
  const spared = await acme.session();
  const open = [{ type: 'widget_open' }];
  t.equal((await send(doomed.token, open)).status, 202);
  t.equal((await send(doomed.token, open, secondBase)).status, 202, 'the second process knows the session live');

  await service.cli(['key', 'delete', '--key', widgetKey.keyId]);
  const deleted = Date.now();
  for (const [where, to] of [['this process', base], ['the second process', secondBase]] as const) {
    await until(`the session refused by ${where}`, () => send(doomed.token, open, to), (a) => a.status === 401, { timeoutMs: 15_000, everyMs: 200 });
    const after = Date.now() - deleted;
    t.ok(after <= 10_500, `refused by ${where} ${after} ms after the deletion (at most 10 s, and one request)`);
    t.same((await send(doomed.token, open, to)).body, { error: 'Session token missing or expired.' });
  }
  t.equal((await send(spared.token, open)).status, 202, "a session opened with the organization's other key goes on");
  const recorded = (await streamOf(doomed.sessionId)).length;
  t.equal((await send(doomed.token, open)).status, 401);
  t.equal((await streamOf(doomed.sessionId)).length, recorded, 'nothing recorded once refused');
});

t.test('a session is revoked with its organization, within 10 s', async (t) => {
  const acme = await openShop('Short-lived Apparel', [TEE]);
  const { token } = await acme.session();
  const demo = await acme.session('sgpt-pk-demo');
  const open = [{ type: 'widget_open' }];
  t.equal((await send(token, open)).status, 202);
  await service.cli(['org', 'delete', '--org', acme.organizationId]);
  const deleted = Date.now();
  await until('the session refused', () => send(token, open), (a) => a.status === 401, { timeoutMs: 15_000, everyMs: 200 });
  t.ok(Date.now() - deleted <= 10_500, `refused ${Date.now() - deleted} ms after the deletion`);
  t.equal((await send(demo.token, open)).status, 202, 'a demo session (no key, the demo organization) is not affected');
});

t.test('tokens and intents verify only as issued: a trailing `=` or other bits in the last character do not', async (t) => {
  const acme = await openShop('Acme Apparel', [TEE]);
  const { sessionId, token } = await acme.session();
  const [body, signature] = token.split('.') as [string, string];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  // 32 bytes take 43 characters, the last carrying 4 bits and 2 that decoding ignores.
  const last = alphabet.indexOf(signature.at(-1)!);
  const sameBytes = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
  t.same(Buffer.from(sameBytes, 'base64url'), Buffer.from(signature, 'base64url'), 'the same signature bytes, spelled otherwise');
  for (const [name, spelled] of [
    ['a trailing =', `${body}.${signature}=`],
    ['two trailing =', `${body}.${signature}==`],
    ['the unused bits of the last character set', `${body}.${sameBytes}`],
    ['a padded body', `${body}=.${signature}`],
  ]) {
    const answer = await send(spelled!, [{ type: 'widget_open' }]);
    t.same([answer.status, answer.body], [401, { error: 'Session token missing or expired.' }], name!);
  }
  t.same(await streamOf(sessionId), [], 'nothing recorded');

  const tee = acme.items['TEE-1']!;
  const intent = issueCartIntent(service.platform.secret, { sessionId, itemId: tee, variantId: 'TEE-1', action: 'add', expiresAt: new Date(Date.now() + 60_000) });
  const elsewhere = issueCartIntent(service.platform.secret, { sessionId: (await acme.session()).sessionId, itemId: tee, variantId: 'TEE-1', action: 'add', expiresAt: new Date(Date.now() + 60_000) });
  const add = (withIntent: string) => ({ type: 'add_to_cart', itemId: tee, intent: withIntent });
  t.equal((await send(token, [add(intent), add(`${intent}=`), add(elsewhere), { type: 'cart_outcome', intent, itemId: tee }])).status, 202);
  t.same(await unverifiedOf(sessionId), [null, 'intent', 'intent', null], "the intent as issued counts; spelled otherwise, or another session's, it does not");
  t.match(await acme.day((d) => d.addToCarts >= 1), { addToCarts: 1, unverified: 2 });
});

t.test('the bounds are read from the environment, with their defaults', async (t) => {
  const defaults = loadConfig({}).events;
  t.same(defaults, { sessionRpm: 120, addressRpm: 1200, maxValue: 100_000_000, maxSessionRevenue: 100_000_000, sessionCheckMs: 5_000 });
  t.match(loadConfig({ EVENTS_MAX_VALUE: '500', EVENTS_MAX_SESSION_REVENUE: '2000', EVENTS_SESSION_CHECK_SECONDS: '1' }).events, { maxValue: 500, maxSessionRevenue: 2000, sessionCheckMs: 1000 });
  t.throws(() => loadConfig({ EVENTS_SESSION_CHECK_SECONDS: '11' }), /EVENTS_SESSION_CHECK_SECONDS must be a whole number from 0 to 10/, 'never trusted longer than 10 s');
  t.throws(() => loadConfig({ EVENTS_MAX_VALUE: '1000000001' }), /EVENTS_MAX_VALUE must be a whole number from 1 to 1000000000/);
});

