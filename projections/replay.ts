// Reads `$all` from the start in pages for a rebuild, fetching the next page while the current
// one is applied (a second connection on Postgres), and reports progress every few seconds.
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import type { Position } from '../infra/eventstore/position.js';

export interface ReplayOptions {
  store: EventStore;
  pageSize: number;
  /** Applies one page; false when nothing is left to feed (every target stopped). */
  applyPage(page: readonly RecordedEvent[]): Promise<boolean>;
  /** Asked at the end of `$all`: true ends the replay, false reads on (the live loop is ahead). */
  caughtUp(): boolean;
  onProgress(events: number, eventsPerSecond: number): void;
}

/** Returns how many events it read. */
export async function replayAll(options: ReplayOptions): Promise<number> {
  const { store, pageSize } = options;
  const read = (after: Position | null): Promise<RecordedEvent[]> => {
    const reading = store.readAll({ ...(after ? { after } : {}), maxCount: pageSize });
    // Left unawaited when the replay ends early: its failure must not become an unhandled rejection.
    reading.catch(() => {});
    return reading;
  };
  const started = Date.now();
  let lastReport = started;
  let after: Position | null = null;
  let count = 0;
  let next = read(after);
  for (;;) {
    const page = await next;
    if (!page.length) {
      if (options.caughtUp()) return count;
      await sleep(10);
      next = read(after);
      continue;
    }
    after = page.at(-1)!.position;
    next = read(after);
    const more = await options.applyPage(page);
    count += page.length;
    if (!more) return count;
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      options.onProgress(count, Math.round(count / ((lastReport - started) / 1000)));
    }
  }
}
