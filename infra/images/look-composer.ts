// The offline picture of a look: each item's stored photo, its studio background trimmed where
// the border is near-uniform, fitted into its place of domain/looks/layout.ts on a light canvas,
// with the look's label above and, if asked, each item's name and price under it. An item without
// a usable photo is drawn as a swatch of its colour with its name. Deterministic: the same inputs
// give the same JPEG bytes. Every photo is bounded (bytes, then pixels from its header) before
// anything is decoded.
import sharp from 'sharp';
import type { Rect } from '../../domain/looks/layout.js';

/** A stored photo larger than this is not drawn (the swatch is). */
export const LOOK_PHOTO_MAX_BYTES = 25 * 1024 * 1024;
/** Pixels of one photo, read from its header before decoding. */
export const LOOK_PHOTO_MAX_PIXELS = 40_000_000;

const BACKGROUND = { r: 247, g: 245, b: 242 };
const INK = '#2b2b2b';

export interface LookTile {
  /** The stored photo's bytes, or null for a swatch. */
  photo: Buffer | null;
  colour: readonly [number, number, number];
  name: string;
  /** Under the picture when given ("Linen Shirt · €60.00"). */
  caption: string | null;
  rect: Rect;
}

export interface LookComposition {
  width: number;
  height: number;
  label: string | null;
  /** Height of the label band (0 without one). */
  top: number;
  tiles: LookTile[];
}

export interface ComposedLook {
  bytes: Buffer;
  contentType: 'image/jpeg';
  /** Per tile: whether its photo was drawn (false: a swatch). */
  photos: boolean[];
}

/** The label band's height for a canvas: none without a label. */
export const labelBand = (height: number, label: string | null | undefined): number => (label ? Math.round(height * 0.08) : 0);

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
// Control characters would make the SVG invalid.
const printable = (text: string) => [...text].map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c)).join('');

export async function composeLook(look: LookComposition): Promise<ComposedLook> {
  const layers: sharp.OverlayOptions[] = [];
  const photos: boolean[] = [];
  const captionHeight = (tile: LookTile) => (tile.caption ? Math.max(14, Math.round(Math.min(tile.rect.height * 0.14, 26))) : 0);
  const boxOf = (tile: LookTile) => ({ width: tile.rect.width, height: Math.max(8, tile.rect.height - captionHeight(tile)) });
  // Decoded side by side (sharp's threads); laid down in order, so the bytes never depend on which finished first.
  const pictures = await Promise.all(look.tiles.map((tile) => (tile.photo ? fittedPhoto(tile.photo, boxOf(tile)) : null)));
  for (const [i, tile] of look.tiles.entries()) {
    const box = boxOf(tile);
    const picture = pictures[i]!;
    photos.push(picture !== null);
    if (picture) {
      layers.push({
        input: picture.bytes,
        raw: { width: picture.width, height: picture.height, channels: picture.channels },
        left: tile.rect.x + Math.floor((box.width - picture.width) / 2),
        top: tile.rect.y + Math.floor((box.height - picture.height) / 2),
      });
    } else {
      layers.push({ input: swatch(tile, box), left: tile.rect.x, top: tile.rect.y });
    }
    // Right under the picture (a photo narrower than its place sits in its middle).
    const captionTop = picture ? tile.rect.y + Math.floor((box.height - picture.height) / 2) + picture.height : tile.rect.y + box.height;
    if (tile.caption) layers.push({ input: text(tile.caption, tile.rect.width, captionHeight(tile), Math.round(captionHeight(tile) * 0.62)), left: tile.rect.x, top: captionTop });
  }
  if (look.label && look.top > 0) layers.push({ input: text(look.label, look.width, look.top, Math.round(look.top * 0.42), 600), left: 0, top: 0 });
  const bytes = await sharp({ create: { width: look.width, height: look.height, channels: 3, background: BACKGROUND } })
    .composite(layers)
    .jpeg({ quality: 84, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return { bytes, contentType: 'image/jpeg', photos };
}

/** A border pixel counts as background while every channel is within this of the corner's. */
const TRIM_THRESHOLD = 24;
/** The side of the thumbnail the background's edges are found on. */
const TRIM_PROBE = 128;

/**
 * The photo fitted inside `box`, its near-uniform border trimmed, on the canvas colour; null when
 * it cannot be drawn (too big, too many pixels, not an image). The border is found on a small
 * thumbnail (shrunk on load: cheap) and cut from the photo in the one pass that fits it.
 */
async function fittedPhoto(photo: Buffer, box: { width: number; height: number }): Promise<{ bytes: Buffer; width: number; height: number; channels: 3 } | null> {
  if (photo.length > LOOK_PHOTO_MAX_BYTES) return null;
  try {
    const meta = await sharp(photo, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height || meta.width * meta.height > LOOK_PHOTO_MAX_PIXELS) return null;
    const turned = (meta.orientation ?? 1) >= 5;
    const full = { width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
    const open = () => sharp(photo, { limitInputPixels: LOOK_PHOTO_MAX_PIXELS, failOn: 'truncated' }).rotate();
    const probe = await open().flatten({ background: '#ffffff' }).resize(TRIM_PROBE, TRIM_PROBE, { fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const cut = subjectBox(probe.data, probe.info.width, probe.info.height, probe.info.channels, full);
    // A light studio background (white, or the off-white of many shops) is shifted to the canvas
    // colour, so the trimmed photo does not sit in a box of another shade; a dark one is left alone.
    const studio = [probe.data[0]!, probe.data[1]!, probe.data[2]!];
    const light = studio.every((v) => v >= 200);
    const shift = [BACKGROUND.r, BACKGROUND.g, BACKGROUND.b].map((target, c) => (light ? target / studio[c]! : 1));
    const { data, info } = await (cut ? open().extract(cut) : open())
      .flatten({ background: '#ffffff' })
      .resize(box.width, box.height, { fit: 'inside' })
      .removeAlpha()
      .linear(shift, [0, 0, 0])
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height, channels: 3 };
  } catch {
    return null;
  }
}

/**
 * The region of the photo (in its own pixels) that is not its background, the background being
 * the top-left corner's colour; null when there is nothing to trim or nothing but background.
 */
function subjectBox(pixels: Buffer, width: number, height: number, channels: number, full: { width: number; height: number }): { left: number; top: number; width: number; height: number } | null {
  const background = [pixels[0]!, pixels[1]!, pixels[2]!];
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      if (Math.abs(pixels[at]! - background[0]!) <= TRIM_THRESHOLD && Math.abs(pixels[at + 1]! - background[1]!) <= TRIM_THRESHOLD && Math.abs(pixels[at + 2]! - background[2]!) <= TRIM_THRESHOLD) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return null;
  // One probe pixel of margin each side: the probe is coarse, and a garment's edge should not be cut.
  const sx = full.width / width;
  const sy = full.height / height;
  const left = Math.max(0, Math.floor((minX - 1) * sx));
  const top = Math.max(0, Math.floor((minY - 1) * sy));
  const right = Math.min(full.width, Math.ceil((maxX + 2) * sx));
  const bottom = Math.min(full.height, Math.ceil((maxY + 2) * sy));
  if (left === 0 && top === 0 && right === full.width && bottom === full.height) return null;
  return { left, top, width: right - left, height: bottom - top };
}

function swatch(tile: LookTile, box: { width: number; height: number }): Buffer {
  const [r, g, b] = tile.colour;
  const light = 0.299 * r + 0.587 * g + 0.114 * b > 150;
  const inset = Math.round(Math.min(box.width, box.height) * 0.08);
  const size = Math.max(10, Math.min(28, Math.round(box.width / 12)));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}">` +
      `<rect x="${inset}" y="${inset}" width="${Math.max(1, box.width - 2 * inset)}" height="${Math.max(1, box.height - 2 * inset)}" rx="${inset}" fill="rgb(${r},${g},${b})"/>` +
      `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-size="${size}" fill="${light ? INK : '#ffffff'}">${escapeXml(printable(shorten(tile.name, Math.floor(box.width / (size * 0.55)))))}</text>` +
      `</svg>`,
  );
}

function text(content: string, width: number, height: number, size: number, weight = 400): Buffer {
  const fitting = shorten(printable(content), Math.max(4, Math.floor(width / (size * 0.55))));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text x="50%" y="55%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="${weight}" font-size="${size}" fill="${INK}">${escapeXml(fitting)}</text>` +
      `</svg>`,
  );
}

const shorten = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`);
