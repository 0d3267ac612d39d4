// Sync jobs on streams of their own: the source's stream keeps only the source's life, and jobs
// written on source streams before this layout (legacy) still read, hold the source and finish.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { sourceStream } from '../../domain/source/index.js';
import { syncJobId, syncJobStream } from '../../domain/sync-job/index.js';
import { startTestService } from '../support/service.js';

t.test('jobs open on their own numbered streams, one at a time; a legacy job on the source stream still counts', async (t) => {
  const service = await startTestService(t);
  const store = service.platform.eventStore;
  const org = await service.cli(['org', 'create', '--name', 'Acme', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId;
  const sourceId = (await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com' })).json().source.sourceId as string;
  const base = `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`;

  const [first] = (await call('GET', base)).json().jobs;
  t.equal(first.jobId, syncJobId(sourceId, 1), "the first sync is job 1 of the source");
  t.same((await store.readStream(syncJobStream(first.jobId))).map((e) => e.type), ['SyncJobRequested']);
  t.match((await call('POST', base)).json(), { jobId: first.jobId, existing: true }, 'one open job per source');
  await call('POST', `${base}/${first.jobId}/cancel`);
  const second = (await call('POST', base)).json();
  t.equal(second.jobId, syncJobId(sourceId, 2), 'job 2 opens once job 1 is closed');
  await call('POST', `${base}/${second.jobId}/cancel`);
  t.same((await store.readStream(sourceStream(sourceId))).map((e) => e.type), ['SourceCreated'], "the source's stream holds only its own life");

  // A job written the old way, on the source's stream, while job 2 is closed.
  const legacyId = randomUUID();
  const ids = { sourceId, datasetId, organizationId: org.organizationId };
  const source = await store.readStream(sourceStream(sourceId));
  const { position } = await store.append(
    sourceStream(sourceId),
    [{ id: randomUUID(), type: 'SyncJobRequested', data: { ...ids, jobId: legacyId, priority: 10, trigger: 'manual', at: new Date().toISOString() }, metadata: { organizationId: org.organizationId, correlationId: randomUUID() } }],
    { expectedRevision: source.at(-1)!.revision },
  );
  await service.platform.projections.waitFor(position, ['data_sources']);
  t.match((await call('GET', `${base}/${legacyId}`)).json(), { job: { jobId: legacyId, status: 'pending' } }, 'the legacy job reads');
  t.match((await call('POST', base)).json(), { jobId: legacyId, existing: true }, 'and holds the source');
  t.same((await call('POST', `${base}/${legacyId}/cancel`)).json(), { success: true, message: 'Sync job cancelled successfully' }, 'and is decided on its stream');
  const third = (await call('POST', base)).json();
  t.match(third, { jobId: syncJobId(sourceId, 3), status: 'pending' }, 'after it, numbering goes on');
  t.equal((await call('GET', base)).json().jobs.length, 4);
});
