// Shopper search (document 3 §3): scope → query understanding → retrieval legs → market pricing
// → fusion → the page of results. Retrieval runs over the in-process search memory
// (projections/search-memory.ts), the legs each bounded:
//   text       the shopper's words over the weighted document (name and type first), stemmed by
//              Postgres as the document was; which words match first, then how strongly;
//   boost      occasion and season words (they raise rank, never filter);
//   attributes the labelled attributes matching what the words named (family, colour, material…),
//              so "red midi dress" finds red midi dresses whatever their names say;
//   vector     the nearest items to the query's embedding, from the HNSW graphs.
// Hard filters (the request's `filters`, and the gender and age the words named) apply to every
// leg; price, sale, stock and size are judged in the shopper's market, after pricing, with the
// variants and market rows read from the database for the candidates being priced (a candidate
// the read model no longer has active is dropped there).
// A product whose own name is the whole query (domain/search/names.ts) is found by that name: the
// filters the words implied (sale, gender, age, price, stock, size) do not apply to it, as its
// words were the name and not a wish, and it ranks first; the request's own `filters` still do.
import { sql, type Kysely } from 'kysely';
import type { Gender } from '../../domain/catalogue/vocabulary.js';
import { budgetIn, shopperMarket, type PricedProduct, type PricingSource } from '../../domain/pricing/index.js';
import { ATTRIBUTE_WEIGHTS, isRelevant, rank, type CandidateSignals, type Fusion, type Leg, type RankingIntent } from '../../domain/search/rank.js';
import { nameKey, understandQuery, type UnderstoodQuery } from '../../domain/search/index.js';
import { variantHasSize } from '../../domain/search/sizes.js';
import type { Embedder } from '../../infra/models/port.js';
import type { DatasetItemBody } from '../../domain/item/record.js';

import { byItemId, quotedLexemes, type AttributeTest, type MemoryDoc, type SearchMemory } from '../search-memory.js';
import { loadPricingContext, offerInMarket } from './market-pricing.js';
import { isUuid } from './rows.js';
import { activeVariants, itemBodies, marketProduct } from './products.js';
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
  /** A size the shopper wears, as the words would name it ("M", "42"): only products offering it, those with it in stock first. Not part of POST /v1/search's body; the agent's lookup sets it. */
  size?: string;
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

/** Candidates each leg contributes: enough for recall at 100, bounded so a query's cost is too. */
const LEG_DEPTH = 120;
/** Candidates priced per round trip for market prices. */
const PRICING_BATCH = 40;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

interface ScopeDataset {
  datasetId: string;
  currency: string;
}


export async function searchCatalogue(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  const { db } = deps;
  const country = request.country ? request.country.trim().toUpperCase() : null;
  const { datasets: scope, head } = await resolveScope(db, request);
  const understood = understandQuery(request.query);
  const fallbackCurrency = scope[0]?.currency ?? 'CAD';
  const noResults = (sources: ReadonlyArray<PricingSource | null> = []): SearchResponse => ({ results: [], market: shopperMarket(country, sources, [], fallbackCurrency) });
  if (!scope.length) return noResults();

  const datasetIds = scope.map((d) => d.datasetId);
  const filters = request.filters ?? {};
  const asked = docFilter(filters, understood);
  const intent = rankingIntent(understood);
  const [memories, stemmed, queryVector] = await Promise.all([deps.memory.ready(datasetIds, head), stems(db, [understood.terms, understood.boosts]), embedQuery(deps, request.query)]);
  // Looked up once the memory is ready: a dataset loading meanwhile brings lexemes of its own.
  const [textTerms = [], boostTerms = []] = stemmed.map((words) => words.map((forms) => deps.memory.lexemeIds(forms)));

  // Found by its name, a doc passes the request's filters only; every leg may then score it.
  const typedName = nameKey(request.query);
  const named = new Set(memories.flatMap((memory) => memory.namedExactly(typedName, docFilter(filters, null))));
  const accept = named.size ? (doc: MemoryDoc) => named.has(doc) || asked(doc) : asked;
  const text = memories.map((memory) => memory.scoreWords(textTerms, accept));
  const boost = memories.map((memory) => memory.scoreWords(boostTerms, accept));
  const tests = attributeTests(intent);
  const counted = textTerms.length;
  const legs = new Map<MemoryDoc, Partial<Record<Leg, number>>>();
  const note = (leg: Leg, docs: readonly MemoryDoc[]) => docs.forEach((doc, position) => (legs.get(doc) ?? legs.set(doc, {}).get(doc)!)[leg] ??= position);
  note('text', gather(text.map((scores) => ({ docs: scores.touched, key: (doc: MemoryDoc) => scores.covered(doc) * 1e3 + scores.rank[doc.slot]! }))));
  note('boost', gather(boost.map((scores) => ({ docs: scores.touched, key: (doc: MemoryDoc) => scores.rank[doc.slot]! }))));
  note(
    'attributes',
    gather(
      memories.map((memory) => {
        const found = memory.matchAttributes(tests, accept);
        return { docs: found.docs, key: (_doc: MemoryDoc, i: number) => found.keys[i]! };
      }),
    ),
  );
  const vectorLeg = queryVector ? deps.memory.nearest(memories, queryVector, LEG_DEPTH).filter((match) => accept(match.doc)) : [];
  note('vector', vectorLeg.map((match) => match.doc));
  // Its name may be all words understanding took for filters ("Kids Sale"): it is a text match all the same.
  note('text', [...named]);
  const similarity = new Map(vectorLeg.map((match) => [match.doc, match.similarity]));
  if (!legs.size) return noResults();

  const indexOf = new Map(datasetIds.map((id, i) => [id, i]));
  const signals = [...legs].map(([doc, found]): CandidateSignals => {
    const i = indexOf.get(doc.datasetId)!;
    return {
      itemId: doc.itemId,
      legs: found,
      textRank: text[i]!.rank[doc.slot] ?? 0,
      textCoverage: counted ? text[i]!.covered(doc) / counted : 0,
      boostRank: boost[i]!.rank[doc.slot] ?? 0,
      similarity: similarity.get(doc) ?? 0,
      slot: doc.slotName,
      family: doc.family,
      colorFamily: doc.colorFamily as CandidateSignals['colorFamily'],
      colors: doc.colors,
      materials: doc.materials,
      pattern: doc.pattern,
      fit: doc.fit,
      gender: doc.gender,
      featureKeys: doc.featureKeys,
      available: true,
      named: named.has(doc),
    };
  });
  const docOf = new Map([...legs.keys()].map((doc) => [doc.itemId, doc]));
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
    const batch = byRelevance.slice(start, start + PRICING_BATCH).map((ranked) => docOf.get(ranked.itemId)!);
    const [pricing, variantsOf] = await Promise.all([
      loadPricingContext(db, batch.map((doc) => ({ itemId: doc.itemId, sourceId: doc.sourceId, queuedAt: doc.queuedAt })), { country }),
      activeVariants(db, batch.map((doc) => doc.itemId)),
    ]);
    for (const doc of batch) {
      const variants = variantsOf.get(doc.itemId);
      // Archived, or its dataset's items changed, since the memory last caught up.
      if (!variants) continue;
      const context = pricing.get(doc.itemId);
      pricingSources.add(context?.source ?? null);
      const offer = offerInMarket(country, variants, context);
      const words = named.has(doc) ? null : understood;
      if (!passesOffer(offer, filters, words)) continue;
      priced.set(doc.itemId, offer);
      // A shopper who named a size can buy the product only if that size is in stock.
      const size = filters.size ?? words?.size;
      const available = offer.available && (!size || sizeInStock(offer.variants, size));
      if (available) buyable++;
      kept.push({ ...bySignal.get(doc.itemId)!, available });
    }
  }
  const ranked = rank(intent, kept, deps.fusion ?? 'blend').slice(0, request.limit);
  const items = await itemBodies(db, ranked.map((r) => r.itemId));
  const results: SearchResult[] = [];
  for (const { itemId, score } of ranked) {
    const item = items.get(itemId);
    const offer = priced.get(itemId);
    if (!item || !offer) continue;
    results.push({ itemId, datasetId: item.datasetId, score, metadata: item.body.metadata, product: marketProduct(item.body, offer) });
  }
  return { results, market: shopperMarket(country, [...pricingSources], results.map((r) => priced.get(r.itemId)!), fallbackCurrency) };
}

/**
 * `datasetIds` (only the organization's active ones), else the store's, else every active dataset;
 * with the search read model's head, so the memory can catch up to it first.
 */
async function resolveScope(db: Kysely<any>, request: SearchRequest): Promise<{ datasets: ScopeDataset[]; head: bigint | null }> {
  let ids: string[] | null = null;
  if (request.datasetIds && request.datasetIds.length) ids = request.datasetIds.filter(isUuid);
  else if (request.store && (request.store.origin || request.store.shop)) {
    const found = await detectDatasets(db, request.organizationId, request.store.origin ?? undefined, request.store.shop ?? undefined);
    const active = found.filter((d) => d.status === 'active').map((d) => d.datasetId);
    if (active.length) ids = active;
  }
  const organizationId = isUuid(request.organizationId) ? request.organizationId : ZERO_UUID;
  const only = ids ? sql`and dataset_id = any(${ids.length ? ids : [ZERO_UUID]}::uuid[])` : sql``;
  const { rows } = await sql<{ dataset_id: string; config: unknown; head: string | null }>`
    select dataset_id, config, (select max(change_seq) from search_documents)::text as head
      from datasets where organization_id = ${organizationId} and status = 'active' ${only}
     order by created_at, dataset_id`.execute(db);
  const datasets = rows.map((row) => {
    const config = (typeof row.config === 'string' ? JSON.parse(row.config) : row.config) as { currency?: string | null } | null;
    return { datasetId: String(row.dataset_id), currency: config?.currency || 'CAD' };
  });
  return { datasets, head: rows[0]?.head ? BigInt(rows[0].head) : null };
}

/** The request's filters and the gender and age the words named (none for null), as a test of a doc. */
function docFilter(filters: SearchFilters, understood: UnderstoodQuery | null): (doc: MemoryDoc) => boolean {
  const tests: Array<(doc: MemoryDoc) => boolean> = [];
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
function passesOffer(offer: PricedProduct, filters: SearchFilters, understood: UnderstoodQuery | null): boolean {
  // A budget the words named in another currency ("under 1300 rs") is converted to the offer's.
  const said = understood ? budgetIn(understood, offer.currency) : {};
  const min = filters.minPrice ?? said.minPrice;
  const max = filters.maxPrice ?? said.maxPrice;
  if (min !== undefined && offer.price < min) return false;
  if (max !== undefined && offer.price > max) return false;
  if ((filters.onSale ?? understood?.onSale) && !offer.onSale) return false;
  if (understood?.inStock && !offer.available) return false;
  const size = filters.size ?? understood?.size;
  if (size && !offer.variants.some((variant) => variantHasSize(variant, size))) return false;
  return true;
}

const sizeInStock = (variants: PricedProduct['variants'], size: string) => variants.some((variant) => variant.inStock && variantHasSize(variant, size));

const stemCache = new Map<string, string[]>();
const STEM_CACHE = 20_000;

/** A word's own tokens, as the text search reads them. */
const tokensOf = (words: readonly string[]) => [...new Set(words.flatMap((word) => word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1 || /\d/.test(word)))];

/**
 * Each list of shopper's words stemmed by Postgres's `english` configuration, as the documents
 * were (one short query for the words not seen before, whatever the number of lists), as the forms
 * to look up in the memory's lexicon (`SearchMemory.lexemeIds`). A word of five letters or more
 * also matches every stem it begins ("dresse" finds "dress…" forms). A stop word is left out.
 */
async function stems(db: Kysely<any>, lists: ReadonlyArray<readonly string[]>): Promise<WordForms[][]> {
  const tokens = lists.map(tokensOf);
  const missing = [...new Set(tokens.flat().filter((token) => !stemCache.has(token)))];
  if (missing.length) {
    const { rows } = await sql<{ token: string; query: string }>`
      select t as token, to_tsquery('english', t || case when length(t) >= 5 then ':*' else '' end)::text as query from unnest(${missing}::text[]) t`.execute(db);
    for (const row of rows) {
      if (stemCache.size >= STEM_CACHE) stemCache.delete(stemCache.keys().next().value!);
      stemCache.set(row.token, [...quotedLexemes(row.query)].map(({ lexeme, suffix }) => `${suffix.startsWith(':*') ? '*' : '='}${lexeme}`));
    }
  }
  return tokens.map((list) =>
    list.flatMap((token) => {
      const forms = stemCache.get(token) ?? [];
      return forms.length ? [forms.map((form) => ({ lexeme: form.slice(1), prefix: form[0] === '*' }))] : [];
    }),
  );
}

/** One shopper's word as the lexemes that answer it: each exactly, or every lexeme it begins. */
type WordForms = Array<{ lexeme: string; prefix: boolean }>;

/**
 * The LEG_DEPTH best of `docs` by `keys` (same order), ties by item id (as the read model's order
 * would have it). Only those at or above the LEG_DEPTH-th largest key are sorted.
 */
function top(docs: readonly MemoryDoc[], keys: Float64Array): MemoryDoc[] {
  let threshold = -Infinity;
  if (docs.length > LEG_DEPTH) {
    const sorted = keys.slice(0, docs.length).sort();
    threshold = sorted[docs.length - LEG_DEPTH]!;
  }
  const placed: number[] = [];
  for (let i = 0; i < docs.length; i++) if (keys[i]! >= threshold) placed.push(i);
  placed.sort((a, b) => keys[b]! - keys[a]! || byItemId(docs[a]!, docs[b]!));
  return placed.slice(0, LEG_DEPTH).map((i) => docs[i]!);
}

/** The leg of each scored dataset, as one list of docs and their keys. */
function gather(parts: ReadonlyArray<{ docs: readonly MemoryDoc[]; key: (doc: MemoryDoc, at: number) => number }>): MemoryDoc[] {
  const count = parts.reduce((sum, part) => sum + part.docs.length, 0);
  const docs: MemoryDoc[] = new Array(count);
  const keys = new Float64Array(count);
  let at = 0;
  for (const part of parts) {
    part.docs.forEach((doc, i) => {
      docs[at] = doc;
      keys[at++] = part.key(doc, i);
    });
  }
  return top(docs, keys);
}

/** What the words named, as tests of an item's labels: each test counts its weight once, in `agreement`'s order of weight. */
function attributeTests(intent: RankingIntent): AttributeTest[] {
  const tests: AttributeTest[] = [];
  const W = ATTRIBUTE_WEIGHTS;
  if (intent.families.length) tests.push({ keys: intent.families.map((family) => `family:${family}`), weight: W.family });
  else if (intent.slot) tests.push({ keys: [`slot:${intent.slot}`], weight: W.slot });
  if (intent.colours.length) tests.push({ keys: intent.colours.map((colour) => `color:${colour}`), weight: W.colour });
  if (intent.materials.length) tests.push({ keys: intent.materials.map((material) => `material:${material}`), weight: W.material });
  if (intent.patterns.length) tests.push({ keys: intent.patterns.map((pattern) => `pattern:${pattern}`), weight: W.pattern });
  if (intent.featureKeys.length) tests.push({ keys: intent.featureKeys.map((key) => `feature:${key}`), weight: W.feature });
  return tests;
}

const queryVectors = new Map<string, number[]>();
const QUERY_VECTOR_CACHE = 1000;

async function embedQuery(deps: SearchDeps, text: string): Promise<number[] | null> {
  if (!deps.embedder) return null;
  const cacheKey = `${deps.embedder.name}\0${text}`;
  let vector = queryVectors.get(cacheKey);
  if (!vector) {
    [vector] = await deps.embedder.embed([text]);
    if (!vector) return null;
    if (queryVectors.size >= QUERY_VECTOR_CACHE) queryVectors.delete(queryVectors.keys().next().value!);
    queryVectors.set(cacheKey, vector);
  }
  return vector;
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

