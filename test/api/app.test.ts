import { Writable } from 'node:stream';
import t, { type Test } from 'tap';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { NotFound } from '../../domain/errors.js';

const memoryLog = () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
};

const build = async (t: Test, readiness: Record<string, () => Promise<void>> = {}) => {
  const log = memoryLog();
  const app = await buildApi({
    logger: log.logger,
    readiness,
    routes: [
      (app) => {
        app.post('/v1/echo', async (request) => ({ received: request.body }));
        app.post('/v1/no-body', { config: { body: 'none' } }, async () => ({ ok: true }));
        app.get('/v1/boom', async () => {
          throw new Error('database password is hunter2');
        });
        app.get('/v1/cacheable', async (_request, reply) => reply.header('cache-control', 'public, max-age=60').send({ ok: true }));
        app.get('/v1/missing', async () => {
          throw new NotFound('Dataset not found.');
        });
      },
    ],
  });
  t.teardown(() => app.close());
  return { app, log };
};

t.test('GET /healthz answers while the process lives', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  t.equal(response.statusCode, 200);
  t.same(response.json(), { status: 'ok' });
});

t.test('GET /readyz checks every store and names the one that is down', async (t) => {
  let queueUp = true;
  const { app, log } = await build(t, {
    eventStore: async () => {},
    database: async () => {},
    queue: async () => {
      if (!queueUp) throw new Error('connection refused 127.0.0.1:4222');
    },
    objectStore: async () => {},
  });
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), { status: 'ready', checks: { eventStore: 'ok', database: 'ok', queue: 'ok', objectStore: 'ok' } });

  queueUp = false;
  const down = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(down.statusCode, 503);
  t.same(down.json(), { status: 'unavailable', checks: { eventStore: 'ok', database: 'ok', queue: 'unavailable', objectStore: 'ok' } });
  t.notOk(down.body.includes('4222'), 'the cause stays in the log');
  t.ok(log.lines.some((line) => line.includes('connection refused')), 'the cause is logged');
});

t.test('a store that hangs makes /readyz fail within its timeout instead of hanging', async (t) => {
  const { app } = await build(t, { database: () => new Promise(() => {}) });
  const started = Date.now();
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(response.statusCode, 503);
  t.ok(Date.now() - started < 5000);
});

t.test('every answer says nosniff and no-store, errors too; a route may choose its own caching', async (t) => {
  const { app } = await build(t);
  const answers = await Promise.all([
    app.inject({ method: 'POST', url: '/v1/echo', payload: { a: 1 } }),
    app.inject({ method: 'GET', url: '/v1/missing' }),
    app.inject({ method: 'GET', url: '/v1/boom' }),
    app.inject({ method: 'GET', url: '/v1/nothing-here' }),
    app.inject({ method: 'POST', url: '/v1/echo', headers: { 'content-type': 'application/json' }, payload: '{' }),
  ]);
  t.same(answers.map((r) => r.statusCode), [200, 404, 500, 404, 400]);
  for (const answer of answers) {
    t.equal(answer.headers['x-content-type-options'], 'nosniff', `${answer.statusCode}: nosniff`);
    t.equal(answer.headers['cache-control'], 'no-store', `${answer.statusCode}: no-store`);
  }
  const cacheable = await app.inject({ method: 'GET', url: '/v1/cacheable' });
  t.equal(cacheable.headers['cache-control'], 'public, max-age=60');
  t.equal(cacheable.headers['x-content-type-options'], 'nosniff');
});

t.test('unknown routes get a JSON 404', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/nothing-here?x=1' });
  t.equal(response.statusCode, 404);
  t.match(response.headers['content-type'], /application\/json/);
  t.same(response.json(), { error: 'Route not found: GET /v1/nothing-here' });
});

t.test('the two common body errors of document 1, whatever the Content-Type', async (t) => {
  const { app } = await build(t);
  const cases: Array<[string | undefined, string | undefined, string]> = [
    ['{"name": ', 'application/json', 'Request body must be valid JSON.'],
    ["{'name': 'x'}", 'application/json', 'Request body must be valid JSON.'],
    ['not json', 'text/plain', 'Request body must be valid JSON.'],
    ['', 'application/json', 'Request body must be a JSON object.'],
    [undefined, undefined, 'Request body must be a JSON object.'],
    ['   ', 'application/json', 'Request body must be a JSON object.'],
    ['[1,2]', 'application/json', 'Request body must be a JSON object.'],
    ['"text"', 'application/json', 'Request body must be a JSON object.'],
    ['42', 'application/json', 'Request body must be a JSON object.'],
    ['null', 'application/json', 'Request body must be a JSON object.'],
    ['true', 'application/json; charset=utf-8', 'Request body must be a JSON object.'],
  ];
  for (const [payload, contentType, message] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/echo',
      ...(payload === undefined ? {} : { payload }),
      headers: contentType ? { 'content-type': contentType } : {},
    });
    t.equal(response.statusCode, 400, `${JSON.stringify(payload)} → 400`);
    t.same(response.json(), { error: message }, JSON.stringify(payload));
    t.notOk(Object.keys(response.headers).some((h) => h.startsWith('x-ratelimit')), 'no rate-limit headers');
  }
  const good = await app.inject({ method: 'POST', url: '/v1/echo', payload: '{"name":"Ünïcode ✓"}', headers: { 'content-type': 'application/json' } });
  t.equal(good.statusCode, 200);
  t.same(good.json(), { received: { name: 'Ünïcode ✓' } });
  const plain = await app.inject({ method: 'POST', url: '/v1/echo', payload: '{"a":1}', headers: { 'content-type': 'text/plain' } });
  t.same(plain.json(), { received: { a: 1 } }, 'a JSON object is read whatever the Content-Type');
});

t.test('a route that takes no body accepts an empty request', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'POST', url: '/v1/no-body' });
  t.equal(response.statusCode, 200);
  t.same(response.json(), { ok: true });
});

t.test('an unexpected failure is a 500 with the one message of document 1, details only in the log', async (t) => {
  const { app, log } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/boom' });
  t.equal(response.statusCode, 500);
  t.same(response.json(), { error: 'Internal server error.' });
  t.ok(log.lines.some((line) => line.includes('unexpected failure')));
});

t.test('domain errors map to their status and exact message', async (t) => {
  const { app } = await build(t);
  const response = await app.inject({ method: 'GET', url: '/v1/missing' });
  t.equal(response.statusCode, 404);
  t.same(response.json(), { error: 'Dataset not found.' });
});

t.test('request logs never contain the Authorization header or session tokens', async (t) => {
  const { app, log } = await build(t);
  const privateKey = 'sgpt-sk-abc123::s3cr3tvalue';
  await app.inject({
    method: 'POST',
    url: '/v1/echo',
    payload: '{}',
    headers: { authorization: `Bearer ${privateKey}`, 'x-service-session': 'session-token-123', 'content-type': 'application/json' },
  });
  await app.inject({ method: 'GET', url: '/v1/boom', headers: { authorization: `Bearer ${privateKey}` } });
  const all = log.lines.join('\n');
  t.ok(log.lines.length >= 2, 'requests were logged');
  t.notOk(all.includes('s3cr3tvalue'), 'secret absent');
  t.notOk(all.includes('sgpt-sk-abc123'), 'key absent');
  t.notOk(all.includes('session-token-123'), 'session token absent');
  t.ok(all.includes('[Redacted]'), 'the header is shown as redacted');
});

t.test('behind proxies the client address is the one the nearest trusted proxy saw, never a forged entry', async (t) => {
  const forAddress = async (trustProxy: false | number | string[], forwardedFor: string) => {
    const app = await buildApi({ logger: memoryLog().logger, readiness: {}, trustProxy, routes: [(app) => void app.get('/v1/ip', async (request) => ({ ip: request.ip }))] });
    t.teardown(() => app.close());
    const response = await app.inject({ method: 'GET', url: '/v1/ip', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': forwardedFor } });
    return (response.json() as { ip: string }).ip;
  };
  // The client sent "X-Forwarded-For: 6.6.6.6"; the one proxy in front appended the address it saw.
  const forged = '6.6.6.6, 203.0.113.7';
  t.equal(await forAddress(false, forged), '10.0.0.2', 'no proxy trusted: the socket address');
  t.equal(await forAddress(1, forged), '203.0.113.7', 'one hop: the address the proxy saw');
  t.equal(await forAddress(['10.0.0.0/8'], forged), '203.0.113.7', "the proxies' CIDR: the first address outside it");
  t.equal(await forAddress(['10.0.0.0/8'], '6.6.6.6, 10.0.0.9, 203.0.113.7'), '203.0.113.7');
  t.equal(await forAddress(2, '6.6.6.6, 203.0.113.7, 10.0.0.9'), '203.0.113.7', 'two hops');
});

t.test('bodies that would break deeper are refused up front with a 4xx: deep nesting, NUL, lone surrogates, a Content-Type that is no media type', async (t) => {
  const { app } = await build(t);
  const post = (payload: string, contentType = 'application/json') => app.inject({ method: 'POST', url: '/v1/echo', headers: { 'content-type': contentType }, payload });
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const tooDeep = await post(deep(10_000));
  t.equal(tooDeep.statusCode, 400);
  t.same(tooDeep.json(), { error: 'Request body is nested too deeply (at most 32 levels).' });
  t.equal((await post('[' .repeat(1) + deep(40) + ']')).statusCode, 400, 'arrays count as levels too');
  t.equal((await post(deep(31))).statusCode, 200, 'within the limit');
  const text = 'Request body text must not contain NUL characters or unpaired surrogates.';
  for (const payload of ['{"name":"a\\u0000b"}', '{"name":"a\\ud800b"}', '{"name":"\\udc00"}', '{"a\\u0000":1}', '{"tags":["ok","\\ud83d"]}']) {
    const response = await post(payload);
    t.same([response.statusCode, response.json()], [400, { error: text }], payload);
  }
  t.same((await post('{"name":"👗 \\ud83d\\udc57"}')).json(), { received: { name: '👗 👗' } }, 'paired surrogates are text');
  for (const contentType of ['/', 'application/', '\u0001']) {
    const response = await post('{"a":1}', contentType);
    t.same([response.statusCode, response.json()], [415, { error: 'Content-Type must be a media type such as application/json.' }], JSON.stringify(contentType));
  }
});
