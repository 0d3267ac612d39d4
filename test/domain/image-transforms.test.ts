// The image path: a key, then transforms in any order; one chain, one variant key. And the variant
// space: sizes and qualities snapped to documented steps, settled against the original, so that
// however many chains are asked for, one original has a small, fixed number of variants.
import fc from 'fast-check';
import t from 'tap';
import { IMAGE_FORMATS, imagePath, InvalidTransform, MAX_SIDE, normaliseChain, parseImagePath, type TransformChain } from '../../domain/image/transforms.js';
import {
  QUALITY_LEVELS,
  settleChain,
  SIDE_STEPS,
  snapChain,
  snapQuality,
  snapSide,
  variantKey,
  variantName,
  variantsPerOriginal,
  type OriginalImage,
} from '../../domain/image/variant-space.js';

const KEY = 'images/4f1c2d3e-0000-4000-8000-000000000001.jpeg';

t.test('a key alone asks for the stored bytes; slashes belong to the key', async (t) => {
  t.same(parseImagePath(KEY), { key: KEY, chain: null });
  t.same(parseImagePath('uploads/a/b/c.png'), { key: 'uploads/a/b/c.png', chain: null });
});

t.test('each transform and each resize form', async (t) => {
  t.same(parseImagePath(`${KEY}/-/resize/400x`).chain, { width: 400 });
  t.same(parseImagePath(`${KEY}/-/resize/x300`).chain, { height: 300 });
  t.same(parseImagePath(`${KEY}/-/resize/400x300`).chain, { width: 400, height: 300 });
  t.same(parseImagePath(`${KEY}/-/resize/${MAX_SIDE}x${MAX_SIDE}`).chain, { width: MAX_SIDE, height: MAX_SIDE });
  for (const format of ['jpeg', 'png', 'webp', 'avif']) t.same(parseImagePath(`${KEY}/-/format/${format}`).chain, { format });
  t.same(parseImagePath(`${KEY}/-/quality/1`).chain, { quality: 1 });
  t.same(parseImagePath(`${KEY}/-/quality/100`).chain, { quality: 100 });
  t.same(parseImagePath(`${KEY}/-/resize/400x/-/format/webp/-/quality/70`), { key: KEY, chain: { width: 400, format: 'webp', quality: 70 } });
  for (const stretch of ['on', 'off', 'fill']) t.same(parseImagePath(`${KEY}/-/stretch/${stretch}/-/resize/400x`).chain, { width: 400, stretch }, `stretch/${stretch}`);
});

t.test('the same transforms in another order are the same variant', async (t) => {
  const orders = [
    '-/resize/400x/-/format/webp/-/quality/70',
    '-/format/webp/-/resize/400x/-/quality/70',
    '-/quality/70/-/format/webp/-/resize/400x',
    '-/quality/70/-/resize/400x/-/format/webp',
  ];
  const photo: OriginalImage = { width: 800, height: 1000, format: 'jpeg' };
  const keys = new Set(orders.map((order) => variantKey(KEY, 'v1', settleChain(snapChain(parseImagePath(`${KEY}/${order}`).chain!), photo)!)));
  t.same([...keys], [`variants/${KEY}/v1/resize-400x.format-webp.quality-75`]);
  t.equal(imagePath(KEY, parseImagePath(`${KEY}/${orders[2]}`).chain), `${KEY}/-/resize/400x/-/format/webp/-/quality/70`, 'the normal path of a link');
  t.equal(imagePath(KEY, null), KEY);
});

t.test('normalising is order-free and round-trips, for any chain (property)', async (t) => {
  const step = fc.oneof(
    fc.tuple(fc.option(fc.integer({ min: 1, max: MAX_SIDE }), { nil: undefined }), fc.option(fc.integer({ min: 1, max: MAX_SIDE }), { nil: undefined }))
      .filter(([w, h]) => w !== undefined || h !== undefined)
      .map(([w, h]) => ['resize', `${w ?? ''}x${h ?? ''}`] as const),
    fc.constantFrom('jpeg', 'png', 'webp', 'avif').map((f) => ['format', f] as const),
    fc.integer({ min: 1, max: 100 }).map((q) => ['quality', String(q)] as const),
    fc.constantFrom('on', 'off', 'fill').map((mode) => ['stretch', mode] as const),
  );
  const chains = fc.uniqueArray(step, { minLength: 1, maxLength: 4, selector: ([name]) => name });
  fc.assert(
    fc.property(chains, fc.infiniteStream(fc.nat()), (steps, seeds) => {
      const shuffled = [...steps].sort(() => (seeds.next().value % 2 ? 1 : -1));
      const a = parseImagePath(`${KEY}/${steps.map(([n, v]) => `-/${n}/${v}`).join('/')}`).chain!;
      const b = parseImagePath(`${KEY}/${shuffled.map(([n, v]) => `-/${n}/${v}`).join('/')}`).chain!;
      if (normaliseChain(a) !== normaliseChain(b)) throw new Error('order changed the variant');
      const again = parseImagePath(imagePath(KEY, a));
      if (normaliseChain(again.chain!) !== normaliseChain(a) || again.key !== KEY) throw new Error('the normal path does not parse back');
    }),
  );
  t.pass();
});

t.test('malformed, unknown and repeated transforms are refused with a message naming them', async (t) => {
  const refused: Array<[string, RegExp]> = [
    ['-/blur/3', /^Unknown transform "blur" in "-\/blur\/3": transforms are resize, stretch, format, quality\.$/],
    ['-/resize', /"-\/resize": expected resize\/<width>x/],
    ['-/resize/', /"-\/resize\/": expected resize/],
    ['-/resize/x', /"-\/resize\/x": expected resize/],
    ['-/resize/400', /"-\/resize\/400": expected resize/],
    ['-/resize/400x300x2', /"-\/resize\/400x300x2": expected resize/],
    ['-/resize/0x', /"-\/resize\/0x": width must be a whole number from 1 to 4096/],
    ['-/resize/4097x', /width must be a whole number from 1 to 4096/],
    ['-/resize/x99999999', /height must be a whole number from 1 to 4096/],
    ['-/resize/-5x', /width must be/],
    ['-/resize/1.5x', /width must be/],
    ['-/resize/040x', /width must be/],
    ['-/resize/400x/extra', /"-\/resize\/400x\/extra": expected resize/],
    ['-/format/gif', /"-\/format\/gif": format must be one of jpeg, png, webp, avif/],
    ['-/format/JPEG', /format must be one of/],
    ['-/format', /"-\/format": expected format\/jpeg\|png\|webp\|avif/],
    ['-/quality/0', /"-\/quality\/0": quality must be a whole number from 1 to 100/],
    ['-/quality/101', /quality must be/],
    ['-/quality/high', /quality must be/],
    ['-/stretch/yes', /"-\/stretch\/yes": stretch must be one of on, off, fill/],
    ['-/stretch', /"-\/stretch": expected stretch\/on\|off\|fill/],
    ['-/stretch/off/-/resize/400x/-/stretch/fill', /^Transform "stretch" is given more than once/],
    ['-', /^Empty transform after "-"/],
    ['-/', /^Empty transform/],
    ['-/resize/400x/-', /^Empty transform/],
    ['-/resize/400x/-/resize/200x', /^Transform "resize" is given more than once \("-\/resize\/200x"\)/],
    ['-/quality/50/-/format/png/-/quality/60', /^Transform "quality" is given more than once/],
    ['-/format/png/-/format/png', /^Transform "format" is given more than once/],
  ];
  for (const [tail, message] of refused) {
    t.throws(() => parseImagePath(`${KEY}/${tail}`), InvalidTransform, tail);
    t.throws(() => parseImagePath(`${KEY}/${tail}`), message, tail);
  }
});

t.test('variants are kept under variants/<key>/<version of the original>/<variant name>, the format always named', async (t) => {
  t.equal(variantKey('uploads/ab.png', '9f86d081884c7d65', { height: 20, format: 'png', quality: 40 }), 'variants/uploads/ab.png/9f86d081884c7d65/resize-x20.format-png.quality-40');
  t.equal(variantKey('uploads/ab.png', 'v2', { format: 'avif' }), 'variants/uploads/ab.png/v2/format-avif');
  t.equal(variantName({ width: 4096, format: 'jpeg' }), 'resize-4096x.format-jpeg');
  t.equal(variantName({ width: 1024, pad: true, format: 'png' }), 'resize-1024x.fill.format-png');
});

const PORTRAIT: OriginalImage = { width: 800, height: 1000, format: 'jpeg' };

t.test('sides go up to the next step, qualities to the nearest level (halfway up)', async (t) => {
  t.equal(SIDE_STEPS.at(-1), MAX_SIDE);
  t.same([1, 16, 17, 300, 320, 321, 400, 401, 1000, 4000, 4096].map(snapSide), [16, 16, 32, 320, 320, 400, 400, 480, 1024, 4096, 4096]);
  t.same([1, 40, 49, 50, 51, 67, 68, 82, 83, 100].map(snapQuality), [40, 40, 40, 60, 60, 60, 75, 75, 90, 90]);
  t.same(snapChain({ width: 401, height: 33, format: 'webp', quality: 71 }), { width: 480, height: 48, format: 'webp', quality: 75 });
  t.same(snapChain({}), {});
});

t.test('settled against the original: the side that binds, enlarged unless stretch says not, the format named, nothing to do is the original', async (t) => {
  const cases: Array<[TransformChain, ReturnType<typeof settleChain>]> = [
    [{ width: 400 }, { width: 400, format: 'jpeg' }],
    [{ height: 320 }, { height: 320, format: 'jpeg' }],
    [{ width: 400, height: 320 }, { height: 320, format: 'jpeg' }],
    [{ width: 320, height: 1024 }, { width: 320, format: 'jpeg' }],
    [{ width: 400, height: 500 }, { width: 400, format: 'jpeg' }],
    // Already the size asked: no resize, and with nothing else asked, the original itself.
    [{ width: 800 }, null],
    [{ width: 800, stretch: 'fill' }, null],
    [{ format: 'jpeg' }, null],
    [{}, null],
    [{ stretch: 'fill' }, null],
    [{ quality: 60 }, { format: 'jpeg', quality: 60 }],
    // Smaller than asked: enlarged (Uploadcare's stretch/on, the default) ...
    [{ height: 1024 }, { height: 1024, format: 'jpeg' }],
    [{ width: 1200, stretch: 'on' }, { width: 1200, format: 'jpeg' }],
    // ... at most to MAX_SIDE on the longer side (4096 wide would make it 5120 high) ...
    [{ width: 4096, height: 4096 }, { height: 4096, format: 'jpeg' }],
    [{ width: 4096, format: 'webp' }, { height: 4096, format: 'webp' }],
    // ... left at its size (stretch/off) ...
    [{ height: 1024, stretch: 'off' }, null],
    [{ width: 4096, height: 4096, stretch: 'off' }, null],
    [{ width: 4096, format: 'webp', stretch: 'off' }, { format: 'webp' }],
    [{ width: 400, stretch: 'off' }, { width: 400, format: 'jpeg' }],
    // ... or padded to the size it would have had (stretch/fill); a shrink is a shrink.
    [{ width: 1200, stretch: 'fill' }, { width: 1200, pad: true, format: 'jpeg' }],
    [{ width: 4096, stretch: 'fill' }, { height: 4096, pad: true, format: 'jpeg' }],
    [{ width: 400, stretch: 'fill' }, { width: 400, format: 'jpeg' }],
  ];
  for (const [chain, settled] of cases) t.same(settleChain(chain, PORTRAIT), settled, JSON.stringify(chain));
  // A GIF's variants are JPEG unless asked otherwise; asking for JPEG is asking for a variant.
  const gif: OriginalImage = { width: 100, height: 80, format: 'gif' };
  t.same(settleChain({ width: 48 }, gif), { width: 48, format: 'jpeg' });
  t.same(settleChain({ format: 'jpeg' }, gif), { format: 'jpeg' });
  t.same(settleChain({ width: 128, stretch: 'off' }, gif), null, 'an unchanged GIF is the GIF');
  t.same(settleChain({ width: 128 }, gif), { width: 128, format: 'jpeg' }, 'an enlarged GIF is a JPEG');
  // An original longer than MAX_SIDE asked to grow is capped, which shrinks it.
  t.same(settleChain({ height: 200 }, { width: 5000, height: 100, format: 'png' }), { width: 4096, format: 'png' });
});

t.test('any chain, of any size and quality, lands on a documented variant or the original (property)', async (t) => {
  const side = fc.option(fc.integer({ min: 1, max: MAX_SIDE }), { nil: undefined });
  const chain = fc.record({
    width: side,
    height: side,
    format: fc.option(fc.constantFrom(...IMAGE_FORMATS), { nil: undefined }),
    quality: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    stretch: fc.option(fc.constantFrom('on' as const, 'off' as const, 'fill' as const), { nil: undefined }),
  });
  const original = fc.record({ width: fc.integer({ min: 1, max: 8000 }), height: fc.integer({ min: 1, max: 8000 }), format: fc.constantFrom('jpeg', 'png', 'webp', 'avif', 'gif') });
  fc.assert(
    fc.property(chain, original, (raw, photo) => {
      const asked = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)) as TransformChain;
      const settled = settleChain(snapChain(asked), photo);
      if (!settled) return;
      if (settled.width !== undefined && settled.height !== undefined) throw new Error('two sides kept');
      for (const value of [settled.width, settled.height]) {
        if (value !== undefined && !SIDE_STEPS.includes(value)) throw new Error(`side ${value} is not a step`);
      }
      const scale = settled.width !== undefined ? settled.width / photo.width : settled.height !== undefined ? settled.height / photo.height : 1;
      if (scale === 1 && (settled.width !== undefined || settled.height !== undefined)) throw new Error('a resize to the same size');
      if (Math.round(Math.max(photo.width, photo.height) * Math.min(scale, 1e9)) > MAX_SIDE && scale > 1) throw new Error(`enlarged past ${MAX_SIDE}`);
      if (scale > 1 && asked.stretch === 'off') throw new Error('enlarged with stretch/off');
      if (settled.pad && (scale <= 1 || asked.stretch !== 'fill')) throw new Error('padded without stretch/fill of a smaller original');
      if (scale > 1 && asked.stretch === 'fill' && !settled.pad) throw new Error('stretch/fill enlarged');
      if (settled.quality !== undefined && !QUALITY_LEVELS.includes(settled.quality)) throw new Error(`quality ${settled.quality}`);
      if (!(IMAGE_FORMATS as readonly string[]).includes(settled.format)) throw new Error('no format');
      // Settling is idempotent: a settled chain asked again is itself.
      const again = settleChain(snapChain({ ...settled, pad: undefined, ...(settled.pad && { stretch: 'fill' }) } as TransformChain), photo);
      if (variantName(again!) !== variantName(settled)) throw new Error(`settled twice: ${variantName(settled)} then ${again && variantName(again)}`);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

t.test('one original has a small, fixed number of variants, however many chains are asked for', async (t) => {
  const names = new Set<string>();
  const formats = [undefined, ...IMAGE_FORMATS];
  const qualities = [undefined, 1, 50, 68, 100];
  const stretches = [undefined, 'off', 'fill'] as const;
  // Every width alone, every height alone, and as many boxes: 12,288 resize forms, each in three stretches.
  const resizes: TransformChain[] = [{}];
  for (let side = 1; side <= MAX_SIDE; side++) resizes.push({ width: side }, { height: side }, { width: side, height: MAX_SIDE + 1 - side });
  for (const resize of resizes) {
    for (const stretch of stretches) {
      for (const format of formats) {
        for (const quality of qualities) {
          const settled = settleChain(snapChain({ ...resize, ...(stretch && { stretch }), ...(format && { format }), ...(quality && { quality }) }), PORTRAIT);
          if (settled) names.add(variantName(settled));
        }
      }
    }
  }
  t.ok(names.size <= variantsPerOriginal(), `${names.size} variants at most (bound ${variantsPerOriginal()} for any original)`);
  // Widths: every step but the photo's own width, up to where the height would pass MAX_SIDE
  // (those are the 4096 height). Heights: every step. Each of those larger than the photo again,
  // padded. Or no resize. Each format; each quality level or none; less the original.
  const tall = PORTRAIT.height / PORTRAIT.width;
  const widths = SIDE_STEPS.filter((step) => step !== PORTRAIT.width && step * tall <= MAX_SIDE);
  const heights = SIDE_STEPS;
  const padded = widths.filter((step) => step > PORTRAIT.width).length + heights.filter((step) => step > PORTRAIT.height).length;
  const resizeForms = widths.length + heights.length + padded + 1;
  t.equal(names.size, resizeForms * IMAGE_FORMATS.length * (QUALITY_LEVELS.length + 1) - 1, `${names.size} distinct variants of an 800×1000 photo`);
});
