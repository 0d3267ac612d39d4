// The shopper's photo for try-on (POST /v2/agent/looks `userPhotoUrl`), fetched through the
// outbound module (no private address unless OUTBOUND_ALLOW_PRIVATE; every redirect hop checked),
// its bytes bounded while they arrive, its pixels bounded from the header before decoding, its
// type told by its bytes (a Content-Type is not trusted), then made a modest JPEG for the model.
import sharp from 'sharp';
import { fetchImageBytes, ImageFetchError } from '../http/fetch-image.js';
import { MAX_REDIRECTS, type Outbound } from '../http/outbound.js';
import { sniffImageType } from './inspect.js';

export const USER_PHOTO_LIMITS = { bytes: 10 * 1024 * 1024, pixels: 40_000_000, longSide: 1536, timeoutMs: 10_000 } as const;

/** Why the photo cannot be used; the message completes "userPhotoUrl could not be used: …". */
export class UserPhotoProblem extends Error {
  override name = 'UserPhotoProblem';
}

const READABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);

/** The words for each way the fetch fails; each completes "userPhotoUrl could not be used: …". */
function userPhotoProblem(error: ImageFetchError): UserPhotoProblem {
  switch (error.reason) {
    // A scheme other than http(s) is the outbound client's refusal, in its words.
    case 'refused':
    case 'scheme':
      return new UserPhotoProblem(error.details.refused!);
    case 'status':
      return new UserPhotoProblem(`its server answered ${error.details.status}`);
    case 'redirects':
      return new UserPhotoProblem(`more than ${error.details.limit} redirects`);
    case 'too-large':
      return new UserPhotoProblem(`it is larger than ${error.details.limit! / (1024 * 1024)} MB`);
    case 'timeout':
      return new UserPhotoProblem(`no whole answer within ${error.details.limit! / 1000} s`);
    case 'bad-redirect':
    case 'failed':
      return new UserPhotoProblem('it could not be fetched');
  }
}

export async function fetchUserPhoto(outbound: Outbound, url: string, signal?: AbortSignal): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await fetchImageBytes(outbound, new URL(url), { timeoutMs: USER_PHOTO_LIMITS.timeoutMs, maxBytes: USER_PHOTO_LIMITS.bytes, maxRedirects: MAX_REDIRECTS, signal });
  } catch (error) {
    if (error instanceof ImageFetchError) throw userPhotoProblem(error);
    // Not a URL (the request's schema lets only http(s) URLs through, so not expected).
    throw new UserPhotoProblem('it could not be fetched');
  }
  const type = sniffImageType(bytes);
  if (!type || !READABLE.has(type)) throw new UserPhotoProblem('it is not a JPEG, PNG, WebP or AVIF picture');
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    throw new UserPhotoProblem('it is damaged or incomplete');
  }
  if (!width || !height || width * height > USER_PHOTO_LIMITS.pixels) throw new UserPhotoProblem(`it has more than ${USER_PHOTO_LIMITS.pixels.toLocaleString('en-US')} pixels`);
  try {
    return await sharp(bytes, { limitInputPixels: USER_PHOTO_LIMITS.pixels, failOn: 'truncated' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize(USER_PHOTO_LIMITS.longSide, USER_PHOTO_LIMITS.longSide, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 88 })
      .toBuffer();
  } catch {
    throw new UserPhotoProblem('it is damaged or incomplete');
  }
}
