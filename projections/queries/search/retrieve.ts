// Search, stage 2: retrieval. Five legs over the in-process search memory, each bounded to
// LEG_DEPTH candidates (by the page asked for), every leg held to the filters of the request and of the words (filter.ts):
//   text       the shopper's words over the weighted document (domain/search/document.ts),
//              stemmed by Postgres as the document was; which words match first, then how strongly;
//   boost      occasion and season words (they raise rank, never filter);
//   attributes the labelled attributes matching what the words named (family, colour, material…),
//              weighed as ranking weighs them, so "red midi dress" finds red midi dresses whatever
//              their names say;
//   traits     the near families' products whose words show a trait of the family named (a
//              drawstring on trousers for "joggers": domain/catalogue/taxonomy/near.ts);
//   vector     the nearest items to the query's embedding, from the HNSW graphs.
// A product whose own name is the whole query (domain/search/names.ts) is found by that name and
// passes only the request's own filters. The answer: each candidate's signals for ranking.
// The text, boost and attribute legs find each dataset's best without reading every match
// (search-memory/best.ts); ranking's text signals are then read from each candidate's own terms.
import { sql, type Kysely } from 'kysely';
import { nameKey, type UnderstoodQuery } from '../../../domain/search/index.js';
import { ATTRIBUTE_WEIGHTS, type CandidateSignals, type Leg, type RankingIntent } from '../../../domain/search/rank.js';
import { byItemId, quotedLexemes, type AttributeTest, type MemoryDoc } from '../../search-memory.js';
import { bestByAttributes, bestByWords, kthLargest, labelledWithWords, WordQuery, type Best } from '../../search-memory/best.js';
import { paysStoredPrice, type PricingSource } from '../../../domain/pricing/index.js';
import { docFilter, hasOfferFilter, hasPriceBound } from './filter.js';
import type { SearchDeps, SearchFilters } from './index.js';

/**
 * Candidates each leg contributes, bounded so a query's cost is too: three times the page, from 60
 * up to 120 (enough for recall at 100). 120 whatever the page when pricing may drop candidates (an
 * offer filter: sale, stock, size, a price bound), so the page still fills; and when the words name
 * a gender or a fit, which ranking weighs and no leg finds by: at 60, "women's sneakers" in a store
 * of 242 sneakers, most of whose listings name no gender, lost half its relevant products (and
 * weighing the gender in the attribute leg did not bring them back). A page of 20 at 60 a leg took
 * 22% to 26% less time in process a search at 100,000 items than at 120 (docs/performance.md).
 */
const LEG_DEPTH = { min: 60, perResult: 3, max: 120 };

/** How many candidates each leg of a search for a page of `limit` contributes (LEG_DEPTH). */
export function legDepth(limit: number, filters: SearchFilters, understood: UnderstoodQuery): number {
  if (hasOfferFilter(filters, understood) || understood.gender || understood.fit) return LEG_DEPTH.max;
  return Math.min(LEG_DEPTH.max, Math.max(LEG_DEPTH.min, LEG_DEPTH.perResult * limit));
}

export interface Retrieved {
  /** Every candidate any leg found, with what ranking reads of it. */
  signals: CandidateSignals[];
  docOf: Map<string, MemoryDoc>;
  /** Found by their own name: the words' filters do not apply to them. */
  named: Set<MemoryDoc>;
  /** The closest vector match's similarity (0 without one). */
  bestSimilarity: number;
  /** The change up to which every memory searched held its dataset then (`SearchMemory.reached`). */
  reached: bigint | null;
}

export interface RetrievalScope {
  datasetIds: string[];
  head: bigint | null;
  country?: string | null;
  /**
   * The datasets' sources with their markets, as the scope read them: a price bound is judged
   * while retrieving on the docs whose stored price the shopper pays. Without them (a search
   * retrieving before its scope is read, which it does only without a price bound), a bound is
   * judged once priced.
   */
  pricingSources?: ReadonlyMap<string, PricingSource>;
}

export async function retrieve(
  deps: SearchDeps,
  scope: RetrievalScope,
  query: string,
  filters: SearchFilters,
  understood: UnderstoodQuery,
  intent: RankingIntent,
  /** The page asked for: how deep each leg reads follows it (`legDepth`). */
  limit: number,
): Promise<Retrieved> {
  const { datasetIds, head } = scope;
  const depth = legDepth(limit, filters, understood);
  const pricingSources = hasPriceBound(filters, understood) ? scope.pricingSources : undefined;
  const [memories, stemmed, queryVector] = await Promise.all([
    deps.memory.ready(datasetIds, head),
    // Each occasion phrase a list of its own: "tank top" is one thing suited to yoga, not two.
    stems(deps.db, [understood.terms, intent.traits, ...understood.boosts.map((phrase) => [phrase])]),
    embedQuery(deps, vectorText(query, understood)),
  ]);
  const country = scope.country ?? null;
  // Which docs the shopper pays the stored price for: an upload's, or a source's whose markets leave the shopper on its default.
  const paysStored = pricingSources && ((sourceId: string | null) => sourceId === null || paysStoredPrice(country, pricingSources.get(sourceId) ?? null));
  const asked = docFilter(filters, understood, paysStored);
  // Looked up once the memory is ready: a dataset loading meanwhile brings lexemes of its own.
  const [textTerms = [], traitTerms = [], ...phraseTerms] = stemmed.map((words, list) =>
    // A trait is a whole word: "elastic" is not the start of "elastane".
    words.map((forms) => deps.memory.lexemeIds(list === 1 ? forms.map((form) => ({ ...form, prefix: false })) : forms)),
  );
  const boostTerms = phraseTerms.flat();
  // Which of the boost leg's words each phrase holds (a stop word has none: "black tie" may be one).
  const phrases = phraseTerms.filter((terms) => terms.length).map((terms) => terms.length);

  // Found by its name, a doc passes the request's filters only; every leg may then score it.
  const typedName = nameKey(query);
  const asNamed = docFilter(filters, null, paysStored).test;
  const namedIn = memories.map((memory) => memory.namedExactly(typedName, asNamed));
  const named = new Set(namedIn.flat());
  const verdicts = memories.map((memory, i) => memory.verdicts(asked, namedIn[i]));
  const [words, boosts, traits] = [new WordQuery(textTerms), new WordQuery(boostTerms), new WordQuery(traitTerms)];
  const tests = attributeTests(intent);
  // What a word says of the shopper's want, by how rare it is among the docs in scope.
  const rarity = words.rarity(memories);
  const rarityOfAll = rarity.reduce((sum, r) => sum + r, 0);
  const boostWeights = new Float64Array(boosts.words.length);
  const legs = new Map<MemoryDoc, Partial<Record<Leg, number>>>();
  const note = (leg: Leg, docs: readonly MemoryDoc[]) => docs.forEach((doc, position) => (legs.get(doc) ?? legs.set(doc, {}).get(doc)!)[leg] ??= position);
  // Which words first (a thousand a word), then how strongly.
  note('text', gather(depth, memories.map((memory, i) => bestByWords(memory, words, 1e3, verdicts[i]!, depth))));
  note('boost', gather(depth, memories.map((memory, i) => bestByWords(memory, boosts, 0, verdicts[i]!, depth))));
  note('attributes', gather(depth, memories.map((memory, i) => bestByAttributes(memory, tests, verdicts[i]!, depth))));
  // The near families' products that show a trait of the family asked for: the attribute leg keeps
  // a near family's first 120 by item id, all equal to it, and a drawstring pair may be the 121st.
  if (intent.nearFamilies.length && traits.words.length) {
    const near = intent.nearFamilies.map((family) => `family:${family}`);
    note('traits', gather(depth, memories.map((memory, i) => labelledWithWords(memory, near, traits, verdicts[i]!, depth))));
  }
  const indexOf = new Map(datasetIds.map((id, i) => [id, i]));
  const vectorLeg = queryVector ? deps.memory.nearest(memories, queryVector, depth).filter((match) => verdicts[indexOf.get(match.doc.datasetId)!]!.accepts(match.doc)) : [];
  note('vector', vectorLeg.map((match) => match.doc));
  // Its name may be all words understanding took for filters ("Kids Sale"): it is a text match all the same.
  note('text', [...named]);
  const similarity = new Map(vectorLeg.map((match) => [match.doc, match.similarity]));

  const signals = [...legs].map(([doc, found]): CandidateSignals => {
    const inText = words.measure(doc);
    return {
      itemId: doc.itemId,
      legs: found,
      textRank: inText.rank,
      textCoverage: rarityOfAll > 0 ? rarity.reduce((sum, r, w) => (inText.which & (1 << w) ? sum + r : sum), 0) / rarityOfAll : 0,
      boostRank: boostRank(boosts.weights(doc, boostWeights), phrases),
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
      ...(intent.nearFamilies.includes(doc.family) ? { hasTraits: traits.measure(doc).which !== 0 } : {}),
      available: true,
      named: named.has(doc),
    };
  });
  return {
    // Read now, with nothing awaited since the legs ran: the memories as they searched.
    reached: deps.memory.reached(datasetIds, memories),
    signals,
    docOf: docsById(legs.keys()),
    named,
    bestSimilarity: Math.max(0, ...vectorLeg.map((m) => m.similarity)),
  };
}

/**
 * How well a doc suits the occasion: each phrase of what suits it counts once, when the doc has
 * every word of it, by its words' mean weight in the doc (`WordQuery.weights`). "tank top" is then
 * one thing suited to yoga, not two, and "top" alone (every top has it) is none: "what to wear to
 * yoga" shows leggings and tank tops before the store's other tops, and "black tie" the ties, not
 * whatever is black.
 */
function boostRank(weights: Float64Array, phrases: readonly number[]): number {
  let rank = 0;
  let w = 0;
  for (const length of phrases) {
    let phrase = 0;
    let all = true;
    for (const end = w + length; w < end; w++) {
      const weight = weights[w] ?? 0;
      all &&= weight > 0;
      phrase += weight;
    }
    if (all) rank += phrase / length;
  }
  return rank;
}

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
 * The `depth` best of `docs` by `keys` (same order), ties by item id (as the read model's order
 * would have it). Only those at or above the depth-th largest key are sorted; that key is found
 * in one pass, not by sorting them all (a leg gathers up to `depth` from each dataset in scope).
 */
function top(depth: number, docs: readonly MemoryDoc[], keys: Float64Array): MemoryDoc[] {
  const threshold = docs.length > depth ? kthLargest(keys, docs.length, depth) : -Infinity;
  const placed: number[] = [];
  for (let i = 0; i < docs.length; i++) if (keys[i]! >= threshold) placed.push(i);
  placed.sort((a, b) => keys[b]! - keys[a]! || byItemId(docs[a]!, docs[b]!));
  return placed.slice(0, depth).map((i) => docs[i]!);
}

/** The leg's best of each dataset, as one list: the `depth` best of them all. */
function gather(depth: number, parts: readonly Best[]): MemoryDoc[] {
  // Into arrays of their final size: a whole list read at 100,000 items gives tens of thousands.
  const count = parts.reduce((sum, part) => sum + part.docs.length, 0);
  const docs: MemoryDoc[] = new Array(count);
  const keys = new Float64Array(count);
  let at = 0;
  for (const part of parts) {
    for (let i = 0; i < part.docs.length; i++, at++) {
      docs[at] = part.docs[i]!;
      keys[at] = part.keys[i]!;
    }
  }
  return top(depth, docs, keys);
}

/** What the words named, as tests of an item's labels: each test counts its weight once, in `agreement`'s order of weight. */
function attributeTests(intent: RankingIntent): AttributeTest[] {
  const tests: AttributeTest[] = [];
  const W = ATTRIBUTE_WEIGHTS;
  if (intent.families.length) {
    // One test: a doc has one family, so it earns the family's weight or a near family's, never both.
    const keys = [...intent.families, ...intent.nearFamilies].map((family) => `family:${family}`);
    tests.push({ keys, weight: W.family, keyWeights: keys.map((_, i) => (i < intent.families.length ? W.family : W.nearFamily)) });
  } else if (intent.slot) tests.push({ keys: [`slot:${intent.slot}`], weight: W.slot });
  if (intent.colours.length) tests.push({ keys: intent.colours.map((colour) => `color:${colour}`), weight: W.colour });
  if (intent.materials.length) tests.push({ keys: intent.materials.map((material) => `material:${material}`), weight: W.material });
  if (intent.patterns.length) tests.push({ keys: intent.patterns.map((pattern) => `pattern:${pattern}`), weight: W.pattern });
  if (intent.featureKeys.length) tests.push({ keys: intent.featureKeys.map((key) => `feature:${key}`), weight: W.feature });
  return tests;
}

function docsById(docs: Iterable<MemoryDoc>): Map<string, MemoryDoc> {
  const byId = new Map<string, MemoryDoc>();
  for (const doc of docs) byId.set(doc.itemId, doc);
  return byId;
}

/** What the vector leg looks for: the shopper's words, and with only occasion words among them ("athleisure"), what suits the occasion too, as the boost leg reads it. */
export function vectorText(query: string, understood: UnderstoodQuery): string {
  return understood.terms.length || !understood.boosts.length ? query : `${query} ${understood.boosts.join(' ')}`.slice(0, 1000);
}

/** Kept as the graphs take them: a plain array was copied into a Float32Array by every search (a fifth of the vector merge's own profile samples). */
const queryVectors = new Map<string, Float32Array>();
const QUERY_VECTOR_CACHE = 1000;

async function embedQuery(deps: SearchDeps, text: string): Promise<Float32Array | null> {
  if (!deps.embedder) return null;
  const cacheKey = `${deps.embedder.name}\0${text}`;
  let vector = queryVectors.get(cacheKey);
  if (!vector) {
    const [embedded] = await deps.embedder.embed([text]);
    if (!embedded) return null;
    vector = Float32Array.from(embedded);
    if (queryVectors.size >= QUERY_VECTOR_CACHE) queryVectors.delete(queryVectors.keys().next().value!);
    queryVectors.set(cacheKey, vector);
  }
  return vector;
}
