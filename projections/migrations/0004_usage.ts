// Quota and per-minute counters. Not read models: nothing replays into them and no rebuild touches
// them (DESIGN: counters are rows with an atomic upsert). Every API process shares these rows, so
// the primary keys are exactly the conflict targets of infra/metering/usage-store.ts.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('quota_usage')
    // The organization whose plan pays: the demo organization for every demo caller.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    // A new period is a new row, so nothing has to reset the count when a month turns.
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint('quota_usage_pkey', ['subject', 'resource', 'period_start'])
    .execute();
  await db.schema
    .createTable('rpm_windows')
    // The organization, or `ip:<address>` for the demo key (Caller.rateSubject).
    .addColumn('rate_subject', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().check(sql`requests >= 0`))
    .addPrimaryKeyConstraint('rpm_windows_pkey', ['rate_subject', 'resource'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rpm_windows').execute();
  await db.schema.dropTable('quota_usage').execute();
}
