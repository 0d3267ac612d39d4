// Catalogue product photos as ingest stores them: checked by their bytes (not a declared type),
// refused past MAX_PHOTO_PIXELS from the header, turned upright, flattened on white, brought within
// a longest side and encoded as JPEG, with a small raster for reading colours. The ingest worker
// reaches sharp only through here, as image delivery does through transform.ts.
import sharp from 'sharp';
import type { ProductPhoto } from '../models/port.js';

/** A photo that cannot be used (its words go into the item's photo report); never its item's failure. */
export class PhotoProblem extends Error {
  override name = 'PhotoProblem';
}

/** What the bytes are, from their first bytes; null when no image format we take. */
export function sniffImage(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | 'avif' | null {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(0, 4) === 'GIF8') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'avif';
  return null;
}

/** Far above any product photo (a 50 MP camera), far below what would exhaust a worker's memory. */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** Per pipeline: a crafted image that decodes slowly fails this photo, not the worker. */
const PHOTO_CPU_SECONDS = 20;

/** JPEG for storage and a ≤ 64 px RGB raster for colour reading; refuses anything that is not an image (or that sharp cannot decode). */
export async function normalisePhoto(bytes: Buffer, maxSide: number): Promise<ProductPhoto> {
  if (bytes.length === 0) throw new PhotoProblem('empty response');
  if (!sniffImage(bytes)) throw new PhotoProblem('not an image (unrecognised content)');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new PhotoProblem(`unreadable image (${error instanceof Error ? error.message : String(error)})`);
  }
  // Read from the header before anything is decoded: a few kilobytes of PNG can claim gigapixels.
  const pixels = (meta.width ?? 0) * (meta.height ?? 0) * Math.max(1, meta.pages ?? 1);
  if (pixels > MAX_PHOTO_PIXELS) throw new PhotoProblem(`${meta.width}×${meta.height} pixels${(meta.pages ?? 1) > 1 ? ` × ${meta.pages} frames` : ''} is over the limit of ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`);
  try {
    const source = sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS }).timeout({ seconds: PHOTO_CPU_SECONDS });
    // Most store photos are already upright JPEGs of a sensible size: those are kept byte for byte
    // (re-encoding them would cost most of the pipeline's time for nothing); the rest are turned
    // upright, flattened on white, brought within maxSide and encoded as JPEG.
    const storable = meta.format === 'jpeg' && (meta.orientation ?? 1) === 1 && (meta.width ?? Infinity) <= maxSide && (meta.height ?? Infinity) <= maxSide;
    const upright = source.clone().rotate().flatten({ background: '#ffffff' });
    const [jpeg, raster] = await Promise.all([
      storable ? Promise.resolve(bytes) : upright.clone().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer(),
      // A big shrink lets libjpeg decode at an eighth of the size: the raster costs little.
      upright.clone().resize({ width: 64, height: 64, fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
    ]);
    return { jpeg, pixels: { data: new Uint8Array(raster.data), width: raster.info.width, height: raster.info.height } };
  } catch (error) {
    throw new PhotoProblem(`unreadable image (${error instanceof Error ? error.message : String(error)})`);
  }
}
