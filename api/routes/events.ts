// POST /v1/events (document 3 "Widget, events, analytics"): a storefront reports what its
// shoppers did in a widget session. No key: the session token from widget preflight, in
// `X-Service-Session`, says which organization and session the events belong to, for as long as
// its key and organization exist (auth/session-liveness.ts). Not metered against a plan (document
// 1: the route uses no key); bounded per session and per client address instead, and by the
// session's cap of events (domain/session/decide.ts); the per-minute bounds are counted with every
// other rate limit (api/plugins/metering.ts), so they hold across API processes. A currency must
// be ISO 4217 and a value within the bound of one event (else 422); what else cannot be taken on
// trust (whose items, whose intents, a session's revenue) is decided per event when recording
// (domain/session/admission.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ShopperEventRecorder } from '../../commands/shopper-events.js';
import { DEFAULT_SHOPPER_EVENT_LIMITS, isIsoCurrency, SHOPPER_EVENT_TYPES, type ShopperEvent, type ShopperEventLimits } from '../../domain/session/index.js';
import { readCartIntent } from '../../infra/tokens/cart-intent.js';
import { SessionLiveness } from '../auth/session-liveness.js';
import { readSessionToken, type WidgetSession } from '../auth/session-token.js';
import { HttpError } from '../plugins/errors.js';
import type { MinuteLimit } from '../plugins/metering.js';
import { zodRoutes } from '../plugins/validation.js';
import type { RouteContext } from './context.js';

export const SESSION_HEADER = 'x-service-session';
export const SESSION_MISSING = 'Session token missing or expired.';

export interface EventLimits extends ShopperEventLimits {
  /** Requests per minute one session may send (default 120). */
  sessionRpm: number;
  /** Requests per minute from one client address, all sessions together (default 1,200). */
  addressRpm: number;
}

export const DEFAULT_EVENT_LIMITS: EventLimits = { sessionRpm: 120, addressRpm: 1200, ...DEFAULT_SHOPPER_EVENT_LIMITS };

/** The counters of the per-minute bounds, named in a 429's `bucket`. */
export const EVENT_BUCKETS = { address: 'api.v1.events.address', session: 'api.v1.events.session' } as const;

export interface EventsContext extends RouteContext {
  serverSecret: string;
  eventLimits?: Partial<EventLimits>;
  /** Records on session streams; shared with the search route (default: one of the route's own). */
  sessions?: ShopperEventRecorder;
  /** Whether a session's key and organization still exist (default: one of the route's own, 5 s). */
  liveness?: SessionLiveness;
}

/** Sizes of each field of a shopper event; `value`'s bound is EventLimits.maxValue. */
export const EVENT_FIELD_LIMITS = { eventId: 64, itemId: 200, datasetId: 200, intent: 1024, dataBytes: 2048 } as const;
export const MAX_EVENTS_PER_REQUEST = 100;
// 100 events at their largest (about 370 KB written plainly) fit; a bigger body is refused unread (413).
const BODY_LIMIT = 512 * 1024;

const ITEM_REQUIRED = new Set(['product_view', 'product_click', 'add_to_cart']);

const text = (max: number) => z.string().min(1).max(max);
const shopperEventSchema = (maxValue: number) =>
  z.object({
    type: z.enum(SHOPPER_EVENT_TYPES),
    eventId: text(EVENT_FIELD_LIMITS.eventId).nullish().describe('Your id for the event: a repeat of an id already recorded on the session is dropped.'),
    at: z.iso.datetime({ offset: true }).nullish().describe("The shopper's clock (ISO 8601), kept as sent; days count by the time the service received the request."),
    itemId: text(EVENT_FIELD_LIMITS.itemId).nullish().describe("An item of the session's organization; another is recorded but counts in nothing."),
    datasetId: text(EVENT_FIELD_LIMITS.datasetId).nullish().describe("A dataset of the session's organization; another is recorded but counts in nothing."),
    intent: text(EVENT_FIELD_LIMITS.intent).nullish().describe('The cart action intent token the agent handed out for this session (and item).'),
    value: z.number().min(0).max(maxValue).nullish().describe('A money amount in major units of `currency`.'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .transform((code) => code.toUpperCase())
      .nullish()
      .describe('ISO 4217, any case.'),
    data: z.looseObject({}).nullish().describe(`Anything else worth keeping, at most ${EVENT_FIELD_LIMITS.dataBytes} bytes as JSON.`),
  });

type ParsedEvent = z.output<ReturnType<typeof shopperEventSchema>>;

const eventProblems = (event: ParsedEvent, index: number): Array<{ path: Array<string | number>; message: string }> => {
  const at = (field: string) => ['events', index, field];
  const name = (field: string) => `events[${index}].${field}`;
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
  if (ITEM_REQUIRED.has(event.type) && !event.itemId) problems.push({ path: at('itemId'), message: `${name('itemId')} is required for ${event.type}.` });
  if (event.value != null && !event.currency) problems.push({ path: at('currency'), message: `${name('currency')} is required with value.` });
  if (event.currency && !isIsoCurrency(event.currency)) problems.push({ path: at('currency'), message: `${name('currency')} must be an ISO 4217 currency code.` });
  // NUL and unpaired surrogates (which jsonb cannot hold) never get here: the common body check
  // refuses them with 400 (api/plugins/json-body.ts).
  if (event.data) {
    const json = JSON.stringify(event.data);
    if (Buffer.byteLength(json) > EVENT_FIELD_LIMITS.dataBytes) problems.push({ path: at('data'), message: `${name('data')} must be at most ${EVENT_FIELD_LIMITS.dataBytes} bytes as JSON.` });
  }
  return problems;
};

const bodySchema = (maxValue: number) =>
  z
    .object({
      events: z.array(shopperEventSchema(maxValue)).min(1).max(MAX_EVENTS_PER_REQUEST),
    })
    .superRefine((body, ctx) => {
      body.events.forEach((event, index) => {
        for (const problem of eventProblems(event, index)) ctx.addIssue({ code: 'custom', ...problem });
      });
    });

const toShopperEvent = (event: ParsedEvent): ShopperEvent => ({
  type: event.type,
  eventId: event.eventId ?? null,
  at: event.at ?? null,
  itemId: event.itemId ?? null,
  datasetId: event.datasetId ?? null,
  intent: event.intent ?? null,
  value: event.value ?? null,
  currency: event.currency ?? null,
  data: event.data ?? null,
});

/** The session each admitted request carries, and when it arrived. */
const admitted = new WeakMap<FastifyRequest, { session: WidgetSession; receivedAt: string }>();

/** The intents among the events that verify (signature, expiry): the decider checks each is this session's, for its item. */
const verifiedIntents = (serverSecret: string, events: readonly ShopperEvent[], now: Date): Map<string, { sessionId: string; itemId: string }> => {
  const intents = new Map<string, { sessionId: string; itemId: string }>();
  for (const { intent } of events) {
    if (intent === null || intents.has(intent)) continue;
    const claims = readCartIntent(serverSecret, intent, now);
    if (claims) intents.set(intent, { sessionId: claims.sessionId, itemId: claims.itemId });
  }
  return intents;
};

export const shopperEventRoutes = (context: EventsContext) => (app: FastifyInstance) => {
  const limits = { ...DEFAULT_EVENT_LIMITS, ...context.eventLimits };
  const recorder = context.sessions ?? new ShopperEventRecorder(context.eventStore, { limits });
  const liveness = context.liveness ?? new SessionLiveness(context.eventStore);
  // The address first: a flood from one address is refused whatever sessions it spreads over.
  const minuteLimits: MinuteLimit[] = [
    {
      bucket: EVENT_BUCKETS.address,
      perMinute: limits.addressRpm,
      subject: (request) => `ip:${request.ip}`,
      message: `Too many event requests from this address (${limits.addressRpm} per minute).`,
    },
    {
      bucket: EVENT_BUCKETS.session,
      perMinute: limits.sessionRpm,
      subject: (request) => {
        const sessionId = admitted.get(request)?.session.sessionId;
        return sessionId ? `session:${sessionId}` : null;
      },
      message: `Too many event requests for this session (${limits.sessionRpm} per minute).`,
    },
  ];

  // Before the body is read: a request without a live session costs nothing more, and the bounds
  // (counted next, in preParsing) need the session.
  const admit = async (request: FastifyRequest) => {
    const header = request.headers[SESSION_HEADER];
    const session = typeof header === 'string' ? readSessionToken(context.serverSecret, header.trim(), new Date()) : null;
    if (!session) throw new HttpError(401, SESSION_MISSING);
    // Revoked with its key or organization: a signed token is not enough on its own.
    if (!(await liveness.isLive(session))) throw new HttpError(401, SESSION_MISSING);
    admitted.set(request, { session, receivedAt: new Date().toISOString() });
  };

  zodRoutes(app).post(
    '/v1/events',
    {
      config: { browser: true, minuteLimits },
      bodyLimit: BODY_LIMIT,
      onRequest: admit,
      schema: {
        summary: 'Record shopper events of a widget session',
        headers: z.object({ [SESSION_HEADER]: z.string().optional().describe('The session token from GET /v1/widget/preflight.') }),
        // The recorder's bound, so what the route lets through and what the decider counts agree.
        body: bodySchema(recorder.limits.maxValue),
        response: { 202: z.object({ accepted: z.number().int().describe('Events newly recorded; repeats of a recorded eventId are not counted.') }) },
      },
    },
    async (request, reply) => {
      const { session, receivedAt } = admitted.get(request)!;
      const events = request.body.events.map(toShopperEvent);
      const intents = verifiedIntents(context.serverSecret, events, new Date(receivedAt));
      const { accepted } = await recorder.record(
        { sessionId: session.sessionId, organizationId: session.organizationId, demo: session.demo, receivedAt, events, intents },
        {
          now: receivedAt,
          // The key that opened the session; `demo` as authentication names the demo key.
          actor: session.keyId ? { kind: 'key', id: session.keyId } : session.demo ? { kind: 'key', id: 'demo' } : { kind: 'system', id: 'widget-session' },
          correlationId: request.correlationId,
        },
      );
      return reply.code(202).send({ accepted });
    },
  );
};
