import type { Kysely } from 'kysely';
import type { Organization } from '../../domain/organization/state.js';
import type { Plan } from '../../domain/plan.js';
import { iso, json, isUuid } from './rows.js';


/** What authentication and metering need to know about the organization behind a key. */
export interface OrganizationAccount {
  organizationId: string;
  deleted: boolean;
  subscription: { active: boolean; startedAt: string; plan: Plan } | null;
}

/** A live organization as document 1 shows it; null when it never existed or was deleted. */
export async function getOrganization(db: Kysely<any>, organizationId: string): Promise<Organization | null> {
  if (!isUuid(organizationId)) return null;
  const row = await db.selectFrom('organizations').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null).executeTakeFirst();
  return row
    ? { organizationId: row.organization_id, name: row.name, reportingTimezone: row.reporting_timezone, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) }
    : null;
}

export async function getOrganizationAccount(db: Kysely<any>, organizationId: string): Promise<OrganizationAccount | null> {
  if (!isUuid(organizationId)) return null;
  const row = await db
    .selectFrom('organizations')
    .select(['organization_id', 'deleted_at', 'subscription_active', 'subscription_started_at', 'plan'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    organizationId: row.organization_id,
    deleted: row.deleted_at !== null,
    subscription: row.subscription_started_at && row.plan ? { active: row.subscription_active, startedAt: iso(row.subscription_started_at), plan: json<Plan>(row.plan) } : null,
  };
}

/** The organization as the update endpoint returns it, with its creator. */
export async function getOrganizationRecord(db: Kysely<any>, organizationId: string): Promise<(Organization & { creatorId: string }) | null> {
  if (!isUuid(organizationId)) return null;
  const row = await db.selectFrom('organizations').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null).executeTakeFirst();
  return row
    ? {
        organizationId: row.organization_id,
        name: row.name,
        creatorId: row.creator_id,
        reportingTimezone: row.reporting_timezone,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      }
    : null;
}
