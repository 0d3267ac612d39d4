import { Conflict } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import { CANCELLED_BY_USER, cancelRefusal, jobVisible, SyncClaimLost, SyncJobNotFound, type ReleaseReason, type SyncJobState, type SyncStats, type SyncTrigger } from './terms.js';
import type { SyncJobEvent } from './events.js';
import type { SyncJobStreamState } from './state.js';

type Ids = { sourceId: string; datasetId: string; organizationId: string; jobId: string };

/** The commands a job takes wherever it lives (its own stream, or a legacy source stream). */
export type JobCommand =
  | { type: 'CancelSyncJob'; data: Ids }
  | { type: 'ClaimSyncJob'; data: Ids & { workerId: string; logId: string } }
  | { type: 'ReleaseSyncJob'; data: Ids & { workerId: string; reason: ReleaseReason } }
  | { type: 'CompleteSyncJob'; data: Ids & { workerId: string; stats: SyncStats } }
  /** `workerId` null: the job failed before any worker took it (its source or dataset is gone or archived). */
  | { type: 'FailSyncJob'; data: Ids & { workerId: string | null; error: string; stats: SyncStats | null } }
  /** The sweep: a finished job past its retention leaves the read models. */
  | { type: 'ExpireSyncJob'; data: Ids };

export type SyncJobCommand =
  /** Whether the source may open job `number` (active, job n-1 closed) is checked against the source's and job n-1's streams before. */
  | { type: 'RequestSyncJob'; data: Ids & { number: number; priority: number; trigger: SyncTrigger } }
  | JobCommand;

const heldJob = (job: SyncJobState | null | undefined, jobId: string, workerId: string): SyncJobState => {
  if (!job || job.status !== 'processing' || job.workerId !== workerId) throw new SyncClaimLost(jobId);
  return job;
};

/** A job's rules, on the job as folded from whichever stream holds it (undefined/null: no such job). */
export function decideJob(command: JobCommand, job: SyncJobState | null | undefined, meta: CommandMeta): SyncJobEvent[] {
  const { sourceId, datasetId, organizationId, jobId } = command.data;
  const ids = { sourceId, datasetId, organizationId, jobId };
  const at = meta.now;
  switch (command.type) {
    case 'CancelSyncJob': {
      if (!job || !jobVisible(job, at)) throw new SyncJobNotFound();
      if (job.status !== 'pending') throw new Conflict(cancelRefusal(job.status));
      return [{ type: 'SyncJobCancelled', data: { ...ids, error: CANCELLED_BY_USER, at } }];
    }
    case 'ClaimSyncJob':
      // Taken by another worker, cancelled or finished meanwhile: nothing for this worker to do.
      if (!job || job.status !== 'pending') return [];
      return [{ type: 'SyncJobClaimed', data: { ...ids, workerId: command.data.workerId, logId: command.data.logId, at } }];
    case 'ReleaseSyncJob':
      if (!job || job.status !== 'processing' || job.workerId !== command.data.workerId) return [];
      return [{ type: 'SyncJobReleased', data: { ...ids, workerId: command.data.workerId, reason: command.data.reason, at } }];
    case 'CompleteSyncJob': {
      const held = heldJob(job, jobId, command.data.workerId);
      return [{ type: 'SyncJobCompleted', data: { ...ids, workerId: command.data.workerId, logId: held.logId!, stats: command.data.stats, at } }];
    }
    case 'FailSyncJob': {
      const { workerId, error, stats } = command.data;
      if (workerId === null) {
        if (!job || job.status !== 'pending') return [];
        return [{ type: 'SyncJobFailed', data: { ...ids, workerId: null, logId: null, error, stats: null, at } }];
      }
      const held = heldJob(job, jobId, workerId);
      return [{ type: 'SyncJobFailed', data: { ...ids, workerId, logId: held.logId, error, stats, at } }];
    }
    case 'ExpireSyncJob':
      // Only once, and only what its retention let go: an open or recent job stays.
      if (!job || job.completedAt === null || jobVisible(job, at) || ('expired' in job && job.expired)) return [];
      return [{ type: 'SyncJobExpired', data: { ...ids, at } }];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

/** A job of another source, dataset or organization is no job of the caller's. */
const ownJob = (state: SyncJobStreamState, ids: Ids): SyncJobStreamState =>
  state && state.sourceId === ids.sourceId && state.datasetId === ids.datasetId && state.organizationId === ids.organizationId ? state : null;

export const decide = (command: SyncJobCommand, state: SyncJobStreamState, meta: CommandMeta): SyncJobEvent[] => {
  if (command.type !== 'RequestSyncJob') return decideJob(command, ownJob(state, command.data), meta);
  // Opened already: by this request before (a retry) or by a concurrent one. The caller reads which.
  if (state) return [];
  const { number, priority, trigger } = command.data;
  const { sourceId, datasetId, organizationId, jobId } = command.data;
  return [{ type: 'SyncJobRequested', data: { sourceId, datasetId, organizationId, jobId, number, priority, trigger, at: meta.now } }];
};
