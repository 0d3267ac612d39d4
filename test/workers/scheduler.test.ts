// The scheduler's lease (one process at a time among replicas) and the 7-day expiry of finished
// sync jobs, on the real read-model database (PGlite, or Postgres on the integration run).
import t from 'tap';
import { holdLease, releaseLease } from '../../workers/sync/scheduler.js';
import { expireFinishedJobs } from '../../workers/sync/sweep.js';
import { startTestService } from '../support/service.js';

t.test('a lease has one holder until it expires or is released', async (t) => {
  const { platform } = await startTestService(t);
  const db = platform.database.db;
  t.ok(await holdLease(db, 'sync-scheduler', 'replica-a', 60_000), 'the first replica takes it');
  t.notOk(await holdLease(db, 'sync-scheduler', 'replica-b', 60_000), 'a second replica is refused while it runs');
  t.ok(await holdLease(db, 'sync-scheduler', 'replica-a', 60_000), 'the holder renews');
  t.ok(await holdLease(db, 'another-role', 'replica-b', 60_000), 'leases are per name');

  await db.updateTable('leases').set({ expires_at: new Date(Date.now() - 1_000) }).where('name', '=', 'sync-scheduler').execute();
  t.ok(await holdLease(db, 'sync-scheduler', 'replica-b', 60_000), 'an expired lease (its holder died) is taken over');
  t.notOk(await holdLease(db, 'sync-scheduler', 'replica-a', 60_000), 'the old holder has lost it');

  await releaseLease(db, 'sync-scheduler', 'replica-a');
  t.notOk(await holdLease(db, 'sync-scheduler', 'replica-a', 60_000), 'only the holder can release');
  await releaseLease(db, 'sync-scheduler', 'replica-b');
  t.ok(await holdLease(db, 'sync-scheduler', 'replica-a', 60_000), 'a released lease is free at once');
});

t.test('finished jobs are gone 7 days after completion: hidden at once, expired by an event the projector removes them on', async (t) => {
  const service = await startTestService(t);
  const org = await service.cli(['org', 'create', '--name', 'Acme', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId;
  const sourceId = (await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com' })).json().source.sourceId;
  const base = `/v1/datasets/${datasetId}/sources/${sourceId}/sync/jobs`;
  const [job] = (await call('GET', base)).json().jobs;
  await call('POST', `${base}/${job.jobId}/cancel`);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const recent = (await call('POST', base)).json();
  await call('POST', `${base}/${recent.jobId}/cancel`);
  const recentDone = Date.parse((await call('GET', `${base}/${recent.jobId}`)).json().job.result.completedAt);

  const db = service.platform.database.db;
  await db.updateTable('sync_jobs').set({ completed_at: new Date(Date.now() - 7 * 86_400_000 - 60_000) }).where('job_id', '=', job.jobId).execute();
  t.same((await call('GET', `${base}/${job.jobId}`)).json(), { error: 'Sync job not found' }, 'past retention it reads as gone');
  t.same((await call('GET', base)).json().jobs.map((j: { jobId: string }) => j.jobId), [recent.jobId]);

  // The sweep as it runs 7 days later: only the job past its retention expires.
  const later = new Date(recentDone + 7 * 86_400_000 - 1);
  t.equal(await expireFinishedJobs({ store: service.platform.eventStore, db }, later), 1, 'the sweep expires exactly the job past its retention');
  t.equal(await expireFinishedJobs({ store: service.platform.eventStore, db }, later), 0, 'and only once');
  // The committed head, not headPosition(): on a shared Postgres server another session's open
  // transaction can hide the sweep's event from the visible head, and the wait would return early.
  const head = await service.platform.eventStore.committedHead();
  await service.platform.projections.waitFor(head!, ['data_sources']);
  const rows = async () => (await db.selectFrom('sync_jobs').select('job_id').execute()).map((row) => row.job_id);
  t.same(await rows(), [recent.jobId]);
});
