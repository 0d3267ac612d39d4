// Read model of organizations, one row each, with the subscription and plan authentication reads.
import { sql, type Kysely } from 'kysely';
import type { OrganizationEvent } from '../domain/organization/events.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { v5 as uuidv5 } from 'uuid';
import { projector } from './projector.js';

/** Applies a change to the row unless the row already reflects this event (a replay). */
const update = (db: Kysely<any>, event: RecordedEvent<OrganizationEvent>, organizationId: string, values: Record<string, unknown>) =>
  db
    .updateTable('organizations')
    .set({ ...values, revision: event.revision.toString() })
    .where('organization_id', '=', organizationId)
    .where('revision', '<', event.revision.toString())
    .execute();

// Document 1 shows a creator as a uuid; ours is whoever created the organization (a key, the
// operator's CLI, the system), named by a uuid derived from that actor so it is stable on replay.
const CREATOR_NAMESPACE = 'a4d1c3f0-5b7e-4e2a-9c61-2f8b0d9e7a13';
const creatorId = (event: RecordedEvent<OrganizationEvent>): string => {
  const actor = event.metadata.actor;
  return uuidv5(actor ? `${actor.kind}:${actor.id}` : 'system:unknown', CREATOR_NAMESPACE);
};

export const organizations = projector<OrganizationEvent>({
  name: 'organizations',
  tables: ['organizations'],
  handlers: {
    OrganizationCreated: async (db, event) => {
      const { organizationId, name, reportingTimezone, at } = event.data;
      await db
        .insertInto('organizations')
        .values({
          organization_id: organizationId,
          name,
          reporting_timezone: reportingTimezone,
          creator_id: creatorId(event),
          created_at: at,
          updated_at: at,
          revision: event.revision.toString(),
        })
        .onConflict((c) => c.column('organization_id').doNothing())
        .execute();
    },
    OrganizationRenamed: (db, event) => {
      const { organizationId, name, at } = event.data;
      return update(db, event, organizationId, { name, updated_at: at });
    },
    OrganizationTimezoneChanged: (db, event) => {
      const { organizationId, reportingTimezone, at } = event.data;
      return update(db, event, organizationId, { reporting_timezone: reportingTimezone, updated_at: at });
    },
    OrganizationDeleted: (db, event) => {
      const { organizationId, at } = event.data;
      return update(db, event, organizationId, { deleted_at: at, updated_at: at });
    },
    SubscriptionStarted: (db, event) => {
      const { organizationId, plan, at } = event.data;
      return update(db, event, organizationId, { subscription_active: true, subscription_started_at: at, plan: JSON.stringify(plan) });
    },
    SubscriptionActivated: (db, event) => update(db, event, event.data.organizationId, { subscription_active: true }),
    SubscriptionDeactivated: (db, event) => update(db, event, event.data.organizationId, { subscription_active: false }),
    PlanEntrySet: (db, event) => {
      const { organizationId, resource, entry } = event.data;
      const path = sql`array['entries', ${resource}]::text[]`;
      const plan = entry ? sql`jsonb_set(plan, ${path}, ${JSON.stringify(entry)}::jsonb)` : sql`plan #- ${path}`;
      return update(db, event, organizationId, { plan });
    },
  },
});
