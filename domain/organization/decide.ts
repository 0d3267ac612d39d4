import { Conflict, Invalid, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationState } from './state.js';

export type OrganizationCommand =
  | { type: 'CreateOrganization'; data: { organizationId: string; name: string } }
  | { type: 'RenameOrganization'; data: { organizationId: string; name: string } };

/** Document 1: 2 to 100 characters once trimmed; messages of document 2 (PATCH /v1/organization). */
export const organizationName = (raw: string): string => {
  const name = raw.trim();
  if (name.length < 2) throw new Invalid('Organization name must be at least 2 characters');
  if (name.length > 100) throw new Invalid('Organization name can be at most 100 characters');
  return name;
};

export const decide = (command: OrganizationCommand, state: OrganizationState, meta: CommandMeta): OrganizationEvent[] => {
  switch (command.type) {
    case 'CreateOrganization': {
      if (state) throw new Conflict(`Organization '${command.data.organizationId}' already exists.`);
      const name = organizationName(command.data.name);
      return [{ type: 'OrganizationCreated', data: { organizationId: command.data.organizationId, name, reportingTimezone: 'UTC', at: meta.now } }];
    }
    case 'RenameOrganization': {
      if (!state) throw new NotFound(`Organization '${command.data.organizationId}' not found.`);
      const name = organizationName(command.data.name);
      if (name === state.name) return [];
      return [{ type: 'OrganizationRenamed', data: { organizationId: state.organizationId, name, at: meta.now } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
