// ImageDelivery on a real file store and real sharp, watched through a transformer that counts
// what passes through it: one job per new variant however many ask at once, never more jobs
// running than allowed, and a kept variant never made again.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import type { TransformChain } from '../../domain/image/transforms.js';
import { sharpTransformer, type ImageTransformer } from '../../infra/images/transform.js';
import { ImageDelivery, ImagesBusy } from '../../infra/images/variants.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { demoJpeg } from '../support/images.js';

async function setup(t: Test, options: { maxJobs?: number; maxQueued?: number; cacheBytes?: number } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-variants-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const sharpJobs = sharpTransformer();
  const watch = { calls: 0, running: 0, peak: 0 };
  const counting: ImageTransformer = {
    async transform(input: Buffer, chain: TransformChain) {
      watch.calls++;
      watch.running++;
      watch.peak = Math.max(watch.peak, watch.running);
      try {
        return await sharpJobs.transform(input, chain);
      } finally {
        watch.running--;
      }
    },
  };
  const images = new ImageDelivery({ objects, transformer: counting, ...options });
  const key = `images/${randomUUID()}.jpeg`;
  await objects.put(key, await demoJpeg(1600), { contentType: 'image/jpeg' });
  return { objects, images, watch, key };
}

t.test('fifty requests at once for one new variant: one sharp job, one stored object, the same bytes for all', async (t) => {
  const { objects, images, watch, key } = await setup(t);
  const served = await Promise.all(Array.from({ length: 50 }, () => images.get(key, { width: 400, format: 'webp' })));
  t.equal(watch.calls, 1);
  t.ok(served.every((image) => image && image.body.equals(served[0]!.body) && image.etag === served[0]!.etag));
  t.same(await objects.list('variants/'), [`variants/${key}/resize/400x/format/webp`]);
  t.match(await sharp(served[0]!.body).metadata(), { format: 'webp', width: 400, height: 500 });
});

t.test('a kept variant is read from the store by a fresh delivery (another process), not made again', async (t) => {
  const { objects, images, watch, key } = await setup(t);
  await images.get(key, { height: 250 });
  const fresh = new ImageDelivery({ objects, transformer: { transform: () => Promise.reject(new Error('must not be called')) } });
  const again = await fresh.get(key, { height: 250 });
  t.match(await sharp(again!.body).metadata(), { height: 250 });
  t.equal(watch.calls, 1);
});

t.test('distinct new variants run at most maxJobs at a time; past maxQueued waiting, ImagesBusy', async (t) => {
  const { images, watch, key } = await setup(t, { maxJobs: 2, maxQueued: 4 });
  const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => images.get(key, { width: 200 + i })));
  t.equal(watch.peak, 2, 'never more than two sharp jobs at once');
  // Two running and four queued are served, the other four refused (unless a job ends before the
  // last request arrives, which only a very slow machine would see).
  t.ok(results.filter((r) => r.status === 'fulfilled').length >= 6, 'two running and four queued are served');
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  t.ok(refused.length >= 1 && refused.length <= 4, `${refused.length} refused`);
  t.ok(refused.every((r) => r.reason instanceof ImagesBusy && r.reason.retryAfterSeconds === 1));
  t.match(images.stats(), { running: 0, queued: 0, transforms: 10 - refused.length }, 'every slot given back');
});

t.test('memory holds recent images within its byte bound; nothing cached when it is 0', async (t) => {
  const { images, key } = await setup(t, { cacheBytes: 200_000 });
  for (let i = 0; i < 12; i++) await images.get(key, { width: 300 + i });
  const { cachedBytes, cachedEntries } = images.stats();
  t.ok(cachedBytes <= 200_000 && cachedEntries > 0, `${cachedEntries} entries, ${cachedBytes} bytes`);
  const none = await setup(t, { cacheBytes: 0 });
  await none.images.get(none.key, null);
  t.match(none.images.stats(), { cachedBytes: 0, cachedEntries: 0 });
});
