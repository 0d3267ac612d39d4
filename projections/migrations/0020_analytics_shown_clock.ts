// Attribution forgets by each organization's clock, its newest showing (domain/analytics/
// attribution.ts): the analytics projector reads that clock and drops what it has left behind
// per organization, on every batch that shows something, so both walk this index.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index analytics_shown_organization_received on analytics_shown (organization_id, received_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index analytics_shown_organization_received`.execute(db);
}
