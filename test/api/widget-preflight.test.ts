// GET /v1/widget/preflight through HTTP on the real service: the session token (bound to the
// organization, the key and an expiry), the theme (themeId, else the preset changed most
// recently), the stores of active datasets, demo, CORS before authentication, and the cache: it
// answers from memory, follows the event store, and logs when it cannot.
import t from 'tap';
import { readSessionToken } from '../../api/auth/session-token.js';
import { PreflightCache } from '../../api/preflight-cache.js';
import { DEMO_ORGANIZATION_ID } from '../../domain/demo.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';
import { delegatingStore } from '../support/delegating-store.js';

// One service for the tests that need nothing of their own (a service costs seconds to start);
// each makes an organization of its own.
let shared: TestService | undefined;
const sharedService = async (): Promise<TestService> => (shared ??= await startTestService(t));

const colours = Object.fromEntries(
  ['buttonColor', 'buttonHoverColor', 'buttonTextColor', 'typingDotColor', 'accentColor', 'accentHoverColor', 'mutedTextColor', 'primaryTextColor', 'pageColor', 'surfaceColor', 'borderColor', 'inputColor', 'footerColor'].map((k) => [k, '#123456']),
);

const shopOf = async (service: TestService, name = 'Acme Apparel') => {
  const org = await service.cli(['org', 'create', '--name', name, '--json']);
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    service.app.inject({ method, url, headers: { authorization: `Bearer ${org.privateKey}` }, ...(payload ? { payload } : {}) });
  return {
    org,
    preflight: (query = '', authorization = `Bearer ${org.publicKey}`) => service.app.inject({ url: `/v1/widget/preflight${query}`, headers: { authorization } }),
    createPreset: async (name: string) => {
      const response = await call('POST', '/v1/widget/presets', { name, buttonLabel: 'Ask', ...colours });
      if (response.statusCode !== 201) throw new Error(`preset: ${response.statusCode} ${response.body}`);
      return response.json().preset as { id: string; name: string };
    },
    createDataset: async (name: string, config: object, activate = true) => {
      const response = await call('POST', '/v1/datasets', { name, config });
      if (response.statusCode !== 201) throw new Error(`dataset: ${response.statusCode} ${response.body}`);
      const datasetId = response.json().datasetId as string;
      if (activate) await call('PATCH', `/v1/datasets/${datasetId}/activate`);
      return datasetId;
    },
    call,
  };
};

t.test('the session token is signed, bound to the organization and the key, and expires in a day', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  const second = await service.cli(['key', 'create', '--org', shop.org.organizationId, '--name', 'second']);
  const before = Date.now();
  const first = (await shop.preflight()).json().session;
  const other = (await shop.preflight('', `Bearer ${second.publicKey}`)).json().session;
  const read = readSessionToken(service.platform.secret, first.token, new Date());
  t.same(read && { ...read, expiresAt: read.expiresAt.toISOString() }, { sessionId: first.sessionId, organizationId: shop.org.organizationId, keyId: read?.keyId, demo: false, expiresAt: first.expiresAt });
  t.type(read?.keyId, 'string', 'the key id is in the token');
  t.not(readSessionToken(service.platform.secret, other.token, new Date())?.keyId, read?.keyId, 'another key, another key id');
  t.not(first.sessionId, other.sessionId, 'a new session each time');
  const expires = Date.parse(first.expiresAt);
  t.ok(expires >= before + 86_400_000 - 1000 && expires <= Date.now() + 86_400_000, 'valid for a day');
  t.equal(readSessionToken(service.platform.secret, first.token, new Date(expires + 1)), null, 'expired after that');
  t.equal(readSessionToken('q'.repeat(40), first.token, new Date()), null, 'another secret does not verify it');
  const [payload, signature] = first.token.split('.');
  const moved = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: 'another-key' })).toString('base64url');
  t.equal(readSessionToken(service.platform.secret, `${moved}.${signature}`, new Date()), null, 'the key id cannot be changed');
  t.equal(readSessionToken(service.platform.secret, `${first.token}.x`, new Date()), null);
  t.equal(readSessionToken(service.platform.secret, 'x'.repeat(600), new Date()), null);
});

t.test('theme: themeId, else the preset created or changed most recently; 404 for a preset not of this organization', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  const stranger = await shopOf(service, 'Stranger Things');
  t.equal((await shop.preflight()).json().theme, null, 'no preset: null');
  const a = await shop.createPreset('A');
  t.equal((await shop.preflight()).json().theme.id, a.id);
  const b = await shop.createPreset('B');
  t.equal((await shop.preflight()).json().theme.id, b.id, 'a new preset is the theme at once (the cache of this process is told)');
  t.equal((await shop.preflight(`?themeId=${a.id}`)).json().theme.name, 'A');
  t.equal((await shop.preflight(`?themeId=${a.id}`)).json().theme.name, 'A', 'again, from memory');
  const theirs = await stranger.createPreset('Theirs');
  const hidden = await shop.preflight(`?themeId=${theirs.id}`);
  t.same([hidden.statusCode, hidden.json()], [404, { error: `Widget preset not found: ${theirs.id}` }]);
  t.equal((await stranger.preflight()).json().theme.id, theirs.id, 'each organization its own');
  t.match((await shop.preflight()).json().theme, { id: b.id, name: 'B', options: { button: { label: 'Ask' } } }, 'the whole preset');
});

t.test('stores: one per domain of the active datasets, named by storeName or the dataset', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  t.same((await shop.preflight()).json().stores, []);
  await shop.createDataset('Main', { storeName: 'Acme', storeDomain: 'Acme.example.com' });
  await shop.createDataset('Outlet', { storeUrl: 'https://www.outlet.example.com/shop' });
  await shop.createDataset('Draft', { storeName: 'Draft', storeDomain: 'draft.example.com' }, false);
  await shop.createDataset('Again', { storeName: 'Acme again', storeDomain: 'acme.example.com' });
  await shop.createDataset('No store', {});
  // Dataset changes reach the cache through the event store: bounded staleness, usually at once.
  const stores = await until('the stores', async () => (await shop.preflight()).json().stores, (s: unknown[]) => s.length === 2, { timeoutMs: 15_000 });
  t.same(stores, [
    { name: 'Acme', domain: 'acme.example.com' },
    { name: 'Outlet', domain: 'outlet.example.com' },
  ]);
});

t.test('the cache answers from memory and follows the event store: a change through another API process shows though no entry expires', async (t) => {
  // Entries outlive the test: only the event store can tell this process that something changed.
  const service = await startTestService(t, { preflightCacheTtlMs: 3_600_000 });
  const other = await startTestService(t, { shareWith: service });
  const shop = await shopOf(service);
  const first = await shop.createPreset('First');
  t.equal((await shop.preflight()).json().theme.name, 'First');
  // The row changed behind the cache's back, with no event: a preflight that read the table would see it.
  await service.platform.database.db.updateTable('widget_presets').set({ name: 'Changed in the table' }).where('preset_id', '=', first.id).execute();
  t.equal((await shop.preflight()).json().theme.name, 'First', 'answered from memory');
  const viaOther = await other.app.inject({ method: 'POST', url: '/v1/widget/presets', headers: { authorization: `Bearer ${shop.org.privateKey}` }, payload: { name: 'Second', buttonLabel: 'Ask', ...colours } });
  const second = viaOther.json().preset;
  const seen = await until('the other process preset', async () => (await shop.preflight()).json().theme.id, (id) => id === second.id, { timeoutMs: 15_000, everyMs: 20 });
  t.equal(seen, second.id);
  t.equal((await shop.preflight(`?themeId=${first.id}`)).json().theme.name, 'Changed in the table', "the organization's entry was dropped whole, the preset by id read again");
});

t.test('the follower logs what goes wrong: read models that never catch up, a subscription that fails', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  const logged: Array<{ level: string; details: Record<string, any>; message: string }> = [];
  const log = {
    warn: (details: object, message: string) => logged.push({ level: 'warn', details, message }),
    error: (details: object, message: string) => logged.push({ level: 'error', details, message }),
  };
  const real = service.platform.eventStore;
  // The real subscription, cut after the first preset it delivers.
  const failing = delegatingStore(real, {
    subscribeToAll: async function* (options) {
      for await (const event of real.subscribeToAll(options)) {
        yield event;
        if (event.type === 'WidgetPresetCreated') throw new Error('connection lost');
      }
    },
  });
  const cache = new PreflightCache({ db: service.platform.database.db });
  t.teardown(() => cache.stop());
  await cache.follow(failing, () => Promise.reject(new Error('projections stopped')), { log, cache: 'test cache' });
  await shop.createPreset('Logged');
  await until('both logged', async () => logged.length, (n) => n >= 2);
  const byLevel = Object.fromEntries(logged.map((entry) => [entry.level, entry]));
  t.match(byLevel.warn, { details: { cache: 'test cache', eventType: 'WidgetPresetCreated', err: { message: 'projections stopped' } }, message: 'a cache waited in vain for the read models to apply a change' });
  t.match(byLevel.error, { details: { cache: 'test cache', err: { message: 'connection lost' } }, message: 'a cache stopped following the event store; its entries now last until their TTL' });
});

t.test('demo: the demo organization, demo true, a token with no key id', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  const response = await shop.preflight('', 'Bearer sgpt-pk-demo');
  t.equal(response.statusCode, 200);
  t.equal(response.json().demo, true);
  const read = readSessionToken(service.platform.secret, response.json().session.token, new Date());
  t.same([read?.organizationId, read?.keyId, read?.demo], [DEMO_ORGANIZATION_ID, null, true]);
  t.equal((await shop.preflight()).json().demo, false);
});

t.test('CORS: OPTIONS answered before authentication for any origin; the answer of a refused request is readable', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  for (const origin of ['https://anything.example', 'http://localhost:3000']) {
    const asked = await service.app.inject({
      method: 'OPTIONS',
      url: '/v1/widget/preflight?themeId=x',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    t.same([asked.statusCode, asked.headers['access-control-allow-origin'], asked.headers['x-ratelimit-resource']], [204, origin, undefined], `${origin}: no key, no metering`);
    t.match(asked.headers['access-control-allow-headers'], /Authorization/);
  }
  const noKey = await service.app.inject({ url: '/v1/widget/preflight', headers: { origin: 'https://anything.example' } });
  t.same([noKey.statusCode, noKey.headers['access-control-allow-origin']], [401, 'https://anything.example']);
  const ok = await service.app.inject({ url: '/v1/widget/preflight', headers: { origin: 'https://anything.example', authorization: `Bearer ${shop.org.publicKey}` } });
  t.same([ok.statusCode, ok.headers['access-control-allow-origin']], [200, 'https://anything.example'], 'a key open to everyone works from any origin');
  t.match(ok.headers['access-control-expose-headers'], /X-RateLimit-Remaining/);
});

t.test('quota stays exact with the cache: every preflight uses a unit, the headers count each', async (t) => {
  const service = await sharedService();
  const shop = await shopOf(service);
  await service.cli(['plan', 'set', '--org', shop.org.organizationId, '--resource', 'api.v1.widget.preflight', '--quota', '3', '--rpm', '100']);
  const answers = await Promise.all(Array.from({ length: 5 }, () => shop.preflight()));
  t.same(answers.map((r) => r.statusCode).sort(), [200, 200, 200, 429, 429]);
  t.same(answers.filter((r) => r.statusCode === 200).map((r) => r.headers['x-ratelimit-quota-remaining']).sort(), ['0', '1', '2']);
});
