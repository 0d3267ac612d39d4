// A cart change read from a message: add (which product, size, how many), remove, change the
// quantity, change the size, swap for another product, or show the cart; and the words that name
// the line ("my sweater", "the shoes"). "change" and "different size" are everyday words: they mean
// the cart only when the message or the turn before is about it. Pure.
import { normalSize } from '../../search/sizes.js';
import { SWAP_JOINERS } from '../../search/shopper-words.js';
import type { ProductBrief } from '../products.js';
import { readCartView, readLookup, readShow, type CartLineBrief } from './outputs.js';
import type { Said, Span } from './said.js';
import { markOf, restOf } from './phrases.js';
import { namesProduct, understand, wishFromText, wishOfParts, type Wish } from './wish.js';

export type CartAction = 'add' | 'remove' | 'quantity' | 'resize' | 'swap' | 'view';

export type CartProduct = { kind: 'shown'; brief: ProductBrief } | { kind: 'page' } | { kind: 'named'; wish: Wish } | { kind: 'choose'; options: ProductBrief[] };

export interface CartRequest {
  action: CartAction;
  /** What names the line or the product ("my sweater", "the black ones"). */
  ref: Wish;
  refText: string;
  /** What replaces the line in a swap. */
  target?: Wish;
  size?: string;
  /** One size up (1) or down (-1). */
  step?: 1 | -1;
  quantity?: number;
  increment?: 'one' | 'double';
  thisRef: boolean;
  ordinal?: number;
  /** For add: the product meant. */
  product?: CartProduct;
  /** The line a tapped option named ("which item do you mean?"), as the cart read then showed it. */
  tappedLine?: CartLineBrief;
  /** The product the last cart change was about: what "it" means next. */
  lastProduct?: ProductBrief;
  /** The line the last cart change was about (a quantity or size change), as the cart read then showed it. */
  lastLine?: CartLineBrief;
  /** The turn before added it: in that size, that many (the cart sent may not show it yet). */
  lastAdded?: { size?: string; quantity: number };
}

export const CART_TOOL_NAMES = ['read_cart', 'add_to_cart', 'swap_cart_item', 'update_cart_quantity', 'remove_from_cart'];
const SOFT_SWAP = new Set(['change', 'switch', 'change out', 'switch out']);
const EXPLICIT_RESIZE = new Set(['change the size', 'change size', 'change its size', 'wrong size', 'exchange for size', 'swap size']);
const INCREMENTS: Record<string, 'one' | 'double'> = { 'one more': 'one', 'another one': 'one', 'add another': 'one', 'add one more': 'one', 'double it': 'double' };
const joiners = new Set(SWAP_JOINERS);

export const lineName = (l: CartLineBrief) => `${l.title}${l.variant && l.variant !== 'Default Title' ? ` (${l.variant})` : ''}`;
/** A line as an option to tap: at most 60 characters, the variant kept whole. */
export const lineLabel = (l: CartLineBrief) => {
  const variant = l.variant && l.variant !== 'Default Title' ? ` (${l.variant.slice(0, 20)})` : '';
  return `${l.title.slice(0, 60 - variant.length)}${variant}`;
};

/** The line of `lines` that is `seen` (a line an earlier read showed): the same key, else the same label, else the same title (a new size is a new key and label). */
export const sameLine = (lines: CartLineBrief[], seen: CartLineBrief): CartLineBrief | undefined =>
  lines.find((l) => l.key === seen.key) ?? lines.find((l) => lineLabel(l) === lineLabel(seen)) ?? lines.find((l) => l.title === seen.title);

/** The lines of the cart as turn `index` last read it. */
function cartReadAt(said: Pick<Said, 'turns'>, index: number): CartLineBrief[] {
  const read = [...(said.turns[index]?.steps ?? [])].reverse().find((s) => s.name === 'read_cart');
  const cart = readCartView(read?.raw);
  return cart.ok ? cart.value.lines : [];
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The answers to questions the request raised, latest first: each one's words and the turn that asked. */
function answersOf(said: Said): Array<{ span: Span; words: string; askedAt: number }> {
  const n = said.spans.length;
  return said.spans.slice(1).map((span, k) => ({ span, words: squash(span.text), askedAt: said.index - (n - 2 - k) - 1 })).reverse();
}

/** The cart line an answer names: the options of "which item do you mean?" are the lines the asking turn read. */
function tappedLine(said: Said): { line: CartLineBrief; span: Span } | undefined {
  for (const answer of answersOf(said)) {
    const line = cartReadAt(said, answer.askedAt).find((l) => [lineLabel(l), lineName(l), l.title].some((name) => squash(name) === answer.words));
    if (line) return { line, span: answer.span };
  }
  return undefined;
}

/** The product an answer names ("which one should I add?" is answered with a product's name). */
function tappedProduct(said: Said): ProductBrief | undefined {
  const answers = answersOf(said);
  if (!answers.length) return undefined;
  const briefs = [...briefsById(said).values()];
  for (const answer of answers) {
    const brief = briefs.find((b) => squash(b.name) === answer.words);
    if (brief) return brief;
  }
  return undefined;
}

/** Every product brief the conversation's tools returned, by itemId. */
export function briefsById(said: Pick<Said, 'turns'>): Map<string, ProductBrief> {
  const found = new Map<string, ProductBrief>();
  for (const turn of said.turns) {
    for (const step of turn.steps) {
      const answer = step.name === 'lookup_products' ? readLookup(step.raw) : step.name === 'show_products' ? readShow(step.raw) : null;
      if (!answer?.ok) continue;
      for (const p of 'products' in answer.value ? answer.value.products : answer.value.shown) found.set(p.itemId, p);
    }
  }
  return found;
}

/** A size as the shopper wrote it after "to" or "for" ("to L", "for a medium", "for a 32"). */
export function sizeIn(text: string): string | undefined {
  const bare = text.replace(/^\s*(a|an|the|size|sz)\s+/i, '');
  // In a cart change "in 38" is a size (search leaves a bare "in 10" alone: it is too often something else).
  const sized = text.replace(/\bin (\d{1,2}(?:\.5)?)\b/i, 'size $1');
  return understand(sized).size ?? understand(`size ${bare}`).size;
}

export function readCartRequest(said: Said): CartRequest | null {
  const { reading, context, turns, index, spans } = said;
  // A line tapped names the line, not what the request wants ("Wool Crew Sweater (M)" asks for no size M).
  const tapped = tappedLine(said);
  const line = tapped?.line;
  const wanted = tapped ? spans.filter((s) => s !== tapped.span) : spans;
  const wish = tapped ? wishOfParts(wanted.map((s) => restOf(reading, s.start, s.end))) : said.wish;
  // The request's own words end where the first answer begins: a size or a line tapped is never read as the words after "to".
  const end = spans[1]?.start ?? reading.tokens.length;
  const answered = wanted.slice(1).map((s) => sizeIn(restOf(reading, s.start, s.end)) ?? wishFromText(restOf(reading, s.start, s.end)).size);
  const cues = reading.cues;
  const cartWord = cues.has('cart');
  const previous = turns[index - 1];
  const aboutCart = cartWord || reading.tokens.includes('my') || (previous?.steps.some((s) => CART_TOOL_NAMES.includes(s.name)) ?? false);
  const phraseOf = (cue: Parameters<typeof markOf>[1]) => {
    const mark = markOf(reading, cue);
    return mark ? reading.tokens.slice(mark.start, mark.end).join(' ') : '';
  };
  const swap = markOf(reading, 'swap');
  const resize = markOf(reading, 'resize') ?? markOf(reading, 'sizeUp') ?? markOf(reading, 'sizeDown');
  const increment = INCREMENTS[phraseOf('quantity')];
  const onScreen = said.prev?.kind === 'list' ? said.prev.shown : said.prev?.kind === 'look' ? said.prev.looks.flat() : [];

  // "change the pants to a medium" with a cart shared: a size after the joiner is a cart line's size, not a search.
  const toSize = (mark: { end: number } | undefined): boolean => {
    if (!mark || !context.hasCart) return false;
    const at = reading.tokens.findIndex((word, i) => i >= mark.end && i < end && joiners.has(word));
    return at > 0 && sizeIn(restOf(reading, at + 1, end)) !== undefined;
  };
  let action: CartAction | null = null;
  if (cues.has('remove')) action = 'remove';
  else if (resize && (EXPLICIT_RESIZE.has(phraseOf('resize')) || aboutCart || toSize(resize))) action = 'resize';
  else if (swap && (!SOFT_SWAP.has(phraseOf('swap')) || aboutCart || toSize(swap)) && (context.hasCart || cartWord)) action = 'swap';
  else if (cues.has('add') && (cartWord || cues.has('this') || reading.ordinal !== undefined || wish.size !== undefined || reading.quantity !== undefined || (namesProduct(wish) && onScreen.length > 0)))
    action = 'add';
  else if (cues.has('quantity') && (reading.quantity !== undefined || increment) && !cues.has('look') && (context.hasCart || cartWord)) action = 'quantity';
  else if (cartWord && !namesProduct(wish) && !cues.has('look')) action = 'view';
  if (!action) return null;

  // The line's words, and for a swap what replaces it: "swap [the shoes] for [the black ones]".
  const from = swap && action === 'swap' ? swap.end : resize && action === 'resize' ? resize.end : 0;
  const joiner = reading.tokens.findIndex((word, i) => i >= from && i < end && from > 0 && joiners.has(word));
  const ofLine = action === 'swap' || action === 'resize';
  const refText = joiner > 0 ? restOf(reading, from, joiner) : ofLine ? restOf(reading, from, end) : restOf(reading);
  const targetText = joiner > 0 ? restOf(reading, joiner + 1, end) : '';
  const ref = joiner > 0 || ofLine ? wishFromText(refText) : wish;
  const request: CartRequest = { action, ref, refText, thisRef: cues.has('this') };
  if (reading.ordinal !== undefined) request.ordinal = reading.ordinal;
  if (reading.quantity !== undefined) request.quantity = reading.quantity;
  if (increment) request.increment = increment;
  // A size tapped or typed in answer wins over the one the request named ("Size 5" for the sold-out 8).
  const size = answered.filter((s) => s !== undefined).at(-1) ?? (targetText ? sizeIn(targetText) : undefined) ?? wish.size;
  if (size) request.size = size;
  if (line) request.tappedLine = line;
  if (cues.has('sizeUp')) request.step = 1;
  if (cues.has('sizeDown')) request.step = -1;
  if (action === 'swap' && targetText) {
    const target = wishFromText(targetText);
    // "to a medium", "to a 43": the words left are the size itself.
    const sizeWords = target.words.every((word) => sizeIn(word) !== undefined || normalSize(word) === normalSize(size ?? ''));
    const onlySize = size !== undefined && !target.families.length && !target.slot && !target.colour && sizeWords;
    if (onlySize) request.action = 'resize';
    else request.target = target;
  }
  if (action === 'swap' && !request.target && (request.size || request.step)) request.action = 'resize';
  const last = lastCartProduct(said);
  if (last) {
    request.lastProduct = last.brief;
    if (last.added) request.lastAdded = last.added;
  }
  const lastLine = lastChangedLine(said);
  if (lastLine) request.lastLine = lastLine;
  if (request.action === 'add') request.product = productToAdd(said, request, onScreen);
  return request;
}

/** The product of the turn before's add or swap, when the conversation knows it. */
function lastCartProduct(said: Said): { brief: ProductBrief; added?: { size?: string; quantity: number } } | undefined {
  const previous = said.turns[said.index - 1];
  const step = previous?.steps.find((s) => (s.name === 'add_to_cart' || s.name === 'swap_cart_item') && typeof s.args.itemId === 'string');
  const brief = step ? briefsById(said).get(step.args.itemId as string) : undefined;
  if (!step || !brief) return undefined;
  if (step.name !== 'add_to_cart') return { brief };
  const quantity = typeof step.args.quantity === 'number' ? step.args.quantity : 1;
  return { brief, added: { ...(typeof step.args.size === 'string' ? { size: step.args.size } : {}), quantity } };
}

/** The line the turn before changed in place (its quantity or size): what "it" means next. */
function lastChangedLine(said: Said): CartLineBrief | undefined {
  const previous = said.turns[said.index - 1];
  const step = [...(previous?.steps ?? [])].reverse().find((s) => (s.name === 'update_cart_quantity' || (s.name === 'swap_cart_item' && s.args.itemId === undefined)) && typeof s.args.lineKey === 'string');
  return step ? cartReadAt(said, said.index - 1).find((l) => l.key === step.args.lineKey) : undefined;
}

const nameWords = (name: string) => new Set(name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));

function productToAdd(said: Said, request: CartRequest, onScreen: ProductBrief[]): CartProduct {
  const { context } = said;
  const ref = request.ref;
  // "Which one should I add?" answered with a tap: the product of that name.
  const chosen = tappedProduct(said);
  if (chosen) return { kind: 'shown', brief: chosen };
  if (request.ordinal !== undefined && onScreen.length) {
    const brief = request.ordinal === -1 ? onScreen.at(-1) : onScreen[request.ordinal - 1];
    if (brief) return { kind: 'shown', brief };
  }
  const named = ref.families.length > 0 || ref.slot !== undefined || ref.colour !== undefined || ref.words.length > 0;
  if (named && onScreen.length) {
    const words = nameWords(request.refText);
    const fits = onScreen.filter(
      (b) =>
        (!ref.families.length || ref.families.includes(b.family)) &&
        (!ref.slot || b.slot === ref.slot) &&
        (!ref.colour || b.colour === ref.colour || b.colours.includes(ref.colour)) &&
        (!ref.words.length || [...nameWords(b.name)].some((w) => words.has(w))),
    );
    if (fits.length === 1) return { kind: 'shown', brief: fits[0]! };
    if (fits.length > 1) return { kind: 'choose', options: fits.slice(0, 6) };
  }
  const pageMeant = context.page && (!named || (context.page && [...nameWords(context.page.title)].some((w) => nameWords(request.refText).has(w))));
  if (pageMeant && (request.thisRef || !onScreen.length || !named)) {
    if (!(said.prev?.kind === 'list' && said.prev.turn === said.index - 1 && onScreen.length === 1 && !named)) return { kind: 'page' };
  }
  if (named) return { kind: 'named', wish: ref };
  if (onScreen.length === 1) return { kind: 'shown', brief: onScreen[0]! };
  if (request.lastProduct) return { kind: 'shown', brief: request.lastProduct };
  if (onScreen.length) return { kind: 'choose', options: onScreen.slice(0, 6) };
  return context.page ? { kind: 'page' } : { kind: 'choose', options: [] };
}
