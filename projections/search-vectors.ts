// The vector side of search: one HNSW index per dataset, in this process, loaded from the read
// model the first time the dataset is searched and kept current by following `search_documents`
// by `change_seq` (every process follows the same table, so a second API process sees what the
// first projected). Vectors come from item_embeddings (written by the ingest worker before it
// records ItemProcessed, so a row's vector is there when the row changes).
// Only active items are in an index; the query still checks each match against the read model,
// so an index a moment behind can never show an archived or deleted item.
import { sql, type Kysely } from 'kysely';
import { createHnswIndex, type VectorIndex, type VectorMatch } from '../infra/vectors/hnsw.js';

export interface SearchVectorsOptions {
  /** How often loaded indexes catch up with the read model. */
  followEveryMs?: number;
  /** How long a search waits for a dataset's index to load before going on without it. */
  loadWaitMs?: number;
  onError?: (error: unknown) => void;
}

interface DatasetIndex {
  index: VectorIndex | null;
  ready: Promise<void>;
  loaded: boolean;
}

const LOAD_PAGE = 5000;
const FOLLOW_PAGE = 2000;

export class SearchVectors {
  private readonly datasets = new Map<string, DatasetIndex>();
  private cursor: bigint | null = null;
  private timer: NodeJS.Timeout | null = null;
  private following: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly options: SearchVectorsOptions = {},
  ) {}

  /** The nearest active items of the given datasets, best first, at most k per dataset before merging. */
  async nearest(datasetIds: readonly string[], vector: ArrayLike<number>, k: number): Promise<Array<VectorMatch & { datasetId: string }>> {
    const waitMs = this.options.loadWaitMs ?? 2000;
    const loading = datasetIds.map((id) => this.dataset(id));
    await Promise.race([Promise.all(loading.map((d) => d.ready)), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    const matches: Array<VectorMatch & { datasetId: string }> = [];
    datasetIds.forEach((datasetId, i) => {
      const { index, loaded } = loading[i]!;
      if (!loaded || !index || index.dimensions !== vector.length) return;
      for (const match of index.nearest(vector, k)) matches.push({ ...match, datasetId });
    });
    return matches.sort((a, b) => b.similarity - a.similarity).slice(0, k);
  }

  /** Items and approximate bytes held, per loaded dataset (for logs and the benchmark). */
  stats(): Array<{ datasetId: string; items: number; bytes: number }> {
    return [...this.datasets].filter(([, d]) => d.index).map(([datasetId, d]) => ({ datasetId, items: d.index!.size, bytes: d.index!.memoryBytes() }));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private dataset(datasetId: string): DatasetIndex {
    let entry = this.datasets.get(datasetId);
    if (!entry) {
      const created: DatasetIndex = { index: null, loaded: false, ready: Promise.resolve() };
      created.ready = this.load(datasetId, created).catch((error) => {
        // Searched again later, it tries again.
        this.datasets.delete(datasetId);
        this.options.onError?.(error);
      });
      entry = created;
      this.datasets.set(datasetId, entry);
    }
    return entry;
  }

  private async load(datasetId: string, entry: DatasetIndex): Promise<void> {
    // The cursor is taken before the rows: a change made meanwhile is read twice, never missed.
    if (this.cursor === null) this.cursor = await this.head();
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await sql<{ item_id: string; vector: number[] }>`
        select d.item_id, e.vector from search_documents d join item_embeddings e on e.item_id = d.item_id
         where d.dataset_id = ${datasetId} and d.status = 'active' and d.item_id > ${after}
         order by d.item_id limit ${LOAD_PAGE}`.execute(this.db);
      for (const row of rows) this.put(entry, row.item_id, row.vector);
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.item_id;
    }
    entry.loaded = true;
    this.startFollowing();
  }

  private put(entry: DatasetIndex, itemId: string, vector: number[] | null): void {
    if (!vector?.length) return;
    // A new embedding model changes the dimensions: the index starts over with the new ones.
    if (!entry.index || entry.index.dimensions !== vector.length) entry.index = createHnswIndex({ dimensions: vector.length });
    entry.index.upsert(itemId, vector);
  }

  private async head(): Promise<bigint> {
    const { rows } = await sql<{ head: string | null }>`select max(change_seq)::text as head from search_documents`.execute(this.db);
    return BigInt(rows[0]?.head ?? 0);
  }

  private startFollowing(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      if (this.following) return;
      this.following = this.follow()
        .catch((error) => this.options.onError?.(error))
        .finally(() => (this.following = null));
    }, this.options.followEveryMs ?? 250);
    this.timer.unref();
  }

  /** Applies every change since the cursor to the loaded indexes. */
  async follow(): Promise<void> {
    const loaded = [...this.datasets].filter(([, d]) => d.loaded).map(([id]) => id);
    if (!loaded.length || this.cursor === null) return;
    for (;;) {
      const { rows } = await sql<{ item_id: string; dataset_id: string; status: string; change_seq: string; vector: number[] | null }>`
        select d.item_id, d.dataset_id, d.status, d.change_seq::text as change_seq, e.vector
          from search_documents d left join item_embeddings e on e.item_id = d.item_id
         where d.change_seq > ${this.cursor.toString()}::bigint and d.dataset_id = any(${loaded}::uuid[])
         order by d.change_seq limit ${FOLLOW_PAGE}`.execute(this.db);
      for (const row of rows) {
        const entry = this.datasets.get(row.dataset_id);
        if (!entry?.loaded) continue;
        if (row.status === 'active') this.put(entry, row.item_id, row.vector);
        else entry.index?.remove(row.item_id);
      }
      if (rows.length) this.cursor = BigInt(rows[rows.length - 1]!.change_seq);
      if (rows.length < FOLLOW_PAGE) break;
    }
  }
}
