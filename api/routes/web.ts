// What a browser opens on the service itself: the embeddable widget script (`GET /widget.js`, one
// script tag on a merchant's page), the demo storefront on the demo catalogue (`GET /demo`), and a
// landing page at `/` that leads to both and to the API reference. The scripts are built from
// web/ when the API starts (infra/web/bundles.ts).
//   /widget.js          the current widget, revalidated every 5 minutes (merchants embed this URL)
//   /widget/<hash>.js   one build of it, cached for a year (the demo and careful embedders use this)
// Both carry CORS and Cross-Origin-Resource-Policy headers: they are loaded from other origins.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { WebBundle, WebEntry } from '../../infra/web/bundles.js';
import { zodRoutes } from '../plugins/validation.js';

export interface WebContext {
  /** The built scripts (built once per process, on first use). */
  bundles: () => Promise<Record<WebEntry, WebBundle>>;
  /** The demo organization's public key, embedded in the demo storefront. */
  demoKey: string;
  /** The demo organization's widget themes, for the storefront's theme switch. */
  demoThemes: () => Promise<Array<{ id: string; name: string }>>;
}

const JS = 'application/javascript; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const YEAR = 'public, max-age=31536000, immutable';
const FIVE_MINUTES = 'public, max-age=300';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A script answer: 304 when the browser holds this build already. */
function sendScript(request: FastifyRequest, reply: FastifyReply, bundle: WebBundle, cacheControl: string) {
  const etag = `"${bundle.hash}"`;
  reply
    .header('etag', etag)
    .header('cache-control', cacheControl)
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(JS).send(bundle.code);
}

const notFound = (reply: FastifyReply, what: string) => reply.code(404).send({ error: `Not found: ${what}` });

const landingPage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stylist</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
  a { color: #0b5cad; }
  li { margin: .4rem 0; }
</style>
</head>
<body>
<main>
<h1>Stylist is running</h1>
<p>An AI stylist for clothing stores, on this machine.</p>
<ul>
  <li><a href="/demo">The demo storefront</a>: a shop on the demo catalogue with the stylist widget.</li>
  <li><a href="/docs">The API reference</a> (<a href="/openapi.json">OpenAPI document</a>).</li>
  <li><a href="/healthz">Health</a> and <a href="/readyz">readiness</a>.</li>
</ul>
</main>
</body>
</html>
`;

const demoPage = (demoKey: string, themes: Array<{ id: string; name: string }>, bundles: Record<WebEntry, WebBundle>) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Outfitters · Stylist demo</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="storefront" data-key="${escapeAttribute(demoKey)}" data-themes="${escapeAttribute(JSON.stringify(themes))}"></div>
<script src="/widget/${bundles.widget.hash}.js" data-key="${escapeAttribute(demoKey)}" data-manual="true"></script>
<script src="/demo/${bundles.storefront.hash}.js"></script>
</body>
</html>
`;

export const webRoutes = (context: WebContext) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);
  const hidden = { hide: true } as const;

  routes.get('/', { schema: hidden }, async (request, reply) => {
    // A browser gets the landing page; an API client a short JSON answer of where to go.
    if (String(request.headers.accept ?? '').includes('text/html')) return reply.type(HTML).send(landingPage());
    return { name: 'stylist', docs: '/docs', openapi: '/openapi.json', demo: '/demo', widget: '/widget.js' };
  });

  routes.get('/widget.js', { schema: hidden }, async (request, reply) => sendScript(request, reply, (await context.bundles()).widget, FIVE_MINUTES));

  routes.get('/widget/:file', { schema: { ...hidden, params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const { widget } = await context.bundles();
    if (request.params.file !== `${widget.hash}.js`) return notFound(reply, `/widget/${request.params.file}`);
    return sendScript(request, reply, widget, YEAR);
  });

  routes.get('/demo', { schema: hidden }, async (_request, reply) =>
    reply.type(HTML).header('cache-control', 'no-cache').send(demoPage(context.demoKey, await context.demoThemes(), await context.bundles())),
  );

  routes.get('/demo/:file', { schema: { ...hidden, params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const { storefront } = await context.bundles();
    if (request.params.file !== `${storefront.hash}.js`) return notFound(reply, `/demo/${request.params.file}`);
    return sendScript(request, reply, storefront, YEAR);
  });
};
