// ImageDelivery on a real file store and real sharp, watched through a transformer that counts
// what passes through it: one job per new variant however many ask at once, never more jobs
// running than allowed (nor more than its share for one address), a kept variant never made again,
// chains that make the same picture made once, and the store held to its budget; and the one pool
// of sharp slots it shares with looks (app/api.ts).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { replaceOriginal, versionTag } from '../../infra/images/originals.js';
import { sharpTransformer, type ImageTransformer } from '../../infra/images/transform.js';
import { ImageDelivery, imageJobSlots, ImagesBusy, TooManyNewVariants, type ImageDeliveryOptions } from '../../infra/images/variants.js';
import { LookRenderer, type LookDrawing } from '../../infra/images/look-renderer.js';
import type { ImageModel } from '../../infra/models/image-model.js';
import { storedCost } from '../../infra/images/variant-shelf.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { demoJpeg } from '../support/images.js';

type Options = Omit<ImageDeliveryOptions, 'objects' | 'transformer'>;

async function setup(t: Test, options: Options = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-variants-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const sharpJobs = sharpTransformer();
  const watch = { calls: 0, running: 0, peak: 0, chains: [] as string[] };
  const counting: ImageTransformer = {
    measure: (input) => sharpJobs.measure(input),
    async transform(input, chain) {
      watch.calls++;
      watch.running++;
      watch.chains.push(JSON.stringify(chain));
      watch.peak = Math.max(watch.peak, watch.running);
      try {
        return await sharpJobs.transform(input, chain);
      } finally {
        watch.running--;
      }
    },
  };
  const images = new ImageDelivery({ objects, transformer: counting, missRate: null, ...options });
  const key = `images/${randomUUID()}.jpeg`;
  const { version } = await objects.put(key, await demoJpeg(1600), { contentType: 'image/jpeg' });
  // Where this original's variants are kept: under the version they were made from.
  const kept = `variants/${key}/${versionTag(version)}`;
  return { objects, images, watch, key, kept };
}

t.test('fifty requests at once for one new variant: one sharp job, one stored object, the same bytes for all', async (t) => {
  const { objects, images, watch, key, kept } = await setup(t);
  const served = await Promise.all(Array.from({ length: 50 }, () => images.get(key, { width: 400, format: 'webp' })));
  t.equal(watch.calls, 1);
  t.ok(served.every((image) => image && image.body.equals(served[0]!.body) && image.etag === served[0]!.etag));
  t.same(await objects.list('variants/'), [`${kept}/resize-400x.format-webp`]);
  t.match(await sharp(served[0]!.body).metadata(), { format: 'webp', width: 400, height: 500 });
});

t.test('chains that make the same picture are one variant; one that changes nothing is the original', async (t) => {
  const { objects, images, watch, key, kept } = await setup(t);
  const original = await images.get(key, null);
  // 1600×2000: every width from 321 to 400 is made at 400; a 400 px box binds on its height.
  const asked = [{ width: 321 }, { width: 360 }, { width: 400 }, { width: 399, height: 2000 }, { width: 400, format: 'jpeg' as const }];
  const served = await Promise.all(asked.map((chain) => images.get(key, chain)));
  t.equal(new Set(served.map((image) => image!.etag)).size, 1, 'one picture');
  t.equal(watch.calls, 1, 'made once');
  const off = 'off' as const;
  for (const chain of [{ width: 1600 }, { width: 4096, height: 4096, stretch: off }, { height: 2000, stretch: off }, { format: 'jpeg' as const }, { width: 2000, format: 'jpeg' as const, stretch: off }]) {
    const image = await images.get(key, chain);
    t.equal(image?.etag, original?.etag, `${JSON.stringify(chain)}: the original's bytes`);
  }
  t.equal(watch.calls, 1, 'nothing more made');
  t.same(await objects.list('variants/'), [`${kept}/resize-400x.format-jpeg`]);
  await images.get(key, { quality: 57 });
  await images.get(key, { quality: 62, format: 'jpeg' });
  t.equal(watch.calls, 2, 'qualities 57 and 62 are both made at 60');
  t.same(watch.chains.at(-1), JSON.stringify({ format: 'jpeg', quality: 60 }));
});

t.test('a kept variant is read from the store by a fresh delivery (another process), not made again', async (t) => {
  const { objects, images, watch, key } = await setup(t);
  await images.get(key, { height: 256 });
  const sharpJobs = sharpTransformer();
  const fresh = new ImageDelivery({ objects, transformer: { measure: (input) => sharpJobs.measure(input), transform: () => Promise.reject(new Error('must not be called')) } });
  const again = await fresh.get(key, { height: 256 });
  t.match(await sharp(again!.body).metadata(), { height: 256 });
  t.equal(watch.calls, 1);
});

t.test('originals are streamed into sharp, never read whole, and at most `originalReads` at once', async (t) => {
  const { objects, images, watch, key } = await setup(t, { slots: 4, slotsPerAddress: 4, originalReads: 1 });
  const reads = { open: 0, peak: 0, streamed: 0, whole: [] as string[] };
  const getStream = objects.getStream.bind(objects);
  objects.getStream = async (asked) => {
    const original = await getStream(asked);
    if (!original) return original;
    reads.streamed++;
    reads.open++;
    reads.peak = Math.max(reads.peak, reads.open);
    original.body.once('close', () => reads.open--);
    return original;
  };
  const get = objects.get.bind(objects);
  objects.get = (asked) => {
    if (asked === key) reads.whole.push(asked);
    return get(asked);
  };
  const widths = [200, 240, 256, 320, 400, 480, 512, 600];
  const served = await Promise.all(widths.map((width, i) => images.get(key, { width, format: 'webp' }, `192.0.2.${i}`)));
  t.same(served.map((image) => image !== null), Array(widths.length).fill(true), 'every variant made');
  t.equal(watch.calls, widths.length);
  t.same(reads.whole, [], 'the original was never read whole');
  t.equal(reads.streamed, widths.length + 1, 'streamed once to measure it, once for each variant');
  t.equal(reads.peak, 1, 'one read at a time (originalReads: 1), with four sharp slots free');
  t.match(images.stats(), { originalReads: 0, originalReadsWaiting: 0 });
});

t.test('an original rewritten under its key: its variants are made from the new bytes, the old ones dropped', async (t) => {
  const { objects, images, key, kept } = await setup(t);
  const red = await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: 200, g: 0, b: 0 } } }).jpeg().toBuffer();
  const navy = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 20, g: 30, b: 70 } } }).jpeg().toBuffer();
  const centre = async (body: Buffer) => [...(await sharp(body).extract({ left: 50, top: 50, width: 1, height: 1 }).raw().toBuffer())];
  const first = await images.get(key, { width: 200, format: 'png' });
  t.same(await objects.list(`variants/${key}/`), [`${kept}/resize-200x.format-png`]);
  await replaceOriginal(objects, key, red, 'image/jpeg');
  t.same(await objects.list(`variants/${key}/`), [], "the first version's variant went with it");
  const before = await images.get(key, { width: 200, format: 'png' });
  t.not(before!.etag, first!.etag);
  t.match(await sharp(before!.body).metadata(), { width: 200, height: 250 });
  t.ok((await centre(before!.body))[0]! > 180, 'red');

  const { version } = await replaceOriginal(objects, key, navy, 'image/jpeg');
  t.same((await objects.list(`variants/${key}/`)).filter((variant) => !variant.startsWith(`variants/${key}/${versionTag(version)}/`)), [], 'the variants of the red one are dropped');
  const after = await images.get(key, { width: 200, format: 'png' });
  t.match(await sharp(after!.body).metadata(), { width: 200, height: 200 }, 'measured again: the new original is square');
  t.ok((await centre(after!.body))[2]! > 50 && (await centre(after!.body))[0]! < 60, 'navy');
  t.same((await images.get(key, null))!.body.equals(navy), true, 'the original itself is the new one');
});

t.test('distinct new variants: at most the slots at once, and one address at most its share of them', async (t) => {
  const widths = [200, 240, 256, 320, 400, 480, 512, 600];
  const one = await setup(t, { slots: 2, maxQueued: 64 });
  await Promise.all(widths.map((width) => one.images.get(one.key, { width }, '192.0.2.1')));
  t.equal(one.watch.peak, 1, 'one address alone: one slot of two (the other is kept for whoever comes next)');
  const two = await setup(t, { slots: 2, maxQueued: 64 });
  await Promise.all(widths.map((width, i) => two.images.get(two.key, { width }, i % 2 ? '192.0.2.1' : '192.0.2.2')));
  t.equal(two.watch.peak, 2, 'two addresses: both slots');
  t.match(two.images.stats(), { running: 0, queued: 0, transforms: widths.length }, 'every slot given back');
});

t.test('past the waiting bounds: ImagesBusy in all, TooManyNewVariants for one address', async (t) => {
  const widths = [200, 240, 256, 320, 400, 480, 512, 600, 640, 768];
  const own = await setup(t, { slots: 1, maxQueued: 4, maxQueuedPerAddress: 2 });
  const results = await Promise.allSettled(widths.map((width, i) => own.images.get(own.key, { width }, `192.0.2.${i % 5}`)));
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  // One running, four waiting (at most two of each address): the other five are refused.
  t.ok(results.filter((r) => r.status === 'fulfilled').length >= 5, 'one running and four waiting are served');
  t.ok(refused.length >= 1, `${refused.length} refused`);
  t.ok(refused.every((r) => r.reason instanceof ImagesBusy && r.reason.retryAfterSeconds === 1));
  const lined = await Promise.allSettled(widths.slice(0, 5).map((width) => own.images.get(own.key, { height: width + 1 }, '198.51.100.7')));
  const tooMany = lined.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  t.ok(tooMany.length >= 1 && tooMany.every((r) => r.reason instanceof TooManyNewVariants && r.reason.detail.bucket === 'api.v1.image.variants.waiting'), 'one address: two waiting at most');
  t.match(own.images.stats(), { running: 0, queued: 0 });
});

t.test('new variants per address: a burst, then refused until the bucket refills; kept ones are free; AVIF costs more', async (t) => {
  const { images, key } = await setup(t, { missRate: { perMinute: 1, burst: 5 }, avifCost: 4 });
  for (const width of [200, 240, 256, 320, 400]) await images.get(key, { width }, '203.0.113.9');
  await t.rejects(images.get(key, { width: 480 }, '203.0.113.9'), TooManyNewVariants);
  for (const width of [200, 240, 256, 320, 400]) t.ok(await images.get(key, { width }, '203.0.113.9'), `${width}: made already, served`);
  t.ok(await images.get(key, { width: 480 }, '203.0.113.10'), 'another address has its own bucket');
  t.ok(await images.get(key, { width: 200, format: 'avif' }, '203.0.113.11'), 'an AVIF variant takes four of five');
  await t.rejects(images.get(key, { width: 240, format: 'avif' }, '203.0.113.11'), TooManyNewVariants);
  t.ok(await images.get(key, { width: 640 }, '203.0.113.11'), 'the fifth token still makes a WebP or JPEG');
  const refused = await images.get(key, { width: 768 }, '203.0.113.11').catch((error: unknown) => error);
  t.match(refused, { detail: { bucket: 'api.v1.image.variants', limit: 1, windowSeconds: 60 } });
  const { retryAfterSeconds } = refused as TooManyNewVariants;
  t.ok(retryAfterSeconds > 30 && retryAfterSeconds <= 60, `back in ${retryAfterSeconds} s: one token a minute`);
});

t.test('the store holds at most the budget: least recently used variants go first', async (t) => {
  // Room for about six small variants.
  const { objects, images, key, kept: under } = await setup(t, { variantBudgetBytes: 6 * storedCost(12_000) });
  const widths = [32, 48, 64, 96, 128, 160, 200, 240, 256];
  for (const width of widths.slice(0, 3)) await images.get(key, { width });
  for (const width of widths.slice(3)) {
    await images.get(key, { width });
    // The first is used again each time: it stays.
    await images.get(key, { width: 32 });
  }
  const kept = await objects.list('variants/');
  let bytes = 0;
  for (const variant of kept) bytes += storedCost((await objects.head(variant))!.size);
  t.ok(bytes <= images.stats().keptBytes + 1 && bytes <= 6 * storedCost(12_000), `${kept.length} kept, ${bytes} bytes counted`);
  t.ok(kept.includes(`${under}/resize-32x.format-jpeg`), 'the one used all along is kept');
  t.notOk(kept.includes(`${under}/resize-48x.format-jpeg`), 'the least recently used is gone');
  t.ok(kept.includes(`${under}/resize-256x.format-jpeg`), 'the newest is kept');
  t.ok(images.stats().evicted >= 1);
});

t.test('a delivery started on a store over its budget learns what is there and evicts down to it', async (t) => {
  const { objects, images, key } = await setup(t);
  for (const width of [32, 48, 64, 96, 128, 160]) await images.get(key, { width });
  const listed = await objects.list('variants/');
  t.equal(listed.length, 6);
  const small = new ImageDelivery({ objects, transformer: sharpTransformer(), variantBudgetBytes: 3 * storedCost(8_000) });
  await small.scanStore();
  const left = await objects.list('variants/');
  t.ok(left.length < listed.length && left.length >= 1, `${left.length} of ${listed.length} left`);
  t.ok(small.stats().keptBytes <= 3 * storedCost(8_000));
});

t.test('memory holds recent images within its byte bound; nothing cached when it is 0', async (t) => {
  const { images, key } = await setup(t, { cacheBytes: 200_000 });
  for (const width of [200, 240, 256, 320, 400, 480, 512, 600, 640, 768, 800, 960]) await images.get(key, { width });
  const { cachedBytes, cachedEntries } = images.stats();
  t.ok(cachedBytes <= 200_000 && cachedEntries > 0, `${cachedEntries} entries, ${cachedBytes} bytes`);
  const none = await setup(t, { cacheBytes: 0 });
  await none.images.get(none.key, null);
  t.match(none.images.stats(), { cachedBytes: 0, cachedEntries: 0 });
});

/** Resolves when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function waitFor(what: string, test: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

/** A look of two swatches (no stored photo): its composition is sharp work, nothing else. */
const swatches: LookDrawing = {
  label: 'Shared',
  width: 320,
  height: 320,
  items: [
    { itemId: 'a', name: 'Red tee', slot: 'top', colour: [200, 40, 40], colourName: 'red', photoKey: null, caption: null },
    { itemId: 'b', name: 'Blue jeans', slot: 'bottom', colour: [30, 70, 160], colourName: 'blue', photoKey: null, caption: null },
  ],
  userPhoto: null,
  customInstructions: null,
  storePicture: null,
};

t.test('one pool of sharp slots for image variants and looks: with one slot, a look waits while a transform holds it', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-shared-pool-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const key = `images/${randomUUID()}.jpeg`;
  await objects.put(key, await demoJpeg(800), { contentType: 'image/jpeg' });
  const pool = imageJobSlots({ slots: 1 });
  const sharpJobs = sharpTransformer();
  const held = gate();
  let transforming = false;
  const images = new ImageDelivery({
    objects,
    missRate: null,
    slotPool: pool,
    transformer: {
      measure: (input) => sharpJobs.measure(input),
      async transform(input, chain) {
        transforming = true;
        await held.opened;
        return sharpJobs.transform(input, chain);
      },
    },
  });
  // Room for many looks in flight: only the shared pool can make this one wait.
  const looks = new LookRenderer({ objects, model: null, modelTimeoutMs: 1000, slots: 4, maxWaiting: 4, maxWaitingPerOwner: 4, sharpSlots: pool });

  const variant = images.get(key, { width: 200, format: 'webp' }, '192.0.2.1');
  await waitFor('the transform holding the slot', () => transforming);
  let drawn = false;
  const look = looks.draw('org-1', swatches).then((answer) => {
    drawn = true;
    return answer;
  });
  await waitFor('the look waiting in the pool', () => pool.counts.queued === 1);
  t.match(pool.counts, { running: 1, queued: 1 }, 'one pool counts both');
  t.match(images.stats(), { running: 1, queued: 1 }, "the image delivery's counts are the shared pool's");
  t.match(looks.counts, { running: 1, queued: 0 }, 'the look has its place in flight; it waits for a sharp slot');
  for (let i = 0; i < 20; i++) await tick();
  t.notOk(drawn, 'not drawn while the transform holds the only slot');
  held.open();
  t.match(await sharp((await variant)!.body).metadata(), { format: 'webp', width: 200 });
  t.match(await look, { source: 'offline', contentType: 'image/jpeg' });
  t.match(pool.counts, { running: 0, queued: 0 }, 'every slot given back');
});

t.test("the image model's call holds no sharp slot: a transform runs while the model draws", async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-shared-pool-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const key = `images/${randomUUID()}.jpeg`;
  await objects.put(key, await demoJpeg(800), { contentType: 'image/jpeg' });
  const pool = imageJobSlots({ slots: 1 });
  const images = new ImageDelivery({ objects, transformer: sharpTransformer(), missRate: null, slotPool: pool });
  const answered = gate();
  let drawing = false;
  const model: ImageModel = {
    name: 'test-model',
    async draw() {
      drawing = true;
      await answered.opened;
      return sharp({ create: { width: 320, height: 320, channels: 3, background: '#8040c0' } }).png().toBuffer();
    },
  };
  const looks = new LookRenderer({ objects, model, modelTimeoutMs: 10_000, slots: 1, maxWaiting: 0, maxWaitingPerOwner: 1, sharpSlots: pool });
  const look = looks.draw('org-1', swatches);
  await waitFor('the model drawing', () => drawing);
  t.match(pool.counts, { running: 0, queued: 0 }, 'no sharp slot held during the call');
  t.match(looks.counts, { running: 1 }, 'the look keeps its place in flight: model calls stay bounded');
  await t.rejects(looks.draw('org-2', swatches), { name: 'ImagesBusy' }, 'no second look past LOOKS_RENDER_SLOTS and its line');
  const variant = await images.get(key, { width: 200, format: 'webp' }, '192.0.2.1');
  t.match(await sharp(variant!.body).metadata(), { width: 200 }, 'a transform had the only slot meanwhile');
  answered.open();
  t.match(await look, { source: 'model', fallbackReason: null });
  t.match(pool.counts, { running: 0, queued: 0 });
});
