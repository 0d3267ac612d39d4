// The data source decider: given past events, when a command, then events or the error. Jobs here
// are legacy ones, written on the source's stream before jobs had streams of their own
// (test/domain/sync-job.test.ts has the job stream's decider).
import t from 'tap';
import { Conflict } from '../../domain/errors.js';
import { CANCELLED_BY_USER, feedEndpoint, isDue, nextSyncAt, openableSource, SourceNotActive, sourceDecider, SourceNotFound, SyncClaimLost, SyncJobNotFound, type SourceEvent } from '../../domain/source/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(sourceDecider);
const ids = { sourceId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', datasetId: '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', organizationId: '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01' };
const settings = { endpoint: 'https://shop.example.com/products.json', syncPeriod: 1440, status: 'active' as const };
const at = testMeta.now;
const created: SourceEvent = { type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', ...settings, markets: [], defaultMarket: null, at } };
const firstJobId = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const create = { type: 'CreateSource' as const, data: { ...ids, sourceType: 'shopify-api' as const, ...settings } };
const firstJob: SourceEvent = { type: 'SyncJobRequested', data: { ...ids, jobId: firstJobId, priority: 10, trigger: 'source-created', at } };

t.test('the feed endpoint always ends in /products.json', async (t) => {
  t.equal(feedEndpoint('https://shop.example.com'), 'https://shop.example.com/products.json');
  t.equal(feedEndpoint('https://shop.example.com/'), 'https://shop.example.com/products.json');
  t.equal(feedEndpoint('https://shop.example.com/en/products.json'), 'https://shop.example.com/en/products.json');
});

t.test('create once (its first sync opens on a stream of its own); a retried create appends nothing', async (t) => {
  spec(t, []).when(create).then([created]);
  spec(t, [created]).when(create).then([]);
  const inactive = { ...create, data: { ...create.data, status: 'inactive' as const } };
  spec(t, []).when(inactive).then([{ type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', ...settings, status: 'inactive', markets: [], defaultMarket: null, at } }]);
});

t.test('update records only what changes; another dataset or organization is not found', async (t) => {
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, changes: { syncPeriod: 60, status: 'active' } } }).then([{ type: 'SourceUpdated', data: { ...ids, changes: { syncPeriod: 60 }, at } }]);
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, changes: { status: 'active' } } }).then([]);
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, datasetId: ids.organizationId, changes: { syncPeriod: 60 } } }).thenThrows(SourceNotFound);
  spec(t, [created]).when({ type: 'DeleteSource', data: { ...ids, organizationId: ids.datasetId } }).thenThrows(SourceNotFound);
});

t.test('a deleted source is gone', async (t) => {
  const deleted: SourceEvent = { type: 'SourceDeleted', data: { ...ids, deletedJobs: 0, deletedLogs: 0, at } };
  spec(t, [created]).when({ type: 'DeleteSource', data: ids }).then([deleted]);
  spec(t, [created, deleted]).when({ type: 'UpdateSource', data: { ...ids, changes: { syncPeriod: 60 } } }).thenThrows(SourceNotFound);
});

const jobId = '2a3b4c5d-6e7f-4081-9293-a4b5c6d7e8f9';
const workerId = 'worker-a';
const logId = '3b4c5d6e-7f80-4192-a3b4-c5d6e7f8091a';
const requested: SourceEvent = { type: 'SyncJobRequested', data: { ...ids, jobId, priority: 10, trigger: 'manual', at } };
const claimed: SourceEvent = { type: 'SyncJobClaimed', data: { ...ids, jobId, workerId, logId, at } };
const stats = { retrieved: 3, added: 1, updated: 1, archived: 1, failed: 0 };

t.test('a legacy job still open holds the source: no job stream opens beside it', async (t) => {
  const fold = (events: SourceEvent[]) => events.reduce(sourceDecider.evolve, sourceDecider.initialState);
  t.equal(openableSource(fold([created, requested]), ids).openJobId, jobId);
  t.equal(openableSource(fold([created, requested, claimed]), ids).openJobId, jobId);
  const done: SourceEvent = { type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } };
  t.equal(openableSource(fold([created, requested, claimed, done]), ids).openJobId, null);
  t.throws(() => openableSource(fold([created]), { ...ids, datasetId: ids.organizationId }), SourceNotFound);
});

t.test('an inactive source takes no job; deactivating leaves an open job alone', async (t) => {
  const off: SourceEvent = { type: 'SourceUpdated', data: { ...ids, changes: { status: 'inactive' }, at } };
  t.throws(() => openableSource([created, off].reduce(sourceDecider.evolve, sourceDecider.initialState), ids), new SourceNotActive());
  spec(t, [created, requested, off]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId, logId } }).then([claimed]);
});

t.test('only pending jobs can be cancelled; unknown and expired jobs are not found', async (t) => {
  const cancel = { type: 'CancelSyncJob' as const, data: { ...ids, jobId } };
  spec(t, [created, requested]).when(cancel).then([{ type: 'SyncJobCancelled', data: { ...ids, jobId, error: CANCELLED_BY_USER, at } }]);
  spec(t, [created, requested, claimed]).when(cancel).thenThrows(Conflict, "Cannot cancel job with status 'processing'. Only pending jobs can be cancelled.");
  const done: SourceEvent = { type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } };
  spec(t, [created, requested, claimed, done]).when(cancel).thenThrows(Conflict, "Cannot cancel job with status 'completed'. Only pending jobs can be cancelled.");
  spec(t, [created]).when(cancel).thenThrows(SyncJobNotFound, 'Sync job not found');
  const eightDaysLater = { ...testMeta, now: new Date(Date.parse(at) + 8 * 86_400_000).toISOString() };
  spec(t, [created, requested, claimed, done]).when(cancel, eightDaysLater).thenThrows(SyncJobNotFound, 'Sync job not found');
});

t.test('a worker claims a pending job once; only the holder finishes it', async (t) => {
  spec(t, [created, requested]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId, logId } }).then([claimed]);
  spec(t, [created, requested, claimed]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId: 'worker-b', logId } }).then([]);
  spec(t, [created, requested, claimed]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId, stats } }).then([{ type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } }]);
  spec(t, [created, requested, claimed]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId: 'worker-b', stats } }).thenThrows(SyncClaimLost);
  spec(t, [created, requested, claimed]).when({ type: 'FailSyncJob', data: { ...ids, jobId, workerId, error: 'Page 1: HTTP 404 Not Found', stats } }).then([
    { type: 'SyncJobFailed', data: { ...ids, jobId, workerId, logId, error: 'Page 1: HTTP 404 Not Found', stats, at } },
  ]);
});

t.test('a silent worker loses its job to the next one, and cannot finish it afterwards', async (t) => {
  const released: SourceEvent = { type: 'SyncJobReleased', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout', at } };
  spec(t, [created, requested, claimed]).when({ type: 'ReleaseSyncJob', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout' } }).then([released]);
  spec(t, [created, requested, claimed, released]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId, stats } }).thenThrows(SyncClaimLost);
  const reclaimed: SourceEvent = { type: 'SyncJobClaimed', data: { ...ids, jobId, workerId: 'worker-b', logId, at } };
  spec(t, [created, requested, claimed, released]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId: 'worker-b', logId } }).then([reclaimed]);
  spec(t, [created, requested, claimed, released, reclaimed]).when({ type: 'ReleaseSyncJob', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout' } }).then([]);
});

t.test('a job whose dataset is gone fails before any log exists', async (t) => {
  spec(t, [created, requested]).when({ type: 'FailSyncJob', data: { ...ids, jobId, workerId: null, error: 'Dataset is archived', stats: null } }).then([
    { type: 'SyncJobFailed', data: { ...ids, jobId, workerId: null, logId: null, error: 'Dataset is archived', stats: null, at } },
  ]);
  spec(t, [created, requested, claimed]).when({ type: 'FailSyncJob', data: { ...ids, jobId, workerId: null, error: 'Dataset is archived', stats: null } }).then([]);
});

t.test('deleting a source counts the jobs and logs that go with it', async (t) => {
  const done: SourceEvent = { type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } };
  spec(t, [created, firstJob, requested, claimed, done]).when({ type: 'DeleteSource', data: ids }).then([{ type: 'SourceDeleted', data: { ...ids, deletedJobs: 2, deletedLogs: 1, at } }]);
  // Jobs on their own streams are counted by the caller from the read model.
  spec(t, [created]).when({ type: 'DeleteSource', data: { ...ids, counts: { jobs: 5, logs: 4 } } }).then([{ type: 'SourceDeleted', data: { ...ids, deletedJobs: 5, deletedLogs: 4, at } }]);
});

t.test('an expired legacy job is gone from the source', async (t) => {
  const done: SourceEvent = { type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } };
  const eightDaysLater = { ...testMeta, now: new Date(Date.parse(at) + 8 * 86_400_000).toISOString() };
  const expire = { type: 'ExpireSyncJob' as const, data: { ...ids, jobId } };
  spec(t, [created, requested, claimed, done]).when(expire).then([]);
  const expired: SourceEvent = { type: 'SyncJobExpired', data: { ...ids, jobId, at: eightDaysLater.now } };
  spec(t, [created, requested, claimed, done]).when(expire, eightDaysLater).then([expired]);
  spec(t, [created, requested, claimed, done, expired]).when(expire, eightDaysLater).then([]);
});

t.test('the schedule: previous + period, a failed run retried within the hour, 0 never', async (t) => {
  const createdAt = '2026-01-01T00:00:00.000Z';
  t.equal(nextSyncAt({ syncPeriod: 0, syncPrevious: null, createdAt, lastFailedAt: null }), null);
  t.equal(nextSyncAt({ syncPeriod: 1440, syncPrevious: null, createdAt, lastFailedAt: null }), Date.parse('2026-01-02T00:00:00.000Z'));
  t.equal(nextSyncAt({ syncPeriod: 60, syncPrevious: '2026-01-01T05:00:00.000Z', createdAt, lastFailedAt: '2026-01-01T04:00:00.000Z' }), Date.parse('2026-01-01T06:00:00.000Z'));
  t.equal(nextSyncAt({ syncPeriod: 1440, syncPrevious: '2026-01-01T05:00:00.000Z', createdAt, lastFailedAt: '2026-01-01T07:00:00.000Z' }), Date.parse('2026-01-01T08:00:00.000Z'));
  t.ok(isDue({ syncPeriod: 60, syncPrevious: '2026-01-01T05:00:00.000Z', createdAt, lastFailedAt: null }, '2026-01-01T06:00:00.000Z'));
  t.notOk(isDue({ syncPeriod: 60, syncPrevious: '2026-01-01T05:00:00.000Z', createdAt, lastFailedAt: null }, '2026-01-01T05:59:59.000Z'));
});
