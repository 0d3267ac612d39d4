import type { OrganizationEvent } from './events.js';

export interface Organization {
  organizationId: string;
  name: string;
  reportingTimezone: string;
  createdAt: string;
  updatedAt: string;
}

export type OrganizationState = Organization | null;

export const initialState: OrganizationState = null;

export const evolve = (state: OrganizationState, event: OrganizationEvent): OrganizationState => {
  switch (event.type) {
    case 'OrganizationCreated':
      return {
        organizationId: event.data.organizationId,
        name: event.data.name,
        reportingTimezone: event.data.reportingTimezone,
        createdAt: event.data.at,
        updatedAt: event.data.at,
      };
    case 'OrganizationRenamed':
      return state && { ...state, name: event.data.name, updatedAt: event.data.at };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
};
