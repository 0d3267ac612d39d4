import { NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { SourceEvent, SourceSettings, SourceType } from './events.js';
import { liveSource, type SourceState } from './state.js';

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SourceCommand =
  | { type: 'CreateSource'; data: Ids & { sourceType: SourceType } & SourceSettings }
  | { type: 'UpdateSource'; data: Ids & { changes: Partial<SourceSettings> } }
  | { type: 'DeleteSource'; data: Ids };

/** Document 2: no such source in the organization, or it feeds another dataset. */
export class SourceNotFound extends NotFound {
  constructor() {
    super('Data source not found or access denied');
  }
}

export const decide = (command: SourceCommand, state: SourceState, meta: CommandMeta): SourceEvent[] => {
  const { sourceId, datasetId, organizationId } = command.data;
  const at = meta.now;
  if (command.type === 'CreateSource') {
    // The id derives from the request's correlation id: finding it means a retried request.
    if (state) {
      if (!('deleted' in state) && state.organizationId === organizationId) return [];
      throw new SourceNotFound();
    }
    return [{ type: 'SourceCreated', data: { ...command.data, at } }];
  }
  const source = liveSource(state);
  if (!source || source.organizationId !== organizationId || source.datasetId !== datasetId) throw new SourceNotFound();
  switch (command.type) {
    case 'UpdateSource': {
      const changes = Object.fromEntries(Object.entries(command.data.changes).filter(([field, value]) => value !== undefined && value !== source[field as keyof SourceSettings]));
      return Object.keys(changes).length ? [{ type: 'SourceUpdated', data: { sourceId, datasetId, organizationId, changes, at } }] : [];
    }
    case 'DeleteSource':
      return [{ type: 'SourceDeleted', data: { sourceId, datasetId, organizationId, at } }];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
