import { NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { SizingSettings, StylingSettings } from '../styling/settings.js';
import type { DatasetContent, DatasetEvent } from './events.js';
import { liveDataset, type DatasetState } from './state.js';

export type DatasetCommand =
  | { type: 'CreateDataset'; data: { datasetId: string; organizationId: string; content: DatasetContent } }
  | { type: 'UpdateDataset'; data: { datasetId: string; organizationId: string; changes: Partial<DatasetContent> } }
  | { type: 'ActivateDataset'; data: { datasetId: string; organizationId: string } }
  | { type: 'ArchiveDataset'; data: { datasetId: string; organizationId: string } }
  | { type: 'DeleteDataset'; data: { datasetId: string; organizationId: string } }
  | { type: 'ReplaceDatasetStyling'; data: { datasetId: string; organizationId: string; styling?: StylingSettings; sizing?: SizingSettings } };

/**
 * The dataset does not exist for this organization (never created, deleted, or another
 * organization's). Endpoints word this differently, so the route picks the message.
 */
export class DatasetNotFound extends NotFound {
  readonly datasetId: string;
  readonly organizationId: string;
  constructor(datasetId: string, organizationId: string) {
    super(`Dataset '${datasetId}' not found for organization '${organizationId}'.`);
    this.datasetId = datasetId;
    this.organizationId = organizationId;
  }
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export const decide = (command: DatasetCommand, state: DatasetState, meta: CommandMeta): DatasetEvent[] => {
  const { datasetId, organizationId } = command.data;
  const at = meta.now;
  if (command.type === 'CreateDataset') {
    // The id derives from the request's correlation id: finding it there means a retried request.
    if (state) {
      if (state.organizationId === organizationId) return [];
      throw new DatasetNotFound(datasetId, organizationId);
    }
    return [{ type: 'DatasetCreated', data: { datasetId, organizationId, ...command.data.content, at } }];
  }
  const dataset = liveDataset(state);
  if (!dataset || dataset.organizationId !== organizationId) throw new DatasetNotFound(datasetId, organizationId);
  switch (command.type) {
    case 'UpdateDataset': {
      // Only what actually changes is recorded: the audit trail shows real edits, not echoes.
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(([field, value]) => value !== undefined && !sameJson(value, dataset[field as keyof DatasetContent])),
      ) as Partial<DatasetContent>;
      return Object.keys(changes).length ? [{ type: 'DatasetUpdated', data: { datasetId, organizationId, changes, at } }] : [];
    }
    case 'ActivateDataset':
      return dataset.status === 'active' ? [] : [{ type: 'DatasetActivated', data: { datasetId, organizationId, at } }];
    case 'ArchiveDataset':
      return dataset.status === 'archived' ? [] : [{ type: 'DatasetArchived', data: { datasetId, organizationId, at } }];
    case 'DeleteDataset':
      return [{ type: 'DatasetDeleted', data: { datasetId, organizationId, at } }];
    case 'ReplaceDatasetStyling': {
      const { styling, sizing } = command.data;
      return [{ type: 'DatasetStylingReplaced', data: { datasetId, organizationId, ...(styling ? { styling } : {}), ...(sizing ? { sizing } : {}), at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
