// The vector index port (DESIGN.md `infra/vectors/`) and its adapter: an HNSW graph from usearch,
// in process. Chosen over hnswlib-node for prebuilt binaries (no compiler at install), 8-bit
// storage and removal by key. Vectors are kept as i8: usearch scales each to unit length and then
// to [-127, 127], a quarter of f32's memory, and its search reads a quarter of the bytes. Against
// f16, the bench's seven graphs at 100,000 items searched 120 deep took 14% to 20% less time and
// found as many of the exact nearest (recall@120 within one build's noise of f16's; the judged
// queries' nDCG unchanged; docs/performance.md).
// Keys are the caller's strings; usearch wants integers, so each index numbers its own.
// usearch's own `remove` is never called: in 2.25.3 an `add` after a `remove` never returns (one
// core spinning; tested in test/infra/hnsw.test.ts, and reported upstream). A replaced or removed
// key is a tombstone instead: its number is forgotten, searches ask for more neighbours (the
// tombstones' share of the graph, or all of them when that comes back short) and drop the
// forgotten ones, and the owner rebuilds the graph when tombstones pile up (`tombstones`).
// A graph is saved and restored whole (`image`, `restoreHnswIndex`) so a process need not build it
// again one vector at a time: usearch 2.25's JavaScript binding saves and loads by file path only
// (no buffer API), so the bytes pass through a temporary file.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  /**
   * The k nearest live vectors. `depth`: how many candidates the search explores (usearch's beam),
   * at least k; deeper finds more of the true nearest at some cost.
   */
  nearest(vector: ArrayLike<number>, k: number, depth?: number): VectorMatch[];
  /** Approximate bytes held: vectors plus graph links. */
  memoryBytes(): number;
  /** The graph and its keys as they are now, to be restored elsewhere with `restoreHnswIndex`. */
  image(): VectorIndexImage;
}

/** A saved graph: usearch's own file bytes (graph and i8 vectors) and which key each number is. */
export interface VectorIndexImage {
  dimensions: number;
  connectivity: number;
  graph: Buffer;
  /** The live keys and their numbers in the graph, same order; a number in the graph not listed is a tombstone. */
  keys: string[];
  numbers: number[];
  /** The next number to give. */
  next: number;
}

export interface HnswOptions {
  dimensions: number;
  /** Graph degree (M); usearch's default is 16. */
  connectivity?: number;
  /**
   * The fewest candidates a search explores (usearch's ef, fixed when the index is made). usearch
   * explores max(ef, neighbours asked for), so a low ef here lets each search choose its depth
   * (`nearest`'s `depth`).
   */
  expansionSearch?: number;
}

const BYTES_PER_SCALAR = 1; // i8
/** A search's depth unless it names one: the beam of the search quality measured (docs/performance.md). */
export const SEARCH_DEPTH = 256;
const MIN_DEPTH = 16;
/** Neighbours asked for beyond k and the tombstones' expected share of them (see `nearest`). */
const TOMBSTONE_ROOM = 16;
/**
 * What a graph takes of the process beyond its vectors and links: usearch reserves room in powers
 * of two and its allocator keeps its own. Measured at 256 dimensions, M 16 (bench/search/cold-load.ts,
 * Node 24, four datasets of 10,000 held at once, MALLOC_ARENA_MAX=2): with i8 vectors (2026-11-29)
 * about 3.1 KB of native memory a vector, 5.4 KB of RSS an item in all; with f16 (2026-11-27)
 * 3.7 KB and 5.9 KB. 7 × (256 + 128 + 64) bytes is 3.1 KB.
 */
const NATIVE_OVERHEAD = 7;

const newIndex = (options: HnswOptions, connectivity: number): InstanceType<typeof usearch.Index> =>
  new usearch.Index({
    metric: 'cos',
    dimensions: options.dimensions,
    connectivity,
    quantization: 'i8',
    expansion_add: 128,
    expansion_search: options.expansionSearch ?? MIN_DEPTH,
    multi: false,
  } as unknown as ConstructorParameters<typeof usearch.Index>[0]);

export function createHnswIndex(options: HnswOptions): VectorIndex {
  const connectivity = options.connectivity ?? 16;
  return wrap(options, connectivity, newIndex(options, connectivity), new Map(), 1n, 0);
}

/** usearch saves and loads graphs only through files: `use` gets a fresh temporary path, removed after. */
function throughTempFile<T>(use: (file: string) => T): T {
  const file = path.join(tmpdir(), `stylist-hnsw-${randomUUID()}.usearch`);
  try {
    return use(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * The index `image` was taken of. Throws when the bytes are not a graph of those dimensions and
 * keys (the caller checks the bytes' integrity first: usearch trusts a file's links).
 */
export function restoreHnswIndex(image: VectorIndexImage, options: Omit<HnswOptions, 'dimensions' | 'connectivity'> = {}): VectorIndex {
  const settings = { ...options, dimensions: image.dimensions, connectivity: image.connectivity };
  const index = newIndex(settings, image.connectivity);
  throughTempFile((file) => {
    writeFileSync(file, image.graph);
    index.load(file);
  });
  const graphSize = Number(index.size());
  if (index.dimensions() !== image.dimensions || image.keys.length !== image.numbers.length || graphSize < image.keys.length || image.next <= graphSize) {
    throw new RangeError(`a saved graph of ${graphSize} vectors, ${index.dimensions()} dimensions does not match its ${image.keys.length} keys`);
  }
  const numbers = new Map<string, bigint>();
  image.keys.forEach((key, i) => numbers.set(key, BigInt(image.numbers[i]!)));
  return wrap(settings, image.connectivity, index, numbers, BigInt(image.next), graphSize - numbers.size);
}

function wrap(options: HnswOptions, connectivity: number, index: InstanceType<typeof usearch.Index>, numbers: Map<string, bigint>, first: bigint, tombstonesAtStart: number): VectorIndex {
  // Each number's key, at the number as an index: a search maps up to k + tombstones numbers back
  // to keys, and an array read is cheaper than a Map keyed by BigInt (numbers only grow, from 1).
  const keys: Array<string | undefined> = [];
  for (const [key, number] of numbers) keys[Number(number)] = key;
  let next = first;
  let tombstones = tombstonesAtStart;

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
        keys[Number(existing)] = undefined;
        tombstones++;
      }
      const number = next++;
      index.add(number, values, 1);
      numbers.set(key, number);
      keys[Number(number)] = key;
    },
    remove(key) {
      const number = numbers.get(key);
      if (number === undefined) return;
      numbers.delete(key);
      keys[Number(number)] = undefined;
      tombstones++;
    },
    has: (key) => numbers.has(key),
    nearest(vector, k, depth = SEARCH_DEPTH) {
      if (numbers.size === 0 || k <= 0) return [];
      const query = toFloat32(vector);
      const stored = numbers.size + tombstones;
      // Asking for k + every tombstone would be sure to hold k live vectors, but usearch explores
      // max(ef, asked) candidates: a graph of 14,000 with 1,000 tombstones searched 3 to 5 times as
      // long, with 5,000 ten times. First ask for the share of tombstones a random neighbourhood
      // holds, with room; when that comes back short (the removed ones crowd the query: a
      // collection archived together), ask for four times as many, up to them all. At least the
      // depth is asked for: usearch returns what it explored, best first.
      const sure = Math.min(stored, k + tombstones);
      let asked = Math.min(stored, Math.max(depth, tombstones === 0 ? k : Math.ceil((k * stored) / numbers.size) + TOMBSTONE_ROOM));
      for (;;) {
        const found = index.search(query, asked, 1);
        const matches: VectorMatch[] = [];
        // Read as 32-bit halves: each element of a BigUint64Array read is a BigInt made on the heap.
        const halves = new Uint32Array(found.keys.buffer, found.keys.byteOffset, found.keys.length * 2);
        for (let i = 0; i < found.keys.length && matches.length < k; i++) {
          const key = keys[halves[2 * i + 1] === 0 ? halves[2 * i]! : Number(found.keys[i]!)];
          // Cosine distance is 1 - similarity.
          if (key !== undefined) matches.push({ key, similarity: 1 - found.distances[i]! });
        }
        if (matches.length >= k || asked >= sure) return matches;
        asked = Math.min(sure, asked * 4);
      }
    },
    memoryBytes: () => (numbers.size + tombstones) * (options.dimensions * BYTES_PER_SCALAR + connectivity * 2 * 4 + 64) * NATIVE_OVERHEAD,
    image() {
      const graph = throughTempFile((file) => {
        index.save(file);
        return readFileSync(file);
      });
      return { dimensions: options.dimensions, connectivity, graph, keys: [...numbers.keys()], numbers: [...numbers.values()].map(Number), next: Number(next) };
    },
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
