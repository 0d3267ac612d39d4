import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_sources')
    .addColumn('source_id', 'uuid', (c) => c.primaryKey())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('sync_period', 'integer', (c) => c.notNull())
    .addColumn('sync_previous', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    .execute();
  await sql`create index data_sources_dataset on data_sources (dataset_id, created_at desc, sequence desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_sources').execute();
}
