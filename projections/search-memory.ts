// The searchable catalogue held in this process: per dataset, every active item's labelled
// attributes, its full-text lexemes (read from the weighted `document` of search_documents, so the
// stemming is Postgres's own) in an inverted index, attribute postings, and its embedding in an
// HNSW graph. Loaded from the read model the first time a dataset is searched (or at start-up),
// and kept current by following `search_documents` by `change_seq`: every process follows the same
// table, so a second API process sees what the first projected, and a rebuild of the read model
// reads as a stream of fresh changes.
//
// Why in memory: Postgres full text cannot rank by an index (`ts_rank` reads every matching row),
// and with four legs a query cost ~40 ms of database CPU at 10,000 items, ~34 searches a second on
// two cores (bench/search.ts, 2026-11-26). Held here, retrieval and ranking are array walks over
// postings; the database is asked only for what must be exact at answer time (stock, market
// prices, whether an item is still active).
//
// What it is not: the source of truth. The search checks every result it shows against the read
// model (status and scope), so a memory a moment behind can never show an archived item; a search
// first catches up when the read model's head has moved, so what was projected before the request
// is searchable by it.
import { sql, type Kysely } from 'kysely';
import { productNameKeys } from '../domain/search/names.js';
import { createHnswIndex, type VectorIndex, type VectorMatch } from '../infra/vectors/hnsw.js';

export interface SearchMemoryOptions {
  onError?: (error: unknown) => void;
}

/** One active item as search ranks it. */
export interface MemoryDoc {
  itemId: string;
  datasetId: string;
  sourceId: string | null;
  /** Position in its dataset's accumulators; stable for the item's life in memory. */
  slot: number;
  slotName: string;
  family: string;
  gender: string;
  ageGroup: string;
  colorFamily: string;
  colors: string[];
  pattern: string;
  materials: string[];
  fit: string | null;
  featureKeys: string[];
  price: number;
  currency: string;
  queuedAt: string;
  /** Lexeme ids of its document, ascending, and each one's weight (A 1.0, B 0.5, C 0.2, D 0.1, plus a little per repeat). */
  terms: Uint32Array;
  weights: Float32Array;
  /** The names it answers to when typed in full (domain/search/names.ts); none for a doc put without. */
  names?: readonly string[];
  /** A checksum of its embedding: an unchanged vector is not put into the graph again. */
  vectorSum: number;
  /**
   * The item id's first 48 bits as a number: ordering by it is ordering by the id (as the read
   * model orders ties) for all but ids sharing those bits, and costs a subtraction, not a string
   * comparison; ties among thousands of equal scores are common.
   */
  idOrder: number;
}

/** Item ids in their order, as `MemoryDoc.idOrder` allows it cheaply. */
export const byItemId = (a: MemoryDoc, b: MemoryDoc): number => a.idOrder - b.idOrder || (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0);

const idOrderOf = (itemId: string): number => {
  const order = Number.parseInt(itemId.replace(/-/g, '').slice(0, 12), 16);
  return Number.isNaN(order) ? 0 : order;
};

/** The lexeme ids that answer one shopper's word. */
export type WordLexemes = number[];

export interface WordScores {
  /** Summed weight of the words matched, by slot. */
  rank: Float64Array;
  /** Docs that matched any word and passed the filters. */
  touched: MemoryDoc[];
  /** How many of the words the doc has. */
  covered(doc: MemoryDoc): number;
}

/** A label test: the doc meets it when it has any of `keys` (`family:dress`, `color:red`…). */
export interface AttributeTest {
  keys: string[];
  weight: number;
}

/** `accept` asked once per doc (by slot) during one scoring pass. */
class Verdicts {
  private readonly known: Uint8Array;
  constructor(
    size: number,
    private readonly accept: (doc: MemoryDoc) => boolean,
  ) {
    this.known = new Uint8Array(size);
  }
  accepts(doc: MemoryDoc): boolean {
    let verdict = this.known[doc.slot]!;
    if (verdict === 0) this.known[doc.slot] = verdict = this.accept(doc) ? 1 : 2;
    return verdict === 1;
  }
}

function popcount(n: number): number {
  let count = 0;
  for (let v = n; v; v &= v - 1) count++;
  return count;
}

export interface Postings {
  docs: MemoryDoc[];
  weights: number[];
}

export class DatasetMemory {
  readonly docs = new Map<string, MemoryDoc>();
  /** By slot; null where an item left. */
  readonly bySlot: Array<MemoryDoc | null> = [];
  private readonly freeSlots: number[] = [];
  /** Lexeme id → docs with that lexeme and its weight in each (an entry is current only while its slot holds that doc). */
  readonly postings = new Map<number, Postings>();
  /** `family:dress`, `slot:top`, `color:red` (colour family or a colour sold), `material:linen`, `pattern:striped`, `feature:k`. */
  readonly attributes = new Map<string, MemoryDoc[]>();
  /** Name key → docs answering to it (an entry is current only while its slot holds that doc). */
  readonly names = new Map<string, MemoryDoc[]>();
  vectors: VectorIndex | null = null;
  private stale = 0;
  private entries = 0;

  isCurrent(doc: MemoryDoc): boolean {
    return this.bySlot[doc.slot] === doc;
  }

  put(doc: Omit<MemoryDoc, 'slot' | 'vectorSum' | 'idOrder'>, vector: number[] | null): void {
    const previous = this.docs.get(doc.itemId);
    if (previous) this.retire(previous);
    const slot = previous?.slot ?? this.freeSlots.pop() ?? this.bySlot.length;
    const vectorSum = vector?.length ? checksum(vector) : NaN;
    const placed: MemoryDoc = { ...doc, slot, vectorSum, idOrder: idOrderOf(doc.itemId) };
    this.docs.set(doc.itemId, placed);
    this.bySlot[slot] = placed;
    placed.terms.forEach((term, i) => {
      const list = this.postings.get(term);
      if (list) {
        list.docs.push(placed);
        list.weights.push(placed.weights[i]!);
      } else this.postings.set(term, { docs: [placed], weights: [placed.weights[i]!] });
    });
    for (const key of attributeKeys(placed)) push(this.attributes, key, placed);
    for (const key of placed.names ?? []) push(this.names, key, placed);
    this.entries += placed.terms.length;
    // Most changes are of price, stock or status: the vector is the same and stays as it is.
    if (vector?.length && previous?.vectorSum === vectorSum && this.vectors?.has(doc.itemId)) return;
    if (vector?.length) {
      // A new embedding model changes the dimensions: the graph starts over with the new ones.
      if (!this.vectors || this.vectors.dimensions !== vector.length) this.vectors = createHnswIndex({ dimensions: vector.length });
      this.vectors.upsert(doc.itemId, vector);
    } else this.vectors?.remove(doc.itemId);
  }

  remove(itemId: string): void {
    const doc = this.docs.get(itemId);
    if (!doc) return;
    this.retire(doc);
    this.docs.delete(itemId);
    this.bySlot[doc.slot] = null;
    this.freeSlots.push(doc.slot);
    this.vectors?.remove(itemId);
  }

  private retire(doc: MemoryDoc): void {
    this.stale += doc.terms.length;
    // Postings keep retired docs until they outnumber the live ones: then they are rebuilt once.
    if (this.stale > 1000 && this.stale > this.entries - this.stale) this.compact();
  }

  private compact(): void {
    for (const lists of [this.attributes, this.names]) {
      for (const [key, list] of lists) {
        const current = list.filter((doc) => this.isCurrent(doc));
        if (current.length) lists.set(key, current);
        else lists.delete(key);
      }
    }
    for (const [term, list] of this.postings) {
      const kept: Postings = { docs: [], weights: [] };
      list.docs.forEach((doc, i) => {
        if (!this.isCurrent(doc)) return;
        kept.docs.push(doc);
        kept.weights.push(list.weights[i]!);
      });
      if (kept.docs.length) this.postings.set(term, kept);
      else this.postings.delete(term);
    }
    this.entries -= this.stale;
    this.stale = 0;
  }

  /**
   * Every doc with any of the words (each word: the lexeme ids that answer it) that passes
   * `accept`, scored: which words it has (a bit each, up to 32 words) and their summed weight.
   */
  scoreWords(words: readonly WordLexemes[], accept: (doc: MemoryDoc) => boolean): WordScores {
    const size = words.length ? this.bySlot.length : 0;
    const rank = new Float64Array(size);
    const found = new Uint32Array(size);
    const verdicts = new Verdicts(size, accept);
    const touched: MemoryDoc[] = [];
    for (let w = 0; w < Math.min(words.length, 32); w++) {
      const bit = 1 << w;
      for (const lexeme of words[w]!) {
        const list = this.postings.get(lexeme);
        if (!list) continue;
        const { docs, weights } = list;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          if (found[doc.slot]! & bit || !this.isCurrent(doc) || !verdicts.accepts(doc)) continue;
          if (found[doc.slot] === 0) touched.push(doc);
          found[doc.slot]! |= bit;
          rank[doc.slot]! += weights[i]!;
        }
      }
    }
    return { rank, touched, covered: (doc) => popcount(found[doc.slot] ?? 0) };
  }

  /** Every doc passing `accept` that meets any of the tests, with the summed weight of those it meets. */
  matchAttributes(tests: readonly AttributeTest[], accept: (doc: MemoryDoc) => boolean): { docs: MemoryDoc[]; keys: number[] } {
    const docs: MemoryDoc[] = [];
    if (!tests.length) return { docs, keys: [] };
    const passed = new Uint8Array(this.bySlot.length);
    const score = new Float64Array(this.bySlot.length);
    const verdicts = new Verdicts(this.bySlot.length, accept);
    tests.forEach(({ keys, weight }, t) => {
      const bit = 1 << t;
      for (const key of keys) {
        for (const doc of this.attributes.get(key) ?? []) {
          // Each test counts once, however many of its values the doc has.
          if (passed[doc.slot]! & bit || !this.isCurrent(doc) || !verdicts.accepts(doc)) continue;
          if (passed[doc.slot] === 0) docs.push(doc);
          passed[doc.slot]! |= bit;
          score[doc.slot]! += weight;
        }
      }
    });
    return { docs, keys: docs.map((doc) => score[doc.slot]!) };
  }

  /** The current docs passing `accept` whose name is `key` (a `nameKey`), in item id order. */
  namedExactly(key: string, accept: (doc: MemoryDoc) => boolean): MemoryDoc[] {
    if (!key) return [];
    return [...new Set((this.names.get(key) ?? []).filter((doc) => this.isCurrent(doc) && accept(doc)))].sort(byItemId);
  }

  /** Bytes held, roughly: for logs and the benchmark. */
  memoryBytes(): number {
    let bytes = 0;
    for (const doc of this.docs.values()) bytes += 400 + doc.terms.length * 8 + (doc.colors.length + doc.materials.length + doc.featureKeys.length) * 40;
    return bytes + this.entries * 8 + (this.vectors?.memoryBytes() ?? 0);
  }
}

function checksum(vector: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * (i + 1);
  return sum;
}

function push<K>(lists: Map<K, MemoryDoc[]>, key: K, doc: MemoryDoc): void {
  const list = lists.get(key);
  if (list) list.push(doc);
  else lists.set(key, [doc]);
}

function attributeKeys(doc: MemoryDoc): Set<string> {
  return new Set([
    `family:${doc.family}`,
    `slot:${doc.slotName}`,
    `color:${doc.colorFamily}`,
    ...doc.colors.map((colour) => `color:${colour}`),
    ...doc.materials.map((material) => `material:${material}`),
    `pattern:${doc.pattern}`,
    ...doc.featureKeys.map((key) => `feature:${key}`),
  ]);
}

/** Every lexeme any dataset holds, numbered once, with a sorted view for prefix matches. */
export class Lexicon {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private sorted: Array<[string, number]> | null = null;

  id(lexeme: string): number {
    let id = this.ids.get(lexeme);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(lexeme, id);
      this.words.push(lexeme);
      this.sorted = null;
    }
    return id;
  }

  find(lexeme: string): number | undefined {
    return this.ids.get(lexeme);
  }

  /** Ids of every lexeme that starts with `prefix`. */
  withPrefix(prefix: string): number[] {
    this.sorted ??= [...this.ids].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const list = this.sorted;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]![0] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let i = lo; i < list.length && list[i]![0].startsWith(prefix); i++) found.push(list[i]![1]);
    return found;
  }
}

const WEIGHT_OF: Record<string, number> = { A: 1, B: 0.5, C: 0.2, D: 0.1 };
/** Each further occurrence of a lexeme adds this share of its weight, up to REPEATS_COUNTED of them. */
const REPEAT_SHARE = 0.1;
const REPEATS_COUNTED = 4;

/**
 * A tsvector's text form (`'dress':1A,4B 'red':2`) as lexemes and weights: the best weight of each
 * lexeme's positions, a little more for each repeat. A position without a letter is weight D.
 */
export function parseDocument(text: string, lexicon: Lexicon): { terms: Uint32Array; weights: Float32Array } {
  const pairs: Array<[number, number]> = [];
  for (const { lexeme, suffix } of quotedLexemes(text)) {
    const positions = suffix ? suffix.slice(1).split(',') : [''];
    let best = 0;
    for (const position of positions) best = Math.max(best, WEIGHT_OF[position.slice(-1)] ?? WEIGHT_OF.D!);
    const weight = best * (1 + REPEAT_SHARE * Math.min(REPEATS_COUNTED, positions.length - 1));
    pairs.push([lexicon.id(lexeme), weight]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  return { terms: Uint32Array.from(pairs, (p) => p[0]), weights: Float32Array.from(pairs, (p) => p[1]) };
}

/**
 * The quoted lexemes of a tsvector's or a tsquery's text form, each with what follows its closing
 * quote: positions and weights (`:1A,6B`) in a tsvector, `:*` for a prefix in a tsquery.
 */
export function* quotedLexemes(text: string): Generator<{ lexeme: string; suffix: string }> {
  for (const match of text.matchAll(/'((?:[^']|'')*)'(:[0-9A-D,*]+)?/g)) yield { lexeme: match[1]!.replace(/''/g, "'"), suffix: match[2] ?? '' };
}

interface LoadedRow {
  item_id: string;
  dataset_id: string;
  source_id: string | null;
  status: string;
  name: string | null;
  brand: string | null;
  slot: string;
  family: string;
  gender: string;
  age_group: string | null;
  color_family: string;
  colors: string[] | null;
  pattern: string;
  material: string[] | null;
  fit: string | null;
  feature_keys: string[] | null;
  price: number;
  currency: string;
  queued_at: Date | string;
  document: string;
  change_seq: string;
  vector: number[] | null;
}

const LOAD_PAGE = 5000;
/** A dataset's graph is rebuilt once it holds more tombstones than this and than live vectors. */
const TOMBSTONES_BEFORE_RELOAD = 1000;
const FOLLOW_PAGE = 2000;
const COLUMNS = sql`d.item_id, d.dataset_id, d.source_id, d.status, d.name, d.brand, d.slot, d.family, d.gender, d.age_group, d.color_family, d.colors, d.pattern, d.material,
  d.fit, d.feature_keys, d.price, d.currency, d.queued_at, d.document::text as document, d.change_seq::text as change_seq, e.vector`;

interface Entry {
  memory: DatasetMemory;
  ready: Promise<void>;
  loaded: boolean;
}

export class SearchMemory {
  readonly lexicon = new Lexicon();
  private readonly datasets = new Map<string, Entry>();
  private cursor: bigint | null = null;
  private following: Promise<void> | null = null;
  private readonly reloading = new Set<string>();
  private closed = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly options: SearchMemoryOptions = {},
  ) {}

  /**
   * The datasets' memories, loaded and caught up with the read model as of `head` (its
   * max(change_seq), read by the caller with its scope): what was projected before the search
   * started is in them.
   */
  async ready(datasetIds: readonly string[], head: bigint | null): Promise<DatasetMemory[]> {
    const entries = datasetIds.map((id) => this.entry(id));
    await Promise.all(entries.map((entry) => entry.ready));
    // A run already under way may have started before `head`: then one more.
    while (head !== null && this.cursor !== null && head > this.cursor) await this.follow(head);
    return entries.map((entry) => entry.memory);
  }

  /** The ids of the lexemes held that match any of `forms`: the lexeme itself, or every lexeme it begins. */
  lexemeIds(forms: ReadonlyArray<{ lexeme: string; prefix: boolean }>): WordLexemes {
    const ids = new Set<number>();
    for (const { lexeme, prefix } of forms) {
      if (prefix) for (const id of this.lexicon.withPrefix(lexeme)) ids.add(id);
      else {
        const id = this.lexicon.find(lexeme);
        if (id !== undefined) ids.add(id);
      }
    }
    return [...ids];
  }

  /** The nearest active items of the given datasets, best first. */
  nearest(memories: readonly DatasetMemory[], vector: ArrayLike<number>, k: number): Array<VectorMatch & { doc: MemoryDoc }> {
    const matches: Array<VectorMatch & { doc: MemoryDoc }> = [];
    const query = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    for (const memory of memories) {
      if (!memory.vectors || memory.vectors.dimensions !== query.length) continue;
      for (const match of memory.vectors.nearest(query, k) as Array<VectorMatch & { doc?: MemoryDoc }>) {
        const doc = memory.docs.get(match.key);
        if (!doc) continue;
        match.doc = doc;
        matches.push(match as VectorMatch & { doc: MemoryDoc });
      }
    }
    // One dataset's matches come sorted already: only a search over several needs the merge.
    if (memories.length > 1) matches.sort((a, b) => b.similarity - a.similarity);
    return matches.length > k ? matches.slice(0, k) : matches;
  }

  stats(): Array<{ datasetId: string; items: number; bytes: number }> {
    return [...this.datasets].map(([datasetId, entry]) => ({ datasetId, items: entry.memory.docs.size, bytes: entry.memory.memoryBytes() }));
  }

  /** Loads every active dataset now, so the first searches do not wait for it. */
  async warm(): Promise<void> {
    const rows = await this.db.selectFrom('datasets').select('dataset_id').where('status', '=', 'active').execute();
    await Promise.all(rows.map((row) => this.entry(String(row.dataset_id)).ready));
  }

  close(): void {
    this.closed = true;
  }

  private entry(datasetId: string): Entry {
    let entry = this.datasets.get(datasetId);
    if (!entry) {
      const created: Entry = { memory: new DatasetMemory(), loaded: false, ready: Promise.resolve() };
      created.ready = this.load(datasetId, created).catch((error) => {
        // Searched again later, it tries again; this search fails.
        this.datasets.delete(datasetId);
        this.options.onError?.(error);
        throw error;
      });
      entry = created;
      this.datasets.set(datasetId, entry);
    }
    return entry;
  }

  private async load(datasetId: string, entry: Entry, first = true): Promise<void> {
    // The cursor is taken before the rows: a change made meanwhile is read twice, never missed.
    if (first && this.cursor === null) this.cursor = await this.head();
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await sql<LoadedRow>`
        select ${COLUMNS} from search_documents d left join item_embeddings e on e.item_id = d.item_id
         where d.dataset_id = ${datasetId} and d.status = 'active' and d.item_id > ${after}
         order by d.item_id limit ${LOAD_PAGE}`.execute(this.db);
      for (const row of rows) this.apply(entry.memory, row);
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.item_id;
    }
    entry.loaded = true;
  }

  private apply(memory: DatasetMemory, row: LoadedRow): void {
    if (row.status !== 'active' || row.slot === null) {
      memory.remove(row.item_id);
      return;
    }
    const { terms, weights } = parseDocument(row.document ?? '', this.lexicon);
    memory.put(
      {
        itemId: row.item_id,
        datasetId: row.dataset_id,
        sourceId: row.source_id,
        slotName: row.slot,
        family: row.family,
        gender: row.gender,
        ageGroup: row.age_group ?? 'adult',
        colorFamily: row.color_family,
        colors: row.colors ?? [],
        pattern: row.pattern,
        materials: row.material ?? [],
        fit: row.fit,
        featureKeys: row.feature_keys ?? [],
        price: Number(row.price),
        currency: row.currency,
        queuedAt: row.queued_at instanceof Date ? row.queued_at.toISOString() : String(row.queued_at),
        names: productNameKeys(row.name, row.brand),
        terms,
        weights,
      },
      row.vector,
    );
  }

  private async head(): Promise<bigint> {
    const { rows } = await sql<{ head: string | null }>`select max(change_seq)::text as head from search_documents`.execute(this.db);
    return BigInt(rows[0]?.head ?? 0);
  }

  /**
   * Applies every change since the cursor to the loaded datasets; concurrent callers share one run.
   * `head`, read before the call, is where the cursor stands after it even when the last changes
   * were to datasets not loaded here.
   */
  follow(head: bigint | null = null): Promise<void> {
    this.following ??= this.catchUp(head)
      .catch((error) => {
        this.options.onError?.(error);
        throw error;
      })
      .finally(() => (this.following = null));
    return this.following;
  }

  private async catchUp(head: bigint | null): Promise<void> {
    if (this.closed || this.cursor === null) return;
    const loaded = [...this.datasets].filter(([, entry]) => entry.loaded).map(([id]) => id);
    if (!loaded.length) {
      if (head !== null && head > this.cursor) this.cursor = head;
      return;
    }
    this.cursor = await this.applyChanges(this.cursor, loaded, (datasetId) => {
      const entry = this.datasets.get(datasetId);
      return entry?.loaded ? entry.memory : null;
    });
    if (head !== null && head > this.cursor) this.cursor = head;
    for (const [datasetId, entry] of this.datasets) {
      const graph = entry.memory.vectors;
      if (entry.loaded && graph && graph.tombstones > Math.max(TOMBSTONES_BEFORE_RELOAD, graph.size)) this.reload(datasetId);
    }
  }

  /** Applies every change of the datasets after `after`, in order, to the memory `into` names; returns the last change read. */
  private async applyChanges(after: bigint, datasetIds: readonly string[], into: (datasetId: string) => DatasetMemory | null): Promise<bigint> {
    let cursor = after;
    for (;;) {
      const { rows } = await sql<LoadedRow>`
        select ${COLUMNS} from search_documents d left join item_embeddings e on e.item_id = d.item_id
         where d.change_seq > ${cursor.toString()}::bigint and d.dataset_id = any(${datasetIds}::uuid[])
         order by d.change_seq limit ${FOLLOW_PAGE}`.execute(this.db);
      for (const row of rows) {
        const memory = into(row.dataset_id);
        if (memory) this.apply(memory, row);
      }
      if (rows.length) cursor = BigInt(rows[rows.length - 1]!.change_seq);
      if (rows.length < FOLLOW_PAGE) return cursor;
    }
  }

  /**
   * A fresh copy of the dataset's memory, loaded beside the one in use and swapped in once it has
   * caught up: how a graph full of tombstones is rebuilt, searches going on meanwhile.
   */
  private reload(datasetId: string): void {
    if (this.reloading.has(datasetId)) return;
    this.reloading.add(datasetId);
    const fresh: Entry = { memory: new DatasetMemory(), loaded: false, ready: Promise.resolve() };
    const from = this.cursor;
    const run = async () => {
      await this.load(datasetId, fresh, false);
      // Changes made while it loaded, applied again (a change read twice is harmless).
      await this.applyChanges(from ?? 0n, [datasetId], () => fresh.memory);
      if (this.datasets.has(datasetId) && !this.closed) this.datasets.set(datasetId, fresh);
    };
    run()
      .catch((error) => this.options.onError?.(error))
      .finally(() => this.reloading.delete(datasetId));
  }
}
