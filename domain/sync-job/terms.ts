// The words a sync job and its data source share: a job's counters, trigger and state, its
// retention and the errors its commands raise. Both domain/source (whose stream still holds
// legacy jobs) and domain/sync-job import them from here, so neither imports the other back.
import { DomainError, NotFound } from '../errors.js';

/** Counters of one run (document 1, DataSource `lastStats`). */
export interface SyncStats {
  retrieved: number;
  added: number;
  updated: number;
  archived: number;
  failed: number;
}

export const NO_SYNC_STATS: SyncStats = { retrieved: 0, added: 0, updated: 0, archived: 0, failed: 0 };

/** Who asked: the API or CLI (`manual`), the scheduler, or the source's creation (its first sync). */
export type SyncTrigger = 'manual' | 'schedule' | 'source-created';

/** Why a claimed job went back to pending. */
export type ReleaseReason = 'heartbeat-timeout' | 'retry';

export type SyncJobStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface SyncJobState {
  jobId: string;
  status: SyncJobStatus;
  priority: number;
  trigger: SyncTrigger;
  createdAt: string;
  workerId: string | null;
  logId: string | null;
  completedAt: string | null;
  stats: SyncStats | null;
  /** Runs given back for another try after an error; heartbeat recovery does not count. */
  retries: number;
}

/** Finished jobs are deleted this long after completion (document 1, Limits). */
export const SYNC_JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A finished job past its retention no longer exists, whether or not the sweep has removed its row yet. */
export const jobVisible = (job: SyncJobState, now: string): boolean => job.completedAt === null || Date.parse(job.completedAt) + SYNC_JOB_RETENTION_MS > Date.parse(now);

export class SyncJobNotFound extends NotFound {
  constructor() {
    super('Sync job not found');
  }
}

/**
 * A worker acted on a job it no longer holds: the job went back to pending after its heartbeat
 * stopped (and may be running elsewhere), or was removed with its source. The worker stops.
 */
export class SyncClaimLost extends DomainError {
  readonly jobId: string;
  constructor(jobId: string) {
    super(`Sync job ${jobId} is no longer held by this worker.`);
    this.jobId = jobId;
  }
}

export const CANCELLED_BY_USER = 'Job cancelled by user';

export const cancelRefusal = (status: string): string => `Cannot cancel job with status '${status}'. Only pending jobs can be cancelled.`;
