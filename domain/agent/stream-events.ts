// The Server-Sent Events of POST /v2/agent/chat (document 2, "Events"), with the payloads document
// 2 leaves open defined here (docs/storefront.md, "Every event and its payload"). Each frame is
// `event: <name>` / `data: <json>` / blank line; the stream ends with `done` or `error`.
//
// Order: events arrive in the order the agent produced them. A tool's `tool_called` comes before
// what the tool puts on screen (`search_results`, `looks`, `question`, `suggestions`,
// `cart_action`), which comes before its `tool_output`; `done` or `error` is always last. Pure types.
import type { HistoryEntry } from './messages.js';
import type { ShownProduct } from './products.js';

export interface TextDelta {
  delta: string;
}

export interface ToolCalled {
  callId: string;
  name: string;
  /** The arguments as the model wrote them, parsed; the raw text when they are not JSON. */
  arguments: unknown;
}

export interface ToolOutput {
  callId: string;
  name: string;
  /** false when the tool failed (bad arguments, a scope it cannot use, a cart it cannot read); the model is told why. */
  ok: boolean;
  /** What the model was told, parsed (JSON). */
  output: unknown;
  /** The reason, when ok is false. */
  error?: string;
  ms: number;
}

export interface SearchResults {
  kind: 'list' | 'outfit';
  label: string;
  results: ShownProduct[];
}

export interface Look {
  label: string;
  items: ShownProduct[];
  /** For POST /v2/agent/looks: the store's picture rules and house basics, and the look's own notes. */
  customInstructions: string;
  /** House basics the look is styled with that the store does not sell (shown as "not sold here"). */
  basics: Array<{ text: string; slot: string }>;
}

export interface Looks {
  looks: Look[];
}

export interface QuestionOption {
  label: string;
}

export interface Question {
  callId: string;
  question: string;
  options: QuestionOption[];
}

export interface Suggestions {
  suggestions: string[];
}

export type CartActionKind = 'read' | 'add' | 'swap' | 'quantity' | 'remove';

export interface CartActionProduct {
  itemId: string;
  datasetId: string;
  title: string;
  variantId: string;
  variant: string;
  sku: string;
  /** A product photo (its `url` on this service), for the receipt. */
  image: string | null;
}

export interface CartAction {
  action: CartActionKind;
  /** The cart line acted on (`quantity`, `swap`, `remove`); null for `add` and `read`. */
  lineKey: string | null;
  /** The product put in the cart (`add`, `swap`); null otherwise. */
  product: CartActionProduct | null;
  /** The line's quantity after the action (0 for `remove`); null for `read`. */
  quantity: number | null;
  /** Unit price in the shopper's market (`add`, `swap`); else the line's unit price from the snapshot, when known. */
  price: number | null;
  currency: string | null;
  compareAtPrice: number | null;
  /** Signed, bound to the session, item, variant and expiry (`add`, `swap`); null without `sessionId` and for other actions. */
  intent: string | null;
  /** When the intent stops being accepted (ISO 8601); null without an intent. */
  intentExpiresAt: string | null;
  /** `read`: what the snapshot held. */
  cart?: { itemCount: number; total: number; currency: string; lines: number };
}

export interface ThinkingSummary {
  /** One whole reasoning summary, after its `thinking_delta`s. */
  text: string;
}

export interface ThinkingDelta {
  delta: string;
}

/** Between two reasoning summaries of one turn. */
export type ThinkingBreak = Record<string, never>;

export interface Done {
  turnId: string;
  /** The turn's final text: everything the agent wrote this turn. */
  text: string;
  /** The conversation sent plus this turn's entries: send it back as `messages`, with the next user message appended. */
  history: HistoryEntry[];
  usage: { modelCalls: number; toolCalls: number; ms: number };
}

export interface ErrorEvent {
  error: string;
}

export interface AgentEventPayloads {
  text_delta: TextDelta;
  tool_called: ToolCalled;
  tool_output: ToolOutput;
  search_results: SearchResults;
  looks: Looks;
  question: Question;
  suggestions: Suggestions;
  cart_action: CartAction;
  thinking: ThinkingSummary;
  thinking_delta: ThinkingDelta;
  thinking_break: ThinkingBreak;
  done: Done;
  error: ErrorEvent;
}

export type AgentEventName = keyof AgentEventPayloads;

export type AgentEvent = { [K in AgentEventName]: { event: K; data: AgentEventPayloads[K] } }[AgentEventName];

export const AGENT_EVENT_NAMES: readonly AgentEventName[] = [
  'text_delta',
  'tool_called',
  'tool_output',
  'search_results',
  'looks',
  'question',
  'suggestions',
  'cart_action',
  'thinking',
  'thinking_delta',
  'thinking_break',
  'done',
  'error',
];

export const isFinal = (event: AgentEvent): boolean => event.event === 'done' || event.event === 'error';

/** What a shopper is told when a turn fails after the stream opened (the cause goes to the log). */
export const AGENT_FAILURES = {
  model: 'The stylist could not answer right now. Please try again.',
  worker: 'The stylist stopped answering. Please try again.',
  busy: 'The stylist is busy. Please try again in a moment.',
  timeout: 'The stylist took too long to answer. Please try again.',
  internal: 'Internal server error.',
} as const;
