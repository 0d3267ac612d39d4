// An image from a URL someone gave us (a product photo, a shopper's try-on photo, the photo of a
// match), fetched the one way: through the guarded outbound client (outbound.ts, which checks the
// address of every connection), redirects followed hop by hop so each hop is checked again and
// counted, one deadline over the whole exchange (redirects and body included, so neither a stall
// nor a trickle holds a worker), and the body refused as soon as it passes its byte bound.
// What goes wrong is one ImageFetchError with a machine-readable `reason`: each caller words it for
// its own audience (a merchant's photo report, a 422 to a shopper), and those words are its own.
import { discard } from './fetch-helpers.js';
import { OutboundRefused, readCapped, type Outbound } from './outbound.js';

export type ImageFetchReason =
  /** The outbound guard refused an address (`refused` holds its words). */
  | 'refused'
  /** The server answered something other than an image (`status`). */
  | 'status'
  /** More than `limit` redirects. */
  | 'redirects'
  /** A Location that is not a URL (`cause`), or that `allowUrl` refused (`refused`). */
  | 'bad-redirect'
  /** Not http or https (`protocol`; `refused` holds the outbound client's words for it). */
  | 'scheme'
  /** The body passed `limit` bytes (declared or counted). */
  | 'too-large'
  /** The deadline (`limit` ms) ran out. */
  | 'timeout'
  /** Anything else: the network, or the caller's own signal (`cause`). */
  | 'failed';

/** What an `ImageFetchError` knows beyond its reason. */
export interface ImageFetchDetails {
  status?: number;
  limit?: number;
  refused?: string;
  protocol?: string;
  location?: string;
  cause?: unknown;
}

export class ImageFetchError extends Error {
  override name = 'ImageFetchError';

  readonly reason: ImageFetchReason;
  readonly details: ImageFetchDetails;
  constructor(reason: ImageFetchReason, details: ImageFetchDetails = {}) {
    super(`image fetch failed: ${reason}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.details = details;
  }
}

export interface ImageFetchOptions {
  /** The whole exchange, redirects and body included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** The caller's own (a request that went away); its abort is 'failed', with the abort as `cause`. */
  signal?: AbortSignal;
  /** Where a redirect may lead beyond the outbound guard's rule: null to follow it, else why not. */
  allowUrl?: (url: URL) => string | null;
  /** Which answers carry the image. Default any 2xx. */
  acceptStatus?: (status: number) => boolean;
}

const isWebScheme = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

export async function fetchImageBytes(outbound: Outbound, url: URL, options: ImageFetchOptions): Promise<Buffer> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const stop = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const accept = options.acceptStatus ?? ((status: number) => status >= 200 && status < 300);
  try {
    for (let redirects = 0; ; redirects++) {
      // The outbound client would refuse it too; checked here so callers can say which scheme.
      if (!isWebScheme(url)) throw new ImageFetchError('scheme', { protocol: url.protocol, refused: OutboundRefused.scheme(url.protocol).message });
      const response = await outbound.fetch(url, { signal: stop, headers: { accept: 'image/*' } });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        discard(response);
        if (redirects >= options.maxRedirects) throw new ImageFetchError('redirects', { limit: options.maxRedirects });
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (error) {
          throw new ImageFetchError('bad-redirect', { location, cause: error });
        }
        const refused = options.allowUrl?.(next) ?? null;
        if (refused !== null) throw new ImageFetchError('bad-redirect', { location, refused });
        url = next;
        continue;
      }
      if (!accept(response.status)) {
        discard(response);
        throw new ImageFetchError('status', { status: response.status });
      }
      return await readCapped(response, options.maxBytes, () => new ImageFetchError('too-large', { limit: options.maxBytes }));
    }
  } catch (error) {
    if (error instanceof ImageFetchError) throw error;
    if (error instanceof OutboundRefused) throw new ImageFetchError('refused', { refused: error.message, cause: error });
    // Checked before the caller's signal: a photo that ran out of time says so even if the caller gave up too.
    if (deadline.aborted) throw new ImageFetchError('timeout', { limit: options.timeoutMs, cause: error });
    throw new ImageFetchError('failed', { cause: error });
  }
}
