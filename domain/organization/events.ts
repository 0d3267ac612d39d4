import type { Plan, PlanEntry } from '../plan.js';

export interface OrganizationCreated {
  type: 'OrganizationCreated';
  data: { organizationId: string; name: string; reportingTimezone: string; at: string };
}

export interface OrganizationRenamed {
  type: 'OrganizationRenamed';
  data: { organizationId: string; name: string; at: string };
}

export interface OrganizationTimezoneChanged {
  type: 'OrganizationTimezoneChanged';
  data: { organizationId: string; reportingTimezone: string; at: string };
}

export interface OrganizationDeleted {
  type: 'OrganizationDeleted';
  data: { organizationId: string; at: string };
}

/** Billing periods run monthly from `at`; the plan says what each resource may do. */
export interface SubscriptionStarted {
  type: 'SubscriptionStarted';
  data: { organizationId: string; plan: Plan; at: string };
}

export interface SubscriptionActivated {
  type: 'SubscriptionActivated';
  data: { organizationId: string; at: string };
}

export interface SubscriptionDeactivated {
  type: 'SubscriptionDeactivated';
  data: { organizationId: string; at: string };
}

/** `entry: null` takes the resource back to the plan's defaults. */
export interface PlanEntrySet {
  type: 'PlanEntrySet';
  data: { organizationId: string; resource: string; entry: PlanEntry | null; at: string };
}

/**
 * An operator asked for the organization's analytics to be counted again from its events (`stylist
 * analytics rebuild`): built beside the numbers in use, which answer until the new ones are done.
 */
export interface AnalyticsRebuildRequested {
  type: 'AnalyticsRebuildRequested';
  data: { organizationId: string; at: string };
}

export type OrganizationEvent =
  | OrganizationCreated
  | OrganizationRenamed
  | OrganizationTimezoneChanged
  | OrganizationDeleted
  | SubscriptionStarted
  | SubscriptionActivated
  | SubscriptionDeactivated
  | PlanEntrySet
  | AnalyticsRebuildRequested;

export const organizationStream = (organizationId: string): string => `organization-${organizationId}`;
