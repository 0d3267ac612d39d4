// GET /v1/analytics/daily through HTTP: the key and scope it takes, every 422, days in the
// reporting timezone with zeros, revenue in the main currency with others beside it, attribution,
// a change of timezone answered by the old count until the new one replaces it, and
// `stylist analytics rebuild`.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { sessionStream, shopperEvent as event, type RecordedShopperEvent, type ShopperEvent } from '../../domain/session/events.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';


// One service for the file (a service costs seconds to start); each test has an organization of its own.
let shared: TestService | undefined;

const setUp = async (_t: Test) => {
  const service = (shared ??= await startTestService(t));
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const daily = (query: string, h: Record<string, string> = headers) => service.app.inject({ url: `/v1/analytics/daily?${query}`, headers: h });
  /** Appends shopper events as the events route records them (counted unless one says otherwise), and waits for the read model. */
  const record = async (receivedAt: string, events: Array<ShopperEvent | RecordedShopperEvent>, sessionId = randomUUID()) => {
    const recorded = events.map((e) => ({ unverified: null, ...e }));
    const data = { sessionId, organizationId: org.organizationId, demo: false, receivedAt, events: recorded, at: receivedAt };
    const { position } = await service.platform.eventStore.append(sessionStream(sessionId), [{ type: 'ShopperEventsRecorded', data }], { expectedRevision: 'any' });
    await service.platform.projections.waitFor(position, ['analytics']);
    return sessionId;
  };
  /** Products a search showed the session (as POST /v1/search with its sessionId records them). */
  const showBySearch = async (at: string, sessionId: string, itemIds: string[]) => {
    const data = { sessionId, organizationId: org.organizationId, demo: false, shown: itemIds.map((itemId) => ({ itemId, datasetId: randomUUID() })), at };
    const { position } = await service.platform.eventStore.append(sessionStream(sessionId), [{ type: 'SearchResultsShown', data }], { expectedRevision: 'any' });
    await service.platform.projections.waitFor(position, ['analytics']);
  };
  return { service, org, headers, daily, record, showBySearch };
};

t.test('a private key reads it; a public key, no key or a key without the analytics scope cannot', async (t) => {
  const { service, org, daily } = await setUp(t);
  t.equal((await daily('from=2026-05-01&to=2026-05-01')).statusCode, 200);
  t.equal((await daily('from=2026-05-01&to=2026-05-01', {})).statusCode, 401);
  const withPublic = await daily('from=2026-05-01&to=2026-05-01', { authorization: `Bearer ${org.publicKey}` });
  t.same([withPublic.statusCode, withPublic.json().error], [401, 'Authentication failed: public key provided instead of a private key.']);
  const scoped = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'Widget only', '--scopes', 'widget', '--json']);
  const refused = await daily('from=2026-05-01&to=2026-05-01', { authorization: `Bearer ${scoped.privateKey}` });
  t.equal(refused.statusCode, 403);
  t.same(refused.json().error, 'This key does not have the "analytics" scope.');
  const analyst = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'Analyst', '--scopes', 'analytics', '--json']);
  t.equal((await daily('from=2026-05-01&to=2026-05-01', { authorization: `Bearer ${analyst.privateKey}` })).statusCode, 200);
});

t.test('end to end: a widget session reports events and the day counts them', async (t) => {
  const { service, org, headers, daily } = await setUp(t);
  const { datasetId } = (await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Shop', config: { currency: 'CAD' } } })).json();
  const upload = await service.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/items/upload`, headers, payload: { items: [{ sku: 'LINEN-DRESS', name: 'Linen Dress', price: 89.9 }] } });
  const linenDress = upload.json().queued[0].itemId;
  const preflight = await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${org.publicKey}` } });
  t.equal(preflight.statusCode, 200);
  const { token } = preflight.json().session;
  const send = (events: object[]) => service.app.inject({ method: 'POST', url: '/v1/events', headers: { 'x-service-session': token }, payload: { events } });
  t.equal((await send([{ type: 'widget_open' }, { type: 'message_sent' }, { type: 'product_click', itemId: linenDress }])).statusCode, 202);
  t.equal((await send([{ type: 'purchase', itemId: linenDress, value: 89.9, currency: 'CAD' }, { type: 'product_click', itemId: 'not-one-of-ours' }])).statusCode, 202);
  const today = new Date().toISOString().slice(0, 10);
  const day = await until(
    "today's purchase counted",
    async () => (await daily(`from=${today}&to=${today}`)).json().days[0],
    (d) => d?.purchases === 1,
  );
  t.same(
    day,
    { date: today, sessions: 1, messages: 1, productClicks: 1, addToCarts: 0, purchases: 1, revenue: 89.9, assistedRevenue: 0, unverified: 1, conversionRate: 1 },
    "a click the client reports shows nothing: not assisted; a click on an item not the organization's is recorded but only counted as unverified",
  );
});

t.test('a count being built shows in projections status and in the answer, and the old one answers meanwhile', async (t) => {
  const { service, org, headers, daily, record } = await setUp(t);
  await record('2026-05-02T02:00:00Z', [event('message_sent')]);
  // Hold the builder, as a busy projections process would, to look at the count under way.
  await service.platform.analytics.stop();
  t.teardown(() => service.platform.analytics.start());
  await service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { reportingTimezone: 'Asia/Tokyo' } } });
  const status = await until(
    'the rebuild listed by projections status',
    () => service.cli(['projections', 'status', '--json']),
    (s) => s.analyticsRebuilds.some((b: { organizationId: string }) => b.organizationId === org.organizationId),
  );
  t.match(status.analyticsRebuilds.find((b: { organizationId: string }) => b.organizationId === org.organizationId), { timezone: 'Asia/Tokyo', reason: 'timezone', eventsRead: 0 });
  const during = (await daily('from=2026-05-01&to=2026-05-02')).json();
  t.equal(during.timezone, 'UTC', 'the old count answers');
  t.match(during.rebuilding, { timezone: 'Asia/Tokyo', reason: 'timezone' });
  service.platform.analytics.start();
  const after = await until('the count in Tokyo time', async () => (await daily('from=2026-05-01&to=2026-05-02')).json(), (a) => a.timezone === 'Asia/Tokyo');
  t.notOk(after.rebuilding);
  t.same(after.days.map((d: { messages: number }) => d.messages), [0, 1], '02:00 UTC is 11:00 on the 2nd in Tokyo');
  t.notOk((await service.cli(['projections', 'status', '--json'])).analyticsRebuilds.some((b: { organizationId: string }) => b.organizationId === org.organizationId));
});

t.test('a bad range is a 422 naming the field', async (t) => {
  const { daily } = await setUp(t);
  const cases: Array<[string, string, string]> = [
    ['to=2026-05-01', 'from', 'from must be a date (YYYY-MM-DD).'],
    ['from=2026-5-1&to=2026-05-01', 'from', 'from must be a date (YYYY-MM-DD).'],
    ['from=2026-02-30&to=2026-03-01', 'from', 'from must be a date (YYYY-MM-DD).'],
    ['from=2026-05-01&to=tomorrow', 'to', 'to must be a date (YYYY-MM-DD).'],
    ['from=2026-05-02&to=2026-05-01', 'from', 'from must not be after to.'],
    ['from=2025-01-01&to=2026-05-01', 'to', 'The range may cover at most 367 days.'],
  ];
  for (const [query, path, message] of cases) {
    const response = await daily(query);
    t.equal(response.statusCode, 422, query);
    t.equal(response.json().error, message, query);
    t.same(response.json().details, [{ path, message }], query);
  }
});

t.test('days in the reporting timezone, zeros included, revenue in the main currency and attribution', async (t) => {
  const { service, headers, daily, record, showBySearch } = await setUp(t);
  // The datasets' currency is the main one.
  await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'US store', config: { currency: 'usd' } } });
  const shopper = await record('2026-05-01T10:00:00Z', [event('widget_open'), event('message_sent'), event('product_view', { itemId: 'dress' })]);
  await showBySearch('2026-05-01T10:01:00Z', shopper, ['dress']);
  await record('2026-05-01T10:05:00Z', [event('product_click', { itemId: 'dress' }), event('add_to_cart', { itemId: 'dress', value: 80, currency: 'USD' })], shopper);
  await record('2026-05-01T10:09:00Z', [event('purchase', { itemId: 'dress', value: 80, currency: 'USD' }), event('purchase', { itemId: 'socks', value: 12.5, currency: 'EUR' })], shopper);
  await record('2026-05-03T12:00:00Z', [event('message_sent'), event('purchase', { itemId: 'belt', value: 30, currency: 'USD' })]);
  const answer = (await daily('from=2026-04-30&to=2026-05-03')).json();
  t.equal(answer.timezone, 'UTC');
  t.equal(answer.currency, 'USD');
  t.same(answer.days.map((d: { date: string }) => d.date), ['2026-04-30', '2026-05-01', '2026-05-02', '2026-05-03'], 'every day of the range');
  t.same(answer.days[0], { date: '2026-04-30', sessions: 0, messages: 0, productClicks: 0, addToCarts: 0, purchases: 0, revenue: 0, assistedRevenue: 0, conversionRate: 0 });
  t.same(answer.days[1], {
    date: '2026-05-01',
    sessions: 1,
    messages: 1,
    productClicks: 1,
    addToCarts: 1,
    purchases: 2,
    revenue: 80,
    revenueByCurrency: { EUR: 12.5 },
    assistedRevenue: 80,
    conversionRate: 1,
  });
  t.match(answer.days[3], { sessions: 1, purchases: 1, revenue: 30, assistedRevenue: 0, conversionRate: 1 }, 'a belt never shown is not assisted');
  t.notOk('unverified' in answer.days[3], 'no events kept apart: no unverified figure');
});

t.test('a new reporting timezone: the old count answers until the new one replaces it; the CLI rebuilds on demand', async (t) => {
  const { service, org, headers, daily, record } = await setUp(t);
  // 02:00 UTC on the 2nd is still the 1st in New York.
  await record('2026-05-02T02:00:00Z', [event('message_sent')]);
  t.same((await daily('from=2026-05-01&to=2026-05-02')).json().days.map((d: { messages: number }) => d.messages), [0, 1]);
  const patched = await service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { reportingTimezone: 'America/New_York' } } });
  t.equal(patched.statusCode, 200);
  const moved = await until(
    'the count in New York time',
    async () => (await daily('from=2026-05-01&to=2026-05-02')).json(),
    (answer) => answer.timezone === 'America/New_York',
  );
  t.same(moved.days.map((d: { messages: number }) => d.messages), [1, 0], 'the same message, now on the 1st');
  t.notOk(moved.rebuilding, 'nothing left under way');

  const rebuilt = await service.cli(['analytics', 'rebuild', '--org', org.organizationId, '--wait', '--json']);
  t.match(rebuilt, { organizationId: org.organizationId, state: 'active', timezone: 'America/New_York' });
  t.same((await daily('from=2026-05-01&to=2026-05-02')).json().days, moved.days, 'a rebuild gives the same numbers');
  await t.rejects(service.cli(['analytics', 'rebuild', '--org', randomUUID()]), /not found/);
});
