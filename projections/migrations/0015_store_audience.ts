// The store-audience read model (projections/store-audience.ts): each queued listing's gender
// evidence, one row per item, gathered per dataset when the ingest worker labels an item.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('store_audience')
    .addColumn('item_id', 'uuid', (c) => c.primaryKey())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('cue', 'text')
    .addColumn('implied', 'text')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('product_type', 'text', (c) => c.notNull())
    .addColumn('sizes', 'text')
    .addColumn('fashion', 'boolean', (c) => c.notNull())
    .execute();
  await sql`create index store_audience_dataset on store_audience (dataset_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('store_audience').execute();
}
