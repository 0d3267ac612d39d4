// Shopper events (document 3 "Widget, events, analytics"): what a storefront reports of a widget
// session, recorded on the session's stream `session-<sessionId>`. One store event per accepted
// request (1 to 100 shopper events): shopper events are high-volume, and a batch appended as one
// keeps the append, the stream and a replay of a million shopper events cheap, while each shopper
// event keeps its own fields, type and optional client id inside it.
export const SHOPPER_EVENT_TYPES = ['widget_open', 'message_sent', 'product_view', 'product_click', 'add_to_cart', 'cart_outcome', 'purchase'] as const;
export type ShopperEventType = (typeof SHOPPER_EVENT_TYPES)[number];

export interface ShopperEvent {
  type: ShopperEventType;
  /** The client's own id for the event, when it sent one: a repeat of an id already recorded on the session is dropped. */
  eventId: string | null;
  /** The client's clock, as sent (ISO 8601); null when absent. Days are counted by `receivedAt`. */
  at: string | null;
  itemId: string | null;
  datasetId: string | null;
  intent: string | null;
  /** A money amount in major units of `currency` (add_to_cart, purchase). */
  value: number | null;
  /** ISO 4217, upper case. */
  currency: string | null;
  data: Record<string, unknown> | null;
}

/** A shopper event with every field it does not name left null. */
export const shopperEvent = (type: ShopperEventType, fields: Partial<Omit<ShopperEvent, 'type'>> = {}): ShopperEvent => ({
  type,
  eventId: null,
  at: null,
  itemId: null,
  datasetId: null,
  intent: null,
  value: null,
  currency: null,
  data: null,
  ...fields,
});

/**
 * Why a recorded shopper event is kept apart: recorded on the session as sent, counted in no
 * figure of analytics (docs: "What analytics can and cannot vouch for").
 *   item             its itemId is not an item of the session's organization (nor of its datasetId)
 *   dataset          its datasetId is not a dataset of the session's organization
 *   intent           its intent is not a cart intent the agent handed this session (for this item)
 *   session-revenue  a purchase past the session's revenue bound in its currency
 *   currency, value  a currency that is not ISO 4217, or a value past the bound of one event: only
 *                    on events stored before POST /v1/events refused them (version 1, upcast)
 */
export const UNVERIFIED_REASONS = ['item', 'dataset', 'intent', 'session-revenue', 'currency', 'value'] as const;
export type UnverifiedReason = (typeof UNVERIFIED_REASONS)[number];

/** A shopper event as recorded: as sent, with whether it counts. */
export interface RecordedShopperEvent extends ShopperEvent {
  /** Why it counts in no figure; null when it counts. */
  unverified: UnverifiedReason | null;
}

export interface ShopperEventsRecorded {
  type: 'ShopperEventsRecorded';
  data: {
    sessionId: string;
    organizationId: string;
    /** A demo-key session: recorded like any other, counted for the demo organization. */
    demo: boolean;
    /** When the service received the request: the time every event of it counts at (client clocks skew). */
    receivedAt: string;
    events: RecordedShopperEvent[];
    at: string;
  };
}

/**
 * Products POST /v1/search put on a widget session's screen (a search naming `sessionId`): with
 * the agent's turns, the only record of what the service itself showed, which is what assisted
 * revenue counts. Never the query's words.
 */
export interface SearchResultsShown {
  type: 'SearchResultsShown';
  data: {
    sessionId: string;
    organizationId: string;
    demo: boolean;
    /** The results, in ranked order. */
    shown: Array<{ itemId: string; datasetId: string }>;
    at: string;
  };
}

/**
 * One finished agent turn of a widget session (POST /v2/agent/chat with `sessionId`): what it put
 * on screen, which tools it called and how long it took. Never the conversation's text: a v2
 * conversation is the client's, and the service keeps none of its words.
 */
export interface AgentTurnCompleted {
  type: 'AgentTurnCompleted';
  data: {
    sessionId: string;
    organizationId: string;
    demo: boolean;
    turnId: string;
    /** How the turn ended. */
    outcome: 'done' | 'error';
    /** The model that ran it (`offline-stylist`, or the configured model's name). */
    model: string;
    /** Products put on screen (search results and looks), each once, in the order shown. */
    shown: Array<{ itemId: string; datasetId: string }>;
    /** Tool calls in the order made. */
    tools: Array<{ name: string; ok: boolean; ms: number }>;
    timings: { modelCalls: number; firstEventMs: number | null; firstResultsMs: number | null; totalMs: number };
    /** The request's `session` metadata (surface, device, locale, timezone…), as sent, cut. */
    visit: Record<string, string | null> | null;
    at: string;
  };
}

export type SessionEvent = ShopperEventsRecorded | AgentTurnCompleted | SearchResultsShown;

export const sessionStream = (sessionId: string): string => `session-${sessionId}`;
