// The OpenAPI 3.1 document, built from the same zod schemas that validate requests, at
// GET /openapi.json, and a reference page at GET /docs. Every route registered after this plugin
// appears with no extra work: its key type, scope and quota resource come from its config, and
// so do the errors every metered route can return (document 1) and the Idempotency-Key header.
// The page's scripts and styles are served from node_modules by this server: it works offline.
import { readFileSync } from 'node:fs';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_KEY_HEADER, takesIdempotencyKey } from './idempotency.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
export const BEARER_SCHEME = 'bearerAuth';

export interface OpenApiOptions {
  title?: string;
  version?: string;
}

type JsonSchema = Record<string, unknown>;

const errorBody = (description: string): JsonSchema => ({
  description,
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
});

const validationErrorBody: JsonSchema = {
  description: "Validation failed: `error` is the field's own message when one field is wrong, else `Validation failed.`; `details` names each field.",
  type: 'object',
  properties: {
    error: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
    },
  },
  required: ['error'],
};

const rateLimitHeaders: JsonSchema = {
  'X-RateLimit-Resource': { type: 'string', description: 'The quota resource charged.' },
  'X-RateLimit-Quota-Limit': { type: 'string', description: 'Requests allowed this period, or `unlimited`.' },
  'X-RateLimit-Quota-Remaining': { type: 'string', description: 'Requests left this period, or `unlimited`.' },
  'X-RateLimit-Quota-Reset': { type: 'integer', description: 'Unix seconds when the period resets; absent when unlimited.' },
  'X-RateLimit-RPM-Limit': { type: 'integer', description: 'Requests per minute for the resource.' },
  'X-RateLimit-RPM-Remaining': { type: 'integer', description: 'Requests left in the window.' },
  'X-RateLimit-RPM-Reset': { type: 'integer', description: 'Unix seconds, 60 seconds after the response.' },
};

const packageVersion = (): string => {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version?: string }).version ?? '0.0.0';
};

// `/v1/widget/presets/:presetId` → `widget`; Swagger UI groups operations by tag.
const tagFor = (url: string): string => url.match(/^\/v\d+\/([^/]+)/)?.[1] ?? 'service';

const keyText = (config: Partial<FastifyContextConfig>): string => {
  if (config.auth === 'private-or-session') return 'Private key (`sgpt-sk-…`), or a signed-in session cookie when no valid private key is sent; a public key is refused.';
  if (config.auth === 'private') return `Private key (\`sgpt-sk-…\`)${config.scope ? `; a key with scopes needs \`${config.scope}\`` : ''}.`;
  return `Public key (\`sgpt-pk-…\`)${config.demo === false ? '' : '; the demo key is accepted'}.`;
};

/** The zod transform, then what the route's config says about keys, quota and idempotency. */
const describeRoute: SwaggerTransform = (input) => {
  const transformed = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const base = (transformed.schema ?? {}) as FastifySchema & JsonSchema;
  if (base.hide) return transformed;
  const route = input.route;
  const config: Partial<FastifyContextConfig> = route.config ?? {};
  const schema: FastifySchema & JsonSchema = { ...base };
  const response: Record<string, JsonSchema> = { ...((schema.response as Record<string, JsonSchema> | undefined) ?? {}) };
  const addResponse = (status: string, body: JsonSchema) => {
    if (!response[status]) response[status] = body;
  };
  const notes: string[] = [];

  schema.tags ??= [tagFor(input.url)];
  if (schema.body) addResponse('400', errorBody('`Request body must be valid JSON.` or `Request body must be a JSON object.`'));
  if (schema.body || schema.querystring || schema.params) addResponse('422', validationErrorBody);

  if (config.auth) {
    schema.security = [{ [BEARER_SCHEME]: [] }];
    schema['x-key-type'] = config.auth;
    if (config.scope) schema['x-scope'] = config.scope;
    if (config.auth === 'public') schema['x-demo'] = config.demo !== false;
    notes.push(keyText(config));
    addResponse('401', errorBody('The key is missing, of the wrong type or not recognized.'));
  }
  if (config.resource) {
    schema['x-resource'] = config.resource;
    notes.push(`Quota resource \`${config.resource}\`.`);
    addResponse('401', errorBody('The key is missing, of the wrong type or not recognized.'));
    addResponse('403', errorBody('No active subscription, no entitlement, access denied, a missing scope or a disallowed origin.'));
    addResponse('429', { ...errorBody('Monthly quota or RPM limit exceeded.'), headers: { ...rateLimitHeaders, 'Retry-After': { type: 'integer', description: 'Seconds.' } } });
    addResponse('500', errorBody('`Internal server error.`'));
    for (const [status, body] of Object.entries(response)) {
      response[status] = { ...body, headers: { ...rateLimitHeaders, ...((body.headers as JsonSchema | undefined) ?? {}) } };
    }
  }
  if (takesIdempotencyKey(route.method, config)) {
    const headers = (schema.headers as JsonSchema | undefined) ?? { type: 'object', properties: {} };
    schema.headers = {
      ...headers,
      properties: {
        ...(headers.properties as JsonSchema | undefined),
        [IDEMPOTENCY_KEY_HEADER]: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description:
            'Makes a retry safe: for 24 hours the same key with the same request returns the first response (with `Idempotent-Replayed: true`) without running it again.',
        },
      },
    };
    addResponse('409', errorBody('The Idempotency-Key was used with a different request, or its first request is still running.'));
  }

  if (notes.length) schema.description = [schema.description, notes.join(' ')].filter(Boolean).join('\n\n');
  if (Object.keys(response).length) schema.response = response;
  return { schema, url: transformed.url };
};

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): Promise<void> {
  const title = options.title ?? 'Stylist API';
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title,
        version: options.version ?? packageVersion(),
        description: 'A self-hostable AI stylist for online clothing stores. Errors are `{ "error": "<message>" }`.',
      },
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'An organization API key: `sgpt-pk-…` (public) or `sgpt-sk-…::…` (private), as each operation says.',
          },
        },
      },
    },
    transform: describeRoute,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    theme: { title },
    uiConfig: { deepLinking: true, showExtensions: true },
    // Only this server: the page must work with no network and load nothing from elsewhere.
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/ https:/g, '').replace(/ validator\.swagger\.io/g, '').replace(/ upgrade-insecure-requests;/, ''),
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
