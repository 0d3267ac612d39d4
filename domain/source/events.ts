// Events of one data source's stream (`source-<id>`): a Shopify store feeding a dataset.
export type SourceType = 'shopify-api';
export type SourceStatus = 'active' | 'inactive';

export interface SourceSettings {
  /** The feed URL, always ending in `/products.json` (added when missing). */
  endpoint: string;
  /** Minutes between automatic syncs; 0 = never. */
  syncPeriod: number;
  status: SourceStatus;
}

export type SourceEvent =
  | { type: 'SourceCreated'; data: { sourceId: string; datasetId: string; organizationId: string; sourceType: SourceType; at: string } & SourceSettings }
  | { type: 'SourceUpdated'; data: { sourceId: string; datasetId: string; organizationId: string; changes: Partial<SourceSettings>; at: string } }
  | { type: 'SourceDeleted'; data: { sourceId: string; datasetId: string; organizationId: string; at: string } };

export const sourceStream = (sourceId: string): string => `source-${sourceId}`;
