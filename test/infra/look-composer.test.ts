// The offline picture of a look: pieces where an outfit puts them, studio backgrounds trimmed,
// swatches for items without a photo, the same bytes for the same look, and bounds on photos.
import sharp from 'sharp';
import t from 'tap';
import type { Slot } from '../../domain/catalogue/vocabulary.js';
import { layoutLook, type Rect } from '../../domain/looks/layout.js';
import { canvasSize, parseAspectRatio } from '../../domain/looks/request.js';
import { composeLook, labelBand, type LookTile } from '../../infra/images/look-composer.js';
import { bombPng } from '../support/images.js';
import { productShot } from '../support/photo-server.js';

const pixelAt = async (jpeg: Buffer, x: number, y: number): Promise<[number, number, number]> => {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
};
const centre = (rect: Rect) => [rect.x + rect.width / 2, rect.y + rect.height / 2] as const;
const near = (a: readonly number[], b: readonly number[], tolerance = 40) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

t.test('aspect ratios: W:H from 1 to 21, between 1:3 and 3:1; the longer side is 1024', async (t) => {
  t.same(parseAspectRatio('3:4'), { width: 3, height: 4 });
  t.same(parseAspectRatio(' 16 : 9 '), { width: 16, height: 9 });
  for (const bad of ['0:1', '22:21', '4:1', '1:4', '3/4', '3:4:5', '', 'a:b', '1.5:1', '-1:2']) t.equal(parseAspectRatio(bad), null, bad);
  t.same(canvasSize({ width: 3, height: 4 }), { width: 768, height: 1024 });
  t.same(canvasSize({ width: 16, height: 9 }), { width: 1024, height: 576 });
  t.same(canvasSize({ width: 1, height: 3 }), { width: 341, height: 1024 });
});

t.test('layout: outerwear and tops above full body above bottoms above footwear; accessories beside', async (t) => {
  const slots: Slot[] = ['footwear', 'bag', 'bottom', 'top', 'headwear', 'outerwear'];
  const rects = layoutLook({ width: 768, height: 1024, top: 80, slots });
  const [shoes, bag, trousers, top, hat, coat] = rects as [Rect, Rect, Rect, Rect, Rect, Rect];
  t.ok(top.y + top.height <= trousers.y, 'top above bottom');
  t.ok(trousers.y + trousers.height <= shoes.y, 'bottom above footwear');
  t.equal(coat.y, top.y, 'outerwear beside the top, in its row');
  t.ok(hat.x > top.x + top.width && bag.x > top.x + top.width, 'headwear and bag in the column beside');
  t.ok(hat.y < bag.y, 'headwear above the bag');
  for (const rect of rects) t.ok(rect.y >= 80 && rect.x >= 0 && rect.x + rect.width <= 768 && rect.y + rect.height <= 1024, 'inside the canvas, under the label');
  // Only small things: they take the width.
  const alone = layoutLook({ width: 600, height: 800, top: 0, slots: ['bag', 'jewellery'] });
  t.ok(alone[0]!.width > 500);
});

t.test('compose: each photo in its place, trimmed; a swatch without one; same bytes for the same look', async (t) => {
  const width = 768;
  const height = 1024;
  const label = 'Weekend in town';
  const top = labelBand(height, label);
  const slots: Slot[] = ['top', 'bottom', 'footwear', 'bag'];
  const rects = layoutLook({ width, height, top, slots });
  const photos = [await productShot('#c0392b', 'jpeg'), await productShot('#1f4e9c', 'png'), null, await productShot('#2e8b57', 'jpeg')];
  const tiles: LookTile[] = slots.map((slot, i) => ({ photo: photos[i]!, colour: [20, 20, 20], name: `Piece ${slot}`, caption: i === 0 ? 'Linen Tee · $25.00' : null, rect: rects[i]! }));
  const look = { width, height, label, top, tiles };
  const first = await composeLook(look);
  const second = await composeLook(look);
  t.ok(first.bytes.equals(second.bytes), 'deterministic');
  t.same(first.photos, [true, true, false, true]);
  const meta = await sharp(first.bytes).metadata();
  t.equal(meta.format, 'jpeg');
  t.same([meta.width, meta.height], [width, height]);
  t.ok(near(await pixelAt(first.bytes, ...centre(rects[0]!)), [192, 57, 43]), 'the red top in the top place');
  t.ok(near(await pixelAt(first.bytes, ...centre(rects[1]!)), [31, 78, 156]), 'the blue bottom below it');
  t.ok(near(await pixelAt(first.bytes, centre(rects[2]!)[0], rects[2]!.y + rects[2]!.height * 0.25), [20, 20, 20]), 'a swatch of its colour for the item without a photo');
  t.ok(near(await pixelAt(first.bytes, ...centre(rects[3]!)), [46, 139, 87]), 'the green bag beside');
  // Trimmed: the garment (half the shot's width) fills most of its place's height rather than sitting small in white.
  const [tx, ty] = centre(rects[1]!);
  t.ok(near(await pixelAt(first.bytes, tx, rects[1]!.y + rects[1]!.height * 0.1), [31, 78, 156]), 'the white studio border trimmed away');
  t.ok(near(await pixelAt(first.bytes, tx, ty), [31, 78, 156]));
});

t.test('photos that cannot be drawn (a decompression bomb, not an image) become swatches, never errors', async (t) => {
  const rect = { x: 10, y: 10, width: 200, height: 300 };
  const drawn = await composeLook({
    width: 440,
    height: 330,
    label: null,
    top: 0,
    tiles: [
      { photo: bombPng(), colour: [200, 0, 0], name: 'Bomb', caption: null, rect },
      { photo: Buffer.from('<html>not a photo</html>'), colour: [0, 0, 200], name: 'Page <&>', caption: null, rect: { ...rect, x: 230 } },
    ],
  });
  t.same(drawn.photos, [false, false]);
  t.ok(near(await pixelAt(drawn.bytes, 110, 70), [200, 0, 0]), 'a swatch (sampled away from its name)');
});
