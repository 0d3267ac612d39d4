// Messages the work queue gave up on (max deliveries, an invalid payload), of every subject, for
// `stylist queue dead-letters` and `replay`. Not a read model: written by the queue layer
// (infra/queue/dead-letters.ts), nothing replays into it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('queue_dead_letters')
    .addColumn('dead_letter_id', 'uuid', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('deliveries', 'integer', (c) => c.notNull())
    // The payload as JSON text, exactly as it was queued.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('dead_at', 'timestamptz', (c) => c.notNull())
    .addColumn('replayed_at', 'timestamptz')
    .execute();
  await sql`create index queue_dead_letters_dead_at on queue_dead_letters (dead_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('queue_dead_letters').execute();
}
