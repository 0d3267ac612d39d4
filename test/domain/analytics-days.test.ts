// Days in a timezone, attribution and the tally the analytics read model is built from.
import t from 'tap';
import { attribute, noteShown, SHOWN_KEPT_MS, ShownItems } from '../../domain/analytics/attribution.js';
import { dailyFigures, datesBetween, dayOf, emptyIncrements, tally, tenThousandthsText, toTenThousandths, type DayIncrements } from '../../domain/analytics/days.js';
import { shopperEvent, type RecordedShopperEvent, type ShopperEvent, type UnverifiedReason } from '../../domain/session/events.js';

/** A shopper event as recorded: counted unless a reason says otherwise. */
const event = (type: ShopperEvent['type'], fields: Partial<ShopperEvent> = {}, unverified: UnverifiedReason | null = null): RecordedShopperEvent => ({ ...shopperEvent(type, fields), unverified });


/** How many of the hours starting at `from` (UTC) fall on `date` in `zone`. */
const hoursOn = (date: string, zone: string, from: string): number => {
  let hours = 0;
  for (let i = 0; i < 60; i++) if (dayOf(new Date(Date.parse(from) + i * 3_600_000), zone) === date) hours++;
  return hours;
};

t.test('a day in the reporting timezone lasts 23 or 25 hours across a daylight-saving change', async (t) => {
  t.equal(hoursOn('2026-03-08', 'America/New_York', '2026-03-07T12:00:00Z'), 23, 'spring forward in New York');
  t.equal(hoursOn('2026-11-01', 'America/New_York', '2026-10-31T12:00:00Z'), 25, 'fall back in New York');
  t.equal(hoursOn('2026-03-29', 'Europe/London', '2026-03-28T12:00:00Z'), 23, 'spring forward in London');
  t.equal(hoursOn('2026-03-08', 'UTC', '2026-03-07T12:00:00Z'), 24, 'UTC has none');
});

t.test('the date of an instant follows the zone, including half- and quarter-hour offsets', async (t) => {
  t.equal(dayOf('2026-06-30T23:30:00Z', 'UTC'), '2026-06-30');
  t.equal(dayOf('2026-06-30T23:30:00Z', 'Asia/Kolkata'), '2026-07-01', '+05:30');
  t.equal(dayOf('2026-06-30T18:14:59Z', 'Asia/Kathmandu'), '2026-06-30', '+05:45, a second before midnight');
  t.equal(dayOf('2026-06-30T18:15:00Z', 'Asia/Kathmandu'), '2026-07-01', '+05:45, midnight');
  t.equal(dayOf('2026-07-01T03:59:59Z', 'America/New_York'), '2026-06-30', 'EDT is UTC-4');
  t.throws(() => dayOf('yesterday', 'UTC'), RangeError);
});

t.test('an add to cart or purchase is assisted only when the service showed that item earlier in the same session', async (t) => {
  const shown = new ShownItems();
  const at = '2026-05-01T10:00:00Z';
  t.same(attribute('s1', [event('product_view', { itemId: 'a' }), event('product_click', { itemId: 'a' }), event('purchase', { itemId: 'a' })], at, shown), [false, false, false], "the client's view or click shows nothing");
  noteShown('s1', [{ itemId: 'a' }, { itemId: 'b' }], at, shown);
  t.same(attribute('s1', [event('add_to_cart', { itemId: 'a' }), event('purchase', { itemId: 'a' }), event('product_click', { itemId: 'b' })], at, shown), [true, true, false], 'what an agent turn or a search showed');
  t.same(attribute('s1', [event('purchase', { itemId: 'b' }, 'session-revenue'), event('purchase', { itemId: 'b' }, 'intent')], at, shown), [false, false], 'an event kept apart is never assisted');
  t.same(attribute('s2', [event('purchase', { itemId: 'a' })], at, shown), [false], 'another session did not see it');
  t.same(attribute('s1', [event('purchase', { itemId: 'c' }), event('purchase')], at, shown), [false, false], 'an item never shown, or no item');
});

t.test('a showing counts for three days, and is forgotten for good once the organization shows something three days later', async (t) => {
  const shownAt = Date.parse('2026-05-01T10:00:00Z');
  const later = (ms: number) => new Date(shownAt + ms).toISOString();
  const buy = [event('purchase', { itemId: 'a', value: 10 })];
  const shown = new ShownItems();
  noteShown('s1', [{ itemId: 'a' }], later(0), shown);
  t.same(attribute('s1', buy, later(SHOWN_KEPT_MS), shown), [true], 'three days after, still shown');
  t.same(attribute('s1', buy, later(SHOWN_KEPT_MS + 1), shown), [false], 'a millisecond more: no longer');
  t.same(attribute('s1', buy, later(-60_000), shown), [true], 'received a minute before the showing but recorded after it: the order of the events decides');

  noteShown('s2', [{ itemId: 'z' }], later(SHOWN_KEPT_MS + 1), shown);
  t.equal(shown.clock, shownAt + SHOWN_KEPT_MS + 1, "the organization's clock is its newest showing");
  t.same(attribute('s1', buy, later(60_000), shown), [false], 'once the clock has passed three days after it, a showing never counts again, whatever the time of the event');
  t.equal(shown.size, 2);
  shown.forgetPast();
  t.equal(shown.size, 1, 'so it can be dropped from memory without changing a figure');
  t.same(attribute('s1', buy, later(60_000), shown), [false]);

  noteShown('s1', [{ itemId: 'a' }], later(SHOWN_KEPT_MS + 2), shown);
  t.same(attribute('s1', buy, later(2 * SHOWN_KEPT_MS), shown), [true], 'shown again: it counts from the latest showing');
  t.throws(() => noteShown('s1', [{ itemId: 'a' }], 'yesterday', shown), RangeError);
});

t.test('what is remembered does not depend on where batches or pages end', async (t) => {
  // The same showings and purchases, forgetting after every step or never: the same attribution.
  const day = 24 * 60 * 60 * 1000;
  const steps: Array<['show' | 'buy', string, string, number]> = [
    ['show', 's1', 'a', 0],
    ['show', 's2', 'b', 1 * day],
    ['buy', 's1', 'a', 2 * day],
    ['show', 's3', 'c', 3.5 * day],
    ['buy', 's1', 'a', 3.6 * day],
    ['buy', 's2', 'b', 3.7 * day],
    ['show', 's1', 'a', 4 * day],
    ['buy', 's1', 'a', 4.1 * day],
    ['show', 's3', 'c', 10 * day],
    ['buy', 's2', 'b', 1.5 * day],
  ];
  const run = (forgetEachStep: boolean) => {
    const shown = new ShownItems();
    const assisted: boolean[] = [];
    for (const [kind, session, item, offset] of steps) {
      const at = new Date(Date.parse('2026-05-01T00:00:00Z') + offset).toISOString();
      if (kind === 'show') noteShown(session, [{ itemId: item }], at, shown);
      else assisted.push(...attribute(session, [event('purchase', { itemId: item })], at, shown));
      if (forgetEachStep) shown.forgetPast();
    }
    return assisted;
  };
  t.same(run(true), run(false));
  t.same(run(false), [true, false, true, true, false], 'within three days; more than three days after; within three days; shown again; received in time but left behind by the clock');
});

t.test('the tally counts each type, distinct sessions, revenue per currency and purchasing sessions', async (t) => {
  const increments = emptyIncrements();
  const batch = (sessionId: string, receivedAt: string, events: RecordedShopperEvent[]) => ({ sessionId, receivedAt, events });
  const first = [event('widget_open'), event('message_sent'), event('message_sent'), event('product_click', { itemId: 'a' }), event('add_to_cart', { itemId: 'a' })];
  tally(increments, 'America/New_York', batch('s1', '2026-05-02T03:00:00Z', first), [false, false, false, false, true]);
  const second = [event('purchase', { itemId: 'a', value: 40.5, currency: 'CAD' }), event('purchase', { value: 10, currency: 'USD' }), event('purchase', { value: 2.25 })];
  tally(increments, 'America/New_York', batch('s1', '2026-05-02T03:05:00Z', second), [true, false, false]);
  tally(increments, 'America/New_York', batch('s2', '2026-05-02T05:00:00Z', [event('message_sent')]), [false]);
  const keptApart = [event('purchase', { itemId: 'theirs', value: 1e6, currency: 'CAD' }, 'item'), event('product_click', { itemId: 'x' }, 'item')];
  tally(increments, 'America/New_York', batch('s3', '2026-05-02T03:30:00Z', keptApart), [true, false]);
  t.same([...increments.counts.keys()], ['2026-05-01', '2026-05-02'], '03:00Z is still the 1st in New York; 05:00Z is the 2nd');
  const stored = (date: string, sessions: number, purchasing: number) => ({
    date,
    sessions,
    purchasingSessions: purchasing,
    ...increments.counts.get(date)!,
    revenue: new Map([...increments.revenue].filter(([key]) => key.startsWith(date)).map(([key, [sum, assisted]]) => [key.split('\0')[1]!, [sum / 10_000, assisted / 10_000] as [number, number]])),
  });
  t.same(dailyFigures(stored('2026-05-01', 1, 1), 'CAD'), {
    date: '2026-05-01',
    sessions: 1,
    messages: 2,
    productClicks: 1,
    addToCarts: 1,
    purchases: 3,
    revenue: 42.75,
    revenueByCurrency: { USD: 10 },
    assistedRevenue: 40.5,
    unverified: 2,
    conversionRate: 1,
  }, 'a purchase naming no currency counts in the main one; others stand beside it, unconverted; events kept apart count only as unverified, not as a session');
  t.same(increments.sessions.get('2026-05-01\0s1'), true, 'the session purchased that day');
  t.notOk(increments.sessions.has('2026-05-01\0s3'), 'a session of events kept apart only is not counted');
  t.same(dailyFigures(stored('2026-05-02', 1, 0), 'CAD').conversionRate, 0);
});

t.test('money is counted exactly, in ten-thousandths, whatever the order and batching of the events', async (t) => {
  const values = [0.1, 0.2, 19.99, 1234.5678, 0.3];
  const purchases = values.map((value) => event('purchase', { itemId: 'a', value, currency: 'CAD' }));
  const count = (batches: RecordedShopperEvent[][]): DayIncrements => {
    const increments = emptyIncrements();
    for (const events of batches) tally(increments, 'UTC', { sessionId: 's1', receivedAt: '2026-05-01T12:00:00Z', events }, events.map(() => true));
    return increments;
  };
  const inOneRequest = count([purchases]);
  const oneByOneReversed = count([...purchases].reverse().map((p) => [p]));
  const inTwoRequests = count([purchases.slice(3), purchases.slice(0, 3)]);
  t.same(inOneRequest.revenue.get('2026-05-01\0CAD'), [12_551_578, 12_551_578], 'revenue and assisted revenue, in ten-thousandths');
  t.same(oneByOneReversed.revenue, inOneRequest.revenue, 'the same sums one by one, in reverse');
  t.same(inTwoRequests.revenue, inOneRequest.revenue, 'and in two requests');
  t.equal(tenThousandthsText(inOneRequest.revenue.get('2026-05-01\0CAD')![0]), '1255.1578', 'stored as exact decimal text');
  const stored = { date: '2026-05-01', sessions: 1, purchasingSessions: 1, ...inOneRequest.counts.get('2026-05-01')!, revenue: new Map([['CAD', [1255.1578, 1255.1578] as [number, number]]]) };
  t.match(dailyFigures(stored, 'CAD'), { revenue: 1255.16, assistedRevenue: 1255.16, purchases: 5 }, 'answered to the cent');
  t.equal(tenThousandthsText(toTenThousandths(0.05)), '0.0500');
  t.equal(tenThousandthsText(toTenThousandths(-2.5)), '-2.5000');
  t.equal(toTenThousandths(0.1) + toTenThousandths(0.2), toTenThousandths(0.3), 'a tenth and two tenths make three tenths');
});

t.test('datesBetween lists every day of the range, inclusive', async (t) => {
  t.same(datesBetween('2026-02-27', '2026-03-02'), ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  t.same(datesBetween('2026-03-02', '2026-03-01'), []);
});
