// Which shopper events of a batch count (document 3 "Widget, events, analytics"; docs: "What
// analytics can and cannot vouch for"). A widget session's token is made with a public key, which
// is public by design: anyone can report anything on a session of their own. What the service can
// check, it checks here, before the batch is recorded, from facts the write side read from the
// event store (the item and dataset streams, the session's own stream) and the intents it signed:
//   - an item or dataset named must be one of the session's organization (and the item one of the
//     dataset named with it), so no session counts another tenant's products;
//   - an intent named must be one the agent handed this very session (for this item);
//   - a currency must be ISO 4217 and a value within the bound of one event (the route refuses
//     both with 422; checked again here for any other caller);
//   - a session's counted purchases stay within a bound per currency.
// An event that fails is still recorded, as sent, and kept apart: it counts in no figure.
import { isIsoCurrency } from './currencies.js';
import type { RecordedShopperEvent, ShopperEvent, UnverifiedReason } from './events.js';
import { toTenThousandths } from './money.js';

/** Bounds on what shopper events may carry and count; the defaults, and the environment's names for them, are in infra/config. */
export interface ShopperEventLimits {
  /** The largest `value` one event may carry, in major units of its currency. */
  maxValue: number;
  /** The most one session's counted purchases may add up to in one currency, in major units. */
  maxSessionRevenue: number;
}

/** Far above any one order in any currency (100,000,000 VND is about 4,000 USD), so only absurd values meet them. */
export const DEFAULT_SHOPPER_EVENT_LIMITS: ShopperEventLimits = { maxValue: 100_000_000, maxSessionRevenue: 100_000_000 };

/** What the write side found out about the batch before deciding. */
export interface AdmissionFacts {
  /** Items the batch names that exist: itemId → its organization and dataset (from the item's stream). */
  items: ReadonlyMap<string, { organizationId: string; datasetId: string }>;
  /** Datasets the batch names that exist: datasetId → its organization (from the dataset's stream). */
  datasets: ReadonlyMap<string, string>;
  /** Intent tokens of the batch that verified (signature and expiry): token → the session and item it was made for. */
  intents: ReadonlyMap<string, { sessionId: string; itemId: string }>;
}

export const noFacts: AdmissionFacts = { items: new Map(), datasets: new Map(), intents: new Map() };

/** Why an event cannot count on its own (its item, dataset, intent, currency or value), or null. */
export function unverifiedOf(event: ShopperEvent, session: { sessionId: string; organizationId: string }, facts: AdmissionFacts, limits: ShopperEventLimits): UnverifiedReason | null {
  if (event.currency !== null && !isIsoCurrency(event.currency)) return 'currency';
  if (event.value !== null && !(event.value >= 0 && event.value <= limits.maxValue)) return 'value';
  if (event.datasetId !== null && facts.datasets.get(event.datasetId) !== session.organizationId) return 'dataset';
  if (event.itemId !== null) {
    const item = facts.items.get(event.itemId);
    if (!item || item.organizationId !== session.organizationId) return 'item';
    if (event.datasetId !== null && item.datasetId !== event.datasetId) return 'item';
  }
  if (event.intent !== null) {
    const intent = facts.intents.get(event.intent);
    if (!intent || intent.sessionId !== session.sessionId) return 'intent';
    if (event.itemId !== null && intent.itemId !== event.itemId) return 'intent';
  }
  return null;
}

/**
 * The batch as recorded: each event with why it is kept apart, if it is. Purchases count against
 * the session's revenue bound in their order; one that would pass it is kept apart, and later
 * smaller ones may still fit.
 */
export function admit(
  events: readonly ShopperEvent[],
  session: { sessionId: string; organizationId: string; revenue: ReadonlyMap<string, number> },
  facts: AdmissionFacts,
  limits: ShopperEventLimits,
): RecordedShopperEvent[] {
  const revenue = new Map(session.revenue);
  const bound = toTenThousandths(limits.maxSessionRevenue);
  return events.map((event) => {
    const unverified = unverifiedOf(event, session, facts, limits);
    if (unverified !== null || event.type !== 'purchase' || event.value === null) return { ...event, unverified };
    const currency = event.currency ?? '';
    const total = (revenue.get(currency) ?? 0) + toTenThousandths(event.value);
    if (total > bound) return { ...event, unverified: 'session-revenue' };
    revenue.set(currency, total);
    return { ...event, unverified: null };
  });
}
