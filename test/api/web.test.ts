// What a browser opens on the service itself: the landing page at `/`, the widget script with its
// caching and CORS headers, and the demo storefront's page naming the current builds and the demo
// themes. (The pages working in a browser is test/api/widget-browser.test.ts.)
import t from 'tap';
import { seedDemo } from '../../app/demo.js';
import { startupSummary } from '../../app/startup-summary.js';
import { DEMO_THEMES } from '../../domain/demo.js';
import { startTestService } from '../support/service.js';

t.test('GET /: a landing page for a browser, directions for an API client', async (t) => {
  const service = await startTestService(t);
  const page = await service.app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  for (const link of ['/demo', '/docs', '/openapi.json', '/healthz']) t.match(page.body, `href="${link}"`, `links ${link}`);
  const json = await service.app.inject({ url: '/' });
  t.equal(json.statusCode, 200);
  t.match(json.json(), { docs: '/docs', demo: '/demo', widget: '/widget.js' });
});

t.test('the widget script: built from web/, cached by its hash, loadable from any origin', async (t) => {
  const service = await startTestService(t);
  const script = await service.app.inject({ url: '/widget.js', headers: { origin: 'https://shop.example.com' } });
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /^application\/javascript/);
  t.equal(script.headers['access-control-allow-origin'], '*');
  t.equal(script.headers['cross-origin-resource-policy'], 'cross-origin');
  t.equal(script.headers['cache-control'], 'public, max-age=300', 'the stable URL is revalidated');
  const etag = String(script.headers.etag);
  t.match(etag, /^"[0-9a-f]{16}"$/);
  // The widget itself, minified: it defines the global a page mounts it with.
  t.match(script.body, 'StylistWidget');
  t.notMatch(script.body, /^\s*(import|export)\s/m, 'one browser script, no module syntax left');

  const again = await service.app.inject({ url: '/widget.js', headers: { 'if-none-match': etag } });
  t.equal(again.statusCode, 304, 'a browser holding this build is told so');
  t.equal(again.body, '');

  const hashed = await service.app.inject({ url: `/widget/${etag.slice(1, -1)}.js` });
  t.equal(hashed.statusCode, 200);
  t.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable', 'a build under its hash is kept for a year');
  t.ok(hashed.rawPayload.equals(script.rawPayload));
  const stale = await service.app.inject({ url: '/widget/0123456789abcdef.js' });
  t.equal(stale.statusCode, 404);
  t.same(stale.json(), { error: 'Not found: /widget/0123456789abcdef.js' });
});

t.test('the demo storefront page: the demo key, the current builds and the demo themes', async (t) => {
  const service = await startTestService(t, { workers: ['ingest'] });
  await seedDemo(service.platform);
  const page = await service.app.inject({ url: '/demo' });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  const key = service.platform.config.demo.key;
  t.match(page.body, `data-key="${key}"`);
  const widget = /<script src="\/widget\/([0-9a-f]{16})\.js"/.exec(page.body)?.[1];
  const storefront = /<script src="\/demo\/([0-9a-f]{16})\.js"/.exec(page.body)?.[1];
  t.ok(widget && storefront, 'both scripts named by their hash');
  t.equal((await service.app.inject({ url: `/widget/${widget}.js` })).statusCode, 200);
  t.equal((await service.app.inject({ url: `/demo/${storefront}.js` })).statusCode, 200);
  const themes = JSON.parse(/data-themes="([^"]*)"/.exec(page.body)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  t.same(themes.map((theme: { name: string }) => theme.name), DEMO_THEMES.map((theme) => theme.name), 'the themes the demo seed made');

  // Seeding again makes no second set of themes.
  await seedDemo(service.platform);
  const after = await service.app.inject({ url: '/demo' });
  t.equal(JSON.parse(/data-themes="([^"]*)"/.exec(after.body)![1]!.replaceAll('&quot;', '"')).length, DEMO_THEMES.length);
  const preflight = await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${key}` } });
  t.equal(preflight.json().theme.name, 'Classic', 'the last theme made is the default');
});

t.test('the start-up summary names the demo, the docs, the stores, the models and the data', async (t) => {
  const service = await startTestService(t);
  const lines = startupSummary(service.platform.config, service.platform, 'http://127.0.0.1:3000', ['api']).join('\n');
  t.match(lines, 'Demo storefront   http://127.0.0.1:3000/demo');
  t.match(lines, 'API reference     http://127.0.0.1:3000/docs');
  t.match(lines, /Stores +events .* · read models .* · queue .* · objects /);
  t.match(lines, 'chat offline stylist');
  t.match(lines, `Demo key          ${service.platform.config.demo.key}`);
  const workerOnly = startupSummary(service.platform.config, service.platform, undefined, ['agent']).join('\n');
  t.match(workerOnly, /Roles +agent/);
  t.notMatch(workerOnly, 'Demo storefront');
});
