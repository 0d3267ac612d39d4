// POST /v1/search (document 3 §3 "Search"; document 1's response-only product fields): the
// shopper's search box, public key or demo. The route checks the body and hands it to the query.
// With the widget session's `sessionId`, the results are recorded on that session as shown by the
// service (SearchResultsShown), which is what assisted revenue counts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COLOR_FAMILIES, FITS, GENDERS, MATERIALS, PATTERNS, SLOTS } from '../../domain/catalogue/vocabulary.js';
import { MARKET_FALLBACKS } from '../../domain/pricing/index.js';
import { STORE_MESSAGE, storeSchema } from '../../domain/store-scope.js';
import { searchCatalogue, type SearchDeps } from '../../projections/queries/search/index.js';
import { searchAnswerBytes } from './answer-text.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf, commandMeta, type RouteContext } from './context.js';
import type { ImageLinks } from '../../domain/item/image-links.js';
import { itemSchema, variantSchema } from './item-schema.js';
import type { ShopperEventRecorder } from '../../commands/shopper-events.js';

export interface SearchContext extends RouteContext {
  search: Omit<SearchDeps, 'db'>;
  /** Records what a search with a `sessionId` showed; without it nothing is recorded. */
  sessions?: ShopperEventRecorder;
  /** Where a recording that failed is reported (the search answers all the same). */
  onSessionRecordError?: (error: unknown) => void;
}

export const SEARCH_LIMITS = { query: 500, limit: 100, defaultLimit: 20, datasetIds: 100, price: 1e9 };

export const searchMessages = {
  query: `query must be a string of 1 to ${SEARCH_LIMITS.query} characters.`,
  limit: `limit must be an integer from 1 to ${SEARCH_LIMITS.limit}.`,
  datasetIds: `datasetIds must be an array of at most ${SEARCH_LIMITS.datasetIds} dataset ids.`,
  store: STORE_MESSAGE,
  country: 'country must be a 2-letter ISO 3166-1 country code.',
  filters: 'filters must be an object.',
  oneOf: (field: string, values: readonly string[]) => `filters.${field} must be one of: ${values.join(', ')}.`,
  price: (field: string) => `filters.${field} must be a number from 0 to ${SEARCH_LIMITS.price}.`,
  onSale: 'filters.onSale must be a boolean.',
  family: 'filters.family must be a string of 1 to 100 characters.',
  priceOrder: 'filters.minPrice must not be above filters.maxPrice.',
  sessionId: 'sessionId must be a uuid (session.sessionId from GET /v1/widget/preflight).',
};

const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) => z.enum(values, { error: searchMessages.oneOf(field, values) }).optional();
const price = (field: string) => z.number({ error: searchMessages.price(field) }).min(0, searchMessages.price(field)).max(SEARCH_LIMITS.price, searchMessages.price(field)).optional();

const body = z.object({
  query: z.string({ error: searchMessages.query }).trim().min(1, searchMessages.query).max(SEARCH_LIMITS.query, searchMessages.query),
  limit: z
    .number({ error: searchMessages.limit })
    .int(searchMessages.limit)
    .min(1, searchMessages.limit)
    .max(SEARCH_LIMITS.limit, searchMessages.limit)
    .default(SEARCH_LIMITS.defaultLimit),
  datasetIds: z.array(z.string({ error: searchMessages.datasetIds }).max(100, searchMessages.datasetIds), { error: searchMessages.datasetIds }).max(SEARCH_LIMITS.datasetIds, searchMessages.datasetIds).optional(),
  sessionId: z
    .uuid({ error: searchMessages.sessionId })
    .transform((id) => id.toLowerCase())
    .nullish()
    .describe("The widget session's `session.sessionId` from preflight: the results are recorded as shown in it, for assisted revenue. Never used for authorization."),
  store: storeSchema.nullish(),
  country: z
    .string({ error: searchMessages.country })
    .trim()
    .regex(/^[A-Za-z]{2}$/, searchMessages.country)
    .transform((code) => code.toUpperCase())
    .nullish(),
  filters: z
    .object(
      {
        slot: oneOf('slot', SLOTS),
        family: z.string({ error: searchMessages.family }).trim().min(1, searchMessages.family).max(100, searchMessages.family).optional(),
        gender: oneOf('gender', GENDERS),
        color_family: oneOf('color_family', COLOR_FAMILIES),
        pattern: oneOf('pattern', PATTERNS),
        material: oneOf('material', MATERIALS),
        fit: oneOf('fit', FITS),
        minPrice: price('minPrice'),
        maxPrice: price('maxPrice'),
        onSale: z.boolean({ error: searchMessages.onSale }).optional(),
      },
      { error: searchMessages.filters },
    )
    .refine((f) => f.minPrice === undefined || f.maxPrice === undefined || f.minPrice <= f.maxPrice, { message: searchMessages.priceOrder, path: ['minPrice'] })
    .nullish(),
});

export const pricedProduct = itemSchema.shape.product.extend({
  variants: z.array(variantSchema),
  marketExact: z.boolean(),
  marketFallback: z.enum(MARKET_FALLBACKS as unknown as [string, ...string[]]).optional(),
  available: z.boolean(),
  onSale: z.boolean(),
  discount: z.number().int(),
  referencePrice: z.number(),
  referenceCurrency: z.string(),
});

/** The answer's shape: documented from it, and held to it by the tests (test/api/search*.test.ts), not per request. */
export const searchResponse = z.object({
  results: z.array(z.object({ itemId: z.uuid(), datasetId: z.uuid(), score: z.number(), metadata: itemSchema.shape.metadata, product: pricedProduct })),
  market: z.object({ country: z.string().nullable(), currency: z.string(), exact: z.boolean() }),
});

export const searchRoutes = (context: SearchContext & ImageLinks) => (app: FastifyInstance) => {
  zodRoutes(app).post(
    '/v1/search',
    {
      config: { auth: 'public', resource: 'api.v1.search.query' },
      schema: {
        summary: 'Search the catalogue',
        description:
          'Hybrid search (full text, labelled attributes, vectors) over active items of active datasets: `datasetIds`, else the `store`, else every active dataset. ' +
          'Prices, stock and sale fields are in the market of `country`; products the shopper cannot buy there come last, with `available: false`.',
        body,
        response: { 200: searchResponse },
      },
      // The busiest route answers without its response checked against the schema: the check cost
      // about 4% of a search's CPU (bench/search.ts profile, 2026-11-27) to re-check bodies the
      // projector prepared and typed code assembled. The tests parse the answers they get with
      // `searchResponse` and require them unchanged by it, so a field out of shape or one too many
      // fails there instead. The answer goes out as bytes made with each shown product's stored
      // fields encoded once (answer-text.ts), so no serializer runs: they are what JSON.stringify
      // of the answer with its photos linked gives.
    },
    async (request, reply) => {
      const { query, limit, datasetIds, store, country, filters, sessionId } = request.body;
      const found = await searchCatalogue(
        { db: context.db, ...context.search },
        {
          organizationId: callerOf(request).organizationId,
          query,
          limit,
          ...(datasetIds ? { datasetIds } : {}),
          store: store ?? null,
          country: country ?? null,
          ...(filters ? { filters } : {}),
        },
      );
      if (sessionId && context.sessions) {
        const caller = callerOf(request);
        const shown = found.results.map(({ itemId, datasetId }) => ({ itemId, datasetId }));
        // Recorded before the answer, so whatever the shopper does next comes after it; a failure costs the attribution, not the search.
        await context.sessions
          .recordSearchResults({ sessionId, organizationId: caller.organizationId, demo: caller.demo, shown }, commandMeta(request))
          .catch((error: unknown) => context.onSessionRecordError?.(error));
      }
      // Its photos are linked as the answer is written. The bytes are the JSON of the response
      // schema's shape, which the type provider knows only as an object.
      const bytes = searchAnswerBytes(found, context.baseUrl) as unknown as z.infer<typeof searchResponse>;
      return reply.type('application/json; charset=utf-8').send(bytes);
    },
  );
};
