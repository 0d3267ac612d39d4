// The history `done` hands back (document 2: replay-ready, sent back verbatim as `messages` with
// the next user message appended). A conversation grows by a user message, the tool calls and
// results, and the answer every turn, and a request is refused past the bounds of messages.ts, so
// the history returned is kept well inside them: while it is over HISTORY_BUDGET, the oldest
// whole turns (a user message and everything up to the next one) are dropped. The newest turns,
// which "cheaper" and "in blue" read, always stay. Pure.
import { AGENT_LIMITS, isUser, textLength, userImages, type HistoryEntry } from './messages.js';

export const HISTORY_BUDGET = {
  messages: Math.floor(AGENT_LIMITS.messages * 0.6),
  characters: Math.floor(AGENT_LIMITS.characters * 0.6),
  images: 2,
} as const;

const imagesOf = (entry: HistoryEntry): number => (isUser(entry) ? userImages(entry).length : 0);

export function compactHistory(entries: readonly HistoryEntry[]): HistoryEntry[] {
  let kept = [...entries];
  const over = () =>
    kept.length > HISTORY_BUDGET.messages ||
    kept.reduce((n, e) => n + textLength(e), 0) > HISTORY_BUDGET.characters ||
    kept.reduce((n, e) => n + imagesOf(e), 0) > HISTORY_BUDGET.images;
  while (over()) {
    // The start of the second turn: everything before it is the oldest turn.
    const next = kept.findIndex((entry, i) => i > 0 && isUser(entry));
    if (next <= 0) break;
    kept = kept.slice(next);
  }
  return kept;
}
