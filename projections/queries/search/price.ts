// Search, stage 4: pricing in the shopper's market. Candidates are priced in the order relevance
// put them (every candidate counted as available), a batch at a time, until `limit` products the
// shopper can buy are found: pricing is the costly part (each candidate's variants parsed, read
// from the read model once where a restored dataset lacks them, the sources' markets and a foreign
// market's rows read from the database), and a product priced later can only rank lower within its
// tier (domain/search/rank.ts). The offer filters (filter.ts) apply here.
import type { Kysely } from 'kysely';
import type { ListingVariant } from '../../../domain/catalogue/product-input.js';
import type { PricedProduct, PricingSource } from '../../../domain/pricing/index.js';
import type { UnderstoodQuery } from '../../../domain/search/index.js';
import type { CandidateSignals, Ranked } from '../../../domain/search/rank.js';
import type { MemoryDoc, SearchMemory } from '../../search-memory.js';
import { loadPricingContext, offerInMarket } from '../market-pricing.js';
import { passesOffer, sizeInStock } from './filter.js';
import type { SearchFilters } from './index.js';
import type { Retrieved } from './retrieve.js';

/** Candidates priced per round trip for market prices. */
const PRICING_BATCH = 40;

export interface Priced {
  /** The candidates that passed, `available` now as their offer says. */
  kept: CandidateSignals[];
  offers: Map<string, PricedProduct>;
  /** The pricing sources met, for the answer's market. */
  sources: Array<PricingSource | null>;
}

export async function priceInMarket(
  { db, memory }: { db: Kysely<any>; memory: SearchMemory },
  byRelevance: readonly Ranked[],
  found: Pick<Retrieved, 'signals' | 'docOf' | 'named'> & { pricingSources: ReadonlyMap<string, PricingSource> },
  request: { country: string | null; limit: number; filters: SearchFilters; understood: UnderstoodQuery },
): Promise<Priced> {
  const { country, limit, filters, understood } = request;
  const bySignal = new Map(found.signals.map((signal) => [signal.itemId, signal]));
  const offers = new Map<string, PricedProduct>();
  const sources = new Set<PricingSource | null>();
  const kept: CandidateSignals[] = [];
  let buyable = 0;
  for (let start = 0; start < byRelevance.length && buyable < limit; start += PRICING_BATCH) {
    const batch: MemoryDoc[] = byRelevance.slice(start, start + PRICING_BATCH).map((ranked) => found.docOf.get(ranked.itemId)!);
    const [pricing, variantsOf] = await Promise.all([
      loadPricingContext(db, batch.map((doc) => ({ itemId: doc.itemId, sourceId: doc.sourceId, queuedAt: doc.queuedAt })), { country, sources: found.pricingSources }),
      memory.values('variants', batch),
    ]);
    for (const doc of batch) {
      const variants = variantsOf.get(doc.itemId);
      // Gone from the read model since the memory caught up (a dataset deleted meanwhile).
      if (variants === undefined) continue;
      const context = pricing.get(doc.itemId);
      sources.add(context?.source ?? null);
      // The memory caught up with the read model before retrieving: its docs are the active items, as they are now.
      // Frozen, and shared by the searches that price this doc: a writer would throw, not spoil the next search.
      const offer = offerInMarket(country, { price: doc.price, currency: doc.currency, variants: variants as ListingVariant[] }, context);
      const words = found.named.has(doc) ? null : understood;
      if (!passesOffer(offer, filters, words)) continue;
      offers.set(doc.itemId, offer);
      // A shopper who named a size can buy the product only if that size is in stock.
      const size = filters.size ?? words?.size;
      const available = offer.available && (!size || sizeInStock(offer.variants, size));
      if (filters.inStock && !available) continue;
      if (available) buyable++;
      kept.push({ ...bySignal.get(doc.itemId)!, available });
    }
  }
  return { kept, offers, sources: [...sources] };
}
