import type { Kysely } from 'kysely';
import type { Organization } from '../../domain/organization/state.js';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export async function getOrganization(db: Kysely<any>, organizationId: string): Promise<Organization | null> {
  if (!/^[0-9a-f-]{36}$/i.test(organizationId)) return null;
  const row = await db.selectFrom('organizations').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
  return row
    ? { organizationId: row.organization_id, name: row.name, reportingTimezone: row.reporting_timezone, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) }
    : null;
}
