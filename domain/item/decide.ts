import { NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { ItemCommerceUpdated, ItemEvent, ItemProcessed, ItemQueued, ItemStatus } from './events.js';
import { classifyUpload } from './identity.js';
import type { ItemAggregate } from './state.js';

type Ids = { itemId: string; datasetId: string; organizationId: string };

export type ItemCommand =
  /** Classified on the stream (new, partial update, unchanged): an unchanged listing queues nothing. */
  | { type: 'QueueItem'; data: Omit<ItemQueued['data'], 'at' | 'kind'> }
  | { type: 'StartProcessing'; data: Ids & { queueVersion: number; attempt: number } }
  | { type: 'RecordProcessed'; data: Omit<ItemProcessed['data'], 'at' | 'status'> & { autoPublish: boolean } }
  | { type: 'RecordCommerceUpdate'; data: Omit<ItemCommerceUpdated['data'], 'at'> }
  | { type: 'RecordFailure'; data: Ids & { queueVersion: number; reason: string; attempts: number } }
  | { type: 'SetItemStatus'; data: Ids & { status: ItemStatus; sourceId?: string } };

export class ItemNotFound extends NotFound {
  readonly itemId: string;
  constructor(itemId: string) {
    super(`Item '${itemId}' not found.`);
    this.itemId = itemId;
  }
}

export const decide = (command: ItemCommand, state: ItemAggregate, meta: CommandMeta): ItemEvent[] => {
  const at = meta.now;
  switch (command.type) {
    case 'QueueItem': {
      const previous = state?.queued ? { contentHash: state.queued.contentHash, commerceHash: state.queued.commerceHash, processed: state.processed !== null } : null;
      const kind = classifyUpload(previous, command.data);
      return kind === 'unchanged' ? [] : [{ type: 'ItemQueued', data: { ...command.data, kind, at } }];
    }
    case 'StartProcessing': {
      // Work already done, or superseded by a newer upload (whose own message will come): nothing to do.
      if (!state || state.queueVersion !== command.data.queueVersion || state.queueStatus === null) return [];
      return [{ type: 'ItemProcessingStarted', data: { ...command.data, at } }];
    }
    case 'RecordProcessed': {
      if (!state) throw new ItemNotFound(command.data.itemId);
      const { autoPublish, ...result } = command.data;
      // A reprocessed live item stays as the merchant left it; a new one goes live only with autoPublish.
      const status: ItemStatus = state.status ?? (autoPublish ? 'active' : 'archived');
      return [{ type: 'ItemProcessed', data: { ...result, status, at } }];
    }
    case 'RecordCommerceUpdate':
      if (!state?.processed) throw new ItemNotFound(command.data.itemId);
      return [{ type: 'ItemCommerceUpdated', data: { ...command.data, at } }];
    case 'RecordFailure':
      if (!state || state.queueVersion !== command.data.queueVersion) return [];
      return [{ type: 'ItemFailed', data: { ...command.data, at } }];
    case 'SetItemStatus': {
      // Only processed items have a status to change (document 3: `PATCH …/items/{itemId}`).
      if (!state?.processed || state.organizationId !== command.data.organizationId || state.datasetId !== command.data.datasetId) throw new ItemNotFound(command.data.itemId);
      return state.status === command.data.status ? [] : [{ type: 'ItemStatusChanged', data: { ...command.data, at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
