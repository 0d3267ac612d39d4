// Every read model the service keeps. The runner, `stylist projections` and tests use this list.
import { analytics } from './analytics.js';
import { apiKeys } from './apikeys.js';
import { catalogueItems } from './catalogue-items.js';
import { chats } from './chats.js';
import { dataSources } from './data-sources.js';
import { datasets } from './datasets.js';
import { organizations } from './organizations.js';
import type { Projector } from './projector.js';
import { searchIndex } from './search-index.js';
import { storeAudience } from './store-audience.js';
import { widgetPresets } from './widget-presets.js';

export const allProjectors: Projector[] = [organizations, apiKeys, widgetPresets, datasets, catalogueItems, dataSources, storeAudience, searchIndex, analytics, chats];
