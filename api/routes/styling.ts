// GET and PUT /v1/datasets/{datasetId}/styling (document 2): the store's styling rules and sizing
// settings, replaced whole on PUT, every gap filled with its default on GET.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { replaceDatasetStyling } from '../../commands/datasets.js';
import { NotFound } from '../../domain/errors.js';
import { brandDirectory } from '../../domain/styling/brands.js';
import { BASIC_SLOTS, defaultSizing, defaultStyling, readStylingPut, RULE_IDS } from '../../domain/styling/settings.js';
import { getDataset, organizationVendors, type DatasetView } from '../../projections/queries/datasets.js';
import { zodRoutes } from '../plugins/validation.js';
import type { CatalogueContext } from './catalogue-context.js';
import { callerOf, commandMeta } from './context.js';
import { DATASET_ERRORS, settle } from './dataset-shared.js';

const stylingSchema = z.object({
  off: z.array(z.enum(RULE_IDS)),
  basics: z.array(z.object({ basicId: z.string(), text: z.string(), slot: z.enum(BASIC_SLOTS) })),
  choosing: z.string(),
  picture: z.string(),
  tryOn: z.boolean(),
});
const sizingSchema = z.object({ brandSizes: z.object({ enabled: z.boolean(), logos: z.boolean(), excludedBrands: z.array(z.string()) }) });

const params = z.object({ datasetId: z.string() });

/** The store's own brand: its name, and its domain without the suffix (`northwind.com` → northwind). */
const ownBrands = (dataset: DatasetView): string[] =>
  [dataset.config.storeName, dataset.config.storeDomain?.replace(/^www\./, '').split('.')[0]].filter((name): name is string => !!name && name.trim().length > 0);

export const stylingRoutes = (context: CatalogueContext) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);

  const datasetOf = async (organizationId: string, datasetId: string) => {
    const dataset = await getDataset(context.db, organizationId, datasetId);
    if (!dataset) throw new NotFound(DATASET_ERRORS.notFoundPlain);
    return dataset;
  };

  routes.get(
    '/v1/datasets/:datasetId/styling',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.styling.retrieve', scope: 'styling' },
      schema: { summary: 'Styling and sizing settings', params, response: { 200: z.object({ styling: stylingSchema, sizing: sizingSchema }) } },
    },
    async (request) => {
      const dataset = await datasetOf(callerOf(request).organizationId, request.params.datasetId);
      return { styling: { ...defaultStyling(), ...dataset.styling }, sizing: { brandSizes: { ...defaultSizing().brandSizes, ...dataset.sizing?.brandSizes } } };
    },
  );

  routes.put(
    '/v1/datasets/:datasetId/styling',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.styling.update', scope: 'styling' },
      schema: {
        summary: 'Replace styling and sizing settings',
        description: 'Send `styling`, `sizing` or both; each one sent is replaced whole. Text is shortened rather than refused; unknown rule ids, unknown brands and repeated basics are dropped.',
        params,
        response: { 200: z.object({ styling: stylingSchema, sizing: sizingSchema.optional() }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const directory = brandDirectory(await organizationVendors(context.db, organizationId), ownBrands(dataset));
      const saved = readStylingPut(request.body, {
        knownBrandSlugs: directory.knownSlugs,
        ownBrandSlugs: directory.ownSlugs,
        newBasicId: randomUUID,
        previousBasics: dataset.styling?.basics ?? [],
      });
      const { position } = await replaceDatasetStyling(context.eventStore, { organizationId, datasetId: dataset.datasetId, ...saved }, commandMeta(request)).catch((error) => {
        throw error instanceof NotFound ? new NotFound(DATASET_ERRORS.notFoundPlain) : error;
      });
      await settle(context, position);
      return { styling: saved.styling ?? { ...defaultStyling(), ...dataset.styling }, ...(saved.sizing ? { sizing: saved.sizing } : {}) };
    },
  );
};
