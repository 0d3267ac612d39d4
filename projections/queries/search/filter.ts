// Search, the filters: what a candidate must be to be shown at all. Two moments: on the search
// memory's labels while retrieving (the request's filters, and the gender and age the words named),
// and on the offer once priced in the shopper's market (price, sale, stock and size).
import { budgetIn, type PricedProduct } from '../../../domain/pricing/index.js';
import type { UnderstoodQuery } from '../../../domain/search/index.js';
import { variantHasSize } from '../../../domain/search/sizes.js';
import type { MemoryDoc } from '../../search-memory.js';
import type { SearchFilters } from './index.js';

/**
 * The request's filters and the gender and age the words named (none for null), as a test of a
 * doc; with `paysStored` (given when a price bound is asked), the price bounds too, on the docs
 * whose stored price is the one the shopper pays (the rest are judged once priced).
 */
export function docFilter(filters: SearchFilters, understood: UnderstoodQuery | null, paysStored?: (doc: MemoryDoc) => boolean): (doc: MemoryDoc) => boolean {
  const tests: Array<(doc: MemoryDoc) => boolean> = [];
  // Judged while retrieving, a budget keeps each leg's best within it: after the cut, "sneakers
  // under 1700" in a store of 200 sneakers would find those of the first 120 that fit, not all.
  if (paysStored) tests.push((doc) => !paysStored(doc) || passesPrice(doc.price, doc.currency, filters, understood));
  if (filters.slot) tests.push((doc) => doc.slotName === filters.slot);
  if (filters.family) tests.push((doc) => doc.family === filters.family);
  if (filters.color_family) tests.push((doc) => doc.colorFamily === filters.color_family);
  if (filters.pattern) tests.push((doc) => doc.pattern === filters.pattern);
  if (filters.material) tests.push((doc) => doc.materials.includes(filters.material!));
  if (filters.fit) tests.push((doc) => doc.fit === filters.fit);
  // The filter is the field's value; a gender the shopper's words named also lets unisex through.
  const gender = understood?.gender;
  if (filters.gender) tests.push((doc) => doc.gender === filters.gender);
  else if (gender === 'unisex') tests.push((doc) => doc.gender === 'unisex');
  else if (gender) tests.push((doc) => doc.gender === gender || doc.gender === 'unisex');
  const age = understood?.ageGroup;
  if (age && age !== 'adult') tests.push((doc) => doc.ageGroup === age);
  if (!tests.length) return () => true;
  return (doc) => tests.every((test) => test(doc));
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

/** Whether the request or the words bound the price. */
export const hasPriceBound = (filters: SearchFilters, understood: UnderstoodQuery | null): boolean =>
  filters.minPrice !== undefined || filters.maxPrice !== undefined || understood?.minPrice !== undefined || understood?.maxPrice !== undefined;

/** The request's price bounds, else the words' ("under 1300 rs" converted to `currency`), on a price in `currency`. */
function passesPrice(price: number, currency: string, filters: SearchFilters, understood: UnderstoodQuery | null): boolean {
  const said = understood ? budgetIn(understood, currency) : {};
  const min = filters.minPrice ?? said.minPrice;
  const max = filters.maxPrice ?? said.maxPrice;
  return (min === undefined || price >= min) && (max === undefined || price <= max);
}
