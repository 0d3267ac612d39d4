// What the stylist writes: prices, card labels ("Red dresses under $80"), the one-line reading of a
// request for thinking, follow-up chips, and the short replies that name what is on screen. Text
// is short on purpose: the cards speak for themselves. Pure.
import { OCCASION_WORDING } from '../../search/shopper-words.js';
import type { ProductBrief } from '../products.js';
import type { ProductNote } from './intent.js';
import { describingOnly, garmentWords, type Wish } from './wish.js';

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', CAD: '$', AUD: '$', NZD: '$', SGD: '$', HKD: '$', EUR: '€', GBP: '£', INR: '₹', JPY: '¥' };

export function money(amount: number, currency: string): string {
  const fixed = Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
  const value = fixed.replace(/^(\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ','));
  const symbol = SYMBOLS[currency.toUpperCase()];
  return symbol ? `${symbol}${value}` : `${value} ${currency.toUpperCase()}`.trim();
}

const PLURAL_AS_IS = /(jeans|trousers|shorts|leggings|joggers|pyjamas|dungarees|glasses|goggles|tights|socks|briefs|boxers|earrings|cufflinks|gloves|suspenders|heels|wear|jewellery|lingerie|home|beauty|stationery|electronics|equipment)$/;

/** A garment word as a shopper says several: dress → dresses, t shirt → t-shirts, jeans → jeans. */
export function plural(word: string): string {
  const w = word.replace(/^t shirt/, 't-shirt');
  if (PLURAL_AS_IS.test(w) || (/s$/.test(w) && !/ss$/.test(w))) return w;
  if (/(ss|x|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

export const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const AUDIENCE: Readonly<Record<string, string>> = { mens: 'for men', womens: 'for women', unisex: 'for everyone' };

function budget(wish: Pick<Wish, 'minPrice' | 'maxPrice'>, currency: string): string {
  const { minPrice: min, maxPrice: max } = wish;
  if (min !== undefined && max !== undefined) return `${money(Math.round(min), currency)}–${money(Math.round(max), currency)}`;
  if (max !== undefined) return `under ${money(Math.ceil(max), currency)}`;
  if (min !== undefined) return `over ${money(Math.floor(min), currency)}`;
  return '';
}

/** "red linen dresses for women in size M under $80". */
const PAIRS = /(jeans|trousers|shorts|leggings|joggers|pyjamas|dungarees|glasses|goggles|tights|socks|briefs|boxers|earrings|cufflinks|gloves|suspenders|heels|shoes)$/;

/** One of a garment: "dress", "top" (of "tops"), but "pair of jeans". */
const one = (word: string) => {
  const w = word.replace(/^t shirt/, 't-shirt');
  return PAIRS.test(w) ? `pair of ${w}` : /[^s]s$/.test(w) ? w.replace(/ies$/, 'y').replace(/s$/, '') : w;
};

export function describe(wish: Wish, currency: string, options: { garment?: boolean; one?: boolean } = {}): string {
  const garment = garmentWords(wish).map(options.one ? one : plural).join(' and ') || (options.garment === false ? '' : options.one ? 'piece' : 'pieces');
  const words = describingOnly(wish.words).slice(0, 2);
  const occasion = occasionWords(wish.occasions);
  return [
    occasion.before,
    wish.colour,
    ...words,
    garment,
    wish.age ? `for ${wish.age === 'baby' ? 'babies' : 'kids'}` : wish.gender ? AUDIENCE[wish.gender] : '',
    occasion.after,
    wish.size ? `in size ${wish.size}` : '',
    budget(wish, currency),
    wish.onSale ? 'on sale' : '',
  ]
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function listLabel(wish: Wish, note: ProductNote, currency: string): string {
  // Words the vocabulary does not know are quoted rather than dressed up as a garment.
  if (!garmentWords(wish).length && !wish.colour && !wish.occasions.length && wish.words.length && note === 'new') return `Results for “${wish.words.slice(0, 4).join(' ')}”`.slice(0, 120);
  const what = describe(wish, currency);
  const label =
    note === 'cheaper' ? `Cheaper ${what}` : note === 'pricier' ? `More premium ${what}` : note === 'other' ? `More ${what}` : note === 'otherColour' ? `${what} in other colours` : note === 'similar' ? `Similar ${what}` : what;
  return capital(label).slice(0, 120);
}

/** The thinking line: how the request was read. */
export function readingLine(kind: string, wish: Wish | null, currency: string, extra: string[] = []): string {
  const parts = [kind];
  if (wish) {
    parts.push(...garmentWords(wish));
    if (wish.colour) parts.push(wish.colour);
    parts.push(...wish.words.slice(0, 3));
    if (wish.gender) parts.push(AUDIENCE[wish.gender]!);
    if (wish.occasions.length) parts.push(wish.occasions.join(', '));
    if (wish.size) parts.push(`size ${wish.size}`);
    if (wish.maxPrice !== undefined) parts.push(`under ${Math.ceil(wish.maxPrice)} ${currency}`);
    if (wish.minPrice !== undefined) parts.push(`over ${Math.floor(wish.minPrice)} ${currency}`);
    if (wish.onSale) parts.push('on sale');
    if (wish.sort === 'price_low') parts.push('lowest price first');
  }
  parts.push(...extra);
  return `Reading: ${parts.filter(Boolean).join(' · ')}`;
}

/** "Aria Wrap Dress ($64)", with its store when several are in scope. */
export function named(p: ProductBrief, severalStores: boolean): string {
  const price = money(p.price, p.currency);
  return `${p.name || 'this piece'} (${severalStores && p.store ? `${price}, ${p.store}` : price})`;
}

export function listing(products: ProductBrief[], severalStores: boolean, max = 3): string {
  const names = products.slice(0, max).map((p) => named(p, severalStores));
  const more = products.length - names.length;
  if (!names.length) return '';
  if (more > 0) return `${names.join(', ')} and ${more} more`;
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const FASHION_SLOTS = new Set(['top', 'bottom', 'full body', 'footwear', 'outerwear', 'bag', 'accessory', 'headwear', 'jewellery']);
const CHIP_COLOURS = ['black', 'navy', 'white', 'beige', 'red', 'green', 'blue', 'pink'];

/** Follow-ups to offer with a list: cheaper, another colour, a look, something else. */
export function productChips(wish: Wish, shown: ProductBrief[]): string[] {
  const chips: string[] = [];
  const prices = shown.map((p) => p.price);
  if (prices.length > 1 && Math.max(...prices) > Math.min(...prices)) chips.push('Show cheaper');
  const colours = new Set(shown.map((p) => p.colour));
  const colour = CHIP_COLOURS.find((c) => c !== wish.colour && !(colours.size === 1 && colours.has(c)));
  if (colour) chips.push(`In ${colour}`);
  if (shown.some((p) => FASHION_SLOTS.has(p.slot))) chips.push('Complete the look');
  chips.push('Something else');
  return chips.slice(0, 4);
}

/** Chips when nothing matched: loosen one thing at a time, never silently. */
export function nothingChips(wish: Wish, currency: string): string[] {
  const chips: string[] = [];
  if (wish.colour) chips.push('Any colour');
  if (wish.size) chips.push('Any size');
  if (wish.words.length && garmentWords(wish).length) chips.push(`All ${plural(garmentWords(wish)[0]!)}`);
  if (wish.maxPrice !== undefined) chips.push(`Under ${money(Math.ceil(wish.maxPrice * 1.5), currency)}`);
  // A family the store has none of: its whole slot, as the shopper's choice ("Show all shoes").
  const slotWord = wish.slot && wish.families.length === 1 ? garmentWords({ families: [], slot: wish.slot }) : [];
  if (slotWord[0] && slotWord[0] !== wish.families[0]) chips.push(`Show all ${slotWord[0]}`);
  if (!chips.length) chips.push('Show me something else');
  return chips.slice(0, 4);
}

export const LOOK_CHIPS = ['Another look', 'Cheaper look', 'A smarter look', 'Something else'];

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** Occasions as a description says them: style words before the garment ("warm", "casual"), the rest after ("for a summer wedding", "for work"). */
export function occasionWords(occasions: readonly string[]): { before: string; after: string } {
  const styles = occasions.filter((o) => OCCASION_WORDING.styles.includes(o));
  const rest = occasions.filter((o) => !styles.includes(o)).map((o) => (o === 'black tie' ? 'black-tie event' : o));
  const event = occasions.some((o) => OCCASION_WORDING.events.includes(o));
  const phrase = rest.join(' ');
  const places = rest.slice(0, 2).map((o) => (OCCASION_WORDING.places.includes(o) ? `the ${o}` : o));
  return { before: styles.join(' '), after: !rest.length ? '' : event ? `for ${article(phrase)} ${phrase}` : `for ${places.join(' and ')}` };
}

/** "two casual looks", "a look for a summer wedding", "two cheaper looks for work". */
export function looksFor(occasions: readonly string[], count: number, adjective = ''): string {
  const { before, after } = occasionWords(occasions);
  const noun = `${adjective ? `${adjective} ` : ''}${before ? `${before} ` : ''}${count > 1 ? 'looks' : 'look'}`;
  return `${count > 1 ? (count === 2 ? 'two' : String(count)) : article(noun)} ${noun}${after ? ` ${after}` : ''}`;
}
