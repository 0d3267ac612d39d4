// The vector index on a loaded catalogue, against an exact scan: how much of the true nearest it
// finds (recall@k), what it costs in memory and build time, and how much faster it answers.
// It reads the catalogue's stored embeddings (item_embeddings of active items) into one HNSW index
// through the same adapter search uses (infra/vectors/hnsw.ts): one index over every dataset is
// the worst case, since the service keeps one per dataset. Queries are the shopper queries'
// embeddings from the configured (here offline) embedder. Beside it, the service's way with
// several datasets in scope (one graph a dataset, each searched k deep, the lists merged) against
// that one graph searched k and 2k deep: what one graph per organization would save.
import { sql, type Kysely } from 'kysely';
import type { Embedder } from '../../infra/models/port.js';
import { createHnswIndex, exactNearest, type VectorIndex, type VectorMatch } from '../../infra/vectors/hnsw.js';

export interface VectorIndexReport {
  vectors: number;
  dimensions: number;
  buildSeconds: number;
  /** The adapter's own estimate: vectors (i8) plus graph links. */
  estimatedMB: number;
  /** Process RSS before and after the build; noisy (garbage, allocator), read it as a bound. */
  rssDeltaMB: number;
  recallAt10: number;
  /** At the depth the search's vector leg asks for. */
  recallAt120: number;
  hnswQueryMs: number;
  exactQueryMs: number;
  /** The catalogue's datasets, each a graph of its own as the service holds them. */
  graphs: number;
  /** Per query at the vector leg's deepest (120): one graph a dataset searched 120 deep and merged; the one graph 120 and 240 deep. */
  scope: Record<'perDataset' | 'oneAtK' | 'oneAt2K', { queryMs: number; recallAt120: number }>;
}

const PAGE = 5000;
/** The vector leg's deepest: how many neighbours the recall and the scope comparison ask for. */
const SCOPE_K = 120;
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function measureVectorIndex(db: Kysely<any>, embedder: Embedder, queries: readonly string[]): Promise<VectorIndexReport> {
  const vectors = new Map<string, Float32Array>();
  const datasetOf = new Map<string, string>();
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ item_id: string; dataset_id: string; vector: number[] }>`
      select d.item_id, d.dataset_id, e.vector from search_documents d join item_embeddings e on e.item_id = d.item_id
       where d.status = 'active' and d.item_id > ${after} order by d.item_id limit ${PAGE}`.execute(db);
    for (const row of rows) {
      vectors.set(row.item_id, Float32Array.from(row.vector));
      datasetOf.set(row.item_id, row.dataset_id);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.item_id;
  }
  const dimensions = vectors.values().next().value?.length ?? 0;
  if (!dimensions) throw new Error('no embeddings stored: the catalogue is not processed');

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const index = createHnswIndex({ dimensions });
  for (const [key, vector] of vectors) index.upsert(key, vector);
  const buildSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const rssDeltaMB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;

  const queryVectors = await embedder.embed([...queries]);
  const approximates: VectorMatch[][] = [];
  const exacts: VectorMatch[][] = [];
  const hnswMs: number[] = [];
  const exactMs: number[] = [];
  for (const query of queryVectors) {
    let t0 = performance.now();
    exacts.push(exactNearest(vectors, query, SCOPE_K));
    exactMs.push(performance.now() - t0);
    t0 = performance.now();
    approximates.push(index.nearest(query, SCOPE_K));
    hnswMs.push(performance.now() - t0);
  }
  const scope = compareScopeGraphs(index, vectors, datasetOf, queryVectors, exacts, dimensions);
  return {
    scope,
    graphs: new Set(datasetOf.values()).size,
    vectors: vectors.size,
    dimensions,
    buildSeconds: round(buildSeconds),
    estimatedMB: round(index.memoryBytes() / 2 ** 20),
    rssDeltaMB: round(rssDeltaMB),
    recallAt10: tieAwareRecall(approximates, exacts, 10),
    recallAt120: tieAwareRecall(approximates, exacts, SCOPE_K),
    hnswQueryMs: round(medianOf(hnswMs), 2),
    exactQueryMs: round(medianOf(exactMs), 2),
  };
}

/**
 * Recall@k of `found` against `exact`, each a list per query. Ties at the k-th similarity make "the"
 * exact top k ambiguous: a found vector counts when it is one of them, or when it is as near as the
 * k-th (its similarity as the graph computed it, from i8).
 */
function tieAwareRecall(found: readonly VectorMatch[][], exact: readonly VectorMatch[][], k: number): number {
  let hits = 0;
  let wanted = 0;
  found.forEach((list, i) => {
    const best = exact[i]!.slice(0, k);
    const kth = best[best.length - 1]?.similarity ?? 1;
    const keys = new Set(best.map((match) => match.key));
    hits += list.slice(0, k).filter((match) => keys.has(match.key) || match.similarity >= kth - 1e-6).length;
    wanted += best.length;
  });
  return wanted ? round(Math.min(1, hits / wanted), 3) : 0;
}

/**
 * One graph a dataset (as the service holds them: searched k deep each when several are in scope,
 * the lists merged; sorted together here, the service merges by heads) against `one`, a graph of
 * every vector, searched k and 2k deep; `exact`: each query's exact nearest, from the recall above.
 * Timed in alternated rounds, each method's median per query.
 */
function compareScopeGraphs(
  one: VectorIndex,
  vectors: ReadonlyMap<string, Float32Array>,
  datasetOf: ReadonlyMap<string, string>,
  queries: ReadonlyArray<ArrayLike<number>>,
  exact: readonly VectorMatch[][],
  dimensions: number,
): VectorIndexReport['scope'] {
  const graphs = new Map<string, VectorIndex>();
  for (const [key, vector] of vectors) {
    const datasetId = datasetOf.get(key)!;
    let graph = graphs.get(datasetId);
    if (!graph) graphs.set(datasetId, (graph = createHnswIndex({ dimensions })));
    graph.upsert(key, vector);
  }
  const query32 = queries.map((query) => Float32Array.from(query));
  const methods = {
    perDataset: (query: Float32Array) =>
      [...graphs.values()]
        .flatMap((graph) => graph.nearest(query, SCOPE_K, SCOPE_K))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, SCOPE_K),
    oneAtK: (query: Float32Array) => one.nearest(query, SCOPE_K, SCOPE_K),
    oneAt2K: (query: Float32Array) => one.nearest(query, SCOPE_K, 2 * SCOPE_K),
  };
  const times: Record<keyof typeof methods, number[]> = { perDataset: [], oneAtK: [], oneAt2K: [] };
  for (let round = 0; round < 5; round++) {
    for (const name of Object.keys(methods) as Array<keyof typeof methods>) {
      const started = performance.now();
      for (const query of query32) methods[name](query);
      times[name].push((performance.now() - started) / query32.length);
    }
  }
  const report = {} as VectorIndexReport['scope'];
  for (const name of Object.keys(methods) as Array<keyof typeof methods>) {
    report[name] = { queryMs: round(medianOf(times[name]), 3), recallAt120: tieAwareRecall(query32.map(methods[name]), exact, SCOPE_K) };
  }
  return report;
}
