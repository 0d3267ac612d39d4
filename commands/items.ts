// Item upload (document 3 §3 Items): each entry validated on its own, mapped to one Listing,
// classified by the item decider against its own stream (new, partial update, unchanged) and
// queued as an ItemQueued event there, appended with that stream's revision; then the ingest
// worker is told. One bad entry never sinks the rest. The streams are read in one batch and the
// appends go together, so a thousand products cost one read and one round of group-committed
// appends. Two writers queuing the same sku at once (two uploads, a sync and an upload): one wins
// each revision, the other re-reads and decides again on what the winner queued.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { itemInputSchema, listingFromItemInput, listingFromShopifyProduct, shopifyProductSchema, type Listing } from '../domain/catalogue/product-input.js';
import { itemDecider, itemIdFor, listingHashes, type ItemStatus, type QueueKind } from '../domain/item/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import { TEXT_PROBLEM, valueProblem } from '../domain/text.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { comparePositions } from '../infra/eventstore/position.js';
import { INGEST_SUBJECT, type IngestMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { handleCommand, handleMany } from './handle.js';

export interface UploadOutcome {
  queued: Array<{ itemId: string; sku: string; status: QueueKind | 'unchanged' }>;
  failures: Array<{ index: number; sku: string | null; error: string }>;
  summary: { total: number; queued: number; failed: number; unchanged: number };
  /** Where the last ItemQueued landed; null when nothing was queued. */
  position: Position | null;
}

const describeIssue = (issue: z.core.$ZodIssue): string => {
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '');
  if (path && issue.message.startsWith('must ')) return `${path} ${issue.message}`;
  return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
};

const skuOf = (entry: unknown, shape: 'items' | 'products'): string | null => {
  const raw = entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[shape === 'items' ? 'sku' : 'id'] : undefined;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
};

const MAX_ENTRY_DEPTH = 16;

/** A store feed is not checked by the HTTP edge: one bad product is skipped, never the whole run. */
const entryProblem = (entry: unknown): string | null => {
  const problem = valueProblem(entry, MAX_ENTRY_DEPTH);
  if (!problem) return null;
  return problem.kind === 'text' ? `${problem.path || 'the entry'} ${TEXT_PROBLEM}.` : `the entry is nested deeper than ${MAX_ENTRY_DEPTH} levels.`;
};

/** An entry already refused as it was read (a feed product); parseEntries lists it with the other failures. */
export class RefusedEntry {
  readonly sku: string | null;
  readonly error: string;
  constructor(
    sku: string | null,
    error: string,
  ) {
    this.sku = sku;
    this.error = error;
  }
}

/** An entry already made into its listing as it was read (a feed product); parseEntries takes it as it is. */
export class ParsedEntry {
  readonly listing: Listing;
  constructor(listing: Listing) {
    this.listing = listing;
  }
}

/**
 * What is held of an entry as a feed or an upload body is read: its listing, made as the entry
 * completes, or, for an entry the checks below refuse, just why (checked on the whole entry).
 * The raw entry is never held beside the listing.
 */
export function keptEntry(shape: 'items' | 'products', entry: unknown, storeUrl: string): RefusedEntry | ParsedEntry {
  const failures: UploadOutcome['failures'] = [];
  const listing = listingOf(shape, entry, storeUrl, 0, failures);
  return listing ? new ParsedEntry(listing) : new RefusedEntry(failures[0]!.sku, failures[0]!.error);
}

/** What a sync holds of a feed product as the feed is read (keptEntry). */
export const feedProductKeeper =
  (storeUrl: string) =>
  (product: Record<string, unknown>): RefusedEntry | ParsedEntry =>
    keptEntry('products', product, storeUrl);

/** One entry checked and made into its listing, or its failure recorded. */
function listingOf(shape: 'items' | 'products', entry: unknown, storeUrl: string, index: number, failures: UploadOutcome['failures']): Listing | null {
  const problem = entryProblem(entry);
  if (problem) {
    failures.push({ index, sku: skuOf(entry, shape), error: problem });
    return null;
  }
  const parsed = shape === 'items' ? itemInputSchema.safeParse(entry) : shopifyProductSchema.safeParse(entry);
  if (!parsed.success) {
    failures.push({ index, sku: skuOf(entry, shape), error: describeIssue(parsed.error.issues[0]!) });
    return null;
  }
  return shape === 'items' ? listingFromItemInput(parsed.data as z.output<typeof itemInputSchema>) : listingFromShopifyProduct(parsed.data as z.output<typeof shopifyProductSchema>, storeUrl);
}

/**
 * Each entry on its own: a listing, or why not. A sku seen earlier in the same batch is refused,
 * so a batch never queues one item twice.
 */
export function parseEntries(shape: 'items' | 'products', entries: readonly unknown[], storeUrl: string): { listings: Array<{ index: number; listing: Listing }>; failures: UploadOutcome['failures'] } {
  const failures: UploadOutcome['failures'] = [];
  const listings: Array<{ index: number; listing: Listing }> = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (entry instanceof RefusedEntry) {
      failures.push({ index, sku: entry.sku, error: entry.error });
      return;
    }
    const listing = entry instanceof ParsedEntry ? entry.listing : listingOf(shape, entry, storeUrl, index, failures);
    if (!listing) return;
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
  const toQueue = listings.map(({ listing }) => ({ itemId: itemIdFor(datasetId, listing.sku), listing, hashes: listingHashes(listing) }));
  const { position, outcomes } = await queueListings(deps, { organizationId, datasetId }, toQueue, meta);
  const queued: UploadOutcome['queued'] = [];
  listings.forEach(({ index, listing }, i) => {
    const outcome = outcomes[i]!;
    if (outcome === 'failed') failures.push({ index, sku: listing.sku, error: 'The item could not be queued; try again.' });
    else queued.push({ itemId: toQueue[i]!.itemId, sku: listing.sku, status: outcome });
  });
  failures.sort((a, b) => a.index - b.index);
  const unchanged = queued.filter((entry) => entry.status === 'unchanged').length;
  return { queued, failures, position, summary: { total: input.entries.length, queued: queued.length - unchanged, failed: failures.length, unchanged } };
}

export interface ListingToQueue {
  itemId: string;
  listing: Listing;
  hashes: { contentHash: string; commerceHash: string };
}

/** How each listing fared: queued as new work or a partial update, unchanged (nothing queued), or not queued (the store failed). */
export type QueueOutcome = QueueKind | 'unchanged' | 'failed';

/**
 * Queues listings through the item decider, each on its stream's revision, and tells the ingest
 * worker about each one queued. A retried request (same correlation id) finds the ItemQueued it
 * appended before and answers as then. Returns the furthest position and one outcome per listing.
 */
export async function queueListings(
  deps: { store: EventStore; queue: WorkQueue },
  owner: { organizationId: string; datasetId: string; sourceId?: string },
  toQueue: readonly ListingToQueue[],
  meta: CommandMeta,
): Promise<{ position: Position | null; outcomes: QueueOutcome[] }> {
  const { organizationId, datasetId, sourceId } = owner;
  const handled = await handleMany(
    deps.store,
    itemDecider,
    toQueue.map(({ itemId, listing, hashes }) => ({ type: 'QueueItem' as const, data: { itemId, datasetId, organizationId, sku: listing.sku, listing, ...hashes, ...(sourceId ? { sourceId } : {}) } })),
    meta,
  );
  let position: Position | null = null;
  const outcomes = await Promise.all(
    handled.map(async (result, i): Promise<QueueOutcome> => {
      if (!result.ok) return 'failed';
      const queued = result.events.find((event) => event.type === 'ItemQueued');
      if (!queued || queued.type !== 'ItemQueued') return 'unchanged';
      if (result.position && (!position || comparePositions(result.position, position) > 0)) position = result.position;
      const { itemId } = toQueue[i]!;
      try {
        // The message is a wake-up (the stream decides): a repeat of it is harmless, so a retry announces again.
        // Keyed by organization: the ingest worker serves organizations in turn (INGEST_MAX_PER_ORGANIZATION).
        await deps.queue.enqueue(INGEST_SUBJECT, { itemId, datasetId, organizationId } satisfies IngestMessage, { dedupeId: `${meta.correlationId}/${itemId}`, key: organizationId });
      } catch {
        return 'failed';
      }
      return queued.data.kind;
    }),
  );
  return { position, outcomes };
}

/** `PATCH …/items/{itemId}`: publish or withdraw a processed item. */
export async function setItemStatus(store: EventStore, input: { organizationId: string; datasetId: string; itemId: string; status: ItemStatus }, meta: CommandMeta) {
  const { position, state } = await handleCommand(store, itemDecider, { type: 'SetItemStatus', data: input }, meta);
  return { position, state };
}
