// Data source commands: create, update, delete, each on the source's own stream.
import { v5 as uuidv5 } from 'uuid';
import type { CommandMeta } from '../domain/metadata.js';
import { sourceDecider, type SourceSettings } from '../domain/source/index.js';
import type { EventStore } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

const SOURCE_ID_NAMESPACE = '4a2c8e1f-6b3d-4f5a-9c7e-1d0b2a3c4e5f';

type Ids = { organizationId: string; datasetId: string };

export async function createSource(store: EventStore, input: Ids & SourceSettings, meta: CommandMeta) {
  const sourceId = uuidv5(meta.correlationId, SOURCE_ID_NAMESPACE);
  const { position } = await handleCommand(store, sourceDecider, { type: 'CreateSource', data: { ...input, sourceId, sourceType: 'shopify-api' } }, meta);
  return { sourceId, position };
}

export const updateSource = (store: EventStore, input: Ids & { sourceId: string; changes: Partial<SourceSettings> }, meta: CommandMeta) =>
  handleCommand(store, sourceDecider, { type: 'UpdateSource', data: input }, meta);

export const deleteSource = (store: EventStore, input: Ids & { sourceId: string }, meta: CommandMeta) => handleCommand(store, sourceDecider, { type: 'DeleteSource', data: input }, meta);
