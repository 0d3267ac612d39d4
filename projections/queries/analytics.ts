// Reads of the analytics read model (projections/analytics.ts) for GET /v1/analytics/daily: the
// organization's active generation, its days in a range, and the main currency revenue is in.
import { sql, type Kysely } from 'kysely';
import { datesBetween, dailyFigures, type DailyFigures, type StoredDay } from '../../domain/analytics/days.js';

export const DEFAULT_CURRENCY = 'CAD';

export async function activeGeneration(db: Kysely<any>, organizationId: string): Promise<{ generation: number; timezone: string } | null> {
  const row = await db
    .selectFrom('analytics_generations')
    .select(['generation', 'timezone'])
    .where('organization_id', '=', organizationId)
    .where('state', '=', 'active')
    .orderBy('generation', 'desc')
    .executeTakeFirst();
  return row ? { generation: Number(row.generation), timezone: row.timezone } : null;
}

/**
 * The organization's main currency: the currency most of its live datasets are in (the oldest
 * such dataset breaking a tie), CAD when none sets one.
 */
export async function mainCurrency(db: Kysely<any>, organizationId: string): Promise<string> {
  const { rows } = await sql<{ currency: string }>`
    select upper(config->>'currency') as currency from datasets
     where organization_id = ${organizationId} and status <> 'deleted' and coalesce(config->>'currency', '') <> ''
     group by 1 order by count(*) desc, min(created_at) limit 1`.execute(db);
  return rows[0]?.currency ?? DEFAULT_CURRENCY;
}

export interface DailyAnswer {
  /** The timezone the days are counted in: while a new count is built, the old count's. */
  timezone: string;
  currency: string;
  days: DailyFigures[];
  /** Whether a new count is under way (a new timezone, or a rebuild): the days above are the old count until it is done. */
  rebuilding: boolean;
  /** The count under way, when there is one. */
  rebuild?: { timezone: string; reason: string; requestedAt: string; eventsRead: number };
}

export async function dailyAnalytics(db: Kysely<any>, organizationId: string, from: string, to: string): Promise<DailyAnswer | null> {
  const [active, currency, [building]] = await Promise.all([activeGeneration(db, organizationId), mainCurrency(db, organizationId), buildingGenerations(db, organizationId)]);
  if (!active) return null;
  const stored = await storedDays(db, organizationId, active.generation, from, to);
  const days = datesBetween(from, to).map((date) => dailyFigures(stored.get(date) ?? emptyDay(date), currency));
  return { timezone: active.timezone, currency, days, rebuilding: !!building, ...(building ? { rebuild: rebuildOf(building) } : {}) };
}

const rebuildOf = (b: BuildingGeneration) => ({ timezone: b.timezone, reason: b.reason, requestedAt: b.requestedAt, eventsRead: b.eventsRead });

const emptyDay = (date: string): StoredDay => ({ date, sessions: 0, purchasingSessions: 0, messages: 0, productClicks: 0, addToCarts: 0, purchases: 0, unverified: 0, revenue: new Map() });

/** One generation's days in [from, to], as stored (tests compare them with a fresh count). */
export async function storedDays(db: Kysely<any>, organizationId: string, generation: number, from: string, to: string): Promise<Map<string, StoredDay>> {
  const scope = (table: string) => sql`from ${sql.table(table)} where organization_id = ${organizationId} and generation = ${generation} and date between ${from} and ${to}`;
  // The three tables in one snapshot: a projection batch writes them together, and read on three
  // connections a batch committing in between gave its purchases without its sessions (a day of
  // two purchases and a conversion rate of 0, seen in CI under load).
  const read = async (trx: Kysely<any>) => ({
    counts: await sql<{ date: string; messages: string; product_clicks: string; add_to_carts: string; purchases: string; unverified: string }>`select date, messages, product_clicks, add_to_carts, purchases, unverified ${scope('analytics_days')}`.execute(trx),
    sessions: await sql<{ date: string; sessions: string; purchasing: string }>`select date, count(*) as sessions, count(*) filter (where purchased) as purchasing ${scope('analytics_session_days')} group by date`.execute(trx),
    revenue: await sql<{ date: string; currency: string; revenue: string; assisted_revenue: string }>`select date, currency, revenue::text, assisted_revenue::text ${scope('analytics_revenue')}`.execute(trx),
  });
  const { counts, sessions, revenue } = db.isTransaction ? await read(db) : await db.transaction().setIsolationLevel('repeatable read').execute(read);
  const days = new Map<string, StoredDay>();
  const day = (date: string) => days.get(date) ?? days.set(date, emptyDay(date)).get(date)!;
  for (const row of counts.rows) {
    Object.assign(day(row.date), { messages: Number(row.messages), productClicks: Number(row.product_clicks), addToCarts: Number(row.add_to_carts), purchases: Number(row.purchases), unverified: Number(row.unverified) });
  }
  for (const row of sessions.rows) Object.assign(day(row.date), { sessions: Number(row.sessions), purchasingSessions: Number(row.purchasing) });
  for (const row of revenue.rows) day(row.date).revenue.set(row.currency, [Number(row.revenue), Number(row.assisted_revenue)]);
  return days;
}

export interface BuildingGeneration {
  organizationId: string;
  generation: number;
  timezone: string;
  reason: string;
  requestedAt: string;
  eventsRead: number;
  claimedBy: string | null;
}

/** Generations being built, for `stylist projections status` and the analytics answer. */
export async function buildingGenerations(db: Kysely<any>, organizationId?: string): Promise<BuildingGeneration[]> {
  let query = db
    .selectFrom('analytics_generations')
    .select(['organization_id', 'generation', 'timezone', 'reason', 'requested_at', 'events_read', 'claimed_by'])
    .where('state', '=', 'building');
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  const rows = await query.orderBy('requested_at').execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    generation: Number(row.generation),
    timezone: row.timezone,
    reason: row.reason,
    requestedAt: row.requested_at,
    eventsRead: Number(row.events_read),
    claimedBy: row.claimed_by,
  }));
}
