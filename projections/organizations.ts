// Read model of organizations, one row each.
import type { OrganizationCreated, OrganizationRenamed } from '../domain/organization/events.js';
import { projector } from './projector.js';

export const organizations = projector('organizations', ['organizations'], {
  OrganizationCreated: async (db, event) => {
    const { organizationId, name, reportingTimezone, at } = event.data as OrganizationCreated['data'];
    await db
      .insertInto('organizations')
      .values({ organization_id: organizationId, name, reporting_timezone: reportingTimezone, created_at: at, updated_at: at, revision: event.revision.toString() })
      .onConflict((c) => c.column('organization_id').doNothing())
      .execute();
  },
  OrganizationRenamed: async (db, event) => {
    const { organizationId, name, at } = event.data as OrganizationRenamed['data'];
    await db
      .updateTable('organizations')
      .set({ name, updated_at: at, revision: event.revision.toString() })
      .where('organization_id', '=', organizationId)
      .where('revision', '<', event.revision.toString())
      .execute();
  },
});
