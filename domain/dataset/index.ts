import type { Decider } from '../decider.js';
import { decide, type DatasetCommand } from './decide.js';
import { datasetStream, type DatasetEvent } from './events.js';
import { evolve, initialState, type DatasetState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './fields.js';
export * from './state.js';

export const datasetDecider: Decider<DatasetCommand, DatasetEvent, DatasetState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => datasetStream(command.data.datasetId),
};
