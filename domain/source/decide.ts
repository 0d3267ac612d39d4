import { Conflict, DomainError, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { Market } from './markets.js';
import type { ReleaseReason, SourceEvent, SourceSettings, SourceType, SyncStats, SyncTrigger } from './events.js';
import { jobVisible, liveSource, type Source, type SourceState, type SyncJobState } from './state.js';

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SourceCommand =
  /** An active source's first sync is requested in the same decision, as `firstJobId`. */
  | { type: 'CreateSource'; data: Ids & { sourceType: SourceType; firstJobId: string; markets?: Market[]; defaultMarket?: string | null } & SourceSettings }
  | { type: 'UpdateSource'; data: Ids & { changes: Partial<SourceSettings> } }
  | { type: 'DeleteSource'; data: Ids }
  | { type: 'RequestSyncJob'; data: Ids & { jobId: string; priority: number; trigger: SyncTrigger } }
  | { type: 'CancelSyncJob'; data: Ids & { jobId: string } }
  | { type: 'ClaimSyncJob'; data: Ids & { jobId: string; workerId: string; logId: string } }
  | { type: 'ReleaseSyncJob'; data: Ids & { jobId: string; workerId: string; reason: ReleaseReason } }
  | { type: 'CompleteSyncJob'; data: Ids & { jobId: string; workerId: string; stats: SyncStats } }
  /** `workerId` null: the job failed before any worker took it (its source or dataset is gone or archived). */
  | { type: 'FailSyncJob'; data: Ids & { jobId: string; workerId: string | null; error: string; stats: SyncStats | null } };

/** Document 2: no such source in the organization, or it feeds another dataset. */
export class SourceNotFound extends NotFound {
  constructor() {
    super('Data source not found or access denied');
  }
}

export class SyncJobNotFound extends NotFound {
  constructor() {
    super('Sync job not found');
  }
}

export class SourceNotActive extends Conflict {
  constructor() {
    super('Data source is not active');
  }
}

/**
 * A worker acted on a job it no longer holds: the job went back to pending after its heartbeat
 * stopped (and may be running elsewhere), or was removed with its source. The worker stops.
 */
export class SyncClaimLost extends DomainError {
  constructor(readonly jobId: string) {
    super(`Sync job ${jobId} is no longer held by this worker.`);
  }
}

/** Claim order is priority, then age: syncs someone asked for go before scheduled ones. */
export const SYNC_PRIORITY: Record<SyncTrigger, number> = { manual: 10, 'source-created': 10, schedule: 0 };
const FIRST_SYNC_PRIORITY = SYNC_PRIORITY['source-created'];

export const CANCELLED_BY_USER = 'Job cancelled by user';

export const cancelRefusal = (status: string): string => `Cannot cancel job with status '${status}'. Only pending jobs can be cancelled.`;

const ownSource = (state: SourceState, { organizationId, datasetId }: Ids): Source => {
  const source = liveSource(state);
  if (!source || source.organizationId !== organizationId || source.datasetId !== datasetId) throw new SourceNotFound();
  return source;
};

const heldJob = (source: Source, jobId: string, workerId: string): SyncJobState => {
  const job = source.jobs[jobId];
  if (!job || job.status !== 'processing' || job.workerId !== workerId) throw new SyncClaimLost(jobId);
  return job;
};

export const decide = (command: SourceCommand, state: SourceState, meta: CommandMeta): SourceEvent[] => {
  const { sourceId, datasetId, organizationId } = command.data;
  const ids = { sourceId, datasetId, organizationId };
  const at = meta.now;
  if (command.type === 'CreateSource') {
    // The id derives from the request's correlation id: finding it means a retried request.
    if (state) {
      if (!('deleted' in state) && state.organizationId === organizationId) return [];
      throw new SourceNotFound();
    }
    const { firstJobId, ...source } = command.data;
    const created: SourceEvent = { type: 'SourceCreated', data: { ...source, markets: source.markets ?? [], defaultMarket: source.defaultMarket ?? null, at } };
    if (source.status !== 'active') return [created];
    return [created, { type: 'SyncJobRequested', data: { ...ids, jobId: firstJobId, priority: FIRST_SYNC_PRIORITY, trigger: 'source-created', at } }];
  }
  const source = ownSource(state, command.data);
  switch (command.type) {
    case 'UpdateSource': {
      const changes = Object.fromEntries(Object.entries(command.data.changes).filter(([field, value]) => value !== undefined && value !== source[field as keyof SourceSettings]));
      return Object.keys(changes).length ? [{ type: 'SourceUpdated', data: { ...ids, changes, at } }] : [];
    }
    case 'DeleteSource': {
      const jobs = Object.values(source.jobs).filter((job) => jobVisible(job, at));
      return [{ type: 'SourceDeleted', data: { ...ids, deletedJobs: jobs.length, deletedLogs: jobs.filter((job) => job.logId !== null).length, at } }];
    }
    case 'RequestSyncJob': {
      if (source.status !== 'active') throw new SourceNotActive();
      // One pending or processing job per source: the caller is given that one instead.
      if (source.openJobId !== null || source.jobs[command.data.jobId]) return [];
      const { jobId, priority, trigger } = command.data;
      return [{ type: 'SyncJobRequested', data: { ...ids, jobId, priority, trigger, at } }];
    }
    case 'CancelSyncJob': {
      const job = source.jobs[command.data.jobId];
      if (!job || !jobVisible(job, at)) throw new SyncJobNotFound();
      if (job.status !== 'pending') throw new Conflict(cancelRefusal(job.status));
      return [{ type: 'SyncJobCancelled', data: { ...ids, jobId: job.jobId, error: CANCELLED_BY_USER, at } }];
    }
    case 'ClaimSyncJob': {
      const job = source.jobs[command.data.jobId];
      // Taken by another worker, cancelled or finished meanwhile: nothing for this worker to do.
      if (!job || job.status !== 'pending') return [];
      const { workerId, logId } = command.data;
      return [{ type: 'SyncJobClaimed', data: { ...ids, jobId: job.jobId, workerId, logId, at } }];
    }
    case 'ReleaseSyncJob': {
      const job = source.jobs[command.data.jobId];
      if (!job || job.status !== 'processing' || job.workerId !== command.data.workerId) return [];
      return [{ type: 'SyncJobReleased', data: { ...ids, jobId: job.jobId, workerId: command.data.workerId, reason: command.data.reason, at } }];
    }
    case 'CompleteSyncJob': {
      const job = heldJob(source, command.data.jobId, command.data.workerId);
      return [{ type: 'SyncJobCompleted', data: { ...ids, jobId: job.jobId, workerId: command.data.workerId, logId: job.logId!, stats: command.data.stats, at } }];
    }
    case 'FailSyncJob': {
      const { jobId, workerId, error, stats } = command.data;
      if (workerId === null) {
        const job = source.jobs[jobId];
        if (!job || job.status !== 'pending') return [];
        return [{ type: 'SyncJobFailed', data: { ...ids, jobId, workerId: null, logId: null, error, stats: null, at } }];
      }
      const job = heldJob(source, jobId, workerId);
      return [{ type: 'SyncJobFailed', data: { ...ids, jobId, workerId, logId: job.logId, error, stats, at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
