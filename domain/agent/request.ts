// The body of POST /v2/agent/chat (document 2, its request table), read field by field with each
// field's default and rule. What the spec leaves to us, chosen here and in docs/storefront.md ("The stylist agent"):
//   thinking   levels none, low, medium, high (THINKING_LEVELS; every model of this build takes
//              all four); anything else, a number included, is the 422 naming them.
//   page       not an object (or null) → 422; inside it, `product` is read by name: a field of the
//              wrong type is ignored, text is cut, numbers clamped, at most 60 variants read, and a
//              product without a `title` is ignored (PAGE_LIMITS).
//   country    a string of two letters in any case is the shopper's country; anything else is an
//              unknown country (null), never a 422.
//   cart       kept as sent (any non-null value enables the cart tools); the cart tools read it
//              (cart.ts) and report what they cannot read.
//   sessionId  a string of at most 100 characters or null; it binds intents and, when it is a
//              widget session's uuid, records the turn on that session.
//   session    an object or null; its six fields are read by name, cut, others ignored.
// Pure.
import { z } from 'zod';
import { STORE_MESSAGE, storeSchema } from '../store-scope.js';
import { messagesSchema, type HistoryEntry } from './messages.js';
import { readPageProduct, type PageProduct } from './page.js';

export const THINKING_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export const requestErrors = {
  thinking: (levels: readonly string[] = THINKING_LEVELS) => `Unsupported thinking level. Accepted levels: ${levels.join(', ')}.`,
  datasetIds: 'datasetIds must be an array of dataset ids.',
  store: STORE_MESSAGE,
  page: 'page must be an object or null.',
  sessionId: 'sessionId must be a string of at most 100 characters, or null.',
  session: 'session must be an object or null.',
} as const;

export interface AgentSessionInfo {
  surface: string;
  agentVersion: string | null;
  storageMode: string;
  tz: string | null;
  locale: string | null;
  device: string | null;
}

export interface ChatRequest {
  messages: HistoryEntry[];
  /** Empty: every active dataset of the organization, narrowed by `store`. */
  datasetIds: string[];
  /** As sent; null without cart capability. */
  cart: unknown;
  thinking: ThinkingLevel;
  page: { product: PageProduct | null } | null;
  stream: boolean;
  sessionId: string | null;
  session: AgentSessionInfo | null;
  store: { origin: string | null; shop: string | null } | null;
  /** Upper-case ISO 3166-1 alpha-2, or null when absent or not a two-letter code. */
  country: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JavaScript's truthiness, as document 2 words it: omitted is true. */
export const readStream = (value: unknown): boolean => (value === undefined ? true : Boolean(value));

/** absent, null, false and true are `low`; a string names a level; anything else is refused (null). */
export function readThinking(value: unknown, accepted: readonly string[] = THINKING_LEVELS): ThinkingLevel | null {
  if (value === undefined || value === null || value === false || value === true) return 'low';
  if (typeof value === 'string' && accepted.includes(value.trim().toLowerCase())) return value.trim().toLowerCase() as ThinkingLevel;
  return null;
}

export const readCountry = (value: unknown): string | null => (typeof value === 'string' && /^\s*[A-Za-z]{2}\s*$/.test(value) ? value.trim().toUpperCase() : null);

const cutText = (value: unknown, max: number): string | null => (typeof value === 'string' ? value.slice(0, max) : null);

function readSession(value: Record<string, unknown>): AgentSessionInfo {
  return {
    surface: cutText(value.surface, 40) || 'widget',
    agentVersion: cutText(value.agentVersion, 20),
    storageMode: cutText(value.storageMode, 20) || 'memory',
    tz: cutText(value.tz, 64),
    locale: cutText(value.locale, 35),
    device: cutText(value.device, 20),
  };
}

/** The body's schema; `thinking` is checked against the running model's levels. */
export const chatRequestSchema = (acceptedThinking: readonly string[] = THINKING_LEVELS) =>
  z
    .object(
      {
        messages: messagesSchema,
        datasetIds: z
          .array(z.string({ error: requestErrors.datasetIds }).max(100, requestErrors.datasetIds), { error: requestErrors.datasetIds })
          .max(100, requestErrors.datasetIds)
          .nullish(),
        cart: z.unknown().optional(),
        thinking: z.unknown().optional(),
        page: z.unknown().optional(),
        stream: z.unknown().optional(),
        sessionId: z.string({ error: requestErrors.sessionId }).max(100, requestErrors.sessionId).nullish(),
        session: z.unknown().optional(),
        store: storeSchema.nullish(),
        country: z.unknown().optional(),
      },
      { error: 'Request body must be a JSON object.' },
    )
    .transform((body, context): ChatRequest => {
      const thinking = readThinking(body.thinking, acceptedThinking);
      if (thinking === null) {
        context.addIssue({ code: 'custom', message: requestErrors.thinking(acceptedThinking), path: ['thinking'] });
        return z.NEVER;
      }
      if (body.page !== undefined && body.page !== null && !isObject(body.page)) {
        context.addIssue({ code: 'custom', message: requestErrors.page, path: ['page'] });
        return z.NEVER;
      }
      if (body.session !== undefined && body.session !== null && !isObject(body.session)) {
        context.addIssue({ code: 'custom', message: requestErrors.session, path: ['session'] });
        return z.NEVER;
      }
      const page = isObject(body.page) ? { product: readPageProduct(body.page.product) } : null;
      return {
        messages: body.messages,
        datasetIds: body.datasetIds ?? [],
        cart: body.cart === undefined ? null : body.cart,
        thinking,
        page,
        stream: readStream(body.stream),
        sessionId: body.sessionId ?? null,
        session: isObject(body.session) ? readSession(body.session) : null,
        store: body.store ? { origin: body.store.origin ?? null, shop: body.store.shop ?? null } : null,
        country: readCountry(body.country),
      };
    });
