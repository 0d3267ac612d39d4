import type { SyncJobState } from '../sync-job/terms.js';
import type { Market } from './markets.js';
import type { SourceEvent, SourceSettings, SourceType } from './events.js';

export { jobVisible, SYNC_JOB_RETENTION_MS, type SyncJobState, type SyncJobStatus } from '../sync-job/terms.js';

export interface Source extends SourceSettings {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  sourceType: SourceType;
  markets: Market[];
  defaultMarket: string | null;
  createdAt: string;
  updatedAt: string;
  /** Finish time of the last successful sync. */
  syncPrevious: string | null;
  /** The pending or processing legacy job (one on this stream), if any: there is never more than one. */
  openJobId: string | null;
  jobs: Record<string, SyncJobState>;
}

/** null: never created; `deleted`: gone for good. */
export type SourceState = Source | { deleted: true; sourceId: string } | null;

export const initialState: SourceState = null;

export const liveSource = (state: SourceState): Source | null => (state && !('deleted' in state) ? state : null);

const withJob = (source: Source, jobId: string, change: Partial<SyncJobState>, updatedAt = source.updatedAt): Source => {
  const job = source.jobs[jobId];
  if (!job) return source;
  const next = { ...job, ...change };
  const open = next.status === 'pending' || next.status === 'processing';
  return { ...source, updatedAt, jobs: { ...source.jobs, [jobId]: next }, openJobId: open ? jobId : source.openJobId === jobId ? null : source.openJobId };
};

export const evolve = (state: SourceState, event: SourceEvent): SourceState => {
  const source = liveSource(state);
  switch (event.type) {
    case 'SourceCreated': {
      const { at, markets = [], defaultMarket = null, ...rest } = event.data;
      return { ...rest, markets, defaultMarket, createdAt: at, updatedAt: at, syncPrevious: null, openJobId: null, jobs: {} };
    }
    case 'SourceUpdated':
      return source && { ...source, ...event.data.changes, updatedAt: event.data.at };
    case 'SourceDeleted':
      return { deleted: true, sourceId: event.data.sourceId };
    case 'SyncJobRequested': {
      if (!source) return state;
      const { jobId, priority, trigger, at } = event.data;
      const job: SyncJobState = { jobId, status: 'pending', priority, trigger, createdAt: at, workerId: null, logId: null, completedAt: null, stats: null, retries: 0 };
      return { ...source, jobs: { ...source.jobs, [jobId]: job }, openJobId: jobId };
    }
    case 'SyncJobClaimed':
      return source && withJob(source, event.data.jobId, { status: 'processing', workerId: event.data.workerId, logId: event.data.logId });
    case 'SyncJobReleased': {
      if (!source) return state;
      const retries = (source.jobs[event.data.jobId]?.retries ?? 0) + (event.data.reason === 'retry' ? 1 : 0);
      return withJob(source, event.data.jobId, { status: 'pending', workerId: null, retries });
    }
    case 'SyncJobCompleted': {
      if (!source) return state;
      const { jobId, logId, stats, at } = event.data;
      // A successful run moves the schedule on; document 1 counts that as an update of the source.
      return { ...withJob(source, jobId, { status: 'completed', logId, stats, completedAt: at }, at), syncPrevious: at };
    }
    case 'SyncJobFailed': {
      const { jobId, logId, stats, at } = event.data;
      return source && withJob(source, jobId, { status: 'failed', logId, stats, completedAt: at });
    }
    case 'SyncJobCancelled':
      return source && withJob(source, event.data.jobId, { status: 'failed', completedAt: event.data.at });
    case 'SyncJobExpired': {
      if (!source) return state;
      const { [event.data.jobId]: _expired, ...jobs } = source.jobs;
      return { ...source, jobs };
    }
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
