// Every read model the service keeps, in two lanes. The runner, `stylist projections` and tests use these lists.
//
// A lane is one live loop over `$all` with its own batches (see live-loop.ts): the shopper lane's
// work (a flood of widget events, agent turns) never sits in front of a catalogue event, and a
// process can run one lane alone (`stylist serve --role projections-catalogue` or
// `projections-shopper`). Each projector keeps its own checkpoint row, so moving one to another
// lane rebuilds nothing.
import { analytics } from './analytics.js';
import { apiKeys } from './apikeys.js';
import { catalogueItems } from './catalogue-items.js';
import { chats } from './chats.js';
import { dataSources } from './data-sources.js';
import { datasets } from './datasets.js';
import { organizations } from './organizations.js';
import type { Projector } from './projector.js';
import { searchIndex } from './search-index.js';
import { storeAudience } from './store-audience.js';
import { widgetPresets } from './widget-presets.js';

export interface ProjectionLane {
  readonly name: string;
  readonly projectors: readonly Projector[];
  /** Most events per transaction in this lane (default: the runner's). */
  readonly batchSize?: number;
}

export const LANE_NAMES = ['catalogue', 'shopper'] as const;
export type LaneName = (typeof LANE_NAMES)[number];

/**
 * What merchants and operators write, and what the API's writes wait for. store_audience belongs
 * here: it reads `ItemQueued` (a catalogue upload or sync), and the ingest worker reads it before
 * labelling, so it must keep up with the catalogue, not with shoppers.
 */
export const catalogueLane: ProjectionLane = {
  name: 'catalogue',
  projectors: [organizations, apiKeys, widgetPresets, datasets, catalogueItems, dataSources, storeAudience, searchIndex],
};

/**
 * What shoppers cause: widget events (`ShopperEventsRecorded`), agent turns and searches shown
 * (analytics), and chats. A shopper lane behind only delays analytics and chat history.
 *
 * Batches of 100 events (2,000 shopper events at 20 a request) rather than 500: while one of its
 * transactions is open, PGlite's one connection serves nothing else, and on a Postgres server no
 * subscriber sees an event appended after it began (the event store's visibility cut), so the
 * length of a shopper transaction is what a catalogue write can still wait for.
 */
export const shopperLane: ProjectionLane = {
  name: 'shopper',
  projectors: [analytics, chats],
  batchSize: 100,
};

export const projectionLanes: readonly ProjectionLane[] = [catalogueLane, shopperLane];

export const allProjectors: Projector[] = projectionLanes.flatMap((lane) => lane.projectors);
