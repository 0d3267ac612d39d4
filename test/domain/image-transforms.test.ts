// The image path: a key, then transforms in any order; one chain, one variant key.
import fc from 'fast-check';
import t from 'tap';
import { imagePath, InvalidTransform, MAX_SIDE, normaliseChain, parseImagePath, variantKey } from '../../domain/image/transforms.js';

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
});

t.test('the same transforms in another order are the same variant', async (t) => {
  const orders = [
    '-/resize/400x/-/format/webp/-/quality/70',
    '-/format/webp/-/resize/400x/-/quality/70',
    '-/quality/70/-/format/webp/-/resize/400x',
    '-/quality/70/-/resize/400x/-/format/webp',
  ];
  const keys = new Set(orders.map((order) => variantKey(KEY, parseImagePath(`${KEY}/${order}`).chain!)));
  t.same([...keys], [`variants/${KEY}/resize/400x/format/webp/quality/70`]);
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
  );
  const chains = fc.uniqueArray(step, { minLength: 1, maxLength: 3, selector: ([name]) => name });
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
    ['-/blur/3', /^Unknown transform "blur" in "-\/blur\/3": transforms are resize, format, quality\.$/],
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

t.test('variants are kept under variants/<key>/<normalised chain>', async (t) => {
  t.equal(variantKey('uploads/ab.png', { height: 20, quality: 5 }), 'variants/uploads/ab.png/resize/x20/quality/5');
  t.equal(variantKey('uploads/ab.png', { format: 'avif' }), 'variants/uploads/ab.png/format/avif');
});
