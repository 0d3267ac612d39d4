// Data sources (document 2 "Data sources and sync", document 3 §3): create, list with clamped
// pagination, update with every field message, delete. Sync jobs and logs come with the sync worker.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSource, deleteSource, updateSource } from '../../commands/sources.js';
import { NotFound } from '../../domain/errors.js';
import { createSourceBody, DEFAULT_SYNC_PERIOD, SourceNotFound, updateSourceBody } from '../../domain/source/index.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { isUuid } from '../../projections/queries/rows.js';
import { getSource, listSources } from '../../projections/queries/sources.js';
import { zodRoutes } from '../plugins/validation.js';
import type { CatalogueContext } from './catalogue-context.js';
import { callerOf, commandMeta } from './context.js';
import { DATASET_ERRORS, streamHead } from './dataset-shared.js';

const PROJECTIONS = ['data_sources'];

const stats = z.object({ retrieved: z.number().int(), added: z.number().int(), updated: z.number().int(), archived: z.number().int(), failed: z.number().int() });
const sourceSchema = z.object({
  sourceId: z.uuid(),
  datasetId: z.uuid(),
  organizationId: z.uuid(),
  type: z.literal('shopify-api'),
  status: z.enum(['active', 'inactive']),
  sync: z.object({ period: z.number().int(), previous: z.string().nullable(), lastStats: stats.optional() }),
  config: z.object({ endpoint: z.string(), disableGenerativeAssets: z.literal(true) }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Clamped (document 1 §Pagination): never an error, always a page. */
const clamped = (value: unknown, fallback: number): number => {
  const number = typeof value === 'string' && value.trim() !== '' ? Math.trunc(Number(value)) : Number.NaN;
  return Number.isFinite(number) ? number : fallback;
};
const sourcePage = z.object({ page: z.unknown().optional(), limit: z.unknown().optional() }).transform(({ page, limit }) => {
  const p = clamped(page, 1);
  const l = clamped(limit, 20);
  return { page: p < 1 ? 1 : p, limit: l === 0 ? 20 : l < 0 ? 1 : Math.min(l, 100) };
});

const datasetParams = z.object({ datasetId: z.string() });
const sourceParams = z.object({ datasetId: z.string(), sourceId: z.string() });

export const sourceRoutes = (context: CatalogueContext) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);

  const datasetOf = async (organizationId: string, datasetId: string) => {
    const dataset = isUuid(datasetId) ? await getDataset(context.db, organizationId, datasetId) : null;
    if (!dataset) throw new NotFound(DATASET_ERRORS.notFoundForOrganization);
    return dataset;
  };

  routes.post(
    '/v1/datasets/:datasetId/sources',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.create' },
      schema: { summary: 'Connect a Shopify store', params: datasetParams, body: createSourceBody, response: { 201: z.object({ success: z.literal(true), source: sourceSchema }) } },
    },
    async (request, reply) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { endpoint, syncPeriod, status } = request.body;
      const { sourceId, position } = await createSource(
        context.eventStore,
        { organizationId, datasetId: dataset.datasetId, endpoint, syncPeriod: syncPeriod ?? DEFAULT_SYNC_PERIOD, status: status ?? 'active' },
        commandMeta(request),
      );
      await context.waitFor(position ?? (await streamHead(context.eventStore, `source-${sourceId}`)), PROJECTIONS);
      const source = await getSource(context.db, organizationId, dataset.datasetId, sourceId);
      if (!source) throw new SourceNotFound();
      return reply.code(201).send({ success: true as const, source });
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/sources',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.list', organizationNotFound: 'please-check' },
      schema: {
        summary: 'List data sources',
        description: 'Newest first; page and limit are clamped (limit 1 to 100, default 20), never refused.',
        params: datasetParams,
        querystring: sourcePage,
        response: { 200: z.object({ success: z.literal(true), sources: z.array(sourceSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { page, limit } = request.query;
      const { sources, total } = await listSources(context.db, organizationId, dataset.datasetId, page, limit);
      return { success: true as const, sources, total, page, limit };
    },
  );

  routes.patch(
    '/v1/datasets/:datasetId/sources/:sourceId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.update' },
      schema: { summary: 'Update a data source', params: sourceParams, body: updateSourceBody, response: { 200: z.object({ success: z.literal(true), source: sourceSchema }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId } = request.params;
      if (!isUuid(datasetId) || !isUuid(sourceId)) throw new SourceNotFound();
      const { disableGenerativeAssets: _alwaysTrue, ...changes } = request.body;
      const { position } = await updateSource(context.eventStore, { organizationId, datasetId, sourceId, changes }, commandMeta(request));
      if (position) await context.waitFor(position, PROJECTIONS);
      const source = await getSource(context.db, organizationId, datasetId, sourceId);
      if (!source) throw new SourceNotFound();
      return { success: true as const, source };
    },
  );

  routes.delete(
    '/v1/datasets/:datasetId/sources/:sourceId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.delete' },
      schema: {
        summary: 'Delete a data source',
        description: 'With its sync jobs and logs; items it imported stay in the dataset.',
        params: sourceParams,
        response: { 200: z.object({ success: z.literal(true), deletedLogs: z.number().int(), deletedJobs: z.number().int() }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId } = request.params;
      if (!isUuid(datasetId) || !isUuid(sourceId)) throw new SourceNotFound();
      const { position } = await deleteSource(context.eventStore, { organizationId, datasetId, sourceId }, commandMeta(request));
      if (position) await context.waitFor(position, PROJECTIONS);
      // Sync jobs and logs arrive with the sync worker; until then a source has none.
      return { success: true as const, deletedLogs: 0, deletedJobs: 0 };
    },
  );
};
