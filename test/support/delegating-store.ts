// An event store that passes every call of the port to another, but for the ones a test replaces:
// the base of the test's misbehaving, racing or database-closing stores.
import type { EventStore } from '../../infra/eventstore/port.js';

export function delegatingStore(store: EventStore, overrides: Partial<EventStore> = {}): EventStore {
  return {
    kind: store.kind,
    append: (...args) => store.append(...args),
    readStream: (...args) => store.readStream(...args),
    ...(store.readStreams ? { readStreams: (ids: readonly string[]) => store.readStreams!(ids) } : {}),
    readAll: (...args) => store.readAll(...args),
    subscribeToAll: (...args) => store.subscribeToAll(...args),
    headPosition: () => store.headPosition(),
    committedHead: () => store.committedHead(),
    ping: () => store.ping(),
    close: () => store.close(),
    ...overrides,
  };
}
