// Data source commands: create, update, delete, each on the source's own stream.
import { v5 as uuidv5 } from 'uuid';
import type { CommandMeta } from '../domain/metadata.js';
import { sourceDecider, type Market, type SourceSettings } from '../domain/source/index.js';
import type { EventStore } from '../infra/eventstore/port.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { handleCommand } from './handle.js';
import { latestJob, requestSyncJob } from './sync-jobs.js';

const SOURCE_ID_NAMESPACE = '4a2c8e1f-6b3d-4f5a-9c7e-1d0b2a3c4e5f';

type Ids = { organizationId: string; datasetId: string };

/**
 * Creates the source; an active one gets its first sync job at once (job 1, on its own stream),
 * announced to the sync workers. The two appends are not atomic: a request that fails between
 * them is retried with the same correlation id, which finds the source and opens the job.
 */
export async function createSource(deps: { store: EventStore; queue: WorkQueue }, input: Ids & SourceSettings & { markets?: Market[]; defaultMarket?: string | null }, meta: CommandMeta) {
  const sourceId = uuidv5(meta.correlationId, SOURCE_ID_NAMESPACE);
  const created = await handleCommand(deps.store, sourceDecider, { type: 'CreateSource', data: { ...input, sourceId, sourceType: 'shopify-api' } }, meta);
  // A retried create whose first job exists already (perhaps long finished) opens no second one.
  if (input.status !== 'active' || (!created.events.length && (await latestJob(deps.store, sourceId)))) return { sourceId, position: created.position };
  const { position } = await requestSyncJob(deps, { organizationId: input.organizationId, datasetId: input.datasetId, sourceId }, 'source-created', meta);
  return { sourceId, position: position ?? created.position };
}

export const updateSource = (store: EventStore, input: Ids & { sourceId: string; changes: Partial<SourceSettings> }, meta: CommandMeta) =>
  handleCommand(store, sourceDecider, { type: 'UpdateSource', data: input }, meta);

/** `counts`: the jobs and logs the source takes with it, as the read model shows them (jobs on their own streams are not in the source's). */
export const deleteSource = (store: EventStore, input: Ids & { sourceId: string; counts?: { jobs: number; logs: number } }, meta: CommandMeta) =>
  handleCommand(store, sourceDecider, { type: 'DeleteSource', data: input }, meta);
