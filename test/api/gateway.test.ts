// Document 1's authentication and access errors, provoked through HTTP on the service API with
// real keys, each asserting status, exact body and the rate-limit headers.
import t from 'tap';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { DEMO_ORGANIZATION_ID } from '../../domain/demo.js';
import { sharedTestService, startTestService, type TestService } from '../support/service.js';

const RESOURCE = 'api.v1.organization.update';
const patch = (service: TestService, authorization: string | undefined, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  service.app.inject({
    method: 'PATCH',
    url: '/v1/organization',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }), ...extra.headers },
    remoteAddress: extra.remoteAddress,
    payload: { fields: { reportingTimezone: 'Europe/Paris' } },
  });

const rateHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => name.startsWith('x-ratelimit-') || name === 'retry-after').sort();

/** Replaces one character of the key's organization part (after the 33-character lookup). */
const damageOrganizationPart = (privateKey: string): string => {
  const [head, secret] = privateKey.split('::');
  const at = 'sgpt-sk-'.length + 40;
  const swapped = head![at] === 'A' ? 'B' : 'A';
  return `${head!.slice(0, at)}${swapped}${head!.slice(at + 1)}::${secret}`;
};

t.test('every authentication error of document 1, in its order, on a private route', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const keys = (await service.cli(['key', 'list', '--org', org.organizationId])).keys as Array<{ keyId: string; primary: boolean }>;
  const primary = keys.find((k) => k.primary)!;
  const [, secret] = org.privateKey.split('::');
  const unknownLookup = `sgpt-sk-${'0'.repeat(60)}::${secret}`;
  const scoped = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'widget only', '--scopes', 'widget']);
  const ipBound = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'office', '--ip', '10.0.0.0/8=office']);
  const primaryKey = (await service.cli(['key', 'rotate', '--key', primary.keyId, '--confirm', 'Primary key'])).privateKey;

  const cases: Array<[string, string | undefined, number, string]> = [
    ['no Authorization header', undefined, 401, 'API key missing.'],
    ['empty header', '', 401, 'API key missing.'],
    ['another scheme', `Basic ${org.privateKey}`, 401, 'API key missing.'],
    ['Bearer without a key', 'Bearer ', 401, 'API key missing.'],
    ['two segments', 'Bearer sgpt-sk', 401, 'API key missing.'],
    ['four segments', `Bearer ${org.privateKey}-x`, 401, 'API key missing.'],
    ['a public key on a private route', `Bearer ${org.publicKey}`, 401, 'Authentication failed: public key provided instead of a private key.'],
    ['private key without ::', `Bearer ${org.privateKey.split('::')[0]}`, 401, 'Authentication failed: bearer token format is invalid.'],
    ['unknown lookup', `Bearer ${unknownLookup}`, 401, 'Authentication failed: token is not recognized.'],
    ['garbage body', 'Bearer sgpt-sk-garbage::x', 401, 'Authentication failed: token is not recognized.'],
    ['wrong secret', `Bearer ${org.privateKey.slice(0, -1)}${org.privateKey.endsWith('A') ? 'B' : 'A'}`, 401, 'Authentication failed: private key is invalid.'],
    ['empty secret', `Bearer ${org.privateKey.split('::')[0]}::`, 401, 'Authentication failed: private key is invalid.'],
    ['damaged organization part', `Bearer ${damageOrganizationPart(org.privateKey)}`, 401, 'Authentication failed: API key could not be read. Regenerate the key.'],
    ['the demo key', 'Bearer sgpt-pk-demo', 403, 'Demo mode is not available for private-key routes. Demos are only supported with public API keys.'],
    ['the primary key (service-only)', `Bearer ${primaryKey}`, 403, "This API key is for the service's own use only. Use another key of this organization."],
    ['an IP-bound key from elsewhere', `Bearer ${ipBound.privateKey}`, 403, "This API key cannot be used from 127.0.0.1. Add the address to the key's allowed IP addresses."],
    ['a key without the scope', `Bearer ${scoped.privateKey}`, 403, 'This key does not have the "organization" scope.'],
  ];
  for (const [name, authorization, status, error] of cases) {
    const response = await patch(service, authorization);
    t.equal(response.statusCode, status, `${name}: status`);
    t.same(response.json(), { error }, `${name}: body`);
    t.same(rateHeaders(response.headers), ['x-ratelimit-resource'], `${name}: only X-RateLimit-Resource`);
    t.equal(response.headers['x-ratelimit-resource'], RESOURCE);
  }

  const fromOffice = await patch(service, `Bearer ${ipBound.privateKey}`, { remoteAddress: '10.20.30.40' });
  t.equal(fromOffice.statusCode, 200, 'the IP-bound key works from its range');
  const ok = await patch(service, `Bearer ${org.privateKey}`);
  t.equal(ok.statusCode, 200);
  t.equal(ok.headers['x-ratelimit-quota-remaining'], '99998', 'rejected requests used no quota; two accepted ones did');
});

t.test('a deleted organization, an inactive subscription, rotation and deletion take effect at once', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const other = await service.cli(['org', 'create', '--name', 'Other Apparel', '--json']);
  t.equal((await patch(service, `Bearer ${org.privateKey}`)).statusCode, 200, 'cached now');

  await service.cli(['subscription', 'set', '--org', org.organizationId, '--active', 'false']);
  const inactive = await patch(service, `Bearer ${org.privateKey}`);
  t.same([inactive.statusCode, inactive.json()], [403, { error: 'No active subscription for this organization.' }]);
  await service.cli(['subscription', 'set', '--org', org.organizationId, '--active', 'true']);
  t.equal((await patch(service, `Bearer ${org.privateKey}`)).statusCode, 200, 'active again');

  const rotated = await service.cli(['key', 'rotate', '--key', org.keyId, '--confirm', 'Default key']);
  const old = await patch(service, `Bearer ${org.privateKey}`);
  t.same([old.statusCode, old.json()], [401, { error: 'Authentication failed: token is not recognized.' }], 'old value fails at once');
  t.equal((await patch(service, `Bearer ${rotated.privateKey}`)).statusCode, 200, 'new value works at once');
  await t.rejects(service.cli(['key', 'rotate', '--key', org.keyId, '--confirm', 'wrong']), /Type the key's name/);

  await service.cli(['key', 'delete', '--key', org.keyId]);
  const deleted = await patch(service, `Bearer ${rotated.privateKey}`);
  t.same([deleted.statusCode, deleted.json()], [401, { error: 'Authentication failed: token is not recognized.' }], 'a deleted key fails at once');

  const keys = (await service.cli(['key', 'list', '--org', other.organizationId])).keys as Array<{ keyId: string; primary: boolean }>;
  await t.rejects(service.cli(['key', 'delete', '--key', keys.find((k) => k.primary)!.keyId]), /primary key cannot be deleted/);

  t.equal((await patch(service, `Bearer ${other.privateKey}`)).statusCode, 200);
  await service.cli(['org', 'delete', '--org', other.organizationId]);
  const gone = await patch(service, `Bearer ${other.privateKey}`);
  t.same([gone.statusCode, gone.json()], [401, { error: `Organization '${other.organizationId}' not found.` }]);
});

t.test('plans: no entitlement, turned off, quota with Retry-After, RPM, unlimited', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const auth = `Bearer ${org.privateKey}`;
  const plan = (...args: string[]) => service.cli(['plan', 'set', '--org', org.organizationId, '--resource', RESOURCE, ...args]);

  await plan('--no-entry');
  let response = await patch(service, auth);
  t.same([response.statusCode, response.json(), rateHeaders(response.headers)], [403, { error: `No entitlement for "${RESOURCE}".` }, ['x-ratelimit-resource']]);
  await plan('--off');
  response = await patch(service, auth);
  t.same([response.statusCode, response.json()], [403, { error: `Access denied to "${RESOURCE}".` }]);

  await plan('--quota', '2', '--rpm', '100');
  t.equal((await patch(service, auth)).headers['x-ratelimit-quota-remaining'], '1');
  t.equal((await patch(service, auth)).headers['x-ratelimit-quota-remaining'], '0');
  response = await patch(service, auth);
  t.same([response.statusCode, response.json()], [429, { error: `Monthly quota exceeded for "${RESOURCE}" (2/2 used).` }]);
  const reset = Number(response.headers['x-ratelimit-quota-reset']);
  const retryAfter = Number(response.headers['retry-after']);
  t.ok(retryAfter > 0 && Math.abs(Date.now() / 1000 + retryAfter - reset) <= 2, 'Retry-After runs to the period reset');

  // A second organization: the first one's minute window already holds its requests.
  const busy = await service.cli(['org', 'create', '--name', 'Busy Boutique', '--json']);
  await service.cli(['plan', 'set', '--org', busy.organizationId, '--resource', RESOURCE, '--quota', '100', '--rpm', '2']);
  t.equal((await patch(service, `Bearer ${busy.privateKey}`)).headers['x-ratelimit-rpm-remaining'], '1');
  t.equal((await patch(service, `Bearer ${busy.privateKey}`)).statusCode, 200);
  response = await patch(service, `Bearer ${busy.privateKey}`);
  t.same([response.statusCode, response.json(), response.headers['retry-after']], [429, { error: `RPM limit exceeded for "${RESOURCE}" (2/2 used).` }, '60']);
  t.equal(response.headers['x-ratelimit-quota-remaining'], '97', 'a request refused for RPM still used its quota unit');

  await plan('--unlimited');
  response = await patch(service, auth);
  t.equal(response.statusCode, 200);
  t.same([response.headers['x-ratelimit-quota-limit'], response.headers['x-ratelimit-quota-remaining'], response.headers['x-ratelimit-quota-reset']], ['unlimited', 'unlimited', undefined]);
  await t.rejects(plan('--quota', 'many'), /--quota takes a whole number/);
  await t.rejects(plan('--off', '--unlimited'), /exactly one of/);
});

t.test('a scoped key on a private route no scope grants', async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const scoped = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'styling only', '--scopes', 'styling']);
  // The same authentication the service runs, on a private route that names no scope.
  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    authentication: { keys: service.platform.keys!, serverSecret: service.platform.secret, demo: { key: 'sgpt-pk-demo', organizationId: DEMO_ORGANIZATION_ID, plan: { name: 'demo', defaults: null, entries: {} } } },
    routes: [(app) => void app.get('/v1/datasets', { config: { auth: 'private', resource: 'api.v1.datasets.list' } }, async () => ({ ok: true }))],
  });
  t.teardown(() => app.close());
  const denied = await app.inject({ url: '/v1/datasets', headers: { authorization: `Bearer ${scoped.privateKey}` } });
  t.same([denied.statusCode, denied.json()], [403, { error: "This key's scopes do not cover this endpoint." }]);
  const unscoped = await app.inject({ url: '/v1/datasets', headers: { authorization: `Bearer ${org.privateKey}` } });
  t.equal(unscoped.statusCode, 200);
});

t.test('200 parallel requests against a quota of 100, across two API instances on one database: exactly 100 succeed', async (t) => {
  const first = await startTestService(t, { maxConnections: 20 });
  const second = await startTestService(t, { shareWith: first, maxConnections: 20 });
  const org = await first.cli(['org', 'create', '--name', 'Busy Boutique', '--json']);
  await first.cli(['plan', 'set', '--org', org.organizationId, '--resource', RESOURCE, '--quota', '100', '--rpm', '1000']);
  await second.platform.projections.waitFor((await second.platform.eventStore.committedHead())!, ['organizations', 'api_keys'], 20_000);
  const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => patch(i % 2 ? second : first, `Bearer ${org.privateKey}`)));
  const statuses = responses.map((r) => r.statusCode);
  t.equal(statuses.filter((s) => s === 200).length, 100, 'exactly the quota succeeds');
  t.equal(statuses.filter((s) => s === 429).length, 100, 'the rest are refused');
  const used = await first.app.inject({ method: 'PATCH', url: '/v1/organization', headers: { authorization: `Bearer ${org.privateKey}` }, payload: { fields: { name: 'Busy' } } });
  t.same([used.statusCode, used.headers['x-ratelimit-quota-remaining']], [429, '0'], 'the shared counter stands at the quota');
});

t.test("document 1's common body errors on a keyed route: 400, no rate-limit headers, nothing counted", async (t) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const send = (payload: string) =>
    service.app.inject({ method: 'PATCH', url: '/v1/organization', headers: { authorization: `Bearer ${org.privateKey}`, 'content-type': 'application/json' }, payload });
  const cases: Array<[string, string]> = [
    ['{"fields":', 'Request body must be valid JSON.'],
    ['', 'Request body must be a JSON object.'],
    ['[]', 'Request body must be a JSON object.'],
    ['"fields"', 'Request body must be a JSON object.'],
    ['null', 'Request body must be a JSON object.'],
  ];
  for (const [payload, error] of cases) {
    const response = await send(payload);
    t.same([response.statusCode, response.json()], [400, { error }], JSON.stringify(payload));
    t.same(rateHeaders(response.headers), [], `${JSON.stringify(payload)}: no rate-limit headers`);
  }
  const invalid = await send('{"fields":{"reportingTimezone":"Mars/Olympus"}}');
  t.same([invalid.statusCode, invalid.json().error], [422, 'Not a recognised IANA timezone']);
  t.equal(invalid.headers['x-ratelimit-quota-remaining'], '99999', 'only the 422, which passed entitlement, used a unit');
  for (const [fields, error] of [
    [undefined, 'fields must be an object.'],
    [{}, 'No fields to update'],
    [{ plan: 'x' }, 'Unknown field: plan. Allowed fields: name, reportingTimezone.'],
    [{ name: ' a ' }, 'Organization name must be at least 2 characters'],
    [{ name: 'x'.repeat(101) }, 'Organization name can be at most 100 characters'],
  ] as const) {
    const response = await send(JSON.stringify({ fields }));
    t.same([response.statusCode, response.json().error], [422, error], error);
  }
});
