// Datasets (document 2 "Datasets", document 3 §3): create, list, retrieve, update, activate,
// archive, delete, detect and available genders. Routes translate HTTP to a command or a query;
// each endpoint's wording of "not found" and "bad id" is document 2's, picked here.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { activateDataset, archiveDataset, createDataset, deleteDataset, enqueueDatasetCleanup, updateDataset } from '../../commands/datasets.js';
import { DatasetNotFound, createDatasetBody, newDatasetContent, updateDatasetBody } from '../../domain/dataset/index.js';
import { Invalid, NotFound } from '../../domain/errors.js';
import { GENDERS } from '../../domain/catalogue/vocabulary.js';
import { availableGenders, datasetCounts, deletionCounts, detectDatasets, getDataset, listDatasets, type DatasetView } from '../../projections/queries/datasets.js';
import { isUuid } from '../../projections/queries/rows.js';
import { zodRoutes } from '../plugins/validation.js';
import type { CatalogueContext } from './catalogue-context.js';
import { callerOf, commandMeta } from './context.js';
import { pagination, paginationSchema, validatedPage } from './pagination.js';
import { CATALOGUE_PROJECTIONS, datasetSchemas, DATASET_ERRORS, settle, streamHead } from './dataset-shared.js';

const datasetIdParams = z.object({ datasetId: z.string() });

/** `_id` and `__v` of the activate and archive responses: internal, to be ignored by clients. */
const withInternals = (dataset: DatasetView) => ({ ...recordOf(dataset), _id: dataset.datasetId.replace(/-/g, '').slice(0, 24), __v: dataset.version });
const recordOf = ({ version: _version, styling: _styling, sizing: _sizing, ...record }: DatasetView) => record;

export const datasetRoutes = (context: CatalogueContext) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);

  /** The dataset after a command, from the read model once it has caught up. */
  const afterCommand = async (organizationId: string, datasetId: string, position: Parameters<typeof context.waitFor>[0] | null): Promise<DatasetView> => {
    await context.waitFor(position ?? (await streamHead(context.eventStore, `dataset-${datasetId}`)), CATALOGUE_PROJECTIONS);
    const dataset = await getDataset(context.db, organizationId, datasetId);
    if (!dataset) throw new DatasetNotFound(datasetId, organizationId);
    return dataset;
  };

  /** Activate, archive, delete and update name a bad id and a missing dataset the same way. */
  const namedDatasetId = (datasetId: string, organizationId: string): string => {
    if (!datasetId.trim()) throw new Invalid(DATASET_ERRORS.invalidIdNamed);
    if (!isUuid(datasetId)) throw new DatasetNotFound(datasetId, organizationId);
    return datasetId;
  };

  routes.post(
    '/v1/datasets',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.create' },
      schema: { summary: 'Create a dataset', body: createDatasetBody, response: { 201: z.object({ datasetId: z.uuid(), dataset: datasetSchemas.record }) } },
    },
    async (request, reply) => {
      const { organizationId } = callerOf(request);
      const { datasetId, position } = await createDataset(context.eventStore, { organizationId, content: newDatasetContent(request.body) }, commandMeta(request));
      const dataset = await afterCommand(organizationId, datasetId, position);
      return reply.code(201).send({ datasetId, dataset: recordOf(dataset) });
    },
  );

  routes.get(
    '/v1/datasets',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.list' },
      schema: {
        summary: 'List datasets',
        description: 'Newest first, with item and queue counts.',
        querystring: validatedPage,
        response: { 200: z.object({ datasets: z.array(datasetSchemas.summary), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { datasets, total } = await listDatasets(context.db, callerOf(request).organizationId, page, limit);
      return { datasets, pagination: pagination(page, limit, total) };
    },
  );

  routes.get(
    '/v1/datasets/detect',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.detect' },
      schema: {
        summary: 'Detect datasets of a store',
        description: "The organization's datasets whose storeDomain, storeUrl host or storeId matches `origin` or `shop`.",
        querystring: z.object({ origin: z.string().max(2000).optional(), shop: z.string().max(2000).optional() }),
        response: { 200: z.object({ datasets: z.array(datasetSchemas.detected) }) },
      },
    },
    async (request) => ({ datasets: await detectDatasets(context.db, callerOf(request).organizationId, request.query.origin, request.query.shop) }),
  );

  routes.get(
    '/v1/datasets/genders',
    {
      config: { auth: 'public', resource: 'api.v1.datasets.genders' },
      schema: {
        summary: 'Available genders',
        description: 'Genders of live items in active datasets, with counts; `datasetIds` (comma-separated) narrows the scope.',
        querystring: z.object({ datasetIds: z.string().max(20_000).optional() }),
        response: { 200: z.object({ genders: z.array(z.object({ gender: z.enum(GENDERS), count: z.number().int() })) }) },
      },
    },
    async (request) => {
      const ids = request.query.datasetIds === undefined ? null : request.query.datasetIds.split(',').map((id) => id.trim()).filter(Boolean);
      const genders = await availableGenders(context.db, callerOf(request).organizationId, ids);
      return { genders: genders.filter((entry): entry is { gender: (typeof GENDERS)[number]; count: number } => (GENDERS as readonly string[]).includes(entry.gender)) };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.retrieve', organizationNotFound: 'please-check' },
      schema: { summary: 'Retrieve a dataset', params: datasetIdParams, response: { 200: z.object({ dataset: datasetSchemas.detail }) } },
    },
    async (request) => {
      const { datasetId } = request.params;
      if (!isUuid(datasetId)) throw new Invalid(DATASET_ERRORS.invalidId);
      const dataset = await getDataset(context.db, callerOf(request).organizationId, datasetId);
      if (!dataset) throw new NotFound(DATASET_ERRORS.notFoundForOrganization);
      const { active, archived, pending, processing, failed } = (await datasetCounts(context.db, [datasetId])).get(datasetId)!;
      const { organizationId: _org, autoPublish: _autoPublish, ...detail } = recordOf(dataset);
      return { dataset: { ...detail, items: { active, archived, pending, processing, failed } } };
    },
  );

  routes.patch(
    '/v1/datasets/:datasetId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.update' },
      schema: { summary: 'Update a dataset', description: 'Name and description are cut to their limits; metadata is replaced wholesale; config fields are merged.', params: datasetIdParams, body: updateDatasetBody, response: { 200: z.object({ dataset: datasetSchemas.record }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const datasetId = namedDatasetId(request.params.datasetId, organizationId);
      const { position } = await updateDataset(context.eventStore, { organizationId, datasetId, body: request.body }, commandMeta(request));
      return { dataset: recordOf(await afterCommand(organizationId, datasetId, position)) };
    },
  );

  routes.patch(
    '/v1/datasets/:datasetId/activate',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.activate', body: 'none' },
      schema: {
        summary: 'Activate a dataset',
        description: 'Items and sources switched off by an archive come back.',
        params: datasetIdParams,
        response: { 200: z.object({ activated: z.literal(true), alreadyActive: z.boolean(), archivedOthersCount: z.literal(0), dataset: datasetSchemas.internalRecord }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const datasetId = namedDatasetId(request.params.datasetId, organizationId);
      const { changed, position } = await activateDataset(context.eventStore, { organizationId, datasetId }, commandMeta(request));
      const dataset = await afterCommand(organizationId, datasetId, position);
      return { activated: true as const, alreadyActive: !changed, archivedOthersCount: 0 as const, dataset: withInternals(dataset) };
    },
  );

  routes.patch(
    '/v1/datasets/:datasetId/archive',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.archive', body: 'none' },
      schema: {
        summary: 'Archive a dataset',
        description: 'Data is kept; its items and sources are switched off until the dataset is activated again.',
        params: datasetIdParams,
        response: { 200: z.object({ archived: z.literal(true), alreadyArchived: z.boolean(), dataset: datasetSchemas.internalRecord }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const datasetId = namedDatasetId(request.params.datasetId, organizationId);
      const { changed, position } = await archiveDataset(context.eventStore, { organizationId, datasetId }, commandMeta(request));
      const dataset = await afterCommand(organizationId, datasetId, position);
      return { archived: true as const, alreadyArchived: !changed, dataset: withInternals(dataset) };
    },
  );

  routes.delete(
    '/v1/datasets/:datasetId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.delete' },
      schema: {
        summary: 'Delete a dataset',
        description: 'Permanently, with its items, queue rows, sources and pending sync jobs; photos are removed in the background.',
        params: datasetIdParams,
        response: {
          200: z.object({
            deleted: z.literal(true),
            deletedCount: z.literal(1),
            itemsDeletedCount: z.number().int(),
            queuedDeletedCount: z.number().int(),
            sourcesDeletedCount: z.number().int(),
            syncJobsDeletedCount: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const datasetId = namedDatasetId(request.params.datasetId, organizationId);
      const counted = await deletionCounts(context.db, organizationId, datasetId);
      const { position } = await deleteDataset(context.eventStore, { organizationId, datasetId }, commandMeta(request));
      await settle(context, position);
      await enqueueDatasetCleanup(context.queue, { organizationId, datasetId });
      return { deleted: true as const, deletedCount: 1 as const, ...counted };
    },
  );
};
