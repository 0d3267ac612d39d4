// Routes declare their body, query, params and responses with zod; this plugin makes fastify
// validate with those schemas and turns a failure into document 2's validation errors:
//   one field wrong   → 422 { "error": "<its message>", "details": [{ path, message }] }
//   several are wrong → 422 { "error": "Validation failed.", "details": [{ path, message }, …] }
// (a single-field failure carries its details too, as document 2 says of data sources).
// Messages come from the schema (`z.string({ error: 'name is required.' })`); a check without
// its own message gets a plain one naming the field, so no zod jargon reaches a client.
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from './errors.js';

export type { ZodTypeProvider } from 'fastify-type-provider-zod';

export const VALIDATION_FAILED = 'Validation failed.';

export interface FieldError {
  /** Where the value sits in its part of the request: `name`, `config.storeUrl`, `items[2].sku`. */
  path: string;
  message: string;
}

/** The part of a request a schema checks, as fastify names it. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** The app with zod schemas giving route handlers their types: `zodRoutes(app).post(…)`. */
export const zodRoutes = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are checked against their schema too: a handler returning the wrong shape is a
  // 500 in the log rather than a silently different contract.
  app.setSerializerCompiler(serializerCompiler);
}

/**
 * The error a zod failure becomes. Also for handlers that check a part of a request themselves
 * (a list of events, say), so their errors look like every other validation error.
 */
export function validationError(issues: readonly z.core.$ZodIssue[], part: RequestPart = 'body'): HttpError {
  const details = fieldErrors(issues, part);
  const only = details.length === 1 ? details[0] : undefined;
  return new HttpError(422, only ? only.message : VALIDATION_FAILED, { details });
}

/** Parses with the same messages as route validation; throws the 422 on failure. */
export function parseOrThrow<T extends z.core.$ZodType>(schema: T, value: unknown, part: RequestPart = 'body'): z.output<T> {
  const result = z.safeParse(schema, value, { error: fallbackMessage(part) });
  if (!result.success) throw validationError(result.error.issues, part);
  return result.data;
}

/** One entry per field, in the order zod found them; a field's first problem speaks for it. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], part: RequestPart = 'body'): FieldError[] {
  const byPath = new Map<string, string>();
  for (const issue of issues) {
    const path = formatPath(issue.path, part);
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

const zodValidatorCompiler: FastifySchemaCompiler<z.core.$ZodType> = ({ schema, method, url, httpPart }) => {
  if (!(schema instanceof z.core.$ZodType)) {
    throw new Error(`${method} ${url}: the ${httpPart ?? 'request'} schema must be a zod schema`);
  }
  const part = (httpPart ?? 'body') as RequestPart;
  const error = fallbackMessage(part);
  return (data) => {
    const result = z.safeParse(schema, data, { error });
    return result.success ? { value: result.data } : { error: validationError(result.error.issues, part) };
  };
};

// The root of each part, for the rare check on the whole object (a refine, unknown keys).
const ROOT_LABEL: Record<RequestPart, string> = { body: 'Request body', querystring: 'Query', params: 'Path', headers: 'Headers' };

const formatPath = (path: readonly PropertyKey[] | undefined, part: RequestPart): string => {
  if (!path || path.length === 0) return part === 'querystring' ? 'query' : part;
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
};

const label = (path: readonly PropertyKey[] | undefined, part: RequestPart): string =>
  path && path.length > 0 ? formatPath(path, part) : ROOT_LABEL[part];

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  date: 'a date',
  bigint: 'an integer',
};

const quoteAll = (values: readonly unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ');

const sizeMessage = (field: string, origin: string, bound: number | bigint, inclusive: boolean | undefined, least: boolean): string => {
  const limit = Number(bound);
  if (origin === 'string') {
    if (least && limit === 1) return `${field} must not be empty.`;
    return `${field} must be ${least ? 'at least' : 'at most'} ${limit} characters.`;
  }
  if (origin === 'array' || origin === 'set') {
    if (least && limit === 1) return `${field} must have at least one entry.`;
    return `${field} must have ${least ? 'at least' : 'at most'} ${limit} entries.`;
  }
  if (inclusive === false) return `${field} must be ${least ? 'greater' : 'less'} than ${limit}.`;
  return `${field} must be ${least ? 'at least' : 'at most'} ${limit}.`;
};

const FORMAT_NAMES: Record<string, string> = {
  url: 'a valid URL',
  uuid: 'a valid uuid',
  guid: 'a valid uuid',
  email: 'a valid email address',
  datetime: 'an ISO 8601 date-time',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM:SS)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 range (CIDR)',
  cidrv6: 'an IPv6 range (CIDR)',
};

/**
 * A per-parse error map: zod uses it only where the schema gave no message of its own, so the
 * schema's words always win.
 */
const fallbackMessage =
  (part: RequestPart) =>
  (issue: z.core.$ZodRawIssue): string => {
    const field = label(issue.path, part);
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined) return `${field} is required.`;
        return `${field} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
      case 'too_small':
        return sizeMessage(field, issue.origin, issue.minimum, issue.inclusive, true);
      case 'too_big':
        return sizeMessage(field, issue.origin, issue.maximum, issue.inclusive, false);
      case 'invalid_format':
        if (issue.format === 'regex') return `${field} has an invalid format.`;
        if (issue.format === 'starts_with' || issue.format === 'ends_with' || issue.format === 'includes') return `${field} has an invalid format.`;
        return `${field} must be ${FORMAT_NAMES[issue.format] ?? `a valid ${issue.format}`}.`;
      case 'invalid_value':
        return issue.values.length === 1 ? `${field} must be ${quoteAll(issue.values)}.` : `${field} must be one of ${quoteAll(issue.values)}.`;
      case 'not_multiple_of':
        return `${field} must be a multiple of ${Number(issue.divisor)}.`;
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
      default:
        return `${field} is invalid.`;
    }
  };
