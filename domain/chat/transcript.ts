// A chat's messages rebuilt from its events, once their sealed contents are opened: the read model
// keeps the messages, an agent turn also reads each reply's trail (the tool calls and results the
// stylist made for it) to continue the conversation as v2 would. Pure: opening is the caller's.
import type { HistoryEntry } from '../agent/messages.js';
import type { ChatEvent } from './events.js';
import type { ChatMessage } from './messages.js';

export interface TranscriptEntry {
  message: ChatMessage;
  /** The agent's entries for this reply (v2 history), when the service wrote it. */
  trail: HistoryEntry[] | null;
}

/** What a sealed field of an event holds, opened; undefined when the chat's key is gone. */
export interface OpenedContents {
  messages?: ChatMessage[];
  message?: ChatMessage;
  trail?: HistoryEntry[];
}

/** `entries` after `event` (a new array; the entries themselves are shared). */
export function applyToTranscript(entries: readonly TranscriptEntry[], event: ChatEvent, opened: OpenedContents): TranscriptEntry[] {
  switch (event.type) {
    case 'ChatCreated':
      return [];
    case 'ChatMessagesAppended':
      return [...entries, ...(opened.messages ?? []).map((message) => ({ message, trail: null }))];
    case 'ChatReplyFinished': {
      const { index, outcome } = event.data;
      if (index < 0 || index >= entries.length) return [...entries];
      if (outcome === 'failed') return entries.filter((_, i) => i !== index);
      if (!opened.message) return [...entries];
      const next = [...entries];
      next[index] = { message: opened.message, trail: opened.trail ?? null };
      return next;
    }
    case 'ChatMessagesReplaced':
      return (opened.messages ?? []).map((message) => ({ message, trail: null }));
    case 'ChatDeleted':
      return [];
    default: {
      const unknownEvent: never = event;
      void unknownEvent;
      return [...entries];
    }
  }
}
