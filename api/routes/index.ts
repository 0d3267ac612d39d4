// Every endpoint group of the API, in the order they are registered.
import type { FastifyInstance } from 'fastify';
import type { CatalogueContext } from './catalogue-context.js';
import { agentRoutes, type AgentContext } from './agent.js';
import { analyticsRoutes } from './analytics.js';
import { chatRoutes, type ChatContext } from './chat.js';
import { datasetRoutes } from './datasets.js';
import { shopperEventRoutes, type EventsContext } from './events.js';
import type { ImageLinks } from '../../domain/item/image-links.js';
import { imageRoutes, type ImagesContext } from './images.js';
import { itemRoutes } from './items.js';
import { lookRoutes, type LooksContext } from './looks.js';
import { matchRoutes, type MatchContext } from './match.js';
import { searchRoutes, type SearchContext } from './search.js';
import { sourceRoutes } from './sources.js';
import { stylingRoutes } from './styling.js';
import { uploadRoutes, type UploadContext } from './uploads.js';
import { widgetPreflightRoutes, type PreflightContext } from './widget-preflight.js';
import { organizationRoutes, type OrganizationContext } from './organization.js';
import { widgetPresetRoutes } from './widget-presets.js';
import { webRoutes, type WebContext } from './web.js';

export const endpointGroups = (
  context: OrganizationContext & PreflightContext & CatalogueContext & SearchContext & ImagesContext & ImageLinks & EventsContext & UploadContext & AgentContext & ChatContext & LooksContext & MatchContext & WebContext,
): Array<(app: FastifyInstance) => void | Promise<void>> => [
  organizationRoutes(context),
  widgetPresetRoutes(context),
  widgetPreflightRoutes(context),
  datasetRoutes(context),
  itemRoutes(context),
  stylingRoutes(context),
  sourceRoutes(context),
  searchRoutes(context),
  agentRoutes(context),
  chatRoutes(context),
  lookRoutes(context),
  matchRoutes(context),
  shopperEventRoutes(context),
  analyticsRoutes(context),
  imageRoutes(context),
  uploadRoutes(context),
  webRoutes(context),
];
