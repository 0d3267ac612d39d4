// Events of one catalogue item's stream (`item-<itemId>`, itemId = uuid v5 of dataset and sku):
// queued by an upload or a sync, taken by the ingest worker, processed (labels, photos, search
// text) or failed, partially updated (prices, stock, variants), published or archived.
import type { Listing, ListingVariant } from '../catalogue/product-input.js';
import type { ImageType, Labels } from '../catalogue/vocabulary.js';

/** `pending`: to be labelled in full; `partial_update`: only prices, stock or variants changed. */
export type QueueKind = 'pending' | 'partial_update';
export type ItemStatus = 'active' | 'archived';

export interface StoredImage {
  id: string;
  key: string;
}

export interface ItemImage {
  originalImageUrl: string;
  type: ImageType | '';
  uploaded: StoredImage;
}

export interface ItemQueued {
  type: 'ItemQueued';
  data: {
    itemId: string;
    datasetId: string;
    organizationId: string;
    sku: string;
    kind: QueueKind;
    listing: Listing;
    /** Fingerprints of what labelling reads and of prices/stock/variants: how the next upload is classified. */
    contentHash: string;
    commerceHash: string;
    /** The data source whose sync queued it; absent for uploads. A sync archives only its own items. */
    sourceId?: string;
    at: string;
  };
}

export interface ItemProcessingStarted {
  type: 'ItemProcessingStarted';
  data: { itemId: string; datasetId: string; organizationId: string; queueVersion: number; attempt: number; at: string };
}

export interface ItemProcessed {
  type: 'ItemProcessed';
  data: {
    itemId: string;
    datasetId: string;
    organizationId: string;
    /** Which ItemQueued of the stream (1st, 2nd…) this answers: a newer one keeps its queue row. */
    queueVersion: number;
    listing: Listing;
    /** The listing's currency, else the dataset's, else CAD. */
    currency: string;
    labels: Labels;
    searchText: string;
    searchTextVersion: number;
    images: ItemImage[];
    /** Photos that could not be used, with why; the item is processed without them. */
    photoProblems: Array<{ src: string; problem: string }>;
    labeller: string;
    pipelineVersion: number;
    status: ItemStatus;
    at: string;
  };
}

export interface ItemCommerceUpdated {
  type: 'ItemCommerceUpdated';
  data: { itemId: string; datasetId: string; organizationId: string; queueVersion: number; price: number; currency: string; variants: ListingVariant[]; at: string };
}

export interface ItemFailed {
  type: 'ItemFailed';
  data: { itemId: string; datasetId: string; organizationId: string; queueVersion: number; reason: string; attempts: number; at: string };
}

export interface ItemStatusChanged {
  type: 'ItemStatusChanged';
  data: {
    itemId: string;
    datasetId: string;
    organizationId: string;
    status: ItemStatus;
    /** Set when a sync changed it: archived because its sku left that source's store, or back when it returned. */
    sourceId?: string;
    at: string;
  };
}

export type ItemEvent = ItemQueued | ItemProcessingStarted | ItemProcessed | ItemCommerceUpdated | ItemFailed | ItemStatusChanged;

export const itemStream = (itemId: string): string => `item-${itemId}`;
