// The variants kept in the object store (`variants/…`), held to a size budget: the least recently
// used go first. Kept in memory: each variant's cost, in order of last use. At start the store is
// listed (and each variant's size read) in the background; until that ends the shelf knows what
// this process made or served, and the rest is added as the oldest. A variant is made room for
// before it is written, so the store never holds more than the budget because of this process.
//
// A variant's cost is its bytes rounded up to a 4 KiB block, plus a block for what the store keeps
// beside it (the file store's type file, a directory entry): many small variants cost what they
// take on a disk, not just their bytes.
//
// Several API processes on one S3 store each keep their own shelf over what they know; the budget
// then holds per process, and a variant one evicts another may make again.
import { VARIANTS_PREFIX } from '../../domain/image/variant-space.js';
import type { ObjectStore } from '../objects/port.js';

const BLOCK = 4096;

/** What a variant of `size` bytes costs the store. */
export const storedCost = (size: number): number => Math.ceil(size / BLOCK) * BLOCK + BLOCK;

export interface VariantShelfOptions {
  objects: ObjectStore;
  /** Bytes (as storedCost counts them) the kept variants may take. */
  budgetBytes: number;
  /** A variant could not be deleted or the store not listed: logged, never thrown at a caller. */
  onError?: (error: unknown, what: string) => void;
}

export interface ShelfStats {
  keptBytes: number;
  kept: number;
  evicted: number;
}

export class VariantShelf {
  readonly budgetBytes: number;
  readonly #objects: ObjectStore;
  readonly #onError: (error: unknown, what: string) => void;
  /** key → cost, least recently used first. */
  #entries = new Map<string, number>();
  #used = 0;
  #reserved = 0;
  #evicted = 0;
  /** Evictions run one after another, so two makers never delete the same variant twice. */
  #evicting: Promise<void> = Promise.resolve();
  #scan: Promise<void> | null = null;
  #closed = false;

  constructor(options: VariantShelfOptions) {
    this.#objects = options.objects;
    this.budgetBytes = Math.max(0, options.budgetBytes);
    this.#onError = options.onError ?? (() => {});
  }

  get stats(): ShelfStats {
    return { keptBytes: this.#used, kept: this.#entries.size, evicted: this.#evicted };
  }

  /** A variant was served from memory: if the store keeps it, it moves to the back of the line. */
  used(key: string): void {
    const cost = this.#entries.get(key);
    if (cost === undefined) return;
    this.#entries.delete(key);
    this.#entries.set(key, cost);
  }

  /** A variant was read from the store: to the back of the line, and learnt if another process made it. */
  found(key: string, size: number): void {
    if (this.#entries.has(key)) return this.used(key);
    this.#add(key, storedCost(size));
    void this.#evictOverBudget();
  }

  /** Whether a variant of `size` bytes may be kept at all (one bigger than the budget is served, not kept). */
  fits(size: number): boolean {
    return storedCost(size) <= this.budgetBytes;
  }

  /**
   * Makes room for a variant of `size` bytes, evicting the least recently used, and holds it until
   * `kept(key)` (the write succeeded) or `dropped()` (it did not).
   */
  async makeRoom(size: number): Promise<{ kept: (key: string) => void; dropped: () => void }> {
    const cost = storedCost(size);
    this.#reserved += cost;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.#reserved -= cost;
      return true;
    };
    await this.#evictOverBudget();
    return {
      kept: (key) => {
        if (settle()) this.#add(key, cost);
      },
      dropped: () => {
        settle();
      },
    };
  }

  /** Lists the store's variants and learns their sizes; the ones not seen yet count as the oldest. Evicts if over budget. */
  scanStore(): Promise<void> {
    this.#scan ??= this.#scanOnce().catch((error: unknown) => {
      if (!this.#closed) this.#onError(error, `listing ${VARIANTS_PREFIX}`);
    });
    return this.#scan;
  }

  /** Stops a scan under way (the store is closing). */
  close(): void {
    this.#closed = true;
  }

  async #scanOnce(): Promise<void> {
    const keys = await this.#objects.list(VARIANTS_PREFIX);
    const found = new Map<string, number>();
    let next = 0;
    const readSizes = async () => {
      while (next < keys.length && !this.#closed) {
        const key = keys[next++]!;
        if (this.#entries.has(key)) continue;
        const info = await this.#objects.head(key).catch(() => null);
        if (info) found.set(key, storedCost(info.size));
      }
    };
    await Promise.all(Array.from({ length: 8 }, readSizes));
    if (this.#closed) return;
    // What was listed goes in front of what was made or served meanwhile.
    const merged = new Map<string, number>();
    for (const [key, cost] of found) if (!this.#entries.has(key)) merged.set(key, cost);
    for (const [key, cost] of this.#entries) merged.set(key, cost);
    this.#entries = merged;
    this.#used = 0;
    for (const cost of merged.values()) this.#used += cost;
    await this.#evictOverBudget();
  }

  #add(key: string, cost: number): void {
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#used -= old;
      this.#entries.delete(key);
    }
    this.#entries.set(key, cost);
    this.#used += cost;
  }

  #evictOverBudget(): Promise<void> {
    const run = this.#evicting.then(async () => {
      while (this.#used + this.#reserved > this.budgetBytes && this.#entries.size > 0 && !this.#closed) {
        const [oldest, cost] = this.#entries.entries().next().value!;
        this.#entries.delete(oldest);
        this.#used -= cost;
        try {
          await this.#objects.delete(oldest);
          this.#evicted++;
        } catch (error) {
          // Still on the store: counted again, first in line for the next round.
          this.#entries = new Map([[oldest, cost], ...this.#entries]);
          this.#used += cost;
          this.#onError(error, `deleting ${oldest}`);
          return;
        }
      }
    });
    this.#evicting = run;
    return run;
  }
}
