// Data sources through HTTP: create, list with clamped pagination, PATCH with every message of
// document 2 (404 only after validation), delete, and the dataset cascades.
import t, { type Test } from 'tap';
import { sharedTestService } from '../support/service.js';

const setUp = async (_t: Test) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => service.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId as string;
  const create = async (body: object = {}) => {
    const response = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com', ...body });
    if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json().source;
  };
  return { service, org, call, datasetId, create };
};

t.test('create: 201 with the source; /products.json added to the endpoint; daily by default', async (t) => {
  const { create, datasetId, org } = await setUp(t);
  const source = await create();
  t.match(source, {
    datasetId,
    organizationId: org.organizationId,
    type: 'shopify-api',
    status: 'active',
    sync: { period: 1440, previous: null },
    config: { endpoint: 'https://shop.example.com/products.json', disableGenerativeAssets: true },
  });
  t.notOk('lastStats' in source.sync, 'lastStats only on lists');
});

t.test('list: newest first, lastStats, clamped pagination', async (t) => {
  const { create, call, datasetId } = await setUp(t);
  for (const shop of ['a', 'b', 'c']) await create({ endpoint: `https://${shop}.example.com/` });
  const list = (await call('GET', `/v1/datasets/${datasetId}/sources`)).json();
  t.match(list, { success: true, total: 3, page: 1, limit: 20 });
  t.same(list.sources.map((s: { config: { endpoint: string } }) => s.config.endpoint), ['https://c.example.com/products.json', 'https://b.example.com/products.json', 'https://a.example.com/products.json']);
  t.same(list.sources[0].sync.lastStats, { retrieved: 0, added: 0, updated: 0, archived: 0, failed: 0 });
  const page = async (query: string) => {
    const { page, limit, sources } = (await call('GET', `/v1/datasets/${datasetId}/sources?${query}`)).json();
    return { page, limit, count: sources.length };
  };
  t.same(await page('page=0&limit=500'), { page: 1, limit: 100, count: 3 }, 'page below 1 → 1, limit over 100 → 100');
  t.same(await page('page=abc&limit=0'), { page: 1, limit: 20, count: 3 }, 'non-numeric page → 1, limit 0 → default');
  t.same(await page('limit=-5'), { page: 1, limit: 1, count: 1 }, 'negative limit → 1');
  t.same(await page('page=2&limit=2'), { page: 2, limit: 2, count: 1 });
  const farthest = Math.floor(Number.MAX_SAFE_INTEGER / 100);
  for (const huge of ['1e308', '9007199254740993', '1e20']) {
    const answer = await call('GET', `/v1/datasets/${datasetId}/sources?page=${huge}&limit=100`);
    t.equal(answer.statusCode, 200, `page=${huge} is a page, not an error`);
    t.match(answer.json(), { page: farthest, limit: 100, total: 3, sources: [] }, `page=${huge} → the last page an offset can reach, empty`);
  }
  const logs = await call('GET', `/v1/datasets/${datasetId}/sources/${list.sources[0].sourceId}/logs?page=1e308`);
  t.equal(logs.statusCode, 200, 'the clamped logs list too');
  t.match(logs.json(), { page: Math.floor(Number.MAX_SAFE_INTEGER / 50), total: 0 });
  t.same((await call('GET', '/v1/datasets/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4/sources')).json(), { error: 'Dataset not found for this organization.' });
});

t.test('PATCH: each field message alone, Validation failed. with details, no fields, 404 after validation', async (t) => {
  const { create, call, datasetId } = await setUp(t);
  const source = await create();
  const url = `/v1/datasets/${datasetId}/sources/${source.sourceId}`;
  const single: Array<[object, string, string]> = [
    [{ endpoint: 42 }, 'endpoint', 'endpoint must be a string'],
    [{ endpoint: 'shop.example.com' }, 'endpoint', 'endpoint must be a valid URL'],
    [{ syncPeriod: 30 }, 'syncPeriod', 'syncPeriod must be 0 (Never) or at least 60 minutes'],
    [{ syncPeriod: 'soon' }, 'syncPeriod', 'syncPeriod must be 0 (Never) or at least 60 minutes'],
    [{ status: 'paused' }, 'status', 'status must be "active" or "inactive"'],
    [{ disableGenerativeAssets: 'yes' }, 'disableGenerativeAssets', 'disableGenerativeAssets must be a boolean'],
  ];
  for (const [body, path, message] of single) {
    const response = await call('PATCH', url, body);
    t.equal(response.statusCode, 422, message);
    t.same(response.json(), { error: message, details: [{ path, message }] }, message);
  }
  const several = await call('PATCH', url, { syncPeriod: 5, status: 'paused' });
  t.same(several.json().error, 'Validation failed.');
  t.equal(several.json().details.length, 2);
  t.same((await call('PATCH', url, { type: 'csv' })).json().error, 'No valid fields to update');
  const foreign = await call('PATCH', `/v1/datasets/${datasetId}/sources/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4`, { syncPeriod: 5 });
  t.equal(foreign.statusCode, 422, 'validation runs before the 404');
  t.same((await call('PATCH', `/v1/datasets/${datasetId}/sources/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4`, { syncPeriod: 60 })).json(), { error: 'Data source not found or access denied' });

  const updated = (await call('PATCH', url, { syncPeriod: '90.7', status: 'inactive', disableGenerativeAssets: false })).json().source;
  t.match(updated, { status: 'inactive', sync: { period: 90 }, config: { disableGenerativeAssets: true } }, 'numeric strings, truncated; generative assets stay off');
});

t.test('a source of another dataset is not found; delete answers its counts; deleting the dataset counts its sources', async (t) => {
  const { create, call, datasetId } = await setUp(t);
  const source = await create();
  const otherDataset = (await call('POST', '/v1/datasets', { name: 'Other' })).json().datasetId;
  t.same((await call('DELETE', `/v1/datasets/${otherDataset}/sources/${source.sourceId}`)).json(), { error: 'Data source not found or access denied' });
  // An active source gets its first sync job at once; no worker runs here, so no log exists yet.
  t.same((await call('DELETE', `/v1/datasets/${datasetId}/sources/${source.sourceId}`)).json(), { success: true, deletedLogs: 0, deletedJobs: 1 });
  t.equal((await call('DELETE', `/v1/datasets/${datasetId}/sources/${source.sourceId}`)).statusCode, 404);
  await create();
  await create({ endpoint: 'https://two.example.com', status: 'inactive' });
  t.match((await call('DELETE', `/v1/datasets/${datasetId}`)).json(), { sourcesDeletedCount: 2, syncJobsDeletedCount: 1 });
});

t.test('archiving the dataset switches its sources off; activating brings them back', async (t) => {
  const { create, call, datasetId } = await setUp(t);
  await create();
  await call('PATCH', `/v1/datasets/${datasetId}/archive`);
  t.equal((await call('GET', `/v1/datasets/${datasetId}/sources`)).json().sources[0].status, 'inactive');
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  t.equal((await call('GET', `/v1/datasets/${datasetId}/sources`)).json().sources[0].status, 'active');
});
