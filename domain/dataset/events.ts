// Events of one dataset's stream (`dataset-<id>`): its life (created, changed, activated, archived,
// deleted) and its styling and sizing settings. Activation and archiving cascade to the dataset's
// items and sources in the read models, so replaying these events alone reproduces the cascade.
import type { TargetGender } from '../catalogue/vocabulary.js';
import type { SizingSettings, StylingSettings } from '../styling/settings.js';

/** Document 1's DatasetConfig as stored: only the fields that were set, plus `targetGender`. */
export interface DatasetConfig {
  storeUrl?: string;
  storeId?: string;
  storeDomain?: string;
  storeName?: string;
  currency?: string;
  /** Set by other integrations only, never through the API. */
  countryName?: string;
  targetGender: TargetGender | null;
}

export interface DatasetContent {
  name: string;
  description: string;
  /** Absent when never set; replaced wholesale by an update. */
  metadata?: Record<string, unknown>;
  config: DatasetConfig;
  autoPublish: boolean;
}

export type DatasetEvent =
  | { type: 'DatasetCreated'; data: { datasetId: string; organizationId: string; at: string } & DatasetContent }
  | { type: 'DatasetUpdated'; data: { datasetId: string; organizationId: string; changes: Partial<DatasetContent>; at: string } }
  | { type: 'DatasetActivated'; data: { datasetId: string; organizationId: string; at: string } }
  | { type: 'DatasetArchived'; data: { datasetId: string; organizationId: string; at: string } }
  | { type: 'DatasetDeleted'; data: { datasetId: string; organizationId: string; at: string } }
  | { type: 'DatasetStylingReplaced'; data: { datasetId: string; organizationId: string; styling?: StylingSettings; sizing?: SizingSettings; at: string } };

export const datasetStream = (datasetId: string): string => `dataset-${datasetId}`;
