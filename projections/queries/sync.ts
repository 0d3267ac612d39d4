// Reads of sync jobs and run logs, scoped by organization, dataset and source; and the queries the
// sync worker and scheduler run across organizations (claiming, stale heartbeats, due sources).
// A finished job past its retention reads as gone even before the sweep removes its row.
import type { Kysely } from 'kysely';
import { NO_SYNC_STATS, type SyncStats, type SyncTrigger } from '../../domain/source/events.js';
import { SYNC_JOB_RETENTION_MS, type SyncJobStatus } from '../../domain/source/state.js';
import { isUuid, iso, json } from './rows.js';

/** Document 1's sync job. */
export interface SyncJob {
  jobId: string;
  sourceId: string;
  datasetId: string;
  status: SyncJobStatus;
  priority: number;
  trigger: SyncTrigger;
  createdAt: string;
  worker: { workerId: string | null; lockedAt: string | null; startedAt: string | null };
  result: { stats: SyncStats | null; completedAt: string | null; error: string | null };
  logId: string | null;
  retries: { count: number };
}

export interface SyncLogEntry {
  at: string;
  level: 'info' | 'warn' | 'error';
  message: string;
  sku: string | null;
}

/** Document 3's sync log. */
export interface SyncLog {
  logId: string;
  jobId: string;
  status: 'running' | 'completed' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  stats: SyncStats;
  entries: SyncLogEntry[];
}

const optionalIso = (value: Date | string | null): string | null => (value === null ? null : iso(value));

const jobOf = (row: Record<string, any>): SyncJob => ({
  jobId: row.job_id,
  sourceId: row.source_id,
  datasetId: row.dataset_id,
  status: row.status,
  priority: row.priority,
  trigger: row.trigger,
  createdAt: iso(row.created_at),
  worker: { workerId: row.worker_id, lockedAt: optionalIso(row.locked_at), startedAt: optionalIso(row.started_at) },
  result: { stats: row.stats === null ? null : json<SyncStats>(row.stats), completedAt: optionalIso(row.completed_at), error: row.error },
  logId: row.log_id,
  retries: { count: row.retries },
});

const retentionStart = () => new Date(Date.now() - SYNC_JOB_RETENTION_MS);

const jobsOf = (db: Kysely<any>, organizationId: string, datasetId: string, sourceId: string) =>
  db
    .selectFrom('sync_jobs')
    .where('organization_id', '=', organizationId)
    .where('dataset_id', '=', datasetId)
    .where('source_id', '=', sourceId)
    .where((eb) => eb.or([eb('completed_at', 'is', null), eb('completed_at', '>', retentionStart())]));

export async function getSyncJob(db: Kysely<any>, ids: { organizationId: string; datasetId: string; sourceId: string }, jobId: string): Promise<SyncJob | null> {
  if (![ids.organizationId, ids.datasetId, ids.sourceId, jobId].every(isUuid)) return null;
  const row = await jobsOf(db, ids.organizationId, ids.datasetId, ids.sourceId).selectAll().where('job_id', '=', jobId).executeTakeFirst();
  return row ? jobOf(row) : null;
}

/** Visible jobs of a source and the run logs among them (what deleting the source takes with it). */
export async function countSyncJobs(db: Kysely<any>, ids: { organizationId: string; datasetId: string; sourceId: string }): Promise<{ jobs: number; logs: number }> {
  const row = await jobsOf(db, ids.organizationId, ids.datasetId, ids.sourceId)
    .select((eb) => [eb.fn.countAll().as('jobs'), eb.fn.count('log_id').as('logs')])
    .executeTakeFirstOrThrow();
  return { jobs: Number(row.jobs), logs: Number(row.logs) };
}

/** Newest first, first page only (document 1 §Pagination). */
export async function listSyncJobs(db: Kysely<any>, ids: { organizationId: string; datasetId: string; sourceId: string }, limit: number): Promise<{ jobs: SyncJob[]; total: number }> {
  if (![ids.organizationId, ids.datasetId, ids.sourceId].every(isUuid)) return { jobs: [], total: 0 };
  const [rows, total] = await Promise.all([
    jobsOf(db, ids.organizationId, ids.datasetId, ids.sourceId).selectAll().orderBy('created_at', 'desc').orderBy('sequence', 'desc').limit(limit).execute(),
    jobsOf(db, ids.organizationId, ids.datasetId, ids.sourceId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { jobs: rows.map(jobOf), total: Number(total.n) };
}

/** Newest first with their entries in order. */
export async function listSyncLogs(db: Kysely<any>, ids: { organizationId: string; datasetId: string; sourceId: string }, page: number, limit: number): Promise<{ logs: SyncLog[]; total: number }> {
  if (![ids.organizationId, ids.datasetId, ids.sourceId].every(isUuid)) return { logs: [], total: 0 };
  const logsOf = () => db.selectFrom('sync_logs').where('organization_id', '=', ids.organizationId).where('dataset_id', '=', ids.datasetId).where('source_id', '=', ids.sourceId);
  const [rows, total] = await Promise.all([
    logsOf().selectAll().orderBy('started_at', 'desc').orderBy('sequence', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    logsOf().select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  const entries = rows.length
    ? await db.selectFrom('sync_log_entries').selectAll().where('log_id', 'in', rows.map((row) => row.log_id)).orderBy('log_id').orderBy('position').execute()
    : [];
  const byLog = new Map<string, SyncLogEntry[]>();
  for (const entry of entries) {
    const list = byLog.get(entry.log_id) ?? [];
    list.push({ at: iso(entry.at), level: entry.level, message: entry.message, sku: entry.sku });
    byLog.set(entry.log_id, list);
  }
  return {
    total: Number(total.n),
    logs: rows.map((row) => ({
      logId: row.log_id,
      jobId: row.job_id,
      status: row.status,
      startedAt: iso(row.started_at),
      finishedAt: optionalIso(row.finished_at),
      stats: row.stats === null ? { ...NO_SYNC_STATS } : json<SyncStats>(row.stats),
      entries: byLog.get(row.log_id) ?? [],
    })),
  };
}

export interface JobRef {
  jobId: string;
  sourceId: string;
  datasetId: string;
  organizationId: string;
}

const refOf = (row: Record<string, any>): JobRef => ({ jobId: row.job_id, sourceId: row.source_id, datasetId: row.dataset_id, organizationId: row.organization_id });

/**
 * Claim order (document 1): highest priority, then oldest. With `maxPerOrganization`, jobs of
 * organizations whose sync slots are all held (the sync worker's heartbeat rows) are left out: a
 * hint for which job to try, not the limit itself (workers/sync/slots.ts takes the slot).
 */
export async function pendingJobs(db: Kysely<any>, limit: number, options: { maxPerOrganization?: number } = {}): Promise<JobRef[]> {
  let query = db.selectFrom('sync_jobs').select(['job_id', 'source_id', 'dataset_id', 'organization_id']).where('status', '=', 'pending');
  if (options.maxPerOrganization !== undefined) {
    const full = db.selectFrom('sync_heartbeats').select('organization_id').where('organization_id', 'is not', null).groupBy('organization_id').having((eb) => eb.fn.countAll(), '>=', options.maxPerOrganization);
    query = query.where('organization_id', 'not in', full);
  }
  const rows = await query.orderBy('priority', 'desc').orderBy('created_at').orderBy('sequence').limit(limit).execute();
  return rows.map(refOf);
}

/** Processing jobs whose worker has not beaten since `silentSince` (or never did, if locked before then). */
export async function silentJobs(db: Kysely<any>, silentSince: Date): Promise<Array<JobRef & { workerId: string }>> {
  const rows = await db
    .selectFrom('sync_jobs as j')
    .leftJoin('sync_heartbeats as h', 'h.job_id', 'j.job_id')
    .select(['j.job_id', 'j.source_id', 'j.dataset_id', 'j.organization_id', 'j.worker_id'])
    .where('j.status', '=', 'processing')
    .where((eb) => eb.or([eb.and([eb('h.beat_at', 'is', null), eb('j.locked_at', '<', silentSince)]), eb('h.beat_at', '<', silentSince)]))
    .execute();
  return rows.map((row) => ({ ...refOf(row), workerId: row.worker_id }));
}

export interface DueCandidate {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  syncPeriod: number;
  syncPrevious: string | null;
  createdAt: string;
  lastFailedAt: string | null;
}

/**
 * Sources that may be due: on a schedule, active, in a live dataset, with no open job. Whether
 * their time has come is the scheduler's pure rule (`isDue`).
 */
export async function scheduleCandidates(db: Kysely<any>): Promise<DueCandidate[]> {
  const rows = await db
    .selectFrom('data_sources as s')
    .innerJoin('datasets as d', 'd.dataset_id', 's.dataset_id')
    .select(['s.source_id', 's.dataset_id', 's.organization_id', 's.sync_period', 's.sync_previous', 's.created_at'])
    .select((eb) =>
      eb
        .selectFrom('sync_jobs as f')
        .select((f) => f.fn.max('f.completed_at').as('at'))
        .whereRef('f.source_id', '=', 's.source_id')
        .where('f.status', '=', 'failed')
        .as('last_failed_at'),
    )
    .where('s.status', '=', 'active')
    .where('s.sync_period', '>', 0)
    .where('d.status', '!=', 'archived')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('sync_jobs as o').select('o.job_id').whereRef('o.source_id', '=', 's.source_id').where('o.status', 'in', ['pending', 'processing']))))
    .execute();
  return rows.map((row) => ({
    sourceId: row.source_id,
    datasetId: row.dataset_id,
    organizationId: row.organization_id,
    syncPeriod: row.sync_period,
    syncPrevious: optionalIso(row.sync_previous),
    createdAt: iso(row.created_at),
    lastFailedAt: optionalIso(row.last_failed_at),
  }));
}

/** What a running job's worker last reported (phase, pages, products) and when. */
export async function jobProgress(db: Kysely<any>, jobId: string): Promise<(Record<string, unknown> & { beatAt: string }) | null> {
  if (!isUuid(jobId)) return null;
  const row = await db.selectFrom('sync_heartbeats').select(['progress', 'beat_at']).where('job_id', '=', jobId).executeTakeFirst();
  return row ? { ...(row.progress === null ? {} : json<Record<string, unknown>>(row.progress)), beatAt: iso(row.beat_at) } : null;
}
