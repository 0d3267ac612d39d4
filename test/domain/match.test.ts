// The pure parts of POST /v2/agent/match: the offline reading of a photo's pieces (a drawn
// figure of known colours), the ranking of what a search found for a piece, and how a vision
// model's piece is made to fit the vocabularies.
import sharp from 'sharp';
import t from 'tap';
import { familiesToSearch, rankCandidates } from '../../domain/match/rank.js';
import type { GarmentPiece } from '../../domain/match/request.js';
import { garmentRegions, readPhoto } from '../../infra/images/garment-regions.js';
import { readPiece } from '../../infra/models/openai-vision-match.js';

const figure = (top: string, bottom: string, shoes: string, wall = '#ffffff') =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="450"><rect width="300" height="450" fill="${wall}"/>` +
        `<circle cx="150" cy="40" r="25" fill="#e0ac8a"/><rect x="90" y="70" width="120" height="150" fill="${top}"/>` +
        `<rect x="100" y="220" width="100" height="180" fill="${bottom}"/><rect x="95" y="400" width="110" height="30" fill="${shoes}"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

t.test('a figure is read as its top, bottom and shoes, each in its colour family and place', async (t) => {
  const photo = await readPhoto(await figure('#1e2a50', '#c81e28', '#141414', '#f1efe9'), 25e6);
  if (!photo.ok) return t.fail(photo.problem);
  const pieces = garmentRegions(photo.raster);
  t.same(pieces.map((p) => [p.slot, p.colorFamily, p.pattern]), [['top', 'navy', 'solid'], ['bottom', 'red', 'solid'], ['footwear', 'black', 'solid']]);
  const top = pieces[0]!.region;
  t.ok(Math.abs(top.x - 0.3) < 0.02 && Math.abs(top.width - 0.4) < 0.03, `the top's region (${JSON.stringify(top)})`);
});

t.test('a top and bottom of one colour are one full-body piece', async (t) => {
  const photo = await readPhoto(await figure('#2e8b57', '#2e8b57', '#f5f5f5', '#e8ecef'), 25e6);
  if (!photo.ok) return t.fail(photo.problem);
  t.same(garmentRegions(photo.raster).map((p) => p.slot), ['full body', 'footwear']);
});

t.test('a plain wall is no piece; bytes that are not an image, or too many pixels, are refused', async (t) => {
  const wall = await sharp({ create: { width: 100, height: 150, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const photo = await readPhoto(wall, 25e6);
  t.ok(photo.ok && garmentRegions(photo.raster).length === 0);
  t.same(await readPhoto(Buffer.from('GIF89a but not really'), 25e6), { ok: false, problem: 'unreadable' });
  t.same(await readPhoto(await figure('#000', '#fff', '#000'), 1000), { ok: false, problem: 'too-many-pixels' });
});

const piece: GarmentPiece = { slot: 'top', colorFamily: 'navy', rgb: [20, 30, 80], pattern: 'solid', description: null, region: { x: 0, y: 0, width: 1, height: 1 } };
const candidate = (itemId: string, rgb: number[], family: string, available = true, slot = 'top', pattern = 'solid') => ({
  itemId,
  score: 1,
  metadata: { color_rgb: rgb, color_family: family, pattern, slot },
  product: { available },
});

t.test('candidates: closest colour first, each once, never one the shopper cannot buy or of another slot', async (t) => {
  const ranked = rankCandidates(piece, [
    candidate('black', [20, 20, 20], 'black'),
    candidate('navy', [22, 32, 82], 'navy'),
    candidate('navy', [22, 32, 82], 'navy'),
    candidate('sold-out', [20, 30, 80], 'navy', false),
    candidate('shoe', [20, 30, 80], 'navy', true, 'footwear'),
    candidate('red', [200, 30, 40], 'red'),
  ]);
  t.same(ranked.map((c) => c.itemId), ['navy', 'black', 'red']);
  t.ok(ranked[0]!.score > ranked[1]!.score && ranked.every((c) => c.score >= 0 && c.score <= 1));
  t.same(familiesToSearch(piece).slice(0, 1), ['navy']);
  t.ok(familiesToSearch(piece).length >= 3, 'neighbouring families are searched too');
});

t.test('a vision model’s piece: kept when it fits the vocabularies, a colour name mapped, the rest dropped', async (t) => {
  t.match(readPiece({ slot: 'top', color_family: 'navy', colour: 'navy', pattern: 'striped', description: 'breton tee', box: [0.1, 0.2, 0.5, 0.3] }), {
    slot: 'top',
    colorFamily: 'navy',
    pattern: 'striped',
    description: 'breton tee',
    region: { x: 0.1, y: 0.2, width: 0.5, height: 0.3 },
  });
  t.match(readPiece({ slot: 'bottom', color_family: 'denim-ish', colour: 'burgundy', pattern: 'tartan', description: 'wide trousers', box: [0.5, 0.5, 0.9, 0.9] }), {
    colorFamily: 'burgundy',
    pattern: null,
    region: { x: 0.5, y: 0.5, width: 0.5, height: 0.5 },
  });
  t.equal(readPiece({ slot: 'hat', color_family: 'red', colour: 'red', pattern: 'solid', description: 'x' }), null, 'not a slot');
  t.equal(readPiece({ slot: 'top', color_family: '??', colour: 'zzz', pattern: 'solid', description: 'x' }), null, 'no family');
  t.equal(readPiece('nonsense'), null);
});
