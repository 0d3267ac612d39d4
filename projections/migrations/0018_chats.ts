// v1 chats (domain/chat): the read model of chats and their messages, the chat keys that seal
// what the events carry (owned by infra/crypto/chat-keys.ts, never emptied by a rebuild: a key is
// not derived from events), and the subject of an Idempotency-Key's stored answer, so that
// deleting a chat also deletes the answers that repeated its messages.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chats')
    .addColumn('chat_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('messages', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // The stream revision this row reflects: an event at or below it is a replay and changes nothing.
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index chats_organization_updated on chats (organization_id, updated_at, chat_id)`.execute(db);
  await sql`create index chats_organization_created on chats (organization_id, created_at, chat_id)`.execute(db);

  await db.schema
    .createTable('chat_keys')
    .addColumn('chat_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('idempotency_keys').addColumn('subject', 'text').execute();
  await sql`create index idempotency_keys_subject on idempotency_keys (organization_id, subject) where subject is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('subject').execute();
  await db.schema.dropTable('chat_keys').execute();
  await db.schema.dropTable('chats').execute();
}
