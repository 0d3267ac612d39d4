import type { Decider } from '../decider.js';
import { decide, type ApiKeyCommand } from './decide.js';
import { apiKeyStream, type ApiKeyEvent } from './events.js';
import { evolve, initialState, type ApiKeyState } from './state.js';

export * from './access.js';
export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => apiKeyStream(command.data.keyId),
};
