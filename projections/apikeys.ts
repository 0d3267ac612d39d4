// Read model of API keys: the current key values' lookups, the secret's hash, access rules and
// scopes, found by lookup on every authenticated request. A deleted key's row is removed.
import type { ApiKeyEvent } from '../domain/apikey/events.js';
import { projector } from './projector.js';

export const apiKeys = projector<ApiKeyEvent>({
  name: 'api_keys',
  tables: ['api_keys'],
  handlers: {
    ApiKeyCreated: async (db, event) => {
      const d = event.data;
      await db
        .insertInto('api_keys')
        .values({
          key_id: d.keyId,
          organization_id: d.organizationId,
          name: d.name,
          is_primary: d.primary,
          public_lookup: d.credentials.publicLookup,
          private_lookup: d.credentials.privateLookup,
          public_key: d.credentials.publicKey,
          secret_hash: d.credentials.secretHash,
          public_access: JSON.stringify(d.publicAccess),
          private_access: JSON.stringify(d.privateAccess),
          scopes: d.scopes === null ? null : JSON.stringify(d.scopes),
          created_at: d.at,
          updated_at: d.at,
          revision: event.revision.toString(),
        })
        .onConflict((c) => c.column('key_id').doNothing())
        .execute();
    },
    ApiKeyRotated: async (db, event) => {
      const d = event.data;
      await db
        .updateTable('api_keys')
        .set({
          public_lookup: d.credentials.publicLookup,
          private_lookup: d.credentials.privateLookup,
          public_key: d.credentials.publicKey,
          secret_hash: d.credentials.secretHash,
          updated_at: d.at,
          revision: event.revision.toString(),
        })
        .where('key_id', '=', d.keyId)
        .where('revision', '<', event.revision.toString())
        .execute();
    },
    ApiKeyDeleted: async (db, event) => {
      await db.deleteFrom('api_keys').where('key_id', '=', event.data.keyId).execute();
    },
  },
});
