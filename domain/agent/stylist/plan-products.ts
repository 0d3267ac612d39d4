// A product search turn: look up what the shopper asked for; when nothing matches, relax once
// (the colour, else the describing words — never the budget, size or audience they named) and
// say so; put the best few on screen with follow-up chips; then name what was shown. Nothing
// unrelated is shown to fill the screen: when even the relaxed search is empty, the reply says so
// and offers chips instead. Pure.
import { words as nameWords } from '../../catalogue/taxonomy/index.js';
import type { ProductBrief } from '../products.js';
import type { Intent } from './intent.js';
import { readLookup, readShow } from './outputs.js';
import { call, made, reply, severalStoresNote, type Plan, type StylistStep } from './plan.js';
import { describe, listLabel, listing, nothingChips, productChips, readingLine } from './words.js';
import { describingOnly, garmentWords, lookupArgs, suitsAge, type Wish } from './wish.js';

const garmentWordsOf = (wish: Wish) => garmentWords(wish).length > 0;

type ProductsIntent = Extract<Intent, { kind: 'products' }>;

/** Cards put on screen for one search. */
export const SHOWN = 6;
const LIMIT = 12;

const same = (a: string, b: string) => nameWords(a).join(' ') === nameWords(b).join(' ');

/** Letters only: "Cross-Body" and "crossbody" are one word. */
const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Whether a product is the garment asked for: of a family named (or one its own name says it is:
 * a store's "Cross-Body Bag" labelled a shoulder bag is still a crossbody), or of the slot when
 * only a slot was named ("shoes").
 */
export const isGarmentAsked = (wish: Pick<Wish, 'families' | 'slot'>, p: ProductBrief): boolean =>
  wish.families.length && wish.families.length <= 3
    ? wish.families.includes(p.family) || (!!p.name && wish.families.some((family) => family.length > 3 && compact(p.name).includes(compact(family))))
    : wish.slot
      ? !p.slot || p.slot === wish.slot
      : true;

/**
 * The products worth showing: the garment asked for (lookup_products falls back to the slot when
 * the store has none of a family: boots are not sneakers), buyable, inside the bounds, not
 * excluded, not the page's own, for the age asked, one of each name.
 */
export function choose(products: ProductBrief[], wish: Wish, notThis?: string): ProductBrief[] {
  const seen = new Set<string>();
  const other = wish.gender === 'mens' ? 'womens' : wish.gender === 'womens' ? 'mens' : null;
  return products
    .filter((p) => {
      if (!p.available || wish.exclude.includes(p.itemId) || !isGarmentAsked(wish, p)) return false;
      if (wish.maxPrice !== undefined && p.price > wish.maxPrice + 1e-9) return false;
      if (wish.minPrice !== undefined && p.price < wish.minPrice - 1e-9) return false;
      if (other && p.gender === other) return false;
      if (notThis && same(p.name, notThis)) return false;
      if (!suitsAge(wish, p)) return false;
      const key = `${nameWords(p.name).join(' ')}|${p.colour}|${p.store ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, SHOWN);
}

/** The one loosening allowed: the colour first, else the describing words and occasion. */
export function relax(wish: Wish): { wish: Wish; dropped: string } | null {
  // Without a garment, the colour is all the shopper asked for: nothing is left to show without it.
  if (wish.colour && (wish.families.length || wish.slot || describingOnly(wish.words).length || wish.occasions.length)) {
    const { colour: _colour, ...rest } = wish;
    return { wish: rest, dropped: `in ${wish.colour}` };
  }
  if ((wish.words.length || wish.occasions.length) && (wish.families.length || wish.slot)) return { wish: { ...wish, words: [], occasions: [] }, dropped: [...wish.words, ...wish.occasions].join(' ') };
  // Words search does not know, beside an audience, occasion or budget that can stand alone.
  const rest = wish.age || wish.gender || wish.occasions.length || wish.maxPrice !== undefined || wish.onSale;
  if (wish.words.length && rest) return { wish: { ...wish, words: [] }, dropped: wish.words.join(' ') };
  return null;
}

export function planProducts(plan: Plan, intent: ProductsIntent): StylistStep {
  const wish = intent.wish;
  const first = lookupArgs(wish, LIMIT);
  const firstStep = made(plan, 'lookup_products', first);
  if (!firstStep) return { thinking: readingLine(intent.note === 'new' ? 'products' : `products (${intent.note})`, wish, plan.currency), toolCalls: [call('lookup_products', first)] };
  const found = readLookup(firstStep.raw);
  if (!found.ok) return reply(`I couldn't search the catalogue just now (${found.error.slice(0, 160)}). Please try again in a moment.`);

  let shownWish = wish;
  let relaxed: { wish: Wish; dropped: string } | null = null;
  let products = choose(found.value.products, wish, intent.notThis);
  if (!products.length) {
    const loosened = relax(wish);
    if (loosened) {
      const args = lookupArgs(loosened.wish, LIMIT);
      const step = made(plan, 'lookup_products', args);
      if (!step) return { thinking: `Nothing for ${describe(wish, plan.currency)}; trying without "${loosened.dropped}"`, toolCalls: [call('lookup_products', args)] };
      const again = readLookup(step.raw);
      products = again.ok ? choose(again.value.products, loosened.wish, intent.notThis) : [];
      if (products.length) [shownWish, relaxed] = [loosened.wish, loosened];
    }
  }
  if (!products.length) {
    const tried = relax(wish);
    const chips = { suggestions: nothingChips(tried?.dropped.startsWith('in ') ? tried.wish : wish, plan.currency) };
    if (!made(plan, 'suggest_replies', chips) && plan.tools.has('suggest_replies')) return { thinking: 'Nothing matches; offering other ways in', toolCalls: [call('suggest_replies', chips)] };
    const what = describe(wish, plan.currency);
    if (intent.note === 'other' || intent.note === 'otherColour') return reply(`Those were all the ${what} I could find. Want to try another colour, style or budget?`);
    const also = tried ? ` — not even ${describe(tried.wish, plan.currency)}` : '';
    return reply(`I couldn't find any ${what} here right now${also}. I'd rather not show you something unrelated — want to try another colour, size or style?`);
  }

  const label = relaxed ? listLabel({ ...shownWish }, 'new', plan.currency) : listLabel(shownWish, intent.note, plan.currency);
  const show = { label, kind: 'list', itemIds: products.map((p) => p.itemId), suggestions: productChips(shownWish, products) };
  const showStep = made(plan, 'show_products', show);
  if (!showStep && plan.tools.has('show_products')) return { thinking: `Found ${found.value.total || products.length}; showing the best ${products.length}`, toolCalls: [call('show_products', show)] };
  const answer = readShow(showStep?.raw);
  const shown = answer.ok ? answer.value.shown : showStep ? [] : products;
  if (!shown.length) return reply(`I found ${describe(shownWish, plan.currency)} but couldn't put them on screen just now: ${listing(products, plan.context.severalStores)}.`);
  const several = plan.context.severalStores;
  const what = describe(shownWish, plan.currency);
  const names = listing(shown, several);
  let text: string;
  const wanted = describe(wish, plan.currency);
  const otherWays = relaxed?.dropped.startsWith('in ') ? 'in other colours' : 'in other styles';
  if (relaxed && intent.note === 'other') text = `Those were all the ${wanted} I could find — here are ${what} ${otherWays} too: ${names}.`;
  else if (relaxed) text = `I couldn't find ${wanted}, so here are ${what} ${otherWays}: ${names}.`;
  else if (intent.note === 'cheaper') text = `Here are cheaper ${what}, lowest price first: ${names}.`;
  else if (intent.note === 'pricier') text = `Here are some more premium ${what}: ${names}.`;
  else if (intent.note === 'other') text = `Here are some other ${what}: ${names}.`;
  else if (intent.note === 'otherColour') text = `Here are ${what} in other colours: ${names}.`;
  else if (intent.note === 'similar') text = `Here are ${what} like the ${intent.notThis ?? 'one you picked'}: ${names}.`;
  else if (!garmentWordsOf(shownWish) && !shownWish.colour && !shownWish.occasions.length && shownWish.words.length) text = `Here's what I found for “${shownWish.words.slice(0, 4).join(' ')}”: ${names}.`;
  else if (shown.length === 1) text = `I found one ${describe(shownWish, plan.currency, { one: true })}: ${names}.`;
  else text = `Here are ${shown.length} ${what}${shownWish.sort === 'price_low' ? ', lowest price first' : ''}: ${names}.`;
  const photo = intent.fromPhoto && !relaxed ? `Going by the colour of your photo (${intent.fromPhoto}): ` : '';
  return reply(`${severalStoresNote(plan)}${photo}${text}`);
}
