// Upload items (document 3 §3 Items), in either shape. The body is read entry by entry as it
// arrives (upload-body.ts), so a request costs memory in proportion to its listings and one entry,
// never to the body's text or parsed tree; its answers are those of a body read whole.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uploadItems } from '../../commands/items.js';
import { getDataset, type DatasetView } from '../../projections/queries/datasets.js';
import { budgetedBody, declaredBody } from '../body-budget.js';
import { zodRoutes } from '../plugins/validation.js';
import type { CatalogueContext } from './catalogue-context.js';
import { callerOf, commandMeta } from './context.js';
import { settle } from './dataset-shared.js';
import { uploadBodyParser } from './upload-body.js';

export const UPLOAD_LIMIT = 1000;
/**
 * 1,000 entries (document 3) of real products: products.json products of seven real stores weigh
 * 3.0 KB on average, 8.3 KB at the 99th percentile and 11.8 KB at most, so 1,000 × 16 KB = 16 MB
 * holds a full upload of even the heaviest (11.8 MB) with room for ItemInput's longer fields. The
 * field bounds (ENTRY_LIMITS) cap one entry; this caps the request. The body is read entry by
 * entry, so what a request holds is its listings (about the body's size when descriptions fill
 * it). A bigger body answers 413 `Request body is too large.`
 */
export const UPLOAD_BODY_LIMIT = 16 * 1024 * 1024;

const uploadMessages = {
  shape: `Send items (ItemInput objects) or products (objects of a store's products.json): an array of 1 to ${UPLOAD_LIMIT} entries.`,
  both: 'Send items or products, not both.',
};

const entries = z.array(z.unknown(), { error: uploadMessages.shape });
const uploadBody = z
  .object({ items: entries.optional(), products: entries.optional() })
  .superRefine((body, context) => {
    // Both shapes at once is its own mistake, whatever their sizes.
    if (body.items && body.products) return void context.addIssue({ code: 'custom', message: uploadMessages.both });
    const list = body.items ?? body.products;
    if (!list || list.length < 1 || list.length > UPLOAD_LIMIT) context.addIssue({ code: 'custom', path: [body.products ? 'products' : 'items'], message: uploadMessages.shape });
  })
  .describe(`Either \`items\` (ItemInput) or \`products\` (Shopify products.json objects), 1 to ${UPLOAD_LIMIT}.`);

const datasetParams = z.object({ datasetId: z.string() });

/** `datasetOf`: the organization's dataset, or the route's 404 (shared with the other item routes). */
export const itemUploadRoute =
  (context: CatalogueContext, datasetOf: (organizationId: string, datasetId: string) => Promise<DatasetView>) => async (app: FastifyInstance) => {
    // The dataset the body parser read for its store URL, for the handler to use rather than read it again.
    const datasetRead = new WeakMap<object, DatasetView>();
    // Only this route reads its body this way: a content type parser of its own, in a scope of its own.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      uploadBodyParser({
        limit: UPLOAD_BODY_LIMIT,
        maxEntries: UPLOAD_LIMIT,
        // For the product pages of `products` entries; an unknown dataset is answered 404 by the handler, after the body's checks.
        storeUrl: async (request) => {
          const organizationId = request.caller?.organizationId ?? '';
          const { datasetId } = request.params as { datasetId: string };
          const dataset = await getDataset(context.db, organizationId, datasetId);
          if (dataset) datasetRead.set(request, dataset);
          return dataset?.config.storeUrl ?? '';
        },
      }),
    );
    zodRoutes(app).post(
      '/v1/datasets/:datasetId/items/upload',
      {
        bodyLimit: UPLOAD_BODY_LIMIT,
        // The body is read within the process's budget, paced, and its bytes count until the answer went out.
        preParsing: budgetedBody(context.uploadBudget, { bytes: (request) => declaredBody(request, UPLOAD_BODY_LIMIT) }),
        config: { auth: 'private', resource: 'api.v1.datasets.items.upload' },
        schema: {
          summary: 'Upload items',
          description:
            'Each entry is checked on its own: a bad one is listed under failures and the rest are queued. The same sku always maps to the same itemId. ' +
            'A body that arrives too slowly or not by its deadline is answered 408.',
          params: datasetParams,
          body: uploadBody,
          response: {
            202: z.object({
              queued: z.array(z.object({ itemId: z.uuid(), sku: z.string(), status: z.enum(['pending', 'partial_update', 'unchanged']) })),
              failures: z.array(z.object({ index: z.number().int(), sku: z.string().nullable(), error: z.string() })),
              summary: z.object({ total: z.number().int(), queued: z.number().int(), failed: z.number().int(), unchanged: z.number().int() }),
            }),
          },
        },
      },
      async (request, reply) => {
        const { organizationId } = callerOf(request);
        const dataset = datasetRead.get(request) ?? (await datasetOf(organizationId, request.params.datasetId));
        const shape = request.body.items ? 'items' : 'products';
        const outcome = await uploadItems(
          { store: context.eventStore, db: context.db, queue: context.queue },
          { organizationId, datasetId: dataset.datasetId, storeUrl: dataset.config.storeUrl ?? '', shape, entries: request.body.items ?? request.body.products ?? [] },
          commandMeta(request),
        );
        // A projection that does not catch up answers 500 with the reason (api/plugins/errors.ts).
        await settle(context, outcome.position);
        const { position: _position, ...body } = outcome;
        return reply.code(202).send(body);
      },
    );
  };
