import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Sync jobs, projected from their source's stream.
  await db.schema
    .createTable('sync_jobs')
    .addColumn('job_id', 'uuid', (c) => c.primaryKey())
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('worker_id', 'text')
    .addColumn('locked_at', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('stats', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('log_id', 'uuid')
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    .execute();
  await sql`create index sync_jobs_source on sync_jobs (source_id, created_at desc, sequence desc)`.execute(db);
  await sql`create index sync_jobs_open on sync_jobs (status, priority desc, created_at) where status in ('pending', 'processing')`.execute(db);

  // One row per run a worker started; the entries are written by the worker as it goes.
  await db.schema
    .createTable('sync_logs')
    .addColumn('log_id', 'uuid', (c) => c.primaryKey())
    .addColumn('job_id', 'uuid', (c) => c.notNull())
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('stats', 'jsonb')
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    .execute();
  await sql`create index sync_logs_source on sync_logs (source_id, started_at desc, sequence desc)`.execute(db);

  // Written by sync workers directly, not by a projector: diagnostics of a run (retries, refused
  // products), not catalogue changes, which are events on the items' own streams.
  await db.schema
    .createTable('sync_log_entries')
    .addColumn('log_id', 'uuid', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addPrimaryKeyConstraint('sync_log_entries_pk', ['log_id', 'position'])
    .execute();

  // A worker's sign of life for the job it holds: operational, overwritten every few seconds.
  await db.schema
    .createTable('sync_heartbeats')
    .addColumn('job_id', 'uuid', (c) => c.primaryKey())
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('beat_at', 'timestamptz', (c) => c.notNull())
    .addColumn('progress', 'jsonb')
    .execute();

  // Singleton roles (the sync scheduler) run in one process at a time: whoever holds the lease.
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('data_sources').addColumn('last_stats', 'jsonb').execute();
  await db.schema.alterTable('catalogue_items').addColumn('source_id', 'uuid').execute();
  await db.schema.alterTable('catalogue_items').addColumn('archived_by_source', 'uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('catalogue_items').dropColumn('archived_by_source').execute();
  await db.schema.alterTable('catalogue_items').dropColumn('source_id').execute();
  await db.schema.alterTable('data_sources').dropColumn('last_stats').execute();
  for (const table of ['leases', 'sync_heartbeats', 'sync_log_entries', 'sync_logs', 'sync_jobs']) await db.schema.dropTable(table).execute();
}
