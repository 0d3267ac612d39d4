// Fair syncs across organizations (workers/sync/slots.ts). Both tables belong to the sync worker:
// no projector writes, empties or rebuilds them.
// - A run's heartbeat row is also the organization slot it holds: (organization_id, slot) is unique,
//   so two workers cannot both take slot k of one organization. Rows written before this migration
//   have no slot and count against no limit.
// - A job whose organization had no free slot waits in sync_waiting (its queue message is acked);
//   the run that frees a slot, or the scheduler, announces it again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_heartbeats').addColumn('organization_id', 'uuid').execute();
  await db.schema.alterTable('sync_heartbeats').addColumn('slot', 'integer').execute();
  await sql`create unique index sync_heartbeats_slot on sync_heartbeats (organization_id, slot)`.execute(db);

  await db.schema
    .createTable('sync_waiting')
    .addColumn('job_id', 'uuid', (c) => c.primaryKey())
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('since', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index sync_waiting_order on sync_waiting (organization_id, priority desc, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_waiting').execute();
  await sql`drop index sync_heartbeats_slot`.execute(db);
  await db.schema.alterTable('sync_heartbeats').dropColumn('slot').execute();
  await db.schema.alterTable('sync_heartbeats').dropColumn('organization_id').execute();
}
