// The analytics read model against a fresh count: random histories of shopper events around
// daylight-saving changes in several timezones, with the reporting timezone changed in the middle
// of them, products the service showed (agent turns, search results), events kept apart and
// batches stored before events said whether they count (version 1, some with a currency that is
// not ISO 4217 or a value past the bound). Whatever the history, the days the read model answers
// with (history replayed by the builder, later events added live) equal the days counted afresh
// from the raw events in the final timezone; a twin organization sent the same events, counted
// live only, and a rebuild of the first, replayed only, give the same numbers to the cent; and
// switching the timezone away and back returns the original numbers. The times span months, so
// what the service showed is forgotten (domain/analytics/attribution.ts) all through the history,
// and the builder reads in small pages, so it forgets in the middle of its replay.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import t from 'tap';
import { SHOWN_KEPT_MS } from '../../domain/analytics/attribution.js';
import { dailyFigures, type DailyFigures } from '../../domain/analytics/days.js';
import type { RecordedShopperEvent, ShopperEvent, ShopperEventsRecorded, UnverifiedReason } from '../../domain/session/events.js';
import { sessionStream, SHOPPER_EVENT_TYPES } from '../../domain/session/events.js';
import { upcasting } from '../../infra/eventstore/upcasting.js';
import { organizationStream, type OrganizationEvent } from '../../domain/organization/events.js';
import type { Position } from '../../infra/eventstore/port.js';
import { analytics } from '../../projections/analytics.js';
import { AnalyticsBuilder } from '../../projections/analytics-builder.js';
import { activeGeneration, buildingGenerations, storedDays } from '../../projections/queries/analytics.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { openFixture } from './support.js';

const fixture = await openFixture(t);
const db = fixture.db;
// As the service reads the store: every event at its type's latest version, checked.
const store = upcasting(fixture.store);
const runner = new ProjectionRunner({ store, db, projectors: [analytics] });
await runner.start();
t.teardown(() => runner.stop());
// Pages of a few events: a replay forgets what it has to between many pages.
const builder = new AnalyticsBuilder({ store, db, pageSize: 7 });

const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham'];
/** Daylight-saving changes of 2026 in those zones (and one ordinary day), as UTC instants. */
const CHANGES = ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-04-04T15:00:00Z', '2026-09-26T14:00:00Z', '2026-06-15T12:00:00Z'].map(Date.parse);
const ITEMS = ['a', 'b', 'c'];
const CURRENCIES = ['CAD', 'USD', null];

type Step =
  | { kind: 'events'; session: number; receivedAt: string; events: RecordedShopperEvent[] }
  /** A batch as stored before events said whether they count: no `unverified`, any three letters as currency, values to 1e9. */
  | { kind: 'legacy'; session: number; receivedAt: string; events: ShopperEvent[] }
  /** Products the service put on the session's screen: an agent turn, or a search's results. */
  | { kind: 'shown'; session: number; receivedAt: string; by: 'AgentTurnCompleted' | 'SearchResultsShown'; items: string[] }
  | { kind: 'timezone'; zone: string };

const shopperEvent = (currencies: ReadonlyArray<string | null>, maxCents: number): fc.Arbitrary<ShopperEvent> =>
  fc.record({
    type: fc.constantFrom(...SHOPPER_EVENT_TYPES),
    item: fc.option(fc.constantFrom(...ITEMS), { nil: null }),
    cents: fc.integer({ min: 0, max: maxCents }),
    currency: fc.constantFrom(...currencies),
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

const unverified: fc.Arbitrary<UnverifiedReason | null> = fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom<UnverifiedReason>('item', 'dataset', 'intent', 'session-revenue') });
const received = fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -36 * 60, max: 36 * 60 })).map(([base, minutes]) => new Date(base + minutes * 60_000).toISOString());
const session = fc.integer({ min: 0, max: 4 });

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    kind: fc.constant('events' as const),
    session,
    receivedAt: received,
    events: fc.array(fc.tuple(shopperEvent(CURRENCIES, 50_000), unverified).map(([event, reason]) => ({ ...event, unverified: reason })), { minLength: 1, maxLength: 6 }),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('legacy' as const), session, receivedAt: received, events: fc.array(shopperEvent([...CURRENCIES, 'XYZ'], 2e11), { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shown' as const), session, receivedAt: received, by: fc.constantFrom('AgentTurnCompleted' as const, 'SearchResultsShown' as const), items: fc.subarray(ITEMS, { minLength: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('timezone' as const), zone: fc.constantFrom(...ZONES) }) },
);

/** Why a version 1 event counts in nothing, from the definitions (document: a currency that is not ISO 4217, a value past 100,000,000). */
const legacyReason = (e: ShopperEvent): UnverifiedReason | null => (e.currency === 'XYZ' ? 'currency' : e.value !== null && e.value > 100_000_000 ? 'value' : null);

/** The days counted afresh, written plainly from the definitions (not with the tally). */
function freshCount(steps: readonly Step[], sessions: readonly string[], zone: string, seen = { assisted: 0, forgotten: 0 }): Map<string, DailyFigures> {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  // session/item → when it was last shown; `clock`: the organization's newest showing so far.
  const shown = new Map<string, number>();
  let clock = Number.NEGATIVE_INFINITY;
  const days = new Map<string, { sessions: Set<string>; buying: Set<string>; messages: number; productClicks: number; addToCarts: number; purchases: number; unverified: number; revenue: Map<string, [number, number]> }>();
  for (const s of steps) {
    if (s.kind === 'timezone') continue;
    const session = sessions[s.session]!;
    if (s.kind === 'shown') {
      const at = Date.parse(s.receivedAt);
      for (const item of s.items) shown.set(`${session}/${item}`, Math.max(at, shown.get(`${session}/${item}`) ?? at));
      clock = Math.max(clock, at);
      continue;
    }
    const date = format.format(new Date(s.receivedAt));
    if (!days.has(date)) days.set(date, { sessions: new Set(), buying: new Set(), messages: 0, productClicks: 0, addToCarts: 0, purchases: 0, unverified: 0, revenue: new Map() });
    const day = days.get(date)!;
    for (const e of s.events) {
      if (('unverified' in e ? e.unverified : legacyReason(e)) !== null) {
        day.unverified++;
        continue;
      }
      day.sessions.add(session);
      // Shown at most three days before it was received, and not left behind by the organization's clock.
      const shownAt = e.itemId === null ? undefined : shown.get(`${session}/${e.itemId}`);
      const assisted = shownAt !== undefined && shownAt + SHOWN_KEPT_MS >= Math.max(Date.parse(s.receivedAt), clock);
      if ((e.type === 'purchase' || e.type === 'add_to_cart') && shownAt !== undefined) seen[assisted ? 'assisted' : 'forgotten']++;
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
      dailyFigures(
        { date, sessions: d.sessions.size, purchasingSessions: d.buying.size, messages: d.messages, productClicks: d.productClicks, addToCarts: d.addToCarts, purchases: d.purchases, unverified: d.unverified, revenue: d.revenue },
        'CAD',
      ),
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

async function record(organizationId: string, sessionId: string, receivedAt: string, events: RecordedShopperEvent[]): Promise<Position> {
  const data: ShopperEventsRecorded['data'] = { sessionId, organizationId, demo: false, receivedAt, events, at: receivedAt };
  return (await store.append(sessionStream(sessionId), [{ type: 'ShopperEventsRecorded', data: { ...data } }], { expectedRevision: 'any' })).position;
}

/** A batch as an older build stored it: version 1, its events without `unverified`. */
async function recordLegacy(organizationId: string, sessionId: string, receivedAt: string, events: ShopperEvent[]): Promise<Position> {
  const data = { sessionId, organizationId, demo: false, receivedAt, events, at: receivedAt };
  return (await store.append(sessionStream(sessionId), [{ type: 'ShopperEventsRecorded', data, metadata: { schemaVersion: 1 } }], { expectedRevision: 'any' })).position;
}

async function show(organizationId: string, sessionId: string, at: string, by: 'AgentTurnCompleted' | 'SearchResultsShown', items: string[]): Promise<Position> {
  const shown = items.map((itemId) => ({ itemId, datasetId: randomUUID() }));
  const data =
    by === 'SearchResultsShown'
      ? { sessionId, organizationId, demo: false, shown, at }
      : { sessionId, organizationId, demo: false, turnId: randomUUID(), outcome: 'done', model: 'offline-stylist', shown, tools: [], timings: { modelCalls: 1, firstEventMs: null, firstResultsMs: null, totalMs: 5 }, visit: null, at };
  return (await store.append(sessionStream(sessionId), [{ type: by, data }], { expectedRevision: 'any' })).position;
}

async function changeZone(organizationId: string, zone: string): Promise<Position> {
  return (await store.append(organizationStream(organizationId), [{ type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: zone, at: now() } }], { expectedRevision: 'any' })).position;
}

async function requestRebuild(organizationId: string): Promise<Position> {
  const event: OrganizationEvent = { type: 'AnalyticsRebuildRequested', data: { organizationId, at: now() } };
  return (await store.append(organizationStream(organizationId), [event], { expectedRevision: 'any' })).position;
}

async function createOrganization(organizationId: string, zone: string): Promise<Position> {
  return (await store.append(organizationStream(organizationId), [{ type: 'OrganizationCreated', data: { organizationId, name: 'Shop', reportingTimezone: zone, at: now() } }], { expectedRevision: 'no_stream' })).position;
}

/** Appends one step of a history for an organization and its sessions. */
function append(organizationId: string, sessions: readonly string[], s: Exclude<Step, { kind: 'timezone' }>): Promise<Position> {
  if (s.kind === 'events') return record(organizationId, sessions[s.session]!, s.receivedAt, s.events);
  if (s.kind === 'legacy') return recordLegacy(organizationId, sessions[s.session]!, s.receivedAt, s.events);
  return show(organizationId, sessions[s.session]!, s.receivedAt, s.by, s.items);
}

const purchaseOf = (item: string, cents: number): RecordedShopperEvent => ({ type: 'purchase', eventId: null, at: null, itemId: item, datasetId: null, intent: null, value: cents / 100, currency: 'CAD', data: null, unverified: null });
/** A history that surely forgets: shown in March, bought within three days, then after a showing in June, and past three days. */
const forgetting: Step[] = [
  { kind: 'shown', session: 0, receivedAt: '2026-03-08T07:00:00.000Z', by: 'SearchResultsShown', items: ['a', 'b'] },
  { kind: 'events', session: 0, receivedAt: '2026-03-09T07:00:00.000Z', events: [purchaseOf('a', 1999)] },
  { kind: 'events', session: 1, receivedAt: '2026-03-09T08:00:00.000Z', events: [purchaseOf('a', 500)] },
  { kind: 'shown', session: 1, receivedAt: '2026-06-15T12:00:00.000Z', by: 'AgentTurnCompleted', items: ['c'] },
  { kind: 'events', session: 0, receivedAt: '2026-03-09T09:00:00.000Z', events: [purchaseOf('b', 1250)] },
  { kind: 'timezone', zone: 'Asia/Kolkata' },
  { kind: 'events', session: 1, receivedAt: '2026-06-19T12:00:00.000Z', events: [purchaseOf('c', 700)] },
  { kind: 'events', session: 1, receivedAt: '2026-06-16T12:00:00.000Z', events: [purchaseOf('c', 300)] },
];

t.test('live equals replay equals a fresh count in every timezone, and switching back returns the same numbers', async (t) => {
  const seen = { assisted: 0, forgotten: 0 };
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(step, { minLength: 1, maxLength: 24 }), fc.constantFrom(...ZONES), async (startZone, steps, awayZone) => {
      const organizationId = randomUUID();
      const sessions = Array.from({ length: 5 }, () => randomUUID());
      const finalZone = steps.reduce((zone, s) => (s.kind === 'timezone' ? s.zone : zone), startZone);
      // The twin is sent the same events and never changes its timezone: counted live only.
      const twin = { organizationId: randomUUID(), sessions: Array.from({ length: 5 }, () => randomUUID()) };
      let position = await createOrganization(organizationId, startZone);
      await createOrganization(twin.organizationId, finalZone);
      for (const s of steps) {
        if (s.kind === 'timezone') position = await changeZone(organizationId, s.zone);
        else {
          await append(organizationId, sessions, s);
          // The twin's event comes later in `$all`: waiting for it waits for both.
          position = await append(twin.organizationId, twin.sessions, s);
        }
        // Sometimes let the projector and the builder run in the middle of the history.
        if (s.kind === 'timezone' && s.zone.length % 2) await settle(position);
      }
      await settle(position);
      const fresh = freshCount(steps, sessions, finalZone, seen);
      const model = await readModel(organizationId);
      t.equal(model.timezone, finalZone);
      t.same(Object.fromEntries(model.days), Object.fromEntries(fresh), `days in ${finalZone}`);
      const live = await readModel(twin.organizationId);
      t.same(Object.fromEntries(live.days), Object.fromEntries(model.days), 'counted live only: the same numbers');
      await settle(await requestRebuild(organizationId));
      t.same(Object.fromEntries((await readModel(organizationId)).days), Object.fromEntries(live.days), 'replayed only: the same numbers as live');

      await settle(await changeZone(organizationId, awayZone));
      const away = await readModel(organizationId);
      t.same(Object.fromEntries(away.days), Object.fromEntries(freshCount(steps, sessions, awayZone)), `days in ${awayZone}`);
      await settle(await changeZone(organizationId, finalZone));
      t.same(Object.fromEntries((await readModel(organizationId)).days), Object.fromEntries(model.days), 'back in the first timezone: the original numbers');
    }),
    { numRuns: Number(process.env.ANALYTICS_RUNS) || 20, examples: [['UTC', forgetting, 'America/New_York']] },
  );
  t.ok(seen.assisted > 0, 'some histories had assisted adds to cart or purchases');
  t.ok(seen.forgotten > 0, 'and some of items shown, then forgotten');
});

t.test('the old numbers answer while a new count is built, then the new ones replace them at once', async (t) => {
  const organizationId = randomUUID();
  const session = randomUUID();
  await store.append(organizationStream(organizationId), [{ type: 'OrganizationCreated', data: { organizationId, name: 'Shop', reportingTimezone: 'UTC', at: now() } }], { expectedRevision: 'no_stream' });
  const purchase = (value: number): RecordedShopperEvent => ({ type: 'purchase', eventId: null, at: null, itemId: null, datasetId: null, intent: null, value, currency: 'CAD', data: null, unverified: null });
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
