// What the fuzz tests share: a service with two organizations on unlimited plans, their keys
// (one limited to a website, an IP range and a scope), a fixture of ids made through the API, the
// routes to fuzz with what the OpenAPI document says of them, and the property every answer meets.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Test } from 'tap';
import { z } from 'zod';
import { itemInputSchema, shopifyProductSchema } from '../../domain/catalogue/product-input.js';
import { BASIC_SLOTS, RULE_IDS } from '../../domain/styling/settings.js';
import { COLOUR_FIELDS } from '../../domain/widget-preset/fields.js';
import { openApiPath, routeTable, type TableRoute } from './route-table.js';
import { startTestService, type TestService } from './service.js';

export const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
export const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
export const ONLY = process.env.FUZZ_ROUTE;

/** Routes the fuzzer leaves alone, and why. Each must still match a route (no stale entries). */
export const EXCLUDED: Array<{ prefix: string; reason: string }> = [
  { prefix: '/docs', reason: "@fastify/swagger-ui's reference page and static files: HTML and scripts from node_modules, no input of ours is read" },
];

/** Bodies a route checks by hand rather than by its zod schema: the shape to aim at. */
const io = { io: 'input', unrepresentable: 'any' } as const;
export const HAND_CHECKED_BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/datasets/:datasetId/items/upload': {
    type: 'object',
    properties: { items: { type: 'array', items: z.toJSONSchema(itemInputSchema, io) }, products: { type: 'array', items: z.toJSONSchema(shopifyProductSchema, io) } },
  },
  'PUT /v1/datasets/:datasetId/styling': {
    type: 'object',
    properties: {
      styling: {
        type: 'object',
        properties: {
          off: { type: 'array', items: { enum: [...RULE_IDS] } },
          basics: { type: 'array', items: { type: 'object', properties: { basicId: { type: 'string', format: 'uuid' }, text: { type: 'string', maxLength: 80 }, slot: { enum: [...BASIC_SLOTS] } } } },
          choosing: { type: 'string', maxLength: 1200 },
          picture: { type: 'string', maxLength: 1200 },
          tryOn: { type: 'boolean' },
        },
      },
      sizing: { type: 'object', properties: { brandSizes: { type: 'object', properties: { enabled: { type: 'boolean' }, logos: { type: 'boolean' }, excludedBrands: { type: 'array', items: { type: 'string' } } } } } },
    },
  },
};

export type Ids = Record<'datasetId' | 'itemId' | 'sourceId' | 'jobId' | 'presetId' | 'chatId', string>;
export interface Org {
  privateKey: string;
  publicKey: string;
  /** A key of the same organization limited to one website, private use from 10.0.0.0/8, and the widget scope. */
  restricted: { privateKey: string; publicKey: string };
  service: TestService;
}

export interface FuzzRequest {
  method: HTTPMethods;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Sent this many times at once: a retry racing its original (idempotency claims, revision conflicts). */
  copies: number;
}

export const clip = (text: string, max = 400): string => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);
export const show = (request: FuzzRequest, status: number | string, body: string): string =>
  [
    `${request.method} ${clip(request.url, 300)}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 200)}`),
    request.payload === undefined ? '(no body)' : Buffer.isBuffer(request.payload) ? `body bytes ${clip(request.payload.toString('hex'))}` : `body ${clip(JSON.stringify(request.payload))}`,
    `→ ${status} ${clip(body)}`,
  ].join('\n  ');

/** What is wrong with an answer, or null: a 5xx, or a 4xx that is not `{ "error": "…" }`. */
export function problemWith(status: number, contentType: string, body: string): string | null {
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return null;
  if (!contentType.startsWith('application/json')) return `a ${status} with Content-Type ${contentType || '(none)'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  return typeof error === 'string' && error !== '' ? null : `a ${status} without an error string`;
}

export const fuzzService = async (t: Test, options: { workers?: string[] } = {}) => {
  // Unlimited plans and a generous demo key: a 429 would hide every check behind it.
  const service = await startTestService(t, { env: { DEMO_RPM: '1000000', DEMO_QUOTA: '1000000000' }, ...options });
  const own = await service.cli(['org', 'create', '--name', 'Fuzz Apparel', '--plan', 'unlimited', '--json']);
  const other = await service.cli(['org', 'create', '--name', 'Other Apparel', '--plan', 'unlimited', '--json']);
  const document = (await service.app.inject({ url: '/openapi.json' })).json();
  const restrict = async (organizationId: string) => {
    const key = await service.cli(
      ['key', 'create', '--org', organizationId, '--name', 'Restricted', '--public-access', 'websites', '--website', 'shop.example.com', '--private-access', 'ips', '--ip', '10.0.0.0/8', '--scopes', 'widget', '--json'],
    );
    return { privateKey: key.privateKey as string, publicKey: key.publicKey as string };
  };
  return {
    service,
    own: { privateKey: own.privateKey as string, publicKey: own.publicKey as string, restricted: await restrict(own.organizationId), service },
    other: { privateKey: other.privateKey as string, publicKey: other.publicKey as string, restricted: await restrict(other.organizationId), service },
    document: document as { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Record<string, unknown>> } },
  };
};

/** A dataset with an item, a source, a sync job, and a widget preset, made through the API. */
export async function makeIds(org: Org): Promise<Ids> {
  const call = async (method: HTTPMethods, url: string, payload?: object) => {
    const response = await org.service.app.inject({ method, url, headers: { authorization: `Bearer ${org.privateKey}` }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const { datasetId } = await call('POST', '/v1/datasets', { name: 'Fuzz', config: { storeUrl: 'https://shop.example.com', currency: 'EUR' } });
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const { queued } = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [{ sku: 'TEE-1', name: 'Crew Neck T-Shirt', price: 30 }] });
  const { source } = await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com' });
  const { jobId } = await call('POST', `/v1/datasets/${datasetId}/sources/${source.sourceId}/sync/jobs`);
  const colours = Object.fromEntries(COLOUR_FIELDS.map((field) => [field, '#112233']));
  const { preset } = await call('POST', '/v1/widget/presets', { name: 'Fuzz', buttonLabel: 'Style me', ...colours });
  return { datasetId, itemId: queued[0].itemId, sourceId: source.sourceId, jobId, presetId: preset.id, chatId: 'chat-1' };
}

export interface RouteInfo {
  route: TableRoute;
  keyType: 'private' | 'public' | undefined;
  body: Record<string, unknown> | undefined;
  queryNames: string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
}

/** The routes to fuzz: the route table less EXCLUDED. */
export const fuzzedRoutes = (app: FastifyInstance): TableRoute[] =>
  routeTable(app).filter((route) => !EXCLUDED.some(({ prefix }) => route.url === prefix || route.url.startsWith(`${prefix}/`)));

/** What the OpenAPI document (or HAND_CHECKED_BODIES) says a route takes. */
export function routeInfo(route: TableRoute, document: OpenApiDocument): RouteInfo {
  const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
  return {
    route,
    keyType: operation?.['x-key-type'],
    body: HAND_CHECKED_BODIES[`${route.method} ${route.url}`] ?? operation?.requestBody?.content?.['application/json']?.schema,
    queryNames: (operation?.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
  };
}

/** `$ref`s of the document's schemas. */
export const resolverOf = (document: OpenApiDocument) => (ref: string) => document.components?.schemas?.[ref.replace('#/components/schemas/', '')];
