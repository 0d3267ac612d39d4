// Events of one sync job's stream (`syncjob-<id>`). Job n of a source has a deterministic id
// (uuid v5 of `<sourceId>/<n>`) and its stream is opened (expected revision: no stream) only once
// job n-1 is closed: "one pending or processing job per source" holds without the source's stream
// growing with every sync. Jobs written before this layout live on their source's stream with the
// same event types (see domain/source/events.ts).
import { v5 as uuidv5 } from 'uuid';
import type { ReleaseReason, SyncStats, SyncTrigger } from './terms.js';

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SyncJobEvent =
  /** `number` is absent on jobs written on their source's stream. */
  | { type: 'SyncJobRequested'; data: Ids & { jobId: string; number?: number; priority: number; trigger: SyncTrigger; at: string } }
  | { type: 'SyncJobClaimed'; data: Ids & { jobId: string; workerId: string; logId: string; at: string } }
  | { type: 'SyncJobReleased'; data: Ids & { jobId: string; workerId: string; reason: ReleaseReason; at: string } }
  | { type: 'SyncJobCompleted'; data: Ids & { jobId: string; workerId: string; logId: string; stats: SyncStats; at: string } }
  | { type: 'SyncJobFailed'; data: Ids & { jobId: string; workerId: string | null; logId: string | null; error: string; stats: SyncStats | null; at: string } }
  | { type: 'SyncJobCancelled'; data: Ids & { jobId: string; error: string; at: string } }
  /** A finished job past its retention: its rows leave the read models. */
  | { type: 'SyncJobExpired'; data: Ids & { jobId: string; at: string } };

const JOB_NAMESPACE = '8e1d4c27-3a5b-4f6e-9d8c-7b2a1e0f3c59';

export const syncJobId = (sourceId: string, number: number): string => uuidv5(`${sourceId}/${number}`, JOB_NAMESPACE);

export const syncJobStream = (jobId: string): string => `syncjob-${jobId}`;
