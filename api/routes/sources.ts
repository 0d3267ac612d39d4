// Data sources and their syncs (document 2 "Data sources and sync", document 3 §3): create, list
// with clamped pagination, update with every field message, delete; sync jobs (create, cancel,
// list, retrieve) and run logs.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSource, deleteSource, updateSource } from '../../commands/sources.js';
import { cancelSyncJob, requestSyncJob } from '../../commands/sync-jobs.js';
import { NotFound } from '../../domain/errors.js';
import { createSourceBody, DEFAULT_SYNC_PERIOD, resolveDefaultMarket, SourceNotActive, SourceNotFound, SyncJobNotFound, updateSourceBody } from '../../domain/source/index.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { isUuid } from '../../projections/queries/rows.js';
import { getSource, listSources } from '../../projections/queries/sources.js';
import { countSyncJobs, getSyncJob, listSyncJobs, listSyncLogs } from '../../projections/queries/sync.js';
import { zodRoutes } from '../plugins/validation.js';
import { clampedPage, truncated } from './pagination.js';
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
  config: z.object({
    endpoint: z.string(),
    disableGenerativeAssets: z.literal(true),
    markets: z.array(
      z.object({
        handle: z.string(),
        countries: z.array(z.string()),
        currency: z.string(),
        endpoint: z.string().nullable(),
        status: z.enum(['pending', 'read', 'unread']),
        reason: z.string().nullable(),
        products: z.number().int(),
        readAt: z.string().nullable(),
      }),
    ),
    defaultMarket: z.string().nullable(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const sourcePage = clampedPage(20, 100);

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
      const { endpoint, syncPeriod, status, markets, defaultMarket } = request.body;
      const { sourceId, position } = await createSource(
        { store: context.eventStore, queue: context.queue },
        {
          organizationId,
          datasetId: dataset.datasetId,
          endpoint,
          syncPeriod: syncPeriod ?? DEFAULT_SYNC_PERIOD,
          status: status ?? 'active',
          ...(markets?.length ? { markets, defaultMarket: resolveDefaultMarket(markets, defaultMarket) } : {}),
        },
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
      // Jobs on their own streams are not in the source's: the report counts them from the read model.
      const counts = await countSyncJobs(context.db, { organizationId, datasetId, sourceId });
      const { position, events } = await deleteSource(context.eventStore, { organizationId, datasetId, sourceId, counts }, commandMeta(request));
      if (position) await context.waitFor(position, PROJECTIONS);
      const deleted = events.find((event) => event.type === 'SourceDeleted');
      const reported = deleted?.type === 'SourceDeleted' ? deleted.data : { deletedLogs: 0, deletedJobs: 0 };
      return { success: true as const, deletedLogs: reported.deletedLogs, deletedJobs: reported.deletedJobs };
    },
  );

  syncRoutes(context, routes);
};

const jobSchema = z.object({
  jobId: z.uuid(),
  sourceId: z.uuid(),
  datasetId: z.uuid(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  priority: z.number().int(),
  trigger: z.enum(['manual', 'schedule', 'source-created']),
  createdAt: z.string(),
  worker: z.object({ workerId: z.string().nullable(), lockedAt: z.string().nullable(), startedAt: z.string().nullable() }),
  result: z.object({ stats: stats.nullable(), completedAt: z.string().nullable(), error: z.string().nullable() }),
  logId: z.uuid().nullable(),
  retries: z.object({ count: z.number().int() }),
});
const logSchema = z.object({
  logId: z.uuid(),
  jobId: z.uuid(),
  status: z.enum(['running', 'completed', 'failed']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  stats: stats,
  entries: z.array(z.object({ at: z.string(), level: z.enum(['info', 'warn', 'error']), message: z.string(), sku: z.string().nullable() })),
});

const jobParams = z.object({ datasetId: z.string(), sourceId: z.string(), jobId: z.string() });

/** Sync jobs: `limit` 1 to 100 or a 422, first page only (document 1 §Pagination). */
export const SYNC_JOBS_LIMIT_MESSAGE = 'limit must be an integer between 1 and 100.';
const jobsQuery = z.object({ limit: truncated(SYNC_JOBS_LIMIT_MESSAGE, 1, 100, 20) });
/** Logs: clamped like sources, default 10, at most 50. */
const logPage = clampedPage(10, 50);

const existingMessage = (status: string) => `A sync job for this data source is already ${status === 'processing' ? 'running' : 'waiting to run'}; returning it instead of starting another.`;

function syncRoutes(context: CatalogueContext, routes: ReturnType<typeof zodRoutes>) {
  routes.post(
    '/v1/datasets/:datasetId/sources/:sourceId/sync/jobs',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.syncJobs.create', body: 'none' },
      schema: {
        summary: 'Sync a data source now',
        description: 'Enqueues a sync regardless of syncPeriod; a source with a pending or processing job gets that job back with `existing: true`.',
        params: sourceParams,
        response: {
          200: z.object({ success: z.literal(true), jobId: z.uuid(), status: z.enum(['pending', 'processing']), createdAt: z.string().optional(), existing: z.literal(true).optional(), message: z.string().optional() }),
        },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId } = request.params;
      const notFound = new NotFound(`Data source not found: ${sourceId}`);
      const dataset = isUuid(datasetId) && isUuid(sourceId) ? await getDataset(context.db, organizationId, datasetId) : null;
      if (!dataset) throw notFound;
      try {
        // An archived dataset switches its sources off: they read as inactive.
        if (dataset.status === 'archived' && (await getSource(context.db, organizationId, datasetId, sourceId))) throw new SourceNotActive();
        const { job, existing, position } = await requestSyncJob({ store: context.eventStore, queue: context.queue }, { organizationId, datasetId, sourceId }, 'manual', commandMeta(request));
        if (position) await context.waitFor(position, PROJECTIONS);
        const status = job.status as 'pending' | 'processing';
        return existing ? { success: true as const, jobId: job.jobId, status, existing: true as const, message: existingMessage(status) } : { success: true as const, jobId: job.jobId, status, createdAt: job.createdAt };
      } catch (error) {
        if (error instanceof SourceNotFound) throw notFound;
        throw error;
      }
    },
  );

  routes.post(
    '/v1/datasets/:datasetId/sources/:sourceId/sync/jobs/:jobId/cancel',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.syncJobs.cancel', body: 'none' },
      schema: { summary: 'Cancel a pending sync job', params: jobParams, response: { 200: z.object({ success: z.literal(true), message: z.string() }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId, jobId } = request.params;
      if (![datasetId, sourceId, jobId].every(isUuid)) throw new SyncJobNotFound();
      try {
        const { position } = await cancelSyncJob(context.eventStore, { organizationId, datasetId, sourceId, jobId }, commandMeta(request));
        if (position) await context.waitFor(position, PROJECTIONS);
      } catch (error) {
        if (error instanceof SourceNotFound) throw new SyncJobNotFound();
        throw error;
      }
      return { success: true as const, message: 'Sync job cancelled successfully' };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/sources/:sourceId/sync/jobs',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.syncJobs.list' },
      schema: {
        summary: 'List sync jobs',
        description: 'Newest first, first page only: `limit` 1 to 100 (default 20), anything else is a 422.',
        params: sourceParams,
        querystring: jobsQuery,
        response: { 200: z.object({ success: z.literal(true), jobs: z.array(jobSchema), pagination: z.object({ page: z.literal(1), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }) }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId } = request.params;
      if (!(await getSource(context.db, organizationId, datasetId, sourceId))) throw new SourceNotFound();
      const { limit } = request.query;
      const { jobs, total } = await listSyncJobs(context.db, { organizationId, datasetId, sourceId }, limit);
      return { success: true as const, jobs, pagination: { page: 1 as const, limit, total, totalPages: Math.ceil(total / limit) } };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/sources/:sourceId/sync/jobs/:jobId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.syncJobs.retrieve' },
      schema: { summary: 'Retrieve a sync job', params: jobParams, response: { 200: z.object({ success: z.literal(true), job: jobSchema }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId, jobId } = request.params;
      const job = await getSyncJob(context.db, { organizationId, datasetId, sourceId }, jobId);
      if (!job) throw new SyncJobNotFound();
      return { success: true as const, job };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/sources/:sourceId/logs',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.sources.logs' },
      schema: {
        summary: 'Sync logs',
        description: 'One log per run a worker started, newest first, with its entries; page and limit are clamped (limit 1 to 50, default 10).',
        params: sourceParams,
        querystring: logPage,
        response: { 200: z.object({ success: z.literal(true), logs: z.array(logSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { datasetId, sourceId } = request.params;
      if (!(await getSource(context.db, organizationId, datasetId, sourceId))) throw new SourceNotFound();
      const { page, limit } = request.query;
      const { logs, total } = await listSyncLogs(context.db, { organizationId, datasetId, sourceId }, page, limit);
      return { success: true as const, logs, total, page, limit };
    },
  );
}
