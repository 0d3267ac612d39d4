// Events of one data source's stream (`source-<id>`): a Shopify store feeding a dataset, and the
// sync jobs run for it. Jobs live on their source's stream so that "one pending or processing job
// per source" is decided against a single stream revision: two concurrent requests cannot both
// open a job.
import type { Market } from './markets.js';

export type SourceType = 'shopify-api';
export type SourceStatus = 'active' | 'inactive';

export interface SourceSettings {
  /** The feed URL, always ending in `/products.json` (added when missing). */
  endpoint: string;
  /** Minutes between automatic syncs; 0 = never. */
  syncPeriod: number;
  status: SourceStatus;
}

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

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SourceEvent =
  /** Version 2: `markets` and `defaultMarket` arrived after the first sources (version 1 lacks them; domain/event-registry.ts upcasts it). */
  | { type: 'SourceCreated'; data: Ids & { sourceType: SourceType; markets: Market[]; defaultMarket: string | null; at: string } & SourceSettings }
  | { type: 'SourceUpdated'; data: Ids & { changes: Partial<SourceSettings>; at: string } }
  | { type: 'SourceDeleted'; data: Ids & { deletedJobs: number; deletedLogs: number; at: string } }
  | { type: 'SyncJobRequested'; data: Ids & { jobId: string; priority: number; trigger: SyncTrigger; at: string } }
  | { type: 'SyncJobClaimed'; data: Ids & { jobId: string; workerId: string; logId: string; at: string } }
  | { type: 'SyncJobReleased'; data: Ids & { jobId: string; workerId: string; reason: ReleaseReason; at: string } }
  | { type: 'SyncJobCompleted'; data: Ids & { jobId: string; workerId: string; logId: string; stats: SyncStats; at: string } }
  | { type: 'SyncJobFailed'; data: Ids & { jobId: string; workerId: string | null; logId: string | null; error: string; stats: SyncStats | null; at: string } }
  | { type: 'SyncJobCancelled'; data: Ids & { jobId: string; error: string; at: string } };

export const sourceStream = (sourceId: string): string => `source-${sourceId}`;
