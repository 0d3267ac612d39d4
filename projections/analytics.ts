// The analytics read model (document 3 "Widget, events, analytics"): daily figures per
// organization, counted from the session streams' `ShopperEventsRecorded` in the organization's
// reporting timezone. Tables: 0016_analytics.ts.
//
// Generations make a change of definition safe to apply to history: each counts every event in
// one timezone. The active one answers; a new timezone (or `stylist analytics rebuild`) opens a
// building generation at its event's position: this projector adds every later event to it as to
// the active one, while the builder (analytics-builder.ts) replays the history before that
// position into it and then, in one transaction, makes it the active one and drops the old. Old
// numbers answer until the new ones are complete, and the swap is atomic.
//
// The agent's turns (`AgentTurnCompleted`) and searches' results (`SearchResultsShown`) count no
// figure of their own; what they put on screen makes a later add to cart or purchase of it
// assisted, by one rule both paths apply event by event (domain/analytics/attribution.ts). What a
// client reports it showed (product_view, product_click) does not.
// Shopper events kept apart when recorded (`unverified`) count only as `unverified` on their day.
import { sql, type Kysely } from 'kysely';
import { attribute, noteShown, SHOWN_KEPT_MS, ShownItems } from '../domain/analytics/attribution.js';
import { emptyIncrements, tally, tenThousandthsText, type DayIncrements } from '../domain/analytics/days.js';
import type { OrganizationEvent } from '../domain/organization/events.js';
import type { AgentTurnCompleted, SearchResultsShown, SessionEvent, ShopperEventsRecorded } from '../domain/session/events.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString } from '../infra/eventstore/position.js';
import { projector } from './projector.js';

type AnalyticsEvent = OrganizationEvent | SessionEvent;
type Recorded = RecordedEvent<ShopperEventsRecorded> | RecordedEvent<AgentTurnCompleted> | RecordedEvent<SearchResultsShown>;

export interface Generation {
  organizationId: string;
  generation: number;
  timezone: string;
}

const GENERATION_TABLES = ['analytics_days', 'analytics_revenue', 'analytics_session_days'] as const;

/** Adds a tally to one generation's rows (commutative: the live projector and the builder both add). */
export async function addIncrements(db: Kysely<any>, organizationId: string, generation: number, increments: DayIncrements): Promise<void> {
  const days = [...increments.counts];
  if (days.length) {
    await sql`
      insert into analytics_days (organization_id, generation, date, messages, product_clicks, add_to_carts, purchases, unverified)
      select ${organizationId}::uuid, ${generation}::int, d.*
        from unnest(${days.map(([date]) => date)}::text[], ${days.map(([, c]) => c.messages)}::bigint[], ${days.map(([, c]) => c.productClicks)}::bigint[],
                    ${days.map(([, c]) => c.addToCarts)}::bigint[], ${days.map(([, c]) => c.purchases)}::bigint[], ${days.map(([, c]) => c.unverified)}::bigint[]) as d
      on conflict (organization_id, generation, date) do update set
        messages = analytics_days.messages + excluded.messages,
        product_clicks = analytics_days.product_clicks + excluded.product_clicks,
        add_to_carts = analytics_days.add_to_carts + excluded.add_to_carts,
        purchases = analytics_days.purchases + excluded.purchases,
        unverified = analytics_days.unverified + excluded.unverified`.execute(db);
  }
  const revenue = [...increments.revenue].map(([key, [sum, assisted]]) => {
    const [date = '', currency = ''] = key.split('\0');
    return { date, currency, sum: tenThousandthsText(sum), assisted: tenThousandthsText(assisted) };
  });
  if (revenue.length) {
    await sql`
      insert into analytics_revenue (organization_id, generation, date, currency, revenue, assisted_revenue)
      select ${organizationId}::uuid, ${generation}::int, r.*
        from unnest(${revenue.map((r) => r.date)}::text[], ${revenue.map((r) => r.currency)}::text[], ${revenue.map((r) => r.sum)}::numeric[],
                    ${revenue.map((r) => r.assisted)}::numeric[]) as r
      on conflict (organization_id, generation, date, currency) do update set
        revenue = analytics_revenue.revenue + excluded.revenue,
        assisted_revenue = analytics_revenue.assisted_revenue + excluded.assisted_revenue`.execute(db);
  }
  const sessions = [...increments.sessions].map(([key, purchased]) => {
    const [date = '', sessionId = ''] = key.split('\0');
    return { date, sessionId, purchased };
  });
  if (sessions.length) {
    await sql`
      insert into analytics_session_days (organization_id, generation, date, session_id, purchased)
      select ${organizationId}::uuid, ${generation}::int, s.*
        from unnest(${sessions.map((s) => s.date)}::text[], ${sessions.map((s) => s.sessionId)}::uuid[], ${sessions.map((s) => s.purchased)}::boolean[]) as s
      on conflict (organization_id, generation, date, session_id) do update set purchased = analytics_session_days.purchased or excluded.purchased`.execute(db);
  }
}

/** Drops a generation and its rows. */
export async function dropGeneration(db: Kysely<any>, organizationId: string, generation: number): Promise<void> {
  for (const table of GENERATION_TABLES) await db.deleteFrom(table).where('organization_id', '=', organizationId).where('generation', '=', generation).execute();
  await db.deleteFrom('analytics_generations').where('organization_id', '=', organizationId).where('generation', '=', generation).execute();
}

/** Opens a building generation at `event`, dropping any other still building (superseded). */
async function openGeneration(db: Kysely<any>, event: RecordedEvent, organizationId: string, timezone: string | null, reason: string): Promise<void> {
  const rows = await db
    .selectFrom('analytics_generations')
    .select(['generation', 'timezone', 'state'])
    .where('organization_id', '=', organizationId)
    .orderBy('generation', 'desc')
    .execute();
  if (!rows.length) return; // an organization this projector never saw created
  for (const row of rows) if (row.state === 'building') await dropGeneration(db, organizationId, row.generation);
  await db
    .insertInto('analytics_generations')
    .values({
      organization_id: organizationId,
      generation: Number(rows[0]!.generation) + 1,
      // A rebuild keeps the zone of the newest generation: the organization's current one.
      timezone: timezone ?? rows[0]!.timezone,
      state: 'building',
      reason,
      since_position: positionToString(event.position),
      requested_at: event.recordedAt,
    })
    .execute();
}

const isShowing = (e: Recorded): e is RecordedEvent<AgentTurnCompleted> | RecordedEvent<SearchResultsShown> => e.type === 'AgentTurnCompleted' || e.type === 'SearchResultsShown';
const asksWhatWasShown = (e: Recorded): boolean =>
  e.type === 'ShopperEventsRecorded' && e.data.events.some((s) => (s.type === 'add_to_cart' || s.type === 'purchase') && s.itemId !== null);
const msOf = (value: Date | string): number => new Date(value).getTime();

/**
 * What the service showed the sessions of a batch's organizations (domain/analytics/attribution.ts):
 * each organization's clock and the showings of the sessions that ask, read once; the batch's own
 * showings added as it goes, and written back at its end.
 */
class ShownInBatch {
  private readonly organizations = new Map<string, { shown: ShownItems; storedClock: number }>();
  /** `organizationId \0 sessionId \0 itemId` → the time a showing of the batch moved it to (ms). */
  private readonly changed = new Map<string, number>();

  static async read(db: Kysely<any>, batch: readonly Recorded[]): Promise<ShownInBatch> {
    const shown = new ShownInBatch();
    const involved = [...new Set(batch.filter((e) => isShowing(e) || asksWhatWasShown(e)).map((e) => e.data.organizationId))];
    if (!involved.length) return shown;
    const { rows: clocks } = await sql<{ organization_id: string; clock: Date | string | null }>`
      select o.id as organization_id, (select max(received_at) from analytics_shown s where s.organization_id = o.id) as clock
        from unnest(${involved}::uuid[]) as o(id)`.execute(db);
    for (const row of clocks) {
      const clock = row.clock === null ? Number.NEGATIVE_INFINITY : msOf(row.clock);
      shown.organizations.set(row.organization_id, { shown: new ShownItems(clock), storedClock: clock });
    }
    // Only sessions that add to cart or buy ask what was shown.
    const asking = [...new Set(batch.filter(asksWhatWasShown).map((e) => e.data.sessionId))];
    if (asking.length) {
      const { rows } = await sql<{ organization_id: string; session_id: string; item_id: string; received_at: Date | string }>`
        select organization_id, session_id, item_id, received_at from analytics_shown where session_id = any(${asking}::uuid[])`.execute(db);
      for (const row of rows) shown.of(row.organization_id).show(row.session_id, row.item_id, msOf(row.received_at));
    }
    return shown;
  }

  of(organizationId: string): ShownItems {
    let entry = this.organizations.get(organizationId);
    if (!entry) this.organizations.set(organizationId, (entry = { shown: new ShownItems(), storedClock: Number.NEGATIVE_INFINITY }));
    return entry.shown;
  }

  note(event: RecordedEvent<AgentTurnCompleted> | RecordedEvent<SearchResultsShown>): void {
    const { organizationId, sessionId, shown, at } = event.data;
    for (const item of noteShown(sessionId, shown, at, this.of(organizationId))) this.changed.set(`${organizationId}\0${sessionId}\0${item.itemId}`, item.at);
  }

  /** Stores the batch's showings and drops those the organizations' clocks have left behind (they can never count again). */
  async write(db: Kysely<any>): Promise<void> {
    const rows = [...this.changed].flatMap(([key, at]) => {
      const [organizationId = '', sessionId = '', itemId = ''] = key.split('\0');
      return this.of(organizationId).clock - SHOWN_KEPT_MS > at ? [] : [{ organizationId, sessionId, itemId, at: new Date(at).toISOString() }];
    });
    if (rows.length) {
      await sql`
        insert into analytics_shown (session_id, item_id, organization_id, received_at)
        select * from unnest(${rows.map((r) => r.sessionId)}::uuid[], ${rows.map((r) => r.itemId)}::text[], ${rows.map((r) => r.organizationId)}::uuid[], ${rows.map((r) => r.at)}::timestamptz[])
        on conflict (session_id, item_id, organization_id) do update set received_at = greatest(analytics_shown.received_at, excluded.received_at)`.execute(db);
    }
    const advanced = [...this.organizations].filter(([, o]) => o.shown.clock > o.storedClock);
    if (advanced.length) {
      await sql`
        delete from analytics_shown s using unnest(${advanced.map(([id]) => id)}::uuid[], ${advanced.map(([, o]) => new Date(o.shown.clock - SHOWN_KEPT_MS).toISOString())}::timestamptz[]) as h(organization_id, horizon)
         where s.organization_id = h.organization_id and s.received_at < h.horizon`.execute(db);
    }
  }
}

/** A run of shopper events, in order: attributed once, tallied into each open generation of its organization. */
export async function applyShopperEvents(db: Kysely<any>, batch: readonly Recorded[]): Promise<void> {
  if (!batch.length) return;
  const organizations = [...new Set(batch.map((e) => e.data.organizationId))];
  const generations = await db
    .selectFrom('analytics_generations')
    .select(['organization_id', 'generation', 'timezone'])
    .where('organization_id', 'in', organizations)
    .where('state', 'in', ['active', 'building'])
    .execute();
  const open = new Map<string, Generation[]>();
  for (const row of generations) {
    const list = open.get(row.organization_id) ?? [];
    list.push({ organizationId: row.organization_id, generation: Number(row.generation), timezone: row.timezone });
    open.set(row.organization_id, list);
  }
  const shown = await ShownInBatch.read(db, batch);
  const tallies = new Map<string, { generation: Generation; increments: DayIncrements }>();
  for (const event of batch) {
    if (isShowing(event)) {
      shown.note(event);
      continue;
    }
    const { organizationId, sessionId, events, receivedAt } = event.data;
    const assisted = attribute(sessionId, events, receivedAt, shown.of(organizationId));
    for (const generation of open.get(organizationId) ?? []) {
      const key = `${generation.organizationId}/${generation.generation}`;
      let entry = tallies.get(key);
      if (!entry) tallies.set(key, (entry = { generation, increments: emptyIncrements() }));
      tally(entry.increments, generation.timezone, event.data, assisted);
    }
  }
  await shown.write(db);
  for (const { generation, increments } of tallies.values()) await addIncrements(db, generation.organizationId, generation.generation, increments);
}

export const analytics = projector<AnalyticsEvent>({
  name: 'analytics',
  tables: ['analytics_generations', ...GENERATION_TABLES, 'analytics_shown'],
  handlers: {
    OrganizationCreated: async (db, event) => {
      const { organizationId, reportingTimezone } = event.data;
      await db
        .insertInto('analytics_generations')
        .values({
          organization_id: organizationId,
          generation: 1,
          timezone: reportingTimezone,
          state: 'active',
          reason: 'created',
          since_position: positionToString(event.position),
          requested_at: event.recordedAt,
          completed_at: event.recordedAt,
        })
        .onConflict((c) => c.columns(['organization_id', 'generation']).doNothing())
        .execute();
    },
    OrganizationTimezoneChanged: (db, event) => openGeneration(db, event, event.data.organizationId, event.data.reportingTimezone, 'timezone'),
    AnalyticsRebuildRequested: (db, event) => openGeneration(db, event, event.data.organizationId, null, 'rebuild'),
    ShopperEventsRecorded: (db, event) => applyShopperEvents(db, [event]),
    AgentTurnCompleted: (db, event) => applyShopperEvents(db, [event]),
    SearchResultsShown: (db, event) => applyShopperEvents(db, [event]),
  },
  // Runs of shopper events apply together (a few statements per run, whatever its length);
  // organization events between them, one by one, in order.
  applyBatch: async (db, events) => {
    let run: Recorded[] = [];
    for (const event of events) {
      if (event.type === 'ShopperEventsRecorded' || event.type === 'AgentTurnCompleted' || event.type === 'SearchResultsShown') {
        run.push(event as Recorded);
        continue;
      }
      await applyShopperEvents(db, run);
      run = [];
      await analytics.handlers[event.type]!(db, event as RecordedEvent);
    }
    await applyShopperEvents(db, run);
  },
});
