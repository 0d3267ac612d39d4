import type { Decider } from '../decider.js';
import { decide, type SyncJobCommand } from './decide.js';
import { syncJobStream, type SyncJobEvent } from './events.js';
import { evolve, initialState, type SyncJobStreamState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';
export * from './terms.js';

export const syncJobDecider: Decider<SyncJobCommand, SyncJobEvent, SyncJobStreamState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => syncJobStream(command.data.jobId),
};
