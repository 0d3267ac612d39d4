// The connect-time guard of merchant URLs, against real servers on loopback only. A name is made to
// resolve where the test says with an injected resolver; the servers count connections, so
// "refused" means refused before a packet was sent. Every address a test resolves to is a loopback
// one: even a broken guard could not send anything off this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createOutbound, OutboundRefused, readCapped, type OutboundOptions, type Resolver } from '../../infra/http/outbound.js';

interface CountingServer {
  host: string;
  port: number;
  url: string;
  connections: number;
  requests: Array<{ path: string; host: string | undefined }>;
}

/** A server on `host` (a loopback address) that answers `ok` unless `handle` answers first; it counts every connection. */
async function countingServer(t: Test, host = '127.0.0.1', handle?: Parameters<typeof createServer>[1]): Promise<CountingServer> {
  const server: Server = createServer((request, response) => {
    counted.requests.push({ path: request.url ?? '', host: request.headers.host });
    if (handle) return handle(request, response);
    response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    response.end('ok');
  });
  server.on('connection', () => counted.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const counted: CountingServer = { host, port, url: `http://${host}:${port}`, connections: 0, requests: [] };
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return counted;
}

/** Names resolve to what the table says; every question is recorded. */
const resolverOf = (table: Record<string, string[] | (() => string[])>) => {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    const entry = table[hostname];
    const addresses = typeof entry === 'function' ? entry() : entry;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
};

const client = (t: Test, options: OutboundOptions) => {
  const outbound = createOutbound(options);
  t.teardown(() => outbound.close());
  return outbound;
};

const refusal = (pattern: RegExp) => ({ name: 'OutboundRefused', message: pattern });

t.test('a name that resolves to loopback is refused before any connection is made', async (t) => {
  const local = await countingServer(t);
  const { resolve, asked } = resolverOf({ 'shop.example': ['127.0.0.1'] });
  const outbound = client(t, { resolve });
  await t.rejects(outbound.fetch(`http://shop.example:${local.port}/products.json`), refusal(/^refused: shop\.example resolves to 127\.0\.0\.1, a loopback address \(this machine\); Stylist only fetches addresses on the public internet$/));
  t.same(asked, ['shop.example']);
  t.equal(local.connections, 0, 'the local server saw no connection');
});

t.test('every loopback spelling and answer is refused by default, with zero connections', async (t) => {
  const local = await countingServer(t);
  const { resolve, asked } = resolverOf({ 'v6.example': ['::1'], 'mapped.example': ['::ffff:127.0.0.1'], 'zero.example': ['0.0.0.0'], 'other.example': ['127.0.0.2'] });
  const outbound = client(t, { resolve });
  const urls = [
    `http://127.0.0.1:${local.port}/`,
    `http://2130706433:${local.port}/`,
    `http://0x7f.1:${local.port}/`,
    `http://0177.0.0.1:${local.port}/`,
    `http://127.1:${local.port}/`,
    `http://127.0.0.1.:${local.port}/`,
    `http://[::ffff:127.0.0.1]:${local.port}/`,
    `http://[::1]:${local.port}/`,
    `http://0.0.0.0:${local.port}/`,
    `http://localhost:${local.port}/`,
    `http://admin.localhost.:${local.port}/`,
    `https://127.0.0.1:${local.port}/`,
    `http://v6.example:${local.port}/`,
    `http://mapped.example:${local.port}/`,
    `http://zero.example:${local.port}/`,
    `http://other.example:${local.port}/`,
  ];
  for (const url of urls) await t.rejects(outbound.fetch(url), refusal(/^refused: /), url);
  t.same(asked, ['v6.example', 'mapped.example', 'zero.example', 'other.example'], 'literals and localhost never reach the resolver');
  t.equal(local.connections, 0);
});

t.test('one refused answer among several refuses the name', async (t) => {
  const local = await countingServer(t);
  const { resolve } = resolverOf({ 'shop.example': ['127.0.0.1', '127.0.0.2'] });
  const outbound = client(t, { resolve, treatAsPublic: ['127.0.0.1'] });
  await t.rejects(outbound.fetch(`http://shop.example:${local.port}/`), refusal(/shop\.example resolves to 127\.0\.0\.2, a loopback address/));
  t.equal(local.connections, 0);
});

t.test('an allowed address is fetched with the name in the Host header', async (t) => {
  const local = await countingServer(t);
  const { resolve } = resolverOf({ 'shop.example': ['127.0.0.1'] });
  const outbound = client(t, { resolve, treatAsPublic: ['127.0.0.1'] });
  const response = await outbound.fetch(`http://shop.example:${local.port}/products.json`);
  t.equal(await response.text(), 'ok');
  t.same(local.requests, [{ path: '/products.json', host: `shop.example:${local.port}` }]);
});

t.test('OUTBOUND_ALLOW_PRIVATE fetches loopback; other special addresses stay refused', async (t) => {
  const local = await countingServer(t);
  const { resolve } = resolverOf({ 'zero.example': ['0.0.0.0'], localhost: ['127.0.0.1'] });
  const outbound = client(t, { allowPrivate: true, resolve });
  t.equal(outbound.allowPrivate, true);
  t.equal(await (await outbound.fetch(`${local.url}/`)).text(), 'ok');
  t.equal(await (await outbound.fetch(`http://localhost:${local.port}/`)).text(), 'ok');
  const before = local.connections;
  await t.rejects(outbound.fetch(`http://zero.example:${local.port}/`), refusal(/0\.0\.0\.0, an unspecified address/));
  await t.rejects(outbound.fetch(`http://0.0.0.0:${local.port}/`), refusal(/0\.0\.0\.0 is an unspecified address/));
  t.equal(local.connections, before, '0.0.0.0 (which reaches this machine) is never connected to');
});

t.test('DNS rebinding: the answer checked is the answer connected to, asked once per connection', async (t) => {
  const allowed = await countingServer(t, '127.0.0.1');
  const internal = await countingServer(t, '127.0.0.2');
  // The name answers an allowed address first, then a private one.
  let answers = 0;
  const { resolve, asked } = resolverOf({ 'shop.example': () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) });
  const outbound = client(t, { resolve, treatAsPublic: ['127.0.0.1'] });
  const response = await outbound.fetch(`http://shop.example:${allowed.port}/`);
  t.equal(await response.text(), 'ok', 'the first connection goes where the first (checked) answer said');
  t.equal(asked.length, 1, 'one lookup for one connection: no separate check that a later lookup could contradict');
  // The server closed the connection, so the next request connects again: the rebound answer is checked.
  await t.rejects(outbound.fetch(`http://shop.example:${allowed.port}/`), refusal(/resolves to 127\.0\.0\.2/));
  await t.rejects(outbound.fetch(`http://shop.example:${internal.port}/`), refusal(/resolves to 127\.0\.0\.2/));
  t.equal(asked.length, 3);
  t.equal(allowed.connections, 1);
  t.equal(internal.connections, 0, 'the private server saw nothing');
});

t.test('only http and https are fetched', async (t) => {
  const outbound = client(t, {});
  await t.rejects(outbound.fetch('ftp://shop.example/products.json'), refusal(/ftp: addresses are not fetched/));
  await t.rejects(outbound.fetch('file:///etc/passwd'), refusal(/file: addresses are not fetched/));
});

t.test('an unknown name fails as a lookup failure, not a refusal', async (t) => {
  const { resolve } = resolverOf({});
  const outbound = client(t, { resolve });
  const error = await outbound.fetch('http://nowhere.example/').catch((error: unknown) => error);
  t.notOk(error instanceof OutboundRefused);
  t.match(String((error as Error & { cause?: unknown }).cause), /ENOTFOUND/);
});

t.test('time caps: no headers in time, a body that stalls, and the whole exchange', async (t) => {
  const silent = await countingServer(t, '127.0.0.1', () => {});
  const stalling = await countingServer(t, '127.0.0.1', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.write('a');
  });
  const trickling = await countingServer(t, '127.0.0.1', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const timer = setInterval(() => response.write('a'), 20);
    response.on('close', () => clearInterval(timer));
  });
  const outbound = client(t, { allowPrivate: true, headersTimeoutMs: 200, bodyTimeoutMs: 200 });
  const started = performance.now();
  const headers = await outbound.fetch(silent.url).catch((error: unknown) => error as Error & { cause?: { code?: string } });
  t.equal((headers as { cause?: { code?: string } }).cause?.code, 'UND_ERR_HEADERS_TIMEOUT');
  const stalled = await outbound.fetch(stalling.url);
  await t.rejects(stalled.arrayBuffer(), { cause: { code: 'UND_ERR_BODY_TIMEOUT' } });
  const trickled = await outbound.fetch(trickling.url, { timeoutMs: 300 });
  await t.rejects(trickled.arrayBuffer(), { name: 'TimeoutError' });
  t.ok(performance.now() - started < 5_000, 'every cap fired in its own time');
});

t.test('readCapped refuses a body over the cap, declared or counted', async (t) => {
  const declared = new Response('x'.repeat(100), { headers: { 'content-length': '100' } });
  await t.rejects(readCapped(declared, 10, () => new Error('too large')), { message: 'too large' });
  const streamed = new Response(new ReadableStream({ start: (controller) => { controller.enqueue(new Uint8Array(8)); controller.enqueue(new Uint8Array(8)); controller.close(); } }));
  await t.rejects(readCapped(streamed, 10, () => new Error('too large')), { message: 'too large' });
  t.equal((await readCapped(new Response('hello'), 10, () => new Error('too large'))).toString(), 'hello');
});
