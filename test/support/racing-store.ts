// An event store that lets another writer in at the worst moment: just before a chosen append,
// after the caller has read the stream and decided. The append then meets the revision the other
// writer left, as it would under real concurrency, but every time and in a known order.
import type { EventStore } from '../../infra/eventstore/port.js';
import { delegatingStore } from './delegating-store.js';

/** `race` runs once per stream, before the first append to it that `when` picks. */
export function racingStore(store: EventStore, race: (streamId: string) => Promise<unknown>, when: (streamId: string) => boolean = () => true): EventStore & { races: number } {
  const raced = new Set<string>();
  const wrapper = Object.assign(
    delegatingStore(store, {
      async append(...args) {
        const [streamId] = args;
        if (when(streamId) && !raced.has(streamId)) {
          raced.add(streamId);
          wrapper.races++;
          await race(streamId);
        }
        return store.append(...args);
      },
    }),
    { races: 0 },
  );
  return wrapper;
}
