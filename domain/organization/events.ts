export interface OrganizationCreated {
  type: 'OrganizationCreated';
  data: { organizationId: string; name: string; reportingTimezone: string; at: string };
}

export interface OrganizationRenamed {
  type: 'OrganizationRenamed';
  data: { organizationId: string; name: string; at: string };
}

export type OrganizationEvent = OrganizationCreated | OrganizationRenamed;

export const organizationStream = (organizationId: string): string => `organization-${organizationId}`;
