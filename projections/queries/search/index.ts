// Shopper search (document 3 §3), top to bottom, one file per stage:
//   1. scope.ts       which datasets, their default currency, their sources' markets, the read
//                     model's head (one round trip; retrieval starts on the scope's last datasets
//                     meanwhile, kept if the scope is the same and the memories were caught up);
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
import { hasPriceBound } from './filter.js';
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

  const scoping = resolveScope(deps.db, request);
  const understood = understandQuery(request.query);
  const intent = rankingIntent(understood);
  // While the scope is read (a round trip to the database), retrieval runs on the datasets the
  // same scope had last time; kept only if the scope is the same and every memory had caught up
  // with the head it read, else retrieved again as usual. One shopper's search then costs the
  // larger of the two, not their sum; a wasted guess costs a retrieval (docs/performance.md).
  const key = scopeKey(request);
  const remembered = key.length <= SCOPE_KEY_CHARS;
  // Not with a price bound: the bound's retrieval reads the datasets' sources, which the scope brings.
  const guess = remembered && !hasPriceBound(filters, understood) ? deps.memory.lastScope(key, request.organizationId) : null;
  const early = guess
    ? scopeReadSent()
        .then(() => retrieve(deps, { datasetIds: [...guess], head: null, country }, request.query, filters, understood, intent, request.limit))
        .catch(() => null)
    : null;
  const { datasets, head, sources } = await scoping;
  const market = { country, fallbackCurrency: datasets[0]?.currency ?? 'CAD' };
  if (!datasets.length) return answer(deps, [], { offers: new Map(), sources: [] }, new Map(), market);

  const datasetIds = datasets.map((d) => d.datasetId);
  if (remembered) deps.memory.rememberScope(key, datasetIds);
  const guessed = early && (await early);
  const found =
    guessed && sameIds(guess!, datasetIds) && (head === null || (guessed.reached !== null && guessed.reached >= head))
      ? guessed
      : await retrieve(deps, { datasetIds, head, country, pricingSources: sources }, request.query, filters, understood, intent, request.limit);
  const relevant = found.signals.filter((signal) => isRelevant(intent, signal, found.bestSimilarity));
  const byRelevance = rank(intent, relevant, fusion);
  // The sources as the scope read them: pricing reads no sources of its own.
  const priced = await priceInMarket(deps, byRelevance, { ...found, signals: relevant, pricingSources: sources }, { country, limit: request.limit, filters, understood });
  const ranked = withAvailability(byRelevance, new Map(priced.kept.map((kept) => [kept.itemId, kept.available]))).slice(0, request.limit);
  return answer(deps, ranked, priced, found.docOf, market);
}

/**
 * Resolves once the scope read just asked for is on its way to the database. pg's pool hands an
 * idle connection over on `process.nextTick`, and ticks run only once the microtask queue is
 * empty; retrieval's own awaits resolve at once (the memory held, the words and the query's
 * vector cached), so started straight away its legs ran first, and the query was written only
 * after them: the round trip followed retrieval instead of overlapping it (measured at 100,000
 * items: 1.5 ms between the legs' end and the scope's answer, 0.5 ms with this; docs/performance.md).
 * An immediate runs after the ticks, the microtasks and the query's write.
 */
const scopeReadSent = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A scope named by more (dozens of dataset ids) is read before retrieving, not remembered: the memory of scopes stays small. */
const SCOPE_KEY_CHARS = 1000;

/** What decides a search's scope besides the database: the organization and the request's datasets or store. */
function scopeKey(request: SearchRequest): string {
  const scope = request.datasetIds?.length ? `ids ${request.datasetIds.join(' ')}` : request.store && (request.store.origin || request.store.shop) ? `store ${request.store.origin ?? ''} ${request.store.shop ?? ''}` : 'all';
  return `${request.organizationId} ${scope}`;
}

const sameIds = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);
