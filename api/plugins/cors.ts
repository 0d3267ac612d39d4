// CORS for the public-key routes, the ones a storefront's browser calls. A preflight carries no
// key, so it is answered before authentication for any origin; whether the origin may use the key
// is the key's own website restriction, checked on the real request (document 1's 403 `This API
// key cannot be used from <origin>.`), whose answer also carries the CORS headers so the page can
// read why. Private-key routes get no CORS headers: a browser must never hold a private key.
// Routes a browser calls without any key (`config.browser`: shopper events, which carry the
// widget session in `X-Service-Session`) are offered to every origin the same way.
//
// Not @fastify/cors: at preflight it cannot tell which route (public or private key) the browser
// is about to call; that takes a router of the public routes, built here as fastify adds them.
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Service-Session';
const EXPOSED_HEADERS = 'Retry-After, X-Chat-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Resource';
const MAX_AGE_SECONDS = '600';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Browsers may call this route from any origin though it takes no key (CORS as for public-key routes). */
    browser?: boolean;
  }
}

export function registerCors(app: FastifyInstance): void {
  const publicRoutes = FindMyWay();
  app.addHook('onRoute', (route) => {
    const config = route.config as { auth?: string; browser?: boolean } | undefined;
    if (config?.auth !== 'public' && config?.browser !== true) return;
    for (const method of [route.method].flat()) publicRoutes.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
  });

  const allowOrigin = (reply: FastifyReply, origin: string) => {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  };

  // Answered here, before any route, authentication or body handling.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (!origin) return;
    const path = request.url.split('?')[0]!;
    const wanted = request.headers['access-control-request-method'];
    if (request.method === 'OPTIONS' && typeof wanted === 'string') {
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => publicRoutes.find(method as FindMyWay.HTTPMethod, path));
      if (!methods.includes(wanted.toUpperCase())) return reply.code(404).send({ error: `Route not found: OPTIONS ${path}` });
      allowOrigin(reply, origin);
      reply.header('access-control-allow-methods', methods.join(', '));
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', MAX_AGE_SECONDS);
      return reply.code(204).send();
    }
    if (publicRoutes.find(request.method as FindMyWay.HTTPMethod, path)) {
      allowOrigin(reply, origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
  });
}
