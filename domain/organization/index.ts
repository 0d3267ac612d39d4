import type { Decider } from '../decider.js';
import { decide, type OrganizationCommand } from './decide.js';
import { organizationStream, type OrganizationEvent } from './events.js';
import { evolve, initialState, type OrganizationState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => organizationStream(command.data.organizationId),
};
