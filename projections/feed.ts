// Decouples reading `$all` from applying it: a pump pulls from the subscription into a bounded
// buffer while the runner applies the previous batch, and `take` hands over everything already
// read (up to a limit), so batches grow under load and stay single events when idle.
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import type { Position } from '../infra/eventstore/position.js';

/** Microtasks without a new event before a batch is cut (an event passes two async generators in a few). */
const QUIET_HOPS = 8;
const MAX_HOPS = 100_000;

export class EventFeed {
  readonly #controller = new AbortController();
  readonly #highWater: number;
  #buffer: RecordedEvent[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #dataReady: (() => void) | undefined;
  #spaceReady: (() => void) | undefined;
  readonly #pumping: Promise<void>;

  /** `stop` ends the feed like `close` does, for a caller that may stop before it holds the feed. */
  constructor(store: EventStore, after: Position | null, highWater: number, stop?: AbortSignal) {
    this.#highWater = highWater;
    const onStop = (): void => this.#abort();
    if (stop?.aborted) this.#abort();
    stop?.addEventListener('abort', onStop, { once: true });
    this.#pumping = this.#pump(store, after).finally(() => stop?.removeEventListener('abort', onStop));
  }

  /** The next events in order, at most `max`; null once the feed has ended. Throws what the subscription threw. */
  async take(max: number): Promise<RecordedEvent[] | null> {
    if (!this.#buffer.length && !this.#ended) {
      await new Promise<void>((resolve) => (this.#dataReady = resolve));
      // The subscription usually yields a whole page in a row: let it land before cutting a batch.
      await this.#settle();
    }
    if (!this.#buffer.length) {
      if (this.#failure) throw this.#failure.error;
      return null;
    }
    const batch = this.#buffer.length <= max ? this.#buffer : this.#buffer.slice(0, max);
    this.#buffer = batch === this.#buffer ? [] : this.#buffer.slice(max);
    this.#wake('space');
    return batch;
  }

  /**
   * Waits while the buffer still grows from one microtask to the next (a page being yielded event
   * by event), not for a turn of the event loop: under load a turn (setImmediate) took 500–700 ms,
   * and every event, a catalogue write's included, waited that long before its batch began.
   */
  async #settle(): Promise<void> {
    let quiet = 0;
    for (let hops = 0; quiet < QUIET_HOPS && hops < MAX_HOPS && this.#buffer.length < this.#highWater; hops++) {
      const before = this.#buffer.length;
      await Promise.resolve();
      quiet = this.#buffer.length === before ? quiet + 1 : 0;
    }
  }

  async close(): Promise<void> {
    this.#abort();
    await this.#pumping;
  }

  #abort(): void {
    this.#controller.abort();
    this.#wake('space');
  }

  async #pump(store: EventStore, after: Position | null): Promise<void> {
    const signal = this.#controller.signal;
    try {
      for await (const event of store.subscribeToAll({ ...(after ? { after } : {}), signal })) {
        this.#buffer.push(event);
        this.#wake('data');
        while (this.#buffer.length >= this.#highWater && !signal.aborted) {
          await new Promise<void>((resolve) => (this.#spaceReady = resolve));
        }
        if (signal.aborted) break;
      }
    } catch (error) {
      if (!signal.aborted) this.#failure = { error };
    } finally {
      this.#ended = true;
      this.#wake('data');
    }
  }

  #wake(which: 'data' | 'space'): void {
    const resolve = which === 'data' ? this.#dataReady : this.#spaceReady;
    if (which === 'data') this.#dataReady = undefined;
    else this.#spaceReady = undefined;
    resolve?.();
  }
}
