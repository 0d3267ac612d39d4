// The search read model (projections/search-index.ts owns it): one row per item (made when it is
// queued, searchable once processed and active), with
// the labelled attributes as plain columns for filters, a weighted full-text document, and the
// variants (prices, stock, sizes) that ranking and market pricing read for every candidate
// without loading the whole item.
// `change_seq` comes from a sequence of its own that a rebuild does not restart: the in-process
// search memory follows the table by it (projections/search-memory.ts), and a rebuild then reads
// as a stream of fresh changes rather than as going back in time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence search_documents_changes`.execute(db);
  await db.schema
    .createTable('search_documents')
    .addColumn('item_id', 'uuid', (c) => c.primaryKey())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('source_id', 'uuid')
    .addColumn('status', 'text', (c) => c.notNull())
    // Null until the item is first processed (the row is made when it is queued, for its origin).
    .addColumn('name', 'text')
    .addColumn('brand', 'text')
    .addColumn('slot', 'text')
    .addColumn('family', 'text')
    .addColumn('gender', 'text')
    .addColumn('age_group', 'text')
    .addColumn('color_family', 'text')
    .addColumn('colors', sql`text[]`)
    .addColumn('pattern', 'text')
    .addColumn('material', sql`text[]`)
    .addColumn('fit', 'text')
    .addColumn('feature_keys', sql`text[]`)
    // Stored (default-market) price and currency, and the variants as search needs them.
    .addColumn('price', 'double precision')
    .addColumn('currency', 'text')
    .addColumn('variants', 'jsonb')
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('document', sql`tsvector`, (c) => c.notNull().defaultTo(sql`''::tsvector`))
    .addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('search_documents_changes')`))
    .execute();
  await sql`create index search_documents_document on search_documents using gin (document)`.execute(db);
  await sql`create index search_documents_scope on search_documents (dataset_id, status, family)`.execute(db);
  await sql`create index search_documents_by_change on search_documents (change_seq)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_documents').execute();
  await sql`drop sequence search_documents_changes`.execute(db);
}
