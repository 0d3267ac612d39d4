// Data source commands: create, update, delete, each on the source's own stream.
import { v5 as uuidv5 } from 'uuid';
import type { CommandMeta } from '../domain/metadata.js';
import { liveSource, sourceDecider, type Market, type SourceSettings } from '../domain/source/index.js';
import type { EventStore } from '../infra/eventstore/port.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { handleCommand } from './handle.js';
import { announce } from './sync-jobs.js';

const SOURCE_ID_NAMESPACE = '4a2c8e1f-6b3d-4f5a-9c7e-1d0b2a3c4e5f';

type Ids = { organizationId: string; datasetId: string };

/** Creates the source; an active one gets its first sync job at once, announced to the sync workers. */
export async function createSource(deps: { store: EventStore; queue: WorkQueue }, input: Ids & SourceSettings & { markets?: Market[]; defaultMarket?: string | null }, meta: CommandMeta) {
  const sourceId = uuidv5(meta.correlationId, SOURCE_ID_NAMESPACE);
  const firstJobId = uuidv5(`${sourceId}/first-sync`, SOURCE_ID_NAMESPACE);
  const { position, state } = await handleCommand(deps.store, sourceDecider, { type: 'CreateSource', data: { ...input, sourceId, sourceType: 'shopify-api', firstJobId } }, meta);
  const firstJob = liveSource(state)?.jobs[firstJobId];
  // A retried request announces again: the message is a wake-up, and a claimed job ignores it.
  if (firstJob?.status === 'pending') await announce(deps.queue, { jobId: firstJobId, sourceId, datasetId: input.datasetId, organizationId: input.organizationId });
  return { sourceId, position };
}

export const updateSource = (store: EventStore, input: Ids & { sourceId: string; changes: Partial<SourceSettings> }, meta: CommandMeta) =>
  handleCommand(store, sourceDecider, { type: 'UpdateSource', data: input }, meta);

export const deleteSource = (store: EventStore, input: Ids & { sourceId: string }, meta: CommandMeta) => handleCommand(store, sourceDecider, { type: 'DeleteSource', data: input }, meta);
