import type { SyncJobState } from './terms.js';
import type { SyncJobEvent } from './events.js';

export interface SyncJob extends SyncJobState {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  /** 0 for a job written on its source's stream. */
  number: number;
  expired: boolean;
}

export type SyncJobStreamState = SyncJob | null;

export const initialState: SyncJobStreamState = null;

export const isOpen = (job: Pick<SyncJobState, 'status'>): boolean => job.status === 'pending' || job.status === 'processing';

/** One job's life, shared by job streams and the jobs folded from a legacy source stream. */
export function evolveJob<J extends SyncJobState>(job: J, event: Exclude<SyncJobEvent, { type: 'SyncJobRequested' }>): J {
  switch (event.type) {
    case 'SyncJobClaimed':
      return { ...job, status: 'processing', workerId: event.data.workerId, logId: event.data.logId };
    case 'SyncJobReleased':
      return { ...job, status: 'pending', workerId: null, retries: job.retries + (event.data.reason === 'retry' ? 1 : 0) };
    case 'SyncJobCompleted':
      return { ...job, status: 'completed', logId: event.data.logId, stats: event.data.stats, completedAt: event.data.at };
    case 'SyncJobFailed':
      return { ...job, status: 'failed', logId: event.data.logId, stats: event.data.stats, completedAt: event.data.at };
    case 'SyncJobCancelled':
      return { ...job, status: 'failed', completedAt: event.data.at };
    case 'SyncJobExpired':
      return job;
    default: {
      const unknown: never = event;
      void unknown;
      return job;
    }
  }
}

export const evolve = (state: SyncJobStreamState, event: SyncJobEvent): SyncJobStreamState => {
  if (event.type === 'SyncJobRequested') {
    const { jobId, number = 0, priority, trigger, sourceId, datasetId, organizationId, at } = event.data;
    return { jobId, number, sourceId, datasetId, organizationId, status: 'pending', priority, trigger, createdAt: at, workerId: null, logId: null, completedAt: null, stats: null, retries: 0, expired: false };
  }
  if (!state) return state;
  if (event.type === 'SyncJobExpired') return { ...state, expired: true };
  return evolveJob(state, event);
};
