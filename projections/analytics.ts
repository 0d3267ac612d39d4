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
// assisted. What a client reports it showed (product_view, product_click) does not.
// Shopper events kept apart when recorded (`unverified`) count only as `unverified` on their day.
import { sql, type Kysely } from 'kysely';
import { attribute, emptyIncrements, noteShown, tally, tenThousandthsText, type DayIncrements, type ShownItems } from '../domain/analytics/days.js';
import type { OrganizationEvent } from '../domain/organization/events.js';
import type { AgentTurnCompleted, SearchResultsShown, SessionEvent, ShopperEventsRecorded } from '../domain/session/events.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString } from '../infra/eventstore/position.js';
import { projector } from './projector.js';

type AnalyticsEvent = OrganizationEvent | SessionEvent;
type Recorded = RecordedEvent<ShopperEventsRecorded> | RecordedEvent<AgentTurnCompleted> | RecordedEvent<SearchResultsShown>;

/** How long a session can still send events after its first (the session token's life) and some. */
export const SHOWN_KEPT_MS = 3 * 24 * 60 * 60 * 1000;

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

/** What the stylist showed in the sessions of a batch: read once, with what the batch shows added. */
class ShownInBatch implements ShownItems {
  private readonly known = new Set<string>();
  /** [sessionId, itemId, organizationId, receivedAt] of what the batch showed first. */
  readonly added: Array<[string, string, string, string]> = [];
  current: Recorded | null = null;

  static async read(db: Kysely<any>, batch: readonly Recorded[]): Promise<ShownInBatch> {
    const shown = new ShownInBatch();
    // Only sessions that add to cart or buy ask what was shown.
    const asking = [
      ...new Set(batch.filter((e) => e.type === 'ShopperEventsRecorded' && e.data.events.some((s) => (s.type === 'add_to_cart' || s.type === 'purchase') && s.itemId)).map((e) => e.data.sessionId)),
    ];
    if (asking.length) {
      const { rows } = await sql<{ organization_id: string; session_id: string; item_id: string }>`
        select organization_id, session_id, item_id from analytics_shown where session_id = any(${asking}::uuid[])`.execute(db);
      for (const row of rows) shown.known.add(`${row.organization_id}\0${row.session_id}\0${row.item_id}`);
    }
    return shown;
  }

  // A session belongs to one organization (its token says which); the key holds both all the same.
  private key(sessionId: string, itemId: string): string {
    return `${this.current!.data.organizationId}\0${sessionId}\0${itemId}`;
  }

  has(sessionId: string, itemId: string): boolean {
    return this.known.has(this.key(sessionId, itemId));
  }

  add(sessionId: string, itemId: string): void {
    const key = this.key(sessionId, itemId);
    if (this.known.has(key)) return;
    this.known.add(key);
    const current = this.current!;
    this.added.push([sessionId, itemId, current.data.organizationId, current.type === 'ShopperEventsRecorded' ? current.data.receivedAt : current.data.at]);
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
    shown.current = event;
    if (event.type === 'AgentTurnCompleted' || event.type === 'SearchResultsShown') {
      noteShown(event.data.sessionId, event.data.shown, shown);
      continue;
    }
    const assisted = attribute(event.data.sessionId, event.data.events, shown);
    for (const generation of open.get(event.data.organizationId) ?? []) {
      const key = `${generation.organizationId}/${generation.generation}`;
      let entry = tallies.get(key);
      if (!entry) tallies.set(key, (entry = { generation, increments: emptyIncrements() }));
      tally(entry.increments, generation.timezone, event.data, assisted);
    }
  }
  if (shown.added.length) {
    const added = shown.added;
    await sql`
      insert into analytics_shown (session_id, item_id, organization_id, received_at)
      select * from unnest(${added.map((a) => a[0])}::uuid[], ${added.map((a) => a[1])}::text[], ${added.map((a) => a[2])}::uuid[], ${added.map((a) => a[3])}::timestamptz[])
      on conflict do nothing`.execute(db);
    // Sessions end within a day (their token's life): what they showed is forgotten after three,
    // measured from the newest event, so a replay of old history forgets the same way.
    const newest = added.reduce((max, a) => (a[3] > max ? a[3] : max), added[0]![3]);
    if (Math.random() < 0.02) await sql`delete from analytics_shown where received_at < ${new Date(Date.parse(newest) - SHOWN_KEPT_MS).toISOString()}::timestamptz`.execute(db);
  }
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
