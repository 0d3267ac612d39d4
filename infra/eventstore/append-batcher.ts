// Group commit for appends. One commit (and its WAL flush) per append caps a 2-core machine far
// below the target rate, so appends waiting while a batch is in flight go together in the next
// one. Each append keeps its own expected-revision check and outcome, and appends to one stream
// keep their call order inside a batch. A stream in flight waits for its batch to finish, so
// two batches from this process never race on a stream.

export interface AppendRequest {
  streamId: string;
  /** The append as one JSON object, serialised once by the caller. */
  json: string;
}

export type RunBatch<T> = (requests: readonly AppendRequest[]) => Promise<T[]>;

export interface AppendBatcherOptions {
  /** Batches in flight at once. */
  concurrency: number;
  maxItems: number;
  /** A batch stops growing past this many bytes of JSON (a bigger append still goes, alone). */
  maxBytes: number;
  /** Errors worth running the same batch again for (a racing writer committed first). */
  isRetryable: (error: unknown) => boolean;
  maxAttempts: number;
  /** After every committed batch. */
  onCommitted?: () => void;
}

interface Pending<T> {
  request: AppendRequest;
  resolve: (outcome: T) => void;
  reject: (error: unknown) => void;
}

export class AppendBatcher<T> {
  readonly #queue: Pending<T>[] = [];
  readonly #busyStreams = new Set<string>();
  #inFlight = 0;
  #closed: Promise<void> | undefined;
  #idle: (() => void) | undefined;

  private readonly run: RunBatch<T>;
  private readonly options: AppendBatcherOptions;
  constructor(
    run: RunBatch<T>,
    options: AppendBatcherOptions,
  ) {
    this.run = run;
    this.options = options;
  }

  submit(request: AppendRequest): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The event store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#pump();
    });
  }

  /** Stops taking appends and waits for those already taken. */
  close(): Promise<void> {
    this.#closed ??=
      this.#inFlight === 0 && this.#queue.length === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => (this.#idle = resolve));
    return this.#closed;
  }

  #pump(): void {
    while (this.#inFlight < this.options.concurrency) {
      const batch = this.#take();
      if (!batch.length) break;
      this.#inFlight++;
      for (const p of batch) this.#busyStreams.add(p.request.streamId);
      void this.#execute(batch).finally(() => {
        for (const p of batch) this.#busyStreams.delete(p.request.streamId);
        this.#inFlight--;
        this.#pump();
        if (this.#inFlight === 0 && this.#queue.length === 0) this.#idle?.();
      });
    }
  }

  #take(): Pending<T>[] {
    const batch: Pending<T>[] = [];
    const leftBehind = new Set<string>();
    let bytes = 0;
    for (let i = 0; i < this.#queue.length && batch.length < this.options.maxItems; ) {
      const pending = this.#queue[i]!;
      const { streamId, json } = pending.request;
      // Once an append stays queued, later ones to its stream stay too, keeping their order.
      const blocked = this.#busyStreams.has(streamId) || leftBehind.has(streamId);
      if (blocked || (batch.length > 0 && bytes + json.length > this.options.maxBytes)) {
        leftBehind.add(streamId);
        i++;
        continue;
      }
      bytes += json.length;
      batch.push(pending);
      this.#queue.splice(i, 1);
    }
    return batch;
  }

  async #execute(batch: Pending<T>[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await this.run(batch.map((p) => p.request));
        this.options.onCommitted?.();
        batch.forEach((p, i) => p.resolve(outcomes[i]!));
        return;
      } catch (error) {
        if (this.options.isRetryable(error) && attempt < this.options.maxAttempts) continue;
        if (batch.length === 1) return batch[0]!.reject(error);
        // One bad append (say, a payload the database refuses) must not fail its neighbours.
        // One at a time, in order: appends to one stream must not overtake each other.
        for (const p of batch) await this.#execute([p]);
        return;
      }
    }
  }
}
