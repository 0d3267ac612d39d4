import t, { type Test } from 'tap';
import { z } from 'zod';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { parseOrThrow, zodRoutes } from '../../api/plugins/validation.js';

const hex = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})([0-9a-f]{2})?$/i, `${field} must be a hex colour such as #1a2b3c.`);

// The shape of POST /v1/widget/presets (document 2), trimmed to a few fields.
const presetBody = z.object({
  name: z.string({ error: 'name is required.' }).max(100, 'name can be at most 100 characters.'),
  buttonLabel: z.string({ error: 'buttonLabel is required.' }).max(40, 'buttonLabel can be at most 40 characters.'),
  buttonColor: hex('buttonColor'),
  roundness: z.number().int().min(0).max(100).default(100),
});

const build = async (t: Test) => {
  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    routes: [
      (app) => {
        const routes = zodRoutes(app);
        routes.post('/v1/presets', { schema: { body: presetBody } }, async (request, reply) => reply.code(201).send({ preset: request.body }));
        routes.get(
          '/v1/things/:thingId',
          {
            schema: {
              params: z.object({ thingId: z.uuid({ error: 'A valid thingId must be provided.' }) }),
              querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), page: z.coerce.number().int().min(1).optional() }),
            },
          },
          async (request) => ({ thingId: request.params.thingId, limit: request.query.limit }),
        );
        routes.post('/v1/nested', { schema: { body: z.object({ items: z.array(z.object({ sku: z.string() })).min(1) }) } }, async (request) => request.body);
        routes.post('/v1/by-hand', async (request) => parseOrThrow(z.object({ count: z.number().int() }), request.body));
      },
    ],
  });
  t.teardown(() => app.close());
  return app;
};

const post = (url: string, body: unknown) => ({ method: 'POST' as const, url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

const good = { name: 'Summer', buttonLabel: 'Ask a stylist', buttonColor: '#1a2b3c' };

t.test('a valid body reaches the handler parsed, defaults filled', async (t) => {
  const app = await build(t);
  const response = await app.inject(post('/v1/presets', good));
  t.equal(response.statusCode, 201);
  t.same(response.json(), { preset: { ...good, roundness: 100 } });
});

t.test("one wrong field: 422 with that field's own message", async (t) => {
  const app = await build(t);
  const missing = await app.inject(post('/v1/presets', { buttonLabel: 'Ask', buttonColor: '#fff' }));
  t.equal(missing.statusCode, 422);
  t.same(missing.json(), { error: 'name is required.', details: [{ path: 'name', message: 'name is required.' }] });

  const badColour = await app.inject(post('/v1/presets', { ...good, buttonColor: 'blue' }));
  t.equal(badColour.statusCode, 422);
  t.equal(badColour.json().error, 'buttonColor must be a hex colour such as #1a2b3c.');

  const wrongType = await app.inject(post('/v1/presets', { ...good, buttonColor: 12 }));
  t.equal(wrongType.json().error, 'buttonColor must be a string.');

  const tooLong = await app.inject(post('/v1/presets', { ...good, name: 'x'.repeat(101) }));
  t.equal(tooLong.json().error, 'name can be at most 100 characters.');
});

t.test('a check without a message of its own still names the field in plain words', async (t) => {
  const app = await build(t);
  const cases: Array<[unknown, string]> = [
    [{ ...good, roundness: 101 }, 'roundness must be at most 100.'],
    [{ ...good, roundness: -1 }, 'roundness must be at least 0.'],
    [{ ...good, roundness: 2.5 }, 'roundness must be an integer.'],
    [{ ...good, roundness: 'round' }, 'roundness must be a number.'],
  ];
  for (const [body, message] of cases) {
    const response = await app.inject(post('/v1/presets', body));
    t.equal(response.statusCode, 422);
    t.equal(response.json().error, message);
  }
  const nested = await app.inject(post('/v1/nested', { items: [{ sku: 'a' }, {}] }));
  t.same(nested.json(), { error: 'items[1].sku is required.', details: [{ path: 'items[1].sku', message: 'items[1].sku is required.' }] });
  const empty = await app.inject(post('/v1/nested', { items: [] }));
  t.equal(empty.json().error, 'items must have at least one entry.');
});

t.test('several wrong fields: 422 Validation failed. with details, one per field, in order', async (t) => {
  const app = await build(t);
  const response = await app.inject(post('/v1/presets', { buttonLabel: 'x'.repeat(41), buttonColor: 'nope', roundness: 500 }));
  t.equal(response.statusCode, 422);
  t.same(response.json(), {
    error: 'Validation failed.',
    details: [
      { path: 'name', message: 'name is required.' },
      { path: 'buttonLabel', message: 'buttonLabel can be at most 40 characters.' },
      { path: 'buttonColor', message: 'buttonColor must be a hex colour such as #1a2b3c.' },
      { path: 'roundness', message: 'roundness must be at most 100.' },
    ],
  });
});

t.test('the common body errors (400) come before any field check', async (t) => {
  const app = await build(t);
  const invalid = await app.inject({ method: 'POST', url: '/v1/presets', payload: '{"name": ', headers: { 'content-type': 'application/json' } });
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json(), { error: 'Request body must be valid JSON.' });
  for (const payload of ['', '[]', '"text"', 'null']) {
    const response = await app.inject({ method: 'POST', url: '/v1/presets', payload, headers: { 'content-type': 'application/json' } });
    t.equal(response.statusCode, 400, JSON.stringify(payload));
    t.same(response.json(), { error: 'Request body must be a JSON object.' });
  }
  const empty = await app.inject(post('/v1/presets', {}));
  t.equal(empty.statusCode, 422, 'an empty object is a body: its fields are checked');
  t.equal(empty.json().error, 'Validation failed.');
  t.equal(empty.json().details.length, 3);
});

t.test('path parameters and the query string are validated too', async (t) => {
  const app = await build(t);
  const thingId = '9b2f3c3e-3a57-4d4c-9d38-0d9a5f1f2e11';
  const ok = await app.inject({ method: 'GET', url: `/v1/things/${thingId}?limit=5` });
  t.equal(ok.statusCode, 200);
  t.same(ok.json(), { thingId, limit: 5 }, 'the query is coerced to the schema');
  const defaults = await app.inject({ method: 'GET', url: `/v1/things/${thingId}` });
  t.same(defaults.json(), { thingId, limit: 20 });

  const badParam = await app.inject({ method: 'GET', url: '/v1/things/not-a-uuid' });
  t.equal(badParam.statusCode, 422);
  t.same(badParam.json(), { error: 'A valid thingId must be provided.', details: [{ path: 'thingId', message: 'A valid thingId must be provided.' }] });

  const badQuery = await app.inject({ method: 'GET', url: `/v1/things/${thingId}?limit=1000` });
  t.equal(badQuery.statusCode, 422);
  t.equal(badQuery.json().error, 'limit must be at most 100.');

  const twoInQuery = await app.inject({ method: 'GET', url: `/v1/things/${thingId}?limit=abc&page=0` });
  t.same(twoInQuery.json(), {
    error: 'Validation failed.',
    details: [
      { path: 'limit', message: 'limit must be a number.' },
      { path: 'page', message: 'page must be at least 1.' },
    ],
  });
});

t.test('a handler checking a value itself gets the same errors', async (t) => {
  const app = await build(t);
  const response = await app.inject(post('/v1/by-hand', { count: 'many' }));
  t.equal(response.statusCode, 422);
  t.same(response.json(), { error: 'count must be a number.', details: [{ path: 'count', message: 'count must be a number.' }] });
  t.same((await app.inject(post('/v1/by-hand', { count: 3 }))).json(), { count: 3 });
});

t.test('a route whose schema is not zod is refused at start-up, not at the first request', async (t) => {
  await t.rejects(
    buildApi({
      logger: createLogger({ level: 'silent' }),
      readiness: {},
      routes: [(app) => void app.post('/v1/json-schema', { schema: { body: { type: 'object' } } }, async () => ({}))],
    }),
    /must be a zod schema/,
  );
});
