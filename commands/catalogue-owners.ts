// Whose catalogue an item or dataset named by a shopper event is, from the event store (the write
// side), as every command that checks ownership does: the first event of `item-<id>` or
// `dataset-<id>` names its organization (and an item's dataset). Owners never change (an itemId
// is a uuid v5 of its datasetId and sku; a dataset stays with the organization that made it), so
// an owner once found is kept for good; an id not found is remembered briefly (it may be uploaded
// any time), so a client repeating one costs one read per few seconds, not one per request.
import { datasetStream } from '../domain/dataset/events.js';
import { itemStream } from '../domain/item/events.js';
import type { EventStore } from '../infra/eventstore/port.js';

export interface ItemOwner {
  organizationId: string;
  datasetId: string;
}

export interface CatalogueOwnersOptions {
  /** Owners kept in memory (default 50,000), items and datasets together; the least recently used go first. */
  maxEntries?: number;
  /** How long an id not found is answered as not found without a read (default 5 s). */
  missTtlMs?: number;
  now?: () => number;
}

// Every item and dataset id is a uuid; anything else names nothing, without a read.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CONCURRENT_READS = 16;

export class CatalogueOwners {
  readonly #store: EventStore;
  readonly #max: number;
  readonly #missTtl: number;
  readonly #now: () => number;
  /** `item:<id>` or `dataset:<id>` → owner; most recently used last. */
  readonly #found = new Map<string, ItemOwner | string>();
  readonly #missed = new Map<string, number>();

  constructor(store: EventStore, options: CatalogueOwnersOptions = {}) {
    this.#store = store;
    this.#max = options.maxEntries ?? 50_000;
    this.#missTtl = options.missTtlMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  /** The owners of those of `itemIds` and `datasetIds` that exist. */
  async find(itemIds: Iterable<string>, datasetIds: Iterable<string>): Promise<{ items: Map<string, ItemOwner>; datasets: Map<string, string> }> {
    const items = new Map<string, ItemOwner>();
    const datasets = new Map<string, string>();
    const toRead: Array<{ key: string; stream: string; keep: (data: Record<string, unknown>) => ItemOwner | string | null }> = [];
    const now = this.#now();
    const consider = (kind: 'item' | 'dataset', id: string, stream: string) => {
      if (!UUID.test(id)) return;
      const key = `${kind}:${id}`;
      const known = this.#found.get(key);
      if (known !== undefined) {
        this.#found.delete(key);
        this.#found.set(key, known);
        if (typeof known === 'string') datasets.set(id, known);
        else items.set(id, known);
        return;
      }
      if ((this.#missed.get(key) ?? 0) > now) return;
      toRead.push({
        key,
        stream,
        keep: (data) => {
          const organizationId = data.organizationId;
          if (typeof organizationId !== 'string') return null;
          if (kind === 'dataset') return organizationId;
          return typeof data.datasetId === 'string' ? { organizationId, datasetId: data.datasetId } : null;
        },
      });
    };
    for (const id of new Set(itemIds)) consider('item', id, itemStream(id));
    for (const id of new Set(datasetIds)) consider('dataset', id, datasetStream(id));
    for (let start = 0; start < toRead.length; start += CONCURRENT_READS) {
      const chunk = toRead.slice(start, start + CONCURRENT_READS);
      const firsts = await Promise.all(chunk.map(({ stream }) => this.#store.readStream(stream, { maxCount: 1 })));
      chunk.forEach(({ key, keep }, i) => {
        const first = firsts[i]![0];
        const owner = first ? keep(first.data) : null;
        const id = key.slice(key.indexOf(':') + 1);
        if (owner === null) {
          if (this.#missed.size >= this.#max) this.#missed.delete(this.#missed.keys().next().value!);
          this.#missed.set(key, now + this.#missTtl);
          return;
        }
        this.#missed.delete(key);
        if (this.#found.size >= this.#max) this.#found.delete(this.#found.keys().next().value!);
        this.#found.set(key, owner);
        if (typeof owner === 'string') datasets.set(id, owner);
        else items.set(id, owner);
      });
    }
    return { items, datasets };
  }
}
