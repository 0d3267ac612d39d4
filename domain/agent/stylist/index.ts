// The offline stylist's planner (DESIGN.md "Agent turn": rules over the shopper-word data search
// reads): given the turn's context, the conversation so far and the tools offered, the next step —
// the tool calls an LLM would make, or the final reply. Deterministic and pure: no I/O, no clock,
// no randomness; whatever it is given, it answers and never throws.
import type { ColorFamily } from '../../catalogue/vocabulary.js';
import type { TurnContext } from '../context.js';
import type { HistoryEntry } from '../messages.js';
import { isToolName, parseToolArguments } from '../tools.js';
import { readTurns } from './history.js';
import { readIntent, type Intent } from './intent.js';
import { missing, reply, type Plan, type StylistStep } from './plan.js';
import { planAbout } from './plan-about.js';
import { planCart } from './plan-cart.js';
import { planLook } from './plan-looks.js';
import { planProducts } from './plan-products.js';
import { NO_CART, planOpen, planPick, planShowcase, policyReply, THANKS, UNAVAILABLE } from './plan-talk.js';

export type { StylistStep, ToolCallPlan } from './plan.js';

export interface StylistInput {
  context: TurnContext;
  messages: HistoryEntry[];
  /** Names of the tools offered this turn (the cart tools only with a cart). */
  tools: readonly string[];
  /** Colour families of the photos in the shopper's latest message, main colour first. */
  imageColours?: readonly ColorFamily[];
}

/** More calls than any plan makes in one turn: past this, answer with what there is. */
const MAX_CALLS_PER_TURN = 16;
const FALLBACK = "Sorry — I lost my thread there. Could you tell me again what you're looking for?";

function stepFor(plan: Plan, intent: Intent): StylistStep {
  switch (intent.kind) {
    case 'unavailable':
      return reply(UNAVAILABLE, 'Reading: the catalogue cannot be searched; answering without it');
    case 'policy':
      return reply(policyReply(plan.context, intent.topic), `Reading: store question (${intent.topic}); pointing to the store's site`);
    case 'thanks':
      return reply(THANKS, 'Reading: thanks');
    case 'noCart':
      return reply(NO_CART, 'Reading: cart change, but no cart was shared');
    case 'open':
      return planOpen(plan, intent);
    case 'showcase':
      return planShowcase(plan, intent);
    case 'products':
      return planProducts(plan, intent);
    case 'look':
      return planLook(plan, intent);
    case 'cart':
      return planCart(plan, intent);
    case 'pick':
      return planPick(plan, intent);
    case 'about':
      return planAbout(plan, intent);
    default: {
      const never: never = intent;
      return never;
    }
  }
}

/** Only tools offered, with arguments their schemas accept, not already made this turn; always something to say. */
function checked(plan: Plan, step: StylistStep): StylistStep {
  const calls = missing(
    plan,
    step.toolCalls.filter((c) => plan.tools.has(c.name) && isToolName(c.name) && parseToolArguments(c.name, JSON.stringify(c.arguments)).ok),
  );
  const text = step.text?.trim();
  if (!calls.length && !text) return { ...(step.thinking ? { thinking: step.thinking } : {}), text: FALLBACK, toolCalls: [] };
  return { ...(step.thinking ? { thinking: step.thinking } : {}), ...(calls.length ? {} : { text }), toolCalls: calls };
}

export function nextStep(input: StylistInput): StylistStep {
  try {
    const turns = readTurns(input.messages);
    const context = input.context;
    const plan: Plan = {
      context,
      turns,
      steps: turns.at(-1)?.steps ?? [],
      tools: new Set(Array.isArray(input.tools) ? input.tools : []),
      currency: typeof context.currency === 'string' && context.currency ? context.currency : 'USD',
    };
    if (plan.steps.length >= MAX_CALLS_PER_TURN) return { text: 'Here is what I found so far — tell me if you would like me to look further.', toolCalls: [] };
    const intent = readIntent(context, turns, Array.isArray(input.imageColours) ? input.imageColours : []);
    return checked(plan, stepFor(plan, intent));
  } catch {
    return { text: FALLBACK, toolCalls: [] };
  }
}
