// How an API process's caches of read-model rows (keys, accounts, presets, stores) learn that
// another process changed them: follow the event store from its head, and for each event forget
// what it made stale once when it arrives and again once the read models have applied it, so a
// lookup in between cannot put the old row back. A cache's TTL still bounds staleness if the
// subscription ends.
import type { EventStore, Position, RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString } from '../infra/eventstore/position.js';

/** What to forget for an event, or null when it changes nothing the cache holds. */
export type StaleBy = (event: RecordedEvent) => (() => void) | null;

/** Where a follower reports what goes wrong (a pino logger will do), and which cache it serves. */
export interface FollowerErrors {
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  cache: string;
}

/** Starts following; abort the controller it returns to stop. */
export async function followStaleness(
  store: EventStore,
  waitForReadModels: (position: Position) => Promise<void>,
  errors: FollowerErrors,
  staleBy: StaleBy,
): Promise<AbortController> {
  const controller = new AbortController();
  const after = (await store.headPosition()) ?? undefined;
  const { log, cache } = errors;
  void (async () => {
    for await (const event of store.subscribeToAll({ after, signal: controller.signal })) {
      const forget = staleBy(event);
      if (!forget) continue;
      forget();
      void waitForReadModels(event.position).then(forget, (error: unknown) => {
        // Forgotten all the same: a read before the read models catch up may keep the old rows, until the TTL.
        forget();
        log.warn({ err: error, cache, eventType: event.type, position: positionToString(event.position) }, 'a cache waited in vain for the read models to apply a change');
      });
    }
  })().catch((error: unknown) => {
    // A store that closes ends the subscription quietly; anything else leaves the cache to its TTL.
    if (!controller.signal.aborted) log.error({ err: error, cache }, 'a cache stopped following the event store; its entries now last until their TTL');
  });
  return controller;
}
