// Search, stage 6: the answer. The ranked page's bodies, each with its offer in the shopper's
// market, and the market the page as a whole is priced in. The bodies are the ones the search
// memory holds, prepared by the search projector. A dataset restored from its saved copy has none
// yet: those shown are read from the read model once and kept. A row projected before the read
// model kept bodies has none there either: its body is read from catalogue_items.
import type { Kysely } from 'kysely';
import { shopperMarket, type PricedProduct, type PricingSource } from '../../../domain/pricing/index.js';
import type { AnswerBody } from '../../../domain/item/record.js';
import type { Ranked } from '../../../domain/search/rank.js';
import type { MemoryDoc, SearchMemory } from '../../search-memory.js';
import { itemBodies, marketProduct } from '../products.js';
import type { SearchResponse, SearchResult } from './index.js';

export async function answer(
  deps: { db: Kysely<any>; memory: SearchMemory },
  ranked: readonly Ranked[],
  priced: { offers: Map<string, PricedProduct>; sources: ReadonlyArray<PricingSource | null> },
  docOf: ReadonlyMap<string, MemoryDoc>,
  market: { country: string | null; fallbackCurrency: string },
): Promise<SearchResponse> {
  const bodies = await bodiesOf(deps, ranked.map((r) => docOf.get(r.itemId)).filter((doc) => doc !== undefined));
  const results: SearchResult[] = [];
  for (const { itemId, score } of ranked) {
    const doc = docOf.get(itemId);
    const offer = priced.offers.get(itemId);
    const body = bodies.get(itemId);
    if (!doc || !body || !offer) continue;
    results.push({ itemId, datasetId: doc.datasetId, score, metadata: body.metadata, product: marketProduct(body, offer) });
  }
  const offers = results.map((r) => priced.offers.get(r.itemId)!);
  return { results, market: shopperMarket(market.country, priced.sources, offers, market.fallbackCurrency) };
}

/** Each doc's answer body: the memory's, else the read model's (then kept), else catalogue_items'. */
async function bodiesOf(deps: { db: Kysely<any>; memory: SearchMemory }, docs: readonly MemoryDoc[]): Promise<Map<string, AnswerBody>> {
  const bodies: Map<string, AnswerBody> = await deps.memory.values('body', docs);
  const unprojected = docs.filter((doc) => !bodies.has(doc.itemId)).map((doc) => doc.itemId);
  if (unprojected.length) for (const [itemId, { body }] of await itemBodies(deps.db, unprojected)) bodies.set(itemId, body);
  return bodies;
}
