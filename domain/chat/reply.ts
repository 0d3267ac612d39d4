// A v1 reply written from a v2 agent turn: the same turn, told in document 1's three parts. As the
// turn's events arrive, its text streams as `text_delta`, what it puts on screen becomes slots
// (`slots`, the whole list each time it grows), and at the end come `status` and `done`:
//   search_results (list)    → a search slot: the lookup's query and filters, the products shown
//   search_results (outfit)  → an outfit_compositions slot of the products worn together
//   looks                    → an outfit_compositions slot per look
//   question                 → status needs_clarification, the slots emptied, and the question with
//                              its options written into the text (v1 has no question card)
// Suggestions, cart actions, tool events and thinking have no v1 shape and are left out. Pure.
import { v5 as uuidv5 } from 'uuid';
import { COLOR_FAMILIES } from '../catalogue/vocabulary.js';
import type { HistoryEntry } from '../agent/messages.js';
import type { AgentEvent, Done, Look, SearchResults } from '../agent/stream-events.js';
import type { ShownProduct } from '../agent/products.js';
import { assistantTurn, type ChatMessage, type ChatSlot, type ChatStatus, type SearchFilters, type SlotResult } from './messages.js';

// Namespace of slot ids derived from a turn id (uuid v5): the same turn names its slots the same way.
const SLOT_ID_NAMESPACE = '6f1d2b8e-4a7c-4e19-9c3d-0b5a7e2f8d41';

export type ChatStreamEvent =
  | { event: 'text_delta'; data: { delta: string } }
  | { event: 'slots'; data: { slots: ChatSlot[] } }
  | { event: 'status'; data: { status: ChatStatus } }
  | { event: 'done'; data: { chatId: string; message: ChatMessage } }
  | { event: 'error'; data: { error: string } };

export const CHAT_STREAM_EVENTS = ['text_delta', 'slots', 'status', 'done', 'error'] as const;

export interface FinishedReply {
  message: ChatMessage;
  status: ChatStatus;
  /** The turn's own v2 entries (after the messages it was sent), for the next turn's history. */
  trail: HistoryEntry[];
  /** Characters of text the reply adds to the chat. */
  characters: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
const amount = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A lookup's arguments as document 1's search filters: a colour family is a filter, a shade a boost. */
export function filtersOf(args: Record<string, unknown>): SearchFilters {
  const colour = text(args.color)?.toLowerCase() ?? null;
  const family = colour && (COLOR_FAMILIES as readonly string[]).includes(colour) ? colour : null;
  return {
    fit: null,
    pattern: null,
    material: null,
    color_family: family,
    color_rgb: null,
    family: text(args.family),
    exclude_terms: [],
    boost_terms: [...(colour && !family ? [colour] : []), ...(args.onSale === true ? ['sale'] : [])],
    minPrice: amount(args.minPrice),
    maxPrice: amount(args.maxPrice),
  };
}

const resultsOf = (products: readonly ShownProduct[]): SlotResult[] =>
  products.map((shown, displayOrder) => ({ itemId: shown.itemId, description: shown.product.name, displayOrder }));

/** The garment slot most of the products fill (the first one's on a tie). */
const commonSlot = (products: readonly ShownProduct[]): string => {
  const counts = new Map<string, number>();
  for (const shown of products) counts.set(shown.metadata.slot, (counts.get(shown.metadata.slot) ?? 0) + 1);
  let best = '';
  for (const [slot, count] of counts) if (count > (counts.get(best) ?? 0)) best = slot;
  return best;
};

export class ReplyBuilder {
  readonly #turnId: string;
  readonly #sentCount: number;
  #text = '';
  #slots: ChatSlot[] = [];
  #question: string | null = null;
  #lookup: Record<string, unknown> = {};

  /** `sentCount`: how many v2 messages the turn was sent (its trail is what `done.history` adds). */
  constructor(turnId: string, sentCount: number) {
    this.#turnId = turnId;
    this.#sentCount = sentCount;
  }

  #slotId(): string {
    return uuidv5(`${this.#turnId}/${this.#slots.length}`, SLOT_ID_NAMESPACE);
  }

  #searchSlot(results: SearchResults): ChatSlot {
    if (results.kind === 'outfit') return this.#outfitSlot(results.results);
    const slot = text(this.#lookup.slot) ?? commonSlot(results.results);
    return { id: this.#slotId(), type: 'search', slot, query: text(this.#lookup.query) ?? results.label, filters: filtersOf(this.#lookup), results: resultsOf(results.results) };
  }

  #outfitSlot(products: readonly ShownProduct[]): ChatSlot {
    return { id: this.#slotId(), type: 'outfit_compositions', results: resultsOf(products), compositions: products.map((shown) => shown.itemId) };
  }

  // Each slot is made and added before the next is made: a slot's id counts the slots before it.
  #addSlots(makers: ReadonlyArray<() => ChatSlot>): ChatStreamEvent[] {
    for (const make of makers) this.#slots.push(make());
    return [{ event: 'slots', data: { slots: [...this.#slots] } }];
  }

  #write(delta: string): ChatStreamEvent[] {
    if (!delta) return [];
    this.#text += delta;
    return [{ event: 'text_delta', data: { delta } }];
  }

  /** The v1 events an agent event becomes (none for most). `done` and `error` are the caller's. */
  take(event: AgentEvent): ChatStreamEvent[] {
    switch (event.event) {
      case 'text_delta':
        return this.#write(event.data.delta);
      case 'tool_called':
        if (event.data.name === 'lookup_products' && isObject(event.data.arguments)) this.#lookup = event.data.arguments;
        return [];
      case 'search_results':
        return this.#addSlots([() => this.#searchSlot(event.data)]);
      case 'looks':
        return this.#addSlots(event.data.looks.map((look: Look) => () => this.#outfitSlot(look.items)));
      case 'question': {
        this.#question = event.data.question;
        if (this.#text.includes(event.data.question)) return [];
        const options = event.data.options.map((option) => `\n- ${option.label}`).join('');
        return this.#write(`${this.#text.trim() ? '\n\n' : ''}${event.data.question}${options}`);
      }
      default:
        return [];
    }
  }

  /** The events that close the turn (`slots` emptied by a question, then `status`) and the reply to store. */
  finish(done: Done): { events: ChatStreamEvent[]; reply: FinishedReply } {
    const events: ChatStreamEvent[] = [];
    // The stream carried every word the agent wrote; `done.text` is the same words, kept when nothing streamed.
    if (!this.#text && done.text) events.push(...this.#write(done.text));
    const status: ChatStatus = this.#question ? 'needs_clarification' : 'resolved';
    if (status === 'needs_clarification' && this.#slots.length) {
      this.#slots = [];
      events.push({ event: 'slots', data: { slots: [] } });
    }
    events.push({ event: 'status', data: { status } });
    const message = assistantTurn(this.#text, this.#slots, status);
    return { events, reply: { message, status, trail: done.history.slice(this.#sentCount), characters: this.#text.length } };
  }
}
