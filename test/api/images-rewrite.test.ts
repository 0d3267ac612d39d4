// Issue 27: a catalogue photo rewritten under the same key. Ingest keeps one key per item and photo
// source, so when the store changes the picture behind the same URL and the item is processed again,
// GET /v1/image serves the new picture, resized or not, never a variant made from the old one, and
// the old variants are gone from the object store. Through HTTP, with the ingest worker running.
import sharp from 'sharp';
import t from 'tap';
import { LOCAL_STORES_ENV } from '../support/outbound.js';
import { productShot, startPhotoServer } from '../support/photo-server.js';
import { startTestService } from '../support/service.js';
import { until } from '../support/until.js';

t.test('an item processed again with a changed photo: the same key serves the new photo and new variants', async (t) => {
  const photos: Record<string, Buffer> = { '/shirt.png': await productShot('#c0392b') };
  const server = await startPhotoServer(t, photos);
  const service = await startTestService(t, { workers: ['ingest'], env: LOCAL_STORES_ENV });
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main', config: { storeUrl: 'https://acme.example.com', currency: 'EUR' } })).json().datasetId as string;
  const shirt = (name: string) => ({ sku: 'SHIRT-1', name, productType: 'Shirts', price: 40, images: [{ src: `${server.url}/shirt.png` }] });
  const processedTimes = async (itemId: string) =>
    (await call('GET', `/v1/datasets/${datasetId}/items/${itemId}/history`)).json().events.filter((e: { type: string }) => e.type === 'ItemProcessed').length as number;
  // The history is read from the event store, the item from its read model: wait for the read model
  // to have the processing before reading the photo's key off it.
  const photoOf = async (itemId: string, name: string) => {
    const item = await until(
      `the read model to show ${name}`,
      async () => (await call('GET', `/v1/datasets/${datasetId}/items/${itemId}`)).json().item,
      (found) => found?.product?.name === name && found.product.assets?.images?.[0]?.uploaded?.key !== undefined,
    );
    return item.product.assets.images[0].uploaded.key as string;
  };
  // The colour in the middle of the garment block (productShot draws it in the centre).
  const middle = async (body: Buffer) => {
    const { data, info } = await sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (Math.round(info.height * 0.6) * info.width + Math.round(info.width / 2)) * 3;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  };
  const near = (rgb: number[], hex: string) => rgb.every((value, i) => Math.abs(value - parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16)) <= 12);

  const itemId = (await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [shirt('Oxford Shirt')] })).json().queued[0].itemId as string;
  await until('the item to be processed', () => processedTimes(itemId), (n) => n === 1);
  const key = await photoOf(itemId, 'Oxford Shirt');
  const card = `/v1/image/${key}/-/resize/200x/-/format/webp`;
  const before = await service.app.inject({ url: card });
  t.equal(before.statusCode, 200);
  t.ok(near(await middle(before.rawPayload), '#c0392b'), 'the variant shows the red shirt');
  t.ok(near(await middle((await service.app.inject({ url: `/v1/image/${key}` })).rawPayload), '#c0392b'), 'and so does the original');
  const oldVariants = await service.platform.objects.list(`variants/${key}/`);
  t.equal(oldVariants.length, 1, 'the card variant is kept');

  // The store puts another picture behind the same URL; a new name has the item processed in full again.
  photos['/shirt.png'] = await productShot('#1f2a44', 'png', 300);
  t.equal((await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [shirt('Oxford Shirt, Navy')] })).json().queued[0].status, 'pending');
  await until('the item to be processed again', () => processedTimes(itemId), (n) => n === 2);
  t.equal(await photoOf(itemId, 'Oxford Shirt, Navy'), key, 'the same key');

  const after = await service.app.inject({ url: card });
  t.equal(after.statusCode, 200);
  t.not(after.headers.etag, before.headers.etag);
  t.ok(near(await middle(after.rawPayload), '#1f2a44'), 'the variant shows the navy shirt, not the red one it was made from before');
  const original = await service.app.inject({ url: `/v1/image/${key}` });
  t.ok(near(await middle(original.rawPayload), '#1f2a44'), 'the original is the navy one');
  t.match(await sharp(original.rawPayload).metadata(), { width: 300, height: 375 }, 'measured anew: the new photo is smaller');
  // Smaller than before: 400 px wide is now an enlargement, measured from the new photo.
  t.match(await sharp((await service.app.inject({ url: `/v1/image/${key}/-/resize/400x` })).rawPayload).metadata(), { width: 400, height: 500 });
  const kept = await service.platform.objects.list(`variants/${key}/`);
  t.same(kept.filter((variant) => oldVariants.includes(variant)), [], 'the variants of the red photo were dropped');
});
