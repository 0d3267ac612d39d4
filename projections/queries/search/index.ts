// Shopper search (document 3 §3), top to bottom, one file per stage:
//   1. scope.ts       which datasets, their default currency, the read model's head;
//   2. understand     the shopper's words onto the taxonomy (domain/search/understand.ts);
//   3. retrieve.ts    five bounded legs over the search memory (text, boost, attributes, traits, vector),
//                     held to the filters of the request and the words (filter.ts);
//   4. rank           relevance among what was found (domain/search/rank.ts), every candidate
//                     counted as available;
//   5. price.ts       priced in the shopper's market in that order until `limit` buyable products
//                     are found, the offer filters applied (price, sale, stock, size), then put in
//                     the same order again with what each offer says of stock (`withAvailability`);
//   6. answer.ts      the page: the bodies the memory holds with their offers, and the answer's market.
import type { Kysely } from 'kysely';
import type { Gender } from '../../../domain/catalogue/vocabulary.js';
import type { DatasetItemBody } from '../../../domain/item/record.js';
import type { PricedProduct } from '../../../domain/pricing/index.js';
import { understandQuery } from '../../../domain/search/index.js';
import { isRelevant, rank, rankingIntent, withAvailability, type Fusion } from '../../../domain/search/rank.js';
import type { Embedder } from '../../../infra/models/port.js';
import type { SearchMemory } from '../../search-memory.js';
import { answer } from './answer.js';
import { priceInMarket } from './price.js';
import { retrieve } from './retrieve.js';
import { resolveScope } from './scope.js';

export interface SearchFilters {
  slot?: string;
  family?: string;
  gender?: Gender;
  color_family?: string;
  pattern?: string;
  material?: string;
  fit?: string;
  minPrice?: number;
  maxPrice?: number;
  onSale?: boolean;
  /** A size the shopper wears, as the words would name it ("M", "42"): only products offering it, those with it in stock first. Not part of POST /v1/search's body; the agent's lookup sets it. */
  size?: string;
  /** Only products the shopper can buy (in `size`, when set). Not part of POST /v1/search's body: the agent's look-ups and match set it, so a sold-out product never takes the place of one they can show. */
  inStock?: boolean;
}

export interface SearchRequest {
  organizationId: string;
  query: string;
  limit: number;
  datasetIds?: readonly string[];
  store?: { origin?: string | null; shop?: string | null } | null;
  country?: string | null;
  filters?: SearchFilters;
}

export interface SearchResult {
  itemId: string;
  datasetId: string;
  score: number;
  metadata: DatasetItemBody['metadata'];
  product: DatasetItemBody['product'] & Omit<PricedProduct, 'variants' | 'price' | 'currency' | 'market'>;
}

export interface SearchResponse {
  results: SearchResult[];
  market: { country: string | null; currency: string; exact: boolean };
}

export interface SearchDeps {
  db: Kysely<any>;
  memory: SearchMemory;
  embedder: Embedder | null;
  fusion?: Fusion;
}

export async function searchCatalogue(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  const country = request.country ? request.country.trim().toUpperCase() : null;
  const filters = request.filters ?? {};
  const fusion = deps.fusion ?? 'blend';

  const { datasets, head } = await resolveScope(deps.db, request);
  const understood = understandQuery(request.query);
  const market = { country, fallbackCurrency: datasets[0]?.currency ?? 'CAD' };
  if (!datasets.length) return answer(deps, [], { offers: new Map(), sources: [] }, new Map(), market);

  const intent = rankingIntent(understood);
  const found = await retrieve(deps, { datasetIds: datasets.map((d) => d.datasetId), head, country }, request.query, filters, understood, intent);
  const relevant = found.signals.filter((signal) => isRelevant(intent, signal, found.bestSimilarity));
  const byRelevance = rank(intent, relevant, fusion);
  const priced = await priceInMarket(deps, byRelevance, { ...found, signals: relevant }, { country, limit: request.limit, filters, understood });
  const ranked = withAvailability(byRelevance, new Map(priced.kept.map((kept) => [kept.itemId, kept.available]))).slice(0, request.limit);
  return answer(deps, ranked, priced, found.docOf, market);
}
