// Finding one product again: the page's product or a cart line in the catalogue (a lookup of its
// title, the best match by shared words), and its sizes as the shopper says them ("Coral / XS" is
// size XS). Pure.
import { words } from '../../catalogue/taxonomy/index.js';
import { normalSize, variantHasSize } from '../../search/sizes.js';
import type { ProductBrief } from '../products.js';
import { sizeIn } from './cart-intent.js';
import { readLookup } from './outputs.js';
import { call, made, type Plan } from './plan.js';

/** Share of the words of `a` (three letters or more) that `b` has. */
export const overlap = (a: string, b: string): number => {
  const x = new Set(words(a).filter((w) => w.length > 2));
  const y = words(b);
  return x.size ? y.filter((w) => x.has(w)).length / x.size : 0;
};

export const uniq = (list: string[]): string[] => [...new Set(list)];

/** The size part of a variant label ("Coral / XS" → "XS"). */
export function sizePart(label: string): string {
  const parts = label.split('/').map((p) => p.trim()).filter(Boolean);
  return parts.find((p) => sizeIn(p)) ?? label.trim();
}

/** A size as an option to tap; its label reads back as that size. */
export const sizeLabel = (size: string): string => `Size ${sizePart(size)}`.slice(0, 60);

/** The product's own label of a size the shopper named, if it has it ("M" is "Black / Medium"), read as search reads sizes. */
export const sizeOf = (sizes: string[], wanted: string): string | undefined =>
  sizes.find((s) => normalSize(s) === normalSize(wanted) || variantHasSize({ label: s, options: [] }, wanted));

/** The lookup that finds a product by its title. */
export const productLookup = (title: string) => call('lookup_products', { query: title.slice(0, 200), limit: 5 });

/** The catalogue product of a title (cart line or page), once a lookup of it has answered. */
export function productOf(plan: Plan, title: string): { asked: boolean; product: ProductBrief | null } {
  const step = made(plan, 'lookup_products', productLookup(title).arguments);
  if (!step) return { asked: false, product: null };
  const answer = readLookup(step.raw);
  const products = answer.ok ? answer.value.products : [];
  const best = [...products].sort((a, b) => overlap(title, b.name) - overlap(title, a.name))[0];
  return { asked: true, product: best && overlap(title, best.name) >= 0.6 ? best : null };
}
