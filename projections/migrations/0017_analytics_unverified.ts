// Shopper events recorded but kept apart (domain/session/admission.ts: an item or dataset of
// another organization, an intent not the session's, a purchase past the session's revenue bound)
// are counted per day on their own, so a merchant sees that something was reported and not counted.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analytics_days').addColumn('unverified', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analytics_days').dropColumn('unverified').execute();
}
