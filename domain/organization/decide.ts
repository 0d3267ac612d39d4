import { Conflict, Invalid, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import { DEFAULT_PLAN, type Plan, type PlanEntry } from '../plan.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationState } from './state.js';

export type OrganizationCommand =
  | { type: 'CreateOrganization'; data: { organizationId: string; name: string; plan?: Plan } }
  | { type: 'RenameOrganization'; data: { organizationId: string; name: string } }
  /** PATCH /v1/organization: the fields are already known to be the allowed ones. */
  | { type: 'UpdateOrganization'; data: { organizationId: string; fields: { name?: string; reportingTimezone?: string } } }
  | { type: 'DeleteOrganization'; data: { organizationId: string } }
  | { type: 'SetSubscription'; data: { organizationId: string; active: boolean } }
  | { type: 'SetPlanEntry'; data: { organizationId: string; resource: string; entry: PlanEntry | null } }
  | { type: 'RequestAnalyticsRebuild'; data: { organizationId: string } };

/** Document 1: 2 to 100 characters once trimmed; messages of document 2 (PATCH /v1/organization). */
export const organizationName = (raw: string): string => {
  const name = raw.trim();
  if (name.length < 2) throw new Invalid('Organization name must be at least 2 characters');
  if (name.length > 100) throw new Invalid('Organization name can be at most 100 characters');
  return name;
};

/** An IANA zone name, in its canonical spelling (`utc` → `UTC`). */
export const ianaTimezone = (raw: string): string => {
  try {
    if (!raw.trim() || !/^[A-Za-z0-9_+\-/]+$/.test(raw)) throw new RangeError(raw);
    return new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new Invalid('Not a recognised IANA timezone');
  }
};

/** Quota resources are paths with dots (document 1 §Limits 1). */
export const resourceName = (raw: string): string => {
  if (!/^api\.v\d+(\.[A-Za-z0-9]+)+$/.test(raw)) throw new Invalid(`Not a resource name: ${JSON.stringify(raw)} (for example api.v1.search.query).`);
  return raw;
};

const planEntry = (entry: PlanEntry): PlanEntry => {
  if (entry.kind !== 'metered') return entry;
  const count = (value: number | null, what: string) => {
    if (value !== null && (!Number.isInteger(value) || value < 0)) throw new Invalid(`${what} must be a whole number of requests, 0 or more.`);
  };
  if (entry.quota !== 'unlimited') count(entry.quota, 'Quota');
  count(entry.rpm, 'RPM');
  return entry;
};

export const decide = (command: OrganizationCommand, state: OrganizationState, meta: CommandMeta): OrganizationEvent[] => {
  const { organizationId } = command.data;
  if (command.type === 'CreateOrganization') {
    if (state) throw new Conflict(`Organization '${organizationId}' already exists.`);
    const name = organizationName(command.data.name);
    return [
      { type: 'OrganizationCreated', data: { organizationId, name, reportingTimezone: 'UTC', at: meta.now } },
      { type: 'SubscriptionStarted', data: { organizationId, plan: command.data.plan ?? DEFAULT_PLAN, at: meta.now } },
    ];
  }
  if (!state || state.deleted) throw new NotFound(`Organization '${organizationId}' not found.`);
  switch (command.type) {
    case 'RenameOrganization':
      return decide({ type: 'UpdateOrganization', data: { organizationId, fields: { name: command.data.name } } }, state, meta);
    case 'UpdateOrganization': {
      const { fields } = command.data;
      const name = fields.name === undefined ? undefined : organizationName(fields.name);
      const zone = fields.reportingTimezone === undefined ? undefined : ianaTimezone(fields.reportingTimezone);
      const events: OrganizationEvent[] = [];
      if (name !== undefined && name !== state.name) events.push({ type: 'OrganizationRenamed', data: { organizationId, name, at: meta.now } });
      if (zone !== undefined && zone !== state.reportingTimezone) {
        events.push({ type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: zone, at: meta.now } });
      }
      return events;
    }
    case 'DeleteOrganization':
      return [{ type: 'OrganizationDeleted', data: { organizationId, at: meta.now } }];
    case 'SetSubscription': {
      if (!state.subscription) {
        return command.data.active ? [{ type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at: meta.now } }] : [];
      }
      if (state.subscription.active === command.data.active) return [];
      return [{ type: command.data.active ? 'SubscriptionActivated' : 'SubscriptionDeactivated', data: { organizationId, at: meta.now } }];
    }
    case 'SetPlanEntry': {
      if (!state.subscription) throw new Conflict(`Organization '${organizationId}' has no subscription.`);
      const resource = resourceName(command.data.resource);
      const entry = command.data.entry && planEntry(command.data.entry);
      return [{ type: 'PlanEntrySet', data: { organizationId, resource, entry, at: meta.now } }];
    }
    case 'RequestAnalyticsRebuild':
      return [{ type: 'AnalyticsRebuildRequested', data: { organizationId, at: meta.now } }];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
