// infra/images/inspect.ts: formats from their first bytes, whole decodes, and the pixel limit.
import sharp from 'sharp';
import t from 'tap';
import { inspectImage, MAX_INPUT_PIXELS, sniffImageType } from '../../infra/images/inspect.js';
import { makeAvif, makeBombPng, makeJpeg, makePng, makeWebp } from '../support/uploads.js';

const images = { 'image/jpeg': await makeJpeg(), 'image/png': await makePng(), 'image/webp': await makeWebp(), 'image/avif': await makeAvif() };

t.test('each stored format is known by its bytes, measured, and refused when cut off', async (t) => {
  for (const [type, bytes] of Object.entries(images)) {
    t.equal(sniffImageType(bytes), type);
    const whole = await inspectImage(bytes, type);
    t.match(whole, { ok: true, contentType: type }, type);
    t.ok(whole.ok && whole.width! > 0 && whole.height! > 0);
    t.match(await inspectImage(bytes.subarray(0, Math.floor(bytes.length * 0.6)), type), { ok: false, problem: 'unreadable' }, `${type} cut off`);
  }
});

t.test('bytes of another format than declared are a mismatch, named when known', async (t) => {
  t.same(await inspectImage(images['image/png'], 'image/jpeg'), { ok: false, problem: 'mismatch', found: 'image/png' });
  t.same(await inspectImage(Buffer.from('hello world, this is text'.repeat(60)), 'image/png'), { ok: false, problem: 'mismatch', found: null });
  const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).gif().toBuffer();
  t.equal(sniffImageType(gif), 'image/gif');
  t.equal(sniffImageType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
  t.equal(sniffImageType(Buffer.alloc(0)), null);
});

/** The PNG with its pixel data overwritten: the header still reads, a decode fails. */
const withBrokenPixels = (png: Buffer): Buffer => {
  const broken = Buffer.from(png);
  const data = broken.indexOf('IDAT') + 4;
  // Up to the IDAT chunk's CRC and the IEND chunk after it.
  broken.fill(0x55, data, broken.length - 16);
  return broken;
};

t.test('a decompression bomb is refused from its header, before decoding', async (t) => {
  const bomb = makeBombPng();
  t.ok(bomb.length < 100_000, `${bomb.length} bytes`);
  const limit = MAX_INPUT_PIXELS.toLocaleString('en-US');
  t.same(await inspectImage(bomb, 'image/png'), { ok: false, problem: 'too-many-pixels', message: `Image has too many pixels (20000×20000): at most ${limit}` });
  // Pixels that would not decode: refused for its size all the same, so nothing was decoded first;
  // the same damage under a small header is found by the decode.
  t.same(await inspectImage(withBrokenPixels(bomb), 'image/png'), { ok: false, problem: 'too-many-pixels', message: `Image has too many pixels (20000×20000): at most ${limit}` });
  t.match(await inspectImage(withBrokenPixels(makeBombPng(100)), 'image/png'), { ok: false, problem: 'unreadable' });
});

t.test('the pixel limit is MAX_INPUT_PIXELS: the largest square under it is taken, the next refused', async (t) => {
  const side = Math.floor(Math.sqrt(MAX_INPUT_PIXELS));
  t.same(await inspectImage(makeBombPng(side), 'image/png'), { ok: true, contentType: 'image/png', width: side, height: side });
  t.match(await inspectImage(makeBombPng(side + 1), 'image/png'), { ok: false, problem: 'too-many-pixels', message: `Image has too many pixels (${side + 1}×${side + 1}): at most ${MAX_INPUT_PIXELS.toLocaleString('en-US')}` });
});
