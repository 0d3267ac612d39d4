// An event store that lets another writer in at the worst moment: just before a chosen append,
// after the caller has read the stream and decided. The append then meets the revision the other
// writer left, as it would under real concurrency, but every time and in a known order.
import type { EventStore } from '../../infra/eventstore/port.js';

/** `race` runs once per stream, before the first append to it that `when` picks. */
export function racingStore(store: EventStore, race: (streamId: string) => Promise<unknown>, when: (streamId: string) => boolean = () => true): EventStore & { races: number } {
  const raced = new Set<string>();
  const wrapper = {
    kind: store.kind,
    races: 0,
    async append(...args: Parameters<EventStore['append']>) {
      const [streamId] = args;
      if (when(streamId) && !raced.has(streamId)) {
        raced.add(streamId);
        wrapper.races++;
        await race(streamId);
      }
      return store.append(...args);
    },
    readStream: (...args: Parameters<EventStore['readStream']>) => store.readStream(...args),
    ...(store.readStreams ? { readStreams: (ids: readonly string[]) => store.readStreams!(ids) } : {}),
    readAll: (...args: Parameters<EventStore['readAll']>) => store.readAll(...args),
    subscribeToAll: (...args: Parameters<EventStore['subscribeToAll']>) => store.subscribeToAll(...args),
    headPosition: () => store.headPosition(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  return wrapper;
}
