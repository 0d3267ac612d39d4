// Shopper search (document 3 §3): scope → query understanding → retrieval legs → market pricing
// → fusion → the page of results. The legs, each bounded:
//   text       full text over the weighted document (name and type first), the shopper's words;
//   boost      full text over occasion and season words (they raise rank, never filter);
//   attributes the labelled columns matching what the words named (family, colour, material…),
//              so "red midi dress" finds red midi dresses whatever their names say;
//   vector     the nearest items to the query's embedding, from the in-process HNSW indexes.
// Hard filters (the request's `filters`, and the gender, price, size and stock the words named)
// apply to every leg; price, sale and stock are judged in the shopper's market, after pricing.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ColorFamily, Gender } from '../../domain/catalogue/vocabulary.js';
import { priceForMarket, shopperMarket, type PricedProduct, type PricingSource } from '../../domain/pricing/index.js';
import { isRelevant, rank, type CandidateSignals, type Fusion, type Leg, type RankingIntent } from '../../domain/search/rank.js';
import { understandQuery, type UnderstoodQuery } from '../../domain/search/index.js';
import { variantHasSize } from '../../domain/search/sizes.js';
import type { Embedder } from '../../infra/models/port.js';
import type { DatasetItemBody } from '../../domain/item/record.js';
import type { ListingVariant } from '../../domain/catalogue/product-input.js';
import type { SearchVectors } from '../search-vectors.js';
import { loadPricingContext } from './market-pricing.js';
import { detectDatasets } from './datasets.js';

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
  vectors: SearchVectors | null;
  embedder: Embedder | null;
  fusion?: Fusion;
}

/** Candidates each leg contributes: enough for recall at 100, bounded so a query's cost is too. */
const LEG_DEPTH = 120;
/** Candidates priced per round trip for market prices. */
const PRICING_BATCH = 40;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

interface ScopeDataset {
  datasetId: string;
  currency: string;
}

interface CandidateRow {
  item_id: string;
  dataset_id: string;
  source_id: string | null;
  slot: string;
  family: string;
  gender: string;
  color_family: ColorFamily;
  colors: string[];
  pattern: string;
  material: string[];
  fit: string | null;
  feature_keys: string[];
  price: number;
  currency: string;
  variants: ListingVariant[] | string;
  queued_at: Date | string;
  text_rank: number;
  text_coverage: number;
  boost_rank: number;
}

export async function searchCatalogue(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  const { db } = deps;
  const country = request.country ? request.country.trim().toUpperCase() : null;
  const scope = await resolveScope(db, request);
  const understood = understandQuery(request.query);
  const fallbackCurrency = scope[0]?.currency ?? 'CAD';
  const noResults = (sources: ReadonlyArray<PricingSource | null> = []): SearchResponse => ({ results: [], market: shopperMarket(country, sources, [], fallbackCurrency) });
  if (!scope.length) return noResults();

  const datasetIds = scope.map((d) => d.datasetId);
  const where = hardFilters(request.filters ?? {}, understood, datasetIds);
  const textTerms = tsTerms(understood.terms);
  const textQuery = textTerms.length ? textTerms.join(' | ') : null;
  const boostQuery = tsQuery(understood.boosts);
  const intent = rankingIntent(understood);

  const [textLeg, boostLeg, attributeLeg, vectorLeg] = await Promise.all([
    textQuery ? rankedIds(db, where, textQuery, textTerms) : [],
    boostQuery ? rankedIds(db, where, boostQuery) : [],
    attributeIds(db, where, intent),
    vectorIds(deps, datasetIds, request.query),
  ]);

  const legs = new Map<string, Partial<Record<Leg, number>>>();
  const note = (leg: Leg, ids: readonly string[]) => ids.forEach((id, position) => (legs.get(id) ?? legs.set(id, {}).get(id)!)[leg] ??= position);
  note('text', textLeg);
  note('boost', boostLeg);
  note('attributes', attributeLeg);
  note('vector', vectorLeg.map((m) => m.key));
  const similarity = new Map(vectorLeg.map((m) => [m.key, m.similarity]));
  if (!legs.size) return noResults();

  const rows = new Map((await candidateRows(db, where, [...legs.keys()], textQuery, textTerms, boostQuery)).map((row) => [row.item_id, row]));
  const signals = [...rows.values()].map((row): CandidateSignals => ({
    itemId: row.item_id,
    legs: legs.get(row.item_id) ?? {},
    textRank: Number(row.text_rank) || 0,
    textCoverage: Number(row.text_coverage) || 0,
    boostRank: Number(row.boost_rank) || 0,
    similarity: similarity.get(row.item_id) ?? 0,
    slot: row.slot,
    family: row.family,
    colorFamily: row.color_family,
    colors: row.colors ?? [],
    materials: row.material ?? [],
    pattern: row.pattern,
    fit: row.fit,
    gender: row.gender,
    featureKeys: row.feature_keys ?? [],
    available: true,
  }));
  const bestSimilarity = Math.max(0, ...vectorLeg.map((m) => m.similarity));
  const relevant = signals.filter((signal) => isRelevant(intent, signal, bestSimilarity));
  // Relevance first (every candidate counted as available), then priced in that order, a batch at a
  // time, until `limit` products the shopper can buy are found: pricing in the shopper's market is
  // the costly part, and a product priced later can only rank lower among its kind.
  const byRelevance = rank(intent, relevant, deps.fusion ?? 'blend');
  const bySignal = new Map(relevant.map((signal) => [signal.itemId, signal]));
  const priced = new Map<string, PricedProduct>();
  const pricingSources = new Set<PricingSource | null>();
  const kept: CandidateSignals[] = [];
  let buyable = 0;
  for (let start = 0; start < byRelevance.length && buyable < request.limit; start += PRICING_BATCH) {
    const batch = byRelevance.slice(start, start + PRICING_BATCH).map((ranked) => rows.get(ranked.itemId)!);
    const pricing = await loadPricingContext(db, batch.map((row) => ({ itemId: row.item_id, sourceId: row.source_id, queuedAt: row.queued_at })), { country });
    for (const row of batch) {
      const variants = typeof row.variants === 'string' ? (JSON.parse(row.variants) as ListingVariant[]) : row.variants;
      const context = pricing.get(row.item_id);
      pricingSources.add(context?.source ?? null);
      const offer = priceForMarket({
        country,
        product: { price: row.price, currency: row.currency, market: null, variants },
        source: context?.source ?? null,
        rows: context?.rows ?? [],
        queuedAt: context?.queuedAt ?? null,
      });
      if (!passesOffer(offer, request.filters ?? {}, understood)) continue;
      priced.set(row.item_id, offer);
      // A shopper who named a size can buy the product only if that size is in stock.
      const available = offer.available && (!understood.size || sizeInStock(offer.variants, understood.size));
      if (available) buyable++;
      kept.push({ ...bySignal.get(row.item_id)!, available });
    }
  }
  const ranked = rank(intent, kept, deps.fusion ?? 'blend').slice(0, request.limit);
  const items = await itemBodies(db, ranked.map((r) => r.itemId));
  const results: SearchResult[] = [];
  for (const { itemId, score } of ranked) {
    const item = items.get(itemId);
    const offer = priced.get(itemId);
    if (!item || !offer) continue;
    const { variants, price, currency, market, ...responseOnly } = offer;
    results.push({
      itemId,
      datasetId: item.datasetId,
      score,
      metadata: item.body.metadata,
      product: {
        ...item.body.product,
        price,
        currency,
        market,
        variants,
        ...responseOnly,
      },
    });
  }
  return { results, market: shopperMarket(country, [...pricingSources], results.map((r) => priced.get(r.itemId)!), fallbackCurrency) };
}

/** `datasetIds` (only the organization's active ones), else the store's, else every active dataset. */
async function resolveScope(db: Kysely<any>, request: SearchRequest): Promise<ScopeDataset[]> {
  let ids: string[] | null = null;
  if (request.datasetIds && request.datasetIds.length) ids = request.datasetIds.filter(isUuid);
  else if (request.store && (request.store.origin || request.store.shop)) {
    const found = await detectDatasets(db, request.organizationId, request.store.origin ?? undefined, request.store.shop ?? undefined);
    const active = found.filter((d) => d.status === 'active').map((d) => d.datasetId);
    if (active.length) ids = active;
  }
  let query = db
    .selectFrom('datasets')
    .select(['dataset_id', 'config'])
    .where('organization_id', '=', isUuid(request.organizationId) ? request.organizationId : ZERO_UUID)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('dataset_id');
  if (ids) query = query.where('dataset_id', 'in', ids.length ? ids : [ZERO_UUID]);
  const rows = await query.execute();
  return rows.map((row) => {
    const config = (typeof row.config === 'string' ? JSON.parse(row.config) : row.config) as { currency?: string | null };
    return { datasetId: String(row.dataset_id), currency: config.currency || 'CAD' };
  });
}

function hardFilters(filters: SearchFilters, understood: UnderstoodQuery, datasetIds: readonly string[]): RawBuilder<unknown> {
  const clauses: Array<RawBuilder<unknown>> = [sql`d.dataset_id = any(${datasetIds}::uuid[])`, sql`d.status = 'active'`];
  if (filters.slot) clauses.push(sql`d.slot = ${filters.slot}`);
  if (filters.family) clauses.push(sql`d.family = ${filters.family}`);
  if (filters.color_family) clauses.push(sql`d.color_family = ${filters.color_family}`);
  if (filters.pattern) clauses.push(sql`d.pattern = ${filters.pattern}`);
  if (filters.material) clauses.push(sql`${filters.material} = any(d.material)`);
  if (filters.fit) clauses.push(sql`d.fit = ${filters.fit}`);
  // The filter is the field's value; a gender the shopper's words named also lets unisex through.
  if (filters.gender) clauses.push(sql`d.gender = ${filters.gender}`);
  else if (understood.gender === 'unisex') clauses.push(sql`d.gender = 'unisex'`);
  else if (understood.gender) clauses.push(sql`d.gender in (${understood.gender}, 'unisex')`);
  if (understood.ageGroup && understood.ageGroup !== 'adult') clauses.push(sql`d.age_group = ${understood.ageGroup}`);
  return sql.join(clauses, sql` and `);
}

/** Price, sale, stock and size, judged in the shopper's market. */
function passesOffer(offer: PricedProduct, filters: SearchFilters, understood: UnderstoodQuery): boolean {
  const min = filters.minPrice ?? understood.minPrice;
  const max = filters.maxPrice ?? understood.maxPrice;
  if (min !== undefined && offer.price < min) return false;
  if (max !== undefined && offer.price > max) return false;
  if ((filters.onSale ?? understood.onSale) && !offer.onSale) return false;
  if (understood.inStock && !offer.available) return false;
  if (understood.size && !offer.variants.some((variant) => variantHasSize(variant, understood.size!))) return false;
  return true;
}

const sizeInStock = (variants: PricedProduct['variants'], size: string) => variants.some((variant) => variant.inStock && variantHasSize(variant, size));

/** OR of the words, each stemmed by Postgres; longer words also match as prefixes. */
function tsQuery(words: readonly string[]): string | null {
  const parts = tsTerms(words);
  return parts.length ? parts.join(' | ') : null;
}

/** Each word as a tsquery of its own: longer words also match as prefixes. */
function tsTerms(words: readonly string[]): string[] {
  return [
    ...new Set(
      words
        .flatMap((word) => word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
        .filter((word) => word.length > 1 || /\d/.test(word))
        .map((word) => (word.length >= 5 ? `${word}:*` : word)),
    ),
  ];
}

/**
 * The share of the shopper's words a document has, 0 to 1: a jacket that says "bomber" answers
 * "bomber jacket" better than one that says "jacket" twice, whatever ts_rank makes of it. Words
 * Postgres drops (stop words) count for neither side.
 */
function coverage(terms: readonly string[]): RawBuilder<unknown> {
  if (!terms.length) return sql`0`;
  const each = terms.map((term) => sql`to_tsquery('english', ${term})`);
  const matched = sql.join(each.map((q) => sql`(d.document @@ ${q})::int`), sql` + `);
  const counted = sql.join(each.map((q) => sql`(numnode(${q}) > 0)::int`), sql` + `);
  return sql`((${matched})::float8 / greatest(1, ${counted}))`;
}

async function rankedIds(db: Kysely<any>, where: RawBuilder<unknown>, query: string, terms: readonly string[] = []): Promise<string[]> {
  // A bare constant in ORDER BY names a column position, so coverage is left out when it is one.
  const byCoverage = terms.length ? sql`${coverage(terms)} desc, ` : sql``;
  const { rows } = await sql<{ item_id: string }>`
    select d.item_id from search_documents d, to_tsquery('english', ${query}) q
     where ${where} and d.document @@ q
     order by ${byCoverage}ts_rank_cd('{0.1, 0.2, 0.5, 1.0}', d.document, q) desc, d.item_id
     limit ${LEG_DEPTH}`.execute(db);
  return rows.map((row) => row.item_id);
}

/** Items whose labels match what the words named, most matching first. */
async function attributeIds(db: Kysely<any>, where: RawBuilder<unknown>, intent: RankingIntent): Promise<string[]> {
  const tests: Array<RawBuilder<unknown>> = [];
  if (intent.families.length) tests.push(sql`(d.family = any(${intent.families}::text[]))::int * 3`);
  else if (intent.slot) tests.push(sql`(d.slot = ${intent.slot})::int`);
  if (intent.colours.length) tests.push(sql`(d.color_family = any(${intent.colours}::text[]) or d.colors && ${intent.colours}::text[])::int * 2`);
  if (intent.materials.length) tests.push(sql`(d.material && ${intent.materials}::text[])::int`);
  if (intent.patterns.length) tests.push(sql`(d.pattern = any(${intent.patterns}::text[]))::int`);
  if (intent.featureKeys.length) tests.push(sql`(d.feature_keys && ${intent.featureKeys}::text[])::int`);
  if (!tests.length) return [];
  const score = sql.join(tests, sql` + `);
  const { rows } = await sql<{ item_id: string }>`
    select d.item_id from search_documents d
     where ${where} and (${score}) > 0
     order by (${score}) desc, d.item_id
     limit ${LEG_DEPTH}`.execute(db);
  return rows.map((row) => row.item_id);
}

const queryVectors = new Map<string, number[]>();
const QUERY_VECTOR_CACHE = 1000;

async function vectorIds(deps: SearchDeps, datasetIds: readonly string[], text: string): Promise<Array<{ key: string; similarity: number }>> {
  if (!deps.vectors || !deps.embedder) return [];
  const cacheKey = `${deps.embedder.name}\0${text}`;
  let vector = queryVectors.get(cacheKey);
  if (!vector) {
    [vector] = await deps.embedder.embed([text]);
    if (!vector) return [];
    if (queryVectors.size >= QUERY_VECTOR_CACHE) queryVectors.delete(queryVectors.keys().next().value!);
    queryVectors.set(cacheKey, vector);
  }
  return deps.vectors.nearest(datasetIds, vector, LEG_DEPTH);
}

async function candidateRows(db: Kysely<any>, where: RawBuilder<unknown>, ids: string[], textQuery: string | null, textTerms: readonly string[], boostQuery: string | null): Promise<CandidateRow[]> {
  const textRank = textQuery ? sql`ts_rank_cd('{0.1, 0.2, 0.5, 1.0}', d.document, to_tsquery('english', ${textQuery}))` : sql`0`;
  const boostRank = boostQuery ? sql`ts_rank('{0.1, 0.2, 0.5, 1.0}', d.document, to_tsquery('english', ${boostQuery}))` : sql`0`;
  const { rows } = await sql<CandidateRow>`
    select d.item_id, d.dataset_id, d.source_id, d.slot, d.family, d.gender, d.color_family, d.colors, d.pattern, d.material, d.fit, d.feature_keys,
           d.price, d.currency, d.variants, d.queued_at, ${textRank} as text_rank, ${coverage(textTerms)} as text_coverage, ${boostRank} as boost_rank
      from search_documents d
     where d.item_id = any(${ids}::uuid[]) and ${where}`.execute(db);
  return rows;
}

async function itemBodies(db: Kysely<any>, ids: string[]): Promise<Map<string, { datasetId: string; body: DatasetItemBody }>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('catalogue_items').select(['item_id', 'dataset_id', 'item']).where('item_id', 'in', ids).where('item', 'is not', null).execute();
  return new Map(
    rows.map((row) => [String(row.item_id), { datasetId: String(row.dataset_id), body: (typeof row.item === 'string' ? JSON.parse(row.item) : row.item) as DatasetItemBody }]),
  );
}

function rankingIntent(understood: UnderstoodQuery): RankingIntent {
  return {
    ...(understood.slot ? { slot: understood.slot } : {}),
    families: understood.families,
    colours: understood.colours,
    materials: understood.materials,
    patterns: understood.patterns,
    ...(understood.fit ? { fit: understood.fit } : {}),
    ...(understood.gender ? { gender: understood.gender } : {}),
    featureKeys: understood.features.map((f) => `${f.axis}:${f.value}`),
    hasBoosts: understood.boosts.length > 0,
  };
}

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
