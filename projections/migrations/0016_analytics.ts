// The analytics read model (projections/analytics.ts): per organization, one or two generations of
// daily figures, each counted in one timezone. The active generation answers; a building one (a
// new timezone, or an operator's rebuild) is filled by replaying history beside it and then takes
// its place in one transaction.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_generations')
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // The event that started it: history before it is replayed, the live projector adds what follows.
    .addColumn('since_position', 'text')
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('events_read', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'text')
    .addColumn('heartbeat_at', 'timestamptz')
    .addPrimaryKeyConstraint('analytics_generations_pk', ['organization_id', 'generation'])
    .execute();
  await db.schema
    .createTable('analytics_days')
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('messages', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('product_clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('add_to_carts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('purchases', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_days_pk', ['organization_id', 'generation', 'date'])
    .execute();
  await db.schema
    .createTable('analytics_revenue')
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('revenue', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('assisted_revenue', 'numeric', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_revenue_pk', ['organization_id', 'generation', 'date', 'currency'])
    .execute();
  await db.schema
    .createTable('analytics_session_days')
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addColumn('purchased', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_session_days_pk', ['organization_id', 'generation', 'date', 'session_id'])
    .execute();
  // What the stylist showed in each session, for attribution; kept while a session can still send.
  await db.schema
    .createTable('analytics_shown')
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_shown_pk', ['session_id', 'item_id', 'organization_id'])
    .execute();
  await sql`create index analytics_shown_received on analytics_shown (received_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['analytics_shown', 'analytics_session_days', 'analytics_revenue', 'analytics_days', 'analytics_generations']) await db.schema.dropTable(table).execute();
}
