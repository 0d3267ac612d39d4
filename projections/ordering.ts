// Small helpers for applying batches: the order `$all` must arrive in, and bounded parallelism.
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';

/** Everything here relies on `$all` arriving in strictly ascending positions: refuse anything else. */
export function assertAscending(batch: readonly RecordedEvent[], previous: Position | null | undefined): void {
  let before = previous ?? null;
  for (const event of batch) {
    if (before && comparePositions(event.position, before) <= 0) {
      throw new Error(`the event store delivered ${positionToString(event.position)} after ${positionToString(before)}: out of order`);
    }
    before = event.position;
  }
}

export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  const workers = Array.from({ length: Math.min(limit, items.length) }, worker);
  const outcomes = await Promise.allSettled(workers);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}
