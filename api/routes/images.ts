// GET /v1/image/{key} (document 2 "Uploads and images"): no key, not metered. The stored bytes of
// an image, or a variant when transforms follow the key (`/-/resize/400x/-/format/webp`), with a
// strong ETag and a year of immutable caching. HEAD answers the same headers (fastify adds it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidTransform, MAX_SIDE, parseImagePath } from '../../domain/image/transforms.js';
import { ImagesBusy, type ImageDelivery } from '../../infra/images/variants.js';
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

export const imageRoutes = (context: ImagesContext) => (app: FastifyInstance) => {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    let image;
    try {
      const { key, chain } = parseImagePath(path);
      image = await context.images.get(key, chain);
      if (!image) throw new HttpError(404, `Image not found: ${key}`);
    } catch (error) {
      if (error instanceof InvalidTransform) throw new HttpError(400, error.message);
      if (error instanceof InvalidObjectKey) throw new HttpError(400, `Invalid image key: ${error.message.replace(/^Invalid object key /, '')}`);
      if (error instanceof UntransformableImage) throw new HttpError(422, `The image cannot be transformed: ${error.message}.`);
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
          `\`/-/resize/<w>x\`, \`/-/resize/x<h>\`, \`/-/resize/<w>x<h>\` (fits inside, never enlarged, 1 to ${MAX_SIDE} px), \`/-/format/jpeg|png|webp|avif\`, \`/-/quality/<1-100>\`. ` +
          'Answers the bytes with a strong ETag (`If-None-Match` gives 304) and `Cache-Control: ' + IMAGE_CACHE_CONTROL + '`. ' +
          '400: malformed key or transform; 404: no image at the key; 422: the stored image cannot be transformed; 503 with Retry-After: too many new variants at once.',
        tags: ['image'],
      },
    },
    serve,
  );
  // The same handler without a key (a 400 naming it). Registered on its own so the router keeps
  // `/v1/image/` as a node of its own: without it `printRoutes` shows the wildcard as a bare `*`.
  app.get('/v1/image/', { schema: { hide: true } }, serve);
};
