// Days in a timezone, attribution and the tally the analytics read model is built from.
import t from 'tap';
import { attribute, dailyFigures, datesBetween, dayOf, emptyIncrements, noteShown, shownInMemory, tally, tenThousandthsText, toTenThousandths } from '../../domain/analytics/days.js';
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
  const shown = shownInMemory();
  t.same(attribute('s1', [event('product_view', { itemId: 'a' }), event('product_click', { itemId: 'a' }), event('purchase', { itemId: 'a' })], shown), [false, false, false], "the client's view or click shows nothing");
  noteShown('s1', [{ itemId: 'a' }, { itemId: 'b' }], shown);
  t.same(attribute('s1', [event('add_to_cart', { itemId: 'a' }), event('purchase', { itemId: 'a' }), event('product_click', { itemId: 'b' })], shown), [true, true, false], 'what an agent turn or a search showed');
  t.same(attribute('s1', [event('purchase', { itemId: 'b' }, 'session-revenue'), event('purchase', { itemId: 'b' }, 'intent')], shown), [false, false], 'an event kept apart is never assisted');
  t.same(attribute('s2', [event('purchase', { itemId: 'a' })], shown), [false], 'another session did not see it');
  t.same(attribute('s1', [event('purchase', { itemId: 'c' }), event('purchase')], shown), [false, false], 'an item never shown, or no item');
  shown.forget('s1');
  t.same(attribute('s1', [event('purchase', { itemId: 'a' })], shown), [false], 'forgotten once the session ended');
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

t.test('money is counted exactly, in ten-thousandths, whatever the order of the events', async (t) => {
  const amounts = [0.1, 0.2, 19.99, 1234.5678, 0.3];
  const sum = (list: number[]) => list.reduce((total, value) => total + toTenThousandths(value), 0);
  t.equal(sum(amounts), sum([...amounts].reverse()));
  t.equal(tenThousandthsText(sum(amounts)), '1255.1578');
  t.equal(tenThousandthsText(toTenThousandths(0.05)), '0.0500');
  t.equal(tenThousandthsText(toTenThousandths(-2.5)), '-2.5000');
  t.not(0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1, 'which floating point sums are not');
});

t.test('datesBetween lists every day of the range, inclusive', async (t) => {
  t.same(datesBetween('2026-02-27', '2026-03-02'), ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  t.same(datesBetween('2026-03-02', '2026-03-01'), []);
});
