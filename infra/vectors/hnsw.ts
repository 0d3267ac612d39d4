// The vector index port (DESIGN.md `infra/vectors/`) and its adapter: an HNSW graph from usearch,
// in process. Chosen over hnswlib-node for prebuilt binaries (no compiler at install), f16
// storage (half the memory of f32 at no measurable loss on unit vectors) and removal by key.
// Keys are the caller's strings; usearch wants integers, so each index numbers its own.
// usearch's own `remove` is never called: in 2.25.3 an `add` after a `remove` never returns (one
// core spinning; tested in test/infra/hnsw.test.ts, and reported upstream). A replaced or removed
// key is a tombstone instead: its number is forgotten, searches ask for that many more neighbours
// and drop the forgotten ones, and the owner rebuilds the graph when tombstones pile up
// (`tombstones`).
import usearch from 'usearch';

export interface VectorMatch {
  key: string;
  /** Cosine similarity, -1 to 1. */
  similarity: number;
}

export interface VectorIndex {
  readonly dimensions: number;
  readonly size: number;
  /** Vectors still in the graph whose key was replaced or removed. */
  readonly tombstones: number;
  /** Adds or replaces the vector of `key`. */
  upsert(key: string, vector: ArrayLike<number>): void;
  remove(key: string): void;
  has(key: string): boolean;
  nearest(vector: ArrayLike<number>, k: number): VectorMatch[];
  /** Approximate bytes held: vectors plus graph links. */
  memoryBytes(): number;
}

export interface HnswOptions {
  dimensions: number;
  /** Graph degree (M); usearch's default is 16. */
  connectivity?: number;
  /** Candidates explored per query (ef); higher finds more of the true nearest at some cost. */
  expansionSearch?: number;
}

const BYTES_PER_SCALAR = 2; // f16

export function createHnswIndex(options: HnswOptions): VectorIndex {
  const connectivity = options.connectivity ?? 16;
  const index = new usearch.Index({
    metric: 'cos',
    dimensions: options.dimensions,
    connectivity,
    quantization: 'f16',
    expansion_add: 128,
    expansion_search: options.expansionSearch ?? 256,
    multi: false,
  } as unknown as ConstructorParameters<typeof usearch.Index>[0]);
  const numbers = new Map<string, bigint>();
  const keys = new Map<bigint, string>();
  let next = 1n;
  let tombstones = 0;

  const toFloat32 = (vector: ArrayLike<number>): Float32Array => {
    if (vector.length !== options.dimensions) throw new RangeError(`vector has ${vector.length} dimensions, the index ${options.dimensions}`);
    return vector instanceof Float32Array ? vector : Float32Array.from(vector);
  };

  return {
    dimensions: options.dimensions,
    get size() {
      return numbers.size;
    },
    get tombstones() {
      return tombstones;
    },
    upsert(key, vector) {
      const values = toFloat32(vector);
      const existing = numbers.get(key);
      if (existing !== undefined) {
        keys.delete(existing);
        tombstones++;
      }
      const number = next++;
      index.add(number, values, 1);
      numbers.set(key, number);
      keys.set(number, key);
    },
    remove(key) {
      const number = numbers.get(key);
      if (number === undefined) return;
      numbers.delete(key);
      keys.delete(number);
      tombstones++;
    },
    has: (key) => numbers.has(key),
    nearest(vector, k) {
      if (numbers.size === 0 || k <= 0) return [];
      const found = index.search(toFloat32(vector), Math.min(k + tombstones, numbers.size + tombstones), 1);
      const matches: VectorMatch[] = [];
      for (let i = 0; i < found.keys.length; i++) {
        const key = keys.get(found.keys[i]!);
        // Cosine distance is 1 - similarity.
        if (key !== undefined) matches.push({ key, similarity: 1 - found.distances[i]! });
      }
      return matches.slice(0, k);
    },
    memoryBytes: () => (numbers.size + tombstones) * (options.dimensions * BYTES_PER_SCALAR + connectivity * 2 * 4 + 64),
  };
}

/** Exact cosine nearest neighbours by a linear scan: the yardstick for the index's recall. */
export function exactNearest(vectors: ReadonlyMap<string, ArrayLike<number>>, query: ArrayLike<number>, k: number): VectorMatch[] {
  const scored: VectorMatch[] = [];
  let queryNorm = 0;
  for (let i = 0; i < query.length; i++) queryNorm += query[i]! * query[i]!;
  queryNorm = Math.sqrt(queryNorm) || 1;
  for (const [key, vector] of vectors) {
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < vector.length; i++) {
      dot += vector[i]! * query[i]!;
      norm += vector[i]! * vector[i]!;
    }
    scored.push({ key, similarity: dot / ((Math.sqrt(norm) || 1) * queryNorm) });
  }
  return scored.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}
