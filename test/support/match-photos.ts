// Photos of a dressed person the match tests and bench make themselves: a drawn figure (head,
// neck, arms and legs in a skin tone) on a plain wall, wearing the demo catalogue's own product
// photos (infra/demo-photos), each cut from its studio background and laid where the piece is
// worn: a top or a dress on the torso, a bottom on the legs, a pair of shoes at the feet. Each
// photo carries its known answer: which product each piece is. Seeded, so a set is the same
// every run and another seed is another set.
import sharp from 'sharp';
import { generateDemoCatalogue, prng, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import { demoPhotoSvg, STUDIO_BACKGROUND } from '../../infra/demo-photos/render.js';
import type { Slot } from '../../domain/catalogue/vocabulary.js';

export interface OutfitPhoto {
  png: Buffer;
  /** The product each piece is: sku of its product. */
  answer: Partial<Record<Slot, string>>;
  products: DemoProduct[];
}

const WALLS = ['#ffffff', '#f1efe9', '#e8ecef', '#efe6da', '#f6f6f6', '#e6e3f0'];
const SKINS = ['#f1c7a5', '#d9a27e', '#a8714f', '#7a4b32', '#e8b896'];

/** A product's first photo without its studio background, trimmed to the garment, fitted in w×h. */
async function cutOut(product: DemoProduct, width: number, height: number, flip = false): Promise<Buffer> {
  const spec = product.photos[0]!;
  const svg = demoPhotoSvg(spec, 400).replace(`<rect width="800" height="1000" fill="${STUDIO_BACKGROUND}"/>`, '');
  const trimmed = await sharp(Buffer.from(svg)).png().trim().toBuffer();
  const fitted = sharp(trimmed).resize(width, height, { fit: 'fill' });
  return (flip ? fitted.flop() : fitted).png().toBuffer();
}

const KINDS = {
  top: ['tshirt', 'polo', 'shirt', 'blouse', 'knit', 'hoodie'],
  bottom: ['jeans', 'trousers', 'skirt'],
  dress: ['dress'],
  footwear: ['sneaker', 'boot', 'loafer'],
} as const;

/** The adult apparel a photo can wear, by where it is worn. */
export function wearable(products = generateDemoCatalogue()): Record<keyof typeof KINDS, DemoProduct[]> {
  const of = (kinds: readonly string[]) => products.filter((p) => kinds.includes(p.photos[0]?.kind ?? '') && p.facts.ageGroup === 'adult' && !p.facts.soldOut);
  return { top: of(KINDS.top), bottom: of(KINDS.bottom), dress: of(KINDS.dress), footwear: of(KINDS.footwear) };
}

/**
 * One photo: `pieces` are the products worn (a top, a bottom and shoes, or a dress and shoes),
 * drawn at `width` px wide (the photo is 1.5 times as tall), with the size and place of each
 * piece varied by `random`.
 */
export async function outfitPhoto(pieces: { top?: DemoProduct; bottom?: DemoProduct; dress?: DemoProduct; footwear: DemoProduct }, random: () => number, width = 600): Promise<OutfitPhoto> {
  const W = width;
  const H = Math.round(width * 1.5);
  const s = W / 600;
  const jitter = (n: number, by = 0.06) => Math.round(n * (1 + (random() * 2 - 1) * by));
  const wall = WALLS[Math.floor(random() * WALLS.length)]!;
  const skin = SKINS[Math.floor(random() * SKINS.length)]!;
  const cx = Math.round(W / 2 + (random() * 2 - 1) * 40 * s);
  const top = Math.round(30 * s + random() * 20 * s);
  const headR = jitter(48 * s);
  const torsoTop = top + headR * 2 + Math.round(12 * s);
  const torsoH = jitter(300 * s);
  const legsTop = torsoTop + torsoH - Math.round(20 * s);
  const legsH = jitter(380 * s);
  const feetTop = legsTop + legsH - Math.round(10 * s);
  const feetH = jitter(70 * s);
  const figure =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${wall}"/>` +
    `<circle cx="${cx}" cy="${top + headR}" r="${headR}" fill="${skin}"/>` +
    `<rect x="${cx - 18 * s}" y="${top + headR * 2 - 8 * s}" width="${36 * s}" height="${30 * s}" fill="${skin}"/>` +
    `<rect x="${cx - 175 * s}" y="${torsoTop + 20 * s}" width="${40 * s}" height="${torsoH}" rx="${18 * s}" fill="${skin}"/>` +
    `<rect x="${cx + 135 * s}" y="${torsoTop + 20 * s}" width="${40 * s}" height="${torsoH}" rx="${18 * s}" fill="${skin}"/>` +
    `<rect x="${cx - 80 * s}" y="${legsTop}" width="${60 * s}" height="${legsH}" fill="${skin}"/>` +
    `<rect x="${cx + 20 * s}" y="${legsTop}" width="${60 * s}" height="${legsH}" fill="${skin}"/>` +
    `</svg>`;
  const layers: sharp.OverlayOptions[] = [];
  const answer: OutfitPhoto['answer'] = {};
  const worn: DemoProduct[] = [];
  const place = async (product: DemoProduct, x: number, y: number, w: number, h: number, flip = false) => {
    layers.push({ input: await cutOut(product, Math.max(8, Math.round(w)), Math.max(8, Math.round(h)), flip), left: Math.round(x), top: Math.round(y) });
  };
  if (pieces.dress) {
    const w = jitter(300 * s);
    await place(pieces.dress, cx - w / 2, torsoTop, w, torsoH + legsH * 0.55);
    answer['full body'] = pieces.dress.input.sku as string;
    worn.push(pieces.dress);
  } else {
    if (pieces.bottom) {
      const w = jitter(200 * s);
      await place(pieces.bottom, cx - w / 2, legsTop, w, pieces.bottom.photos[0]!.kind === 'skirt' ? legsH * 0.6 : legsH);
      answer.bottom = pieces.bottom.input.sku as string;
      worn.push(pieces.bottom);
    }
    if (pieces.top) {
      const w = jitter(330 * s);
      await place(pieces.top, cx - w / 2, torsoTop, w, torsoH);
      answer.top = pieces.top.input.sku as string;
      worn.push(pieces.top);
    }
  }
  const shoeW = jitter(95 * s);
  await place(pieces.footwear, cx - shoeW - 6 * s, feetTop, shoeW, feetH, true);
  await place(pieces.footwear, cx + 6 * s, feetTop, shoeW, feetH);
  answer.footwear = pieces.footwear.input.sku as string;
  worn.push(pieces.footwear);
  const png = await sharp(Buffer.from(figure)).composite(layers).png({ compressionLevel: 2 }).toBuffer();
  return { png, answer, products: worn };
}

/** Only the plain (solid) products of a catalogue: outfits whose every piece has one colour. */
export const solidOnly = (catalogue: ReturnType<typeof wearable>): ReturnType<typeof wearable> =>
  Object.fromEntries(Object.entries(catalogue).map(([k, list]) => [k, list.filter((p) => p.facts.pattern === 'solid')])) as ReturnType<typeof wearable>;

/** `count` outfits from the catalogue, a third of them dresses; tops and bottoms of different colour families. */
export async function outfitPhotos(seed: number, count: number, catalogue = wearable(), width = 600): Promise<OutfitPhoto[]> {
  const random = prng(seed);
  catalogue = { ...catalogue };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const photos: OutfitPhoto[] = [];
  for (let i = 0; i < count; i++) {
    const footwear = pick(catalogue.footwear);
    if (i % 3 === 2 && catalogue.dress.length) {
      photos.push(await outfitPhoto({ dress: pick(catalogue.dress), footwear }, random, width));
      continue;
    }
    const top = pick(catalogue.top);
    const bottoms = catalogue.bottom.filter((b) => b.facts.colourFamily !== top.facts.colourFamily);
    photos.push(await outfitPhoto({ top, bottom: pick(bottoms), footwear }, random, width));
  }
  return photos;
}

export const dataUri = (png: Buffer): string => `data:image/png;base64,${png.toString('base64')}`;
