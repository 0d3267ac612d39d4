// POST /v2/agent/match through HTTP: a store synced from local storefronts in two markets (Canada,
// the home market, and the US at other prices, one product sold out there) whose products are the
// demo catalogue's (their photos drawn by the ingest, labelled offline); photos of a drawn figure
// wearing some of them (test/support/match-photos.ts) are matched back to those products offline,
// re-priced by country, never showing what the shopper cannot buy. Then the 422s, the demo key's
// 403, a photo by URL refused on loopback by the outbound guard and fetched with
// OUTBOUND_ALLOW_PRIVATE, and the vision-model path against a local fake OpenAI-compatible
// server, with the offline reading answering when the model fails or is slow.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import t from 'tap';
import { demoPhotoUrl, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import { MATCH_LIMITS } from '../../domain/match/request.js';
import { startFakeOpenAi, type FakeReply } from '../support/fake-openai.js';
import { bombPng } from '../support/images.js';
import { dataUri, outfitPhotos, solidOnly, wearable, type OutfitPhoto } from '../support/match-photos.js';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { startTestService, type TestService } from '../support/service.js';
import { startShopifyStore } from '../support/shopify-store.js';
import { until } from '../support/until.js';

const ANSWERS_SEED = 4242;

const shopifyProduct = (product: DemoProduct, id: number, price: number, available = true) => ({
  id,
  title: product.input.name,
  handle: `p-${id}`,
  product_type: product.input.productType,
  options: [{ name: 'Size' }],
  images: [{ id: id * 10, src: demoPhotoUrl(String(product.input.sku), 0) }],
  variants: [{ id: id * 10 + 1, title: 'M', option1: 'M', sku: String(product.input.sku), price: price.toFixed(2), compare_at_price: null, available }],
});

interface World {
  a: TestService;
  b: TestService;
  publicKey: string;
  outfits: OutfitPhoto[];
  /** A top of an outfit, sold out in the US market. */
  soldOutInUs: string;
  priceOf: Map<string, { ca: number; us: number }>;
}

const world: Promise<World> = (async () => {
  const catalogue = wearable();
  // Plain pieces, so each has one right answer; bench/match.ts measures prints too.
  const photos = await outfitPhotos(ANSWERS_SEED, 3, solidOnly(catalogue));
  // What the photos wear, and others of each kind to choose from.
  const chosen = new Map<string, DemoProduct>();
  for (const outfit of photos) for (const p of outfit.products) chosen.set(String(p.input.sku), p);
  for (const p of [...catalogue.top.slice(0, 6), ...catalogue.bottom.slice(0, 4), ...catalogue.dress.slice(0, 3), ...catalogue.footwear.slice(0, 4)]) chosen.set(String(p.input.sku), p);
  const products = [...chosen.values()];
  // The Shopify product id is the item's sku: the photos' answers in those terms.
  const idOf = new Map(products.map((p, i) => [String(p.input.sku), String(i + 1)]));
  const outfits = photos.map((photo) => ({ ...photo, answer: Object.fromEntries(Object.entries(photo.answer).map(([slot, sku]) => [slot, idOf.get(sku!)!])) }));
  const soldOutInUs = outfits[0]!.answer.top!;
  const priceOf = new Map(products.map((_p, i) => [String(i + 1), { ca: 40 + i, us: 30 + i }]));
  const home = await startShopifyStore(t, { photos: 'asis', products: products.map((p, i) => shopifyProduct(p, i + 1, priceOf.get(String(i + 1))!.ca)) });
  const us = await startShopifyStore(t, {
    photos: 'asis',
    products: products.map((p, i) => shopifyProduct(p, i + 1, priceOf.get(String(i + 1))!.us, String(i + 1) !== soldOutInUs)),
  });

  const a = await startTestService(t, { workers: ['sync', 'ingest'], env: LOCAL_STORES_ENV });
  const org = await a.cli(['org', 'create', '--name', 'Match House', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await a.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Match House', config: { currency: 'CAD' } })).body.datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const created = await call('POST', `/v1/datasets/${datasetId}/sources`, {
    type: 'shopify-api',
    endpoint: home.url,
    syncPeriod: 0,
    markets: [
      { handle: 'ca', countries: ['CA'], currency: 'CAD' },
      { handle: 'us', countries: ['US'], currency: 'USD', endpoint: us.url },
    ],
    defaultMarket: 'ca',
  });
  if (created.status !== 201) throw new Error(`source: ${JSON.stringify(created.body)}`);
  await until('items listed', async () => (await call('GET', `/v1/datasets/${datasetId}/items?limit=200`)).body.items?.length ?? 0, (n) => n === products.length, { timeoutMs: 60_000, everyMs: 250 });
  // The search read model follows the items: ready once the last product's name finds it.
  const last = products.at(-1)!;
  await until(
    'the search read model',
    async () => (await a.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: { query: last.input.name, limit: 5 } })).json().results?.map((r: any) => r.product.sku) ?? [],
    (skus: string[]) => skus.includes(String(products.length)),
    { timeoutMs: 30_000, everyMs: 100 },
  );
  // The same database, the outbound guard on (no OUTBOUND_ALLOW_PRIVATE).
  const b = await startTestService(t, { shareWith: a });
  return { a, b, publicKey: org.publicKey as string, outfits, soldOutInUs, priceOf };
})();

const match = (service: TestService, key: string, payload: object) =>
  service.app.inject({ method: 'POST', url: '/v2/agent/match', headers: { authorization: `Bearer ${key}` }, payload });

const skusOf = (list: any[]) => list.map((p) => p.product.sku as string);

t.test('offline: each piece of each photo finds its product among the first five', async (t) => {
  const { b, publicKey, outfits } = await world;
  for (const [i, outfit] of outfits.entries()) {
    const response = await match(b, publicKey, { image: dataUri(outfit.png), country: 'CA' });
    t.equal(response.statusCode, 200, response.body.slice(0, 300));
    const body = response.json();
    t.same(Object.keys(body).sort(), ['market', 'pieces']);
    t.same(body.market, { country: 'CA', currency: 'CAD', exact: true });
    for (const [slot, sku] of Object.entries(outfit.answer)) {
      const piece = body.pieces.find((p: any) => p.slot === slot);
      t.ok(piece, `photo ${i}: a ${slot} piece (${body.pieces.map((p: any) => `${p.slot}:${p.colorFamily}`).join(', ')})`);
      if (!piece) continue;
      t.ok(skusOf(piece.products).includes(sku), `photo ${i}: ${sku} among the ${slot}'s best (${skusOf(piece.products).join(', ')})`);
      t.ok(piece.products.length <= MATCH_LIMITS.products && piece.alternates.length <= MATCH_LIMITS.alternates);
      for (const f of ['x', 'y', 'width', 'height']) t.ok(piece.region[f] >= 0 && piece.region[f] <= 1, `region.${f} is a fraction`);
      for (const p of [...piece.products, ...piece.alternates]) {
        t.equal(p.metadata.slot, slot, 'every product is of the piece’s slot');
        t.match(p, { itemId: String, datasetId: String, score: Number, product: { available: true, currency: 'CAD', market: 'ca' } });
      }
    }
  }
});

t.test('re-priced in the shopper’s market; what cannot be bought there is never shown', async (t) => {
  const { b, publicKey, outfits, soldOutInUs, priceOf } = await world;
  const photo = dataUri(outfits[0]!.png);
  const all = (body: any) => body.pieces.flatMap((p: any) => [...p.products, ...p.alternates]);
  const ca = (await match(b, publicKey, { image: photo, country: 'ca' })).json();
  t.ok(skusOf(all(ca)).includes(soldOutInUs), 'in Canada the top is shown');
  const us = await match(b, publicKey, { image: photo, country: 'US' });
  t.equal(us.statusCode, 200);
  const body = us.json();
  t.same(body.market, { country: 'US', currency: 'USD', exact: true });
  t.notOk(skusOf(all(body)).includes(soldOutInUs), 'sold out in the US: not shown to a US shopper');
  t.ok(all(body).length > 0);
  for (const p of all(body)) {
    t.match(p.product, { currency: 'USD', market: 'us', available: true, marketExact: true });
    t.equal(p.product.price, priceOf.get(p.product.sku)!.us, `${p.product.sku} at its US price`);
  }
});

t.test('a photo that cannot be matched is a 422 saying why', async (t) => {
  const { b, publicKey } = await world;
  const cases: Array<[string, unknown, string]> = [
    ['no image', undefined, 'image must be a data URI'],
    ['not a string', 42, 'image must be a data URI'],
    ['a data URI of another type', 'data:text/plain;base64,aGVsbG8=', 'image must be a data URI'],
    ['bytes that are not an image', `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`, 'image could not be read as a JPEG, PNG, WebP, GIF or AVIF image.'],
    ['a truncated JPEG', 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==', 'image could not be read as a JPEG, PNG, WebP, GIF or AVIF image.'],
    ['too many pixels (from the header, never decoded)', dataUri(bombPng(6_000)), 'image is over 25 megapixels.'],
    ['over 5 MB', `data:image/png;base64,${Buffer.alloc(MATCH_LIMITS.imageBytes + 10).toString('base64')}`, 'image is over 5 MB.'],
    ['an ftp URL', 'ftp://example.com/a.png', 'image must be a data URI'],
    ['a file URL', 'file:///etc/passwd', 'image must be a data URI'],
    ['a plain http URL', 'http://example.com/a.png', 'image must be a data URI'],
  ];
  for (const [what, image, message] of cases) {
    const response = await match(b, publicKey, image === undefined ? {} : { image });
    t.equal(response.statusCode, 422, what);
    t.match(response.json().error, message, what);
  }
  const country = await match(b, publicKey, { image: 'https://example.com/a.png', country: 'Canada' });
  t.equal(country.statusCode, 422);
  t.equal(country.json().error, 'country must be a 2-letter ISO 3166-1 country code.');
});

t.test('the demo key is refused with document 1’s 403', async (t) => {
  const { b, outfits } = await world;
  const response = await match(b, 'sgpt-pk-demo', { image: dataUri(outfits[0]!.png) });
  t.equal(response.statusCode, 403);
  t.same(response.json(), { error: 'Demo mode is not supported on this API route. Check the documentation for available demo endpoints.' });
});

t.test('a photo by URL: refused on loopback by the outbound guard, fetched with OUTBOUND_ALLOW_PRIVATE', async (t) => {
  const { a, b, publicKey, outfits } = await world;
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'content-type': 'image/png' }).end(outfits[0]!.png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;

  const refused = await match(b, publicKey, { image: `https://127.0.0.1:${port}/look.png` });
  t.equal(refused.statusCode, 422);
  t.match(refused.json().error, /^image URL was not fetched: 127\.0\.0\.1 is .*loopback/);
  t.equal(hits, 0, 'not a packet sent');
  const named = await match(b, publicKey, { image: `https://localhost:${port}/look.png` });
  t.equal(named.statusCode, 422, 'localhost too');

  const fetched = await match(a, publicKey, { image: `http://127.0.0.1:${port}/look.png`, country: 'CA' });
  t.equal(fetched.statusCode, 200, fetched.body.slice(0, 300));
  const top = fetched.json().pieces.find((p: any) => p.slot === 'top');
  t.ok(top && skusOf(top.products).includes(outfits[0]!.answer.top!), 'the fetched photo is matched like the sent one');
  t.equal(hits, 1);
});

t.test('with a vision model: it names the pieces; when it fails or is slow the photo is read offline', async (t) => {
  const { a, publicKey, outfits } = await world;
  const outfit = outfits[0]!;
  const top = outfit.products.find((p) => p.facts.slot === 'top')!;
  let reply: FakeReply = { text: ['{}'] };
  const fake = await startFakeOpenAi(t, () => reply);
  const c = await startTestService(t, {
    shareWith: a,
    env: { STYLIST_VISION_MODEL: 'vision-test', OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-test', MATCH_VISION_TIMEOUT_SECONDS: '1' },
  });
  const pieces = {
    pieces: [
      { slot: 'top', color_family: top.facts.colourFamily, colour: top.facts.colours[0], pattern: top.facts.pattern, description: top.input.name, box: [0.2, 0.15, 0.6, 0.35] },
      { slot: 'headwear', color_family: 'not-a-family', colour: 'zzz', pattern: 'solid', description: 'a hat', box: [0, 0, 1, 1] },
    ],
  };
  reply = { text: [JSON.stringify(pieces)] };
  const named = await match(c, publicKey, { image: dataUri(outfit.png), country: 'CA' });
  t.equal(named.statusCode, 200, named.body.slice(0, 300));
  const body = named.json();
  t.same(body.pieces.map((p: any) => p.slot), ['top'], 'the model’s pieces, the one outside the vocabularies dropped');
  t.same(body.pieces[0].region, { x: 0.2, y: 0.15, width: 0.6, height: 0.35 });
  t.equal(body.pieces[0].colorFamily, top.facts.colourFamily);
  t.ok(skusOf(body.pieces[0].products).includes(outfit.answer.top!), `the named top is found (${skusOf(body.pieces[0].products).join(', ')})`);
  const sent = fake.requests.at(-1)!.body;
  t.equal(sent.model, 'vision-test');
  t.match(JSON.stringify(sent.messages), /data:image\/jpeg;base64,/, 'the photo went to the model');

  const offline = (body: any) => body.pieces.map((p: any) => p.slot).sort();
  for (const [what, failure] of [
    ['a 500', { status: 500 }],
    ['an answer that is not JSON', { text: ['I think it is a shirt'] }],
    ['an answer of the wrong shape', { text: ['{"pieces": "many"}'] }],
  ] as Array<[string, FakeReply]>) {
    reply = failure;
    const response = await match(c, publicKey, { image: dataUri(outfit.png) });
    t.equal(response.statusCode, 200, what);
    t.same(offline(response.json()), Object.keys(outfit.answer).sort(), `${what}: the offline pieces answer`);
  }
  reply = { delayMs: 5_000, then: { text: [JSON.stringify(pieces)] } };
  const started = Date.now();
  const slow = await match(c, publicKey, { image: dataUri(outfit.png) });
  t.equal(slow.statusCode, 200);
  t.ok(Date.now() - started < 3_000, `a slow model is not waited for past its timeout (${Date.now() - started} ms)`);
  t.same(offline(slow.json()), Object.keys(outfit.answer).sort(), 'the offline pieces answer');
});

t.test('photos are read within the per-core slots: past the line, a 503 with Retry-After', async (t) => {
  const { a, publicKey, outfits } = await world;
  const d = await startTestService(t, { shareWith: a, env: { MATCH_SLOTS: '1', MATCH_MAX_QUEUED: '0' } });
  // A big photo, so the first request still holds the one slot when the others come.
  const big = `data:image/jpeg;base64,${(await sharp(outfits[0]!.png).resize(2400, 3600).jpeg({ quality: 95 }).toBuffer()).toString('base64')}`;
  const answers = await Promise.all(Array.from({ length: 4 }, () => match(d, publicKey, { image: big })));
  const statuses = answers.map((r) => r.statusCode).sort();
  t.equal(statuses[0], 200, `one is read (${statuses.join(', ')})`);
  const busy = answers.filter((r) => r.statusCode === 503);
  t.ok(busy.length >= 1, 'the others are told to come back');
  for (const response of busy) {
    t.equal(response.headers['retry-after'], '1');
    t.equal(response.json().error, 'Too many photos are being read right now. Try again shortly.');
  }
});
