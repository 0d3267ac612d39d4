// Read model of catalogue items and their ingest queue rows (they share the item's id), and the
// cascade of a dataset's deletion. Whether an item is live also depends on its dataset's status,
// which queries join in (an archived dataset switches its items off without touching them).
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { ItemEvent } from '../domain/item/events.js';
import { datasetItemBody } from '../domain/item/record.js';
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { projector, type TypedHandlers } from './projector.js';

type Handled = ItemEvent | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
type Recorded<T extends Handled['type']> = RecordedEvent<Extract<Handled, { type: T }>>;

/**
 * Queue rows for ItemQueued events: one statement for many (an upload of a thousand products is a
 * thousand events). A re-queued item takes the new hashes and counts one more queue version.
 */
const queueItems = async (db: Kysely<any>, events: ReadonlyArray<Recorded<'ItemQueued'>>): Promise<void> => {
  if (events.length === 0) return;
  await db
    .insertInto('catalogue_items')
    .values(
      events.map((event) => {
        const { itemId, datasetId, organizationId, sku, kind, contentHash, commerceHash, sourceId, at } = event.data;
        return { item_id: itemId, dataset_id: datasetId, organization_id: organizationId, sku, queue_status: kind, queue_version: 1, content_hash: contentHash, commerce_hash: commerceHash, source_id: sourceId ?? null, created_at: at, queued_at: at, updated_at: at };
      }),
    )
    .onConflict((c) =>
      c.column('item_id').doUpdateSet((eb) => ({
        queue_status: eb.ref('excluded.queue_status'),
        queue_version: eb('catalogue_items.queue_version', '+', 1),
        queue_reason: null,
        attempts: 0,
        content_hash: eb.ref('excluded.content_hash'),
        commerce_hash: eb.ref('excluded.commerce_hash'),
        // The last writer owns the item: a merchant's upload takes it out of a sync's archiving.
        source_id: eb.ref('excluded.source_id'),
        queued_at: eb.ref('excluded.queued_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
};

/**
 * Processed items: one UPDATE joined to a VALUES list for many (the ingest worker records them by
 * the thousand). A newer upload queued meanwhile keeps its row in the queue.
 */
const recordProcessed = async (db: Kysely<any>, events: ReadonlyArray<Recorded<'ItemProcessed'>>): Promise<void> => {
  if (events.length === 0) return;
  const rows = events.map((event) => {
    const { data } = event;
    return sql`(${data.itemId}::uuid, ${data.status}::text, ${JSON.stringify(datasetItemBody(data))}::jsonb, ${data.labels.gender}::text, ${data.listing.brand || null}::text, ${data.at}::timestamptz, ${data.queueVersion}::integer)`;
  });
  await sql`
    update catalogue_items c
       set status = v.status, item = v.item, gender = v.gender, vendor = v.vendor, processed_at = v.at, updated_at = v.at,
           queue_status = case when c.queue_version = v.queue_version then null else c.queue_status end
      from (values ${sql.join(rows)}) as v(item_id, status, item, gender, vendor, at, queue_version)
     where c.item_id = v.item_id`.execute(db);
};

/** Event types whose runs go as one statement (an item twice in a run splits it: one statement cannot change a row twice). */
const batched = {
  ItemQueued: queueItems,
  ItemProcessed: recordProcessed,
};
type Batched = Recorded<keyof typeof batched>;
const isBatched = (event: RecordedEvent<Handled>): event is Batched => Object.hasOwn(batched, event.type);
const applyRun = (db: Kysely<any>, run: Batched[]) =>
  run[0]!.type === 'ItemQueued' ? queueItems(db, run as Array<Recorded<'ItemQueued'>>) : recordProcessed(db, run as Array<Recorded<'ItemProcessed'>>);

const handlers: TypedHandlers<Handled> = {
  ItemQueued: (db, event) => queueItems(db, [event]),
  ItemProcessingStarted: async (db, event) => {
    const { itemId, queueVersion, attempt, at } = event.data;
    await db.updateTable('catalogue_items').set({ queue_status: 'processing', attempts: attempt, updated_at: at }).where('item_id', '=', itemId).where('queue_version', '=', queueVersion).execute();
  },
  ItemProcessed: (db, event) => recordProcessed(db, [event]),
  ItemCommerceUpdated: async (db, event) => {
    const { itemId, price, currency, variants, queueVersion, at } = event.data;
    const row = await db.selectFrom('catalogue_items').select('item').where('item_id', '=', itemId).executeTakeFirst();
    if (!row?.item) return;
    const item = typeof row.item === 'string' ? JSON.parse(row.item) : row.item;
    item.product = { ...item.product, price, currency, variants };
    await db
      .updateTable('catalogue_items')
      .set((eb) => ({
        item: JSON.stringify(item),
        updated_at: at,
        queue_status: eb.case().when('queue_version', '=', queueVersion).then(null).else(eb.ref('queue_status')).end(),
      }))
      .where('item_id', '=', itemId)
      .execute();
  },
  ItemFailed: async (db, event) => {
    const { itemId, queueVersion, reason, attempts, at } = event.data;
    await db
      .updateTable('catalogue_items')
      .set({ queue_status: 'failed', queue_reason: reason, attempts, updated_at: at })
      .where('item_id', '=', itemId)
      .where('queue_version', '=', queueVersion)
      .execute();
  },
  ItemStatusChanged: async (db, event) => {
    const { itemId, status, sourceId, at } = event.data;
    const archivedBySource = status === 'archived' ? (sourceId ?? null) : null;
    await db.updateTable('catalogue_items').set({ status, archived_by_source: archivedBySource, updated_at: at }).where('item_id', '=', itemId).execute();
  },
  DatasetDeleted: async (db, event) => {
    const { datasetId } = event.data;
    await db.deleteFrom('catalogue_items').where('dataset_id', '=', datasetId).execute();
  },
};

export const catalogueItems = projector<Handled>({
  name: 'catalogue_items',
  tables: ['catalogue_items'],
  handlers,
  // Runs of one batched type go as one statement; every other event keeps its own handler, in order.
  applyBatch: async (db, events) => {
    let run: Batched[] = [];
    let ids = new Set<string>();
    const flush = async () => {
      // A run holds one type only (it is flushed when the type changes).
      if (run.length) await applyRun(db, run);
      run = [];
      ids = new Set();
    };
    for (const event of events) {
      if (isBatched(event)) {
        const { itemId } = event.data;
        if (run.length && (run[0]!.type !== event.type || ids.has(itemId))) await flush();
        run.push(event);
        ids.add(itemId);
        continue;
      }
      await flush();
      await (handlers[event.type] as ((db: Kysely<any>, event: RecordedEvent<Handled>) => Promise<unknown>) | undefined)?.(db, event);
    }
    await flush();
  },
});
