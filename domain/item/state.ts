import type { Listing } from '../catalogue/product-input.js';
import type { ItemEvent, ItemProcessed, ItemStatus, QueueKind } from './events.js';

export type QueueStatus = QueueKind | 'processing' | 'failed';

export interface ItemState {
  itemId: string;
  datasetId: string;
  organizationId: string;
  sku: string;
  /** How many times the item was queued; the latest is the work outstanding. */
  queueVersion: number;
  /** The latest queued listing and how it was classified. */
  queued: { kind: QueueKind; listing: Listing; contentHash: string; commerceHash: string } | null;
  /** null once the latest queued work is done. */
  queueStatus: QueueStatus | null;
  attempts: number;
  /** The live product as the pipeline made it, with partial updates applied. */
  processed: Omit<ItemProcessed['data'], 'status' | 'at' | 'queueVersion'> | null;
  status: ItemStatus | null;
  processedAt: string | null;
  updatedAt: string;
}

export type ItemAggregate = ItemState | null;

export const initialState: ItemAggregate = null;

export const evolve = (state: ItemAggregate, event: ItemEvent): ItemAggregate => {
  switch (event.type) {
    case 'ItemQueued': {
      const { itemId, datasetId, organizationId, sku, kind, listing, contentHash, commerceHash, at } = event.data;
      const base: ItemState = state ?? { itemId, datasetId, organizationId, sku, queueVersion: 0, queued: null, queueStatus: null, attempts: 0, processed: null, status: null, processedAt: null, updatedAt: at };
      return { ...base, queueVersion: base.queueVersion + 1, queued: { kind, listing, contentHash, commerceHash }, queueStatus: kind, attempts: 0, updatedAt: at };
    }
    case 'ItemProcessingStarted':
      if (!state || event.data.queueVersion !== state.queueVersion) return state;
      return { ...state, queueStatus: 'processing', attempts: event.data.attempt, updatedAt: event.data.at };
    case 'ItemProcessed': {
      if (!state) return state;
      const { status, at, queueVersion, ...processed } = event.data;
      const current = queueVersion === state.queueVersion;
      return { ...state, processed, status, processedAt: at, queueStatus: current ? null : state.queueStatus, updatedAt: at };
    }
    case 'ItemCommerceUpdated': {
      if (!state?.processed) return state;
      const { price, currency, variants, queueVersion, at } = event.data;
      const listing = { ...state.processed.listing, price, variants };
      return { ...state, processed: { ...state.processed, listing, currency }, queueStatus: queueVersion === state.queueVersion ? null : state.queueStatus, updatedAt: at };
    }
    case 'ItemFailed':
      if (!state || event.data.queueVersion !== state.queueVersion) return state;
      return { ...state, queueStatus: 'failed', attempts: event.data.attempts, updatedAt: event.data.at };
    case 'ItemStatusChanged':
      return state && { ...state, status: event.data.status, updatedAt: event.data.at };
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
