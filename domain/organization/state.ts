import type { Plan } from '../plan.js';
import type { OrganizationEvent } from './events.js';

export interface Organization {
  organizationId: string;
  name: string;
  reportingTimezone: string;
  createdAt: string;
  updatedAt: string;
}

export interface Subscription {
  active: boolean;
  startedAt: string;
  plan: Plan;
}

export interface OrganizationAggregate extends Organization {
  subscription: Subscription | null;
  deleted: boolean;
}

export type OrganizationState = OrganizationAggregate | null;

export const initialState: OrganizationState = null;

const withPlanEntry = (plan: Plan, resource: string, entry: Plan['entries'][string] | null): Plan => {
  const entries = { ...plan.entries };
  if (entry) entries[resource] = entry;
  else delete entries[resource];
  return { ...plan, entries };
};

export const evolve = (state: OrganizationState, event: OrganizationEvent): OrganizationState => {
  switch (event.type) {
    case 'OrganizationCreated':
      return {
        organizationId: event.data.organizationId,
        name: event.data.name,
        reportingTimezone: event.data.reportingTimezone,
        createdAt: event.data.at,
        updatedAt: event.data.at,
        subscription: null,
        deleted: false,
      };
    case 'OrganizationRenamed':
      return state && { ...state, name: event.data.name, updatedAt: event.data.at };
    case 'OrganizationTimezoneChanged':
      return state && { ...state, reportingTimezone: event.data.reportingTimezone, updatedAt: event.data.at };
    case 'OrganizationDeleted':
      return state && { ...state, deleted: true, updatedAt: event.data.at };
    case 'SubscriptionStarted':
      return state && { ...state, subscription: { active: true, startedAt: event.data.at, plan: event.data.plan } };
    case 'SubscriptionActivated':
    case 'SubscriptionDeactivated':
      return state && state.subscription && { ...state, subscription: { ...state.subscription, active: event.type === 'SubscriptionActivated' } };
    case 'AnalyticsRebuildRequested':
      return state;
    case 'PlanEntrySet':
      return (
        state &&
        state.subscription && { ...state, subscription: { ...state.subscription, plan: withPlanEntry(state.subscription.plan, event.data.resource, event.data.entry) } }
      );
    default: {
      // Exhaustive at compile time; at run time an event type this build does not know (a rolling
      // deploy) leaves the state as it was.
      const unknownEvent: never = event;
      void unknownEvent;
      return state;
    }
  }
};
