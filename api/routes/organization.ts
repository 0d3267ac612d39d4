// PATCH /v1/organization (document 2 "Widget themes and organization").
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { updateOrganization } from '../../commands/organizations.js';
import { NotFound } from '../../domain/errors.js';
import { getOrganizationRecord } from '../../projections/queries/organizations.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, commandMeta, type RouteContext } from './context.js';

const ALLOWED = ['name', 'reportingTimezone'] as const;

const fields = z
  .strictObject(
    {
      name: z.string({ error: 'Organization name must be at least 2 characters' }).optional(),
      reportingTimezone: z.string({ error: 'Not a recognised IANA timezone' }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys[0]}. Allowed fields: ${ALLOWED.join(', ')}.` : 'fields must be an object.',
    },
  )
  .refine((value) => Object.keys(value).length > 0, { error: 'No fields to update' })
  .describe('The fields to change: name (2 to 100 characters once trimmed) and reportingTimezone (IANA).');

const organization = z.object({
  organizationId: z.uuid(),
  name: z.string(),
  creatorId: z.uuid(),
  reportingTimezone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const organizationRoutes = (context: RouteContext) => (app: FastifyInstance) => {
  zodRoutes(app).patch(
    '/v1/organization',
    {
      config: { auth: 'private', resource: 'api.v1.organization.update', scope: 'organization' },
      schema: { summary: 'Update the organization', body: z.object({ fields }), response: { 200: z.object({ organization }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const notFound = () => new NotFound('Organization not found');
      const { position } = await updateOrganization(context.eventStore, { organizationId, fields: request.body.fields }, commandMeta(request)).catch((error) => {
        throw error instanceof NotFound ? notFound() : error;
      });
      if (position) await context.waitFor(position, ['organizations']);
      const record = await getOrganizationRecord(context.db, organizationId);
      if (!record) throw notFound();
      return { organization: record };
    },
  );
};
