// The next step of a turn: from what the shopper asked (intent.ts) and what this turn's tools have
// answered so far, the calls to make now or the final reply. The turn loop calls the model again
// after every batch of calls, so each plan is written as "what is still missing": a call already
// made with the same arguments is not made again, and its answer decides what comes next. Pure.
import type { ToolName } from '../tools.js';
import type { TurnContext } from '../context.js';
import { canonical, type Step, type Turn } from './history.js';
import type { Intent } from './intent.js';

export interface ToolCallPlan {
  name: ToolName;
  arguments: Record<string, unknown>;
}

export interface StylistStep {
  /** One line on how the request was read or what the step does (streamed at thinking medium/high). */
  thinking?: string;
  /** The reply; the turn ends when a step makes no call. */
  text?: string;
  toolCalls: ToolCallPlan[];
}

export interface Plan {
  context: TurnContext;
  turns: Turn[];
  /** This turn's calls and their answers. */
  steps: Step[];
  tools: ReadonlySet<string>;
  currency: string;
}

export const call = (name: ToolName, args: Record<string, unknown>): ToolCallPlan => ({ name, arguments: args });

/** The call of this turn made with these arguments, if any. */
export const made = (plan: Plan, name: ToolName, args: Record<string, unknown>): Step | undefined => {
  const key = canonical(args);
  return plan.steps.find((s) => s.name === name && s.key === key);
};

export const offers = (plan: Plan, name: ToolName) => plan.tools.has(name);

export const reply = (text: string, thinking?: string): StylistStep => ({ text, toolCalls: [], ...(thinking ? { thinking } : {}) });

/** Calls not made yet, of those a step needs; the answers of those made are read by the caller. */
export function missing(plan: Plan, calls: ToolCallPlan[]): ToolCallPlan[] {
  return calls.filter((c) => !made(plan, c.name, c.arguments));
}

/** Said once, with the first products of a conversation over several stores. */
export function severalStoresNote(plan: Plan): string {
  const first = !plan.turns.slice(0, -1).some((t) => t.steps.some((s) => s.name === 'show_products' || s.name === 'compose_looks'));
  return plan.context.severalStores && first ? "I represent several stores, so I'll name each product's store. " : '';
}

/** An intent's plan, chosen by its kind; the turn's own files hold each. */
export type Planner = (plan: Plan, intent: Intent) => StylistStep;
