// The query mix of the search performance benchmark: every judged shopper query (scoped to its
// store's dataset when it has one) as it is, then again with a structured filter its words
// suggest (slot, color_family), with a price bound or onSale, and with a shopper's country for
// market re-pricing; shuffled with a fixed seed so every run sends the same sequence.
import { COLOR_FAMILIES } from '../../domain/catalogue/vocabulary.js';
import type { JudgedQuery } from '../search-quality/queries.js';
import type { SearchBody, SearchFilters } from './client.js';

const SLOT_WORDS: Array<[RegExp, string]> = [
  [/\b(dress|dresses|jumpsuit|romper)\b/i, 'full body'],
  [/\b(shoes?|sneakers?|trainers?|boots?|sandals?|heels|loafers|samba|low tops?)\b/i, 'footwear'],
  [/\b(pants?|trousers?|jeans|skirts?|shorts|leggings)\b/i, 'bottom'],
  [/\b(jackets?|coats?|blazers?|parkas?|vests?)\b/i, 'outerwear'],
  [/\b(shirts?|tees?|t-shirts?|tops?|blouses?|sweaters?|hoodies?|knit|cardigans?|polo)\b/i, 'top'],
];

const COUNTRIES = ['US', 'CA', 'GB', 'DE', 'IN', 'EG', 'AU', 'FR'];

export const slotOf = (text: string): string | undefined => SLOT_WORDS.find(([pattern]) => pattern.test(text))?.[1];

export const colourOf = (text: string): string | undefined => COLOR_FAMILIES.find((family) => new RegExp(`\\b${family}\\b`, 'i').test(text));

/** A small deterministic generator (mulberry32): the same sequence for the same seed, every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** `datasetOf(feed)`: the dataset a store-scoped query searches. */
export function queryMix(queries: readonly JudgedQuery[], datasetOf: (feed: string) => string, seed = 13): SearchBody[] {
  const next = random(seed);
  const bodies: SearchBody[] = [];
  for (const [n, q] of queries.entries()) {
    const base: SearchBody = { query: q.text, limit: 20, ...(q.store ? { datasetIds: [datasetOf(q.store)] } : {}), ...(q.country ? { country: q.country } : {}) };
    const withFilters = (filters: SearchFilters): SearchBody => ({ ...base, filters });
    bodies.push(base);
    const slot = slotOf(q.text);
    const colour = colourOf(q.text);
    if (slot) bodies.push(withFilters({ slot }));
    if (colour) bodies.push(withFilters({ color_family: colour, ...(slot ? { slot } : {}) }));
    bodies.push(withFilters(n % 2 ? { maxPrice: q.store ? 150 : 100 } : { onSale: true }));
    bodies.push({ ...base, country: COUNTRIES[n % COUNTRIES.length]!, ...(slot && n % 3 === 0 ? { filters: { slot, onSale: true } } : {}) });
  }
  for (let i = bodies.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [bodies[i], bodies[j]] = [bodies[j]!, bodies[i]!];
  }
  return bodies;
}
