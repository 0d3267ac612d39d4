import type { SizingSettings, StylingSettings } from '../styling/settings.js';
import type { DatasetContent, DatasetEvent } from './events.js';

export type DatasetStatus = 'draft' | 'active' | 'archived';

export interface Dataset extends DatasetContent {
  datasetId: string;
  organizationId: string;
  status: DatasetStatus;
  createdAt: string;
  updatedAt: string;
  styling?: StylingSettings;
  sizing?: SizingSettings;
}

/** null: never created; `deleted`: gone for good (a delete is permanent). */
export type DatasetState = Dataset | { deleted: true; datasetId: string; organizationId: string } | null;

export const initialState: DatasetState = null;

export const liveDataset = (state: DatasetState): Dataset | null => (state && !('deleted' in state) ? state : null);

export const evolve = (state: DatasetState, event: DatasetEvent): DatasetState => {
  const dataset = liveDataset(state);
  switch (event.type) {
    case 'DatasetCreated': {
      const { at, ...content } = event.data;
      return { ...content, status: 'draft', createdAt: at, updatedAt: at };
    }
    case 'DatasetUpdated':
      return dataset && { ...dataset, ...event.data.changes, updatedAt: event.data.at };
    case 'DatasetActivated':
      return dataset && { ...dataset, status: 'active', updatedAt: event.data.at };
    case 'DatasetArchived':
      return dataset && { ...dataset, status: 'archived', updatedAt: event.data.at };
    case 'DatasetDeleted':
      return { deleted: true, datasetId: event.data.datasetId, organizationId: event.data.organizationId };
    case 'DatasetStylingReplaced': {
      if (!dataset) return state;
      const { styling, sizing } = event.data;
      return { ...dataset, ...(styling ? { styling } : {}), ...(sizing ? { sizing } : {}) };
    }
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
