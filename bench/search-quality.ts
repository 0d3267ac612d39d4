// Search quality: the 97 judged shopper queries (issue 13's 67, then 30 written from the feeds' garment words) of bench/search-quality/queries.ts run through
// `POST /v1/search` on a service of this benchmark's own, scored with nDCG@10 and recall@20.
//
// Setup: one organization; one dataset per fixture feed (../shared/fixtures/shopify; the bench is
// skipped with a notice when they are absent), its storeUrl, storeDomain and currency set from
// feeds.ts; every product uploaded as `{ products }` (the store's products.json objects), then
// waited on until every item is processed (labels, search text, embeddings) by the ingest worker
// with the offline models. Photos are left out (their CDNs are third parties, unreachable offline;
// BENCH_PHOTOS=1 keeps them), so colours come from the products' words. A judged product is found again by feed file + Shopify id: its sku is
// String(id) and its itemId the uuid v5 of (datasetId, sku).
//
// Queries: a query with `store` is sent with `datasetIds: [that feed's dataset]` (and its
// `country` when it has one); a query without one searches every dataset of the organization.
// `limit` is 20.
//
// "Similar to this" (type 'similar'): the widget knows which product the shopper is looking at, and
// the search contract has no field for it, so the shopper's words are sent with the reference
// product's name appended: `<query text> <reference title>` (the title is read from the feed at run
// time). The reference product itself is removed from the results before scoring (it is never
// judged), and one more result is asked for (limit 21) so the scored list is still 20 long.
//
// Metrics (bench/search-quality/metrics.ts): nDCG@10 with gain 2^grade - 1 and the ideal from all
// the query's judged items, results with the same score (and availability) counted as tied, each
// credited their mean gain (the engine orders them by item id, new in each run); recall@20 over
// the items of grade >= 2. Beside them, "buyable": the
// same with every judged product the feed lists as sold out (no variant available) graded 0, in
// the answer and in the ideal, as a shopper who can buy only what is in stock sees it (search ranks
// what the shopper cannot buy last, by design; the judgements were written without stock); a query
// whose every relevant product is sold out has nothing to find there and is left out of that view. Goals
// (issue 28): nDCG@10 ≥ 0.85 and recall@20 ≥ 0.85 overall. Prints a table per query type, the 10 worst queries with what came
// back on top (name and grade, for diagnosis) and writes bench/results/search-quality.json.
//   node --import tsx bench/search-quality.ts
//   BENCH_BACKEND=pglite (default) | postgres   DATABASE_URL=postgres://… (server for postgres; a fresh database, dropped after)
//   BENCH_QUERIES=garment-boots,similar-samba (only these query ids)   BENCH_WORST=10
//   BENCH_LOAD_ONLY=1 (load the feeds, print how long it took, stop: no search is sent)
import { mkdir, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { FEED_STORES, FEEDS_DIR, missingFeeds, productKey, ProductIndex, readFeed, withoutPhotos } from './search-quality/feeds.js';
import { ndcgAt, recallAt, summarise, type QueryScore } from './search-quality/metrics.js';
import { FEEDS, JUDGED_QUERIES, type JudgedQuery } from './search-quality/queries.js';
import { search, SearchRouteMissing, type SearchBody } from './search/client.js';
import { createStoreDataset, startSearchService, uploadProducts, waitProcessed, type BackendKind, type SearchBenchService } from './search/service.js';

const GOALS = { ndcg10: 0.85, recall20: 0.85 };
const LIMIT = 20;

interface Loaded {
  datasets: Map<string, string>;
  index: ProductIndex;
  products: number;
  uploadSeconds: number;
  processSeconds: number;
  failed: number;
}

interface Scored extends QueryScore {
  /** Every judged query has something to find. */
  ndcg10: number;
  /**
   * The same, judged as a shopper who can buy only what is in stock: sold-out products graded 0, in
   * the answer and in the ideal. Null where every product judged relevant is sold out: there is
   * nothing to find, and the query is left out of that view's averages (as recall always was).
   */
  buyable: { ndcg10: number | null; recall20: number | null };
  text: string;
  sent: string;
  ms: number;
  relevant: number;
  top: Array<{ name: string; grade: number; key: string | null }>;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;
const fixed = (value: number | null, digits = 3) => (value === null ? '–' : value.toFixed(digits));

/** Every feed into a dataset of its own, uploaded and processed. */
export async function loadFeeds(service: SearchBenchService, { photos = false, log = console.error }: { photos?: boolean; log?: (line: string) => void } = {}): Promise<Loaded> {
  const datasets = new Map<string, string>();
  const index = new ProductIndex();
  const expected = new Map<string, number>();
  let products = 0;
  let failed = 0;
  const started = performance.now();
  for (const feed of FEEDS) {
    const feedProducts = photos ? readFeed(feed) : readFeed(feed).map(withoutPhotos);
    const datasetId = await createStoreDataset(service, FEED_STORES[feed]!);
    const report = await uploadProducts(service, datasetId, feedProducts);
    for (const failure of report.failures) log(`  upload refused ${feed}#${failure.sku}: ${failure.error}`);
    datasets.set(feed, datasetId);
    index.add(feed, datasetId, feedProducts);
    expected.set(datasetId, report.queued);
    products += feedProducts.length;
    failed += report.failures.length;
  }
  const uploadSeconds = seconds(started);
  log(`uploaded ${products} products of ${FEEDS.length} feeds in ${uploadSeconds} s; waiting for the ingest worker`);
  const processing = performance.now();
  const counts = await waitProcessed(service, expected, (done, total) => log(`  ${done} of ${total} processed`));
  const processSeconds = seconds(processing);
  let active = 0;
  for (const [feed, datasetId] of datasets) {
    const c = counts.get(datasetId)!;
    failed += c.failed;
    active += c.active;
    if (c.failed) log(`  ${feed}: ${c.failed} items failed in ingest`);
  }
  log(`processed in ${processSeconds} s more: ${active} active, ${failed} failed`);
  return { datasets, index, products, uploadSeconds, processSeconds, failed };
}

/** The request a judged query becomes (see the header for `similar`). */
export function requestFor(query: JudgedQuery, loaded: Pick<Loaded, 'datasets' | 'index'>): SearchBody {
  const body: SearchBody = { query: query.text, limit: LIMIT };
  if (query.similarTo) {
    const reference = loaded.index.product(productKey(query.similarTo.feed, query.similarTo.id));
    if (!reference) throw new Error(`${query.id}: reference product ${query.similarTo.feed}#${query.similarTo.id} is not in the catalogue`);
    body.query = `${query.text} ${reference.title}`.slice(0, 500);
    body.limit = LIMIT + 1;
  }
  if (query.store) body.datasetIds = [loaded.datasets.get(query.store)!];
  if (query.country) body.country = query.country;
  return body;
}

export async function scoreQuery(service: Pick<SearchBenchService, 'baseUrl' | 'publicKey'>, query: JudgedQuery, loaded: Pick<Loaded, 'datasets' | 'index'>): Promise<Scored> {
  const body = requestFor(query, loaded);
  const started = performance.now();
  const answer = await search(service.baseUrl, service.publicKey, body);
  const ms = performance.now() - started;
  const reference = query.similarTo ? productKey(query.similarTo.feed, query.similarTo.id) : null;
  const grades = new Map(query.judgements.map((j) => [productKey(j.feed, j.id), j.grade as number]));
  const returned = answer.results
    .map((r) => ({
      key: loaded.index.keyOf(r.itemId) ?? null,
      name: loaded.index.titleOfItem(r.itemId) ?? String(r.product?.name ?? r.itemId),
      // Products the engine scores alike (and can sell alike) it orders by item id: tied, for nDCG.
      // An answer without scores ties nothing.
      tie: typeof r.score === 'number' ? `${r.score} ${r.product?.available}` : `unscored ${r.itemId}`,
    }))
    .filter((r) => r.key !== reference)
    .slice(0, LIMIT);
  // An item the index does not know (it should not happen) is unjudged: grade 0, never a match.
  const ranked = returned.map((r, i) => r.key ?? `unknown:${i}`);
  const ties = returned.map((r) => r.tie);
  const buyableGrades = loaded.index.buyable(grades);
  return {
    id: query.id,
    type: query.type,
    text: query.text,
    sent: body.query,
    ms: Math.round(ms),
    ndcg10: ndcgAt(10, ranked, grades, ties),
    recall20: recallAt(LIMIT, ranked, grades),
    buyable: { ndcg10: [...buyableGrades.values()].some((grade) => grade > 0) ? ndcgAt(10, ranked, buyableGrades, ties) : null, recall20: recallAt(LIMIT, ranked, buyableGrades) },
    relevant: query.judgements.filter((j) => j.grade >= 2).length,
    top: returned.slice(0, 5).map((r) => ({ name: r.name, key: r.key, grade: r.key ? (grades.get(r.key) ?? 0) : 0 })),
  };
}

function printTable(scores: Scored[]): ReturnType<typeof summarise> {
  const summary = summarise(scores);
  const buyable = summarise(scores.map((s) => ({ ...s, ...s.buyable })));
  console.log('| Query type | Queries | nDCG@10 | recall@20 | nDCG@10, buyable | recall@20, buyable |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  summary.forEach((row, i) => {
    const name = row.type === 'overall' ? '**overall**' : row.type;
    console.log(`| ${name} | ${row.queries} | ${fixed(row.ndcg10)} | ${fixed(row.recall20)} | ${fixed(buyable[i]!.ndcg10)} | ${fixed(buyable[i]!.recall20)} |`);
  });
  const overall = summary.at(-1)!;
  const met = (value: number | null, goal: number) => (value !== null && value >= goal ? 'met' : 'NOT met');
  const inStock = buyable.at(-1)!;
  const nothingToBuy = scores.filter((s) => s.buyable.ndcg10 === null).map((s) => s.id);
  if (nothingToBuy.length) console.log(`\nBuyable view: ${nothingToBuy.length} queries whose every relevant product is sold out are left out of its averages (${nothingToBuy.join(', ')}).`);
  console.log(`\nGoals: nDCG@10 ≥ ${GOALS.ndcg10} (${met(overall.ndcg10, GOALS.ndcg10)}; buyable ${met(inStock.ndcg10, GOALS.ndcg10)}), recall@20 ≥ ${GOALS.recall20} (${met(overall.recall20, GOALS.recall20)}; buyable ${met(inStock.recall20, GOALS.recall20)})`);
  return summary;
}

function printWorst(scores: Scored[], count: number): void {
  const worst = [...scores].sort((a, b) => a.ndcg10 - b.ndcg10 || (a.recall20 ?? 1) - (b.recall20 ?? 1)).slice(0, count);
  console.log(`\nThe ${worst.length} worst queries (nDCG@10), with the top 5 returned (grade in brackets):`);
  for (const s of worst) {
    console.log(`- ${s.id} [${s.type}] "${s.sent}": nDCG@10 ${fixed(s.ndcg10)}, recall@20 ${fixed(s.recall20)} (${s.relevant} of grade >= 2)`);
    for (const [i, r] of s.top.entries()) console.log(`    ${i + 1}. (${r.grade}) ${r.name}`);
    if (!s.top.length) console.log('    (nothing returned)');
  }
}

async function main(): Promise<void> {
  const missing = missingFeeds();
  if (missing.length) {
    console.log(`bench/search-quality.ts: SKIPPED, the fixture feeds are not in ${FEEDS_DIR} (missing: ${missing.join(', ')}).`);
    return;
  }
  const kind: BackendKind = (process.env.BENCH_BACKEND || 'pglite') === 'postgres' ? 'postgres' : 'pglite';
  const loadOnly = Boolean(process.env.BENCH_LOAD_ONLY);
  const only = (process.env.BENCH_QUERIES || '').split(',').filter(Boolean);
  const queries = only.length ? JUDGED_QUERIES.filter((q) => only.includes(q.id)) : JUDGED_QUERIES;
  const service = await startSearchService(kind);
  try {
    console.error(`search quality on ${service.backend.label}: ${queries.length} queries`);
    // An empty catalogue answers 200 with no results; a build without the route answers 404 here,
    // before minutes are spent loading.
    if (!loadOnly) await search(service.baseUrl, service.publicKey, { query: 'dress' });
    const loaded = await loadFeeds(service, { photos: Boolean(process.env.BENCH_PHOTOS) });
    if (loadOnly) return;
    const scores: Scored[] = [];
    for (const query of queries) scores.push(await scoreQuery(service, query, loaded));
    const summary = printTable(scores);
    printWorst(scores, Number(process.env.BENCH_WORST) || 10);
    const latencies = scores.map((s) => s.ms).sort((a, b) => a - b);
    console.log(`\nLoading: ${loaded.products} products uploaded in ${loaded.uploadSeconds} s, processed in ${loaded.processSeconds} s (${loaded.failed} failed); query median ${latencies[Math.floor(latencies.length / 2)]} ms`);
    await mkdir(new URL('results/', import.meta.url), { recursive: true });
    await writeFile(
      new URL('results/search-quality.json', import.meta.url),
      JSON.stringify({ at: new Date().toISOString(), backend: service.backend.kind, goals: GOALS, loading: { products: loaded.products, uploadSeconds: loaded.uploadSeconds, processSeconds: loaded.processSeconds, failed: loaded.failed }, summary, queries: scores }, null, 2),
    );
  } catch (error) {
    if (error instanceof SearchRouteMissing) {
      console.error(`\nbench/search-quality.ts FAILED: ${error.message}`);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    await service.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
