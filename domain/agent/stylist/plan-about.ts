// A question about one product — its sizes, its price, whether it is in stock (in a size) — for
// the page's product (found in the catalogue by its title) or a card on screen: answered from the
// product's brief, with chips for what usually comes next. Pure.
import type { ProductBrief } from '../products.js';
import type { Intent } from './intent.js';
import { call, made, reply, type Plan, type StylistStep } from './plan.js';
import { productLookup, productOf, sizeOf, sizePart, uniq } from './product-match.js';
import { money } from './words.js';

type AboutIntent = Extract<Intent, { kind: 'about' }>;

/** "The Suede Ankle Boots are", "The Aria Wrap Dress is". */
const is = (name: string) => (/[^s]s$/i.test(name.split(/\s[–|-]\s/)[0]!.trim()) ? 'are' : 'is');

const list = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0] ?? '');

function answer(intent: AboutIntent, p: ProductBrief): string {
  const sizes = uniq(p.sizes.map(sizePart));
  const inSizes = sizes.length > 1 ? ` ${is(p.name) === 'are' ? "They're" : "It's"} in stock in ${list(sizes)}.` : '';
  if (!p.available) return `The ${p.name} ${is(p.name)} sold out right now — want me to find something similar?`;
  if (intent.size) {
    const size = sizeOf(p.sizes, intent.size);
    return size ? `Yes — the ${p.name} ${is(p.name)} in stock in size ${sizePart(size)} (${money(p.price, p.currency)}).` : `The ${p.name} ${is(p.name)} not in stock in size ${intent.size} right now.${inSizes}`;
  }
  if (intent.what === 'price') {
    const was = p.onSale && p.compareAtPrice ? `, down from ${money(p.compareAtPrice, p.currency)}` : '';
    return `The ${p.name} ${is(p.name)} ${money(p.price, p.currency)}${was}.${inSizes}`;
  }
  if (intent.what === 'sizes') return sizes.length > 1 ? `The ${p.name} ${is(p.name)} in stock in ${list(sizes)}.` : `The ${p.name} ${sizes.length ? `comes in ${sizes[0]}` : 'comes in one size'}.`;
  return `Yes — the ${p.name} ${is(p.name)} in stock (${money(p.price, p.currency)}).${inSizes}`;
}

export function planAbout(plan: Plan, intent: AboutIntent): StylistStep {
  let product: ProductBrief | null;
  if (intent.target.kind === 'shown') product = intent.target.brief;
  else {
    const title = plan.context.page?.title ?? '';
    const found = productOf(plan, title);
    if (!found.asked) return { thinking: `Reading: ${intent.what} of the page product`, toolCalls: [productLookup(title)] };
    if (!found.product) return reply(`I couldn't find the ${title} in the catalogue right now, so I can't check its ${intent.what === 'price' ? 'price' : 'sizes and stock'} — the product page has the details.`);
    product = found.product;
  }
  const chips = { suggestions: [...(plan.tools.has('add_to_cart') && product.available ? ['Add it to my cart'] : []), 'Complete the look', 'Show similar pieces'] };
  if (!made(plan, 'suggest_replies', chips) && plan.tools.has('suggest_replies')) return { thinking: `Answering about the ${product.name}`, toolCalls: [call('suggest_replies', chips)] };
  return reply(answer(intent, product));
}
