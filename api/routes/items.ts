// Items of a dataset (document 2 "Datasets", document 3 §3 Items): upload in either shape
// (item-upload.ts), the ingest queue, the live item list, one item whatever its status,
// publishing, and the audit trail of a dataset and of an item, read straight from their streams.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { setItemStatus } from '../../commands/items.js';
import { DatasetNotFound } from '../../domain/dataset/index.js';
import { Invalid, NotFound } from '../../domain/errors.js';
import { itemStream } from '../../domain/item/events.js';
import type { RecordedEvent } from '../../infra/eventstore/port.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { isUuid } from '../../projections/queries/rows.js';
import { getItem, listItems, listQueue } from '../../projections/queries/items.js';
import { zodRoutes } from '../plugins/validation.js';
import type { CatalogueContext } from './catalogue-context.js';
import { callerOf, commandMeta } from './context.js';
import { DATASET_ERRORS, settle } from './dataset-shared.js';
import { linkItem, type ImageLinks } from '../../domain/item/image-links.js';
import { itemSchema } from './item-schema.js';
import { pagination, paginationSchema, validatedPage } from './pagination.js';
import { itemUploadRoute } from './item-upload.js';

const itemParams = z.object({ datasetId: z.string(), itemId: z.string() });
const datasetParams = z.object({ datasetId: z.string() });

const historyEvent = z.object({
  eventId: z.uuid(),
  type: z.string(),
  at: z.string(),
  // `account` (a signed-in person) appears only on file uploads, never in a dataset's history; the
  // type is shared with every event's envelope.
  actor: z.object({ kind: z.enum(['key', 'source', 'system', 'account']), id: z.string() }),
  data: z.record(z.string(), z.unknown()),
});

export const itemRoutes = (context: CatalogueContext & ImageLinks) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);

  /** The organization's dataset, or the named 404 of document 2. */
  const datasetOf = async (organizationId: string, datasetId: string) => {
    if (!datasetId.trim()) throw new Invalid(DATASET_ERRORS.invalidIdNamed);
    const dataset = await getDataset(context.db, organizationId, datasetId);
    if (!dataset) throw new DatasetNotFound(datasetId, organizationId);
    return dataset;
  };

  app.register(itemUploadRoute(context, datasetOf));

  routes.get(
    '/v1/datasets/:datasetId/items/queue',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.items.queue' },
      schema: {
        summary: 'Ingest queue',
        description: 'Queue rows of every status except archived, newest first.',
        params: datasetParams,
        querystring: validatedPage,
        response: {
          200: z.object({
            queue: z.array(z.object({ itemId: z.uuid(), sku: z.string(), status: z.string(), attempts: z.number().int(), error: z.string().nullable(), queuedAt: z.string(), updatedAt: z.string() })),
            pagination: paginationSchema,
          }),
        },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { page, limit } = request.query;
      const { queue, total } = await listQueue(context.db, organizationId, dataset.datasetId, page, limit);
      return { queue, pagination: pagination(page, limit, total) };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/items',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.items.list' },
      schema: {
        summary: 'List items',
        description: 'Active items only, newest first.',
        params: datasetParams,
        querystring: validatedPage,
        response: { 200: z.object({ items: z.array(itemSchema), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { page, limit } = request.query;
      const { items, total } = await listItems(context.db, organizationId, dataset.datasetId, page, limit);
      return { items: items.map((item) => linkItem(item, context.baseUrl)), pagination: pagination(page, limit, total) };
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/items/:itemId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.items.retrieve' },
      schema: { summary: 'Retrieve an item', description: 'Any status, archived included.', params: itemParams, response: { 200: z.object({ item: itemSchema }) } },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const item = await getItem(context.db, organizationId, dataset.datasetId, request.params.itemId);
      if (!item) throw new NotFound(`Item '${request.params.itemId}' not found in dataset '${dataset.datasetId}'.`);
      return { item: linkItem(item, context.baseUrl) };
    },
  );

  routes.patch(
    '/v1/datasets/:datasetId/items/:itemId',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.items.update' },
      schema: {
        summary: 'Publish or withdraw an item',
        params: itemParams,
        body: z.object({ status: z.enum(['active', 'archived'], { error: 'status must be active or archived.' }) }),
        response: { 200: z.object({ item: itemSchema }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { itemId } = request.params;
      const notFound = new NotFound(`Item '${itemId}' not found in dataset '${dataset.datasetId}'.`);
      if (!isUuid(itemId)) throw notFound;
      const { position } = await setItemStatus(context.eventStore, { organizationId, datasetId: dataset.datasetId, itemId, status: request.body.status }, commandMeta(request)).catch((error) => {
        throw error instanceof NotFound ? notFound : error;
      });
      await settle(context, position);
      const item = await getItem(context.db, organizationId, dataset.datasetId, itemId);
      if (!item) throw notFound;
      return { item: linkItem(item, context.baseUrl) };
    },
  );

  /** One page of a stream's audit trail; `belongs` sees the first event, to keep streams of other datasets out. */
  const history = async (streamId: string, page: number, limit: number, belongs: (first: RecordedEvent | undefined) => boolean = () => true) => {
    const recorded = await context.eventStore.readStream(streamId);
    if (!belongs(recorded[0])) return null;
    const events = recorded.slice((page - 1) * limit, page * limit).map((event) => ({
      eventId: event.id,
      type: event.type,
      at: event.metadata.at ?? event.recordedAt,
      actor: event.metadata.actor ?? { kind: 'system' as const, id: 'unknown' },
      data: event.data,
    }));
    return { events, pagination: pagination(page, limit, recorded.length) };
  };

  routes.get(
    '/v1/datasets/:datasetId/history',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.history' },
      schema: {
        summary: "A dataset's audit trail",
        description: 'Every change to the dataset, oldest first, with who made it.',
        params: datasetParams,
        querystring: validatedPage,
        response: { 200: z.object({ events: z.array(historyEvent), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const dataset = await datasetOf(callerOf(request).organizationId, request.params.datasetId);
      return (await history(`dataset-${dataset.datasetId}`, request.query.page, request.query.limit))!;
    },
  );

  routes.get(
    '/v1/datasets/:datasetId/items/:itemId/history',
    {
      config: { auth: 'private', resource: 'api.v1.datasets.history' },
      schema: {
        summary: "An item's audit trail",
        description: 'Every upload, sync, processing and status change of the item, oldest first, with who made it.',
        params: itemParams,
        querystring: validatedPage,
        response: { 200: z.object({ events: z.array(historyEvent), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const dataset = await datasetOf(organizationId, request.params.datasetId);
      const { itemId } = request.params;
      // The stream must be this dataset's item: ids are not secret, organizations are.
      const found = isUuid(itemId) ? await history(itemStream(itemId), request.query.page, request.query.limit, (first) => first?.data.datasetId === dataset.datasetId) : null;
      if (!found) throw new NotFound(`Item '${itemId}' not found in dataset '${dataset.datasetId}'.`);
      return found;
    },
  );
};

