import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('creator_id', 'uuid')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('subscription_active', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('subscription_started_at', 'timestamptz')
    .addColumn('plan', 'jsonb')
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_primary', 'boolean', (c) => c.notNull())
    // The lookup parts of the current key values: what authentication finds a key by.
    .addColumn('public_lookup', 'text', (c) => c.notNull().unique())
    .addColumn('private_lookup', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('public_access', 'jsonb', (c) => c.notNull())
    .addColumn('private_access', 'jsonb', (c) => c.notNull())
    .addColumn('scopes', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index api_keys_organization on api_keys (organization_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('organizations').dropColumn('creator_id').dropColumn('deleted_at').dropColumn('subscription_active').dropColumn('subscription_started_at').dropColumn('plan').execute();
}
