// What widget preflight reads per organization: its latest preset, a preset by id, its stores.
// One interface, read straight from the read models here or through the cache of
// api/preflight-cache.ts, so the route asks the same way whichever it is given.
import type { Kysely } from 'kysely';
import type { WidgetPreset } from '../domain/widget-preset/state.js';
import { organizationStores, type StoreSummary } from '../projections/queries/datasets.js';
import { getWidgetPreset, latestWidgetPreset } from '../projections/queries/widget-presets.js';

export interface PreflightReads {
  /** The preset created or changed most recently; null when there is none. */
  latestPreset(organizationId: string): Promise<WidgetPreset | null>;
  /** null for a preset that is not this organization's. */
  preset(organizationId: string, presetId: string): Promise<WidgetPreset | null>;
  stores(organizationId: string): Promise<StoreSummary[]>;
}

export const directPreflightReads = (db: Kysely<any>): PreflightReads => ({
  latestPreset: (organizationId) => latestWidgetPreset(db, organizationId),
  preset: (organizationId, presetId) => getWidgetPreset(db, organizationId, presetId),
  stores: (organizationId) => organizationStores(db, organizationId),
});
