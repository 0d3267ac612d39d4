// GET /v1/analytics/daily through HTTP: the key and scope it takes, every 422, days in the
// reporting timezone with zeros, revenue in the main currency with others beside it, attribution,
// a change of timezone (a small history: the PATCH waits and the next GET answers in the new
// timezone; a large one, or a bound of 0: the GET answers `rebuilding: true` in the old timezone
// until the new count replaces it), and `stylist analytics rebuild`.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { sessionStream, shopperEvent as event, type RecordedShopperEvent, type ShopperEvent } from '../../domain/session/events.js';
import { AnalyticsBuilder } from '../../projections/analytics-builder.js';
import { sharedTestService, startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';


// One service for the file (a service costs seconds to start); each test has an organization of its
// own. Its bound on a change of timezone's wait is generous, so a small history is rebuilt within
// it however loaded the machine; the large history's test has a service of its own, bound 0.
const generousBound = { ANALYTICS_TIMEZONE_WAIT_MS: '60000' };

const setUp = async (_t: Test, own?: TestService) => {
  const service = own ?? (await sharedTestService({ env: generousBound }));
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

t.test('a large history: right after a new timezone the old count answers, says it is rebuilding and in which timezone its numbers are, then the new one replaces it', async (t) => {
  // A bound of 0 makes every history large; the builder held, as a busy projections process would, keeps it so.
  const service = await startTestService(t, { env: { ANALYTICS_TIMEZONE_WAIT_MS: '0' } });
  const { org, headers, daily, record } = await setUp(t, service);
  // 02:00 UTC on the 2nd is 11:00 on the 2nd in Tokyo; 20:00 UTC on the 1st is 05:00 on the 2nd there.
  await record('2026-05-01T20:00:00Z', [event('message_sent')]);
  await record('2026-05-02T02:00:00Z', [event('message_sent')]);
  await service.platform.analytics.stop();
  t.teardown(() => service.platform.analytics.start());
  const patched = await service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { reportingTimezone: 'Asia/Tokyo' } } });
  t.equal(patched.statusCode, 200);
  t.equal(patched.json().organization.reportingTimezone, 'Asia/Tokyo');

  const during = (await daily('from=2026-05-01&to=2026-05-02')).json();
  t.equal(during.rebuilding, true, 'the GET right after the PATCH says a new count is under way');
  t.equal(during.timezone, 'UTC', 'and names the timezone its numbers are in: the old one');
  t.same(during.days.map((d: { messages: number }) => d.messages), [1, 1], 'UTC days');
  t.match(during.rebuild, { timezone: 'Asia/Tokyo', reason: 'timezone', eventsRead: 0 });
  const status = await service.cli(['projections', 'status', '--json']);
  t.match(status.analyticsRebuilds.find((b: { organizationId: string }) => b.organizationId === org.organizationId), { timezone: 'Asia/Tokyo', reason: 'timezone' }, 'listed by projections status');

  service.platform.analytics.start();
  const after = await until('the count in Tokyo time', async () => (await daily('from=2026-05-01&to=2026-05-02')).json(), (a) => a.timezone === 'Asia/Tokyo');
  t.equal(after.rebuilding, false);
  t.notOk('rebuild' in after);
  t.same(after.days.map((d: { messages: number }) => d.messages), [0, 2], 'both on the 2nd in Tokyo');
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

t.test('a small history: right after a new timezone the GET answers in it, with its day boundaries; the CLI rebuilds on demand', async (t) => {
  const { service, org, headers, daily, record } = await setUp(t);
  // A builder that would not look for work again for an hour on its own: only the PATCH's wait
  // (which wakes it and waits for the swap) can have the new count answer by the next GET.
  await service.platform.analytics.stop();
  const drowsy = new AnalyticsBuilder({ store: service.platform.eventStore, db: service.platform.database.db, pollMs: 3_600_000 });
  drowsy.start();
  const wakeUp = async () => {
    await drowsy.stop();
    service.platform.analytics.start();
  };
  t.teardown(wakeUp);
  // New York is UTC-4 in May: its 2nd begins at 04:00 UTC.
  await record('2026-05-02T03:59:59Z', [event('message_sent')]);
  await record('2026-05-02T04:00:00Z', [event('message_sent'), event('purchase', { itemId: 'belt', value: 30, currency: 'CAD' })]);
  t.same((await daily('from=2026-05-01&to=2026-05-02')).json().days.map((d: { messages: number }) => d.messages), [0, 2], 'both on the 2nd in UTC');
  const patched = await service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { reportingTimezone: 'America/New_York' } } });
  t.equal(patched.statusCode, 200);
  const moved = (await daily('from=2026-05-01&to=2026-05-02')).json();
  t.equal(moved.timezone, 'America/New_York', 'the GET right after the PATCH answers in the new timezone');
  t.equal(moved.rebuilding, false, 'nothing left under way');
  t.same(
    moved.days.map((d: { date: string; messages: number; purchases: number; revenue: number }) => [d.date, d.messages, d.purchases, d.revenue]),
    [['2026-05-01', 1, 0, 0], ['2026-05-02', 1, 1, 30]],
    "a second before New York's midnight is the 1st, midnight is the 2nd",
  );

  const unchanged = await service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { reportingTimezone: 'America/New_York', name: 'Acme Outfitters' } } });
  t.equal(unchanged.statusCode, 200);
  t.same((await daily('from=2026-05-01&to=2026-05-02')).json(), moved, 'the same timezone again: the same count');

  await wakeUp();
  const rebuilt = await service.cli(['analytics', 'rebuild', '--org', org.organizationId, '--wait', '--json']);
  t.match(rebuilt, { organizationId: org.organizationId, state: 'active', timezone: 'America/New_York' });
  t.same((await daily('from=2026-05-01&to=2026-05-02')).json().days, moved.days, 'a rebuild gives the same numbers');
  await t.rejects(service.cli(['analytics', 'rebuild', '--org', randomUUID()]), /not found/);
});
