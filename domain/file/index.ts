import type { Decider } from '../decider.js';
import { decide, type FileCommand } from './decide.js';
import { fileStream, type FileEvent } from './events.js';
import { evolve, initialState, type FileState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './filename.js';
export * from './rules.js';
export * from './state.js';

export const fileDecider: Decider<FileCommand, FileEvent, FileState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => fileStream(command.data.fileId),
};
