// Read model of each queued listing's gender evidence (domain/catalogue/store-audience.ts), one
// row per item, so the ingest worker can tell who a store sells to before it labels an item whose
// words name no gender. Owns store_audience and touches nothing else.
//
// Why a projection of ItemQueued: an upload or a sync queues the whole catalogue as events before
// any item is labelled, and items are labelled one by one, in parallel and in several processes. A
// row per item written from the event (not from the labelled result) sees every listing of the
// feed, whichever item is labelled first; rebuilding it is a replay. The row holds the offline
// labeller's reading of the listing (the same reading the labeller uses), so a change of that
// reading takes a rebuild (`stylist projections rebuild store_audience`).
import { sql, type Kysely } from 'kysely';
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { ItemQueued } from '../domain/item/events.js';
import { audienceFromCounts, type StoreAudience } from '../domain/catalogue/store-audience.js';
import type { Gender } from '../domain/catalogue/vocabulary.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { listingAudienceSignal } from '../infra/models/offline-labeller.js';
import { projector, type TypedHandlers } from './projector.js';

type Handled = ItemQueued | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;

export const STORE_AUDIENCE = 'store_audience';

const rowOf = (event: RecordedEvent<ItemQueued>) => {
  const { itemId, datasetId, listing } = event.data;
  const signal = listingAudienceSignal(listing);
  return { item_id: itemId, dataset_id: datasetId, cue: signal.cue, implied: signal.implied, vendor: signal.vendor, product_type: signal.productType, sizes: signal.sizes, fashion: signal.fashion };
};

/** One statement for a run of queued items; an item queued again takes its newest listing's reading. */
const upsert = async (db: Kysely<any>, events: ReadonlyArray<RecordedEvent<ItemQueued>>): Promise<void> => {
  if (!events.length) return;
  const rows = new Map(events.map((event) => [event.data.itemId, rowOf(event)]));
  await db
    .insertInto(STORE_AUDIENCE)
    .values([...rows.values()])
    .onConflict((c) =>
      c.column('item_id').doUpdateSet((eb) => ({
        cue: eb.ref('excluded.cue'),
        implied: eb.ref('excluded.implied'),
        vendor: eb.ref('excluded.vendor'),
        product_type: eb.ref('excluded.product_type'),
        sizes: eb.ref('excluded.sizes'),
        fashion: eb.ref('excluded.fashion'),
      })),
    )
    .execute();
};

const handlers: TypedHandlers<Handled> = {
  ItemQueued: (db, event) => upsert(db, [event]),
  DatasetDeleted: (db, event) => db.deleteFrom(STORE_AUDIENCE).where('dataset_id', '=', event.data.datasetId).execute(),
};

export const storeAudience = projector<Handled>({
  name: STORE_AUDIENCE,
  tables: [STORE_AUDIENCE],
  handlers,
  applyBatch: async (db, events) => {
    let run: Array<RecordedEvent<ItemQueued>> = [];
    for (const event of events) {
      if (event.type === 'ItemQueued') {
        run.push(event);
        continue;
      }
      await upsert(db, run);
      run = [];
      await handlers.DatasetDeleted!(db, event);
    }
    await upsert(db, run);
  },
});

/** Who the dataset's catalogue sells to, counted in the database (one dataset may hold 100,000 items). */
export async function datasetAudience(db: Kysely<any>, datasetId: string): Promise<StoreAudience> {
  const marks = await sql<{ mark: Gender | null; fashion: boolean; n: number | string }>`
    select coalesce(cue, implied, sizes) as mark, fashion, count(*) as n
      from store_audience where dataset_id = ${datasetId}
     group by 1, 2`.execute(db);
  const values = await sql<{ field: 'vendor' | 'productType'; value: string }>`
    select distinct 'vendor' as field, vendor as value from store_audience where dataset_id = ${datasetId} and vendor <> ''
    union all
    select distinct 'productType' as field, product_type as value from store_audience where dataset_id = ${datasetId} and product_type <> ''`.execute(db);
  const marked: Record<Gender, number> = { mens: 0, womens: 0, unisex: 0 };
  let listings = 0;
  let fashion = 0;
  for (const row of marks.rows) {
    const n = Number(row.n);
    listings += n;
    if (!row.fashion) continue;
    fashion += n;
    if (row.mark) marked[row.mark] += n;
  }
  return audienceFromCounts({
    listings,
    fashion,
    marked,
    vendors: values.rows.filter((r) => r.field === 'vendor').map((r) => r.value),
    productTypes: values.rows.filter((r) => r.field === 'productType').map((r) => r.value),
  });
}
