// Decouples reading `$all` from applying it: a pump pulls from the subscription into a bounded
// buffer while the runner applies the previous batch, and `take` hands over everything already
// read (up to a limit), so batches grow under load and stay single events when idle.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import type { Position } from '../infra/eventstore/position.js';

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
      await nextTurn();
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
