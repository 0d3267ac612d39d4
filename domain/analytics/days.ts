// Daily analytics of shopper events (document 3 "Widget, events, analytics"), as pure functions:
// which day an event counts on in a timezone, whether an add to cart or purchase was assisted,
// and the increments a run of recorded events makes to each day. The projector (live) and the
// blue/green rebuild (history) both fold events through `tally`, in `$all` order.
//
// Definitions (docs/merchants.md, "Analytics"):
//   day            the calendar date, in the reporting timezone, of the instant the service
//                  received the event (`receivedAt`); the client's `at` is kept but never counts,
//                  since shopper devices' clocks are often wrong by minutes to years. A day is
//                  23 or 25 hours long across a daylight-saving change, as the zone's clock says.
//   counted        a shopper event recorded as counting (`unverified` null: its item and dataset
//                  are the organization's, its intent this session's, its purchase within the
//                  session's revenue bound; domain/session/admission.ts); every figure below
//                  counts only these;
//   unverified     events recorded but kept apart that day (counted in no other figure);
//   sessions       distinct sessions with at least one counted event that day;
//   messages, productClicks, addToCarts, purchases: counted events of that type that day;
//   revenue        sum of purchase values, per currency (the main one answers as `revenue`);
//   assisted       an add to cart or purchase of an item the service itself put on the session's
//                  screen before it: an agent turn's `shown` (AgentTurnCompleted) or a search's
//                  results (SearchResultsShown), at most three days before and not yet
//                  forgotten (domain/analytics/attribution.ts has the rule). A product_view or
//                  product_click the client reports shows nothing: the client could name any item;
//   assistedRevenue  sum of assisted purchases' values;
//   conversionRate   sessions with a purchase that day ÷ sessions that day.
import type { RecordedShopperEvent } from '../session/events.js';
import { toTenThousandths } from '../session/money.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterOf = (timezone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timezone, formatter);
  }
  return formatter;
};

/**
 * Offsets change at most a few times a year, and only at whole minutes: the date of an instant is
 * cached per zone and quarter hour, so replaying a million events formats a few thousand dates.
 */
const dayCache = new Map<string, string>();
const DAY_CACHE_LIMIT = 50_000;
const QUARTER_HOUR = 15 * 60 * 1000;

/** The calendar date (YYYY-MM-DD) of `instant` in `timezone`. */
export function dayOf(instant: string | Date, timezone: string): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${String(instant)}`);
  // Every zone's offset is a whole number of quarter hours (the last exception ended in 1972):
  // within one quarter hour from the epoch, the date is one.
  const key = `${timezone}\0${Math.floor(ms / QUARTER_HOUR)}`;
  let day = dayCache.get(key);
  if (day === undefined) {
    day = formatterOf(timezone).format(ms);
    if (dayCache.size >= DAY_CACHE_LIMIT) dayCache.clear();
    dayCache.set(key, day);
  }
  return day;
}

export interface DayCounts {
  messages: number;
  productClicks: number;
  addToCarts: number;
  purchases: number;
  /** Events recorded but kept apart (counted in nothing else). */
  unverified: number;
}

/** What a run of events adds to the days of one timezone. */
export interface DayIncrements {
  counts: Map<string, DayCounts>;
  /**
   * `date \0 currency` → [revenue, assisted revenue] in ten-thousandths of the currency's unit,
   * as integers: sums come out the same whatever the order and batching of the events (floating
   * point sums would not), which is what lets a replay equal the live count to the cent.
   */
  revenue: Map<string, [number, number]>;
  /** `date \0 sessionId` → whether the session purchased that day. */
  sessions: Map<string, boolean>;
}

export const emptyIncrements = (): DayIncrements => ({ counts: new Map(), revenue: new Map(), sessions: new Map() });

/** Adds one request's events (already attributed) to the increments of the days of `timezone`. */
export function tally(into: DayIncrements, timezone: string, batch: { sessionId: string; receivedAt: string; events: readonly RecordedShopperEvent[] }, assisted: readonly boolean[]): void {
  if (!batch.events.length) return;
  const date = dayOf(batch.receivedAt, timezone);
  let counts = into.counts.get(date);
  if (!counts) into.counts.set(date, (counts = { messages: 0, productClicks: 0, addToCarts: 0, purchases: 0, unverified: 0 }));
  const sessionKey = `${date}\0${batch.sessionId}`;
  let purchased = into.sessions.get(sessionKey) ?? false;
  let counted = into.sessions.has(sessionKey);
  batch.events.forEach((event, i) => {
    if (event.unverified !== null) {
      counts.unverified++;
      return;
    }
    counted = true;
    if (event.type === 'message_sent') counts.messages++;
    else if (event.type === 'product_click') counts.productClicks++;
    else if (event.type === 'add_to_cart') counts.addToCarts++;
    else if (event.type === 'purchase') {
      counts.purchases++;
      purchased = true;
      if (event.value !== null) {
        const key = `${date}\0${event.currency ?? ''}`;
        const sums = into.revenue.get(key) ?? [0, 0];
        const amount = toTenThousandths(event.value);
        sums[0] += amount;
        if (assisted[i]) sums[1] += amount;
        into.revenue.set(key, sums);
      }
    }
  });
  if (counted) into.sessions.set(sessionKey, purchased);
}

/** Money as counted: ten-thousandths of a unit (amounts finer than that are rounded). */
export { toTenThousandths };

/** Ten-thousandths as the exact decimal text Postgres `numeric` takes. */
export const tenThousandthsText = (amount: number): string => {
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount)).padStart(5, '0');
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}`;
};

/** One day as GET /v1/analytics/daily answers it. */
export interface DailyFigures {
  date: string;
  sessions: number;
  messages: number;
  productClicks: number;
  addToCarts: number;
  purchases: number;
  revenue: number;
  revenueByCurrency?: Record<string, number>;
  assistedRevenue: number;
  /** Events recorded that day but counted in none of these figures; present when there were any. */
  unverified?: number;
  /** Sessions with a purchase ÷ sessions, 0 with no sessions; rounded to 4 places. */
  conversionRate: number;
}

/** A stored day, before the main currency is chosen. */
export interface StoredDay extends DayCounts {
  date: string;
  sessions: number;
  purchasingSessions: number;
  /** Currency ('' for none named) → [revenue, assisted], in units (decimal). */
  revenue: Map<string, [number, number]>;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The answer for one day: revenue in `mainCurrency` (events that named no currency count in it),
 * other currencies beside it in `revenueByCurrency`, never converted.
 */
export function dailyFigures(day: StoredDay, mainCurrency: string): DailyFigures {
  let revenue = 0;
  let assistedRevenue = 0;
  const others: Record<string, number> = {};
  for (const [currency, [sum, assisted]] of [...day.revenue].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (currency === '' || currency === mainCurrency) {
      revenue += sum;
      assistedRevenue += assisted;
    } else others[currency] = cents((others[currency] ?? 0) + sum);
  }
  return {
    date: day.date,
    sessions: day.sessions,
    messages: day.messages,
    productClicks: day.productClicks,
    addToCarts: day.addToCarts,
    purchases: day.purchases,
    revenue: cents(revenue),
    ...(Object.keys(others).length ? { revenueByCurrency: others } : {}),
    assistedRevenue: cents(assistedRevenue),
    ...(day.unverified ? { unverified: day.unverified } : {}),
    conversionRate: day.sessions ? Math.round((day.purchasingSessions / day.sessions) * 10_000) / 10_000 : 0,
  };
}

/** Every date from `from` to `to` (YYYY-MM-DD), inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) dates.push(new Date(at).toISOString().slice(0, 10));
  return dates;
}
