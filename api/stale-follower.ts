// How an API process's caches of read-model rows (keys, accounts, presets, stores) learn that
// another process changed them: follow the event store from its head, and for each event forget
// what it made stale once when it arrives and again once the read models have applied it, so a
// lookup in between cannot put the old row back. A cache's TTL still bounds staleness if the
// subscription ends.
import type { EventStore, Position, RecordedEvent } from '../infra/eventstore/port.js';

/** What to forget for an event, or null when it changes nothing the cache holds. */
export type StaleBy = (event: RecordedEvent) => (() => void) | null;

/** Starts following; abort the controller it returns to stop. */
export async function followStaleness(store: EventStore, waitForReadModels: (position: Position) => Promise<void>, staleBy: StaleBy): Promise<AbortController> {
  const controller = new AbortController();
  const after = (await store.headPosition()) ?? undefined;
  void (async () => {
    for await (const event of store.subscribeToAll({ after, signal: controller.signal })) {
      const forget = staleBy(event);
      if (!forget) continue;
      forget();
      void waitForReadModels(event.position).then(forget, forget);
    }
  })().catch(() => {
    // The subscription ends with the store; the TTL still bounds staleness.
  });
  return controller;
}
