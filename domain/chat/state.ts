import type { ChatEvent, ChatLedgerEvent } from './events.js';

export interface ChatFacts {
  chatId: string;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  /** Messages the chat holds, and their characters of text (counted when written: the text itself is sealed). */
  count: number;
  characters: number;
  /** Replies being written: turn id → index of the reply's placeholder. */
  pending: Record<string, number>;
}

export type ChatState = ChatFacts | null;

export const initialState: ChatState = null;

export const evolve = (state: ChatState, event: ChatEvent): ChatState => {
  switch (event.type) {
    case 'ChatCreated': {
      const { chatId, organizationId, at } = event.data;
      return { chatId, organizationId, createdAt: at, updatedAt: at, deleted: false, count: 0, characters: 0, pending: {} };
    }
    case 'ChatMessagesAppended': {
      if (!state) return state;
      const { count, characters, turnId, at } = event.data;
      const pending = turnId ? { ...state.pending, [turnId]: state.count + count - 1 } : state.pending;
      return { ...state, count: state.count + count, characters: state.characters + characters, pending, updatedAt: at };
    }
    case 'ChatReplyFinished': {
      if (!state) return state;
      const { turnId, index, outcome, characters, at } = event.data;
      const { [turnId]: _finished, ...others } = state.pending;
      if (outcome !== 'failed') return { ...state, characters: state.characters + characters, pending: others, updatedAt: at };
      // A failed reply's placeholder is taken out: the replies after it move up one.
      const pending = Object.fromEntries(Object.entries(others).map(([turn, at]) => [turn, at > index ? at - 1 : at]));
      return { ...state, count: state.count - 1, pending, updatedAt: at };
    }
    case 'ChatMessagesReplaced': {
      if (!state) return state;
      const { count, characters, at } = event.data;
      return { ...state, count, characters, pending: {}, updatedAt: at };
    }
    case 'ChatDeleted':
      return state ? { ...state, deleted: true, count: 0, characters: 0, pending: {}, updatedAt: event.data.at } : state;
    default: {
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};

/**
 * An organization's chats that are not deleted. A fold copies the initial set once and then adds
 * to its own copy (a ledger holds up to tens of thousands of chats, and a copy per event would
 * make the fold quadratic): a caller keeps the latest state of a fold, never an earlier one.
 */
export interface ChatLedgerState {
  open: ReadonlySet<string>;
  /** The set belongs to this fold and may be changed in place. */
  owned: boolean;
}

export const initialLedger: ChatLedgerState = { open: new Set<string>(), owned: false };

export const evolveLedger = (state: ChatLedgerState, event: ChatLedgerEvent): ChatLedgerState => {
  const open = state.owned ? (state.open as Set<string>) : new Set(state.open);
  switch (event.type) {
    case 'ChatOpened':
      open.add(event.data.chatId);
      return { open, owned: true };
    case 'ChatClosed':
      open.delete(event.data.chatId);
      return { open, owned: true };
    default: {
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
