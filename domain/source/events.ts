// Events of one data source's stream (`source-<id>`): a Shopify store feeding a dataset, its own
// life only. Sync jobs have streams of their own (domain/sync-job); jobs written before that
// (legacy) stay on their source's stream with the same event types, and are still read from there.
import type { SyncJobEvent } from '../sync-job/events.js';
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
  /** Jobs written on the source's stream before jobs had streams of their own. */
  | SyncJobEvent;

export const sourceStream = (sourceId: string): string => `source-${sourceId}`;
