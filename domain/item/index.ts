import type { Decider } from '../decider.js';
import { decide, type ItemCommand } from './decide.js';
import { itemStream, type ItemEvent } from './events.js';
import { evolve, initialState, type ItemAggregate } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './identity.js';
export * from './state.js';

export const itemDecider: Decider<ItemCommand, ItemEvent, ItemAggregate> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => itemStream(command.data.itemId),
};
