// A hand-written store for the offline stylist's tests: a few dozen product briefs in the shape
// lookup_products returns, and tools that answer over them the way the agent's tool handlers do
// (filters as hard filters, the query's words for ranking), so a test can play whole turns:
// the planner's calls go in, FunctionCallResult texts in the shapes of tools.ts come back.
import type { TurnContext } from '../../domain/agent/context.js';
import { functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import type { ProductBrief } from '../../domain/agent/products.js';
import { nextStep, type StylistStep } from '../../domain/agent/stylist/index.js';
import { toolSpecs } from '../../domain/agent/tools.js';
import { findColours } from '../../domain/catalogue/colours.js';
import { understandQuery } from '../../domain/search/index.js';
import { normalSize } from '../../domain/search/sizes.js';

type Row = [id: string, name: string, slot: string, family: string, colour: string, gender: string, price: number, sizes?: string, pattern?: string];

const ROWS: Row[] = [
  ['d1', 'Aria Wrap Dress', 'full body', 'dress', 'red', 'womens', 64, 'XS,S,M,L'],
  ['d2', 'Lila Midi Dress', 'full body', 'dress', 'red', 'womens', 72, 'S,M'],
  ['d3', 'Poppy Slip Dress', 'full body', 'dress', 'red', 'womens', 95, 'S,M,L'],
  ['d4', 'Cora Floral Midi Dress', 'full body', 'dress', 'multicolour', 'womens', 89, 'S,M,L', 'floral'],
  ['d5', 'Nina Linen Dress', 'full body', 'dress', 'blue', 'womens', 58, 'S,M,L'],
  ['d6', 'Vera Shirt Dress', 'full body', 'dress', 'navy', 'womens', 79, 'M,L'],
  ['d7', 'Elle Knit Dress', 'full body', 'dress', 'black', 'womens', 110, 'S,M,L'],
  ['d8', 'Rosa Satin Dress', 'full body', 'dress', 'burgundy', 'womens', 120, 'S,M'],
  ['t1', 'Classic Cotton Tee', 't shirt', 'top', 'white', 'unisex', 20, 'S,M,L,XL'],
  ['t2', 'Oxford Shirt', 'top', 'shirt', 'blue', 'mens', 55, 'S,M,L,XL'],
  ['t3', 'Linen Camp Shirt', 'top', 'shirt', 'white', 'mens', 60, 'M,L'],
  ['t4', 'Silk Blouse', 'top', 'blouse', 'ivory', 'womens', 70, 'XS,S,M'],
  ['t5', 'Wool Crew Sweater', 'top', 'sweater', 'grey', 'unisex', 85, 'S,M,L'],
  ['t6', 'Striped Breton Top', 'top', 'top', 'navy', 'womens', 45, 'S,M,L', 'striped'],
  ['b1', 'Straight Leg Jeans', 'bottom', 'jeans', 'blue', 'womens', 80, '26,28,30'],
  ['b2', 'Slim Chinos', 'bottom', 'trousers', 'beige', 'mens', 65, '30,32,34'],
  ['b3', 'Pleated Midi Skirt', 'bottom', 'skirt', 'black', 'womens', 55, 'S,M'],
  ['b4', 'Relaxed Denim Jeans', 'bottom', 'jeans', 'blue', 'mens', 75, '30,32,34'],
  ['b5', 'Tailored Trousers', 'bottom', 'trousers', 'black', 'womens', 90, 'S,M,L'],
  ['f1', 'Leather Chelsea Boots', 'footwear', 'boot', 'black', 'unisex', 140, '38,39,40,41,42'],
  ['f2', 'Suede Ankle Boots', 'footwear', 'boot', 'tan', 'womens', 120, '37,38,39'],
  ['f3', 'Canvas Sneakers', 'footwear', 'sneaker', 'white', 'unisex', 50, '38,39,40,41,42,43'],
  ['f4', 'Strappy Sandals', 'footwear', 'sandal', 'tan', 'womens', 45, '37,38,39'],
  ['f5', 'Block Heels', 'footwear', 'heels', 'black', 'womens', 65, '37,38,39'],
  ['f6', 'Derby Shoes', 'footwear', 'formal shoe', 'brown', 'mens', 130, '41,42,43'],
  ['o1', 'Camel Wool Coat', 'outerwear', 'coat', 'camel', 'womens', 180, 'S,M,L'],
  ['o2', 'Navy Blazer', 'outerwear', 'blazer', 'navy', 'mens', 150, '38,40,42'],
  ['o3', 'Denim Jacket', 'outerwear', 'jacket', 'blue', 'unisex', 95, 'S,M,L'],
  ['a1', 'Straw Tote', 'bag', 'tote', 'beige', 'womens', 35, 'One Size'],
  ['a2', 'Leather Crossbody Bag', 'bag', 'crossbody', 'black', 'womens', 85, 'One Size'],
  ['a3', 'Silk Tie', 'accessory', 'tie', 'navy', 'mens', 30, 'One Size'],
  ['a4', 'Wool Scarf', 'accessory', 'scarf', 'grey', 'unisex', 40, 'One Size'],
  ['s1', 'Charcoal Wool Suit', 'full body', 'suit', 'charcoal', 'mens', 320, '38,40,42'],
  ['x1', 'Aria Linen Jacket', 'outerwear', 'jacket', 'beige', 'womens', 110, 'S,M'],
  ['x2', 'Aria Linen Trousers', 'bottom', 'trousers', 'beige', 'womens', 75, 'S,M'],
];

// 't1' is listed with its slot and family the wrong way round on purpose below: fixed here.
const fix = (r: Row): Row => (r[0] === 't1' ? [r[0], r[1], 'top', 't shirt', r[4], r[5], r[6], r[7], r[8]] : r);

export const CATALOGUE: ProductBrief[] = ROWS.map(fix).map(([itemId, name, slot, family, colour, gender, price, sizes = 'S,M,L', pattern = 'solid']) => ({
  itemId, name, slot, family, colour, colours: [colour], pattern, materials: [], gender, ageGroup: 'adult', price, currency: 'CAD', onSale: false, sizes: sizes.split(','), available: true,
}));

export const byId = (id: string) => CATALOGUE.find((p) => p.itemId === id)!;

export function context(over: Partial<TurnContext> = {}): TurnContext {
  return {
    stores: [{ name: 'Northwind Atelier', domain: 'northwind-atelier.example', url: 'https://northwind-atelier.example' }],
    severalStores: false, scopeError: null, country: 'CA', currency: 'CAD', page: null, hasCart: false,
    styling: { off: [], basics: [], choosing: '', picture: '' }, thinking: 'low', ...over,
  };
}

export interface Store {
  products: ProductBrief[];
  cart?: { currency: string; total: number; itemCount: number; lines: Array<{ key: string; title: string; variant: string | null; quantity: number; price: number; sku: string | null }> };
}

const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));

/**
 * lookup_products over the store, like the handler: slot, colour, size and price as filters, words
 * rank; a family named comes alone when the store has any of it, else its slot's products come.
 */
function lookup(store: Store, args: Record<string, any>): unknown {
  const q = understandQuery(`${args.query ?? ''} ${args.family ?? ''}`);
  const named = args.family ? understandQuery(args.family).families : [];
  const family = named.length && store.products.some((p) => named.includes(p.family)) ? named : [];
  const slot = args.slot ?? (named.length && !family.length ? understandQuery(args.family).slot : undefined);
  const colour = args.color ? (findColours(args.color)[0]?.family ?? args.color) : undefined;
  const gender = q.gender;
  const terms = words(args.query ?? '');
  let found = store.products.filter(
    (p) =>
      (!family.length || family.length > 1 || family.includes(p.family)) &&
      (!slot || p.slot === slot) &&
      (!colour || p.colour === colour) &&
      (!args.size || p.sizes.some((s) => normalSize(s) === normalSize(args.size))) &&
      (args.maxPrice === undefined || p.price <= args.maxPrice) &&
      (args.minPrice === undefined || p.price >= args.minPrice) &&
      (!gender || p.gender === gender || p.gender === 'unisex') &&
      !(args.excludeItemIds ?? []).includes(p.itemId) &&
      (family.length === 1 || slot || !q.families.length || q.families.includes(p.family)),
  );
  const score = (p: ProductBrief) => [...words(`${p.name} ${p.family} ${p.colour}`)].filter((w) => terms.has(w)).length;
  found = [...found].sort((a, b) => score(b) - score(a));
  if (args.sort === 'price_low') found.sort((a, b) => a.price - b.price);
  if (args.sort === 'price_high') found.sort((a, b) => b.price - a.price);
  return { currency: 'CAD', total: found.length, products: found.slice(0, args.limit ?? 10) };
}

function articles(store: Store, args: Record<string, any>): unknown {
  const slots = new Map<string, ProductBrief[]>();
  for (const p of store.products) if (!args.gender || p.gender === args.gender || p.gender === 'unisex') slots.set(p.slot, [...(slots.get(p.slot) ?? []), p]);
  return {
    currency: 'CAD',
    slots: [...slots].sort((a, b) => b[1].length - a[1].length).map(([slot, list]) => ({
      slot, count: list.length, minPrice: Math.min(...list.map((p) => p.price)), maxPrice: Math.max(...list.map((p) => p.price)),
      families: [...new Set(list.map((p) => p.family))].map((family) => ({ family, count: list.filter((p) => p.family === family).length })).sort((a, b) => b.count - a.count),
    })),
  };
}

/** What a tool answers, as its FunctionCallResult text. */
export function answer(store: Store, name: string, args: Record<string, any>): string {
  const out = (() => {
    switch (name) {
      case 'lookup_products': return lookup(store, args);
      case 'get_articles': return articles(store, args);
      case 'show_products': return { shown: args.itemIds.map((id: string) => store.products.find((p) => p.itemId === id)).filter(Boolean), refused: [] };
      case 'compose_looks': return { looks: args.looks.map((l: any) => ({ label: l.label, itemIds: l.itemIds })), refused: [] };
      case 'ask_question': case 'suggest_replies': return { ok: true };
      case 'read_cart': return store.cart ?? { error: 'no cart' };
      case 'add_to_cart': return { added: { itemId: args.itemId, size: args.size ?? null, quantity: args.quantity ?? 1 } };
      case 'swap_cart_item': return { swapped: { lineKey: args.lineKey } };
      case 'update_cart_quantity': return { updated: { lineKey: args.lineKey, quantity: args.quantity } };
      case 'remove_from_cart': return { removed: { lineKey: args.lineKey } };
      default: return { error: `There is no tool named ${name}.` };
    }
  })();
  return JSON.stringify(out);
}

export interface Played {
  /** The conversation after the turn, as `done.history` would give it (without compaction). */
  history: HistoryEntry[];
  steps: StylistStep[];
  text: string;
  calls: Array<{ name: string; args: Record<string, any> }>;
}

/** One turn, as the agent's loop runs it: call the planner, run its calls, until it answers. */
export function playTurn(store: Store, ctx: TurnContext, messages: HistoryEntry[], imageColours: any[] = []): Played {
  const history = [...messages];
  const steps: StylistStep[] = [];
  const calls: Played['calls'] = [];
  const tools = toolSpecs(ctx.hasCart).map((t) => t.name);
  let n = history.filter((e) => 'type' in e && e.type === 'function_call').length;
  for (let i = 0; i < 10; i++) {
    const step = nextStep({ context: ctx, messages: history, tools, imageColours });
    steps.push(step);
    if (!step.toolCalls.length) {
      history.push({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text ?? '' }] });
      return { history, steps, text: step.text ?? '', calls };
    }
    for (const c of step.toolCalls) {
      const id = `call_${++n}`;
      calls.push({ name: c.name, args: c.arguments });
      history.push(functionCall(id, c.name, JSON.stringify(c.arguments)));
      history.push(functionCallResult(id, c.name, answer(store, c.name, c.arguments)));
    }
  }
  return { history, steps, text: '', calls };
}

/** Several turns: each message is the shopper's next one, the history carried over. */
export function playConversation(store: Store, ctx: TurnContext, said: string[]): Played[] {
  let history: HistoryEntry[] = [];
  const turns: Played[] = [];
  for (const text of said) {
    const played = playTurn(store, ctx, [...history, { role: 'user', content: text }]);
    turns.push(played);
    history = played.history;
  }
  return turns;
}
