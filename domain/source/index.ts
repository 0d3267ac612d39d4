import type { Decider } from '../decider.js';
import { decide, type SourceCommand } from './decide.js';
import { sourceStream, type SourceEvent } from './events.js';
import { evolve, initialState, type SourceState } from './state.js';

export * from './decide.js';
export * from './diff.js';
export * from './events.js';
export * from './fields.js';
export * from './markets.js';
export * from './state.js';
export * from './schedule.js';

export const sourceDecider: Decider<SourceCommand, SourceEvent, SourceState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => sourceStream(command.data.sourceId),
};
