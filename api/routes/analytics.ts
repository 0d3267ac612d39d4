// GET /v1/analytics/daily (document 3 "Widget, events, analytics"): the organization's days in its
// reporting timezone, from the analytics read model (projections/analytics.ts). While a new count
// is being built (a changed timezone, `stylist analytics rebuild`), the previous count answers,
// in its own timezone (the answer's `timezone`), `rebuilding` is true and `rebuild` says what is
// under way. A change of timezone waits for the new count when it is quick (api/routes/organization.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dailyAnalytics } from '../../projections/queries/analytics.js';
import { HttpError } from '../plugins/errors.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, type RouteContext } from './context.js';

/** The longest range one request may ask for: a year and a day (a leap year, inclusive). */
export const MAX_ANALYTICS_DAYS = 367;

export const analyticsMessages = {
  date: (field: string) => `${field} must be a date (YYYY-MM-DD).`,
  order: 'from must not be after to.',
  range: `The range may cover at most ${MAX_ANALYTICS_DAYS} days.`,
};

const isoDate = (field: string) =>
  z
    .string({ error: analyticsMessages.date(field) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, analyticsMessages.date(field))
    .refine((value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
    }, analyticsMessages.date(field));

const day = z.object({
  date: z.string(),
  sessions: z.number().int(),
  messages: z.number().int(),
  productClicks: z.number().int(),
  addToCarts: z.number().int(),
  purchases: z.number().int(),
  revenue: z.number(),
  revenueByCurrency: z.record(z.string(), z.number()).optional(),
  assistedRevenue: z.number(),
  unverified: z.number().int().optional().describe("Events recorded that day but counted in no figure (another organization's item or dataset, an intent not the session's, a purchase past the session's revenue bound); present when there were any."),
  conversionRate: z.number(),
});

export const analyticsRoutes = (context: RouteContext) => (app: FastifyInstance) => {
  zodRoutes(app).get(
    '/v1/analytics/daily',
    {
      config: { auth: 'private', resource: 'api.v1.analytics.daily', scope: 'analytics' },
      schema: {
        summary: 'Daily analytics',
        description:
          'Sessions, messages, product clicks, add to carts, purchases and revenue per day in the organization\'s reporting timezone, every day of the range (zeros included). ' +
          '`revenue` is in the main currency (`currency`: its datasets\' currency, CAD when unset); other currencies are in `revenueByCurrency`, not converted. ' +
          '`assistedRevenue` sums purchases of items the service itself showed earlier in the same session (the agent\'s products, results of a search naming the session); `conversionRate` is sessions with a purchase ÷ sessions. ' +
          'Figures count only events the service could check (their items and datasets the organization\'s, within the bounds); the rest count as `unverified`.',
        querystring: z.object({ from: isoDate('from'), to: isoDate('to') }),
        response: {
          200: z.object({
            timezone: z.string().describe('The timezone the days are counted in: while a new count is built, still the previous one.'),
            currency: z.string(),
            days: z.array(day),
            rebuilding: z.boolean().describe('A new count is being built (a new reporting timezone, an operator\'s rebuild); the days are the previous count until it replaces them.'),
            rebuild: z
              .object({ timezone: z.string(), reason: z.string(), requestedAt: z.string(), eventsRead: z.number() })
              .optional()
              .describe('The count under way: its timezone, why (timezone, rebuild), when it was asked for and how many events it has replayed.'),
          }),
        },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      if (from > to) throw new HttpError(422, analyticsMessages.order, { details: [{ path: 'from', message: analyticsMessages.order }] });
      const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
      if (days > MAX_ANALYTICS_DAYS) throw new HttpError(422, analyticsMessages.range, { details: [{ path: 'to', message: analyticsMessages.range }] });
      const answer = await dailyAnalytics(context.db, callerOf(request).organizationId, from, to);
      // Every organization has a count from its creation; none yet means the read model is behind.
      return answer ?? { timezone: 'UTC', currency: 'CAD', days: [], rebuilding: false };
    },
  );
};
