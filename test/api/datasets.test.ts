// Datasets through HTTP: create, list with counts and validated pagination, retrieve, update with
// document 1's cutting rules, activate and archive, delete, detect, available genders, and every
// message of documents 2 and 3 for them.
import t, { type Test } from 'tap';
import { sharedTestService, startTestService } from '../support/service.js';

const setUp = async (_t: Test) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const auth = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown) => service.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (body: object) => {
    const response = await call('POST', '/v1/datasets', body);
    if (response.statusCode !== 201) throw new Error(`create: ${response.statusCode} ${response.body}`);
    return response.json().datasetId as string;
  };
  return { service, org, auth, call, create };
};

t.test('create answers 201 with the full record: draft, trimmed name, store URL as sent, defaults', async (t) => {
  const { call, org } = await setUp(t);
  const response = await call('POST', '/v1/datasets', { name: '  Spring  ', config: { storeUrl: 'acme.example.com', currency: 'cad', storeDomain: 'acme.example.com' } });
  t.equal(response.statusCode, 201);
  const { datasetId, dataset } = response.json();
  t.match(dataset, {
    datasetId,
    organizationId: org.organizationId,
    status: 'draft',
    name: 'Spring',
    description: '',
    config: { storeUrl: 'acme.example.com', currency: 'cad', storeDomain: 'acme.example.com', targetGender: null },
    autoPublish: true,
  });
  t.notOk('metadata' in dataset, 'metadata is omitted when never set');
  t.equal(response.headers['x-ratelimit-resource'], 'api.v1.datasets.create', 'metered');
});

t.test('create refuses bad fields with the field message, or Validation failed. with details', async (t) => {
  const { call } = await setUp(t);
  const one = await call('POST', '/v1/datasets', { name: 'A', config: { currency: 'EURO' } });
  t.equal(one.statusCode, 422);
  t.same(one.json(), { error: 'config.currency must be a 3-letter ISO 4217 currency code.', details: [{ path: 'config.currency', message: 'config.currency must be a 3-letter ISO 4217 currency code.' }] });
  const several = await call('POST', '/v1/datasets', { config: { targetGender: 'kids' }, autoPublish: 'yes' });
  t.equal(several.statusCode, 422);
  t.equal(several.json().error, 'Validation failed.');
  t.same(
    several.json().details.map((d: { path: string }) => d.path),
    ['name', 'config.targetGender', 'autoPublish'],
  );
});

t.test('retrieve: DatasetDetail with item counts; bad id 422; unknown or foreign 404', async (t) => {
  const { call, create, service } = await setUp(t);
  const datasetId = await create({ name: 'Main', metadata: { season: 'SS27' } });
  const found = await call('GET', `/v1/datasets/${datasetId}`);
  t.equal(found.statusCode, 200);
  const { dataset } = found.json();
  t.same(dataset.items, { active: 0, archived: 0, pending: 0, processing: 0, failed: 0 });
  t.same(dataset.metadata, { season: 'SS27' });
  t.notOk('organizationId' in dataset || 'autoPublish' in dataset, 'the detail omits organizationId and autoPublish');
  t.same((await call('GET', '/v1/datasets/not-a-uuid')).json(), { error: 'A valid datasetId must be provided.' });
  const missing = await call('GET', '/v1/datasets/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4');
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { error: 'Dataset not found for this organization.' });
  const other = await service.cli(['org', 'create', '--name', 'Other Shop', '--json']);
  const foreign = await service.app.inject({ url: `/v1/datasets/${datasetId}`, headers: { authorization: `Bearer ${other.privateKey}` } });
  t.equal(foreign.statusCode, 404, "another organization's dataset is not found");
});

t.test('a deleted organization: retrieve words the 401 its own way, the others name the organization', async (t) => {
  const { call, create, service, org } = await setUp(t);
  const datasetId = await create({ name: 'Main' });
  await service.cli(['org', 'delete', '--org', org.organizationId]);
  t.same((await call('GET', `/v1/datasets/${datasetId}`)).json(), { error: 'Organization not found. Please check the organizationId.' });
  t.same((await call('PATCH', `/v1/datasets/${datasetId}/activate`)).json(), { error: `Organization '${org.organizationId}' not found.` });
});

t.test('update cuts name, description, storeId and storeName; replaces metadata; requires a scheme on storeUrl', async (t) => {
  const { call, create } = await setUp(t);
  const datasetId = await create({ name: 'Main', metadata: { a: 1 }, config: { storeUrl: 'acme.example.com' } });
  const response = await call('PATCH', `/v1/datasets/${datasetId}`, { name: 'n'.repeat(300), description: 'd'.repeat(2100), metadata: { b: 2 }, config: { storeId: 'i'.repeat(250), storeName: 's'.repeat(201) }, autoPublish: false });
  t.equal(response.statusCode, 200);
  const { dataset } = response.json();
  t.equal(dataset.name.length, 200);
  t.equal(dataset.description.length, 2000);
  t.same(dataset.metadata, { b: 2 }, 'metadata replaced wholesale');
  t.equal(dataset.config.storeId.length, 200);
  t.equal(dataset.config.storeName.length, 200);
  t.equal(dataset.config.storeUrl, 'acme.example.com', 'config fields not sent are kept');
  t.equal(dataset.autoPublish, false);
  t.notOk('_id' in dataset || '__v' in dataset, 'update strips _id and __v');
  const scheme = await call('PATCH', `/v1/datasets/${datasetId}`, { config: { storeUrl: 'acme.example.com' } });
  t.equal(scheme.statusCode, 422);
  t.equal(scheme.json().error, 'config.storeUrl must start with http:// or https://.');
});

t.test('activate and archive: alreadyActive and alreadyArchived, the full record with _id and __v', async (t) => {
  const { call, create } = await setUp(t);
  const datasetId = await create({ name: 'Main' });
  const first = await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  t.equal(first.statusCode, 200);
  t.match(first.json(), { activated: true, alreadyActive: false, archivedOthersCount: 0, dataset: { datasetId, status: 'active', _id: String, __v: Number } });
  t.match((await call('PATCH', `/v1/datasets/${datasetId}/activate`)).json(), { alreadyActive: true, dataset: { status: 'active' } });
  t.match((await call('PATCH', `/v1/datasets/${datasetId}/archive`)).json(), { archived: true, alreadyArchived: false, dataset: { status: 'archived' } });
  t.match((await call('PATCH', `/v1/datasets/${datasetId}/archive`)).json(), { archived: true, alreadyArchived: true });
  const missing = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const notFound = await call('PATCH', `/v1/datasets/${missing}/activate`);
  t.equal(notFound.statusCode, 404);
  t.match(notFound.json().error, /^Dataset '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4' not found for organization '[0-9a-f-]{36}'\.$/);
  const blank = await call('PATCH', '/v1/datasets/%20/activate');
  t.equal(blank.statusCode, 422);
  t.same(blank.json(), { error: "Invalid 'datasetId': expected a non-empty string." });
});

t.test('delete answers its counts once, then the dataset is gone', async (t) => {
  const { call, create } = await setUp(t);
  const datasetId = await create({ name: 'Main' });
  const deleted = await call('DELETE', `/v1/datasets/${datasetId}`);
  t.equal(deleted.statusCode, 200);
  t.same(deleted.json(), { deleted: true, deletedCount: 1, itemsDeletedCount: 0, queuedDeletedCount: 0, sourcesDeletedCount: 0, syncJobsDeletedCount: 0 });
  t.equal((await call('GET', `/v1/datasets/${datasetId}`)).statusCode, 404);
  const again = await call('DELETE', `/v1/datasets/${datasetId}`);
  t.equal(again.statusCode, 404);
  t.match(again.json().error, /^Dataset '.*' not found for organization '.*'\.$/);
});

t.test('list: newest first, counts with partial_update, validated pagination', async (t) => {
  const { call, create } = await setUp(t);
  const ids: string[] = [];
  for (const name of ['One', 'Two', 'Three']) ids.push(await create({ name, config: { storeName: `${name} Store`, storeDomain: `${name.toLowerCase()}.example.com` } }));
  const page = await call('GET', '/v1/datasets?limit=2');
  t.equal(page.statusCode, 200);
  const body = page.json();
  t.same(body.datasets.map((d: { name: string }) => d.name), ['Three', 'Two']);
  t.same(body.pagination, { page: 1, limit: 2, total: 3, hasMore: true });
  t.same(body.datasets[0].items, { active: 0, archived: 0, pending: 0, partial_update: 0, processing: 0, failed: 0 });
  t.same(body.datasets[0].config, { storeName: 'Three Store', storeDomain: 'three.example.com' });
  t.same((await call('GET', '/v1/datasets?page=2.9&limit=2.5')).json().pagination, { page: 2, limit: 2, total: 3, hasMore: false }, 'decimals truncated');
  for (const query of ['page=0', 'page=-1', 'page=abc', 'page=0.5']) {
    const bad = await call('GET', `/v1/datasets?${query}`);
    t.equal(bad.statusCode, 422, query);
    t.equal(bad.json().error, 'page must be an integer of at least 1.', query);
  }
  for (const query of ['limit=0', 'limit=201', 'limit=x', 'limit=-3']) {
    const bad = await call('GET', `/v1/datasets?${query}`);
    t.equal(bad.statusCode, 422, query);
    t.equal(bad.json().error, 'limit must be an integer between 1 and 200.', query);
  }
});

t.test('detect finds datasets by storeDomain, storeUrl host or storeId', async (t) => {
  const { call, create } = await setUp(t);
  const byDomain = await create({ name: 'Domain', config: { storeDomain: 'shop.acme.com' } });
  const byUrl = await create({ name: 'Url', config: { storeUrl: 'https://www.acme-outlet.com/collections' } });
  const byId = await create({ name: 'Id', config: { storeId: 'acme-eu' } });
  const found = async (query: string) => (await call('GET', `/v1/datasets/detect?${query}`)).json().datasets;
  t.match(await found('origin=https://shop.acme.com'), [{ datasetId: byDomain, matchedBy: 'storeDomain', storeDomain: 'shop.acme.com' }]);
  t.match(await found('origin=https://acme-outlet.com/'), [{ datasetId: byUrl, matchedBy: 'storeUrl' }]);
  t.match(await found('shop=acme-eu'), [{ datasetId: byId, matchedBy: 'storeId' }]);
  t.same(await found('origin=https://elsewhere.com'), []);
});

t.test('available genders: a public endpoint, demo key accepted, counts of live items in active datasets', async (t) => {
  const service = await startTestService(t);
  const demo = await service.app.inject({ url: '/v1/datasets/genders', headers: { authorization: 'Bearer sgpt-pk-demo' } });
  t.equal(demo.statusCode, 200);
  t.same(demo.json(), { genders: [] }, 'the demo organization has no live items until its catalogue is ingested');
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const publicKey = await service.app.inject({ url: '/v1/datasets/genders?datasetIds=0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', headers: { authorization: `Bearer ${org.publicKey}` } });
  t.equal(publicKey.statusCode, 200);
  t.same(publicKey.json(), { genders: [] });
  const privateKey = await service.app.inject({ url: '/v1/datasets/genders', headers: { authorization: `Bearer ${org.privateKey}` } });
  t.equal(privateKey.statusCode, 401, 'a public endpoint takes the public key');
});
