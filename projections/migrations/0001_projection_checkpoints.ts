// The runner's own bookkeeping: one row per projector. `position` is text ("commit/prepare", see
// infra/eventstore/position.ts) so both event store adapters fit; null until the first batch.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('position', 'text')
    .addColumn('events_applied', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_checkpoints').execute();
}
