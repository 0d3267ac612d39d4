// Issue 12: no request, however malformed, is a 500. Every route of the running app (read from
// fastify's router, so a new route is fuzzed the day it is added) gets random requests: bodies
// shaped by its JSON schema with wrong types, nesting, NUL, lone surrogates, odd numbers and broken
// JSON mixed in; odd query strings; path ids of this organization, of another one, and junk;
// Content-Type, Authorization, Idempotency-Key and Origin junk; the private, public and demo keys.
// Property: the status is below 500, and a 4xx is document 1's `{ "error": "<message>" }`.
// Then a smaller pass over a real socket, for framing inject cannot send (chunked bodies, a short
// Content-Length, repeated headers, raw header bytes).
//
// FUZZ_RUNS: requests in all (default 1200, about 30 a route). FUZZ_SEED: replay a failure (the
// seed is printed either way); FUZZ_ROUTE='POST /v1/datasets' narrows the run to one route.
import fc from 'fast-check';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { bodyText, encodeQueryPart, headerText, key, pathJunk, queryValue } from '../support/fuzz-arbitraries.js';
import {
  clip,
  EXCLUDED,
  fixtureIdsIn,
  fuzzedRoutes,
  fuzzService,
  HAND_CHECKED_BODIES,
  makeIds,
  ONLY,
  problemWith,
  resolverOf,
  routeInfo,
  SEED,
  sessionToken,
  show,
  TOTAL_RUNS,
  type FuzzRequest,
  type Ids,
  type Org,
  type RouteInfo,
} from '../support/fuzz-service.js';
import { exchange, FRAMINGS, rawRequest } from '../support/raw-http.js';
import { openApiPath, pathParams, routeTable } from '../support/route-table.js';

/** Widget session tokens of the two organizations, for POST /v1/events. */
interface Sessions {
  own: string;
  other: string;
}

function requests(info: RouteInfo, own: Org & { ids: Ids }, other: Org & { ids: Ids }, resolve: (ref: string) => Record<string, unknown> | undefined, sessions: Sessions): fc.Arbitrary<FuzzRequest> {
  const { route } = info;
  const idOf = (ids: Ids, name: string): string => {
    if (!(name in ids)) throw new Error(`${route.method} ${route.url}: no fixture id for :${name}; add one to makeIds`);
    return ids[name as keyof Ids];
  };
  const param = (name: string) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(idOf(own.ids, name)) },
      { weight: 1, arbitrary: fc.constantFrom(...Object.values(own.ids)) },
      { weight: 1, arbitrary: fc.constant(idOf(other.ids, name)) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: pathJunk },
    );
  const path = fc.tuple(...pathParams(route.url).map(param)).map((values) => {
    let index = 0;
    return route.url.replace(/:[A-Za-z0-9_]+/g, () => values[index++] ?? '');
  });
  const queryKey = fc.oneof(fc.constantFrom(...info.queryNames, 'page', 'limit'), key);
  const queryEntry = fc.tuple(queryKey, fc.oneof(queryValue, fc.constantFrom(...Object.values(own.ids), Object.values(own.ids).join(','))), fc.boolean()).map(
    ([name, value, bare]) => (bare && value === '' ? encodeQueryPart(name) : `${encodeQueryPart(name)}=${encodeQueryPart(value)}`),
  );
  const query = fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 3, arbitrary: fc.array(queryEntry, { minLength: 1, maxLength: 5 }).map((entries) => `?${entries.join('&')}`) });

  const rightKey = info.keyType === 'public' ? own.publicKey : own.privateKey;
  const authorization = fc.oneof(
    { weight: 20, arbitrary: fc.constant(`Bearer ${rightKey}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ...[own.privateKey, own.publicKey, own.restricted.privateKey, own.restricted.publicKey, 'sgpt-pk-demo', other.privateKey, other.publicKey].map((k) => `Bearer ${k}`),
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom(
          '', 'Bearer', 'Bearer ', `bearer ${rightKey}`, `Bearer  ${rightKey}`, `Bearer ${rightKey} x`, `Bearer ${rightKey}x`, 'Basic dXNlcjpwYXNz', 'Bearer sgpt-sk-',
          'Bearer sgpt-sk-::', 'Bearer sgpt-sk-x::y', `Bearer ${own.privateKey.split('::')[0]}`, `Bearer ${own.privateKey.split('::')[0]}::`, 'Bearer sgpt-pk-', 'Bearer sgpt-pk-d\u00e9mo',
          `Bearer sgpt-sk-${'a'.repeat(5000)}::${'b'.repeat(5000)}`, `Bearer sgpt-pk-${'a'.repeat(10_000)}`,
        ),
        headerText().map((text) => `Bearer ${text}`),
        headerText(),
      ),
    },
  );
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const contentType = fc.oneof(
    { weight: takesBody ? 8 : 2, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json;', 'application/json; charset="',
        'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'application/octet-stream', '/', 'application/', ';', '*/*', 'a'.repeat(5000),
      ),
    },
    { weight: 1, arbitrary: headerText(40) },
  );
  const odd = (values: string[]) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: headerText(40) });
  // The events route's session: mostly a live one, else another organization's, one spelled
  // otherwise than issued (a trailing `=`), cut, or junk; other routes get one now and then.
  const spelledOtherwise = [`${sessions.own}=`, sessions.own.slice(0, -1), `${sessions.own}.x`, sessions.own.replace('.', '=.'), ''];
  const session =
    route.url === '/v1/events'
      ? fc.oneof({ weight: 12, arbitrary: fc.constant(sessions.own) }, { weight: 2, arbitrary: fc.constant(sessions.other) }, { weight: 3, arbitrary: fc.constantFrom<string | undefined>(...spelledOtherwise, undefined) }, { weight: 1, arbitrary: headerText(60) })
      : odd([sessions.own]);
  const headers = fc
    .record({
      authorization,
      'content-type': contentType,
      'idempotency-key': odd(['', ' ', 'k', 'same-key', 'x'.repeat(256), 'x'.repeat(10_000), '\u00e9']),
      origin: odd(['null', 'https://shop.example.com', 'https://evil.example', 'http://[::1]:99999', '*', '']),
      accept: odd(['text/html', 'application/xml', '*/*', 'text/event-stream', '']),
      'x-forwarded-for': odd(['', 'unknown', '1.2.3.4, , ::1', '999.999.999.999', '10.1.2.3']),
      'access-control-request-method': odd(['GET', 'POST', 'PUT', 'DELETE', 'FOO', '']),
      'access-control-request-headers': odd(['authorization', 'content-type, idempotency-key', 'x-custom', '', ',,,']),
      'x-service-session': session,
    })
    .map((values) => Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined)));
  const body = bodyText(info.body, resolve);
  const payload = takesBody
    ? fc.oneof({ weight: 9, arbitrary: body }, { weight: 1, arbitrary: fc.constant(undefined) })
    : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: body });
  // Now and then the route's path with another method: a CORS preflight, or HEAD beside a GET.
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constant<HTTPMethods>('OPTIONS') },
    ...(route.method === 'GET' ? [{ weight: 1, arbitrary: fc.constant<HTTPMethods>('HEAD') }] : []),
  );
  const copies = fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) });
  return fc
    .record({ method, path, query, headers, payload, copies })
    .map(({ method, path, query, headers, payload, copies }) => ({ method, url: path + query, headers, copies, ...(payload === undefined ? {} : { payload: fixtureIdsIn(payload, own.ids, other.ids) }) }));
}


t.test('every route answers malformed requests below 500, a 4xx with an error string', async (t) => {
  const { service, own, other, document } = await fuzzService(t, { workers: ['agent'] });
  const table = routeTable(service.app);
  const fuzzed = fuzzedRoutes(service.app);
  for (const { prefix } of EXCLUDED) t.ok(table.some((route) => route.url.startsWith(prefix)), `exclusion ${prefix} still names a route`);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      t.ok(fuzzed.some((route) => route.method === method.toUpperCase() && openApiPath(route.url) === path), `${method.toUpperCase()} ${path} of the OpenAPI document is in the route table`);
    }
  }
  t.equal(fuzzed.length, table.length - table.filter((route) => EXCLUDED.some(({ prefix }) => route.url.startsWith(prefix))).length, 'every route is fuzzed but the excluded');
  for (const name of Object.keys(HAND_CHECKED_BODIES)) {
    t.ok(fuzzed.some((route) => `${route.method} ${route.url}` === name), `${name} is a route`);
  }

  const resolve = resolverOf(document);
  const perRoute = Math.max(10, Math.ceil(TOTAL_RUNS / fuzzed.length));
  t.comment(`fuzzing ${fuzzed.length} routes, ${perRoute} requests each, seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  // The read-only routes share one fixture; a route that writes gets its own, so what one route
  // deletes or archives never changes what another sees, and each route replays alone.
  const shared = { own: { ...own, ids: await makeIds(own) }, other: { ...other, ids: await makeIds(other) } };
  const sessions = { own: await sessionToken(service, own.publicKey), other: await sessionToken(service, other.publicKey) };

  for (const route of fuzzed) {
    const name = `${route.method} ${route.url}`;
    if (ONLY && ONLY !== name) continue;
    await t.test(name, async (t) => {
      const info = routeInfo(route, document);
      const orgs = route.method === 'GET' ? shared : { own: { ...own, ids: await makeIds(own) }, other: shared.other };
      let reached = 0;
      const statuses = new Map<number, number>();
      let failure = '';
      const property = fc.asyncProperty(requests(info, orgs.own, orgs.other, resolve, sessions), async (request) => {
        const { copies, ...sent } = request;
        let responses: LightMyRequestResponse[];
        try {
          responses = await Promise.all(Array.from({ length: copies }, () => service.app.inject(sent)));
        } catch (error) {
          failure = show(request, 'inject threw', String(error));
          throw error;
        }
        for (const response of responses) {
          if (!(response.statusCode === 404 && response.body.includes('Route not found'))) reached += 1;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          // A HEAD answer has the headers of the GET and no body to check.
          const problem = problemWith(response.statusCode, String(response.headers['content-type'] ?? ''), request.method === 'HEAD' ? '{"error":"(HEAD)"}' : response.body);
          if (problem) {
            failure = `${problem}${copies > 1 ? ` (${copies} at once)` : ''}:\n  ${show(request, response.statusCode, response.body)}`;
            throw new Error(problem);
          }
        }
      });
      try {
        await fc.assert(property, { numRuns: perRoute, seed: SEED, timeout: 20_000 });
      } catch (error) {
        t.fail(`${name}: ${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
      }
      t.ok(reached > 0, `${reached} requests reached ${name}`);
      t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '));
    });
  }
});

t.test('over a real socket: chunked and short bodies, repeated and non-ASCII headers, bytes that are not UTF-8', async (t) => {
  const { service, own, document } = await fuzzService(t, { workers: ['agent'] });
  const ids = await makeIds(own);
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = service.app.server.address() as { port: number };
  const resolve = resolverOf(document);
  const cases = fc.constantFrom(...fuzzedRoutes(service.app)).chain((route) => {
    const { body: schema, keyType } = routeInfo(route, document);
    const key = keyType === 'public' ? own.publicKey : own.privateKey;
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => ids[name as keyof Ids] ?? name);
    return fc.record({
      route: fc.constant(`${route.method} ${route.url}`),
      body: bodyText(schema, resolve),
      framing: fc.constantFrom(...FRAMINGS),
    }).map(({ route: name, body, framing }) => ({ route: name, bytes: rawRequest(route.method, path, key, framing, Buffer.from(body)) }));
  });
  let failure = '';
  const runs = Math.max(40, Math.ceil(TOTAL_RUNS / 20));
  try {
    await fc.assert(
      fc.asyncProperty(cases, async ({ route, bytes }) => {
        const answer = await exchange(port, bytes).catch((error: Error) => ({ status: 0, contentType: '', body: error.message }));
        const problem = answer.status === 0 ? `no answer: ${answer.body}` : problemWith(answer.status, answer.contentType, answer.body);
        if (problem) {
          failure = `${route}: ${problem}\n  sent ${clip(JSON.stringify(bytes.toString('latin1')), 800)}\n  → ${answer.status} ${clip(answer.body)}`;
          throw new Error(problem);
        }
      }),
      // Above exchange's idle bound, so a hang is reported as the request that hung.
      { numRuns: runs, seed: SEED, timeout: 60_000 },
    );
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
  }
  t.pass(`${runs} raw requests, seed ${SEED}`);
});
