// What the shopper's latest message asks for, read with what came before: a product search or a
// refinement of the last one ("cheaper", "in blue", "something else", "boots instead"), a look, a
// cart change, a store question, or something too open to search yet. Pure.
import type { ColorFamily } from '../../catalogue/vocabulary.js';
import { budgetIn } from '../../pricing/currency-rates.js';
import { tokenise } from '../../search/amounts.js';
import type { TurnContext } from '../context.js';
import type { ProductBrief } from '../products.js';
import { readCartRequest, sizeIn, type CartRequest } from './cart-intent.js';
import { effectiveText, lastOnScreen, requestParts, type Turn } from './history.js';
import { readLookRequest, type LookRequest } from './look-intent.js';
import { readPhrases, restOf, type PolicyTopic } from './phrases.js';
import type { Said, Span } from './said.js';
import { audience, emptyWish, namesProduct, onlyNarrows, overlay, titleWish, understand, wishFromArgs, wishOfParts, type Wish } from './wish.js';

/** How a product search relates to the last one, for the label and the reply. */
export type ProductNote = 'new' | 'cheaper' | 'pricier' | 'other' | 'otherColour' | 'narrow' | 'instead' | 'similar';

export type { Said, Span } from './said.js';

export type OpenAsk = 'what' | 'occasion' | 'who' | 'imageKind';

export type Intent =
  | { kind: 'unavailable' }
  | { kind: 'policy'; topic: PolicyTopic }
  | { kind: 'thanks' }
  | { kind: 'noCart' }
  | { kind: 'open'; ask: OpenAsk; greeting: boolean; wish: Wish }
  | { kind: 'showcase'; wish: Wish; gift: boolean }
  | { kind: 'products'; wish: Wish; note: ProductNote; notThis?: string; fromPhoto?: ColorFamily }
  | { kind: 'look'; look: LookRequest }
  /** A card picked with nothing asked of it ("I like the second one"). */
  | { kind: 'pick'; brief: ProductBrief }
  /** A question about one product (the page's, or a card): its sizes, price or stock; `size` when they named one. */
  | { kind: 'about'; what: 'sizes' | 'price' | 'stock'; target: { kind: 'page' } | { kind: 'shown'; brief: ProductBrief }; size?: string }
  | { kind: 'cart'; cart: CartRequest };

export function readIntent(context: TurnContext, turns: Turn[], imageColours: readonly ColorFamily[] = []): Intent {
  if (!turns.length) return { kind: 'open', ask: 'what', greeting: true, wish: emptyWish() };
  return intentAt(context, turns, turns.length - 1, imageColours, 0);
}

/** The page product as a wish: its title (and type, when the title names no garment). */
export function pageWish(context: TurnContext): Wish | null {
  const page = context.page;
  if (!page) return null;
  const wish = titleWish(page.title);
  return wish.families.length || wish.slot || !page.type ? wish : titleWish(`${page.title} ${page.type}`);
}

/** A product on screen as a wish: what it is, in its colour. */
export function briefWish(brief: ProductBrief): Wish {
  const wish = titleWish(brief.name);
  if (brief.family && brief.family !== 'other') wish.families = [brief.family];
  if (brief.colour && brief.colour !== 'other' && brief.colour !== 'multicolour') wish.colour = brief.colour as ColorFamily;
  if (brief.gender === 'mens' || brief.gender === 'womens') wish.gender = brief.gender;
  return wish;
}

/**
 * What turn `index` asks for: the reading of its request and answers together, where each is, and
 * what they want. A budget named in another currency than the shopper's ("under 1300 rs" where
 * prices are in CAD) is converted to `currency`, the one lookups take and replies print.
 */
export function readRequest(turns: Turn[], index: number, currency: string): Pick<Said, 'reading' | 'spans' | 'wish'> {
  const parts = requestParts(turns, index);
  const reading = readPhrases(parts.join(' ').trim());
  const spans: Span[] = [];
  for (const [k, text] of parts.entries()) {
    const start = spans.at(-1)?.end ?? 0;
    const end = k === parts.length - 1 ? reading.tokens.length : Math.max(start, Math.min(reading.tokens.length, tokenise(parts.slice(0, k + 1).join(' ')).length));
    spans.push({ text, start, end });
  }
  const wish = wishOfParts(spans.map((s) => restOf(reading, s.start, s.end)));
  const named = wish.minPrice !== undefined || wish.maxPrice !== undefined ? understand(parts.join(' ')).currency : undefined;
  if (named) {
    const { minPrice, maxPrice } = budgetIn({ ...wish, currency: named }, currency);
    const cents = (amount: number) => Math.round(amount * 100) / 100;
    if (minPrice !== undefined) wish.minPrice = cents(minPrice);
    if (maxPrice !== undefined) wish.maxPrice = cents(maxPrice);
  }
  return { reading, spans, wish };
}

export function intentAt(context: TurnContext, turns: Turn[], index: number, imageColours: readonly ColorFamily[], depth: number): Intent {
  const { reading, spans, wish } = readRequest(turns, index, context.currency);
  const image = imageColours.find((c) => c !== 'other' && c !== 'multicolour');
  if (image && !wish.colour) wish.colour = image;
  const said: Said = { context, turns, index, reading, spans, wish, prev: lastOnScreen(turns, index), depth };
  const photo = image && wish.colour === image ? { fromPhoto: image } : {};
  const cues = reading.cues;

  if (context.scopeError) return reading.policy && !namesProduct(wish) ? { kind: 'policy', topic: reading.policy } : { kind: 'unavailable' };
  const cart = readCartRequest(said);
  if (cart) return context.hasCart ? { kind: 'cart', cart } : { kind: 'noCart' };
  if (reading.policy && !namesProduct(wish) && !cues.has('look')) return { kind: 'policy', topic: reading.policy };
  const talkOnly = !namesProduct(wish) && !onlyNarrows(wish) && !cues.has('look') && !cues.has('pair');
  const about = aboutProduct(said);
  if (about) return about;
  const picked = pickedCard(said);
  const asksOfIt = ['look', 'pair', 'cheaper', 'pricier', 'other', 'otherColour', 'instead', 'anySize'].some((cue) => cues.has(cue as never));
  if (picked && talkOnly && !asksOfIt && !wish.similar) return { kind: 'pick', brief: picked };
  if (talkOnly && (cues.has('thanks') || reading.alone === 'thanks' || reading.alone === 'yes')) return { kind: 'thanks' };

  // "what do you recommend for a beach vacation": an open question with an occasion is a look.
  const openOccasion = cues.has('open') && wish.occasions.length > 0 && !wish.families.length && !wish.slot;
  const look = readLookRequest(said, intentAt, openOccasion);
  if (look?.vague) {
    // Asked once already: a casual look rather than the same question again.
    const asked = turns[index - 1]?.steps.some((s) => s.name === 'ask_question') ?? false;
    return asked ? { kind: 'look', look: { ...look, occasions: ['casual'], vague: false } } : { kind: 'open', ask: 'occasion', greeting: cues.has('greeting'), wish };
  }
  if (look) return { kind: 'look', look };

  const refined = refine(said);
  if (refined) return refined;
  if (cues.has('gift') && !wish.families.length && !wish.slot) return wish.gender ? { kind: 'showcase', wish, gift: true } : open(said, 'who');
  if (image && !wish.families.length && !wish.slot) return open(said, 'imageKind');
  if (namesProduct(wish) || wish.onSale || wish.maxPrice !== undefined || wish.minPrice !== undefined) return { kind: 'products', wish, note: 'new', ...photo };
  // Words the vocabulary does not know ("y2k", a collection's name) are still worth a search, unless the message is only talk.
  const own = effectiveText(said.turns, index) === said.turns[index]!.text ? reading : readPhrases(said.turns[index]!.text);
  const talk = own.cues.has('open') || own.cues.has('greeting') || own.cues.has('thanks') || own.alone !== null;
  if (wish.words.length && !talk) return { kind: 'products', wish, note: 'new' };
  return open(said, 'what');
}

/** "what sizes does this come in", "how much is the second one", "is this in M": a question about one product. */
function aboutProduct(said: Said): Intent | null {
  const { reading, wish, context, prev, index } = said;
  const cues = reading.cues;
  const what = cues.has('sizes') ? 'sizes' : cues.has('price') ? 'price' : cues.has('stock') || (wish.size !== undefined && cues.has('this')) ? 'stock' : null;
  if (!what || wish.colour || wish.occasions.length || cues.has('look') || cues.has('pair')) return null;
  const garment = wish.families.length > 0 || wish.slot !== undefined;
  const card = pickedCard(said) ?? (prev?.kind === 'list' && prev.turn === index - 1 && prev.shown.length === 1 ? prev.shown[0] : undefined);
  const pageMeant = context.page && (cues.has('this') || !prev) && (!garment || (pageWish(context)?.families ?? []).some((f) => wish.families.includes(f)));
  const named = wish.size ?? sizeIn(restOf(reading));
  const size = named ? { size: named } : {};
  if (card && (reading.ordinal !== undefined || !pageMeant)) return { kind: 'about', what, target: { kind: 'shown', brief: card }, ...size };
  if (pageMeant) return { kind: 'about', what, target: { kind: 'page' }, ...size };
  return null;
}

/** The card an ordinal points at ("the second one"), among the products on screen. */
function pickedCard(said: Said): ProductBrief | undefined {
  const { prev, reading } = said;
  const ordinal = reading.ordinal;
  if (ordinal === undefined || !prev) return undefined;
  const cards = prev.kind === 'list' ? prev.shown : prev.looks.flat();
  return ordinal === -1 ? cards.at(-1) : cards[ordinal - 1];
}

/** The budget the shopper last named in their own words, in this message or the few before. */
function namedBudget(said: Said): Pick<Wish, 'minPrice' | 'maxPrice'> {
  for (let i = said.index; i >= 0 && i > said.index - 6; i--) {
    const wish = i === said.index ? said.wish : readRequest(said.turns, i, said.context.currency).wish;
    if (wish.minPrice !== undefined || wish.maxPrice !== undefined) return { ...(wish.minPrice !== undefined ? { minPrice: wish.minPrice } : {}), ...(wish.maxPrice !== undefined ? { maxPrice: wish.maxPrice } : {}) };
  }
  return {};
}

/** Too open to search: ask, unless the turn before already asked, then show a few favourites. */
function open(said: Said, ask: OpenAsk): Intent {
  const asked = said.turns[said.index - 1]?.steps.some((s) => s.name === 'ask_question') ?? false;
  if (asked && ask !== 'imageKind') return { kind: 'showcase', wish: said.wish, gift: said.reading.cues.has('gift') };
  return { kind: 'open', ask, greeting: said.reading.cues.has('greeting'), wish: said.wish };
}

const median = (values: number[]): number | undefined => {
  const sorted = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b);
  if (!sorted.length) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * A product search built on an earlier one: the list on screen (its search's arguments are the
 * base) or the page product ("do you have this in blue", "something similar").
 */
function refine(said: Said): Intent | null {
  const { reading, wish, prev, context } = said;
  const cues = reading.cues;
  const asksCheaper = cues.has('cheaper');
  const asksOther = cues.has('other') || reading.alone === 'other';
  const refineCue = asksCheaper || asksOther || cues.has('pricier') || cues.has('otherColour') || cues.has('instead') || cues.has('anySize') || wish.similar;
  const garment = wish.families.length > 0 || wish.slot !== undefined;
  const page = pageWish(context);
  const listJustShown = prev?.kind === 'list' && prev.turn === said.index - 1;
  const onPage = page && (cues.has('this') || wish.similar || (asksCheaper && !prev)) && !listJustShown && (!garment || page.families.some((f) => wish.families.includes(f)));

  if (onPage && page && (wish.similar || onlyNarrows(wish) || garment || refineCue)) {
    const next = overlay(page, { ...wish, similar: wish.similar }, { colour: !cues.has('otherColour') && !wish.similar, words: true });
    if (wish.similar) delete next.colour;
    // "anything cheaper than this": below the page's own price, when it is in the shopper's currency.
    const own = context.page!.price !== null && (!context.page!.currency || context.page!.currency === context.currency) ? context.page!.price / 100 : undefined;
    if (asksCheaper && own !== undefined) {
      next.maxPrice = Math.min(next.maxPrice ?? Infinity, Math.max(0, own - 0.01));
      next.sort = 'price_low';
    }
    const note: ProductNote = asksCheaper && own !== undefined ? 'cheaper' : wish.similar ? 'similar' : cues.has('otherColour') ? 'otherColour' : 'narrow';
    return { kind: 'products', wish: next, note, notThis: context.page!.title };
  }
  if (prev?.kind !== 'list') return null;
  // "something else" after a search that found nothing: nothing to build on.
  if (!prev.shown.length && asksOther && !namesProduct(wish) && !onlyNarrows(wish)) return null;
  if (!refineCue && !onlyNarrows(wish) && !(cues.has('this') && !garment)) {
    // A new garment: a new search, for the same audience.
    if (!garment) return null;
    const { gender: _gender, age: _age, ...next } = wish;
    return { kind: 'products', wish: { ...next, ...audience(wishFromArgs(prev.args), wish) }, note: 'new' };
  }
  const ordinal = reading.ordinal;
  const picked = ordinal !== undefined ? (ordinal === -1 ? prev.shown.at(-1) : prev.shown[ordinal - 1]) : undefined;
  const base = picked && (wish.similar || cues.has('this')) ? briefWish(picked) : wishFromArgs(prev.args);
  const next = overlay(base, wish, { colour: !cues.has('otherColour'), words: true });
  if (garment && !base.families.some((f) => wish.families.includes(f))) {
    // Another garment: a budget "cheaper" worked out for the last one does not carry over; one the shopper named does.
    delete next.minPrice;
    delete next.maxPrice;
    const named = namedBudget(said);
    if (named.minPrice !== undefined) next.minPrice = named.minPrice;
    if (named.maxPrice !== undefined) next.maxPrice = named.maxPrice;
    if (wish.sort) next.sort = wish.sort;
    else delete next.sort;
  }
  if (cues.has('anySize')) delete next.size;
  const shownIds = prev.shown.map((p) => p.itemId);
  let note: ProductNote = garment ? 'instead' : 'narrow';
  if (asksCheaper) {
    const mid = median(prev.shown.map((p) => p.price));
    if (mid !== undefined) next.maxPrice = Math.min(next.maxPrice ?? Infinity, Math.max(0, mid - 0.01));
    next.sort = 'price_low';
    note = 'cheaper';
  } else if (cues.has('pricier')) {
    const mid = median(prev.shown.map((p) => p.price));
    if (mid !== undefined) next.minPrice = mid + 0.01;
    if (next.maxPrice !== undefined && next.minPrice !== undefined && next.maxPrice <= next.minPrice) delete next.maxPrice;
    delete next.sort;
    note = 'pricier';
  } else if (cues.has('otherColour')) {
    delete next.colour;
    next.exclude = [...new Set([...base.exclude, ...shownIds])].slice(-60);
    note = 'otherColour';
  } else if ((asksOther || (wish.similar && !picked)) && !garment && !wish.colour) {
    next.exclude = [...new Set([...base.exclude, ...shownIds])].slice(-60);
    note = 'other';
  } else if (wish.similar && picked) {
    next.exclude = [picked.itemId];
    return { kind: 'products', wish: next, note: 'similar', notThis: picked.name };
  }
  return { kind: 'products', wish: next, note };
}
