// Product photos from the merchant's servers: fetched through the outbound client (public
// addresses only) with a timeout, a size cap and a bounded number of redirects, checked by their bytes (not their Content-Type), normalised to JPEG with
// sharp and stored as `images/<uuid>.jpeg`. The uuid derives from the item and the source URL, so
// reprocessing an item rewrites the same objects instead of piling up copies.
import sharp from 'sharp';
import { v5 as uuidv5 } from 'uuid';
import type { ProductPhoto } from '../../infra/models/port.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import { deepestMessage } from '../../infra/http/fetch-helpers.js';
import { fetchImageBytes, ImageFetchError } from '../../infra/http/fetch-image.js';
import { outboundClient, type Outbound } from '../../infra/http/outbound.js';

const IMAGE_ID_NAMESPACE = '0e8f5a3c-7b1d-4c2e-9f6a-3d5b7c9e1f20';

export interface PhotoLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Longest side of the stored JPEG. */
  maxSide: number;
}

export const DEFAULT_PHOTO_LIMITS: PhotoLimits = { timeoutMs: 10_000, maxBytes: 15 * 1024 * 1024, maxRedirects: 5, maxSide: 1600 };

/** Bytes for a `src` that is not fetched over HTTP (the demo catalogue's drawn photos); null: not ours. */
export type LocalPhotoSource = (src: string) => Promise<Buffer | null>;

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

/** Shopify feeds often give protocol-relative `//cdn.shopify.com/…` sources. */
const absolute = (src: string): string => (src.startsWith('//') ? `https:${src}` : src);

/** The words of a photo report for each way a fetch fails (merchants read them; tests assert them). */
function photoProblem(error: ImageFetchError): PhotoProblem {
  const { status, limit, refused, protocol, location, cause } = error.details;
  switch (error.reason) {
    case 'refused':
      return new PhotoProblem(refused!);
    case 'status':
      return new PhotoProblem(`HTTP ${status}`);
    case 'redirects':
      return new PhotoProblem(`more than ${limit} redirects`);
    case 'bad-redirect':
      return new PhotoProblem(`redirected to ${location!.slice(0, 200)}, which is not a URL`);
    case 'scheme':
      return new PhotoProblem(`unsupported scheme ${protocol}`);
    case 'too-large':
      return new PhotoProblem(`larger than ${limit} bytes`);
    case 'timeout':
      return new PhotoProblem(`no answer within ${limit} ms`);
    case 'failed':
      return new PhotoProblem(`fetch failed (${deepestMessage(cause)})`);
  }
}

/**
 * One deadline covers the whole photo (redirects and body included), and every way it can go wrong
 * (stalled, trickling, too large, redirected badly or to an address Stylist does not fetch) is a
 * PhotoProblem: that photo fails, never its item.
 */
export async function fetchPhotoBytes(src: string, limits: PhotoLimits = DEFAULT_PHOTO_LIMITS, outbound: Outbound = outboundClient(false)): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(absolute(src));
  } catch {
    throw new PhotoProblem('not a URL');
  }
  try {
    return await fetchImageBytes(outbound, url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, maxRedirects: limits.maxRedirects });
  } catch (error) {
    throw error instanceof ImageFetchError ? photoProblem(error) : error;
  }
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

export interface StoredPhoto {
  src: string;
  id: string;
  key: string;
  photo: ProductPhoto;
}

export const imageIdFor = (itemId: string, src: string): string => uuidv5(`${itemId}/${src}`, IMAGE_ID_NAMESPACE);

/** One photo end to end; a problem is returned, not thrown: a broken photo never sinks its item. */
export async function storePhoto(
  objects: ObjectStore,
  itemId: string,
  src: string,
  options: { limits?: PhotoLimits; local?: LocalPhotoSource; outbound?: Outbound } = {},
): Promise<StoredPhoto | { src: string; problem: string }> {
  const limits = options.limits ?? DEFAULT_PHOTO_LIMITS;
  try {
    const bytes = (await options.local?.(src)) ?? (await fetchPhotoBytes(src, limits, options.outbound));
    const photo = await normalisePhoto(bytes, limits.maxSide);
    const id = imageIdFor(itemId, src);
    const key = `images/${id}.jpeg`;
    await objects.put(key, photo.jpeg, { contentType: 'image/jpeg' });
    return { src, id, key, photo };
  } catch (error) {
    if (error instanceof PhotoProblem) return { src, problem: error.message };
    throw error;
  }
}
