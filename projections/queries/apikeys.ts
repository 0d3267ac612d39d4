import type { Kysely } from 'kysely';
import type { KeyScope, PrivateAccess, PublicAccess } from '../../domain/apikey/access.js';
import { iso, json } from './rows.js';


export interface KeyRecord {
  keyId: string;
  organizationId: string;
  name: string;
  primary: boolean;
  publicKey: string;
  publicLookup: string;
  privateLookup: string;
  secretHash: string;
  publicAccess: PublicAccess;
  privateAccess: PrivateAccess;
  scopes: KeyScope[] | null;
  createdAt: string;
  updatedAt: string;
}

const record = (row: Record<string, any>): KeyRecord => ({
  keyId: row.key_id,
  organizationId: row.organization_id,
  name: row.name,
  primary: row.is_primary,
  publicKey: row.public_key,
  publicLookup: row.public_lookup,
  privateLookup: row.private_lookup,
  secretHash: row.secret_hash,
  publicAccess: json(row.public_access),
  privateAccess: json(row.private_access),
  scopes: row.scopes === null ? null : json(row.scopes),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** The key whose current public or private value has this lookup part. */
export async function findKeyByLookup(db: Kysely<any>, type: 'public' | 'private', lookup: string): Promise<KeyRecord | null> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where(type === 'public' ? 'public_lookup' : 'private_lookup', '=', lookup)
    .executeTakeFirst();
  return row ? record(row) : null;
}

export async function listKeys(db: Kysely<any>, organizationId: string): Promise<KeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('key_id').execute();
  return rows.map(record);
}
