// PATCH /v1/organization (document 2 "Widget themes and organization"). A new reporting timezone
// waits, within `analyticsTimezoneWaitMs`, for the analytics count in it to answer, so a
// GET /v1/analytics/daily right after answers in it; past the bound that answer says
// `rebuilding: true` and names the timezone its numbers are still in.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { updateOrganization } from '../../commands/organizations.js';
import { NotFound } from '../../domain/errors.js';
import { waitForAnalyticsSwap } from '../../projections/analytics-swap.js';
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

export interface OrganizationContext extends RouteContext {
  /** How long a change of reporting timezone waits for the analytics count in it (ANALYTICS_TIMEZONE_WAIT_MS). */
  analyticsTimezoneWaitMs: number;
}

export const organizationRoutes = (context: OrganizationContext) => (app: FastifyInstance) => {
  zodRoutes(app).patch(
    '/v1/organization',
    {
      config: { auth: 'private', resource: 'api.v1.organization.update', scope: 'organization' },
      schema: { summary: 'Update the organization', body: z.object({ fields }), response: { 200: z.object({ organization }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const notFound = () => new NotFound('Organization not found');
      const { position, reportingTimezone } = await updateOrganization(context.eventStore, { organizationId, fields: request.body.fields }, commandMeta(request)).catch((error) => {
        throw error instanceof NotFound ? notFound() : error;
      });
      if (position) await context.waitFor(position, reportingTimezone ? ['organizations', 'analytics'] : ['organizations']);
      if (reportingTimezone) await waitForAnalyticsSwap(context.db, organizationId, context.analyticsTimezoneWaitMs);
      const record = await getOrganizationRecord(context.db, organizationId);
      if (!record) throw notFound();
      return { organization: record };
    },
  );
};
