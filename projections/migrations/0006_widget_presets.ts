import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('widget_presets')
    .addColumn('preset_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull())
    // The order rows were projected in, which is the events' order: it breaks ties between
    // presets created in the same millisecond so "oldest first" is stable. A rebuild restarts it.
    .addColumn('sequence', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
    // The stream revision this row reflects: an event at or below it is a replay and changes nothing.
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index widget_presets_organization on widget_presets (organization_id, created_at, sequence)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('widget_presets').execute();
}
