// The shopper's photo for try-on (POST /v2/agent/looks `userPhotoUrl`), fetched through the
// outbound module (no private address unless OUTBOUND_ALLOW_PRIVATE; every redirect hop checked),
// its bytes bounded while they arrive, its pixels bounded from the header before decoding, its
// type told by its bytes (a Content-Type is not trusted), then made a modest JPEG for the model.
import sharp from 'sharp';
import { MAX_REDIRECTS, OutboundRefused, readCapped, type Outbound } from '../http/outbound.js';
import { discard } from '../http/fetch-helpers.js';
import { sniffImageType } from './inspect.js';

export const USER_PHOTO_LIMITS = { bytes: 10 * 1024 * 1024, pixels: 40_000_000, longSide: 1536, timeoutMs: 10_000 } as const;

/** Why the photo cannot be used; the message completes "userPhotoUrl could not be used: …". */
export class UserPhotoProblem extends Error {
  override name = 'UserPhotoProblem';
}

const READABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);

export async function fetchUserPhoto(outbound: Outbound, url: string, signal?: AbortSignal): Promise<Buffer> {
  const deadline = AbortSignal.timeout(USER_PHOTO_LIMITS.timeoutMs);
  const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let bytes: Buffer;
  try {
    let target = new URL(url);
    let response: Response;
    for (let hop = 0; ; hop++) {
      response = await outbound.fetch(target, { signal: stop, headers: { accept: 'image/*' } });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) break;
      discard(response);
      if (hop >= MAX_REDIRECTS) throw new UserPhotoProblem(`more than ${MAX_REDIRECTS} redirects`);
      target = new URL(location, target);
    }
    if (!response.ok) {
      discard(response);
      throw new UserPhotoProblem(`its server answered ${response.status}`);
    }
    bytes = await readCapped(response, USER_PHOTO_LIMITS.bytes, () => new UserPhotoProblem(`it is larger than ${USER_PHOTO_LIMITS.bytes / (1024 * 1024)} MB`));
  } catch (error) {
    if (error instanceof UserPhotoProblem) throw error;
    if (error instanceof OutboundRefused) throw new UserPhotoProblem(error.message);
    if (deadline.aborted) throw new UserPhotoProblem(`no whole answer within ${USER_PHOTO_LIMITS.timeoutMs / 1000} s`);
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
