// Public keys, access modes and demo mode through the widget preflight, a public endpoint.
import fc from 'fast-check';
import t from 'tap';
import { buildApi } from '../../api/app.js';
import { readSessionToken } from '../../api/auth/session-token.js';
import { createLogger } from '../../api/logging.js';
import { DEMO_ORGANIZATION_ID } from '../../domain/demo.js';
import { demoPlan } from '../../domain/plan.js';
import { sharedTestService, startTestService, type TestService } from '../support/service.js';

const RESOURCE = 'api.v1.widget.preflight';
const preflight = (service: TestService, authorization?: string, options: { origin?: string; remoteAddress?: string; query?: string } = {}) =>
  service.app.inject({
    url: `/v1/widget/preflight${options.query ?? ''}`,
    headers: { ...(authorization === undefined ? {} : { authorization }), ...(options.origin ? { origin: options.origin } : {}) },
    remoteAddress: options.remoteAddress,
  });

const colours = Object.fromEntries(
  ['buttonColor', 'buttonHoverColor', 'buttonTextColor', 'typingDotColor', 'accentColor', 'accentHoverColor', 'mutedTextColor', 'primaryTextColor', 'pageColor', 'surfaceColor', 'borderColor', 'inputColor', 'footerColor'].map((k) => [k, '#123456']),
);

t.test('public-key authentication errors, in document 1 wording', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const body = org.publicKey.slice('sgpt-pk-'.length);
  const damaged = `sgpt-pk-${body.slice(0, 40)}${body[40] === 'A' ? 'B' : 'A'}${body.slice(41)}`;
  const cases: Array<[string, string | undefined, number, string]> = [
    ['no key', undefined, 401, 'API key missing.'],
    ['two segments', 'Bearer sgpt-pk', 401, 'API key missing.'],
    ['a private key', `Bearer ${org.privateKey}`, 401, 'Authentication failed: private key provided instead of a public key.'],
    ['an unknown public key', `Bearer sgpt-pk-${'1'.repeat(60)}`, 401, 'Authentication failed: public key is invalid or not recognized.'],
    ['a short public key', 'Bearer sgpt-pk-abc', 401, 'Authentication failed: public key is invalid or not recognized.'],
    ['another prefix', 'Bearer foo-bar-baz', 401, 'Authentication failed: public key is invalid or not recognized.'],
    ['a damaged organization part', `Bearer ${damaged}`, 401, 'Authentication failed: API key could not be read. Regenerate the key.'],
  ];
  for (const [name, authorization, status, error] of cases) {
    const response = await preflight(service, authorization);
    t.same([response.statusCode, response.json()], [status, { error }], name);
    t.same(Object.keys(response.headers).filter((h) => h.startsWith('x-ratelimit-')), ['x-ratelimit-resource'], `${name}: headers`);
    t.equal(response.headers['x-ratelimit-resource'], RESOURCE);
  }
});

t.test('preflight: a signed session, the latest theme or the one asked for, and the rate-limit headers', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const empty = await preflight(service, `Bearer ${org.publicKey}`);
  t.equal(empty.statusCode, 200);
  t.same([empty.json().theme, empty.json().stores, empty.json().demo], [null, [], false]);
  const { session } = empty.json();
  const read = readSessionToken(service.platform.secret, session.token, new Date());
  t.same(read && [read.sessionId, read.organizationId, read.expiresAt.toISOString()], [session.sessionId, org.organizationId, session.expiresAt]);
  t.ok(Math.abs(new Date(session.expiresAt).getTime() - Date.now() - 86_400_000) < 60_000, 'valid for a day');
  t.equal(readSessionToken('z'.repeat(40), session.token, new Date()), null, 'another secret does not verify it');
  t.equal(readSessionToken(service.platform.secret, session.token, new Date(Date.now() + 86_400_001)), null, 'expired');
  t.equal(empty.headers['x-ratelimit-quota-remaining'], '99999');

  const create = (name: string) =>
    service.app.inject({ method: 'POST', url: '/v1/widget/presets', headers: { authorization: `Bearer ${org.privateKey}` }, payload: { name, buttonLabel: 'Ask', ...colours } });
  const first = (await create('First')).json().preset;
  const second = (await create('Second')).json().preset;
  t.equal((await preflight(service, `Bearer ${org.publicKey}`)).json().theme.id, second.id, 'the preset changed most recently');
  t.equal((await preflight(service, `Bearer ${org.publicKey}`, { query: `?themeId=${first.id}` })).json().theme.name, 'First');
  const missing = await preflight(service, `Bearer ${org.publicKey}`, { query: '?themeId=nope' });
  t.same([missing.statusCode, missing.json()], [404, { error: 'Widget preset not found: nope' }]);
});

t.test('allowed websites, localhost, apps and servers, service-only', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const key = (name: string, ...args: string[]) => service.cli(['key', 'create', '--org', org.organizationId, '--name', name, ...args]);
  const sites = await key('storefront', '--website', 'store.com', '--website', '*.store.com');
  const dev = await key('dev', '--website', 'store.com', '--allow-localhost', '--allow-apps');
  const serviceOnly = await key('internal', '--public-access', 'service-only');
  const status = async (k: Record<string, any>, origin?: string) => {
    const response = await preflight(service, `Bearer ${k.publicKey}`, { origin });
    return response.statusCode === 200 ? 200 : [response.statusCode, response.json().error];
  };
  t.equal(await status(sites, 'https://store.com'), 200);
  t.equal(await status(sites, 'https://eu.store.com'), 200);
  t.same(await status(sites, 'https://evil.com'), [403, "This API key cannot be used from https://evil.com. Add the website to the key's allowed websites."]);
  t.same(await status(sites, 'http://localhost:5173'), [403, "This API key cannot be used from http://localhost:5173. Add the website to the key's allowed websites."]);
  t.same(await status(sites), [403, 'This API key only accepts requests from its allowed websites. Allow apps and servers on the key to call it without a website.']);
  t.equal(await status(dev, 'http://localhost:5173'), 200);
  t.equal(await status(dev), 200, 'apps and servers allowed');
  t.same(await status(serviceOnly, 'https://store.com'), [403, "This API key is for the service's own use only. Use another key of this organization."]);
});

t.test('demo mode: the demo organization, RPM per client address, one shared quota', async (t) => {
  const service = await startTestService(t, { env: { DEMO_QUOTA: '4', DEMO_RPM: '2' } });
  const demo = (ip: string) => preflight(service, 'Bearer sgpt-pk-demo', { remoteAddress: ip });
  const first = await demo('203.0.113.1');
  t.equal(first.statusCode, 200);
  t.same([first.json().demo, readSessionToken(service.platform.secret, first.json().session.token, new Date())?.organizationId], [true, DEMO_ORGANIZATION_ID]);
  t.same([first.headers['x-ratelimit-quota-limit'], first.headers['x-ratelimit-rpm-limit']], ['4', '2']);
  t.equal((await demo('203.0.113.1')).statusCode, 200);
  const limited = await demo('203.0.113.1');
  t.same([limited.statusCode, limited.json()], [429, { error: `RPM limit exceeded for "${RESOURCE}" (2/2 used).` }], 'per-minute limit per address');
  t.equal((await demo('203.0.113.2')).statusCode, 200, 'another address has its own minute');
  const exhausted = await demo('203.0.113.3');
  t.same([exhausted.statusCode, exhausted.json()], [429, { error: `Monthly quota exceeded for "${RESOURCE}" (4/4 used).` }], 'the shared quota is used up for everyone');

  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const ownKey = await preflight(service, `Bearer ${org.publicKey}`, { remoteAddress: '203.0.113.3' });
  t.equal(ownKey.statusCode, 200, "an organization's own key is not touched by the demo quota");
});

t.test('the demo key on a public route that opts out of demo mode', async (t) => {
  const service = await sharedTestService();
  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    authentication: { keys: service.platform.keys!, serverSecret: service.platform.secret, demo: { key: 'sgpt-pk-demo', organizationId: DEMO_ORGANIZATION_ID, plan: demoPlan(10, 10) } },
    routes: [(app) => void app.post('/v2/agent/looks', { config: { auth: 'public', resource: 'api.v2.agent.looks', demo: false } }, async () => ({ ok: true }))],
  });
  t.teardown(() => app.close());
  const response = await app.inject({ method: 'POST', url: '/v2/agent/looks', headers: { authorization: 'Bearer sgpt-pk-demo' }, payload: {} });
  t.same([response.statusCode, response.json(), response.headers['x-ratelimit-resource']], [
    403,
    { error: 'Demo mode is not supported on this API route. Check the documentation for available demo endpoints.' },
    'api.v2.agent.looks',
  ]);
});

t.test('property: random Authorization headers never authenticate and never fail the server', async (t) => {
  const service = await sharedTestService();
  await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const header = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ maxLength: 80 }).map((s) => `Bearer ${s}`),
    fc.stringMatching(/^[0-9A-Za-z]{0,70}$/).map((s) => `Bearer sgpt-pk-${s}`),
    fc.tuple(fc.stringMatching(/^[0-9A-Za-z]{0,70}$/), fc.string({ maxLength: 40 })).map(([b, s]) => `Bearer sgpt-sk-${b}::${s}`),
  );
  await fc.assert(
    fc.asyncProperty(header, async (authorization) => {
      const headers = /^[\t\x20-\x7e]*$/.test(authorization) ? { authorization } : {};
      const [pub, priv] = await Promise.all([
        service.app.inject({ url: '/v1/widget/preflight', headers }),
        service.app.inject({ method: 'PATCH', url: '/v1/organization', headers, payload: { fields: { name: 'Nope' } } }),
      ]);
      return [401, 403].includes(pub.statusCode) && [401, 403].includes(priv.statusCode);
    }),
    { numRuns: 300 },
  );
  t.pass('300 random headers, each refused with 401 or 403');
});

t.test('CORS: a storefront preflight is answered before authentication; the key decides on the real request, whose answer the page can read', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const sites = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'storefront', '--website', 'store.com']);
  const ask = (url: string, method: string, origin: string) =>
    service.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' } });

  const preflightAnswer = await ask('/v1/widget/preflight?x=1', 'GET', 'https://store.com');
  t.equal(preflightAnswer.statusCode, 204, 'no key needed to ask');
  t.equal(preflightAnswer.headers['access-control-allow-origin'], 'https://store.com');
  t.match(preflightAnswer.headers['access-control-allow-methods'], /GET/);
  t.match(preflightAnswer.headers['access-control-allow-headers'], /Authorization/);
  t.equal(preflightAnswer.headers.vary, 'Origin');

  const allowed = await preflight(service, `Bearer ${sites.publicKey}`, { origin: 'https://store.com' });
  t.equal(allowed.statusCode, 200);
  t.equal(allowed.headers['access-control-allow-origin'], 'https://store.com');
  t.match(allowed.headers['access-control-expose-headers'], /X-RateLimit-Remaining/);
  const refused = await preflight(service, `Bearer ${sites.publicKey}`, { origin: 'https://evil.com' });
  t.equal(refused.statusCode, 403, "the key's website restriction is the Origin check");
  t.equal(refused.headers['access-control-allow-origin'], 'https://evil.com', 'the page can read why');

  // Private-key routes are never offered to a browser.
  const privateRoute = await ask('/v1/datasets', 'POST', 'https://store.com');
  t.equal(privateRoute.statusCode, 404);
  t.notOk(privateRoute.headers['access-control-allow-origin']);
  const privateCall = await service.app.inject({ method: 'GET', url: '/v1/datasets', headers: { origin: 'https://store.com', authorization: `Bearer ${org.privateKey}` } });
  t.equal(privateCall.statusCode, 200);
  t.notOk(privateCall.headers['access-control-allow-origin']);
});
