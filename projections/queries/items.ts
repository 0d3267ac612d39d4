// Reads of catalogue items and their queue rows, scoped by organization and dataset.
import type { Kysely } from 'kysely';
import type { ItemStatus } from '../../domain/item/events.js';
import type { DatasetItem, DatasetItemBody } from '../../domain/item/record.js';
import type { StoredItem } from '../../domain/source/diff.js';
import { iso, json, isUuid } from './rows.js';


interface ItemRow {
  item_id: string;
  dataset_id: string;
  organization_id: string;
  status: ItemStatus | null;
  item: unknown;
  dataset_status: string;
}

const itemOf = (row: ItemRow): DatasetItem => ({
  itemId: row.item_id,
  datasetId: row.dataset_id,
  organizationId: row.organization_id,
  // An archived dataset switches its items off; activation brings them back.
  status: row.dataset_status === 'archived' ? 'archived' : (row.status ?? 'archived'),
  ...json<DatasetItemBody>(row.item),
});

const itemsOf = (db: Kysely<any>, organizationId: string, datasetId: string) =>
  db
    .selectFrom('catalogue_items as i')
    .innerJoin('datasets as d', 'd.dataset_id', 'i.dataset_id')
    .where('i.organization_id', '=', organizationId)
    .where('i.dataset_id', '=', datasetId)
    .where('i.status', 'is not', null);

/** Live items only, newest first. */
export async function listItems(db: Kysely<any>, organizationId: string, datasetId: string, page: number, limit: number): Promise<{ items: DatasetItem[]; total: number }> {
  if (!isUuid(organizationId) || !isUuid(datasetId)) return { items: [], total: 0 };
  const live = itemsOf(db, organizationId, datasetId).where('i.status', '=', 'active').where('d.status', '<>', 'archived');
  const [rows, total] = await Promise.all([
    live
      .select(['i.item_id', 'i.dataset_id', 'i.organization_id', 'i.status', 'i.item', 'd.status as dataset_status'])
      .orderBy('i.created_at', 'desc')
      .orderBy('i.sequence', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    live.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: (rows as ItemRow[]).map(itemOf), total: Number(total.n) };
}

/** One processed item, whatever its status; null when not processed yet or not this dataset's. */
export async function getItem(db: Kysely<any>, organizationId: string, datasetId: string, itemId: string): Promise<DatasetItem | null> {
  if (!isUuid(organizationId) || !isUuid(datasetId) || !isUuid(itemId)) return null;
  const row = await itemsOf(db, organizationId, datasetId)
    .select(['i.item_id', 'i.dataset_id', 'i.organization_id', 'i.status', 'i.item', 'd.status as dataset_status'])
    .where('i.item_id', '=', itemId)
    .executeTakeFirst();
  return row ? itemOf(row as ItemRow) : null;
}

export interface QueueRow {
  itemId: string;
  sku: string;
  status: string;
  attempts: number;
  error: string | null;
  queuedAt: string;
  updatedAt: string;
}

/** Document 1: the queue list shows every status except archived, newest first. */
export async function listQueue(db: Kysely<any>, organizationId: string, datasetId: string, page: number, limit: number): Promise<{ queue: QueueRow[]; total: number }> {
  if (!isUuid(organizationId) || !isUuid(datasetId)) return { queue: [], total: 0 };
  const rowsOf = db
    .selectFrom('catalogue_items')
    .where('organization_id', '=', organizationId)
    .where('dataset_id', '=', datasetId)
    .where('queue_status', 'is not', null)
    .where('queue_status', '<>', 'archived');
  const [rows, total] = await Promise.all([
    rowsOf
      .select(['item_id', 'sku', 'queue_status', 'attempts', 'queue_reason', 'queued_at', 'updated_at'])
      .orderBy('queued_at', 'desc')
      .orderBy('sequence', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    rowsOf.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    queue: rows.map((row) => ({
      itemId: row.item_id,
      sku: row.sku,
      status: row.queue_status,
      attempts: row.attempts,
      error: row.queue_reason ?? null,
      queuedAt: iso(row.queued_at),
      updatedAt: iso(row.updated_at),
    })),
  };
}

/** Queue rows waiting (not yet taken, or taken by a worker that is gone): re-derivable work. */
export async function waitingQueueRows(db: Kysely<any>, queuedBefore: Date, limit: number, offset = 0): Promise<Array<{ itemId: string; datasetId: string; organizationId: string; queueVersion: number }>> {
  const rows = await db
    .selectFrom('catalogue_items')
    .select(['item_id', 'dataset_id', 'organization_id', 'queue_version'])
    .where('queue_status', 'in', ['pending', 'partial_update', 'processing'])
    .where('updated_at', '<', queuedBefore)
    .orderBy('queued_at')
    .orderBy('item_id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({ itemId: row.item_id, datasetId: row.dataset_id, organizationId: row.organization_id, queueVersion: row.queue_version }));
}

/** Every item of a dataset by sku, with what a sync's diff compares: fingerprints, status, owner. */
export async function itemsBySku(db: Kysely<any>, datasetId: string): Promise<Map<string, StoredItem>> {
  const rows = await db
    .selectFrom('catalogue_items')
    .select(['item_id', 'sku', 'content_hash', 'commerce_hash', 'processed_at', 'status', 'source_id', 'archived_by_source'])
    .where('dataset_id', '=', datasetId)
    .execute();
  return new Map(
    rows.map((row) => [
      row.sku,
      { itemId: row.item_id, sku: row.sku, contentHash: row.content_hash, commerceHash: row.commerce_hash, processed: row.processed_at !== null, status: row.status, sourceId: row.source_id, archivedBySource: row.archived_by_source },
    ]),
  );
}
