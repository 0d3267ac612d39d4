// Metering through HTTP: the real app and the real counters, with a stand-in for authentication
// that sets `request.caller` the way the authentication plugin does (in onRequest).
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildApi } from '../../api/app.js';
import type { Caller } from '../../api/caller.js';
import { createLogger } from '../../api/logging.js';
import { HttpError } from '../../api/plugins/errors.js';
import { meteringHeaders, registerMetering } from '../../api/plugins/metering.js';
import { NotFound } from '../../domain/errors.js';
import type { Plan } from '../../domain/plan.js';
import { postgresUsageStore } from '../../infra/metering/usage-store.js';
import { migrate } from '../../projections/migrations.js';
import { openTestDatabase } from '../support/database.js';

const ORG = '0b6f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const DEMO_ORG = '0b6f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5c';

const plan: Plan = {
  name: 'test',
  // No defaults: a resource without an entry has no entitlement.
  defaults: null,
  entries: {
    'api.v1.search.query': { kind: 'metered', quota: 3, rpm: 100 },
    'api.v1.chat.message': { kind: 'metered', quota: 100, rpm: 2 },
    'api.v1.datasets.list': { kind: 'metered', quota: 10, rpm: null },
    'api.v1.datasets.create': { kind: 'metered', quota: 10, rpm: 5 },
    'api.v2.agent.chat': { kind: 'metered', quota: 10, rpm: 5 },
    'api.v1.styling.get': { kind: 'metered', quota: 'unlimited', rpm: null },
    'api.v1.widget.presets.list': { kind: 'metered', quota: 'unlimited', rpm: 1 },
    'api.v1.organization.update': { kind: 'off' },
  },
};

const callerFor = (overrides: Partial<Caller> = {}): Caller => ({
  organizationId: ORG,
  keyId: 'key-1',
  demo: false,
  plan,
  // A start on the 31st: February's period ends on the 28th.
  subscriptionStartedAt: '2026-01-31T10:00:00.000Z',
  rateSubject: ORG,
  actor: { kind: 'key', id: 'key-1' },
  ...overrides,
});

const quietLogger = () =>
  createLogger({
    level: 'fatal',
    destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });

interface Harness {
  app: FastifyInstance;
  clock: { now: Date };
  /** The caller the stand-in authentication sets; tests swap it. */
  as: { caller: Caller };
  used(resource: string, periodStart?: string, subject?: string): Promise<number>;
}

const build = async (t: Test): Promise<Harness> => {
  const database = await openTestDatabase(t);
  await migrate(database.db);
  const clock = { now: new Date('2026-02-10T00:00:00.000Z') };
  const as = { caller: callerFor() };
  const app = await buildApi({
    logger: quietLogger(),
    readiness: {},
    routes: [
      (app) => {
        app.addHook('onRequest', async (request, reply) => {
          const config = request.routeOptions.config;
          if (!config.auth) return;
          if (request.headers.authorization === undefined) {
            // As the authentication plugin does: a rejection names the resource and nothing else.
            if (config.resource) reply.header('X-RateLimit-Resource', config.resource);
            throw new HttpError(401, 'API key missing.');
          }
          request.caller = as.caller;
        });
        registerMetering(app, { usage: postgresUsageStore(database.db), now: () => clock.now });
        const metered = (resource: string) => ({ config: { auth: 'public' as const, resource } });
        app.post('/v1/search', metered('api.v1.search.query'), async () => ({ results: [] }));
        app.post('/v1/chat', metered('api.v1.chat.message'), async () => ({ reply: 'hello' }));
        app.get('/v1/datasets', metered('api.v1.datasets.list'), async () => ({ datasets: [] }));
        app.get('/v1/styling', metered('api.v1.styling.get'), async () => ({ styling: {} }));
        app.get('/v1/widget/presets', metered('api.v1.widget.presets.list'), async () => ({ presets: [] }));
        app.patch('/v1/organization', metered('api.v1.organization.update'), async () => ({ ok: true }));
        app.get('/v1/unlisted', metered('api.v1.unlisted'), async () => ({ ok: true }));
        app.get('/v1/datasets/:datasetId', metered('api.v1.datasets.list'), async () => {
          throw new NotFound('Dataset not found.');
        });
        app.get('/v1/datasets/boom', metered('api.v1.datasets.list'), async () => {
          throw new Error('connection terminated unexpectedly');
        });
        app.get('/v1/datasets/unavailable', metered('api.v1.datasets.list'), async (_request, reply) =>
          reply.code(503).send({ error: 'Service unavailable.' }),
        );
        // A schema failure comes after metering: it passed authentication and entitlement.
        app.post(
          '/v1/datasets',
          {
            ...metered('api.v1.datasets.create'),
            schema: { body: { type: 'object' } },
            validatorCompiler: () => (body) =>
              (body as Record<string, unknown>).name ? { value: body } : { error: new HttpError(422, 'name is required.') },
          },
          async () => ({ created: true }),
        );
        // Bounds outside the plan: no key, counted per address and per visitor (when one is named).
        app.get(
          '/v1/bounded',
          {
            config: {
              minuteLimits: [
                { bucket: 'test.address', perMinute: 3, subject: (request) => `ip:${request.ip}`, message: 'Too many from this address.' },
                {
                  bucket: 'test.visitor',
                  perMinute: 2,
                  subject: (request) => (typeof request.headers['x-visitor'] === 'string' ? `visitor:${request.headers['x-visitor']}` : null),
                  message: 'Too many for this visitor.',
                  retryAfterHeader: false,
                },
              ],
            },
          },
          async () => ({ ok: true }),
        );
        // An SSE route writes its own head, so it asks for the headers.
        app.post('/v2/agent/chat', metered('api.v2.agent.chat'), async (request, reply) => {
          reply.hijack();
          reply.raw.writeHead(200, { ...meteringHeaders(request), 'content-type': 'text/event-stream' });
          reply.raw.end('event: done\ndata: {}\n\n');
        });
      },
    ],
  });
  t.teardown(() => app.close());
  const used = async (resource: string, periodStart = '2026-01-31T10:00:00.000Z', subject = ORG) => {
    const row = await database.db
      .selectFrom('quota_usage')
      .select('used')
      .where('subject', '=', subject)
      .where('resource', '=', resource)
      .where('period_start', '=', new Date(periodStart))
      .executeTakeFirst();
    return (row?.used as number | undefined) ?? 0;
  };
  return { app, clock, as, used };
};

const AUTH = { authorization: 'Bearer sgpt-pk-test-key' };

/** The rate-limit headers of a response, under their lower-case names. */
const limitHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('x-ratelimit-') || name === 'retry-after'));

const seconds = (iso: string) => String(new Date(iso).getTime() / 1000);
const rpmReset = (now: Date) => String(Math.ceil(now.getTime() / 1000) + 60);
const FEB_END = '2026-02-28T10:00:00.000Z';

t.test('no entitlement: 403 naming the resource, only the resource header, nothing counted', async (t) => {
  const { app, used } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/unlisted', headers: AUTH });
  t.equal(response.statusCode, 403);
  t.same(response.json(), { error: 'No entitlement for "api.v1.unlisted".' });
  t.same(limitHeaders(response.headers), { 'x-ratelimit-resource': 'api.v1.unlisted' });
  t.equal(await used('api.v1.unlisted'), 0);
});

t.test('an entry turned off: 403 Access denied, only the resource header, nothing counted', async (t) => {
  const { app, used } = await build(t);
  const response = await app.inject({ method: 'PATCH', url: '/v1/organization', headers: AUTH, payload: { name: 'Acme' } });
  t.equal(response.statusCode, 403);
  t.same(response.json(), { error: 'Access denied to "api.v1.organization.update".' });
  t.same(limitHeaders(response.headers), { 'x-ratelimit-resource': 'api.v1.organization.update' });
  t.equal(await used('api.v1.organization.update'), 0);
});

t.test('quota: each request uses a unit; when used up, 429 with Retry-After until the period resets', async (t) => {
  const { app, clock } = await build(t);
  for (const remaining of ['2', '1', '0']) {
    const response = await app.inject({ method: 'POST', url: '/v1/search', headers: AUTH, payload: { query: 'linen shirt' } });
    t.equal(response.statusCode, 200);
    t.same(limitHeaders(response.headers), {
      'x-ratelimit-resource': 'api.v1.search.query',
      'x-ratelimit-quota-limit': '3',
      'x-ratelimit-quota-remaining': remaining,
      'x-ratelimit-quota-reset': seconds(FEB_END),
      'x-ratelimit-rpm-limit': '100',
      'x-ratelimit-rpm-remaining': String(100 - (3 - Number(remaining))),
      'x-ratelimit-rpm-reset': rpmReset(clock.now),
    });
  }
  const refused = await app.inject({ method: 'POST', url: '/v1/search', headers: AUTH, payload: { query: 'linen shirt' } });
  t.equal(refused.statusCode, 429);
  t.same(refused.json(), { error: 'Monthly quota exceeded for "api.v1.search.query" (3/3 used).' });
  // Feb 10 00:00 to Feb 28 10:00: 18 days and 10 hours.
  t.same(limitHeaders(refused.headers), {
    'x-ratelimit-resource': 'api.v1.search.query',
    'x-ratelimit-quota-limit': '3',
    'x-ratelimit-quota-remaining': '0',
    'x-ratelimit-quota-reset': seconds(FEB_END),
    'retry-after': String(18 * 86_400 + 10 * 3_600),
  });
});

t.test('RPM: the request over the limit gets 429 with Retry-After 60 and still uses its quota unit', async (t) => {
  const { app, clock, used } = await build(t);
  const chat = () => app.inject({ method: 'POST', url: '/v1/chat', headers: AUTH, payload: { message: 'hi' } });
  t.equal((await chat()).headers['x-ratelimit-rpm-remaining'], '1');
  t.equal((await chat()).headers['x-ratelimit-rpm-remaining'], '0');
  const refused = await chat();
  t.equal(refused.statusCode, 429);
  t.same(refused.json(), { error: 'RPM limit exceeded for "api.v1.chat.message" (2/2 used).' });
  t.same(limitHeaders(refused.headers), {
    'x-ratelimit-resource': 'api.v1.chat.message',
    'x-ratelimit-quota-limit': '100',
    'x-ratelimit-quota-remaining': '97',
    'x-ratelimit-quota-reset': seconds(FEB_END),
    'x-ratelimit-rpm-limit': '2',
    'x-ratelimit-rpm-remaining': '0',
    'x-ratelimit-rpm-reset': rpmReset(clock.now),
    'retry-after': '60',
  });
  t.equal(await used('api.v1.chat.message'), 3);

  // 59.999 s into the window it is still full; at 60 s the next request opens a new one.
  clock.now = new Date(clock.now.getTime() + 59_999);
  t.equal((await chat()).statusCode, 429);
  clock.now = new Date(clock.now.getTime() + 1);
  const next = await chat();
  t.equal(next.statusCode, 200);
  t.equal(next.headers['x-ratelimit-rpm-remaining'], '1');
  t.equal(next.headers['x-ratelimit-quota-remaining'], '95');
  t.equal(next.headers['x-ratelimit-rpm-reset'], rpmReset(clock.now));
});

t.test('unlimited: quota headers read unlimited, no reset, nothing counted; RPM headers only with an RPM', async (t) => {
  const { app, clock, used } = await build(t);
  const styling = await app.inject({ method: 'GET', url: '/v1/styling', headers: AUTH });
  t.equal(styling.statusCode, 200);
  t.same(limitHeaders(styling.headers), {
    'x-ratelimit-resource': 'api.v1.styling.get',
    'x-ratelimit-quota-limit': 'unlimited',
    'x-ratelimit-quota-remaining': 'unlimited',
  });
  t.equal(await used('api.v1.styling.get'), 0);

  const presets = await app.inject({ method: 'GET', url: '/v1/widget/presets', headers: AUTH });
  t.same(limitHeaders(presets.headers), {
    'x-ratelimit-resource': 'api.v1.widget.presets.list',
    'x-ratelimit-quota-limit': 'unlimited',
    'x-ratelimit-quota-remaining': 'unlimited',
    'x-ratelimit-rpm-limit': '1',
    'x-ratelimit-rpm-remaining': '0',
    'x-ratelimit-rpm-reset': rpmReset(clock.now),
  });
  const refused = await app.inject({ method: 'GET', url: '/v1/widget/presets', headers: AUTH });
  t.equal(refused.statusCode, 429);
  t.same(refused.json(), { error: 'RPM limit exceeded for "api.v1.widget.presets.list" (1/1 used).' });
  t.equal(refused.headers['retry-after'], '60');
  t.equal(refused.headers['x-ratelimit-quota-remaining'], 'unlimited');
});

t.test('an entry without an RPM gets quota headers and no RPM headers', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/datasets', headers: AUTH });
  t.equal(response.statusCode, 200);
  t.same(limitHeaders(response.headers), {
    'x-ratelimit-resource': 'api.v1.datasets.list',
    'x-ratelimit-quota-limit': '10',
    'x-ratelimit-quota-remaining': '9',
    'x-ratelimit-quota-reset': seconds(FEB_END),
  });
});

t.test('a 5xx refunds its unit exactly once and says so in its headers; a 4xx from the endpoint keeps it', async (t) => {
  const { app, used } = await build(t);
  await app.inject({ method: 'GET', url: '/v1/datasets', headers: AUTH });
  t.equal(await used('api.v1.datasets.list'), 1);

  const failed = await app.inject({ method: 'GET', url: '/v1/datasets/boom', headers: AUTH });
  t.equal(failed.statusCode, 500);
  t.same(failed.json(), { error: 'Internal server error.' });
  t.same(limitHeaders(failed.headers), {
    'x-ratelimit-resource': 'api.v1.datasets.list',
    'x-ratelimit-quota-limit': '10',
    'x-ratelimit-quota-remaining': '9',
    'x-ratelimit-quota-reset': seconds(FEB_END),
  });
  t.equal(await used('api.v1.datasets.list'), 1, 'the thrown 500 gave its unit back');

  const unavailable = await app.inject({ method: 'GET', url: '/v1/datasets/unavailable', headers: AUTH });
  t.equal(unavailable.statusCode, 503);
  t.equal(unavailable.headers['x-ratelimit-quota-remaining'], '9');
  t.equal(await used('api.v1.datasets.list'), 1, 'a 5xx the handler sent itself too');

  const missing = await app.inject({ method: 'GET', url: `/v1/datasets/${ORG}`, headers: AUTH });
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { error: 'Dataset not found.' });
  t.equal(missing.headers['x-ratelimit-quota-remaining'], '8');
  t.equal(await used('api.v1.datasets.list'), 2, 'a 4xx is not refunded');
});

t.test('common body errors carry no rate-limit headers and use nothing; a schema 422 is metered', async (t) => {
  const { app, used } = await build(t);
  const invalid = await app.inject({ method: 'POST', url: '/v1/datasets', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":' });
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json(), { error: 'Request body must be valid JSON.' });
  t.same(limitHeaders(invalid.headers), {});

  for (const payload of ['', '[]', '42']) {
    const notObject = await app.inject({ method: 'POST', url: '/v1/datasets', headers: { ...AUTH, 'content-type': 'application/json' }, payload });
    t.equal(notObject.statusCode, 400);
    t.same(notObject.json(), { error: 'Request body must be a JSON object.' });
    t.same(limitHeaders(notObject.headers), {}, `no headers for ${JSON.stringify(payload)}`);
  }
  t.equal(await used('api.v1.datasets.create'), 0);

  const unnamed = await app.inject({ method: 'POST', url: '/v1/datasets', headers: AUTH, payload: {} });
  t.equal(unnamed.statusCode, 422);
  t.same(unnamed.json(), { error: 'name is required.' });
  t.equal(unnamed.headers['x-ratelimit-quota-remaining'], '9');
  t.equal(unnamed.headers['x-ratelimit-rpm-remaining'], '4');

  const created = await app.inject({ method: 'POST', url: '/v1/datasets', headers: AUTH, payload: { name: 'Summer' } });
  t.equal(created.statusCode, 200);
  t.equal(created.headers['x-ratelimit-quota-remaining'], '8');
  t.equal(await used('api.v1.datasets.create'), 2);
});

t.test('an authentication rejection carries only the resource header and uses nothing', async (t) => {
  const { app, used } = await build(t);
  const response = await app.inject({ method: 'POST', url: '/v1/search', payload: { query: 'x' } });
  t.equal(response.statusCode, 401);
  t.same(limitHeaders(response.headers), { 'x-ratelimit-resource': 'api.v1.search.query' });
  t.equal(await used('api.v1.search.query'), 0);
});

t.test('a moving clock: the next billing period starts with its whole quota', async (t) => {
  const { app, clock, used } = await build(t);
  for (let i = 0; i < 3; i += 1) await app.inject({ method: 'POST', url: '/v1/search', headers: AUTH, payload: { query: 'x' } });
  clock.now = new Date('2026-02-28T09:59:59.000Z');
  const last = await app.inject({ method: 'POST', url: '/v1/search', headers: AUTH, payload: { query: 'x' } });
  t.equal(last.statusCode, 429);
  t.equal(last.headers['retry-after'], '1');

  clock.now = new Date(FEB_END);
  const renewed = await app.inject({ method: 'POST', url: '/v1/search', headers: AUTH, payload: { query: 'x' } });
  t.equal(renewed.statusCode, 200);
  t.equal(renewed.headers['x-ratelimit-quota-remaining'], '2');
  // The anchor day comes back: the March period runs to the 31st.
  t.equal(renewed.headers['x-ratelimit-quota-reset'], seconds('2026-03-31T10:00:00.000Z'));
  t.equal(await used('api.v1.search.query', FEB_END), 1);
  t.equal(await used('api.v1.search.query'), 3, 'the old period keeps its count');
});

t.test('demo callers share the demo organization quota but each IP has its own RPM window', async (t) => {
  const { app, as, used } = await build(t);
  const demo = (ip: string) =>
    callerFor({ organizationId: DEMO_ORG, keyId: null, demo: true, rateSubject: `ip:${ip}`, actor: { kind: 'system', id: 'demo' } });
  const chat = () => app.inject({ method: 'POST', url: '/v1/chat', headers: AUTH, payload: { message: 'hi' } });
  as.caller = demo('203.0.113.1');
  await chat();
  await chat();
  t.equal((await chat()).statusCode, 429, 'the first address used its two a minute');
  as.caller = demo('203.0.113.2');
  const other = await chat();
  t.equal(other.statusCode, 200, 'another address has its own window');
  t.equal(other.headers['x-ratelimit-rpm-remaining'], '1');
  t.equal(other.headers['x-ratelimit-quota-remaining'], '96', 'but the same quota');
  t.equal(await used('api.v1.chat.message', undefined, DEMO_ORG), 4);
  t.equal(await used('api.v1.chat.message'), 0, 'nothing on the caller organization of other tests');
});

t.test('a route writing its own head (SSE) takes the headers from meteringHeaders', async (t) => {
  const { app, clock } = await build(t);
  const response = await app.inject({ method: 'POST', url: '/v2/agent/chat', headers: AUTH, payload: { messages: [] } });
  t.equal(response.statusCode, 200);
  t.equal(response.headers['content-type'], 'text/event-stream');
  t.same(limitHeaders(response.headers), {
    'x-ratelimit-resource': 'api.v2.agent.chat',
    'x-ratelimit-quota-limit': '10',
    'x-ratelimit-quota-remaining': '9',
    'x-ratelimit-quota-reset': seconds(FEB_END),
    'x-ratelimit-rpm-limit': '5',
    'x-ratelimit-rpm-remaining': '4',
    'x-ratelimit-rpm-reset': rpmReset(clock.now),
  });
});

t.test('minute limits declared by a route: counted per subject, the first bound listed answers, one 429 shape', async (t) => {
  const { app, clock } = await build(t);
  const bounded = (remoteAddress: string, visitor?: string) =>
    app.inject({ url: '/v1/bounded', remoteAddress, headers: visitor ? { 'x-visitor': visitor } : {} });
  t.equal((await bounded('198.51.100.1', 'ann')).statusCode, 200);
  t.equal((await bounded('198.51.100.2', 'ann')).statusCode, 200);
  const visitor = await bounded('198.51.100.3', 'ann');
  t.same([visitor.statusCode, visitor.json()], [429, { error: 'Too many for this visitor.', bucket: 'test.visitor', resource: 'test.visitor', used: 2, limit: 2, retryAfter: 60, windowSeconds: 60 }]);
  t.same(limitHeaders(visitor.headers), {}, 'no Retry-After where the bound says so, and no plan headers');

  t.equal((await bounded('203.0.113.9')).statusCode, 200, 'a request naming no visitor is counted per address only');
  t.equal((await bounded('203.0.113.9')).statusCode, 200);
  t.equal((await bounded('203.0.113.9')).statusCode, 200);
  clock.now = new Date(clock.now.getTime() + 20_000);
  const address = await bounded('203.0.113.9', 'ann');
  t.same([address.statusCode, address.json()], [429, { error: 'Too many from this address.', bucket: 'test.address', resource: 'test.address', used: 3, limit: 3, retryAfter: 40, windowSeconds: 60 }], 'over both: the bound listed first answers, with the seconds left in its window');
  t.same(limitHeaders(address.headers), { 'retry-after': '40' });

  clock.now = new Date(clock.now.getTime() + 40_000);
  t.equal((await bounded('203.0.113.9', 'ann')).statusCode, 200, 'a minute after each window opened, both start again');
});
