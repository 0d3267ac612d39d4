// Read model of catalogue items and their ingest queue rows (they share the item's id), and the
// cascade of a dataset's deletion. Whether an item is live also depends on its dataset's status,
// which queries join in (an archived dataset switches its items off without touching them).
import type { DatasetEvent } from '../domain/dataset/events.js';
import type { ItemEvent } from '../domain/item/events.js';
import { datasetItemBody } from '../domain/item/record.js';
import { projector } from './projector.js';

type Data<T extends ItemEvent['type']> = Extract<ItemEvent, { type: T }>['data'];

export const catalogueItems = projector('catalogue_items', ['catalogue_items'], {
  ItemQueued: async (db, event) => {
    const { itemId, datasetId, organizationId, sku, kind, contentHash, commerceHash, at } = event.data as Data<'ItemQueued'>;
    await db
      .insertInto('catalogue_items')
      .values({
        item_id: itemId,
        dataset_id: datasetId,
        organization_id: organizationId,
        sku,
        queue_status: kind,
        queue_version: 1,
        content_hash: contentHash,
        commerce_hash: commerceHash,
        created_at: at,
        queued_at: at,
        updated_at: at,
      })
      .onConflict((c) =>
        c.column('item_id').doUpdateSet((eb) => ({
          queue_status: kind,
          queue_version: eb('catalogue_items.queue_version', '+', 1),
          queue_reason: null,
          attempts: 0,
          content_hash: contentHash,
          commerce_hash: commerceHash,
          queued_at: at,
          updated_at: at,
        })),
      )
      .execute();
  },
  ItemProcessingStarted: async (db, event) => {
    const { itemId, queueVersion, attempt, at } = event.data as Data<'ItemProcessingStarted'>;
    await db.updateTable('catalogue_items').set({ queue_status: 'processing', attempts: attempt, updated_at: at }).where('item_id', '=', itemId).where('queue_version', '=', queueVersion).execute();
  },
  ItemProcessed: async (db, event) => {
    const data = event.data as Data<'ItemProcessed'>;
    const body = datasetItemBody(data);
    await db
      .updateTable('catalogue_items')
      .set((eb) => ({
        status: data.status,
        item: JSON.stringify(body),
        gender: data.labels.gender,
        vendor: data.listing.brand || null,
        processed_at: data.at,
        updated_at: data.at,
        // A newer upload queued meanwhile keeps its row in the queue.
        queue_status: eb.case().when('queue_version', '=', data.queueVersion).then(null).else(eb.ref('queue_status')).end(),
      }))
      .where('item_id', '=', data.itemId)
      .execute();
  },
  ItemCommerceUpdated: async (db, event) => {
    const { itemId, price, currency, variants, queueVersion, at } = event.data as Data<'ItemCommerceUpdated'>;
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
    const { itemId, queueVersion, reason, attempts, at } = event.data as Data<'ItemFailed'>;
    await db
      .updateTable('catalogue_items')
      .set({ queue_status: 'failed', queue_reason: reason, attempts, updated_at: at })
      .where('item_id', '=', itemId)
      .where('queue_version', '=', queueVersion)
      .execute();
  },
  ItemStatusChanged: async (db, event) => {
    const { itemId, status, at } = event.data as Data<'ItemStatusChanged'>;
    await db.updateTable('catalogue_items').set({ status, updated_at: at }).where('item_id', '=', itemId).execute();
  },
  DatasetDeleted: async (db, event) => {
    const { datasetId } = event.data as Extract<DatasetEvent, { type: 'DatasetDeleted' }>['data'];
    await db.deleteFrom('catalogue_items').where('dataset_id', '=', datasetId).execute();
  },
});
