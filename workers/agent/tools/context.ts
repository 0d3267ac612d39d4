// What a tool handler may use: the turn's scope and market, the catalogue reads, the cart as sent,
// and `emit` to put something on the shopper's screen. Handlers never take an organization, a
// dataset or a price from the model's arguments: those come from here.
import type { Kysely } from 'kysely';
import type { AgentEvent } from '../../../domain/agent/stream-events.js';
import type { ShownProduct } from '../../../domain/agent/products.js';
import type { ToolArguments, ToolName } from '../../../domain/agent/tools.js';
import type { Embedder } from '../../../infra/models/port.js';
import type { SearchMemory } from '../../../projections/search-memory.js';
import type { TurnScope } from '../scope.js';

export interface ToolDeps {
  db: Kysely<any>;
  search: { memory: SearchMemory; embedder: Embedder | null };
  scope: TurnScope;
  /** Upper-case ISO 3166-1 alpha-2, or null. */
  country: string | null;
  /** The shopper's currency (TurnContext.currency). */
  currency: string;
  /** The cart as the request sent it (null: no cart tools). */
  cart: unknown;
  sessionId: string | null;
  serverSecret: string;
  baseUrl: string;
  now(): Date;
  /** Sends an event to the shopper (after this call's `tool_called`, before its `tool_output`). */
  emit(event: AgentEvent): void;
  /** Products priced during this turn, by itemId: a product looked up and then shown is priced once. */
  seen: Map<string, ShownProduct>;
  /** Products put on screen this turn, in order (recorded on the session). */
  shown: ShownProduct[];
  signal: AbortSignal;
}

/** A failure the model should hear about (bad ids, an unusable scope, a cart it cannot read): it becomes the tool's `{ error }` output. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export type ToolHandler<N extends ToolName> = (args: ToolArguments<N>, deps: ToolDeps, call: { callId: string }) => Promise<unknown>;

/** The catalogue cannot be used this turn: the reason, for every catalogue tool. */
export function requireCatalogue(deps: ToolDeps): void {
  if (deps.scope.error) throw new ToolError(deps.scope.error);
}
