// Events a projector parked for one organization (projections/parked.ts): the one it could not
// apply, with its error, and the organization's later events queued behind it, so that one
// tenant's poisoned event stops only that tenant's lane of the read model. Closed rows keep the
// operator's replay (who, when, why). Not a read model: nothing replays into it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_parked')
    .addColumn('parked_id', 'serial', (c) => c.primaryKey())
    .addColumn('projector', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    // The stream revision: a replay reads the event back from the store by it.
    .addColumn('revision', 'bigint', (c) => c.notNull())
    // failed: the handler kept failing on it; behind: queued after a failed one of its organization.
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // parked: waiting; replayed: applied by an operator's replay; dropped: a rebuild replayed it anyway.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('parked'))
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution_reason', 'text')
    .execute();
  await sql`create index projection_parked_open on projection_parked (projector, organization_id) where status = 'parked'`.execute(db);
  await sql`create unique index projection_parked_once on projection_parked (projector, event_id) where status = 'parked'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_parked').execute();
}
