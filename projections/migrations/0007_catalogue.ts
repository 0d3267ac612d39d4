import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('datasets')
    .addColumn('dataset_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('auto_publish', 'boolean', (c) => c.notNull())
    .addColumn('styling', 'jsonb')
    .addColumn('sizing', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // Events applied to the stream so far: document 1's `__v`.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    .execute();
  await sql`create index datasets_organization on datasets (organization_id, created_at desc, sequence desc)`.execute(db);

  // One row per item: the processed product (status, item) and its queue row (queue_*), which
  // share the item's id. A queue row is "in the queue" while queue_status is not null.
  await db.schema
    .createTable('catalogue_items')
    .addColumn('item_id', 'uuid', (c) => c.primaryKey())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('item', 'jsonb')
    .addColumn('gender', 'text')
    .addColumn('vendor', 'text')
    .addColumn('queue_status', 'text')
    .addColumn('queue_version', 'integer', (c) => c.notNull())
    .addColumn('queue_reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('commerce_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    .execute();
  await sql`create unique index catalogue_items_sku on catalogue_items (dataset_id, sku)`.execute(db);
  await sql`create index catalogue_items_listing on catalogue_items (dataset_id, status, created_at desc, sequence desc)`.execute(db);
  await sql`create index catalogue_items_queue on catalogue_items (dataset_id, queue_status, queued_at desc, sequence desc) where queue_status is not null`.execute(db);

  // Search vectors: derived from the search text, written by the ingest worker, not by a projector
  // (DESIGN.md: embeddings are not event-sourced). `text_hash` tells a stale vector from a current one.
  await db.schema
    .createTable('item_embeddings')
    .addColumn('item_id', 'uuid', (c) => c.primaryKey())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('vector', sql`real[]`, (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index item_embeddings_dataset on item_embeddings (dataset_id)`.execute(db);

  // Every photo the ingest worker stored, so a deleted dataset's photos can be found and removed
  // in the background after its item rows are gone.
  await db.schema
    .createTable('stored_images')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('stored_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index stored_images_dataset on stored_images (dataset_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_images').execute();
  await db.schema.dropTable('item_embeddings').execute();
  await db.schema.dropTable('catalogue_items').execute();
  await db.schema.dropTable('datasets').execute();
}
