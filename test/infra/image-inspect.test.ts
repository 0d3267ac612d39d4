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

t.test('a decompression bomb is refused from its header, before decoding', async (t) => {
  const bomb = makeBombPng();
  t.ok(bomb.length < 100_000, `${bomb.length} bytes`);
  const started = performance.now();
  t.match(await inspectImage(bomb, 'image/png'), { ok: false, problem: 'too-many-pixels', message: /20000×20000/ });
  t.ok(performance.now() - started < 2000, 'without decoding 400 megapixels');
  t.ok(20_000 * 20_000 > MAX_INPUT_PIXELS);
});
