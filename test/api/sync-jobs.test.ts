// Sync jobs and logs through HTTP, without a sync worker: what a merchant sees of a job before a
// worker takes it (create, existing, cancel, list, retrieve) and every message of documents 1 and 2.
import t, { type Test } from 'tap';
import { sharedTestService } from '../support/service.js';

const setUp = async (_t: Test) => {
  const service = await sharedTestService();
  const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => service.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId as string;
  const create = async (body: object = {}) => (await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com', ...body })).json().source;
  return { service, call, datasetId, create };
};

t.test('an active source gets its first sync at once; asking again returns that job with existing: true', async (t) => {
  const { call, datasetId, create } = await setUp(t);
  const source = await create();
  const base = `/v1/datasets/${datasetId}/sources/${source.sourceId}/sync/jobs`;
  const jobs = (await call('GET', base)).json();
  t.equal(jobs.jobs.length, 1);
  const first = jobs.jobs[0];
  t.match(first, { status: 'pending', trigger: 'source-created', worker: { workerId: null, lockedAt: null, startedAt: null }, result: { stats: null, completedAt: null, error: null }, logId: null, retries: { count: 0 } });

  const again = await call('POST', base);
  t.equal(again.statusCode, 200);
  t.same(Object.keys(again.json()).sort(), ['existing', 'jobId', 'message', 'status', 'success']);
  t.match(again.json(), { success: true, jobId: first.jobId, status: 'pending', existing: true, message: /already/ });
});

t.test('cancel: pending only, with the exact messages; a new job afterwards; retrieve and list', async (t) => {
  const { call, datasetId, create } = await setUp(t);
  const source = await create();
  const base = `/v1/datasets/${datasetId}/sources/${source.sourceId}/sync/jobs`;
  const first = (await call('GET', base)).json().jobs[0];

  t.same((await call('POST', `${base}/${first.jobId}/cancel`)).json(), { success: true, message: 'Sync job cancelled successfully' });
  const cancelled = (await call('GET', `${base}/${first.jobId}`)).json();
  t.match(cancelled, { success: true, job: { jobId: first.jobId, status: 'failed', logId: null, result: { error: 'Job cancelled by user', completedAt: String } } });
  const refused = await call('POST', `${base}/${first.jobId}/cancel`);
  t.equal(refused.statusCode, 409);
  t.same(refused.json(), { error: "Cannot cancel job with status 'failed'. Only pending jobs can be cancelled." });
  t.same((await call('POST', `${base}/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4/cancel`)).json(), { error: 'Sync job not found' });
  t.equal((await call('GET', `${base}/0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4`)).statusCode, 404);
  t.same((await call('GET', `${base}/not-a-uuid`)).json(), { error: 'Sync job not found' });

  const created = await call('POST', base);
  t.equal(created.statusCode, 200);
  t.same(Object.keys(created.json()).sort(), ['createdAt', 'jobId', 'status', 'success']);
  t.match(created.json(), { success: true, status: 'pending', createdAt: String });
  t.not(created.json().jobId, first.jobId);

  const list = (await call('GET', `${base}?limit=1`)).json();
  t.same(list.pagination, { page: 1, limit: 1, total: 2, totalPages: 2 });
  t.equal(list.jobs[0].jobId, created.json().jobId, 'newest first');
  t.match(list.jobs[0], { trigger: 'manual', priority: 10 });
});

t.test('sync jobs list: limit 1 to 100 or 422; decimals truncated', async (t) => {
  const { call, datasetId, create } = await setUp(t);
  const source = await create();
  const base = `/v1/datasets/${datasetId}/sources/${source.sourceId}/sync/jobs`;
  for (const limit of ['0', '101', 'abc', '-1']) {
    const response = await call('GET', `${base}?limit=${limit}`);
    t.equal(response.statusCode, 422, `limit=${limit}`);
    t.equal(response.json().error, 'limit must be an integer between 1 and 100.');
  }
  t.same((await call('GET', `${base}?limit=2.9`)).json().pagination, { page: 1, limit: 2, total: 1, totalPages: 1 });
  t.same((await call('GET', base)).json().pagination, { page: 1, limit: 20, total: 1, totalPages: 1 });
});

t.test('create sync job: 404 with the source id, 409 when inactive or the dataset is archived', async (t) => {
  const { call, datasetId, create } = await setUp(t);
  const missing = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const notFound = await call('POST', `/v1/datasets/${datasetId}/sources/${missing}/sync/jobs`);
  t.equal(notFound.statusCode, 404);
  t.same(notFound.json(), { error: `Data source not found: ${missing}` });

  const inactive = await create({ status: 'inactive' });
  t.equal((await call('GET', `/v1/datasets/${datasetId}/sources/${inactive.sourceId}/sync/jobs`)).json().jobs.length, 0, 'an inactive source gets no first sync');
  const refused = await call('POST', `/v1/datasets/${datasetId}/sources/${inactive.sourceId}/sync/jobs`);
  t.equal(refused.statusCode, 409);
  t.same(refused.json(), { error: 'Data source is not active' });

  const active = await create({ endpoint: 'https://two.example.com' });
  const first = (await call('GET', `/v1/datasets/${datasetId}/sources/${active.sourceId}/sync/jobs`)).json().jobs[0];
  await call('POST', `/v1/datasets/${datasetId}/sources/${active.sourceId}/sync/jobs/${first.jobId}/cancel`);
  await call('PATCH', `/v1/datasets/${datasetId}/archive`);
  t.same((await call('POST', `/v1/datasets/${datasetId}/sources/${active.sourceId}/sync/jobs`)).json(), { error: 'Data source is not active' });
});

t.test('logs: empty until a worker runs; clamped pagination', async (t) => {
  const { call, datasetId, create } = await setUp(t);
  const source = await create();
  const base = `/v1/datasets/${datasetId}/sources/${source.sourceId}/logs`;
  t.same((await call('GET', base)).json(), { success: true, logs: [], total: 0, page: 1, limit: 10 });
  t.match((await call('GET', `${base}?page=-3&limit=500`)).json(), { page: 1, limit: 50 });
  t.match((await call('GET', `${base}?limit=0`)).json(), { limit: 10 });
  t.match((await call('GET', `${base}?limit=-2`)).json(), { limit: 1 });
});
