// Events of one data source's stream (`source-<id>`): a Shopify store feeding a dataset, its own
// life only. Sync jobs have streams of their own (domain/sync-job); jobs written before that
// (legacy) stay on their source's stream with the same event types, and are still read from there.
import type { SyncJobEvent } from '../sync-job/events.js';
import type { Market } from './markets.js';

export { NO_SYNC_STATS, type ReleaseReason, type SyncStats, type SyncTrigger } from '../sync-job/terms.js';

export type SourceType = 'shopify-api';
export type SourceStatus = 'active' | 'inactive';

export interface SourceSettings {
  /** The feed URL, always ending in `/products.json` (added when missing). */
  endpoint: string;
  /** Minutes between automatic syncs; 0 = never. */
  syncPeriod: number;
  status: SourceStatus;
}

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SourceEvent =
  /** Version 2: `markets` and `defaultMarket` arrived after the first sources (version 1 lacks them; domain/event-registry.ts upcasts it). */
  | { type: 'SourceCreated'; data: Ids & { sourceType: SourceType; markets: Market[]; defaultMarket: string | null; at: string } & SourceSettings }
  | { type: 'SourceUpdated'; data: Ids & { changes: Partial<SourceSettings>; at: string } }
  | { type: 'SourceDeleted'; data: Ids & { deletedJobs: number; deletedLogs: number; at: string } }
  /** Jobs written on the source's stream before jobs had streams of their own. */
  | SyncJobEvent;

export const sourceStream = (sourceId: string): string => `source-${sourceId}`;
