// Dataset commands: create, update, activate, archive, delete, replace styling. Each runs the
// dataset decider on its stream; the routes wait for the read models before answering.
import { v5 as uuidv5 } from 'uuid';
import { datasetChanges, datasetDecider, DatasetNotFound, liveDataset, type DatasetCommand, type DatasetContent, type updateDatasetBody } from '../domain/dataset/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { SizingSettings, StylingSettings } from '../domain/styling/settings.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand, loadState } from './handle.js';
import { z } from 'zod';
import { DATASET_CLEANUP_SUBJECT, type DatasetCleanupMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';

const DATASET_ID_NAMESPACE = 'c1d7e5a4-3b2f-4e6d-8a9c-0f1e2d3c4b5a';

/** One request, one dataset: a retry with the same Idempotency-Key finds the dataset it made. */
export const datasetIdFor = (correlationId: string): string => uuidv5(correlationId, DATASET_ID_NAMESPACE);

async function run(store: EventStore, command: DatasetCommand, meta: CommandMeta): Promise<{ changed: boolean; position: Position | null }> {
  const { events, position } = await handleCommand(store, datasetDecider, command, meta);
  return { changed: events.length > 0, position };
}

export async function createDataset(store: EventStore, input: { organizationId: string; content: DatasetContent }, meta: CommandMeta): Promise<{ datasetId: string; position: Position | null }> {
  const datasetId = datasetIdFor(meta.correlationId);
  const { position } = await run(store, { type: 'CreateDataset', data: { datasetId, ...input } }, meta);
  return { datasetId, position };
}

export async function updateDataset(
  store: EventStore,
  input: { organizationId: string; datasetId: string; body: z.output<typeof updateDatasetBody> },
  meta: CommandMeta,
): Promise<{ position: Position | null }> {
  const { organizationId, datasetId } = input;
  const dataset = liveDataset(await loadState(store, datasetDecider, `dataset-${datasetId}`));
  if (!dataset || dataset.organizationId !== organizationId) throw new DatasetNotFound(datasetId, organizationId);
  return run(store, { type: 'UpdateDataset', data: { organizationId, datasetId, changes: datasetChanges(input.body, dataset.config) } }, meta);
}

type Ids = { organizationId: string; datasetId: string };

export const activateDataset = (store: EventStore, ids: Ids, meta: CommandMeta) => run(store, { type: 'ActivateDataset', data: ids }, meta);
export const archiveDataset = (store: EventStore, ids: Ids, meta: CommandMeta) => run(store, { type: 'ArchiveDataset', data: ids }, meta);
export const deleteDataset = (store: EventStore, ids: Ids, meta: CommandMeta) => run(store, { type: 'DeleteDataset', data: ids }, meta);

export const replaceDatasetStyling = (store: EventStore, input: Ids & { styling?: StylingSettings; sizing?: SizingSettings }, meta: CommandMeta) =>
  run(store, { type: 'ReplaceDatasetStyling', data: input }, meta);

/** The dataset as its stream says now (for commands that need its settings). */
export async function currentDataset(store: EventStore, ids: Ids) {
  const dataset = liveDataset(await loadState(store, datasetDecider, `dataset-${ids.datasetId}`));
  return dataset && dataset.organizationId === ids.organizationId ? dataset : null;
}


/** A deleted dataset's photos and search vectors go in the background (document 2 delete). */
export async function enqueueDatasetCleanup(queue: WorkQueue, ids: Ids): Promise<void> {
  await queue.enqueue(DATASET_CLEANUP_SUBJECT, ids satisfies DatasetCleanupMessage, { dedupeId: `cleanup-${ids.datasetId}` });
}
