// POST /v1/events through HTTP on the real service: the session token, every field's check (an
// ISO 4217 currency, a value within the bound of one event), the counts, idempotency by client
// event id, what lands on the session's stream (each event with whether it counts), and the
// bounds. The attacks these checks stop are in abuse-shopper-events.test.ts; a session and its
// bounds across two API processes are in rate-limits-two-processes.test.ts.
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { issueSessionToken } from '../../api/auth/session-token.js';
import { EVENT_FIELD_LIMITS, SESSION_MISSING } from '../../api/routes/events.js';
import { MAX_EVENTS_PER_SESSION, sessionFull, sessionStream, SHOPPER_EVENT_TYPES } from '../../domain/session/index.js';
import { startTestService, type TestService } from '../support/service.js';

interface Shop {
  service: TestService;
  organizationId: string;
  publicKey: string;
  /** A fresh session from widget preflight. */
  session(authorization?: string): Promise<{ sessionId: string; token: string }>;
  send(token: string | undefined, payload: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  stream(sessionId: string): Promise<Array<{ type: string; data: any; metadata: any }>>;
}

// One service for the file (a service costs seconds to start); each test is a shop of its own.
let shared: TestService | undefined;

const open = async (_t: Test): Promise<Shop> => {
  const service = (shared ??= await startTestService(t));
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  return {
    service,
    organizationId: org.organizationId,
    publicKey: org.publicKey,
    async session(authorization = `Bearer ${org.publicKey}`) {
      const response = await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization } });
      if (response.statusCode !== 200) throw new Error(`preflight: ${response.statusCode} ${response.body}`);
      return response.json().session;
    },
    send: (token, payload, headers = {}) =>
      service.app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { 'x-service-session': token }), ...headers },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      }),
    stream: async (sessionId) => (await service.platform.eventStore.readStream(sessionStream(sessionId))).map(({ type, data, metadata }) => ({ type, data, metadata })),
  };
};

const view = (itemId: string, extra: Record<string, unknown> = {}) => ({ type: 'product_view', itemId, ...extra });

t.test('202 with the count; the batch lands on session-<id> as one event with both times', async (t) => {
  const shop = await open(t);
  const { sessionId, token } = await shop.session();
  const before = Date.now();
  const events = [
    { type: 'widget_open', at: '2020-01-01T00:00:00Z', data: { page: '/collections/summer' } },
    { type: 'message_sent', eventId: 'm-1' },
    view('item-1', { datasetId: 'ds-1' }),
    { type: 'product_click', itemId: 'item-1' },
    { type: 'add_to_cart', itemId: 'item-1', intent: 'intent-token', value: 49.5, currency: 'cad' },
    { type: 'cart_outcome', intent: 'intent-token', data: { outcome: 'added' } },
    { type: 'purchase', value: 120, currency: 'EUR', data: { orderId: 'o-1' } },
  ];
  const response = await shop.send(token, { events });
  t.same([response.statusCode, response.json()], [202, { accepted: 7 }]);

  const stream = await shop.stream(sessionId);
  t.equal(stream.length, 1, 'one store event per request');
  const [recorded] = stream;
  t.equal(recorded!.type, 'ShopperEventsRecorded');
  t.match(recorded!.data, { sessionId, organizationId: shop.organizationId, demo: false });
  t.ok(Date.parse(recorded!.data.receivedAt) >= before - 1000 && Date.parse(recorded!.data.receivedAt) <= Date.now(), 'receivedAt is the server clock');
  t.same(
    recorded!.data.events[0],
    { type: 'widget_open', eventId: null, at: '2020-01-01T00:00:00Z', itemId: null, datasetId: null, intent: null, value: null, currency: null, data: { page: '/collections/summer' }, unverified: null },
    "the client's at is kept as sent",
  );
  t.same(recorded!.data.events.map((e: { type: string }) => e.type), events.map((e) => e.type), 'in the order sent');
  t.same(
    recorded!.data.events.map((e: { unverified: string | null }) => e.unverified),
    [null, null, 'dataset', 'item', 'item', 'intent', null],
    'each says whether it counts: no such dataset or item in this organization, an intent the agent never made',
  );
  t.equal(recorded!.data.events[4].currency, 'CAD', 'currency upper-cased');
  t.equal(recorded!.metadata.organizationId, shop.organizationId);
  t.equal(recorded!.metadata.actor.kind, 'key', 'the key that opened the session');
});

t.test('401 for a missing, forged, expired or other-secret token, before the body is looked at', async (t) => {
  const shop = await open(t);
  const { token, sessionId } = await shop.session();
  const body = { events: [{ type: 'widget_open' }] };
  const [payload, signature] = token.split('.');
  const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), o: '00000000-0000-4000-8000-000000000000' })).toString('base64url')}.${signature}`;
  const expired = issueSessionToken(shop.service.platform.secret, { sessionId, organizationId: shop.organizationId, keyId: null, demo: false, expiresAt: new Date(Date.now() - 1) });
  const otherSecret = issueSessionToken('x'.repeat(40), { sessionId, organizationId: shop.organizationId, keyId: null, demo: false, expiresAt: new Date(Date.now() + 60_000) });
  const cases: Array<[string, string | undefined, unknown]> = [
    ['missing', undefined, body],
    ['empty', '', body],
    ['junk', 'not-a-token', body],
    ['a public key instead', shop.publicKey, body],
    ['forged organization', forged, body],
    ['expired', expired, body],
    ['signed with another secret', otherSecret, body],
    ['missing, with an invalid body too', undefined, { events: [] }],
    ['missing, with broken JSON too', undefined, '{"events":'],
  ];
  for (const [name, header, payload] of cases) {
    const response = await shop.send(header, payload);
    t.same([response.statusCode, response.json()], [401, { error: SESSION_MISSING }], name);
  }
  const bearer = await shop.service.app.inject({ method: 'POST', url: '/v1/events', headers: { authorization: `Bearer ${shop.publicKey}` }, payload: body });
  t.equal(bearer.statusCode, 401, 'a key is not a session');
  t.same(await shop.stream(sessionId), [], 'nothing recorded');
  const oldToken = issueSessionToken(shop.service.platform.secret, { sessionId, organizationId: shop.organizationId, keyId: null, demo: false, expiresAt: new Date(Date.now() + 60_000) });
  t.equal((await shop.send(oldToken, body)).statusCode, 202, 'a token without a key id (issued before keys were bound) still reads');
});

t.test('1 and 100 events are accepted; 0 and 101 are 422', async (t) => {
  const shop = await open(t);
  const { token } = await shop.session();
  t.same((await shop.send(token, { events: [{ type: 'widget_open' }] })).json(), { accepted: 1 });
  const hundred = Array.from({ length: 100 }, (_, i) => view(`item-${i}`));
  t.same((await shop.send(token, { events: hundred })).json(), { accepted: 100 });
  const tooMany = await shop.send(token, { events: [...hundred, view('one-more')] });
  t.same([tooMany.statusCode, tooMany.json()], [422, { error: 'events must have at most 100 entries.', details: [{ path: 'events', message: 'events must have at most 100 entries.' }] }]);
  const none = await shop.send(token, { events: [] });
  t.same([none.statusCode, none.json().error], [422, 'events must have at least one entry.']);
  const missing = await shop.send(token, {});
  t.same([missing.statusCode, missing.json().error], [422, 'events is required.']);
});

t.test('422 names the event index and the field', async (t) => {
  const shop = await open(t);
  const { token, sessionId } = await shop.session();
  const ok = { type: 'widget_open' };
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['unknown type', { type: 'page_view' }, 'events[1].type', `events[1].type must be one of ${SHOPPER_EVENT_TYPES.map((type) => JSON.stringify(type)).join(', ')}.`],
    ['type missing', {}, 'events[1].type', `events[1].type must be one of ${SHOPPER_EVENT_TYPES.map((type) => JSON.stringify(type)).join(', ')}.`],
    ['at not a date-time', { ...ok, at: 'yesterday' }, 'events[1].at', 'events[1].at must be an ISO 8601 date-time.'],
    ['eventId too long', { ...ok, eventId: 'e'.repeat(EVENT_FIELD_LIMITS.eventId + 1) }, 'events[1].eventId', `events[1].eventId must be at most ${EVENT_FIELD_LIMITS.eventId} characters.`],
    ['eventId empty', { ...ok, eventId: '' }, 'events[1].eventId', 'events[1].eventId must not be empty.'],
    ['eventId a number', { ...ok, eventId: 7 }, 'events[1].eventId', 'events[1].eventId must be a string.'],
    ['itemId too long', view('i'.repeat(EVENT_FIELD_LIMITS.itemId + 1)), 'events[1].itemId', `events[1].itemId must be at most ${EVENT_FIELD_LIMITS.itemId} characters.`],
    ['itemId missing on a product view', { type: 'product_view' }, 'events[1].itemId', 'events[1].itemId is required for product_view.'],
    ['itemId missing on add to cart', { type: 'add_to_cart' }, 'events[1].itemId', 'events[1].itemId is required for add_to_cart.'],
    ['intent too long', { ...ok, intent: 'x'.repeat(EVENT_FIELD_LIMITS.intent + 1) }, 'events[1].intent', `events[1].intent must be at most ${EVENT_FIELD_LIMITS.intent} characters.`],
    ['value negative', { type: 'purchase', value: -1, currency: 'CAD' }, 'events[1].value', 'events[1].value must be at least 0.'],
    ['value a string', { type: 'purchase', value: '12', currency: 'CAD' }, 'events[1].value', 'events[1].value must be a number.'],
    ['value without currency', { type: 'purchase', value: 12 }, 'events[1].currency', 'events[1].currency is required with value.'],
    ['currency not a code', { type: 'purchase', value: 12, currency: 'dollars' }, 'events[1].currency', 'events[1].currency has an invalid format.'],
    ['currency not ISO 4217', { type: 'purchase', value: 12, currency: 'xyz' }, 'events[1].currency', 'events[1].currency must be an ISO 4217 currency code.'],
    ['currency the test code', { type: 'add_to_cart', itemId: 'i', value: 12, currency: 'XTS' }, 'events[1].currency', 'events[1].currency must be an ISO 4217 currency code.'],
    ['currency without a value', { type: 'purchase', currency: 'XYZ' }, 'events[1].currency', 'events[1].currency must be an ISO 4217 currency code.'],
    ['value past the bound of one event', { type: 'purchase', value: 100_000_000.01, currency: 'CAD' }, 'events[1].value', 'events[1].value must be at most 100000000.'],
    ['data an array', { ...ok, data: [1] }, 'events[1].data', 'events[1].data must be an object.'],
    ['data too big', { ...ok, data: { text: 'x'.repeat(EVENT_FIELD_LIMITS.dataBytes) } }, 'events[1].data', `events[1].data must be at most ${EVENT_FIELD_LIMITS.dataBytes} bytes as JSON.`],
  ];
  for (const [name, event, path, message] of cases) {
    const response = await shop.send(token, { events: [ok, event] });
    t.same([response.statusCode, response.json()], [422, { error: message, details: [{ path, message }] }], name);
  }
  const two = await shop.send(token, { events: [{ type: 'nope' }, ok, { type: 'purchase', value: 'x' }] });
  t.same([two.statusCode, two.json().error, two.json().details.map((d: { path: string }) => d.path)], [422, 'Validation failed.', ['events[0].type', 'events[2].value']]);
  t.same(await shop.stream(sessionId), [], 'a refused request records nothing, not even its valid events');
  for (const event of [{ ...ok, data: { text: 'a\u0000b' } }, view('a\ud800b')]) {
    const unstorable = await shop.send(token, { events: [event] });
    t.same([unstorable.statusCode, unstorable.json()], [400, { error: 'Request body text must not contain NUL characters or unpaired surrogates.' }], 'text jsonb cannot hold: the common body check');
  }
  const notJson = await shop.send(token, '{"events":');
  t.equal(notJson.statusCode, 400, 'broken JSON with a good token');
  const extra = await shop.send(token, { events: [{ ...ok, colour: 'red' }] });
  t.equal(extra.statusCode, 202, 'unknown fields of an event are ignored');
  t.notOk('colour' in (await shop.stream(sessionId))[0]!.data.events[0], 'and not stored');
});

t.test('idempotent by client eventId, across requests and within one; accepted counts new events only', async (t) => {
  const shop = await open(t);
  const { token, sessionId } = await shop.session();
  const batch = [view('a', { eventId: 'e1' }), view('b', { eventId: 'e2' }), { type: 'widget_open' }];
  t.same((await shop.send(token, { events: batch })).json(), { accepted: 3 });
  t.same((await shop.send(token, { events: batch })).json(), { accepted: 1 }, 'a retry records only the event without an id');
  t.same((await shop.send(token, { events: [view('a', { eventId: 'e1' }), view('c', { eventId: 'e3' }), view('c2', { eventId: 'e3' })] })).json(), { accepted: 1 }, 'a repeat within the batch counts once');
  t.same((await shop.send(token, { events: [view('a', { eventId: 'e1' })] })).json(), { accepted: 0 }, 'only repeats: 202 with 0');
  const stream = await shop.stream(sessionId);
  t.equal(stream.length, 3, 'the request of repeats only appended nothing');
  t.same(stream.flatMap((event) => event.data.events.map((e: { eventId: string | null; itemId: string | null }) => e.eventId ?? e.itemId)), ['e1', 'e2', null, null, 'e3']);
  t.equal(stream[2]!.data.events[0].itemId, 'c', 'the first of a repeated id wins');

  const other = await shop.session();
  t.same((await shop.send(other.token, { events: batch })).json(), { accepted: 3 }, 'ids are per session');

  // Concurrent repeats race for the stream: one append wins, the others re-read it and drop the id.
  const again = await Promise.all(Array.from({ length: 8 }, () => shop.send(token, { events: [view('z', { eventId: 'race' })] })));
  t.same(again.map((r) => r.json().accepted).sort(), [0, 0, 0, 0, 0, 0, 0, 1], 'concurrent repeats: exactly one recorded');
});

t.test('a session holds at most 1,000 events: 409 past it, repeats still answer', async (t) => {
  const shop = await open(t);
  const { token, sessionId } = await shop.session();
  for (let i = 0; i < MAX_EVENTS_PER_SESSION / 100; i++) {
    const response = await shop.send(token, { events: Array.from({ length: 100 }, (_, j) => view(`i${i * 100 + j}`, { eventId: `e${i * 100 + j}` })) });
    t.equal(response.statusCode, 202);
  }
  const full = await shop.send(token, { events: [{ type: 'purchase' }] });
  t.same([full.statusCode, full.json()], [409, { error: sessionFull() }]);
  t.same((await shop.send(token, { events: [view('i0', { eventId: 'e0' })] })).json(), { accepted: 0 }, 'a retry of recorded events is still a 202');
  t.equal((await shop.stream(sessionId)).length, 10);
});

t.test('per-minute bounds per session and per client address (EVENTS_SESSION_RPM, EVENTS_ADDRESS_RPM): 429 with retryAfter', async (t) => {
  // Small bounds, and a clock the test moves: a window cannot end while the test fills it.
  const clock = { now: new Date() };
  const service = await startTestService(t, { env: { EVENTS_SESSION_RPM: '12', EVENTS_ADDRESS_RPM: '30' }, now: () => clock.now });
  const org = await service.cli(['org', 'create', '--name', 'Bounded Apparel', '--json']);
  const session = async () => (await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${org.publicKey}` } })).json().session as { token: string };
  const send = (token: string, remoteAddress: string) =>
    service.app.inject({ method: 'POST', url: '/v1/events', remoteAddress, headers: { 'x-service-session': token }, payload: { events: [{ type: 'widget_open' }] } });
  const { token } = await session();
  for (let i = 0; i < 12; i++) if ((await send(token, `198.51.100.${i}`)).statusCode !== 202) t.fail(`request ${i}`);
  const limited = await send(token, '198.51.100.200');
  t.same([limited.statusCode, limited.json().error], [429, 'Too many event requests for this session (12 per minute).']);
  t.match(limited.json(), { bucket: 'api.v1.events.session', resource: 'api.v1.events.session', used: 12, limit: 12, windowSeconds: 60 }, 'the shape of every per-minute bound outside the plan');
  t.ok(limited.json().retryAfter >= 1 && limited.json().retryAfter <= 60);
  t.equal(limited.headers['retry-after'], String(limited.json().retryAfter));

  const sessions = await Promise.all(Array.from({ length: 3 }, () => session()));
  for (let sent = 0; sent < 30; sent++) if ((await send(sessions[sent % 3]!.token, '203.0.113.9')).statusCode !== 202) t.fail(`address request ${sent}`);
  const flooded = await send(sessions[0]!.token, '203.0.113.9');
  t.same([flooded.statusCode, flooded.json().error, flooded.json().bucket], [429, 'Too many event requests from this address (30 per minute).', 'api.v1.events.address']);
  t.equal((await send(sessions[0]!.token, '203.0.113.10')).statusCode, 202, 'another address is not held back');

  clock.now = new Date(clock.now.getTime() + 60_000);
  t.equal((await send(token, '198.51.100.200')).statusCode, 202, 'a minute later the session starts a new window');
  t.equal((await send(sessions[0]!.token, '203.0.113.9')).statusCode, 202, 'and so does the address');
});

t.test('no key, no metering: no rate-limit headers, the demo session records for the demo organization', async (t) => {
  const shop = await open(t);
  const { token, sessionId } = await shop.session('Bearer sgpt-pk-demo');
  const response = await shop.send(token, { events: [{ type: 'widget_open' }] });
  t.equal(response.statusCode, 202);
  t.same(Object.keys(response.headers).filter((h) => h.startsWith('x-ratelimit')), []);
  const [recorded] = await shop.stream(sessionId);
  t.match(recorded!.data, { demo: true });
  t.same(recorded!.metadata.actor, { kind: 'key', id: 'demo' });
});

t.test('CORS: any origin may send events with the session header, asked before any token', async (t) => {
  const shop = await open(t);
  const asked = await shop.service.app.inject({
    method: 'OPTIONS',
    url: '/v1/events',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-service-session' },
  });
  t.equal(asked.statusCode, 204);
  t.equal(asked.headers['access-control-allow-origin'], 'https://shop.example');
  t.match(asked.headers['access-control-allow-methods'], /POST/);
  t.match(asked.headers['access-control-allow-headers'], /X-Service-Session/);
  const { token } = await shop.session();
  const sent = await shop.send(token, { events: [{ type: 'widget_open' }] }, { origin: 'https://shop.example' });
  t.same([sent.statusCode, sent.headers['access-control-allow-origin']], [202, 'https://shop.example']);
  const refused = await shop.send(undefined, { events: [{ type: 'widget_open' }] }, { origin: 'https://shop.example' });
  t.same([refused.statusCode, refused.headers['access-control-allow-origin']], [401, 'https://shop.example'], 'the page can read why');
});

t.test('property: random event bodies with a live session never fail the server', async (t) => {
  const shop = await open(t);
  const sessions = await Promise.all(Array.from({ length: 4 }, () => shop.session()));
  const junk = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant('a\u0000b'), fc.constant('\ud800'), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }));
  const field = <T>(good: fc.Arbitrary<T>) => fc.option(fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: junk }), { nil: undefined });
  const event = fc.record(
    {
      type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SHOPPER_EVENT_TYPES) }, { weight: 1, arbitrary: junk }),
      eventId: field(fc.stringMatching(/^[a-z0-9]{1,3}$/)),
      at: field(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())),
      itemId: field(fc.string({ minLength: 1, maxLength: 20 })),
      datasetId: field(fc.uuid()),
      intent: field(fc.string({ maxLength: 40 })),
      value: field(fc.oneof(fc.double({ min: -10, max: 2e9, noNaN: true }), fc.constantFrom(100_000_000, 100_000_000.01, 1e9, 5e-324))),
      currency: field(fc.constantFrom('CAD', 'usd', 'EURO', '', 'XYZ', 'xts', 'XXX')),
      data: field(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { weight: 8, arbitrary: fc.record({ events: fc.array(event, { minLength: 0, maxLength: 12 }) }) },
    { weight: 1, arbitrary: fc.record({ events: junk }) },
    { weight: 1, arbitrary: junk },
  );
  await fc.assert(
    fc.asyncProperty(body, fc.constantFrom(...sessions), async (payload, session) => {
      const response = await shop.send(session.token, payload);
      if (response.statusCode >= 500) return false;
      if (response.statusCode === 202) return Number.isInteger(response.json().accepted);
      return typeof response.json().error === 'string';
    }),
    { numRuns: 300 },
  );
  t.pass('300 random bodies, none a 5xx');
});
