// The events of a v1 chat (`chat-<chatId>`) and of an organization's chat ledger
// (`chats-of-<organizationId>`, which counts its chats so the bound is decided from a stream).
// Whatever a shopper or the stylist wrote travels sealed (AES-256-GCM under the chat's own key,
// infra/crypto/chat-keys.ts): deleting the chat destroys the key, and the events keep only that the
// chat existed, when, how many messages it held, and that it was deleted. Pure types.

/** Text sealed under a chat's key: base64 of the nonce, the ciphertext and the tag. */
export interface Sealed {
  iv: string;
  data: string;
  tag: string;
}

export type ChatVia = 'message' | 'create';

/** How a reply ended: the status it shows, or `failed` (its placeholder is taken out). */
export type ReplyOutcome = 'resolved' | 'needs_clarification' | 'failed';

export interface ChatCreated {
  type: 'ChatCreated';
  data: { chatId: string; organizationId: string; via: ChatVia; at: string };
}

export interface ChatMessagesAppended {
  type: 'ChatMessagesAppended';
  data: {
    chatId: string;
    organizationId: string;
    /** The messages appended, sealed: a JSON array of ChatMessage. */
    messages: Sealed;
    count: number;
    characters: number;
    /** Set when the last message appended is a reply being written by that turn. */
    turnId: string | null;
    at: string;
  };
}

export interface ChatReplyFinished {
  type: 'ChatReplyFinished';
  data: {
    chatId: string;
    organizationId: string;
    turnId: string;
    /** Where the reply's placeholder stands in the chat's messages. */
    index: number;
    outcome: ReplyOutcome;
    /** The reply, sealed (a ChatMessage); null when the turn failed. */
    message: Sealed | null;
    /** The agent's own record of the turn (its tool calls and results), sealed, for the next turn's history; null when failed. */
    trail: Sealed | null;
    characters: number;
    at: string;
  };
}

export interface ChatMessagesReplaced {
  type: 'ChatMessagesReplaced';
  data: { chatId: string; organizationId: string; messages: Sealed; count: number; characters: number; at: string };
}

export interface ChatDeleted {
  type: 'ChatDeleted';
  data: { chatId: string; organizationId: string; at: string };
}

export type ChatEvent = ChatCreated | ChatMessagesAppended | ChatReplyFinished | ChatMessagesReplaced | ChatDeleted;

export interface ChatOpened {
  type: 'ChatOpened';
  data: { organizationId: string; chatId: string; at: string };
}

export interface ChatClosed {
  type: 'ChatClosed';
  data: { organizationId: string; chatId: string; at: string };
}

export type ChatLedgerEvent = ChatOpened | ChatClosed;

export const chatStream = (chatId: string): string => `chat-${chatId}`;
export const chatLedgerStream = (organizationId: string): string => `chats-of-${organizationId}`;
