// Idempotency-Key records of private write requests (api/plugins/idempotency.ts). Not a read
// model: nothing replays into it, like the quota counters it is plain state kept 24 hours.
// A row with a null status_code is a request still running, owned by `claim_id`.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    // text, not uuid: the key space is per organization whatever the id looks like.
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'uuid', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    // text keeps the exact bytes first sent; jsonb would reorder keys on the replay.
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['organization_id', 'idempotency_key'])
    .execute();
  await sql`create index idempotency_keys_expires_at on idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
