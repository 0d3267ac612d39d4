import t, { type Test } from 'tap';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';

const CHAT_RETIRED = 'This endpoint has been retired (v1/chat/[chatId]).';
const COMPOSITIONS_RETIRED = 'This endpoint has been retired (v1/outfit/compositions).';

const build = async (t: Test) => {
  const seen: string[] = [];
  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    routes: [
      (app) => {
        // Stand in for authentication and metering, which act on routes with `auth` or `resource`,
        // and for everything that reads the body.
        app.addHook('onRequest', async (request) => {
          const { auth, resource } = request.routeOptions.config;
          if (auth || resource) seen.push(`charged ${request.method} ${request.url}`);
        });
        app.addHook('preValidation', async (request) => {
          seen.push(`read ${request.method} ${request.url}`);
        });
        app.get('/v1/chat/list', { config: { auth: 'private', resource: 'api.v1.chat.list' } }, async () => ({ chats: [] }));
      },
    ],
  });
  t.teardown(() => app.close());
  return { app, seen };
};

t.test('GET /v1/chat/:chatId answers 410 whatever the id and whoever asks', async (t) => {
  const { app, seen } = await build(t);
  for (const url of ['/v1/chat/0f6d1c9a-1b9e-4c1e-8a51-7d0c7f0e9a01', '/v1/chat/not-even-a-uuid', '/v1/chat/%20%20']) {
    for (const headers of [{}, { authorization: 'Bearer sgpt-pk-demo' }, { authorization: 'garbage' }]) {
      const response = await app.inject({ method: 'GET', url, headers });
      t.equal(response.statusCode, 410, url);
      t.match(response.headers['content-type'], /application\/json/);
      t.same(response.json(), { error: CHAT_RETIRED });
      t.notOk(Object.keys(response.headers).some((h) => h.startsWith('x-ratelimit')), 'no quota is charged');
    }
  }
  t.same(seen, [], 'answered before anything that checks keys or bodies');
});

t.test('POST /v1/outfit/compositions answers 410 without reading the body', async (t) => {
  const { app, seen } = await build(t);
  const bodies: Array<[string | undefined, string | undefined]> = [
    ['{"items": []}', 'application/json'],
    ['{"broken": ', 'application/json'],
    ['[1, 2]', 'application/json'],
    ['', undefined],
    [undefined, undefined],
    ['<xml/>', 'application/xml'],
  ];
  for (const [payload, contentType] of bodies) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/outfit/compositions',
      ...(payload === undefined ? {} : { payload }),
      headers: { authorization: 'Bearer sgpt-pk-demo', ...(contentType ? { 'content-type': contentType } : {}) },
    });
    t.equal(response.statusCode, 410, JSON.stringify(payload));
    t.same(response.json(), { error: COMPOSITIONS_RETIRED });
  }
  t.same(seen, []);
});

t.test('GET /v1/chat/list, registered later, is still reached', async (t) => {
  const { app, seen } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/chat/list' });
  t.equal(response.statusCode, 200);
  t.same(response.json(), { chats: [] });
  t.same(seen, ['charged GET /v1/chat/list', 'read GET /v1/chat/list']);
  const other = await app.inject({ method: 'GET', url: '/v1/chat/listing' });
  t.equal(other.statusCode, 410, 'only the exact static path wins');
});

t.test('other methods on the retired paths are unknown routes', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/outfit/compositions' });
  t.equal(response.statusCode, 404);
  t.same(response.json(), { error: 'Route not found: GET /v1/outfit/compositions' });
});
