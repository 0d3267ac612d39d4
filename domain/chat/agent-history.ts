// What the stylist is sent for a v1 turn: the chat's earlier messages as v2 history (document 2's
// message shapes) followed by the shopper's new message. A reply the service wrote brings back its
// trail (the tool calls and results behind it), so "cheaper" or "in blue" builds on the products
// it showed exactly as in v2; a reply written by a merchant (replaced messages) is its text.
// System messages have no v2 shape and image links no bytes: both stay out. When the chat is
// longer than a v2 conversation may be (AGENT_LIMITS), its oldest turns are left out. Pure.
import { AGENT_LIMITS, assistantMessage, textLength, type HistoryEntry } from '../agent/messages.js';
import { messageText, statusOf } from './messages.js';
import type { TranscriptEntry } from './transcript.js';

const cut = (text: string) => text.slice(0, AGENT_LIMITS.text);

/** What stands for a shopper message that held only image links (v2 history carries image bytes, not links). */
export const IMAGES_ONLY = '(a photo)';

/** Entries of each turn: a shopper message and what answered it. */
function turnsOf(transcript: readonly TranscriptEntry[]): HistoryEntry[][] {
  const turns: HistoryEntry[][] = [];
  for (const { message, trail } of transcript) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      // A message of images only still starts a turn: its reply must not join the turn before.
      const text = messageText(message).trim() || IMAGES_ONLY;
      turns.push([{ role: 'user', content: cut(text) }]);
      continue;
    }
    const turn = turns.at(-1);
    if (!turn) continue;
    if (statusOf(message)?.generating) continue;
    if (trail) turn.push(...trail);
    else {
      const text = messageText(message);
      if (text.trim()) turn.push(assistantMessage(cut(text)));
    }
  }
  return turns;
}

/** The v2 `messages` of a v1 turn: as much of the chat as fits, newest turns first, then `newMessage`. */
export function agentMessages(transcript: readonly TranscriptEntry[], newMessage: string): HistoryEntry[] {
  const last: HistoryEntry = { role: 'user', content: cut(newMessage) };
  let room = { messages: AGENT_LIMITS.messages - 1, characters: AGENT_LIMITS.characters - textLength(last) };
  const kept: HistoryEntry[][] = [];
  const turns = turnsOf(transcript);
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    const characters = turn.reduce((sum, entry) => sum + textLength(entry), 0);
    if (turn.length > room.messages || characters > room.characters) break;
    room = { messages: room.messages - turn.length, characters: room.characters - characters };
    kept.unshift(turn);
  }
  return [...kept.flat(), last];
}
