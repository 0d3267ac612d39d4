// The search read model keeps each item's answer body (the stored product and labels a search
// result shows), written by the search projector when the item is processed, so a search answers
// from its own read model's rows, held in the search memory, instead of reading catalogue_items on
// every request. Rows projected before this column have none until `stylist projections rebuild
// search_index` or the item's next processing; search reads those few from catalogue_items.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table search_documents add column body text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table search_documents drop column body`.execute(db);
}
