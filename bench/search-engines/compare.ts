// Issue 28 point 1: our search engine beside a well-kept one, Orama (@orama/orama, in process,
// hybrid full text + vectors), on the same catalogue, the same judged queries and the same
// metrics, in one process and one run.
//
// Per catalogue size (`BENCH_SIZES`: `fixture` = the 7 fixture feeds as bench/search-quality.ts
// loads them; a number = that many items made by bench/search/catalogue.ts as bench/search.ts
// loads them; both through the upload route and the real ingest worker with the offline models,
// on PGlite):
//   1. build, each timed and its memory measured (process.memoryUsage after a full GC, heap +
//      external, and rss; run with --expose-gc):
//      - ours: a fresh SearchMemory (no saved copy) made ready for every dataset: reads
//        `search_documents` + `item_embeddings` and builds the inverted index and the usearch HNSW graphs;
//      - Orama: the same rows read the same way, inserted into an Orama index (orama-index.ts:
//        fields A–D from the same tsvector, boosted by DOCUMENT_FIELD_WEIGHTS, the same vectors,
//        enum facets for dataset, family, slot, gender, age group, colour family, price as a number);
//   2. quality: every judged query (bench/search-quality/queries.ts, sent as bench/search-quality.ts
//      sends it: store → its dataset, `similar` → words + the reference's title, reference removed,
//      20 scored) scored with nDCG@10 and recall@20 (bench/search-quality/metrics.ts) for
//      - ours, whole search (`searchCatalogue`: scope, understand, retrieve, rank, price in the
//        market on PGlite, filters on the offer, rank again; what POST /v1/search answers);
//      - ours, retrieve + rank only (the order `rank` gives before pricing, then the words' budget on
//        the stored price as Orama gets it; no sale, stock or size filter, no market);
//      - Orama hybrid: the same query understanding in front (understandQuery: its `terms` and `boosts`
//        as the text, stemmed by Postgres as ours are; the whole sent text embedded by the same
//        embedder); the hard filters ours applies while retrieving as `where` (gender the words name,
//        or unisex; age group when not adult; the datasets of the scope) plus the budget the words
//        name on the stored price (scoped queries only: one currency); hybridWeights tried on the
//        fixture (BENCH_ORAMA_WEIGHTS=text:vector,… ; the best nDCG@10 is kept for every size);
//      - Orama hybrid + family: the same, and the family (else the slot) the words name as a filter too;
//   3. speed: `BENCH_REPEAT` (5) passes over the judged queries after one warm-up pass, the engines
//      alternating query by query; per query the wall time of ours retrieve + rank (understand,
//      the four legs over the memory, relevance, rank; stems and the query vector cached as in
//      production after the warm-up) and of Orama (understand, the where clauses, the search;
//      stems and vector looked up from a cache filled before timing), and of ours' whole search;
//      p50, p95 and mean CPU per query.
// Prints a markdown table and writes bench/results/search-engines.json.
//   node --expose-gc --import tsx bench/search-engines/compare.ts
//   BENCH_SIZES=fixture,10000,30000 (default; about 5 minutes on 2 cores, most of it loading 30,000 items through the ingest worker;
//     100,000 takes 6–8 minutes of loading alone on PGlite)   BENCH_REPEAT=5   BENCH_ORAMA_WEIGHTS=0.5:0.5,0.7:0.3,0.3:0.7,0.85:0.15
//   BENCH_ORAMA_SIMILARITY=0.25 (Orama's cosine floor for the vector leg; its default 0.8 drops most of our offline vectors)
import { mkdir, writeFile } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { budgetIn } from '../../domain/pricing/index.js';
import { understandQuery, type UnderstoodQuery } from '../../domain/search/index.js';
import { isRelevant, rank, rankingIntent } from '../../domain/search/rank.js';
import { searchCatalogue, type SearchDeps } from '../../projections/queries/search/index.js';
import { retrieve } from '../../projections/queries/search/retrieve.js';
import { SearchMemory } from '../../projections/search-memory.js';
import { readHead } from '../../projections/search-memory/rows.js';
import { loadFeeds, requestFor } from '../search-quality.js';
import { FEED_STORES, FEEDS_DIR, missingFeeds, productKey, ProductIndex, readFeed, withoutPhotos } from '../search-quality/feeds.js';
import { mean, ndcgAt, recallAt } from '../search-quality/metrics.js';
import { FEEDS, JUDGED_QUERIES, type JudgedQuery } from '../search-quality/queries.js';
import { loadCatalogue } from '../search.js';
import { startSearchService, type SearchBenchService } from '../search/service.js';
import { quantile } from '../search/load.js';
import { buildOrama, searchOrama, type OramaCatalogue } from './orama-index.js';

const LIMIT = 20;
const REPEAT = Number(process.env.BENCH_REPEAT) || 5;
const SIMILARITY = Number(process.env.BENCH_ORAMA_SIMILARITY ?? 0.25);
const WEIGHTS = (process.env.BENCH_ORAMA_WEIGHTS || '0.5:0.5,0.7:0.3,0.3:0.7,0.85:0.15').split(',').map((pair) => {
  const [text, vector] = pair.split(':').map(Number);
  return { text: text!, vector: vector! };
});

type Size = 'fixture' | number;

interface Prepared {
  query: JudgedQuery;
  text: string;
  limit: number;
  /** The request's datasets (undefined: every dataset of the organization). */
  datasetIds: string[] | undefined;
  scope: string[];
  country: string | undefined;
  /** The one currency of a scoped query, for its budget. */
  currency: string | null;
  reference: string | null;
  grades: Map<string, number>;
  /** Orama's text: understanding's terms and boosts, stemmed by Postgres. */
  stemmed: string;
  vector: number[] | null;
}

interface Row {
  engine: string;
  items: number;
  ndcg10: number | null;
  recall20: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  cpuMeanMs: number | null;
  buildMs: number | null;
  memoryMB: number | null;
  rssMB: number | null;
  notes: string;
}

const gc = (globalThis as { gc?: () => void }).gc;
function memoryNow(): { heap: number; rss: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const round = (value: number | null, digits = 3) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/** Each text's words stemmed by Postgres's `english` configuration, as the documents were (stop words dropped). */
async function stemTexts(db: Kysely<any>, texts: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const text of new Set(texts)) {
    const { rows } = await sql<{ v: string }>`select to_tsvector('english', ${text})::text as v`.execute(db);
    const lexemes = [...(rows[0]?.v ?? '').matchAll(/'((?:[^']|'')*)':([0-9,]+)/g)].flatMap((m) => m[2]!.split(',').map((p) => ({ lexeme: m[1]!.replace(/''/g, "'"), at: Number(p) })));
    out.set(text, lexemes.sort((a, b) => a.at - b.at).map((l) => l.lexeme).join(' '));
  }
  return out;
}

const oramaWords = (understood: UnderstoodQuery) => [...understood.terms, ...understood.boosts].join(' ');

/** The hard filters ours applies while retrieving (filter.ts docFilter: gender, age), the scope, and the words' budget; `family` adds the family (else slot) named. */
function oramaWhere(p: Prepared, understood: UnderstoodQuery, family: boolean): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (p.datasetIds) where.datasetId = { in: p.datasetIds };
  if (understood.gender === 'unisex') where.gender = { eq: 'unisex' };
  else if (understood.gender) where.gender = { in: [understood.gender, 'unisex'] };
  if (understood.ageGroup && understood.ageGroup !== 'adult') where.ageGroup = { eq: understood.ageGroup };
  if (p.currency) {
    const { minPrice, maxPrice } = budgetIn(understood, p.currency);
    if (minPrice !== undefined && maxPrice !== undefined) where.price = { between: [minPrice, maxPrice] };
    else if (maxPrice !== undefined) where.price = { lte: maxPrice };
    else if (minPrice !== undefined) where.price = { gte: minPrice };
  }
  if (family) {
    if (understood.families.length) where.family = { in: understood.families };
    else if (understood.slot) where.slot = { eq: understood.slot };
  }
  return where;
}

async function oramaRanking(orama: OramaCatalogue, p: Prepared, weights: { text: number; vector: number }, family: boolean): Promise<string[]> {
  const understood = understandQuery(p.text);
  return searchOrama(orama, { term: p.stemmed, vector: p.vector, limit: p.limit, where: oramaWhere(p, understood, family), hybridWeights: weights, similarity: SIMILARITY });
}

async function oursRetrieveRank(deps: SearchDeps, head: bigint, p: Prepared): Promise<string[]> {
  const understood = understandQuery(p.text);
  const intent = rankingIntent(understood);
  const found = await retrieve(deps, { datasetIds: p.scope, head }, p.text, {}, understood, intent, p.limit);
  const relevant = found.signals.filter((signal) => isRelevant(intent, signal, found.bestSimilarity));
  // The words' budget on the stored price, exactly as Orama's where clause has it (the pricing stage is left out of both).
  const budget = p.currency ? budgetIn(understood, p.currency) : {};
  const withinBudget = (itemId: string) => {
    const price = found.docOf.get(itemId)?.price ?? 0;
    return (budget.minPrice === undefined || price >= budget.minPrice) && (budget.maxPrice === undefined || price <= budget.maxPrice);
  };
  return rank(intent, relevant, 'blend')
    .filter((r) => withinBudget(r.itemId))
    .slice(0, p.limit)
    .map((r) => r.itemId);
}

async function oursWhole(deps: SearchDeps, organizationId: string, p: Prepared): Promise<string[]> {
  const answer = await searchCatalogue(deps, { organizationId, query: p.text, limit: p.limit, ...(p.datasetIds ? { datasetIds: p.datasetIds } : {}), country: p.country ?? null });
  return answer.results.map((r) => r.itemId);
}

function score(p: Prepared, itemIds: readonly string[], index: ProductIndex): { ndcg10: number; recall20: number | null } {
  const ranked = itemIds
    .map((id, i) => index.keyOf(id) ?? `unknown:${i}`)
    .filter((key) => key !== p.reference)
    .slice(0, LIMIT);
  return { ndcg10: ndcgAt(10, ranked, p.grades), recall20: recallAt(LIMIT, ranked, p.grades) };
}

async function quality(prepared: readonly Prepared[], index: ProductIndex, ranking: (p: Prepared) => Promise<string[]>) {
  const perQuery: Array<{ id: string; ndcg10: number; recall20: number | null }> = [];
  for (const p of prepared) perQuery.push({ id: p.query.id, ...score(p, await ranking(p), index) });
  return { ndcg10: mean(perQuery.map((q) => q.ndcg10)), recall20: mean(perQuery.map((q) => q.recall20)), perQuery };
}

interface Timing {
  wall: number[];
  cpu: number[];
}

async function timed(timing: Timing, run: () => Promise<unknown>): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  timing.wall.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  timing.cpu.push((used.user + used.system) / 1000);
}

async function loadSize(service: SearchBenchService, size: Size): Promise<{ datasets: Map<string, string>; index: ProductIndex; loadSeconds: number }> {
  const started = performance.now();
  if (size === 'fixture') {
    const loaded = await loadFeeds(service);
    return { datasets: loaded.datasets, index: loaded.index, loadSeconds: (performance.now() - started) / 1000 };
  }
  const pools = new Map(FEEDS.map((feed) => [feed, readFeed(feed).map(withoutPhotos)]));
  const { datasets } = await loadCatalogue(service, pools, size);
  // Copy 0 of every product is the product itself (same id), so the judgements still name it; the copies are unjudged.
  const index = new ProductIndex();
  for (const [feed, datasetId] of datasets) index.add(feed, datasetId, pools.get(feed)!);
  return { datasets, index, loadSeconds: (performance.now() - started) / 1000 };
}

async function measureSize(size: Size, chosenWeights: { text: number; vector: number } | null): Promise<{ rows: Row[]; weights: { text: number; vector: number }; detail: Record<string, unknown> }> {
  const service = await startSearchService('pglite');
  try {
    console.error(`\n== ${size === 'fixture' ? 'fixture feeds' : `${size} items`} ==`);
    const { datasets, index, loadSeconds } = await loadSize(service, size);
    const db = service.platform.database.db;
    const { embedder } = service.platform.search();
    const all = [...datasets.values()];
    const head = await readHead(db);

    // Builds, each from the read model, measured one after the other.
    const m0 = memoryNow();
    const buildStarted = performance.now();
    const memory = new SearchMemory(db, { snapshots: null });
    await memory.ready(all, head);
    const oursBuildMs = performance.now() - buildStarted;
    const m1 = memoryNow();
    const ourItems = memory.stats().reduce((sum, s) => sum + s.items, 0);
    const ourBytes = memory.stats().reduce((sum, s) => sum + s.bytes, 0);
    const orama = await buildOrama(db, all, embedder.dimensions);
    const m2 = memoryNow();
    console.error(`  built: ours ${ourItems} items in ${Math.round(oursBuildMs)} ms; Orama ${orama.items} items in ${Math.round(orama.readMs + orama.insertMs)} ms (read ${Math.round(orama.readMs)}, insert ${Math.round(orama.insertMs)})`);
    const deps: SearchDeps = { db, memory, embedder };

    // The queries as bench/search-quality.ts sends them; Orama's stems and vectors made before timing.
    const requests = JUDGED_QUERIES.map((query) => ({ query, body: requestFor(query, { datasets, index }) }));
    const stems = await stemTexts(db, requests.map(({ body }) => oramaWords(understandQuery(body.query))));
    const vectors = await embedder.embed(requests.map(({ body }) => body.query));
    const prepared: Prepared[] = requests.map(({ query, body }, i) => ({
      query,
      text: body.query,
      limit: body.limit ?? LIMIT,
      datasetIds: body.datasetIds ? [...body.datasetIds] : undefined,
      scope: body.datasetIds ? [...body.datasetIds] : all,
      country: body.country,
      currency: query.store ? FEED_STORES[query.store]!.currency : null,
      reference: query.similarTo ? productKey(query.similarTo.feed, query.similarTo.id) : null,
      grades: new Map(query.judgements.map((j) => [productKey(j.feed, j.id), j.grade as number])),
      stemmed: stems.get(oramaWords(understandQuery(body.query)))!,
      vector: vectors[i] ?? null,
    }));

    // Quality.
    const whole = await quality(prepared, index, (p) => oursWhole(deps, service.organizationId, p));
    const ours = await quality(prepared, index, (p) => oursRetrieveRank(deps, head, p));
    const tried: Array<{ weights: { text: number; vector: number }; ndcg10: number | null; recall20: number | null }> = [];
    let weights = chosenWeights;
    if (!weights) {
      for (const w of WEIGHTS) {
        const q = await quality(prepared, index, (p) => oramaRanking(orama, p, w, false));
        tried.push({ weights: w, ndcg10: q.ndcg10, recall20: q.recall20 });
        console.error(`  Orama hybridWeights text ${w.text} / vector ${w.vector}: nDCG@10 ${q.ndcg10?.toFixed(3)}, recall@20 ${q.recall20?.toFixed(3)}`);
      }
      weights = [...tried].sort((a, b) => (b.ndcg10 ?? 0) - (a.ndcg10 ?? 0))[0]!.weights;
    }
    const oramaQ = await quality(prepared, index, (p) => oramaRanking(orama, p, weights, false));
    const oramaFamilyQ = await quality(prepared, index, (p) => oramaRanking(orama, p, weights, true));

    // Speed: one warm-up pass, then REPEAT passes, engines alternating query by query.
    const t = { ours: { wall: [], cpu: [] } as Timing, orama: { wall: [], cpu: [] } as Timing, oramaFamily: { wall: [], cpu: [] } as Timing, whole: { wall: [], cpu: [] } as Timing };
    const speedStarted = performance.now();
    for (let pass = 0; pass <= REPEAT; pass++) {
      const sink: Timing = { wall: [], cpu: [] };
      for (const [i, p] of prepared.entries()) {
        const runs: Array<[Timing, () => Promise<unknown>]> = [
          [pass ? t.ours : sink, () => oursRetrieveRank(deps, head, p)],
          [pass ? t.orama : sink, () => oramaRanking(orama, p, weights, false)],
          [pass ? t.oramaFamily : sink, () => oramaRanking(orama, p, weights, true)],
        ];
        if ((i + pass) % 2) runs.reverse();
        for (const [timing, run] of runs) await timed(timing, run);
        await timed(pass ? t.whole : sink, () => oursWhole(deps, service.organizationId, p));
      }
    }
    console.error(`  timed ${REPEAT} passes of ${prepared.length} queries in ${Math.round((performance.now() - speedStarted) / 1000)} s`);

    const items = ourItems;
    const stat = (timing: Timing) => ({ p50Ms: round(quantile(sortedCopy(timing.wall), 0.5), 2), p95Ms: round(quantile(sortedCopy(timing.wall), 0.95), 2), cpuMeanMs: round(mean(timing.cpu), 2) });
    const weightNote = `hybridWeights text ${weights.text} / vector ${weights.vector}, similarity ≥ ${SIMILARITY}`;
    const rows: Row[] = [
      {
        engine: 'ours, retrieve + rank',
        items,
        ndcg10: round(ours.ndcg10),
        recall20: round(ours.recall20),
        ...stat(t.ours),
        buildMs: Math.round(oursBuildMs),
        memoryMB: mb(m1.heap - m0.heap),
        rssMB: mb(m1.rss - m0.rss),
        notes: `no pricing stage (budget on the stored price, as Orama); memory's own estimate ${mb(ourBytes)} MB`,
      },
      {
        engine: 'ours, whole search',
        items,
        ndcg10: round(whole.ndcg10),
        recall20: round(whole.recall20),
        ...stat(t.whole),
        buildMs: null,
        memoryMB: null,
        rssMB: null,
        notes: 'searchCatalogue with pricing in the market on PGlite (what POST /v1/search answers, without HTTP)',
      },
      {
        engine: 'Orama hybrid',
        items: orama.items,
        ndcg10: round(oramaQ.ndcg10),
        recall20: round(oramaQ.recall20),
        ...stat(t.orama),
        buildMs: Math.round(orama.readMs + orama.insertMs),
        memoryMB: mb(m2.heap - m1.heap),
        rssMB: mb(m2.rss - m1.rss),
        notes: `${weightNote}; build = read ${Math.round(orama.readMs)} ms + insert ${Math.round(orama.insertMs)} ms`,
      },
      {
        engine: 'Orama hybrid + family filter',
        items: orama.items,
        ndcg10: round(oramaFamilyQ.ndcg10),
        recall20: round(oramaFamilyQ.recall20),
        ...stat(t.oramaFamily),
        buildMs: null,
        memoryMB: null,
        rssMB: null,
        notes: `${weightNote}; the family (else slot) the words name as a where clause`,
      },
    ];
    await memory.close();
    // Timings were pushed query by query, pass after pass: query i's are at i, i + n, i + 2n…
    const medianOf = (timing: Timing, i: number) => round(quantile(sortedCopy(timing.wall.filter((_, j) => j % prepared.length === i)), 0.5), 2);
    const perQuery = prepared.map((p, i) => ({
      id: p.query.id,
      type: p.query.type,
      sent: p.text,
      oramaTerm: p.stemmed,
      medianMs: { ours: medianOf(t.ours, i), orama: medianOf(t.orama, i), oramaFamily: medianOf(t.oramaFamily, i), oursWhole: medianOf(t.whole, i) },
      oursWhole: whole.perQuery[i],
      ours: ours.perQuery[i],
      orama: oramaQ.perQuery[i],
      oramaFamily: oramaFamilyQ.perQuery[i],
    }));
    return { rows, weights, detail: { size, items, loadSeconds: Math.round(loadSeconds), weightsTried: tried, perQuery } };
  } finally {
    await service.close();
  }
}

function table(rows: readonly Row[]): string {
  const cell = (v: number | null, digits = 3) => (v === null ? '–' : v.toFixed(digits));
  const lines = ['| engine | items | nDCG@10 | recall@20 | search p50 (ms) | p95 (ms) | CPU/query (ms) | build (ms) | memory (MB heap+ext / rss) |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    const memory = r.memoryMB === null ? '–' : `${r.memoryMB} / ${r.rssMB}`;
    lines.push(`| ${r.engine} | ${r.items.toLocaleString('en')} | ${cell(r.ndcg10)} | ${cell(r.recall20)} | ${cell(r.p50Ms, 2)} | ${cell(r.p95Ms, 2)} | ${cell(r.cpuMeanMs, 2)} | ${r.buildMs ?? '–'} | ${memory} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const missing = missingFeeds();
  if (missing.length) {
    console.log(`bench/search-engines/compare.ts: SKIPPED, the fixture feeds are not in ${FEEDS_DIR} (missing: ${missing.join(', ')}).`);
    return;
  }
  if (!gc) console.error('note: run with node --expose-gc for memory figures after a full collection');
  const sizes: Size[] = (process.env.BENCH_SIZES || 'fixture,10000,30000').split(',').map((s) => (s.trim() === 'fixture' ? 'fixture' : Number(s)));
  const rows: Row[] = [];
  const details: unknown[] = [];
  let weights: { text: number; vector: number } | null = null;
  for (const size of sizes) {
    const measured = await measureSize(size, weights);
    weights = measured.weights;
    rows.push(...measured.rows);
    details.push(measured.detail);
    console.log(`\n${table(measured.rows)}`);
  }
  console.log(`\n## All sizes\n\n${table(rows)}`);
  await mkdir(new URL('../results/', import.meta.url), { recursive: true });
  await writeFile(new URL('../results/search-engines.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), repeat: REPEAT, similarity: SIMILARITY, weights, rows, sizes: details }, null, 2));
}

await main();
