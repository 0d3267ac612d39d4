// The ingest worker's and the sync worker's commands on item streams, named for what they do:
// the worker never builds a decider command itself. An ingest run reads the item's stream once and
// appends each step expecting the revision the previous step left (`handleKnown`).
import type { ItemAggregate, ItemCommand, ItemStatus } from '../domain/item/index.js';
import { itemDecider, itemStream } from '../domain/item/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore } from '../infra/eventstore/port.js';
import { handleCommand, handleKnown, loadState, readKnown, type KnownStream } from './handle.js';

type ItemIds = { itemId: string; datasetId: string; organizationId: string };
type Data<T extends ItemCommand['type']> = Omit<Extract<ItemCommand, { type: T }>['data'], keyof ItemIds | 'queueVersion'>;

/** One ingest run on one queued version of an item. */
export interface IngestRun {
  /** The item as read when the run began. */
  readonly state: ItemAggregate;
  /** Marks the queued version as being worked on; false: done or superseded meanwhile, nothing to do. */
  startProcessing(attempt: number): Promise<boolean>;
  /** Records a prices, stock and variants update on the processed item. */
  completeCommerceUpdate(update: Data<'RecordCommerceUpdate'>): Promise<void>;
  /** Records the pipeline's result. */
  completeIngest(result: Data<'RecordProcessed'>): Promise<void>;
}

export async function beginIngest(store: EventStore, ids: ItemIds, meta: (queueVersion: number) => CommandMeta): Promise<IngestRun> {
  let known: KnownStream<ItemAggregate> = await readKnown(store, itemDecider, itemStream(ids.itemId));
  const state = known.state;
  const queueVersion = state?.queueVersion ?? 0;
  const run = async (command: ItemCommand) => {
    const handled = await handleKnown(store, itemDecider, command, meta(queueVersion), known, { organizationId: ids.organizationId });
    known = handled.known;
    return handled.events.length > 0;
  };
  return {
    state,
    startProcessing: (attempt) => run({ type: 'StartProcessing', data: { ...ids, queueVersion, attempt } }),
    completeCommerceUpdate: async (update) => void (await run({ type: 'RecordCommerceUpdate', data: { ...ids, queueVersion, ...update } })),
    completeIngest: async (result) => void (await run({ type: 'RecordProcessed', data: { ...ids, queueVersion, ...result } })),
  };
}

/** Gives up on the item's latest queued version after its last attempt: the queue row shows `failed` with the reason. */
export async function failIngest(store: EventStore, ids: ItemIds, failure: { reason: string; attempts: number }, meta: (queueVersion: number) => CommandMeta): Promise<void> {
  const state = await loadState(store, itemDecider, itemStream(ids.itemId));
  if (!state) return;
  await handleCommand(store, itemDecider, { type: 'RecordFailure', data: { ...ids, queueVersion: state.queueVersion, ...failure } }, meta(state.queueVersion), { organizationId: ids.organizationId });
}

/** A sync archives an item whose product left its store, or brings back one that returned. */
export const setSyncedItemStatus = (store: EventStore, ids: ItemIds & { sourceId: string }, status: ItemStatus, meta: CommandMeta) =>
  handleCommand(store, itemDecider, { type: 'SetItemStatus', data: { ...ids, status } }, meta);
