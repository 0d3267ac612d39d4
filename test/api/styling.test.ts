// Styling and sizing through HTTP (document 2): defaults, replace semantics, cutting instead of
// refusing, dropped unknown rule ids and brands, kept basicIds, every 422, and the 404.
import t, { type Test } from 'tap';
import { sharedTestService } from '../support/service.js';

const setUp = async (_t: Test) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const datasetId = (await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Main', config: { storeName: 'Acme', storeDomain: 'acme.com' } } })).json().datasetId;
  const url = `/v1/datasets/${datasetId}/styling`;
  const get = async () => (await service.app.inject({ url, headers })).json();
  const put = (payload: unknown) => service.app.inject({ method: 'PUT', url, headers, payload: payload as object });
  return { service, org, headers, datasetId, url, get, put };
};

t.test('a store that never changed styling gets every default', async (t) => {
  const { get } = await setUp(t);
  t.same(await get(), {
    styling: { off: [], basics: [], choosing: '', picture: '', tryOn: true },
    sizing: { brandSizes: { enabled: true, logos: true, excludedBrands: [] } },
  });
});

t.test('PUT replaces what it sends, cuts text, drops unknown rules and repeats, and GET returns it', async (t) => {
  const { put, get } = await setUp(t);
  const response = await put({
    styling: {
      off: ['palette', 'noSuchRule', 'palette', 'sets'],
      basics: [
        { text: 'White tee\\nplain', slot: 'top' },
        { text: 'White tee\\nplain', slot: 'top' },
        { text: 'b'.repeat(120), slot: 'bottom' },
      ],
      choosing: 'c'.repeat(1500),
    },
  });
  t.equal(response.statusCode, 200);
  const { styling, sizing } = response.json();
  t.equal(sizing, undefined, 'sizing is only answered when sent');
  t.same(styling.off, ['palette', 'sets']);
  t.equal(styling.basics.length, 2, 'the repeated basic is dropped');
  t.equal(styling.basics[1].text.length, 80);
  t.equal(styling.choosing.length, 1200);
  t.equal(styling.picture, '', 'a field left out is saved empty');
  t.equal(styling.tryOn, true, 'tryOn left out is on');
  t.same((await get()).styling, styling);

  const kept = await put({ styling: { basics: [{ basicId: styling.basics[0].basicId, text: 'Plain white tee', slot: 'top' }], tryOn: false } });
  t.equal(kept.json().styling.basics[0].basicId, styling.basics[0].basicId, 'a basicId sent back is kept on rename');
  t.same(kept.json().styling.off, [], 'replaced whole: off is now empty');
  t.equal(kept.json().styling.tryOn, false);
});

t.test('sizing: unknown brands dropped, the store itself left out, more than 40 known refused', async (t) => {
  const { put } = await setUp(t);
  const saved = (await put({ sizing: { brandSizes: { excludedBrands: ['nike', 'levis', 'not-a-brand', 'acme'] } } })).json();
  t.same(saved.sizing, { brandSizes: { enabled: true, logos: true, excludedBrands: ['nike', 'levis'] } });
  t.ok(saved.styling, 'the saved styling comes back too');
  const { BUNDLED_BRANDS } = await import('../../domain/styling/brands.js');
  const tooMany = await put({ sizing: { brandSizes: { excludedBrands: BUNDLED_BRANDS.slice(0, 41).map((b) => b.slug) } } });
  t.equal(tooMany.statusCode, 422);
  t.same(tooMany.json(), { error: 'At most 40 brands can be left out.' });
});

t.test('every 422 of document 2, the common body errors, and the 404', async (t) => {
  const { put, service, headers } = await setUp(t);
  const cases: Array<[unknown, string]> = [
    [{}, 'styling must be an object.'],
    [{ styling: 'bold' }, 'styling must be an object.'],
    [{ sizing: [1] }, 'sizing must be an object.'],
    [{ sizing: { brandSizes: { excludedBrands: 'nike' } } }, 'sizing.brandSizes.excludedBrands must be an array of brand slugs.'],
    [{ styling: { basics: [{ text: 'Navy blazer' }] } }, '"Navy blazer" needs a slot: one of top, bottom, footwear, outerwear, headwear, accessory.'],
    [{ styling: { basics: Array.from({ length: 9 }, (_, i) => ({ text: `Basic ${i}`, slot: 'top' })) } }, 'At most 8 house basics.'],
  ];
  for (const [body, error] of cases) {
    const response = await put(body);
    t.equal(response.statusCode, 422, error);
    t.same(response.json(), { error }, error);
  }
  const eight = await put({ styling: { basics: [...Array.from({ length: 8 }, (_, i) => ({ text: `Basic ${i}`, slot: 'top' })), { text: 'Basic 0', slot: 'top' }, { text: ' ', slot: 'top' }] } });
  t.equal(eight.statusCode, 200, '8 after repeats and empty ones are dropped is accepted');
  const invalid = await service.app.inject({ method: 'PUT', url: '/v1/datasets/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4/styling', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"styling":' });
  t.same(invalid.json(), { error: 'Request body must be valid JSON.' });
  const missing = await service.app.inject({ method: 'PUT', url: '/v1/datasets/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4/styling', headers, payload: { styling: {} } });
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { error: 'Dataset not found.' });
  t.same((await service.app.inject({ url: '/v1/datasets/nope/styling', headers })).json(), { error: 'Dataset not found.' });
});

t.test('a key scoped to styling may use these endpoints and no other dataset endpoint', async (t) => {
  const { service, org, url } = await setUp(t);
  const scoped = await service.cli(['key', 'create', '--org', org.organizationId, '--name', 'Styling tool', '--scopes', 'styling', '--json']);
  const headers = { authorization: `Bearer ${scoped.privateKey}` };
  t.equal((await service.app.inject({ url, headers })).statusCode, 200);
  const denied = await service.app.inject({ url: '/v1/datasets', headers });
  t.equal(denied.statusCode, 403);
  t.same(denied.json(), { error: "This key's scopes do not cover this endpoint." });
});
