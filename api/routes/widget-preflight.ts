// GET /v1/widget/preflight (document 3 "Widget, events, analytics"): what the embedded widget
// needs before its first message: a session for events, its theme, the stores it serves.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../../domain/errors.js';
import { issueSessionToken, SESSION_TTL_MS } from '../auth/session-token.js';
import type { PreflightCache } from '../preflight-cache.js';
import { directPreflightReads, type PreflightReads } from '../preflight-reads.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, type RouteContext } from './context.js';
import { presetSchema } from './widget-presets.js';

export interface PreflightContext extends RouteContext {
  serverSecret: string;
  /** Presets and stores per organization with bounded staleness; without it every preflight reads the read models. */
  preflightCache?: PreflightCache;
}

export const widgetPreflightRoutes = (context: PreflightContext) => (app: FastifyInstance) => {
  const reads: PreflightReads = context.preflightCache ?? directPreflightReads(context.db);
  zodRoutes(app).get(
    '/v1/widget/preflight',
    {
      config: { auth: 'public', resource: 'api.v1.widget.preflight' },
      schema: {
        summary: 'Start a widget session',
        querystring: z.object({ themeId: z.string().optional().describe('A widget preset id; default: the preset changed most recently.') }),
        response: {
          200: z.object({
            session: z.object({ sessionId: z.uuid(), token: z.string(), expiresAt: z.string() }),
            theme: presetSchema.nullable(),
            stores: z.array(z.object({ name: z.string(), domain: z.string() })),
            demo: z.boolean(),
          }),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { themeId } = request.query;
      const { organizationId } = caller;
      const [theme, stores] = await Promise.all([
        themeId ? reads.preset(organizationId, themeId) : reads.latestPreset(organizationId),
        reads.stores(organizationId),
      ]);
      if (themeId && !theme) throw new NotFound(`Widget preset not found: ${themeId}`);
      // Bound to the organization and the key that opened it (null for the demo key), valid a day.
      const session = { sessionId: randomUUID(), organizationId, keyId: caller.keyId, demo: caller.demo, expiresAt: new Date(Date.now() + SESSION_TTL_MS) };
      return {
        session: { sessionId: session.sessionId, token: issueSessionToken(context.serverSecret, session), expiresAt: session.expiresAt.toISOString() },
        theme,
        stores,
        demo: caller.demo,
      };
    },
  );
};
