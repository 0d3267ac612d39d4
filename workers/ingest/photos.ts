// Product photos from the merchant's servers: fetched through the outbound client (public
// addresses only) with a timeout, a size cap and a bounded number of redirects, checked by their
// bytes (not their Content-Type), normalised to JPEG (infra/images/product-photo.ts) and stored as
// `images/<uuid>.jpeg`. The uuid derives from the item and the source URL, so reprocessing an item
// rewrites the same objects instead of piling up copies, and drops the variants of what they held.
import { v5 as uuidv5 } from 'uuid';
import { replaceOriginal } from '../../infra/images/originals.js';
import { normalisePhoto, PhotoProblem } from '../../infra/images/product-photo.js';
import type { ProductPhoto } from '../../infra/models/port.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import { deepestMessage } from '../../infra/http/fetch-helpers.js';
import { fetchImageBytes, ImageFetchError } from '../../infra/http/fetch-image.js';
import { outboundClient, type Outbound } from '../../infra/http/outbound.js';

// Where they were before they moved behind infra/images; the ingest tests still read them here.
export { MAX_PHOTO_PIXELS, normalisePhoto, PhotoProblem, sniffImage } from '../../infra/images/product-photo.js';

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
    await replaceOriginal(objects, key, photo.jpeg, 'image/jpeg');
    return { src, id, key, photo };
  } catch (error) {
    if (error instanceof PhotoProblem) return { src, problem: error.message };
    throw error;
  }
}
