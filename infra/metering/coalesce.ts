// Group commit for counters: requests that count against the same row while a statement for it is
// in flight wait and go together in the next one, as `+n`. Under load one statement serves dozens
// of requests (one row lock, one commit); alone, a request goes at once and waits for nobody.
// Exactness stays with the database: each statement grants units from the row it has locked.

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class Coalescer<T, R> {
  readonly #running = new Set<string>();
  readonly #waiting = new Map<string, Array<Waiting<T, R>>>();

  /** `run` gets every item of one batch, in arrival order, and returns one result per item. */
  constructor(private readonly run: (key: string, items: T[]) => Promise<R[]>) {}

  submit(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.#waiting.get(key);
      if (queue) queue.push({ item, resolve, reject });
      else this.#waiting.set(key, [{ item, resolve, reject }]);
      if (!this.#running.has(key)) void this.#flush(key);
    });
  }

  async #flush(key: string): Promise<void> {
    const batch = this.#waiting.get(key);
    if (!batch?.length) return;
    this.#waiting.delete(key);
    this.#running.add(key);
    try {
      const results = await this.run(
        key,
        batch.map((w) => w.item),
      );
      batch.forEach((waiting, i) => waiting.resolve(results[i]!));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.#running.delete(key);
      if (this.#waiting.has(key)) void this.#flush(key);
    }
  }
}
