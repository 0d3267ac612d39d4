// What the dataset, item, styling and history routes share: the read models they wait for,
// document 2's messages, response schemas.
import { z } from 'zod';
import { TARGET_GENDERS } from '../../domain/catalogue/vocabulary.js';
import type { EventStore, Position } from '../../infra/eventstore/port.js';
import type { RouteContext } from './context.js';

export const CATALOGUE_PROJECTIONS = ['datasets', 'catalogue_items'];

export const DATASET_ERRORS = {
  /** Retrieve dataset (document 2). */
  invalidId: 'A valid datasetId must be provided.',
  notFoundForOrganization: 'Dataset not found for this organization.',
  /** Delete and activate (document 2); archive and update follow them. */
  invalidIdNamed: "Invalid 'datasetId': expected a non-empty string.",
  /** Styling (document 2). */
  notFoundPlain: 'Dataset not found.',
};

/** Waits for the catalogue read models when a command appended something. */
export async function settle(context: RouteContext, position: Position | null): Promise<void> {
  if (position) await context.waitFor(position, CATALOGUE_PROJECTIONS);
}

/** Position of a stream's last event: what a retried command (that appended nothing) waits for. */
export async function streamHead(store: EventStore, streamId: string): Promise<Position> {
  const events = await store.readStream(streamId);
  const last = events.at(-1);
  if (!last) throw new Error(`${streamId}: no events`);
  return last.position;
}

const config = z.object({
  storeUrl: z.string().optional(),
  storeId: z.string().optional(),
  storeDomain: z.string().optional(),
  storeName: z.string().optional(),
  currency: z.string().optional(),
  countryName: z.string().optional(),
  targetGender: z.enum(TARGET_GENDERS).nullable(),
});

const status = z.enum(['draft', 'active', 'archived']);
const counts = { active: z.number().int(), archived: z.number().int(), pending: z.number().int(), processing: z.number().int(), failed: z.number().int() };

const record = z.object({
  datasetId: z.uuid(),
  organizationId: z.uuid(),
  status,
  name: z.string(),
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  config,
  autoPublish: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const datasetSchemas = {
  record,
  internalRecord: record.extend({ _id: z.string(), __v: z.number().int() }),
  detail: z.object({
    datasetId: z.uuid(),
    status,
    name: z.string(),
    description: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    config,
    createdAt: z.string(),
    updatedAt: z.string(),
    items: z.object(counts),
  }),
  summary: z.object({
    datasetId: z.uuid(),
    name: z.string(),
    status,
    description: z.string(),
    config: z.object({ storeName: z.string().optional(), storeDomain: z.string().optional() }),
    autoPublish: z.boolean(),
    items: z.object({ ...counts, partial_update: z.number().int() }),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  detected: z.object({ datasetId: z.uuid(), name: z.string(), status, storeDomain: z.string().nullable(), matchedBy: z.enum(['storeDomain', 'storeUrl', 'storeId']) }),
};
