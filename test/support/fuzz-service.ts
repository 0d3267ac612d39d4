// What the fuzz tests share: a service with two organizations on unlimited plans, their keys
// (one limited to a website, an IP range and a scope), a fixture of ids made through the API, the
// routes to fuzz with what the OpenAPI document says of them, and the property every answer meets.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Test } from 'tap';
import { z } from 'zod';
import { itemInputSchema, shopifyProductSchema } from '../../domain/catalogue/product-input.js';
import { BASIC_SLOTS, RULE_IDS } from '../../domain/styling/settings.js';
import { COLOUR_FIELDS } from '../../domain/widget-preset/fields.js';
import { webBundles } from '../../infra/web/bundles.js';
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
const text = { type: 'string', maxLength: 300 };
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const chatMessage = {
  oneOf: [
    {
      type: 'object',
      properties: {
        role: { const: 'user' },
        content: {
          oneOf: [
            text,
            {
              type: 'array',
              items: {
                oneOf: [
                  { type: 'object', properties: { type: { const: 'input_text' }, text } },
                  { type: 'object', properties: { type: { const: 'input_image' }, image: { enum: [PNG, 'data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQ', 'https://example.com/a.png'] } } },
                ],
              },
            },
          ],
        },
      },
    },
    { type: 'object', properties: { type: { const: 'message' }, role: { const: 'assistant' }, status: { const: 'completed' }, content: { type: 'array', items: { type: 'object', properties: { type: { const: 'output_text' }, text } } } } },
    { type: 'object', properties: { type: { const: 'function_call' }, callId: text, name: { enum: ['lookup_products', 'show_products', 'add_to_cart', 'nope'] }, arguments: text, status: { const: 'completed' } } },
    { type: 'object', properties: { type: { const: 'function_call_result' }, callId: text, name: text, status: { const: 'completed' }, output: { type: 'object', properties: { type: { const: 'text' }, text } } } },
  ],
};

/** Placeholders a hand-checked body names fixture ids by; `fixtureIdsIn` puts the ids in. */
export const FIXTURE_IDS = { ownItem: '@own.itemId', otherItem: '@other.itemId', ownDataset: '@own.datasetId', otherDataset: '@other.datasetId', ownChat: '@own.chatId', otherChat: '@other.chatId' } as const;

/** A body with FIXTURE_IDS' placeholders replaced by the ids of this run's organizations. */
export const fixtureIdsIn = (payload: string | Buffer, own: Pick<Ids, 'itemId' | 'datasetId' | 'chatId'>, other: Pick<Ids, 'itemId' | 'datasetId' | 'chatId'>): string | Buffer =>
  typeof payload !== 'string'
    ? payload
    : payload
        .replaceAll(FIXTURE_IDS.ownItem, own.itemId)
        .replaceAll(FIXTURE_IDS.otherItem, other.itemId)
        .replaceAll(FIXTURE_IDS.ownDataset, own.datasetId)
        .replaceAll(FIXTURE_IDS.otherDataset, other.datasetId)
        .replaceAll(FIXTURE_IDS.ownChat, own.chatId)
        .replaceAll(FIXTURE_IDS.otherChat, other.chatId);

/** A live widget session's token of the organization whose public key this is (from widget preflight). */
export async function sessionToken(service: TestService, publicKey: string): Promise<string> {
  const response = await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${publicKey}` } });
  if (response.statusCode !== 200) throw new Error(`fixture: preflight → ${response.statusCode} ${response.body}`);
  return response.json().session.token as string;
}

/** A v1 chat message (document 1): every role and part type, in and out of place. */
const v1Message = {
  type: 'object',
  properties: {
    role: { enum: ['user', 'assistant', 'system', 'robot'] },
    content: {
      oneOf: [
        text,
        {
          type: 'array',
          maxItems: 4,
          items: {
            type: 'object',
            properties: {
              type: { enum: ['input_text', 'input_image', 'output_text', 'output_slots', 'output_status', 'other'] },
              text,
              image_url: { enum: ['https://cdn.example.com/a.jpg', 'javascript:alert(1)', ''] },
              status: { enum: ['resolved', 'needs_clarification', 'done'] },
              generating: { type: 'boolean' },
              slots: {
                type: 'array',
                maxItems: 3,
                items: {
                  type: 'object',
                  properties: {
                    id: text,
                    type: { enum: ['search', 'outfit_compositions', 'x'] },
                    slot: text,
                    query: text,
                    filters: { type: 'object', properties: { color_family: text, minPrice: { type: 'number' }, boost_terms: { type: 'array', items: text } } },
                    results: { type: 'array', maxItems: 3, items: { type: 'object', properties: { itemId: text, description: text, displayOrder: { type: 'integer' } } } },
                    compositions: { type: 'array', items: text },
                  },
                },
              },
            },
          },
        },
      ],
    },
  },
};

export const HAND_CHECKED_BODIES: Record<string, Record<string, unknown>> = {
  // The conversation's four message shapes, and every field of document 2's table.
  'POST /v2/agent/chat': {
    type: 'object',
    properties: {
      messages: { type: 'array', items: chatMessage, maxItems: 6 },
      datasetIds: { type: 'array', items: { type: 'string', format: 'uuid' } },
      cart: {
        type: 'object',
        properties: {
          itemCount: { type: 'integer' },
          total: { type: 'number' },
          currency: { type: 'string', maxLength: 4 },
          items: { type: 'array', items: { type: 'object', properties: { key: text, title: text, variant: text, quantity: { type: 'integer' }, price: { type: 'number' }, sku: text, image: text } } },
        },
      },
      thinking: { enum: ['none', 'low', 'medium', 'high', 'max', true, false, null] },
      page: { type: 'object', properties: { product: { type: 'object', properties: { title: text, price: { type: 'integer' }, description: text, variants: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: text, available: { type: 'boolean' } } } } } } } },
      stream: { enum: [true, false, 0, 1, null, 'yes'] },
      sessionId: { type: 'string', format: 'uuid' },
      session: { type: 'object', properties: { device: text, tz: text } },
      store: { type: 'object', properties: { origin: text, shop: text } },
      country: { enum: ['us', 'CA', 'Germany', 'x', null] },
    },
  },
  // Shopper events near every bound: values at and past the bound of one event, currencies that
  // are and are not ISO 4217, items and datasets of this organization, of another and of nobody
  // (FIXTURE_IDS, put in by fixtureIdsIn), intents that do not verify.
  'POST /v1/events': {
    type: 'object',
    required: ['events'],
    properties: {
      events: {
        type: 'array',
        maxItems: 101,
        items: {
          type: 'object',
          // Mostly well-formed (repeats weigh a choice), so most requests reach the command.
          required: ['type', 'itemId', 'currency'],
          properties: {
            type: { enum: ['widget_open', 'message_sent', 'product_view', 'product_click', 'add_to_cart', 'cart_outcome', 'purchase', 'purchase', 'purchase', 'page_view'] },
            eventId: { enum: ['e1', 'e2', 'e3'] },
            itemId: { enum: [FIXTURE_IDS.ownItem, FIXTURE_IDS.ownItem, FIXTURE_IDS.otherItem, 'item-1', '00000000-0000-4000-8000-000000000000', 'constructor'] },
            datasetId: { enum: [FIXTURE_IDS.ownDataset, FIXTURE_IDS.otherDataset, 'dataset-1'] },
            intent: { enum: ['not-an-intent', 'eyJ4IjoxfQ.c2ln', 'eyJ4IjoxfQ.c2ln='] },
            value: { enum: [0, 0.01, 49.99, 1e6, 5e7, 99_999_999.99, 1e8, 1e8, 1e8 + 0.01, 1e9, 1e9 + 1, -1] },
            currency: { enum: ['CAD', 'CAD', 'cad', 'EUR', 'USD', 'VND', 'JPY', 'XYZ', 'XTS', 'HRK', 'EURO'] },
            at: { enum: ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00+05:30', '1970-01-01T00:00:00Z', 'yesterday'] },
            data: { type: 'object' },
          },
        },
      },
    },
  },
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
  // Chat v1: a message to this organization's chat, another's, a deleted or unknown one, or a new chat; the words at their bounds.
  'POST /v1/chat': {
    type: 'object',
    properties: {
      message: { enum: ['find a red dress', 'hello', '', '   ', 'x'.repeat(4_001), 42, null] },
      chatId: { enum: [FIXTURE_IDS.ownChat, FIXTURE_IDS.ownChat, FIXTURE_IDS.otherChat, '00000000-0000-4000-8000-000000000000', '  ', 'chat-1', null] },
      datasetIds: { type: 'array', items: { enum: [FIXTURE_IDS.ownDataset, FIXTURE_IDS.otherDataset, 'x'] } },
      stream: { enum: [true, false, 'yes', null] },
      country: { enum: ['US', 'de', 'Germany', null] },
    },
  },
  'PUT /v1/chat/:chatId/messages': { type: 'object', properties: { messages: { type: 'array', items: v1Message, maxItems: 8 } } },
  'POST /v1/chat/create': { type: 'object', properties: { messages: { type: 'array', items: v1Message, maxItems: 8 } } },
  // Looks: this organization's item (the fixture's is never processed: 422 like the other's and unknown ones), ratios in and out of bounds.
  'POST /v2/agent/looks': {
    type: 'object',
    properties: {
      itemIds: { type: 'array', items: { enum: [FIXTURE_IDS.ownItem, FIXTURE_IDS.otherItem, '00000000-0000-4000-8000-000000000000', 'x'] }, maxItems: 9 },
      label: text,
      customInstructions: text,
      preferences: { type: 'object', properties: { aspectRatio: { enum: ['3:4', '1:1', '21:9', '1:3', '3:1', '0:1', '22:21', '4:1', '3/4'] }, showPrices: { type: 'boolean' } } },
      userPhotoUrl: { enum: ['https://example.com/me.jpg', 'http://127.0.0.1/me.jpg', 'ftp://example.com/me.jpg', ''] },
      country: { enum: ['US', 'FR', 'xx', 'USA'] },
    },
  },
};

export type Ids = Record<'datasetId' | 'itemId' | 'sourceId' | 'jobId' | 'presetId' | 'chatId' | 'file', string>;
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
  if (contentType.startsWith('text/event-stream')) return streamProblem(body);
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

/** An agent stream ends with `done` or `error`, and an error after the stream opened is never an internal failure (a 500 in disguise). */
function streamProblem(body: string): string | null {
  const events = body.split('\n\n').flatMap((frame) => /^event: (\S+)/m.exec(frame)?.[1] ?? []);
  const last = events.at(-1);
  if (last !== 'done' && last !== 'error') return `a stream that ended on ${last ?? 'nothing'} (no done or error)`;
  if (last === 'error' && body.includes('"error":"Internal server error."')) return 'a stream that failed with an internal error';
  return null;
}

export const fuzzService = async (t: Test, options: { workers?: string[] } = {}) => {
  // Unlimited plans and a generous demo key: a 429 would hide every check behind it.
  // The events route's per-minute bounds too (EVENTS_SESSION_RPM, EVENTS_ADDRESS_RPM): every request comes from one session and address.
  const service = await startTestService(t, { env: { DEMO_RPM: '1000000', DEMO_QUOTA: '1000000000', EVENTS_SESSION_RPM: '100000', EVENTS_ADDRESS_RPM: '10000000' }, ...options });
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
  const { chat } = await call('POST', '/v1/chat/create', { messages: [{ role: 'user', content: 'Something for a wedding' }] });
  // `/widget/:file` and `/demo/:file`: the widget's current build (the storefront's is a 404 there, as any other name).
  const file = `${(await webBundles()).widget.hash}.js`;
  return { datasetId, itemId: queued[0].itemId, sourceId: source.sourceId, jobId, presetId: preset.id, chatId: chat.chatId, file };
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
