// Read models of data sources and their sync jobs and run logs, from the sources' streams and the
// jobs' own (`syncjob-*`; legacy jobs on source streams carry the same event types); a deleted
// source or dataset takes its jobs and logs with it. Owns data_sources, sync_jobs and sync_logs
// and touches nothing else. Whether a source is active also
// depends on its dataset (an archived dataset switches them off), which queries join in.
import type { Kysely } from 'kysely';
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { SourceEvent } from '../domain/source/events.js';
import { projector, type TypedHandlers } from './projector.js';

type Handled = SourceEvent | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
const COLUMNS = { endpoint: 'endpoint', syncPeriod: 'sync_period', status: 'status' } as const;

const finishLog = (db: Kysely<any>, logId: string, status: 'completed' | 'failed', at: string, stats: object | null) =>
  db.updateTable('sync_logs').set({ status, finished_at: at, stats: stats === null ? null : JSON.stringify(stats) }).where('log_id', '=', logId).where('status', '=', 'running').execute();

/** Only this projector's tables: run traces the sync worker writes are swept by their owner (workers/sync/sweep.ts). */
const removeJobs = async (db: Kysely<any>, column: 'source_id' | 'dataset_id', id: string) => {
  await db.deleteFrom('sync_logs').where(column, '=', id).execute();
  await db.deleteFrom('sync_jobs').where(column, '=', id).execute();
};

const handlers: TypedHandlers<Handled> = {
  SourceCreated: async (db, event) => {
    const { sourceId, datasetId, organizationId, sourceType, endpoint, syncPeriod, status, markets, defaultMarket, at } = event.data;
    await db
      .insertInto('data_sources')
      .values({
        source_id: sourceId,
        dataset_id: datasetId,
        organization_id: organizationId,
        type: sourceType,
        status,
        endpoint,
        sync_period: syncPeriod,
        markets: markets?.length ? JSON.stringify(markets) : null,
        default_market: defaultMarket ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  },
  SourceUpdated: async (db, event) => {
    const { sourceId, changes, at } = event.data;
    const set: Record<string, unknown> = { updated_at: at };
    for (const [field, value] of Object.entries(changes)) set[COLUMNS[field as keyof typeof COLUMNS]] = value;
    await db.updateTable('data_sources').set(set).where('source_id', '=', sourceId).execute();
  },
  SourceDeleted: async (db, event) => {
    const { sourceId } = event.data;
    await removeJobs(db, 'source_id', sourceId);
    await db.deleteFrom('data_sources').where('source_id', '=', sourceId).execute();
  },
  DatasetDeleted: async (db, event) => {
    const { datasetId } = event.data;
    await removeJobs(db, 'dataset_id', datasetId);
    await db.deleteFrom('data_sources').where('dataset_id', '=', datasetId).execute();
  },
  SyncJobRequested: async (db, event) => {
    const { jobId, sourceId, datasetId, organizationId, priority, trigger, at } = event.data;
    await db
      .insertInto('sync_jobs')
      .values({ job_id: jobId, source_id: sourceId, dataset_id: datasetId, organization_id: organizationId, status: 'pending', priority, trigger, created_at: at })
      .execute();
  },
  SyncJobClaimed: async (db, event) => {
    const { jobId, sourceId, datasetId, organizationId, workerId, logId, at } = event.data;
    await db.updateTable('sync_jobs').set({ status: 'processing', worker_id: workerId, locked_at: at, started_at: at, log_id: logId }).where('job_id', '=', jobId).execute();
    await db.insertInto('sync_logs').values({ log_id: logId, job_id: jobId, source_id: sourceId, dataset_id: datasetId, organization_id: organizationId, status: 'running', started_at: at }).execute();
  },
  SyncJobReleased: async (db, event) => {
    const { jobId, reason, at } = event.data;
    const job = await db.selectFrom('sync_jobs').select('log_id').where('job_id', '=', jobId).executeTakeFirst();
    // The abandoned run's log ends here; the next claim starts a log of its own.
    if (job?.log_id) await finishLog(db, job.log_id, 'failed', at, null);
    await db
      .updateTable('sync_jobs')
      .set((eb) => ({ status: 'pending', worker_id: null, locked_at: null, started_at: null, retries: reason === 'retry' ? eb('retries', '+', 1) : eb.ref('retries') }))
      .where('job_id', '=', jobId)
      .execute();
  },
  SyncJobCompleted: async (db, event) => {
    const { jobId, sourceId, logId, stats, at } = event.data;
    await db.updateTable('sync_jobs').set({ status: 'completed', completed_at: at, stats: JSON.stringify(stats), log_id: logId }).where('job_id', '=', jobId).execute();
    await finishLog(db, logId, 'completed', at, stats);
    await db.updateTable('data_sources').set({ sync_previous: at, updated_at: at, last_stats: JSON.stringify(stats) }).where('source_id', '=', sourceId).execute();
  },
  SyncJobFailed: async (db, event) => {
    const { jobId, sourceId, logId, error, stats, at } = event.data;
    await db
      .updateTable('sync_jobs')
      .set({ status: 'failed', completed_at: at, error, stats: stats === null ? null : JSON.stringify(stats), log_id: logId })
      .where('job_id', '=', jobId)
      .execute();
    // Only a run that started has counters to show; a job refused before it started leaves lastStats alone.
    if (logId) {
      await finishLog(db, logId, 'failed', at, stats);
      if (stats) await db.updateTable('data_sources').set({ last_stats: JSON.stringify(stats) }).where('source_id', '=', sourceId).execute();
    }
  },
  SyncJobCancelled: async (db, event) => {
    const { jobId, error, at } = event.data;
    await db.updateTable('sync_jobs').set({ status: 'failed', completed_at: at, error }).where('job_id', '=', jobId).execute();
  },
  SyncJobExpired: async (db, event) => {
    const { jobId } = event.data;
    await db.deleteFrom('sync_logs').where('job_id', '=', jobId).execute();
    await db.deleteFrom('sync_jobs').where('job_id', '=', jobId).execute();
  },
};

export const dataSources = projector<Handled>({ name: 'data_sources', tables: ['data_sources', 'sync_jobs', 'sync_logs'], handlers });
