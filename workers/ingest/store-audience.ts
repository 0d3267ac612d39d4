// The dataset's audience as the ingest worker labels its items (domain/catalogue/store-audience.ts,
// read model projections/store-audience.ts). Before reading it, the worker waits (bounded) for the
// store_audience projection to reach the event store's head: an upload or a sync appends a whole
// batch of ItemQueued events before any of them is announced to this worker, so the first item
// labelled already sees its whole batch (a sync queues 200 products a round). The answer is kept a
// few seconds per dataset, one read shared by the items labelled meanwhile; a projection that does
// not catch up in time (no projections role running) costs the wait once, then the rows it has.
import type { Kysely } from 'kysely';
import type { StoreAudience } from '../../domain/catalogue/store-audience.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import { comparePositions } from '../../infra/eventstore/position.js';
import { readCheckpoints } from '../../projections/checkpoints.js';
import { datasetAudience, STORE_AUDIENCE } from '../../projections/store-audience.js';

export type AudienceReader = (datasetId: string) => Promise<StoreAudience | null>;

export interface AudienceOptions {
  ttlMs?: number;
  waitMs?: number;
}

export function storeAudienceReader(eventStore: EventStore, db: Kysely<any>, { ttlMs = 3_000, waitMs = 30_000 }: AudienceOptions = {}): AudienceReader {
  const cache = new Map<string, { at: number; value: Promise<StoreAudience | null> }>();
  let laggingUntil = 0;
  const read = async (datasetId: string): Promise<StoreAudience | null> => {
    if (performance.now() >= laggingUntil && !(await caughtUp(eventStore, db, waitMs))) laggingUntil = performance.now() + LAGGING_RETRY_MS;
    return datasetAudience(db, datasetId);
  };
  return (datasetId) => {
    const hit = cache.get(datasetId);
    if (hit && performance.now() - hit.at < ttlMs) return hit.value;
    // A failed read labels from the listing alone rather than failing the item.
    const value = read(datasetId).catch(() => null);
    if (cache.size > 1000) cache.clear();
    cache.set(datasetId, { at: performance.now(), value });
    return value;
  };
}

/** After a wait in vain, labels go on from the rows there are for this long before waiting again. */
const LAGGING_RETRY_MS = 60_000;

/** True once the store_audience projection has applied every event committed before the call; false after `waitMs`. */
async function caughtUp(eventStore: EventStore, db: Kysely<any>, waitMs: number): Promise<boolean> {
  const head = await eventStore.committedHead();
  if (!head) return true;
  const deadline = Date.now() + waitMs;
  let pause = 10;
  for (;;) {
    const checkpoint = (await readCheckpoints(db, [STORE_AUDIENCE])).get(STORE_AUDIENCE)?.position;
    if (checkpoint && comparePositions(checkpoint, head) >= 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
}
