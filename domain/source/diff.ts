// A sync's diff (document 1, Sync job): the store's listings against what the dataset holds, by
// sku. New skus are added, changed ones updated (in full or only prices and stock, as an upload is
// classified), and this source's live items whose sku left the store are archived. An item this
// source archived comes back when its sku returns. Pure: the worker loads, this decides.
import type { Listing } from '../catalogue/product-input.js';
import type { QueueKind } from '../item/events.js';
import { classifyUpload, itemIdFor, listingHashes } from '../item/identity.js';

export interface StoredItem {
  itemId: string;
  sku: string;
  contentHash: string;
  commerceHash: string;
  processed: boolean;
  status: 'active' | 'archived' | null;
  /** The source whose sync queued it last; null for uploads. */
  sourceId: string | null;
  /** The source that archived it because its sku left that store. */
  archivedBySource: string | null;
}

export interface SyncDiff {
  queue: Array<{ itemId: string; kind: QueueKind; listing: Listing; hashes: { contentHash: string; commerceHash: string }; isNew: boolean }>;
  /** Items this source archived that are back in the store. */
  revive: string[];
  archive: string[];
  /** New skus and returning ones. */
  added: number;
  /** Known skus whose listing changed. */
  updated: number;
  unchanged: number;
}

/**
 * `complete` is false when the run did not see the whole store (the 25,000 cap): nothing is then
 * archived, as a product past the cap is not a product that left.
 */
export function diffCatalogue(sourceId: string, datasetId: string, listings: readonly Listing[], stored: ReadonlyMap<string, StoredItem>, complete: boolean): SyncDiff {
  const diff: SyncDiff = { queue: [], revive: [], archive: [], added: 0, updated: 0, unchanged: 0 };
  const seen = new Set<string>();
  for (const listing of listings) {
    seen.add(listing.sku);
    const previous = stored.get(listing.sku) ?? null;
    const hashes = listingHashes(listing);
    const kind = classifyUpload(previous, hashes);
    const returning = previous !== null && previous.status === 'archived' && previous.archivedBySource === sourceId;
    if (returning) diff.revive.push(previous.itemId);
    const isNew = previous === null || returning;
    if (isNew) diff.added++;
    else if (kind !== 'unchanged') diff.updated++;
    else diff.unchanged++;
    if (kind !== 'unchanged') diff.queue.push({ itemId: previous?.itemId ?? itemIdFor(datasetId, listing.sku), kind, listing, hashes, isNew });
  }
  if (complete) {
    for (const item of stored.values()) {
      if (item.sourceId === sourceId && item.status === 'active' && !seen.has(item.sku)) diff.archive.push(item.itemId);
    }
  }
  return diff;
}
