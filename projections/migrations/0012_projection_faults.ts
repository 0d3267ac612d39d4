// Events a projector stopped on (projection/faults.ts): what failed, how often, and the operator's
// decision (skip or retry) with who took it, when and why. Not a read model: nothing replays into it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_faults')
    .addColumn('fault_id', 'serial', (c) => c.primaryKey())
    .addColumn('projector', 'text', (c) => c.notNull())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // poisoned: the projector is stopped at it; skipped / retried: an operator decided.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('poisoned'))
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution_reason', 'text')
    .execute();
  // A projector stops on one event at a time.
  await sql`create unique index projection_faults_open on projection_faults (projector) where status = 'poisoned'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_faults').execute();
}
