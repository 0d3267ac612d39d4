import type { Decider } from '../decider.js';
import { decide, decideLedger, type ChatCommand, type ChatLedgerCommand } from './decide.js';
import { chatLedgerStream, chatStream, type ChatEvent, type ChatLedgerEvent } from './events.js';
import { evolve, evolveLedger, initialLedger, initialState, type ChatLedgerState, type ChatState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './messages.js';
export * from './state.js';

export const chatDecider: Decider<ChatCommand, ChatEvent, ChatState> = {
  initialState,
  evolve,
  decide,
  streamId: (command) => chatStream(command.data.chatId),
};

export const chatLedgerDecider: Decider<ChatLedgerCommand, ChatLedgerEvent, ChatLedgerState> = {
  initialState: initialLedger,
  evolve: evolveLedger,
  decide: decideLedger,
  streamId: (command) => chatLedgerStream(command.data.organizationId),
};
