import type { SourceEvent, SourceSettings, SourceType } from './events.js';

export interface Source extends SourceSettings {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  sourceType: SourceType;
  createdAt: string;
  updatedAt: string;
}

/** null: never created; `deleted`: gone for good. */
export type SourceState = Source | { deleted: true; sourceId: string } | null;

export const initialState: SourceState = null;

export const liveSource = (state: SourceState): Source | null => (state && !('deleted' in state) ? state : null);

export const evolve = (state: SourceState, event: SourceEvent): SourceState => {
  const source = liveSource(state);
  switch (event.type) {
    case 'SourceCreated': {
      const { at, ...rest } = event.data;
      return { ...rest, createdAt: at, updatedAt: at };
    }
    case 'SourceUpdated':
      return source && { ...source, ...event.data.changes, updatedAt: event.data.at };
    case 'SourceDeleted':
      return { deleted: true, sourceId: event.data.sourceId };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
};
