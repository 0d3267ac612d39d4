// GET /v1/image/{key} through HTTP, on the file store, on S3 (an in-process s3rver) and on
// S3_ENDPOINT when set: the stored bytes with their type, ETag and caching; transforms checked by
// decoding what comes back; variants made once and kept; the errors a caller can meet; item
// responses linking their photos through the route, demo photos included.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { imageRoutes } from '../../api/routes/images.js';
import { generateDemoCatalogue } from '../../domain/demo-catalogue/generate.js';
import { versionTag } from '../../infra/images/originals.js';
import { sharpTransformer } from '../../infra/images/transform.js';
import { ImageDelivery } from '../../infra/images/variants.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { bombPng, demoJpeg, storeSetups } from '../support/images.js';
import { exchange } from '../support/raw-http.js';
import { startTestService } from '../support/service.js';
import { until } from '../support/until.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CACHE_CONTROL = 'public, max-age=31536000, immutable';

const decode = async (body: Buffer) => sharp(body).metadata();

for (const setup of storeSetups()) {
  t.test(setup.name, async (t) => {
    const service = await startTestService(t, { env: await setup.env(t) });
    const { app, platform } = service;
    const objects = platform.objects;
    // Keys of this run only: S3_ENDPOINT may be a bucket others use.
    const key = `images/${randomUUID()}.jpeg`;
    const original = await demoJpeg(800);
    await objects.put(key, original, { contentType: 'image/jpeg' });
    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

    t.test('the stored bytes, their type, a strong ETag and a year of immutable caching; no key needed', async (t) => {
      const response = await get(`/v1/image/${key}`);
      t.equal(response.statusCode, 200);
      t.ok(response.rawPayload.equals(original), 'byte for byte');
      t.equal(response.headers['content-type'], 'image/jpeg');
      t.equal(response.headers['x-content-type-options'], 'nosniff', 'served as the type it was stored with, never sniffed');
      t.equal(response.headers['cache-control'], CACHE_CONTROL);
      t.match(response.headers.etag, /^"[A-Za-z0-9_-]{20,}"$/, 'strong: no W/');
      t.equal(Number(response.headers['content-length']), original.length);
      t.notOk(response.headers['x-ratelimit-resource'], 'not metered');
      t.equal(response.headers['access-control-allow-origin'], '*', 'any storefront may use it');
      t.equal(response.headers['cross-origin-resource-policy'], 'cross-origin');
      const again = await get(`/v1/image/${key}`);
      t.equal(again.headers.etag, response.headers.etag, 'the same tag each time');
    });

    t.test('If-None-Match with the tag → 304 without a body; another tag → 200', async (t) => {
      const { etag } = (await get(`/v1/image/${key}`)).headers as { etag: string };
      for (const header of [etag, `"nope", ${etag}`, `W/${etag}`, '*']) {
        const response = await get(`/v1/image/${key}`, { 'if-none-match': header });
        t.equal(response.statusCode, 304, header);
        t.equal(response.rawPayload.length, 0);
        t.equal(response.headers.etag, etag);
        t.equal(response.headers['cache-control'], CACHE_CONTROL);
      }
      t.equal((await get(`/v1/image/${key}`, { 'if-none-match': '"something-else"' })).statusCode, 200);
    });

    t.test('HEAD answers the headers of GET and no body', async (t) => {
      const full = await get(`/v1/image/${key}/-/resize/200x`);
      const head = await app.inject({ method: 'HEAD', url: `/v1/image/${key}/-/resize/200x` });
      t.equal(head.statusCode, 200);
      t.equal(head.rawPayload.length, 0);
      for (const name of ['content-type', 'etag', 'cache-control', 'content-length']) t.equal(head.headers[name], full.headers[name], name);
      t.equal((await app.inject({ method: 'HEAD', url: `/v1/image/images/${randomUUID()}.jpeg` })).statusCode, 404);
    });

    t.test('resize: by width, by height, into a box, each side up to the next step; aspect kept, enlarged at most to 4096, ETag of the variant', async (t) => {
      const cases: Array<[string, number, number]> = [
        ['resize/400x', 400, 500],
        ['resize/x300', 256, 320],
        ['resize/400x300', 256, 320],
        ['resize/300x1000', 320, 400],
        ['resize/390x', 400, 500],
        ['resize/x1000', 819, 1024],
        // 4096 wide would be 5120 high: the longer side stops at 4096.
        ['resize/4096x', 3277, 4096],
        ['resize/x4096', 3277, 4096],
      ];
      for (const [transform, width, height] of cases) {
        const response = await get(`/v1/image/${key}/-/${transform}`);
        t.equal(response.statusCode, 200, transform);
        t.equal(response.headers['content-type'], 'image/jpeg', `${transform}: the original's format`);
        t.equal(response.headers['cache-control'], CACHE_CONTROL);
        t.match(await decode(response.rawPayload), { format: 'jpeg', width, height }, transform);
      }
      const variant = await get(`/v1/image/${key}/-/resize/400x`);
      const stored = await get(`/v1/image/${key}`);
      t.not(variant.headers.etag, stored.headers.etag, 'a variant has its own tag');
      for (const same of ['resize/800x1000', 'resize/800x/-/format/jpeg', 'format/jpeg', 'resize/4096x/-/stretch/off', 'stretch/fill/-/resize/800x']) {
        const response = await get(`/v1/image/${key}/-/${same}`);
        t.equal(response.headers.etag, stored.headers.etag, `${same} changes nothing: the original`);
        t.ok(response.rawPayload.equals(original), `${same}: byte for byte`);
      }
      t.equal((await get(`/v1/image/${key}/-/resize/400x`, { 'if-none-match': String(variant.headers.etag) })).statusCode, 304);
    });

    t.test("stretch, Uploadcare's: a smaller original is enlarged by default, left as it is with stretch/off, centred on white with stretch/fill", async (t) => {
      const small = `uploads/${randomUUID()}.png`;
      const red = await sharp({ create: { width: 100, height: 125, channels: 3, background: { r: 200, g: 0, b: 0 } } }).png().toBuffer();
      await objects.put(small, red, { contentType: 'image/png' });
      const pixels = async (body: Buffer) => {
        const { data, info } = await sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        return { width: info.width, height: info.height, at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)] };
      };
      const RED = [200, 0, 0];
      const WHITE = [255, 255, 255];

      for (const stretch of ['', '/-/stretch/on']) {
        const enlarged = await get(`/v1/image/${small}/-/resize/200x${stretch}`);
        t.equal(enlarged.statusCode, 200);
        const image = await pixels(enlarged.rawPayload);
        t.same([image.width, image.height, image.at(0, 0), image.at(199, 249)], [200, 250, RED, RED], `resize/200x${stretch}: enlarged, red to the corners`);
      }
      const capped = await pixels((await get(`/v1/image/${small}/-/resize/4096x`)).rawPayload);
      t.same([capped.width, capped.height], [3277, 4096], 'enlarged until the longer side is 4096');

      const stored = await get(`/v1/image/${small}`);
      const off = await get(`/v1/image/${small}/-/stretch/off/-/resize/200x`);
      t.same([off.statusCode, off.headers.etag, off.rawPayload.equals(red)], [200, stored.headers.etag, true], 'stretch/off: the original, byte for byte');
      const offWebp = await get(`/v1/image/${small}/-/resize/200x/-/stretch/off/-/format/webp`);
      t.match(await decode(offWebp.rawPayload), { format: 'webp', width: 100, height: 125 }, 'stretch/off with another format: re-encoded at its own size');

      const filled = await pixels((await get(`/v1/image/${small}/-/stretch/fill/-/resize/200x/-/format/png`)).rawPayload);
      t.same([filled.width, filled.height], [200, 250], 'stretch/fill: the size asked');
      // The original at its own size, centred: 50 px of white either side, 62 above and 63 below.
      t.same([filled.at(50, 62), filled.at(149, 186), filled.at(100, 125)], [RED, RED, RED], 'the original, not enlarged, in the middle');
      t.same([filled.at(0, 0), filled.at(49, 125), filled.at(150, 125), filled.at(100, 61), filled.at(100, 187), filled.at(199, 249)], Array(6).fill(WHITE), 'white around it');
      const box = await get(`/v1/image/${small}/-/resize/400x400/-/stretch/fill`);
      t.match(await decode(box.rawPayload), { format: 'png', width: 320, height: 400 }, 'a box: the size the enlarged original would have had');
    });

    t.test('format: each output decodes as what it says it is', async (t) => {
      for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
        const response = await get(`/v1/image/${key}/-/resize/200x/-/format/${format}`);
        t.equal(response.statusCode, 200, format);
        t.equal(response.headers['content-type'], `image/${format}`);
        // libvips reports AVIF as heif.
        t.match(await decode(response.rawPayload), { format: format === 'avif' ? 'heif' : format, width: 200, height: 250 }, format);
      }
      // A GIF is served as stored; its variants are JPEG unless a format is asked for.
      const gif = `uploads/${randomUUID()}.gif`;
      await objects.put(gif, await sharp(original).resize({ width: 100 }).gif().toBuffer(), { contentType: 'image/gif' });
      t.equal((await get(`/v1/image/${gif}`)).headers['content-type'], 'image/gif');
      const resized = await get(`/v1/image/${gif}/-/resize/50x`);
      t.equal(resized.headers['content-type'], 'image/jpeg');
      t.match(await decode(resized.rawPayload), { format: 'jpeg', width: 64 });
    });

    t.test('quality: lower quality, fewer bytes, in every lossy format and in PNG (palette); made at the nearest level', async (t) => {
      for (const format of ['jpeg', 'webp', 'avif', 'png']) {
        const sizes: number[] = [];
        for (const quality of [90, 60, 40]) {
          const response = await get(`/v1/image/${key}/-/format/${format}/-/quality/${quality}`);
          t.equal(response.statusCode, 200);
          t.match(await decode(response.rawPayload), { width: 800, height: 1000 });
          sizes.push(response.rawPayload.length);
        }
        // PNG's palette is about as small at 60 as at 40; the lossy formats shrink at every step.
        const smaller = format === 'png' ? sizes[0]! > sizes[1]! && sizes[0]! > sizes[2]! : sizes[0]! > sizes[1]! && sizes[1]! > sizes[2]!;
        t.ok(smaller, `${format}: ${sizes.join(', ')} bytes at quality 90, 60, 40`);
      }
      const levels = await Promise.all([1, 40, 49].map((quality) => get(`/v1/image/${key}/-/format/webp/-/quality/${quality}`)));
      t.same(levels.map((answer) => answer.headers.etag), Array(3).fill(levels[0]!.headers.etag), 'qualities 1, 40 and 49 are all made at 40');
    });

    t.test('the same chain in another order is the same variant: same bytes, same tag, kept once', async (t) => {
      const own = `images/${randomUUID()}.jpeg`;
      await objects.put(own, original, { contentType: 'image/jpeg' });
      const orders = ['-/resize/300x/-/format/webp/-/quality/60', '-/quality/60/-/resize/300x/-/format/webp', '-/format/webp/-/quality/60/-/resize/300x'];
      const answers: Awaited<ReturnType<typeof get>>[] = [];
      for (const order of orders) answers.push(await get(`/v1/image/${own}/${order}`));
      t.same(new Set(answers.map((a) => a.headers.etag)).size, 1);
      t.ok(answers.every((a) => a.rawPayload.equals(answers[0]!.rawPayload)));
      const version = versionTag((await objects.head(own))!.version);
      t.same(await objects.list(`variants/${own}/`), [`variants/${own}/${version}/resize-320x.format-webp.quality-60`], 'one stored variant, under the version of its original and the settled chain');
      const stored = await objects.get(`variants/${own}/${version}/resize-320x.format-webp.quality-60`);
      t.equal(stored?.contentType, 'image/webp');
      t.ok(stored?.body.equals(answers[0]!.rawPayload), 'the store holds what was served');
    });

    t.test('a variant kept in the store is served from there, by a process that never made it', async (t) => {
      const own = `images/${randomUUID()}.jpeg`;
      await objects.put(own, original, { contentType: 'image/jpeg' });
      const first = await get(`/v1/image/${own}/-/resize/100x`);
      // Another API process on the same store: its memory is empty, the store has the variant. It
      // reads the original's size from its header, and cannot make a variant at all.
      const measuring = sharpTransformer();
      const images = new ImageDelivery({ objects, transformer: { measure: (input) => measuring.measure(input), transform: () => Promise.reject(new Error('must not be made again')) } });
      const other = { app: await buildApi({ logger: createLogger({ level: 'silent' }), readiness: {}, routes: [imageRoutes({ images })] }) };
      t.teardown(() => other.app.close());
      const second = await other.app.inject({ url: `/v1/image/${own}/-/resize/101x` });
      t.equal(second.statusCode, 200, '101 px is made at 128, as 100 px was');
      t.ok(second.rawPayload.equals(first.rawPayload));
      t.equal(second.headers.etag, first.headers.etag, 'the tag is of the bytes, so every process agrees');
      t.equal((await other.app.inject({ url: `/v1/image/${own}/-/resize/200x` })).statusCode, 500, 'a variant not kept is made (and here cannot be)');
    });

    t.test('errors: missing key 404, malformed key or transform 400, an unreadable or bomb image 422; JSON, never 5xx', async (t) => {
      const missing = await get(`/v1/image/images/${randomUUID()}.jpeg`);
      t.equal(missing.statusCode, 404);
      t.match(missing.headers['content-type'], /^application\/json/);
      t.match(missing.json(), { error: /^Image not found: images\/.+\.jpeg$/ });
      t.equal(missing.headers['cache-control'], 'no-store', 'a 404 is not cached: the image may be uploaded next');
      t.equal((await get(`/v1/image/images/${randomUUID()}.jpeg/-/resize/100x`)).statusCode, 404, 'a variant of nothing');

      // docs/storefront.md: a malformed key is 400 `Invalid image key: …`, never "not found".
      const badKeys: Array<[string, RegExp]> = [
        ['/v1/image/', /^Invalid image key: "": empty$/],
        ['/v1/image/a//b.jpeg', /: empty path segment$/],
        ['/v1/image/has%20space.jpeg', /^Invalid image key: "has space\.jpeg": only letters, digits/],
        [`/v1/image/${'a'.repeat(1100)}`, /: longer than 1024 bytes$/],
        [`/v1/image/images/${'a'.repeat(300)}.jpeg`, /: a path segment is longer than 200 bytes$/],
      ];
      for (const [url, error] of badKeys) {
        const response = await get(url);
        t.same(response.statusCode, 400, url.slice(0, 40));
        t.match(response.json(), { error }, url.slice(0, 40));
      }
      // A `..` segment, sent as it is (app.inject, like a browser, would resolve it away first).
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const dotted = await exchange(port, Buffer.from('GET /v1/image/a/../b.jpeg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
      t.same([dotted.status, JSON.parse(dotted.body)], [400, { error: 'Invalid image key: "a/../b.jpeg": "." and ".." segments are not allowed' }], 'a/../b.jpeg');
      t.match((await get('/v1/image/a//b.jpeg')).json(), { error: /^Invalid image key: "a\/\/b\.jpeg": empty path segment$/ });
      const long = await get(`/v1/image/images/${'a'.repeat(300)}.jpeg/-/resize/100x`);
      t.equal(long.statusCode, 400, 'a segment no file system could name: refused by the key check');
      t.match(long.json(), { error: /: a path segment is longer than 200 bytes$/ });

      const blur = await get(`/v1/image/${key}/-/blur/4`);
      t.equal(blur.statusCode, 400);
      t.match(blur.json(), { error: 'Unknown transform "blur" in "-/blur/4": transforms are resize, stretch, format, quality.' });
      t.match((await get(`/v1/image/${key}/-/stretch/maybe/-/resize/100x`)).json(), { error: 'Invalid transform "-/stretch/maybe": stretch must be one of on, off, fill.' });
      t.match((await get(`/v1/image/${key}/-/resize/5000x`)).json(), { error: /"-\/resize\/5000x": width must be a whole number from 1 to 4096/ });
      t.match((await get(`/v1/image/${key}/-/format/gif`)).json(), { error: /format must be one of jpeg, png, webp, avif/ });
      const twice = await get(`/v1/image/${key}/-/resize/100x/-/resize/200x`);
      t.equal(twice.statusCode, 400);
      t.match(twice.json(), { error: /^Transform "resize" is given more than once/ });

      // Something in the store that is not an image is not served as one.
      const text = `uploads/${randomUUID()}.txt`;
      await objects.put(text, Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' });
      t.equal((await get(`/v1/image/${text}`)).statusCode, 404);
      // An image type over bytes that are not an image: served as stored, but no variant can be made.
      const broken = `uploads/${randomUUID()}.png`;
      await objects.put(broken, Buffer.from('not a png at all'), { contentType: 'image/png' });
      const unreadable = await get(`/v1/image/${broken}/-/resize/10x`);
      t.equal(unreadable.statusCode, 422);
      t.match(unreadable.json(), { error: /^The image cannot be transformed: it is not an image that can be read/ });
      // 3.6 gigapixels claimed in a few kilobytes: refused from the header, nothing decoded.
      const bomb = `uploads/${randomUUID()}.png`;
      const bombBytes = bombPng();
      t.ok(bombBytes.length < 100_000, `the bomb is ${bombBytes.length} bytes`);
      await objects.put(bomb, bombBytes, { contentType: 'image/png' });
      const rssBefore = process.memoryUsage().rss;
      const refused = await get(`/v1/image/${bomb}/-/resize/100x/-/format/webp`);
      t.equal(refused.statusCode, 422);
      t.match(refused.json(), { error: /60000×60000 pixels is over the limit of 50 megapixels/ });
      t.ok(process.memoryUsage().rss - rssBefore < 200 * 1024 * 1024, 'memory did not grow by the image');
      t.same(await objects.list(`variants/${bomb}`), [], 'nothing kept');
    });
  });
}

t.test('items link their photos through the route, and the demo catalogue photos load as images', async (t) => {
  const baseUrl = 'https://stylist.example.com';
  const service = await startTestService(t, { workers: ['ingest'], env: { BASE_URL: baseUrl } });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const datasetId = (await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Demo copy' } })).json().datasetId;
  const sample = generateDemoCatalogue().slice(0, 2);
  const upload = await service.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/items/upload`, headers, payload: { items: sample.map((p) => p.input) } });
  t.equal(upload.statusCode, 202);
  type Item = { itemId: string; product: { assets: { images: Array<{ uploaded: { id: string; key: string; url: string } }> } } };
  const items = await until(
    'the demo items to be processed',
    async () => (await service.app.inject({ url: `/v1/datasets/${datasetId}/items?limit=50`, headers })).json().items as Item[],
    (list) => list.length === sample.length,
  );
  for (const item of items) {
    t.ok(item.product.assets.images.length > 0, 'the item has photos');
    for (const { uploaded } of item.product.assets.images) {
      t.equal(uploaded.url, `${baseUrl}/v1/image/${uploaded.key}`, 'absolute URL on BASE_URL');
      t.match(uploaded.key, /^images\/[0-9a-f-]{36}\.jpeg$/);
      const path = new URL(uploaded.url).pathname;
      const photo = await service.app.inject({ url: path });
      t.equal(photo.statusCode, 200, path);
      t.equal(photo.headers['content-type'], 'image/jpeg');
      t.match(await decode(photo.rawPayload), { format: 'jpeg', width: 800, height: 1000 }, 'a decodable photo');
      const card = await service.app.inject({ url: `${path}/-/resize/320x/-/format/webp` });
      t.match(await decode(card.rawPayload), { format: 'webp', width: 320, height: 400 }, 'and a product-card variant of it');
    }
    const one = await service.app.inject({ url: `/v1/datasets/${datasetId}/items/${item.itemId}`, headers });
    t.same(one.json().item.product.assets.images, item.product.assets.images, 'the single-item response links the same way');
  }
  // Search results carry the same links.
  t.equal((await service.app.inject({ method: 'PATCH', url: `/v1/datasets/${datasetId}/activate`, headers })).statusCode, 200);
  const search = await service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: { query: sample[0]!.input.name, datasetIds: [datasetId] } });
  t.equal(search.statusCode, 200, search.body.slice(0, 200));
  const results = search.json().results as Item[];
  t.ok(results.length > 0, 'found');
  for (const result of results) {
    const listed = items.find((item) => item.itemId === result.itemId)!;
    t.same(result.product.assets.images.map((image) => image.uploaded), listed.product.assets.images.map((image) => image.uploaded), 'same urls as the item list');
  }
});

/** The route on a delivery of the test's own, with one transform slot and one place in the queue. */
async function tightApi(t: Test): Promise<{ app: FastifyInstance; key: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-images-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const images = new ImageDelivery({ objects, transformer: sharpTransformer(), slots: 1, maxQueued: 1 });
  const app = await buildApi({ logger: createLogger({ level: 'silent' }), readiness: {}, routes: [imageRoutes({ images })] });
  t.teardown(() => app.close());
  const key = `images/${randomUUID()}.jpeg`;
  await objects.put(key, await demoJpeg(1600), { contentType: 'image/jpeg' });
  return { app, key };
}

t.test('a burst of new variants past the queue is told to come back: 503 with Retry-After, the rest served', async (t) => {
  const { app, key } = await tightApi(t);
  const widths = [200, 240, 256, 320, 400, 480, 512, 600];
  const answers = await Promise.all(widths.map((width) => app.inject({ url: `/v1/image/${key}/-/resize/${width}x` })));
  const statuses = answers.map((a) => a.statusCode).sort();
  // One running and one queued are served; the rest are refused (more are served only if the first
  // job ends before the last request arrives, which a very slow machine could do).
  t.ok(statuses.filter((s) => s === 200).length >= 2, `running and queued ones are served (${statuses.join(' ')})`);
  t.ok(statuses.filter((s) => s === 503).length >= 4, 'the rest are told to come back');
  t.same(statuses.filter((s) => s !== 200 && s !== 503), [], 'nothing else');
  for (const busy of answers.filter((a) => a.statusCode === 503)) {
    t.equal(busy.headers['retry-after'], '1');
    t.match(busy.json(), { error: 'Too many images are being resized right now. Try again shortly.' });
  }
  // Once the burst is over, the same requests succeed.
  for (const width of widths.slice(2, 4)) t.equal((await app.inject({ url: `/v1/image/${key}/-/resize/${width}x` })).statusCode, 200);
});

t.test('a burst for one new variant is one sharp job: every request gets the same bytes', async (t) => {
  const { app, key } = await tightApi(t);
  const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject({ url: `/v1/image/${key}/-/resize/400x/-/format/webp` })));
  t.same([...new Set(answers.map((a) => a.statusCode))], [200], 'with one slot and one queue place, all 20 are served: they share one job');
  t.equal(new Set(answers.map((a) => a.headers.etag)).size, 1);
  t.match(await decode(answers[0]!.rawPayload), { format: 'webp', width: 400, height: 500 });
});
