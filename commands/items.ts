// Item upload (document 3 §3 Items): each entry validated on its own, mapped to one Listing,
// classified against what the dataset holds (new, partial update, unchanged) and queued as an
// ItemQueued event on its own stream; then the ingest worker is told. One bad entry never sinks
// the rest. Appends skip reading the streams (an ItemQueued is always allowed) and go together, so
// a thousand products cost one round of group-committed appends, not a thousand read-decide loops.
import type { Kysely } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { itemInputSchema, listingFromItemInput, listingFromShopifyProduct, shopifyProductSchema, type Listing } from '../domain/catalogue/product-input.js';
import { classifyUpload, itemDecider, itemIdFor, itemStream, listingHashes, type ItemStatus, type QueueKind } from '../domain/item/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { comparePositions } from '../infra/eventstore/position.js';
import { INGEST_SUBJECT, type IngestMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { fingerprintsBySku } from '../projections/queries/items.js';
import { handleCommand } from './handle.js';


const EVENT_ID_NAMESPACE = '5f0c2b7e-9d4a-4c1e-8b3f-2a6d7e9c0b14';

export interface UploadOutcome {
  queued: Array<{ itemId: string; sku: string; status: QueueKind | 'unchanged' }>;
  failures: Array<{ index: number; sku: string | null; error: string }>;
  summary: { total: number; queued: number; failed: number; unchanged: number };
  /** Where the last ItemQueued landed; null when nothing was queued. */
  position: Position | null;
}

const describeIssue = (issue: z.core.$ZodIssue): string => {
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '');
  return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
};

const skuOf = (entry: unknown, shape: 'items' | 'products'): string | null => {
  const raw = entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[shape === 'items' ? 'sku' : 'id'] : undefined;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
};

/**
 * Each entry on its own: a listing, or why not. A sku seen earlier in the same batch is refused,
 * so a batch never queues one item twice.
 */
export function parseEntries(shape: 'items' | 'products', entries: readonly unknown[], storeUrl: string): { listings: Array<{ index: number; listing: Listing }>; failures: UploadOutcome['failures'] } {
  const failures: UploadOutcome['failures'] = [];
  const listings: Array<{ index: number; listing: Listing }> = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const parsed = shape === 'items' ? itemInputSchema.safeParse(entry) : shopifyProductSchema.safeParse(entry);
    if (!parsed.success) {
      failures.push({ index, sku: skuOf(entry, shape), error: describeIssue(parsed.error.issues[0]!) });
      return;
    }
    const listing = shape === 'items' ? listingFromItemInput(parsed.data as z.output<typeof itemInputSchema>) : listingFromShopifyProduct(parsed.data as z.output<typeof shopifyProductSchema>, storeUrl);
    if (seen.has(listing.sku)) {
      failures.push({ index, sku: listing.sku, error: `sku '${listing.sku}' appears more than once in this upload.` });
      return;
    }
    seen.add(listing.sku);
    listings.push({ index, listing });
  });
  return { listings, failures };
}

export async function uploadItems(
  deps: { store: EventStore; db: Kysely<any>; queue: WorkQueue },
  input: { organizationId: string; datasetId: string; storeUrl: string; shape: 'items' | 'products'; entries: unknown[] },
  meta: CommandMeta,
): Promise<UploadOutcome> {
  const { organizationId, datasetId } = input;
  const { listings, failures } = parseEntries(input.shape, input.entries, input.storeUrl);

  const stored = await fingerprintsBySku(deps.db, datasetId, listings.map(({ listing }) => listing.sku));
  const queued: UploadOutcome['queued'] = [];
  const toQueue: ListingToQueue[] = [];
  for (const { listing } of listings) {
    const itemId = itemIdFor(datasetId, listing.sku);
    const hashes = listingHashes(listing);
    const kind = classifyUpload(stored.get(listing.sku) ?? null, hashes);
    queued.push({ itemId, sku: listing.sku, status: kind });
    if (kind !== 'unchanged') toQueue.push({ itemId, kind, listing, hashes });
  }

  const { position, failed } = await appendQueued(deps, { organizationId, datasetId }, toQueue, meta);
  for (const { itemId, listing } of toQueue.filter((entry) => failed.has(entry.itemId))) {
    queued.splice(queued.findIndex((entry) => entry.itemId === itemId), 1);
    failures.push({ index: listings.find((l) => l.listing.sku === listing.sku)!.index, sku: listing.sku, error: 'The item could not be queued; try again.' });
  }
  failures.sort((a, b) => a.index - b.index);
  const unchanged = queued.filter((entry) => entry.status === 'unchanged').length;
  return { queued, failures, position, summary: { total: input.entries.length, queued: queued.length - unchanged, failed: failures.length, unchanged } };
}

export interface ListingToQueue {
  itemId: string;
  kind: QueueKind;
  listing: Listing;
  hashes: { contentHash: string; commerceHash: string };
}

/**
 * Appends one ItemQueued per listing (no stream reads: queuing is always allowed) and tells the
 * ingest worker. Returns the furthest position and the items that could not be queued.
 */
export async function appendQueued(
  deps: { store: EventStore; queue: WorkQueue },
  owner: { organizationId: string; datasetId: string; sourceId?: string },
  toQueue: readonly ListingToQueue[],
  meta: CommandMeta,
): Promise<{ position: Position | null; failed: Set<string> }> {
  const { organizationId, datasetId, sourceId } = owner;
  let position: Position | null = null;
  const failed = new Set<string>();
  const appended = await Promise.allSettled(
    toQueue.map(async ({ itemId, kind, listing, hashes }) => {
      const eventId = uuidv5(`${meta.correlationId}/${itemId}/${kind}/${hashes.contentHash}/${hashes.commerceHash}`, EVENT_ID_NAMESPACE);
      const data = { itemId, datasetId, organizationId, sku: listing.sku, kind, listing, ...hashes, ...(sourceId ? { sourceId } : {}), at: meta.now };
      const result = await deps.store.append(itemStream(itemId), [{ id: eventId, type: 'ItemQueued', data, metadata: { organizationId, actor: meta.actor, correlationId: meta.correlationId, causationId: meta.correlationId, at: meta.now } }], {
        expectedRevision: 'any',
      });
      await deps.queue.enqueue(INGEST_SUBJECT, { itemId, datasetId, organizationId } satisfies IngestMessage, { dedupeId: eventId });
      return result.position;
    }),
  );
  appended.forEach((outcome, i) => {
    if (outcome.status === 'rejected') failed.add(toQueue[i]!.itemId);
    else if (!position || comparePositions(outcome.value, position) > 0) position = outcome.value;
  });
  return { position, failed };
}

/** `PATCH …/items/{itemId}`: publish or withdraw a processed item. */
export async function setItemStatus(store: EventStore, input: { organizationId: string; datasetId: string; itemId: string; status: ItemStatus }, meta: CommandMeta) {
  const { position, state } = await handleCommand(store, itemDecider, { type: 'SetItemStatus', data: input }, meta);
  return { position, state };
}
