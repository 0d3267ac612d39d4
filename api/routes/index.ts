// Every endpoint group of the API, in the order they are registered.
import type { FastifyInstance } from 'fastify';
import { widgetPreflightRoutes, type PreflightContext } from './widget-preflight.js';
import { organizationRoutes } from './organization.js';
import { widgetPresetRoutes } from './widget-presets.js';

export const endpointGroups = (context: PreflightContext): Array<(app: FastifyInstance) => void | Promise<void>> => [organizationRoutes(context), widgetPresetRoutes(context), widgetPreflightRoutes(context)];
