// Search, the filters: what a candidate must be to be shown at all. Two moments: on the search
// memory's labels while retrieving (the request's filters, and the gender and age the words named),
// and on the offer once priced in the shopper's market (price, sale, stock and size).
import { budgetIn, type PricedProduct } from '../../../domain/pricing/index.js';
import type { UnderstoodQuery } from '../../../domain/search/index.js';
import { variantHasSize } from '../../../domain/search/sizes.js';
import type { LabelField, LabelFilter, MemoryDoc, PriceTest } from '../../search-memory/dataset.js';
import type { SearchFilters } from './index.js';

/**
 * The request's filters and the gender and age the words named (none for null), as a test of a
 * doc; with `paysStored` (given when a price bound is asked), the price bounds too, on the docs
 * from sources whose stored price is the one the shopper pays (the rest are judged once priced).
 * The tests of single labels and of the price are also given as such (`labels`, `price`): the
 * search memory tests them on its columns, without reading the doc (search-memory/dataset.ts
 * `Verdicts`).
 */
export function docFilter(filters: SearchFilters, understood: UnderstoodQuery | null, paysStored?: (sourceId: string | null) => boolean): LabelFilter {
  const labels: Array<{ field: LabelField; values: string[] }> = [];
  const rest: Array<(doc: MemoryDoc) => boolean> = [];
  // Judged while retrieving, a budget keeps each leg's best within it: after the cut, "sneakers
  // under 1700" in a store of 200 sneakers would find those of the first 120 that fit, not all.
  const price: PriceTest | null = paysStored ? { paysStored, within: priceBounds(filters, understood) } : null;
  if (filters.slot) labels.push({ field: 'slotName', values: [filters.slot] });
  if (filters.family) labels.push({ field: 'family', values: [filters.family] });
  if (filters.color_family) labels.push({ field: 'colorFamily', values: [filters.color_family] });
  if (filters.pattern) labels.push({ field: 'pattern', values: [filters.pattern] });
  if (filters.material) rest.push((doc) => doc.materials.includes(filters.material!));
  if (filters.fit) labels.push({ field: 'fit', values: [filters.fit] });
  // The filter is the field's value; a gender the shopper's words named also lets unisex through.
  const gender = understood?.gender;
  if (filters.gender) labels.push({ field: 'gender', values: [filters.gender] });
  else if (gender === 'unisex') labels.push({ field: 'gender', values: ['unisex'] });
  else if (gender) labels.push({ field: 'gender', values: [gender, 'unisex'] });
  const age = understood?.ageGroup;
  if (age && age !== 'adult') labels.push({ field: 'ageGroup', values: [age] });
  const others = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : (doc: MemoryDoc) => rest.every((test) => test(doc));
  return {
    labels,
    price,
    rest: others,
    test: (doc) =>
      labels.every(({ field, values }) => values.includes(doc[field] as string)) &&
      (price === null || !price.paysStored(doc.sourceId) || price.within(doc.price, doc.currency)) &&
      (others === null || others(doc)),
  };
}

/** Price, sale, stock and size, judged in the shopper's market: the request's filters, and what the words asked (none for null). */
export function passesOffer(offer: PricedProduct, filters: SearchFilters, understood: UnderstoodQuery | null): boolean {
  if (!passesPrice(offer.price, offer.currency, filters, understood)) return false;
  if ((filters.onSale ?? understood?.onSale) && !offer.onSale) return false;
  if (understood?.inStock && !offer.available) return false;
  const size = filters.size ?? understood?.size;
  if (size && !offer.variants.some((variant) => variantHasSize(variant, size))) return false;
  return true;
}

/** Whether the shopper can buy the offer in `size`. */
export const sizeInStock = (variants: PricedProduct['variants'], size: string): boolean => variants.some((variant) => variant.inStock && variantHasSize(variant, size));

/** Whether pricing may drop a candidate (`passesOffer`, and the agent's `inStock`): a price bound, sale, stock or a size. */
export const hasOfferFilter = (filters: SearchFilters, understood: UnderstoodQuery): boolean =>
  hasPriceBound(filters, understood) || Boolean(filters.onSale ?? understood.onSale) || Boolean(filters.inStock || understood.inStock) || Boolean(filters.size ?? understood.size);

/** Whether the request or the words bound the price. */
export const hasPriceBound = (filters: SearchFilters, understood: UnderstoodQuery | null): boolean =>
  filters.minPrice !== undefined || filters.maxPrice !== undefined || understood?.minPrice !== undefined || understood?.maxPrice !== undefined;

/** The request's price bounds, else the words' ("under 1300 rs" converted to `currency`), on a price in `currency`. */
function passesPrice(price: number, currency: string, filters: SearchFilters, understood: UnderstoodQuery | null): boolean {
  return within(price, boundsIn(currency, filters, understood));
}

/** `passesPrice` as a test of many prices: the words' budget converted once a currency, not once a price. */
function priceBounds(filters: SearchFilters, understood: UnderstoodQuery | null): (price: number, currency: string) => boolean {
  const byCurrency = new Map<string, PriceBounds>();
  return (price, currency) => {
    let bounds = byCurrency.get(currency);
    if (!bounds) byCurrency.set(currency, (bounds = boundsIn(currency, filters, understood)));
    return within(price, bounds);
  };
}

type PriceBounds = { minPrice?: number | undefined; maxPrice?: number | undefined };

/** The bounds on a price in `currency`: the request's, else the words'. */
function boundsIn(currency: string, filters: SearchFilters, understood: UnderstoodQuery | null): PriceBounds {
  const said = understood ? budgetIn(understood, currency) : {};
  return { minPrice: filters.minPrice ?? said.minPrice, maxPrice: filters.maxPrice ?? said.maxPrice };
}

const within = (price: number, { minPrice, maxPrice }: PriceBounds): boolean => (minPrice === undefined || price >= minPrice) && (maxPrice === undefined || price <= maxPrice);
