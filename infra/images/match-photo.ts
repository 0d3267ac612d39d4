// The photo of POST /v2/agent/match as bytes: a data URI decoded (its size was checked with the
// body), or a web address fetched through the one guarded outbound client (infra/http/outbound.ts:
// no private address unless OUTBOUND_ALLOW_PRIVATE), redirects followed hop by hop, each checked,
// the body refused as soon as it passes the byte bound. What the bytes are is decided later, by
// decoding them (infra/images/garment-regions.ts), never by a Content-Type.
import { fetchImageBytes, ImageFetchError } from '../http/fetch-image.js';
import { MAX_REDIRECTS, type Outbound } from '../http/outbound.js';
import { deepestMessage, errorCode } from '../http/fetch-helpers.js';
import { readDataUri } from '../../domain/agent/messages.js';
import { imageUrl, MATCH_LIMITS, matchMessages } from '../../domain/match/request.js';

export type PhotoBytes = { ok: true; bytes: Buffer } | { ok: false; message: string };

export const PHOTO_FETCH_TIMEOUT_MS = 10_000;

/** The route's words for each way the fetch fails (the route's tests and docs read the same). */
function matchProblem(error: ImageFetchError, signal: AbortSignal | undefined): PhotoBytes {
  const { status, limit, refused, cause } = error.details;
  const failed = (): PhotoBytes => {
    // The request went away: nobody reads an answer, so the abort goes up as it came.
    if (signal?.aborted) throw cause;
    return { ok: false, message: matchMessages.imageFetch(errorCode(cause) ?? deepestMessage(cause)) };
  };
  switch (error.reason) {
    case 'too-large':
      return { ok: false, message: matchMessages.imageBytes };
    // imageUrl lets only http(s) through, so 'scheme' is not expected; were it, it is the outbound client's refusal.
    case 'refused':
    case 'scheme':
      return { ok: false, message: matchMessages.imageRefused(refused!.replace(/^refused: /, '')) };
    case 'timeout':
      return { ok: false, message: matchMessages.imageFetch(`no answer within ${limit! / 1000} s`) };
    case 'redirects':
      return { ok: false, message: matchMessages.imageFetch(`more than ${limit} redirects`) };
    case 'status':
      return { ok: false, message: matchMessages.imageFetch(`the server answered ${status}`) };
    case 'bad-redirect':
      // A Location that is not a URL at all is told like any other failure: by its error's code.
      return refused === undefined ? failed() : { ok: false, message: matchMessages.imageFetch('it redirects to an address that is not https') };
    case 'failed':
      return failed();
  }
}

export async function matchPhotoBytes(image: string, outbound: Outbound, signal?: AbortSignal, timeoutMs = PHOTO_FETCH_TIMEOUT_MS): Promise<PhotoBytes> {
  if (image.startsWith('data:')) {
    const uri = readDataUri(image);
    if (!uri) return { ok: false, message: matchMessages.image };
    const bytes = Buffer.from(uri.base64, 'base64');
    return bytes.length > MATCH_LIMITS.imageBytes ? { ok: false, message: matchMessages.imageBytes } : { ok: true, bytes };
  }
  const url = imageUrl(image, outbound.allowPrivate);
  if (!url) return { ok: false, message: matchMessages.image };
  try {
    const bytes = await fetchImageBytes(outbound, url, {
      timeoutMs,
      maxBytes: MATCH_LIMITS.imageBytes,
      maxRedirects: MAX_REDIRECTS,
      signal,
      // A redirect is held to the rule the address given was: https (http only where private addresses are allowed).
      allowUrl: (next) => (imageUrl(next.toString(), outbound.allowPrivate) ? null : 'not https'),
      // Only a plain 200 carries the photo.
      acceptStatus: (answered) => answered === 200,
    });
    return { ok: true, bytes };
  } catch (error) {
    if (error instanceof ImageFetchError) return matchProblem(error, signal);
    throw error;
  }
}
