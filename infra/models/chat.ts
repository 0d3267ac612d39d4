// The ChatModel port of DESIGN.md: what the agent's turn loop calls, once per model call (at most
// ten a turn). Adapters: the built-in offline stylist (offline-stylist.ts, the embedded default)
// and any OpenAI-compatible server (openai-chat.ts). The loop does not know which one runs.
//
// A call streams what the model produces: text as it is written, reasoning summaries where the
// model gives them, and tool calls (several in one call are parallel calls). A call that cannot be
// made (the server stays down after the adapter's retries, or times out) throws ModelUnavailable;
// the turn then ends with an `error` event.
import type { TurnContext } from '../../domain/agent/context.js';
import type { HistoryEntry } from '../../domain/agent/messages.js';
import type { ThinkingLevel } from '../../domain/agent/request.js';
import type { ToolSpec } from '../../domain/agent/tools.js';

export interface ChatModelRequest {
  context: TurnContext;
  /** The system prompt written from `context` (domain/agent/context.ts `instructions`). */
  instructions: string;
  /** The whole conversation: what the client sent, then this turn's calls and results so far. */
  messages: HistoryEntry[];
  tools: ToolSpec[];
  thinking: ThinkingLevel;
  /** Aborted when the shopper goes away or the turn's deadline passes: stop at once. */
  signal: AbortSignal;
}

export type ModelOutput =
  | { type: 'text_delta'; delta: string }
  /** A fragment of a reasoning summary. */
  | { type: 'thinking_delta'; delta: string }
  /** The summary being written is complete. */
  | { type: 'thinking_done' }
  /** A finished tool call; `arguments` is JSON text as the model wrote it (possibly malformed). */
  | { type: 'tool_call'; callId: string; name: string; arguments: string };

export interface ChatModel {
  /** For logs and the turn's record, e.g. `offline-stylist` or the model's name. */
  readonly name: string;
  /** The `thinking` levels this model takes (the route's 422 names them). */
  readonly thinkingLevels: readonly ThinkingLevel[];
  respond(request: ChatModelRequest): AsyncIterable<ModelOutput>;
}

/** The model could not be reached or kept failing; the message is for the log, not the shopper. */
export class ModelUnavailable extends Error {
  override name = 'ModelUnavailable';
}
