// POST /v2/agent/looks through HTTP: the offline picture (its size, its layout, the same bytes for
// the same request), every refusal (fields, items out of scope, the demo key, try-on turned off or
// without a model, a photo on a private address), and with a fake image model: its picture, the
// try-on photo handed to it, the offline picture when it fails or is slow, and 503 when every
// render slot is taken.
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { product, variant } from '../support/items.js';
import { startFakeOpenAiImages, type FakeImageRequest, type FakeImageReply } from '../support/fake-openai-images.js';
import { productShot, startPhotoServer, type PhotoServer } from '../support/photo-server.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';

const COLOURS = { top: '#c0392b', bottom: '#1f4e9c', footwear: '#222222', bag: '#2e8b57' } as const;

interface Store {
  service: TestService;
  publicKey: string;
  privateKey: string;
  datasetId: string;
  /** itemId by sku. */
  items: Map<string, string>;
  photos: PhotoServer;
}

/** An organization with one active dataset: a red tee, blue jeans, black boots and a green tote, each with its photo. */
async function storeOf(t: Test, env: Record<string, string>, withPhotos = true): Promise<Store> {
  const photos = await startPhotoServer(t, {
    '/tee.jpg': await productShot(COLOURS.top, 'jpeg'),
    '/jeans.png': await productShot(COLOURS.bottom),
    '/boots.jpg': await productShot(COLOURS.footwear, 'jpeg'),
    '/tote.jpg': await productShot(COLOURS.bag, 'jpeg'),
    '/me.jpg': await productShot('#e0b090', 'jpeg', 600),
  });
  const service = await startTestService(t, { workers: ['ingest'], env });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const call = (method: 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers: { authorization: `Bearer ${org.privateKey}` }, payload });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main', config: { storeUrl: 'https://acme.example.com', storeName: 'Acme', currency: 'EUR' } })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const image = (path: string) => (withPhotos ? { images: [{ src: `${photos.url}${path}` }] } : { images: [] });
  const products = [
    product('TEE-RED', "Women's Red Cotton T-Shirt", 'T-Shirts', 25, [variant('TR-S', 'S', 25)], image('/tee.jpg')),
    product('JEANS-BLUE', "Women's Blue Straight Jeans", 'Jeans', 80, [variant('JB-28', '28', 80)], image('/jeans.png')),
    product('BOOT-BLACK', "Women's Black Leather Chelsea Boots", 'Boots', 150, [variant('BB-38', '38', 150)], image('/boots.jpg')),
    product('TOTE-GREEN', 'Green Canvas Tote Bag', 'Bags', 40, [variant('TG-1', 'One Size', 40)], image('/tote.jpg')),
    product('SOLD-OUT', "Women's Grey Wool Sweater", 'Sweaters', 90, [variant('GS-S', 'S', 90, false)], image('/tee.jpg')),
  ];
  const upload = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: products });
  const items = new Map<string, string>(upload.json().queued.map((q: { sku: string; itemId: string }) => [q.sku, q.itemId]));
  await until(
    'the items processed',
    async () => (await service.app.inject({ url: `/v1/datasets/${datasetId}/items?limit=1`, headers: { authorization: `Bearer ${org.privateKey}` } })).json().pagination?.total ?? 0,
    (count) => count === products.length,
    { timeoutMs: 30_000, everyMs: 100 },
  );
  await until('the search index caught up', async () => (await service.platform.projections.status()).find((p) => p.name === 'search_index')?.lag, (lag) => lag === 0, { timeoutMs: 30_000 });
  return { service, publicKey: org.publicKey, privateKey: org.privateKey, datasetId, items, photos };
}

const look = (store: Store, body: object, key = store.publicKey) =>
  store.service.app.inject({ method: 'POST', url: '/v2/agent/looks', headers: { authorization: `Bearer ${key}` }, payload: body });

const decode = async (imageData: string) => {
  const match = /^data:(image\/[a-z]+);base64,(.+)$/.exec(imageData);
  if (!match) throw new Error(`not a data URI: ${imageData.slice(0, 40)}`);
  const bytes = Buffer.from(match[2]!, 'base64');
  return { contentType: match[1], bytes, meta: await sharp(bytes).metadata() };
};

const pixelAt = async (jpeg: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
};
const hex = (colour: string) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
const near = (a: number[], b: number[], tolerance = 40) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

t.test('offline (no image model)', async (t) => {
  const store = await storeOf(t, { OUTBOUND_ALLOW_PRIVATE: 'true' });
  const outfit = ['TEE-RED', 'JEANS-BLUE', 'BOOT-BLACK', 'TOTE-GREEN'].map((sku) => store.items.get(sku)!);

  t.test('a 4-item look: the picture is the offline composition, its size that of the ratio, the same bytes each time', async (t) => {
    // In an odd order: the layout, not the request, decides where each piece goes.
    const body = { label: 'Weekend in town', itemIds: [outfit[2], outfit[3], outfit[1], outfit[0]], preferences: { showPrices: true } };
    const first = await look(store, body);
    t.equal(first.statusCode, 200, first.statusCode === 200 ? 'answered' : first.body);
    const { visualization } = first.json();
    t.match(visualization, { contentType: 'image/jpeg', width: 768, height: 1024, aspectRatio: '3:4', source: 'offline', fallbackReason: null, tryOn: false, label: 'Weekend in town' });
    const picture = await decode(visualization.imageData);
    t.equal(picture.contentType, 'image/jpeg');
    t.same([picture.meta.width, picture.meta.height], [768, 1024]);
    const second = (await look(store, body)).json().visualization;
    t.equal(second.imageData, visualization.imageData, 'the same request, the same bytes');

    const bySku = new Map<string, any>(visualization.items.map((item: any) => [[...store.items].find(([, id]) => id === item.itemId)![0], item]));
    t.same([...bySku.values()].map((item) => item.photo), [true, true, true, true], 'every stored photo drawn');
    t.match(bySku.get('TEE-RED'), { slot: 'top', price: 25, currency: 'EUR', name: "Women's Red Cotton T-Shirt" });
    const region = (sku: string) => bySku.get(sku).region as { x: number; y: number; width: number; height: number };
    t.ok(region('TEE-RED').y + region('TEE-RED').height <= region('JEANS-BLUE').y, 'the top above the bottom');
    t.ok(region('JEANS-BLUE').y + region('JEANS-BLUE').height <= region('BOOT-BLACK').y, 'the bottom above the footwear');
    t.ok(region('TOTE-GREEN').x >= region('TEE-RED').x + region('TEE-RED').width, 'the bag beside');
    for (const [sku, slot] of [['TEE-RED', 'top'], ['JEANS-BLUE', 'bottom'], ['BOOT-BLACK', 'footwear'], ['TOTE-GREEN', 'bag']] as const) {
      const r = region(sku);
      t.ok(near(await pixelAt(picture.bytes, r.x + r.width / 2, r.y + r.height * 0.4), hex(COLOURS[slot])), `${sku}'s photo where its region says`);
    }
  });

  t.test('aspect ratios: any W:H between 1:3 and 3:1; a repeated item is drawn once', async (t) => {
    const wide = (await look(store, { itemIds: [outfit[0], outfit[0], outfit[1]], preferences: { aspectRatio: '16:9' } })).json().visualization;
    t.same([wide.width, wide.height, wide.aspectRatio], [1024, 576, '16:9']);
    t.equal(wide.items.length, 2);
    const meta = (await decode(wide.imageData)).meta;
    t.same([meta.width, meta.height], [1024, 576]);
  });

  t.test('422s: fields out of bounds, each with its message', async (t) => {
    const cases: Array<[object, RegExp]> = [
      [{}, /^itemIds must be an array of 1 to 8 item ids\.$/],
      [{ itemIds: [] }, /^itemIds must be an array of 1 to 8 item ids\.$/],
      [{ itemIds: Array.from({ length: 9 }, () => outfit[0]) }, /^itemIds must be an array of 1 to 8/],
      [{ itemIds: ['nope'] }, /^itemIds must be/],
      [{ itemIds: [outfit[0]], label: 'x'.repeat(81) }, /^label must be a string of at most 80 characters\.$/],
      [{ itemIds: [outfit[0]], customInstructions: 'x'.repeat(1001) }, /^customInstructions must be a string of at most 1000/],
      [{ itemIds: [outfit[0]], preferences: { aspectRatio: '4:1' } }, /^preferences\.aspectRatio must be W:H in whole numbers from 1 to 21/],
      [{ itemIds: [outfit[0]], preferences: { aspectRatio: '0:1' } }, /^preferences\.aspectRatio must be/],
      [{ itemIds: [outfit[0]], preferences: { aspectRatio: '22:21' } }, /^preferences\.aspectRatio must be/],
      [{ itemIds: [outfit[0]], preferences: 'big' }, /^preferences must be an object\.$/],
      [{ itemIds: [outfit[0]], userPhotoUrl: 'ftp://x/y.jpg' }, /^userPhotoUrl must be an http or https URL/],
      [{ itemIds: [outfit[0]], country: 'USA' }, /^country must be a 2-letter/],
    ];
    for (const [body, message] of cases) {
      const response = await look(store, body);
      t.equal(response.statusCode, 422, JSON.stringify(body).slice(0, 80));
      t.match(response.json().error, message);
    }
  });

  t.test('items out of scope: unknown, another organization\'s, sold out: one 422 naming them, nothing drawn', async (t) => {
    const other = await store.service.cli(['org', 'create', '--name', 'Other', '--json']);
    const unknown = '00000000-0000-4000-8000-000000000001';
    const soldOut = store.items.get('SOLD-OUT')!;
    const response = await look(store, { itemIds: [outfit[0], unknown, soldOut] });
    t.equal(response.statusCode, 422);
    t.same(response.json(), { error: `Unknown or unavailable items: ${unknown}, ${soldOut}.`, itemIds: [unknown, soldOut] });
    // Another organization's key does not see this store's items.
    const foreign = await look(store, { itemIds: [outfit[0]] }, other.publicKey);
    t.equal(foreign.statusCode, 422);
    t.equal(foreign.json().error, `Unknown or unavailable items: ${outfit[0]}.`);
  });

  t.test('keys: the demo key draws its own looks but no try-on, never another organization\'s items; a private key is refused', async (t) => {
    const demo = await look(store, { itemIds: [outfit[0]] }, 'sgpt-pk-demo');
    t.equal(demo.statusCode, 422, 'the demo organization does not see this store');
    t.equal(demo.json().error, `Unknown or unavailable items: ${outfit[0]}.`);
    const tryOn = await look(store, { itemIds: [outfit[0]], userPhotoUrl: `${store.photos.url}/me.jpg` }, 'sgpt-pk-demo');
    t.equal(tryOn.statusCode, 403, 'no shopper photo on the shared demo key');
    t.equal(tryOn.json().error, 'Demo mode is not supported on this API route. Check the documentation for available demo endpoints.');
    const privateKey = await look(store, { itemIds: [outfit[0]] }, store.privateKey);
    t.equal(privateKey.statusCode, 401, 'a private key is not a public key');
  });

  t.test('try-on offline: 422 saying it needs an image model; with styling.tryOn off: 403', async (t) => {
    const userPhotoUrl = `${store.photos.url}/me.jpg`;
    const offline = await look(store, { itemIds: [outfit[0]], userPhotoUrl });
    t.equal(offline.statusCode, 422);
    t.equal(offline.json().error, 'Try-on needs an image model and this service has none configured (STYLIST_IMAGE_MODEL): send the look without userPhotoUrl.');
    const put = await store.service.app.inject({ method: 'PUT', url: `/v1/datasets/${store.datasetId}/styling`, headers: { authorization: `Bearer ${store.privateKey}` }, payload: { styling: { tryOn: false } } });
    t.equal(put.statusCode, 200);
    const off = await look(store, { itemIds: [outfit[0]], userPhotoUrl });
    t.equal(off.statusCode, 403);
    t.equal(off.json().error, 'Try-on is turned off for this store (styling.tryOn): send the look without userPhotoUrl.');
    t.equal((await look(store, { itemIds: [outfit[0]] })).statusCode, 200, 'a look without the photo is still drawn');
    t.equal(store.photos.hits.get('/me.jpg') ?? 0, 0, 'the photo was never fetched');
  });
});

t.test('with an image model', async (t) => {
  const fake = await startFakeOpenAiImages(t, (request: FakeImageRequest): FakeImageReply => {
    if (request.prompt.includes('FAIL')) return { status: 500 };
    if (request.prompt.includes('SLOW')) return { delayMs: 4000, then: { colour: '#ffff00' } };
    return { colour: '#8040c0' };
  });
  const store = await storeOf(t, {
    OUTBOUND_ALLOW_PRIVATE: 'true',
    STYLIST_IMAGE_MODEL: 'gpt-image-1',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: 'sk-test-looks',
    STYLIST_IMAGE_TIMEOUT_SECONDS: '1',
    LOOKS_RENDER_SLOTS: '1',
    LOOKS_RENDER_QUEUE: '0',
  });
  const outfit = ['TEE-RED', 'JEANS-BLUE', 'BOOT-BLACK'].map((sku) => store.items.get(sku)!);

  t.test("the model's picture, cropped to the ratio; the offline composition sent as its reference", async (t) => {
    const response = await look(store, { itemIds: outfit, customInstructions: 'On a city street', preferences: { aspectRatio: '1:1' } });
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body);
    const { visualization } = response.json();
    t.match(visualization, { source: 'model', fallbackReason: null, width: 1024, height: 1024, tryOn: false });
    const picture = await decode(visualization.imageData);
    t.same([picture.meta.width, picture.meta.height], [1024, 1024]);
    t.ok(near(await pixelAt(picture.bytes, 512, 512), [128, 64, 192]), "the model's picture");
    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1/images/edits');
    t.equal(sent.model, 'gpt-image-1');
    t.equal(sent.files.length, 1, 'one reference: the composition');
    t.match(sent.prompt, /Women's Red Cotton T-Shirt/);
    t.match(sent.prompt, /On a city street/);
  });

  t.test('try-on: the photo fetched (loopback allowed by OUTBOUND_ALLOW_PRIVATE) and sent beside the composition', async (t) => {
    const response = await look(store, { itemIds: outfit, userPhotoUrl: `${store.photos.url}/me.jpg` });
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.body);
    t.match(response.json().visualization, { source: 'model', tryOn: true });
    t.equal(fake.requests.at(-1)!.files.length, 2);
    t.equal(store.photos.hits.get('/me.jpg'), 1);
    const notImage = await look(store, { itemIds: outfit, userPhotoUrl: `${store.photos.url}/not-an-image.jpg` });
    t.equal(notImage.statusCode, 422);
    t.equal(notImage.json().error, 'userPhotoUrl could not be used: it is not a JPEG, PNG, WebP or AVIF picture.');
    const missing = await look(store, { itemIds: outfit, userPhotoUrl: `${store.photos.url}/missing.jpg` });
    t.equal(missing.json().error, 'userPhotoUrl could not be used: its server answered 404.');
  });

  t.test('the model fails: the offline composition, with the reason (never the API key)', async (t) => {
    const response = await look(store, { itemIds: outfit, customInstructions: 'FAIL please' });
    t.equal(response.statusCode, 200);
    const { visualization } = response.json();
    t.equal(visualization.source, 'offline');
    t.match(visualization.fallbackReason, /^gpt-image-1: /);
    t.notMatch(visualization.fallbackReason, /sk-test-looks/);
    const offline = await decode(visualization.imageData);
    const r = visualization.items[0].region;
    t.ok(near(await pixelAt(offline.bytes, r.x + r.width / 2, r.y + r.height * 0.4), hex(COLOURS.top)));
  });

  t.test('a slow model: the offline picture at its timeout (1 s), and 503 + Retry-After while the only slot is taken', async (t) => {
    const started = Date.now();
    const slow = look(store, { itemIds: outfit, customInstructions: 'SLOW please' });
    await until('the slow render holding the slot', async () => fake.requests.filter((r) => r.prompt.includes('SLOW')).length, (n) => n >= 1, { timeoutMs: 5000, everyMs: 10 });
    const refused = await look(store, { itemIds: outfit });
    t.equal(refused.statusCode, 503);
    t.equal(refused.headers['retry-after'], '2');
    t.equal(refused.json().error, 'Too many looks are being drawn right now. Try again shortly.');
    const answered = await slow;
    const elapsed = Date.now() - started;
    t.equal(answered.statusCode, 200);
    t.match(answered.json().visualization, { source: 'offline', fallbackReason: 'the image model did not answer within 1 s' });
    t.ok(elapsed < 2500, `answered at the timeout, not when the model did (${elapsed} ms)`);
    t.equal((await look(store, { itemIds: outfit })).statusCode, 200, 'the slot is free again');
  });
});

t.test('try-on with the outbound guard on: a photo on this machine is refused before any byte is sent', async (t) => {
  const fake = await startFakeOpenAiImages(t, () => ({ colour: '#8040c0' }));
  const store = await storeOf(t, { STYLIST_IMAGE_MODEL: 'gpt-image-1', OPENAI_BASE_URL: fake.baseURL }, false);
  const response = await look(store, { itemIds: [store.items.get('TEE-RED')!], userPhotoUrl: `${store.photos.url}/me.jpg` });
  t.equal(response.statusCode, 422);
  t.equal(response.json().error, 'userPhotoUrl could not be used: refused: 127.0.0.1 is a loopback address (this machine); Stylist only fetches addresses on the public internet.');
  t.equal(store.photos.hits.get('/me.jpg') ?? 0, 0);
  t.equal(fake.requests.length, 0, 'the model was not asked');
  // Items without a stored photo are drawn as swatches.
  const swatches = (await look(store, { itemIds: [store.items.get('TEE-RED')!] })).json().visualization;
  t.same(swatches.items.map((item: { photo: boolean }) => item.photo), [false]);
});
