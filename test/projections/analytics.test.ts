// The analytics read model against a fresh count: random histories of shopper events around
// daylight-saving changes in several timezones, with the reporting timezone changed in the middle
// of them. Whatever the history, the days the read model answers with (history replayed by the
// builder, later events added live) equal the days counted afresh from the raw events in the final
// timezone; and switching the timezone away and back returns the original numbers.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import t from 'tap';
import { dailyFigures, type DailyFigures } from '../../domain/analytics/days.js';
import type { ShopperEvent, ShopperEventsRecorded } from '../../domain/session/events.js';
import { sessionStream, SHOPPER_EVENT_TYPES } from '../../domain/session/events.js';
import { organizationStream } from '../../domain/organization/events.js';
import type { Position } from '../../infra/eventstore/port.js';
import { analytics } from '../../projections/analytics.js';
import { AnalyticsBuilder } from '../../projections/analytics-builder.js';
import { activeGeneration, buildingGenerations, storedDays } from '../../projections/queries/analytics.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { openFixture } from './support.js';

const { db, store } = await openFixture(t);
const runner = new ProjectionRunner({ store, db, projectors: [analytics] });
await runner.start();
t.teardown(() => runner.stop());
const builder = new AnalyticsBuilder({ store, db });

const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham'];
/** Daylight-saving changes of 2026 in those zones (and one ordinary day), as UTC instants. */
const CHANGES = ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-04-04T15:00:00Z', '2026-09-26T14:00:00Z', '2026-06-15T12:00:00Z'].map(Date.parse);
const ITEMS = ['a', 'b', 'c'];
const CURRENCIES = ['CAD', 'USD', null];

type Step = { kind: 'events'; session: number; receivedAt: string; events: ShopperEvent[] } | { kind: 'timezone'; zone: string };

const shopperEvent: fc.Arbitrary<ShopperEvent> = fc.record({
  type: fc.constantFrom(...SHOPPER_EVENT_TYPES),
  item: fc.option(fc.constantFrom(...ITEMS), { nil: null }),
  cents: fc.integer({ min: 0, max: 50_000 }),
  currency: fc.constantFrom(...CURRENCIES),
}).map(({ type, item, cents, currency }) => ({
  type,
  eventId: null,
  at: null,
  itemId: item,
  datasetId: null,
  intent: null,
  value: type === 'purchase' || type === 'add_to_cart' ? cents / 100 : null,
  currency: type === 'purchase' || type === 'add_to_cart' ? currency : null,
  data: null,
}));

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    kind: fc.constant('events' as const),
    session: fc.integer({ min: 0, max: 4 }),
    receivedAt: fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -36 * 60, max: 36 * 60 })).map(([base, minutes]) => new Date(base + minutes * 60_000).toISOString()),
    events: fc.array(shopperEvent, { minLength: 1, maxLength: 6 }),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('timezone' as const), zone: fc.constantFrom(...ZONES) }) },
);

/** The days counted afresh, written plainly from the definitions (not with the tally). */
function freshCount(steps: readonly Step[], sessions: readonly string[], zone: string): Map<string, DailyFigures> {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const shown = new Set<string>();
  const days = new Map<string, { sessions: Set<string>; buying: Set<string>; messages: number; productClicks: number; addToCarts: number; purchases: number; revenue: Map<string, [number, number]> }>();
  for (const s of steps) {
    if (s.kind !== 'events') continue;
    const session = sessions[s.session]!;
    const date = format.format(new Date(s.receivedAt));
    if (!days.has(date)) days.set(date, { sessions: new Set(), buying: new Set(), messages: 0, productClicks: 0, addToCarts: 0, purchases: 0, revenue: new Map() });
    const day = days.get(date)!;
    day.sessions.add(session);
    for (const e of s.events) {
      const assisted = e.itemId !== null && shown.has(`${session}/${e.itemId}`);
      if ((e.type === 'product_view' || e.type === 'product_click') && e.itemId) shown.add(`${session}/${e.itemId}`);
      if (e.type === 'message_sent') day.messages++;
      if (e.type === 'product_click') day.productClicks++;
      if (e.type === 'add_to_cart') day.addToCarts++;
      if (e.type === 'purchase') {
        day.purchases++;
        day.buying.add(session);
        const sums = day.revenue.get(e.currency ?? '') ?? [0, 0];
        sums[0] += e.value!;
        if (assisted) sums[1] += e.value!;
        day.revenue.set(e.currency ?? '', sums);
      }
    }
  }
  return new Map(
    [...days].map(([date, d]) => [
      date,
      dailyFigures({ date, sessions: d.sessions.size, purchasingSessions: d.buying.size, messages: d.messages, productClicks: d.productClicks, addToCarts: d.addToCarts, purchases: d.purchases, revenue: d.revenue }, 'CAD'),
    ]),
  );
}

async function readModel(organizationId: string): Promise<{ timezone: string; days: Map<string, DailyFigures> }> {
  const active = await activeGeneration(db, organizationId);
  if (!active) throw new Error('no active generation');
  const stored = await storedDays(db, organizationId, active.generation, '0000-01-01', '9999-12-31');
  return { timezone: active.timezone, days: new Map([...stored].map(([date, day]) => [date, dailyFigures(day, 'CAD')])) };
}

/** The projector caught up with `position` and every building generation built and swapped in. */
async function settle(position: Position): Promise<void> {
  await runner.waitFor(position, ['analytics'], 20_000);
  while ((await buildingGenerations(db)).length) await builder.runOnce();
}

const now = () => new Date().toISOString();

async function record(organizationId: string, sessionId: string, receivedAt: string, events: ShopperEvent[]): Promise<Position> {
  const data: ShopperEventsRecorded['data'] = { sessionId, organizationId, demo: false, receivedAt, events, at: receivedAt };
  return (await store.append(sessionStream(sessionId), [{ type: 'ShopperEventsRecorded', data: { ...data } }], { expectedRevision: 'any' })).position;
}

async function changeZone(organizationId: string, zone: string): Promise<Position> {
  return (await store.append(organizationStream(organizationId), [{ type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: zone, at: now() } }], { expectedRevision: 'any' })).position;
}

t.test('the read model equals a fresh count in every timezone, and switching back returns the same numbers', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(step, { minLength: 1, maxLength: 14 }), fc.constantFrom(...ZONES), async (startZone, steps, awayZone) => {
      const organizationId = randomUUID();
      const sessions = Array.from({ length: 5 }, () => randomUUID());
      let position = (await store.append(organizationStream(organizationId), [{ type: 'OrganizationCreated', data: { organizationId, name: 'Shop', reportingTimezone: startZone, at: now() } }], { expectedRevision: 'no_stream' })).position;
      let zone = startZone;
      for (const s of steps) {
        if (s.kind === 'events') position = await record(organizationId, sessions[s.session]!, s.receivedAt, s.events);
        else {
          zone = s.zone;
          position = await changeZone(organizationId, s.zone);
        }
        // Sometimes let the projector and the builder run in the middle of the history.
        if (s.kind === 'timezone' && s.zone.length % 2) await settle(position);
      }
      await settle(position);
      const model = await readModel(organizationId);
      t.equal(model.timezone, zone);
      t.same(Object.fromEntries(model.days), Object.fromEntries(freshCount(steps, sessions, zone)), `days in ${zone}`);

      await settle(await changeZone(organizationId, awayZone));
      const away = await readModel(organizationId);
      t.same(Object.fromEntries(away.days), Object.fromEntries(freshCount(steps, sessions, awayZone)), `days in ${awayZone}`);
      await settle(await changeZone(organizationId, zone));
      t.same(Object.fromEntries((await readModel(organizationId)).days), Object.fromEntries(model.days), 'back in the first timezone: the original numbers');
    }),
    { numRuns: Number(process.env.ANALYTICS_RUNS) || 20 },
  );
});

t.test('the old numbers answer while a new count is built, then the new ones replace them at once', async (t) => {
  const organizationId = randomUUID();
  const session = randomUUID();
  await store.append(organizationStream(organizationId), [{ type: 'OrganizationCreated', data: { organizationId, name: 'Shop', reportingTimezone: 'UTC', at: now() } }], { expectedRevision: 'no_stream' });
  const purchase = (value: number): ShopperEvent => ({ type: 'purchase', eventId: null, at: null, itemId: null, datasetId: null, intent: null, value, currency: 'CAD', data: null });
  // 23:30 UTC on the 1st is the 2nd in Kolkata.
  await record(organizationId, session, '2026-05-01T23:30:00Z', [purchase(10)]);
  const changed = await changeZone(organizationId, 'Asia/Kolkata');
  await runner.waitFor(changed, ['analytics']);
  const during = await readModel(organizationId);
  t.equal(during.timezone, 'UTC', 'before the new count is complete, the old one answers');
  t.same([...during.days.keys()], ['2026-05-01']);
  const [building] = await buildingGenerations(db, organizationId);
  t.match(building, { timezone: 'Asia/Kolkata', reason: 'timezone' });

  // An event after the change counts in both; the builder then adds history and swaps.
  await settle(await record(organizationId, session, '2026-05-02T12:00:00Z', [purchase(5)]));
  const after = await readModel(organizationId);
  t.equal(after.timezone, 'Asia/Kolkata');
  t.same([...after.days].map(([date, day]) => [date, day.revenue, day.purchases]), [['2026-05-02', 15, 2]], 'both purchases on the 2nd in Kolkata');
  t.same(await buildingGenerations(db, organizationId), [], 'nothing left building');
  const generations = await db.selectFrom('analytics_generations').select(['generation', 'state']).where('organization_id', '=', organizationId).execute();
  t.same(generations.map((g) => g.state), ['active'], 'the old count is gone');
});
