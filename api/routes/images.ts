// GET /v1/image/{key} (document 2 "Uploads and images"): no key, not metered. The stored bytes of
// an image, or a variant when transforms follow the key (`/-/resize/400x/-/format/webp`), with a
// strong ETag and a year of immutable caching. HEAD answers the same headers (fastify adds it).
// Sizes and qualities are snapped to documented steps (domain/image/variant-space.ts); new
// variants are bounded per client address (infra/images/variants.ts).
import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidTransform, MAX_SIDE, parseImagePath } from '../../domain/image/transforms.js';
import { QUALITY_LEVELS, SIDE_STEPS } from '../../domain/image/variant-space.js';
import { Abandoned, ImagesBusy, TooManyNewVariants, type ImageDelivery } from '../../infra/images/variants.js';
import { UntransformableImage } from '../../infra/images/transform.js';
import { InvalidObjectKey } from '../../infra/objects/port.js';
import { HttpError } from '../plugins/errors.js';

export interface ImagesContext {
  images: ImageDelivery;
}

export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** `If-None-Match` holds our tag (or `*`); weak comparison, as RFC 9110 asks of this header. */
const matches = (header: string | undefined, etag: string): boolean => {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
};

/**
 * Whose share a request draws on: its IPv4 address, or the /64 network of an IPv6 one (one
 * subscriber is commonly given a whole /64, so its addresses are one client).
 */
export function clientGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export const imageRoutes = (context: ImagesContext) => (app: FastifyInstance) => {
  app.addHook('onClose', async () => context.images.close());

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    let image;
    try {
      const { key, chain } = parseImagePath(path);
      // A client that goes away before its answer stops wanting a variant not yet begun.
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      image = await context.images.get(key, chain, clientGroup(request.ip), gone.signal);
      if (!image) throw new HttpError(404, `Image not found: ${key}`);
    } catch (error) {
      if (error instanceof InvalidTransform) throw new HttpError(400, error.message);
      if (error instanceof InvalidObjectKey) throw new HttpError(400, `Invalid image key: ${error.message.replace(/^Invalid object key /, '')}`);
      if (error instanceof UntransformableImage) throw new HttpError(422, `The image cannot be transformed: ${error.message}.`);
      if (error instanceof TooManyNewVariants) {
        reply.header('retry-after', String(error.retryAfterSeconds));
        throw new HttpError(429, error.message, { ...error.detail, resource: error.detail.bucket, retryAfter: error.retryAfterSeconds });
      }
      // Nobody is there to read it.
      if (error instanceof Abandoned) throw new HttpError(503, error.message);
      if (error instanceof ImagesBusy) {
        reply.header('retry-after', String(error.retryAfterSeconds));
        throw new HttpError(503, error.message);
      }
      throw error;
    }
    reply.header('etag', image.etag).header('cache-control', IMAGE_CACHE_CONTROL);
    // Storefronts on any site show these (an <img>, a widget's canvas), so any origin may read them.
    reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
    if (matches(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
    return reply.header('content-type', image.contentType).send(image.body);
  };

  app.get(
    '/v1/image/*',
    {
      schema: {
        summary: 'Get an image',
        description:
          'No key. `{*}` is an object key (`uploads/<fileId>.<ext>`, `images/<uuid>.jpeg`), optionally followed by transforms in any order, each at most once: ' +
          `\`/-/resize/<w>x\`, \`/-/resize/x<h>\`, \`/-/resize/<w>x<h>\` (fits inside, 1 to ${MAX_SIDE} px), \`/-/stretch/on|off|fill\`, \`/-/format/jpeg|png|webp|avif\`, \`/-/quality/<1-100>\`. ` +
          `A side is made at the next of ${SIDE_STEPS.join(', ')} px, a quality at the nearest of ${QUALITY_LEVELS.join(', ')}. ` +
          `As Uploadcare's \`stretch\`: an original smaller than asked is enlarged (\`on\`, the default; its longer side at most ${MAX_SIDE} px), kept at its size (\`off\`), or kept at its size and centred on white to the size asked (\`fill\`); ` +
          'a resize to the size the original already has is the original. ' +
          'Answers the bytes with a strong ETag (`If-None-Match` gives 304) and `Cache-Control: ' + IMAGE_CACHE_CONTROL + '`. ' +
          '400: malformed key or transform; 404: no image at the key; 422: the stored image cannot be transformed; ' +
          '429 with Retry-After: this address has had its share of new variants (cached ones are not counted); 503 with Retry-After: too many new variants at once.',
        tags: ['image'],
      },
    },
    serve,
  );
  // The same handler without a key (a 400 naming it). Registered on its own so the router keeps
  // `/v1/image/` as a node of its own: without it `printRoutes` shows the wildcard as a bare `*`.
  app.get('/v1/image/', { schema: { hide: true } }, serve);
};
