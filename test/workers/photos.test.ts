// The photo pipeline against a local image server: limits on time, size and redirects, content
// sniffing instead of trusting Content-Type, and normalisation to JPEG with a colour raster.
import { crc32, deflateSync } from 'node:zlib';
import t from 'tap';
import sharp from 'sharp';
import { fetchPhotoBytes as fetchAnyPhotoBytes, MAX_PHOTO_PIXELS, normalisePhoto, PhotoProblem, sniffImage, storePhoto as storeAnyPhoto, type PhotoLimits } from '../../workers/ingest/photos.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { localStores } from '../support/outbound.js';
import { productShot, startPhotoServer } from '../support/photo-server.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const limits = { timeoutMs: 500, maxBytes: 200_000, maxRedirects: 2, maxSide: 300 };

// The photo server listens on 127.0.0.1: photos are fetched as with OUTBOUND_ALLOW_PRIVATE=true
// (the refusal is tested in photos-outbound.test.ts).
const fetchPhotoBytes = (src: string, photoLimits: PhotoLimits) => fetchAnyPhotoBytes(src, photoLimits, localStores);
const storePhoto = (...[objects, itemId, src, options]: Parameters<typeof storeAnyPhoto>) => storeAnyPhoto(objects, itemId, src, { outbound: localStores, ...options });

t.test('sniffing reads the bytes, not the name', async (t) => {
  t.equal(sniffImage(await productShot('#123456', 'png')), 'png');
  t.equal(sniffImage(await productShot('#123456', 'jpeg')), 'jpeg');
  t.equal(sniffImage(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).webp().toBuffer()), 'webp');
  t.equal(sniffImage(Buffer.from('<html>')), null);
});

t.test('fetching: redirects followed up to the cap, timeouts, size caps and HTTP errors are problems', async (t) => {
  const big = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
  const server = await startPhotoServer(t, { '/ok.png': await productShot('#aa0000'), '/big.png': big });
  t.ok((await fetchPhotoBytes(`${server.url}/moved/ok.png`, limits)).length > 0, 'one redirect is fine');
  await t.rejects(fetchPhotoBytes(`${server.url}/loop.jpg`, limits), new PhotoProblem('more than 2 redirects'));
  await t.rejects(fetchPhotoBytes(`${server.url}/slow.jpg`, limits), new PhotoProblem('no answer within 500 ms'));
  await t.rejects(fetchPhotoBytes(`${server.url}/big.png`, limits), new PhotoProblem('larger than 200000 bytes'));
  await t.rejects(fetchPhotoBytes(`${server.url}/nope.png`, limits), new PhotoProblem('HTTP 404'));
  await t.rejects(fetchPhotoBytes('ftp://example.com/a.png', limits), new PhotoProblem('unsupported scheme ftp:'));
});

t.test('normalising: JPEG within the size limit, and a small raster for colours', async (t) => {
  const photo = await normalisePhoto(await productShot('#00aa00', 'png', 800), 300);
  const meta = await sharp(photo.jpeg).metadata();
  t.equal(meta.format, 'jpeg');
  t.ok(Math.max(meta.width!, meta.height!) <= 300);
  t.ok(photo.pixels.width <= 64 && photo.pixels.height <= 64);
  t.equal(photo.pixels.data.length, photo.pixels.width * photo.pixels.height * 3);
  await t.rejects(normalisePhoto(Buffer.from('GIF89a but not really an image'), 300), { name: 'PhotoProblem', message: /^unreadable image/ });
  const small = await productShot('#0000aa', 'jpeg', 200);
  t.equal((await normalisePhoto(small, 300)).jpeg, small, 'an upright JPEG within the limit is kept byte for byte');
  const large = await normalisePhoto(await productShot('#0000aa', 'jpeg', 800), 300);
  t.ok(Math.max((await sharp(large.jpeg).metadata()).height!) <= 300, 'a larger one is brought within the limit');
  const truncated = (await productShot('#0000aa', 'jpeg', 200)).subarray(0, 400);
  await t.rejects(normalisePhoto(truncated, 300), { name: 'PhotoProblem' }, 'a JPEG cut short is refused, not stored');
});

/** A PNG whose header claims width×height pixels, with a few bytes of image data: a decompression bomb's shape. */
const claimingPng = (width: number, height: number): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
};

t.test('an image that claims more pixels than the limit is refused from its header, before decoding', async (t) => {
  const started = Date.now();
  await t.rejects(normalisePhoto(claimingPng(100_000, 100_000), 300), { name: 'PhotoProblem', message: `100000×100000 pixels is over the limit of ${MAX_PHOTO_PIXELS / 1_000_000} megapixels` });
  await t.rejects(normalisePhoto(claimingPng(8_000, 7_000), 300), { name: 'PhotoProblem', message: /^8000×7000 pixels is over the limit/ });
  t.ok(Date.now() - started < 2_000, `refused in ${Date.now() - started} ms`);
  // Within the limit the same kind of file is decoded (and found broken), so the check is the limit's.
  await t.rejects(normalisePhoto(claimingPng(4_000, 3_000), 300), { name: 'PhotoProblem', message: /^unreadable image/ });
});

t.test('storing: a problem is returned, never thrown; the same photo of the same item keeps its key', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-photos-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const objects = await openFileObjectStore(dir);
  const server = await startPhotoServer(t, { '/ok.png': await productShot('#aa0000') });
  const itemId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const first = await storePhoto(objects, itemId, `${server.url}/ok.png`, { limits });
  const second = await storePhoto(objects, itemId, `${server.url}/ok.png`, { limits });
  t.ok('key' in first && 'key' in second && first.key === second.key);
  t.same(await storePhoto(objects, itemId, `${server.url}/not-an-image.jpg`, { limits }), { src: `${server.url}/not-an-image.jpg`, problem: 'not an image (unrecognised content)' });
});
