// Search, stage 6: the answer. The ranked page's stored bodies, each with its offer in the
// shopper's market, and the market the page as a whole is priced in.
import type { Kysely } from 'kysely';
import { shopperMarket, type PricedProduct, type PricingSource } from '../../../domain/pricing/index.js';
import type { Ranked } from '../../../domain/search/rank.js';
import { itemBodies, marketProduct } from '../products.js';
import type { SearchResponse, SearchResult } from './index.js';

export async function answer(
  db: Kysely<any>,
  ranked: readonly Ranked[],
  priced: { offers: Map<string, PricedProduct>; sources: ReadonlyArray<PricingSource | null> },
  market: { country: string | null; fallbackCurrency: string },
): Promise<SearchResponse> {
  const items = await itemBodies(db, ranked.map((r) => r.itemId));
  const results: SearchResult[] = [];
  for (const { itemId, score } of ranked) {
    const item = items.get(itemId);
    const offer = priced.offers.get(itemId);
    if (!item || !offer) continue;
    results.push({ itemId, datasetId: item.datasetId, score, metadata: item.body.metadata, product: marketProduct(item.body, offer) });
  }
  const offers = results.map((r) => priced.offers.get(r.itemId)!);
  return { results, market: shopperMarket(market.country, priced.sources, offers, market.fallbackCurrency) };
}
