// Photo URLs are merchant-supplied like store feeds: fetched from public addresses only, every
// redirect checked again, and a photo that stalls, trickles, never ends or redirects badly fails
// that photo (a problem returned), never its item. Every address used is a loopback one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createOutbound, outboundClient } from '../../infra/http/outbound.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { fetchPhotoBytes, PhotoProblem, storePhoto } from '../../workers/ingest/photos.js';
import { localStores } from '../support/outbound.js';
import { productShot, startPhotoServer } from '../support/photo-server.js';

const limits = { timeoutMs: 500, maxBytes: 200_000, maxRedirects: 2, maxSide: 300 };
const refusedLoopback = (address: string) => `refused: ${address} is a loopback address (this machine); Stylist only fetches addresses on the public internet`;

t.test('by default a photo on this machine is refused, and the server sees no request', async (t) => {
  const server = await startPhotoServer(t, { '/ok.png': await productShot('#aa0000') });
  await t.rejects(fetchPhotoBytes(`${server.url}/ok.png`, limits), new PhotoProblem(refusedLoopback('127.0.0.1')), 'the default client');
  await t.rejects(fetchPhotoBytes(`${server.url}/ok.png`, limits, outboundClient(false)), new PhotoProblem(refusedLoopback('127.0.0.1')));
  const port = new URL(server.url).port;
  await t.rejects(fetchPhotoBytes(`//[::1]:${port}/ok.png`, limits), new PhotoProblem(refusedLoopback('::1')), 'protocol-relative, IPv6');
  t.same([...server.hits], []);
});

t.test('a redirect from a public photo host to a private address is refused at the redirect', async (t) => {
  const server = await startPhotoServer(t, { '/ok.png': await productShot('#aa0000') });
  const port = new URL(server.url).port;
  const outbound = createOutbound({
    // cdn.example plays a public host; internal.example is this machine again, spelt as IPv4-mapped IPv6.
    resolve: async (hostname) => [{ address: hostname === 'cdn.example' ? '127.0.0.1' : '::ffff:127.0.0.1', family: hostname === 'cdn.example' ? 4 : 6 }],
    treatAsPublic: ['127.0.0.1'],
  });
  t.teardown(() => outbound.close());
  t.ok((await fetchPhotoBytes(`http://cdn.example:${port}/ok.png`, limits, outbound)).length > 0, 'the public host itself is fetched');
  const away = (to: string) => `http://cdn.example:${port}/away?to=${encodeURIComponent(to)}`;
  await t.rejects(fetchPhotoBytes(away(`http://internal.example:${port}/ok.png`), limits, outbound), new PhotoProblem('refused: internal.example resolves to ::ffff:127.0.0.1, a loopback address (this machine); Stylist only fetches addresses on the public internet'));
  await t.rejects(fetchPhotoBytes(away(`http://[::1]:${port}/ok.png`), limits, outbound), new PhotoProblem(refusedLoopback('::1')));
  await t.rejects(fetchPhotoBytes(away('file:///etc/passwd'), limits, outbound), new PhotoProblem('unsupported scheme file:'));
  await t.rejects(fetchPhotoBytes(away('http://[::1'), limits, outbound), { name: 'PhotoProblem', message: /^redirected to http:\/\/\[::1, which is not a URL$/ });
  t.equal(server.hits.get('/ok.png'), 1, 'only the direct fetch reached the photo');
});

t.test('a photo that stalls, trickles, never ends or loops is a problem within its limits', async (t) => {
  const server = await startPhotoServer(t);
  const started = performance.now();
  await t.rejects(fetchPhotoBytes(`${server.url}/stalls.jpg`, limits, localStores), new PhotoProblem('no answer within 500 ms'), 'headers, then silence');
  await t.rejects(fetchPhotoBytes(`${server.url}/trickle.jpg`, limits, localStores), new PhotoProblem('no answer within 500 ms'), 'a byte now and then, forever');
  await t.rejects(fetchPhotoBytes(`${server.url}/endless.jpg`, limits, localStores), new PhotoProblem('larger than 200000 bytes'), 'counted, not declared');
  await t.rejects(fetchPhotoBytes(`${server.url}/loop.jpg`, limits, localStores), new PhotoProblem('more than 2 redirects'));
  t.ok(performance.now() - started < 5_000, 'each within its own cap');
});

t.test('storing: each bad photo comes back as a problem, not an exception', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-photos-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const server = await startPhotoServer(t, { '/ok.png': await productShot('#aa0000') });
  const itemId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const results = await Promise.all(
    ['/ok.png', '/stalls.jpg', '/trickle.jpg', '/endless.jpg', '/loop.jpg'].map((p) => storePhoto(objects, itemId, `${server.url}${p}`, { limits, outbound: localStores })),
  );
  t.ok('key' in results[0]!, 'the good photo is stored');
  t.match(results.slice(1), [{ problem: 'no answer within 500 ms' }, { problem: 'no answer within 500 ms' }, { problem: 'larger than 200000 bytes' }, { problem: 'more than 2 redirects' }]);
  t.match(await storePhoto(objects, itemId, `${server.url}/ok.png`, { limits }), { problem: refusedLoopback('127.0.0.1') }, 'default client: refused, returned');
});
