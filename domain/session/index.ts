import type { Decider } from '../decider.js';
import { decide, type SessionCommand } from './decide.js';
import { sessionStream, type SessionEvent } from './events.js';
import { evolve, initialState, type SessionState } from './state.js';

export * from './admission.js';
export * from './currencies.js';
export * from './decide.js';
export * from './events.js';
export * from './money.js';
export * from './state.js';

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => sessionStream(command.data.sessionId),
};
