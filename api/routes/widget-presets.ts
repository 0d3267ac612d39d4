// POST, GET /v1/widget/presets and GET /v1/widget/presets/{presetId} (document 2 "Widget themes and organization").
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createWidgetPreset } from '../../commands/widget-presets.js';
import { NotFound } from '../../domain/errors.js';
import { COLOUR_FIELDS, HEX_COLOUR, PRESET_LIMITS, presetMessages, type ColourField } from '../../domain/widget-preset/fields.js';
import { getWidgetPreset, listWidgetPresets, WIDGET_PRESET_LIST_LIMIT } from '../../projections/queries/widget-presets.js';
import { zodRoutes } from '../plugins/validation.js';
import type { PreflightCache } from '../preflight-cache.js';
import { callerOf, commandMeta, type RouteContext } from './context.js';

const PROJECTIONS = ['widget_presets'];

const presetNotFound = (presetId: string) => new NotFound(`Widget preset not found: ${presetId}`);

// A missing field and a field of the wrong type say different things.
const stringOf = (field: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? presetMessages.required(field) : presetMessages.notText(field)) });

const text = (field: string, max: number) =>
  stringOf(field).trim().min(1, presetMessages.empty(field)).max(max, presetMessages.tooLong(field, max)).describe(`At most ${max} characters once trimmed.`);

const colour = (field: string) => stringOf(field).regex(HEX_COLOUR, presetMessages.notColour(field)).describe('Hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.');

const { min, max, default: fullyRound } = PRESET_LIMITS.roundness;

const createBody = z.object({
  name: text('name', PRESET_LIMITS.name),
  buttonLabel: text('buttonLabel', PRESET_LIMITS.buttonLabel),
  ...(Object.fromEntries(COLOUR_FIELDS.map((field) => [field, colour(field)])) as Record<ColourField, ReturnType<typeof colour>>),
  roundness: z
    .number({ error: presetMessages.roundness })
    .int(presetMessages.roundness)
    .min(min, presetMessages.roundness)
    .max(max, presetMessages.roundness)
    .default(fullyRound)
    .describe(`Corner roundness, ${min} (square) to ${max}; default ${fullyRound}.`),
});

const hex = z.string();
export const presetSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  options: z.object({
    button: z.object({ label: z.string(), color: hex, hoverColor: hex, textColor: hex }),
    widget: z.object({
      typingDotColor: hex,
      accentColor: hex,
      accentHoverColor: hex,
      mutedTextColor: hex,
      primaryTextColor: hex,
      pageColor: hex,
      surfaceColor: hex,
      borderColor: hex,
      inputColor: hex,
      footerColor: hex,
      roundness: z.number().int(),
    }),
  }),
  created: z.string(),
  modified: z.string(),
});

export const widgetPresetRoutes = (context: RouteContext & { preflightCache?: PreflightCache }) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);

  routes.post(
    '/v1/widget/presets',
    {
      config: { auth: 'private', resource: 'api.v1.widget.presets.create', scope: 'widget' },
      schema: { summary: 'Create a widget preset', body: createBody, response: { 201: z.object({ preset: presetSchema }) } },
    },
    async (request, reply) => {
      const { organizationId } = callerOf(request);
      const { presetId, position } = await createWidgetPreset(context.eventStore, { organizationId, fields: request.body }, commandMeta(request));
      await context.waitFor(position, PROJECTIONS);
      // The widget's latest theme changed: this process's next preflight shows it at once.
      context.preflightCache?.forget(organizationId);
      const created = await getWidgetPreset(context.db, organizationId, presetId);
      if (!created) throw new Error(`widget preset ${presetId} is not in the read model after waiting for it`);
      return reply.code(201).send({ preset: created });
    },
  );

  routes.get(
    '/v1/widget/presets',
    {
      config: { auth: 'private', resource: 'api.v1.widget.presets.list', scope: 'widget' },
      schema: {
        summary: 'List widget presets',
        description: `Oldest first, at most ${WIDGET_PRESET_LIST_LIMIT}.`,
        response: { 200: z.object({ presets: z.array(presetSchema) }) },
      },
    },
    async (request) => ({ presets: await listWidgetPresets(context.db, callerOf(request).organizationId) }),
  );

  routes.get(
    '/v1/widget/presets/:presetId',
    {
      config: { auth: 'private', resource: 'api.v1.widget.presets.retrieve', scope: 'widget' },
      // Not z.uuid(): a malformed id names no preset, so it is a 404 like any other unknown id.
      schema: { summary: 'Retrieve a widget preset', params: z.object({ presetId: z.string() }), response: { 200: z.object({ preset: presetSchema }) } },
    },
    async (request) => {
      const { presetId } = request.params;
      const found = await getWidgetPreset(context.db, callerOf(request).organizationId, presetId);
      if (!found) throw presetNotFound(presetId);
      return { preset: found };
    },
  );
};
