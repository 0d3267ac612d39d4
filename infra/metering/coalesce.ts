// Group commit for counters: requests that count against the same row while a statement for it is
// in flight wait and go together in the next one, as `+n`. Under load one statement serves dozens
// of requests (one row lock, one commit). The first of a batch waits one turn of the event loop
// (setImmediate, after pending socket reads) so requests that already arrived join it: on PGlite a
// statement runs on this thread and finishes before any other request is read, so without that
// turn every batch would hold one request. Alone, a request waits microseconds.
// Exactness stays with the database: each statement grants units from the row it has locked.

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class Coalescer<T, R> {
  /** Keys with a flush scheduled or a statement in flight. */
  readonly #busy = new Set<string>();
  readonly #waiting = new Map<string, Array<Waiting<T, R>>>();

  private readonly run: (key: string, items: T[]) => Promise<R[]>;
  /** `run` gets every item of one batch, in arrival order, and returns one result per item. */
  constructor(run: (key: string, items: T[]) => Promise<R[]>) {
    this.run = run;
  }

  submit(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.#waiting.get(key);
      if (queue) queue.push({ item, resolve, reject });
      else this.#waiting.set(key, [{ item, resolve, reject }]);
      if (!this.#busy.has(key)) {
        this.#busy.add(key);
        setImmediate(() => void this.#flush(key));
      }
    });
  }

  async #flush(key: string): Promise<void> {
    const batch = this.#waiting.get(key);
    if (!batch?.length) {
      this.#busy.delete(key);
      return;
    }
    this.#waiting.delete(key);
    this.#busy.add(key);
    try {
      const results = await this.run(
        key,
        batch.map((w) => w.item),
      );
      batch.forEach((waiting, i) => waiting.resolve(results[i]!));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.#busy.delete(key);
      if (this.#waiting.has(key)) {
        this.#busy.add(key);
        setImmediate(() => void this.#flush(key));
      }
    }
  }
}
