// The pieces of an outfit read from a photo of a dressed person without any model: the figure is
// told from the background (the colour of the photo's border), the head's colour is taken as skin
// and left out, and the figure is cut by height into bands (head, top, bottom, feet) by a
// person's proportions; each band's dominant colour (a histogram of the remaining pixels, then
// their mean) is mapped to the nearest colour family, its pattern guessed from how often the
// colour changes across and down the band. A top and bottom of one colour are one full-body piece
// (a dress, a jumpsuit). Bytes are checked first (format from the magic number, pixels from the
// header before decoding); decoding is shrink-on-load to a small raster.
import sharp from 'sharp';
import { nearestFamily, toLab, type Rgb } from '../../domain/catalogue/colours.js';
import type { GarmentPiece } from '../../domain/match/request.js';
import type { Pattern } from '../../domain/catalogue/vocabulary.js';
import { sniffImageType } from './inspect.js';

export const READABLE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

/** Rows of the raster the analysis reads. */
const ANALYSIS_HEIGHT = 160;
/** Colours closer than this (CIELAB ΔE) are one. */
const SAME_COLOUR = 14;
const BACKGROUND = 16;

/** Height fractions of the figure: [start, end) of each band. */
export const BANDS = { head: [0, 0.14], top: [0.14, 0.5], bottom: [0.5, 0.9], footwear: [0.94, 1] } as const;

export type PhotoProblem = 'unreadable' | 'too-many-pixels';

export type ReadPhoto =
  | { ok: true; width: number; height: number; raster: Raster; jpeg: Buffer }
  | { ok: false; problem: PhotoProblem };

export interface Raster {
  width: number;
  height: number;
  /** RGB, row after row. */
  data: Buffer;
}

/**
 * Checks and decodes the photo: the format from its bytes, the pixel count from its header
 * (refused over `maxPixels` before a pixel is decoded), then a small raster for the analysis and
 * a JPEG of at most `modelEdge` px a side for a vision model.
 */
export async function readPhoto(bytes: Buffer, maxPixels: number, modelEdge = 768): Promise<ReadPhoto> {
  const type = sniffImageType(bytes);
  if (!type || !(READABLE_TYPES as readonly string[]).includes(type)) return { ok: false, problem: 'unreadable' };
  let width: number | undefined;
  let height: number | undefined;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'truncated' }).metadata();
    width = metadata.autoOrient?.width ?? metadata.width;
    height = metadata.autoOrient?.height ?? metadata.height;
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  if (!width || !height) return { ok: false, problem: 'unreadable' };
  if (width * height > maxPixels) return { ok: false, problem: 'too-many-pixels' };
  try {
    const base = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated' }).rotate().flatten({ background: '#ffffff' });
    const [raw, jpeg] = await Promise.all([
      base.clone().resize({ height: ANALYSIS_HEIGHT, width: ANALYSIS_HEIGHT * 2, fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
      base.clone().resize(modelEdge, modelEdge, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer(),
    ]);
    return { ok: true, width, height, raster: { width: raw.info.width, height: raw.info.height, data: raw.data }, jpeg };
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error).message))) return { ok: false, problem: 'too-many-pixels' };
    return { ok: false, problem: 'unreadable' };
  }
}

type Lab = [number, number, number];
const distance = (a: Lab, b: Lab) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2);

interface Pixel {
  x: number;
  y: number;
  rgb: Rgb;
  lab: Lab;
}

/** The colour most of `pixels` share: the fullest histogram bin, then the mean of what is near it. */
function dominant(pixels: readonly Pixel[]): { rgb: Rgb; lab: Lab; share: number; near: Pixel[] } | null {
  if (!pixels.length) return null;
  const bins = new Map<number, Pixel[]>();
  for (const p of pixels) {
    const key = ((p.rgb[0] >> 5) << 6) | ((p.rgb[1] >> 5) << 3) | (p.rgb[2] >> 5);
    (bins.get(key) ?? bins.set(key, []).get(key)!).push(p);
  }
  const fullest = [...bins.values()].sort((a, b) => b.length - a.length)[0]!;
  const centre = mean(fullest);
  const near = pixels.filter((p) => distance(p.lab, centre.lab) < SAME_COLOUR * 1.5);
  const found = mean(near.length ? near : fullest);
  return { ...found, share: near.length / pixels.length, near };
}

function mean(pixels: readonly Pixel[]): { rgb: Rgb; lab: Lab } {
  const sum = [0, 0, 0];
  for (const p of pixels) for (let c = 0; c < 3; c++) sum[c]! += p.rgb[c]!;
  const rgb = sum.map((s) => Math.round(s / pixels.length)) as Rgb;
  return { rgb, lab: toLab(rgb) };
}

/** Solid when one colour covers the band; stripes change colour down it, not across; checks both ways. */
function patternOf(pixels: readonly Pixel[], main: Lab, share: number, width: number): Pattern {
  if (share >= 0.78) return 'solid';
  const isMain = new Map<number, boolean>(pixels.map((p) => [p.y * width + p.x, distance(p.lab, main) < SAME_COLOUR * 1.5]));
  let across = 0;
  let down = 0;
  let pairsAcross = 0;
  let pairsDown = 0;
  for (const p of pixels) {
    const here = isMain.get(p.y * width + p.x);
    const right = isMain.get(p.y * width + p.x + 1);
    const below = isMain.get((p.y + 1) * width + p.x);
    if (right !== undefined) {
      pairsAcross++;
      if (right !== here) across++;
    }
    if (below !== undefined) {
      pairsDown++;
      if (below !== here) down++;
    }
  }
  const a = across / Math.max(1, pairsAcross);
  const d = down / Math.max(1, pairsDown);
  if (d > 0.04 && d > a * 3) return 'striped';
  if (a > 0.04 && d > 0.04 && Math.abs(a - d) < Math.max(a, d) * 0.5) return 'checked';
  return 'other';
}

/** The pieces a photo shows, top to bottom; empty when no figure stands out from the background. */
export function garmentRegions(raster: Raster): GarmentPiece[] {
  const { width, height, data } = raster;
  const at = (x: number, y: number): Rgb => {
    const i = (y * width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  // The border's dominant colour is the background.
  const border: Pixel[] = [];
  for (let x = 0; x < width; x++) for (const y of [0, 1, height - 1]) border.push({ x, y, rgb: at(x, y), lab: toLab(at(x, y)) });
  for (let y = 0; y < height; y++) for (const x of [0, 1, width - 2, width - 1]) border.push({ x, y, rgb: at(x, y), lab: toLab(at(x, y)) });
  const background = dominant(border)!.lab;

  const figure: Pixel[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rgb = at(x, y);
      const lab = toLab(rgb);
      if (distance(lab, background) > BACKGROUND) figure.push({ x, y, rgb, lab });
    }
  }
  if (figure.length < width * height * 0.02) return [];
  // Rows with a few figure pixels only (a shadow, noise) do not stretch the figure.
  const perRow = new Array<number>(height).fill(0);
  for (const p of figure) perRow[p.y]!++;
  const rows = perRow.flatMap((n, y) => (n >= Math.max(2, width * 0.01) ? [y] : []));
  if (!rows.length) return [];
  const top = rows[0]!;
  const bottom = rows.at(-1)! + 1;
  const tall = bottom - top;
  const band = (name: keyof typeof BANDS) => figure.filter((p) => p.y >= top + BANDS[name][0] * tall && p.y < top + BANDS[name][1] * tall);

  // The head's colour is skin (or hair): wherever it shows again (arms, legs) it is not a garment.
  const head = dominant(band('head'));
  const skin = head && head.share > 0.3 ? head.lab : null;
  const garment = (pixels: Pixel[]) => (skin ? pixels.filter((p) => distance(p.lab, skin) > SAME_COLOUR) : pixels);

  const read = (slot: GarmentPiece['slot'], pixels: Pixel[], minShare: number): (GarmentPiece & { lab: Lab; count: number }) | null => {
    const cloth = garment(pixels);
    if (cloth.length < Math.max(6, pixels.length * minShare)) return null;
    const found = dominant(cloth)!;
    // A loop, not Math.min(...): a band can hold more pixels than a call takes arguments.
    let [x0, x1, y0, y1] = [width, 0, height, 0];
    for (const p of found.near) [x0, x1, y0, y1] = [Math.min(x0, p.x), Math.max(x1, p.x + 1), Math.min(y0, p.y), Math.max(y1, p.y + 1)];
    return {
      slot,
      colorFamily: nearestFamily(found.rgb),
      rgb: found.rgb,
      pattern: patternOf(cloth, found.lab, found.share, width),
      description: null,
      region: { x: round(x0 / width), y: round(y0 / height), width: round((x1 - x0) / width), height: round((y1 - y0) / height) },
      lab: found.lab,
      count: cloth.length,
    };
  };

  const upper = read('top', band('top'), 0.2);
  const lower = read('bottom', band('bottom'), 0.2);
  const feet = read('footwear', band('footwear'), 0.15);
  const pieces: Array<GarmentPiece & { lab: Lab; count: number }> = [];
  if (upper && lower && distance(upper.lab, lower.lab) < SAME_COLOUR) {
    const whole = read('full body', [...band('top'), ...band('bottom')], 0.2)!;
    pieces.push(whole);
  } else {
    if (upper) pieces.push(upper);
    if (lower) pieces.push(lower);
  }
  if (feet) pieces.push(feet);
  return pieces.map(({ lab: _lab, count: _count, ...piece }) => piece);
}

const round = (n: number) => Math.min(1, Math.max(0, Math.round(n * 1000) / 1000));
