// The photo of POST /v2/agent/match as bytes: a data URI decoded (its size was checked with the
// body), or a web address fetched through the one guarded outbound client (infra/http/outbound.ts:
// no private address unless OUTBOUND_ALLOW_PRIVATE), redirects followed hop by hop, each checked,
// the body refused as soon as it passes the byte bound. What the bytes are is decided later, by
// decoding them (infra/images/garment-regions.ts), never by a Content-Type.
import { MAX_REDIRECTS, OutboundRefused, readCapped, type Outbound } from '../http/outbound.js';
import { deepestMessage, discard, errorCode } from '../http/fetch-helpers.js';
import { readDataUri } from '../../domain/agent/messages.js';
import { imageUrl, MATCH_LIMITS, matchMessages } from '../../domain/match/request.js';

export type PhotoBytes = { ok: true; bytes: Buffer } | { ok: false; message: string };

export const PHOTO_FETCH_TIMEOUT_MS = 10_000;

class TooLarge extends Error {}

export async function matchPhotoBytes(image: string, outbound: Outbound, signal?: AbortSignal, timeoutMs = PHOTO_FETCH_TIMEOUT_MS): Promise<PhotoBytes> {
  if (image.startsWith('data:')) {
    const uri = readDataUri(image);
    if (!uri) return { ok: false, message: matchMessages.image };
    const bytes = Buffer.from(uri.base64, 'base64');
    return bytes.length > MATCH_LIMITS.imageBytes ? { ok: false, message: matchMessages.imageBytes } : { ok: true, bytes };
  }
  let url = imageUrl(image, outbound.allowPrivate);
  if (!url) return { ok: false, message: matchMessages.image };
  const deadline = AbortSignal.timeout(timeoutMs);
  const within = signal ? AbortSignal.any([signal, deadline]) : deadline;
  try {
    for (let hop = 0; ; hop++) {
      const response = await outbound.fetch(url, { signal: within, headers: { accept: 'image/*' } });
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        discard(response);
        if (hop >= MAX_REDIRECTS) return { ok: false, message: matchMessages.imageFetch(`more than ${MAX_REDIRECTS} redirects`) };
        const next = imageUrl(new URL(response.headers.get('location')!, url).toString(), outbound.allowPrivate);
        if (!next) return { ok: false, message: matchMessages.imageFetch('it redirects to an address that is not https') };
        url = next;
        continue;
      }
      if (response.status !== 200) {
        discard(response);
        return { ok: false, message: matchMessages.imageFetch(`the server answered ${response.status}`) };
      }
      const bytes = await readCapped(response, MATCH_LIMITS.imageBytes, () => new TooLarge());
      return { ok: true, bytes };
    }
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, message: matchMessages.imageBytes };
    if (error instanceof OutboundRefused) return { ok: false, message: matchMessages.imageRefused(error.message.replace(/^refused: /, '')) };
    if (deadline.aborted) return { ok: false, message: matchMessages.imageFetch(`no answer within ${timeoutMs / 1000} s`) };
    if (signal?.aborted) throw error;
    return { ok: false, message: matchMessages.imageFetch(errorCode(error) ?? deepestMessage(error)) };
  }
}
