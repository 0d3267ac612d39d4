// What every reader of a message (the intent, the cart and the look readers) is handed. Its own
// module, so the readers and intent.ts, which calls them, do not import one another in a circle.
import type { TurnContext } from '../context.js';
import type { OnScreen, Turn } from './history.js';
import type { Reading } from './phrases.js';
import type { Wish } from './wish.js';

/** A part of what a turn asks for (the request, or an answer to a question it raised) and where its words are in the reading. */
export interface Span {
  text: string;
  start: number;
  end: number;
}

/** What every reader of a message needs: the turn, its words, what was on screen before it. */
export interface Said {
  context: TurnContext;
  turns: Turn[];
  index: number;
  reading: Reading;
  /** The request, then each answer to a question it raised, in the order said (one span for a message that answers nothing). */
  spans: Span[];
  /** What the words want; an answer's words win over the request's ("Size 5" over the sold-out 8 it answers). */
  wish: Wish;
  prev: OnScreen | null;
  depth: number;
}
