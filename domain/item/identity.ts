// One sku, one item, one stream: the id is a uuid v5 of the dataset and the sku, so an upload
// and a sync of the same product always land on the same item.
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Listing } from '../catalogue/product-input.js';

const ITEM_ID_NAMESPACE = 'a6c3f0d2-51b7-4e8a-9c3d-7f2e1b0a4d95';

export const itemIdFor = (datasetId: string, sku: string): string => uuidv5(`${datasetId}/${sku}`, ITEM_ID_NAMESPACE);

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

/**
 * What labelling reads (everything but prices, stock and variants) and what a partial update
 * changes. Option axes derive from the variants, so they count as variants.
 */
export function listingHashes(listing: Listing): { contentHash: string; commerceHash: string } {
  const { price, currency, variants, options: _options, ...content } = listing;
  return { contentHash: digest(content), commerceHash: digest({ price, currency, variants }) };
}

export type UploadClass = 'pending' | 'partial_update' | 'unchanged';

/** Document 3 §3: identical → unchanged; only prices, stock or variants differ → partial update. */
export function classifyUpload(previous: { contentHash: string; commerceHash: string; processed: boolean } | null, next: { contentHash: string; commerceHash: string }): UploadClass {
  if (!previous || previous.contentHash !== next.contentHash) return 'pending';
  if (previous.commerceHash !== next.commerceHash) return previous.processed ? 'partial_update' : 'pending';
  return 'unchanged';
}
