// The v1 chat's rules, decided from its stream: a chat belongs to one organization, takes messages
// until it is full or deleted, and records each reply into the place its turn reserved. Messages
// arrive sealed (the command layer seals them: the decider never sees a shopper's words), with
// their count and characters. A second organization's id, a deleted chat and a missing chat all
// answer the same 404, so no caller learns that another organization's chat exists. Pure.
import { Invalid, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { ChatEvent, ChatLedgerEvent, ChatVia, ReplyOutcome, Sealed } from './events.js';
import { CHAT_LIMITS, chatMessages } from './messages.js';
import type { ChatFacts, ChatLedgerState, ChatState } from './state.js';

/** Messages as the command layer hands them over: sealed, counted and measured. */
export interface SealedMessages {
  messages: Sealed;
  count: number;
  characters: number;
}

export type ChatCommand =
  | { type: 'StartChat'; data: { chatId: string; organizationId: string; via: ChatVia; first: (SealedMessages & { turnId: string | null }) | null } }
  | { type: 'AppendTurn'; data: { chatId: string; organizationId: string; turnId: string } & SealedMessages }
  | { type: 'FinishReply'; data: { chatId: string; organizationId: string; turnId: string; outcome: ReplyOutcome; message: Sealed | null; trail: Sealed | null; characters: number } }
  | { type: 'ReplaceMessages'; data: { chatId: string; organizationId: string } & SealedMessages }
  | { type: 'DeleteChat'; data: { chatId: string; organizationId: string } };

export type ChatLedgerCommand =
  | { type: 'OpenChat'; data: { organizationId: string; chatId: string; maxChats: number } }
  | { type: 'CloseChat'; data: { organizationId: string; chatId: string } };

/** The chat as its organization sees it: a missing, foreign or deleted chat is the same 404. */
export function ownChat(state: ChatState, organizationId: string): ChatFacts {
  if (!state || state.deleted || state.organizationId !== organizationId) throw new NotFound(chatMessages.notFound);
  return state;
}

/** The bounds of a chat that would hold `count` messages of `characters` characters. */
function checkRoom(count: number, characters: number): void {
  if (count > CHAT_LIMITS.messages) throw new Invalid(chatMessages.full);
  if (characters > CHAT_LIMITS.characters) throw new Invalid(chatMessages.fullText);
}

export const decide = (command: ChatCommand, state: ChatState, meta: CommandMeta): ChatEvent[] => {
  const at = meta.now;
  switch (command.type) {
    case 'StartChat': {
      const { chatId, organizationId, via, first } = command.data;
      // The id is new for every chat; finding it taken means this very request ran before.
      if (state) {
        if (state.organizationId === organizationId) return [];
        throw new NotFound(chatMessages.notFound);
      }
      const created: ChatEvent = { type: 'ChatCreated', data: { chatId, organizationId, via, at } };
      if (!first || first.count === 0) return [created];
      checkRoom(first.count, first.characters);
      return [created, { type: 'ChatMessagesAppended', data: { chatId, organizationId, messages: first.messages, count: first.count, characters: first.characters, turnId: first.turnId, at } }];
    }
    case 'AppendTurn': {
      const { chatId, organizationId, turnId, messages, count, characters } = command.data;
      const chat = ownChat(state, organizationId);
      if (turnId in chat.pending) return [];
      checkRoom(chat.count + count, chat.characters + characters);
      return [{ type: 'ChatMessagesAppended', data: { chatId, organizationId, messages, count, characters, turnId, at } }];
    }
    case 'FinishReply': {
      const { chatId, organizationId, turnId, outcome, message, trail, characters } = command.data;
      // Deleted, or its messages replaced while the reply was written: the reply has no place left.
      if (!state || state.deleted || state.organizationId !== organizationId || !(turnId in state.pending)) return [];
      const index = state.pending[turnId]!;
      if (outcome === 'failed') return [{ type: 'ChatReplyFinished', data: { chatId, organizationId, turnId, index, outcome, message: null, trail: null, characters: 0, at } }];
      return [{ type: 'ChatReplyFinished', data: { chatId, organizationId, turnId, index, outcome, message, trail, characters, at } }];
    }
    case 'ReplaceMessages': {
      const { chatId, organizationId, messages, count, characters } = command.data;
      ownChat(state, organizationId);
      checkRoom(count, characters);
      return [{ type: 'ChatMessagesReplaced', data: { chatId, organizationId, messages, count, characters, at } }];
    }
    case 'DeleteChat': {
      const { chatId, organizationId } = command.data;
      ownChat(state, organizationId);
      return [{ type: 'ChatDeleted', data: { chatId, organizationId, at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};

export const decideLedger = (command: ChatLedgerCommand, state: ChatLedgerState, meta: CommandMeta): ChatLedgerEvent[] => {
  const at = meta.now;
  switch (command.type) {
    case 'OpenChat': {
      const { organizationId, chatId, maxChats } = command.data;
      if (state.open.has(chatId)) return [];
      if (state.open.size >= maxChats) throw new Invalid(chatMessages.tooManyChats(maxChats));
      return [{ type: 'ChatOpened', data: { organizationId, chatId, at } }];
    }
    case 'CloseChat': {
      const { organizationId, chatId } = command.data;
      return state.open.has(chatId) ? [{ type: 'ChatClosed', data: { organizationId, chatId, at } }] : [];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
