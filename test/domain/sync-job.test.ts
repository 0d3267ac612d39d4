// The sync job decider (one stream per job): given past events, when a command, then events or the error.
import t from 'tap';
import { Conflict } from '../../domain/errors.js';
import { CANCELLED_BY_USER, SyncClaimLost, SyncJobNotFound } from '../../domain/source/index.js';
import { syncJobDecider, syncJobId, syncJobStream, type SyncJobEvent } from '../../domain/sync-job/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(syncJobDecider);
const sourceId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const ids = { sourceId, datasetId: '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', organizationId: '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01' };
const at = testMeta.now;
const jobId = syncJobId(sourceId, 1);
const workerId = 'worker-a';
const logId = '3b4c5d6e-7f80-4192-a3b4-c5d6e7f8091a';
const stats = { retrieved: 3, added: 1, updated: 1, archived: 1, failed: 0 };
const request = { type: 'RequestSyncJob' as const, data: { ...ids, jobId, number: 1, priority: 10, trigger: 'manual' as const } };
const requested: SyncJobEvent = { type: 'SyncJobRequested', data: { ...ids, jobId, number: 1, priority: 10, trigger: 'manual', at } };
const claimed: SyncJobEvent = { type: 'SyncJobClaimed', data: { ...ids, jobId, workerId, logId, at } };
const done: SyncJobEvent = { type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at } };

t.test("job n's id and stream derive from the source and n: every opener agrees on them", async (t) => {
  t.equal(syncJobId(sourceId, 1), jobId);
  t.not(syncJobId(sourceId, 2), jobId);
  t.equal(syncJobStream(jobId), `syncjob-${jobId}`);
  t.equal(syncJobDecider.streamId(request), `syncjob-${jobId}`);
});

t.test('a job opens once: a second request for the same number appends nothing', async (t) => {
  spec(t, []).when(request).then([requested]);
  spec(t, [requested]).when(request).then([]);
  spec(t, [requested, claimed, done]).when(request).then([]);
});

t.test('only pending jobs can be cancelled; unknown, foreign and expired jobs are not found', async (t) => {
  const cancel = { type: 'CancelSyncJob' as const, data: { ...ids, jobId } };
  spec(t, [requested]).when(cancel).then([{ type: 'SyncJobCancelled', data: { ...ids, jobId, error: CANCELLED_BY_USER, at } }]);
  spec(t, [requested, claimed]).when(cancel).thenThrows(Conflict, "Cannot cancel job with status 'processing'. Only pending jobs can be cancelled.");
  spec(t, [requested, claimed, done]).when(cancel).thenThrows(Conflict, "Cannot cancel job with status 'completed'. Only pending jobs can be cancelled.");
  spec(t, []).when(cancel).thenThrows(SyncJobNotFound, 'Sync job not found');
  spec(t, [requested]).when({ ...cancel, data: { ...cancel.data, organizationId: ids.datasetId } }).thenThrows(SyncJobNotFound, 'Sync job not found');
  const eightDaysLater = { ...testMeta, now: new Date(Date.parse(at) + 8 * 86_400_000).toISOString() };
  spec(t, [requested, claimed, done]).when(cancel, eightDaysLater).thenThrows(SyncJobNotFound, 'Sync job not found');
});

t.test('a worker claims a pending job once; only the holder finishes it', async (t) => {
  spec(t, [requested]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId, logId } }).then([claimed]);
  spec(t, [requested, claimed]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId: 'worker-b', logId } }).then([]);
  spec(t, [requested, claimed]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId, stats } }).then([done]);
  spec(t, [requested, claimed]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId: 'worker-b', stats } }).thenThrows(SyncClaimLost);
  spec(t, [requested, claimed]).when({ type: 'FailSyncJob', data: { ...ids, jobId, workerId, error: 'Page 1: HTTP 404 Not Found', stats } }).then([
    { type: 'SyncJobFailed', data: { ...ids, jobId, workerId, logId, error: 'Page 1: HTTP 404 Not Found', stats, at } },
  ]);
});

t.test('a silent worker loses its job to the next one, and cannot finish it afterwards', async (t) => {
  const released: SyncJobEvent = { type: 'SyncJobReleased', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout', at } };
  spec(t, [requested, claimed]).when({ type: 'ReleaseSyncJob', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout' } }).then([released]);
  spec(t, [requested, claimed, released]).when({ type: 'CompleteSyncJob', data: { ...ids, jobId, workerId, stats } }).thenThrows(SyncClaimLost);
  const reclaimed: SyncJobEvent = { type: 'SyncJobClaimed', data: { ...ids, jobId, workerId: 'worker-b', logId, at } };
  spec(t, [requested, claimed, released]).when({ type: 'ClaimSyncJob', data: { ...ids, jobId, workerId: 'worker-b', logId } }).then([reclaimed]);
  spec(t, [requested, claimed, released, reclaimed]).when({ type: 'ReleaseSyncJob', data: { ...ids, jobId, workerId, reason: 'heartbeat-timeout' } }).then([]);
});

t.test('a job whose dataset is gone fails before any log exists', async (t) => {
  const fail = { type: 'FailSyncJob' as const, data: { ...ids, jobId, workerId: null, error: 'Dataset is archived', stats: null } };
  spec(t, [requested]).when(fail).then([{ type: 'SyncJobFailed', data: { ...ids, jobId, workerId: null, logId: null, error: 'Dataset is archived', stats: null, at } }]);
  spec(t, [requested, claimed]).when(fail).then([]);
});

t.test('a finished job expires once, after its 7-day retention; an open one never', async (t) => {
  const expire = { type: 'ExpireSyncJob' as const, data: { ...ids, jobId } };
  const eightDaysLater = { ...testMeta, now: new Date(Date.parse(at) + 8 * 86_400_000).toISOString() };
  const expired: SyncJobEvent = { type: 'SyncJobExpired', data: { ...ids, jobId, at: eightDaysLater.now } };
  spec(t, [requested, claimed, done]).when(expire).then([]);
  spec(t, [requested, claimed]).when(expire, eightDaysLater).then([]);
  spec(t, [requested, claimed, done]).when(expire, eightDaysLater).then([expired]);
  spec(t, [requested, claimed, done, expired]).when(expire, eightDaysLater).then([]);
});
