import t, { type Test } from 'tap';
import { z } from 'zod';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { zodRoutes } from '../../api/plugins/validation.js';

const preset = z.object({ presetId: z.uuid(), name: z.string() });

const build = async (t: Test) => {
  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    routes: [
      (app) => {
        const routes = zodRoutes(app);
        routes.post(
          '/v1/widget/presets',
          {
            config: { auth: 'private', resource: 'api.v1.widget.presets.create', scope: 'widget' },
            schema: {
              summary: 'Create a widget preset',
              body: z.object({ name: z.string().max(100).describe('Shown to merchants'), roundness: z.number().int().min(0).max(100).default(100) }),
              response: { 201: z.object({ preset }) },
            },
          },
          async (_request, reply) => reply.code(201).send({ preset: { presetId: '9b2f3c3e-3a57-4d4c-9d38-0d9a5f1f2e11', name: 'x' } }),
        );
        routes.get(
          '/v1/search/things',
          { config: { auth: 'public', resource: 'api.v1.search.things' }, schema: { querystring: z.object({ q: z.string().min(1) }) } },
          async () => ({}),
        );
      },
    ],
  });
  t.teardown(() => app.close());
  return app;
};

t.test('GET /openapi.json describes a route added later, from its zod schemas and its config', async (t) => {
  const app = await build(t);
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /application\/json/);
  const document = response.json();
  t.equal(document.openapi, '3.1.0');
  t.equal(document.info.title, 'Stylist API');
  t.same(document.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: document.components.securitySchemes.bearerAuth.description });

  const create = document.paths['/v1/widget/presets'].post;
  t.equal(create.summary, 'Create a widget preset');
  t.same(create.security, [{ bearerAuth: [] }]);
  t.equal(create['x-key-type'], 'private');
  t.equal(create['x-scope'], 'widget');
  t.equal(create['x-resource'], 'api.v1.widget.presets.create');
  t.same(create.tags, ['widget']);
  t.match(create.description, /Quota resource `api\.v1\.widget\.presets\.create`/);

  const body = create.requestBody.content['application/json'].schema;
  t.same(body.required, ['name'], 'a field with a default is optional to the caller');
  t.match(body.properties.name, { type: 'string', maxLength: 100, description: 'Shown to merchants' });
  t.match(body.properties.roundness, { type: 'integer', minimum: 0, maximum: 100, default: 100 });

  t.match(create.responses['201'].content['application/json'].schema.properties.preset.properties.presetId, { type: 'string', format: 'uuid' });
  for (const status of ['400', '401', '403', '409', '422', '429', '500']) t.ok(create.responses[status], `documents ${status}`);
  t.ok(create.responses['429'].headers['Retry-After'], '429 carries Retry-After');
  t.ok(create.responses['201'].headers['X-RateLimit-Resource'], 'metered responses carry the rate-limit headers');
  const idempotencyKey = create.parameters.find((p: { name: string }) => p.name === 'idempotency-key');
  t.match(idempotencyKey, { in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
  t.notOk(create.parameters.some((p: { name: string }) => p.name === 'authorization'), 'the bearer key is the security scheme, not a parameter');

  const search = document.paths['/v1/search/things'].get;
  t.equal(search['x-key-type'], 'public');
  t.equal(search['x-demo'], true);
  t.match(search.parameters, [{ in: 'query', name: 'q', required: true }]);
  t.notOk(search.responses['409'], 'only private writes take an Idempotency-Key');
  t.notOk(search.parameters.some((p: { name: string }) => p.name === 'idempotency-key'));

  const retired = document.paths['/v1/chat/{chatId}'].get;
  t.equal(retired.deprecated, true);
  t.ok(retired.responses['410']);
  t.notOk(retired.security, 'retired endpoints take no key');
  t.ok(document.paths['/healthz'], 'routes without a schema are listed too');
  t.notOk(document.paths['/openapi.json'], 'the document does not list itself');
  t.notOk(Object.keys(document.paths).some((path) => path.startsWith('/docs')), 'nor the reference page');
});

t.test('GET /docs is an HTML page whose every asset is served by this server', async (t) => {
  const app = await build(t);
  for (const url of ['/docs', '/docs/']) {
    const page = await app.inject({ method: 'GET', url });
    t.equal(page.statusCode, 200, url);
    t.match(page.headers['content-type'], /text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    t.ok(assets.length >= 4, 'scripts and styles are referenced');
    for (const asset of assets) {
      t.notMatch(asset, /^(https?:)?\/\//, `${asset} is not fetched from another host`);
      const resolved = new URL(asset, `http://stylist.test${url}`);
      const loaded = await app.inject({ method: 'GET', url: resolved.pathname });
      t.equal(loaded.statusCode, 200, `${resolved.pathname} loads`);
    }
    const csp = String(page.headers['content-security-policy']);
    t.match(csp, /default-src 'self'/);
    t.notMatch(csp, /https:|validator\.swagger\.io|upgrade-insecure-requests/, 'the page may load nothing from elsewhere, even over plain http');
  }
  const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
  t.match(initializer.body, /resolveUrl\('\.\/json'\)/, 'the page reads the document from this server');
  t.notMatch(initializer.body, /["'`]https?:\/\//, 'and from nowhere else');
  const json = await app.inject({ method: 'GET', url: '/docs/json' });
  t.same(json.json(), (await app.inject({ method: 'GET', url: '/openapi.json' })).json());
});
