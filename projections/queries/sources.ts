// Reads of data sources, scoped by organization and dataset.
import type { Kysely } from 'kysely';
import { isUuid, iso, json } from './rows.js';
import { NO_SYNC_STATS, type SyncStats } from '../../domain/source/events.js';
import type { Market } from '../../domain/source/markets.js';

/** A market as configured, with how its feed fared at the last sync (`pending` before any). */
export interface MarketView extends Market {
  status: 'pending' | 'read' | 'unread';
  reason: string | null;
  products: number;
  readAt: string | null;
}

/** Document 1's DataSource; `lastStats` only on lists. */
export interface DataSource {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  type: 'shopify-api';
  status: 'active' | 'inactive';
  sync: { period: number; previous: string | null; lastStats?: SyncStats };
  config: { endpoint: string; disableGenerativeAssets: true; markets: MarketView[]; defaultMarket: string | null };
  createdAt: string;
  updatedAt: string;
}

const sourceOf = (row: Record<string, any>): DataSource => ({
  sourceId: row.source_id,
  datasetId: row.dataset_id,
  organizationId: row.organization_id,
  type: row.type,
  // An archived dataset switches its sources off; activation brings them back.
  status: row.dataset_status === 'archived' ? 'inactive' : row.status,
  sync: { period: row.sync_period, previous: row.sync_previous ? iso(row.sync_previous) : null },
  config: { endpoint: row.endpoint, disableGenerativeAssets: true, markets: [], defaultMarket: row.default_market ?? null },
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

const sourcesOf = (db: Kysely<any>, organizationId: string, datasetId: string) =>
  db.selectFrom('data_sources as s').innerJoin('datasets as d', 'd.dataset_id', 's.dataset_id').where('s.organization_id', '=', organizationId).where('s.dataset_id', '=', datasetId);

/** Adds each source's markets with the state of their last read. */
async function withMarkets(db: Kysely<any>, rows: Array<Record<string, any>>): Promise<DataSource[]> {
  const configured = rows.filter((row) => row.markets !== null);
  const reads = configured.length
    ? await db.selectFrom('source_markets').selectAll().where('source_id', 'in', configured.map((row) => row.source_id)).execute()
    : [];
  return rows.map((row) => {
    const source = sourceOf(row);
    const markets = row.markets === null ? [] : json<Market[]>(row.markets);
    source.config.markets = markets.map((market) => {
      const read = reads.find((r) => r.source_id === row.source_id && r.handle === market.handle);
      return { ...market, status: read?.status ?? 'pending', reason: read?.reason ?? null, products: read?.products ?? 0, readAt: read ? iso(read.read_at) : null };
    });
    return source;
  });
}

export async function getSource(db: Kysely<any>, organizationId: string, datasetId: string, sourceId: string): Promise<DataSource | null> {
  if (![organizationId, datasetId, sourceId].every(isUuid)) return null;
  const row = await sourcesOf(db, organizationId, datasetId).selectAll('s').select('d.status as dataset_status').where('s.source_id', '=', sourceId).executeTakeFirst();
  return row ? ((await withMarkets(db, [row]))[0] ?? null) : null;
}

/** Newest first, each with the counters of its last finished run (all zeros until one finishes). */
export async function listSources(db: Kysely<any>, organizationId: string, datasetId: string, page: number, limit: number): Promise<{ sources: DataSource[]; total: number }> {
  if (![organizationId, datasetId].every(isUuid)) return { sources: [], total: 0 };
  const [rows, total] = await Promise.all([
    sourcesOf(db, organizationId, datasetId).selectAll('s').select('d.status as dataset_status').orderBy('s.created_at', 'desc').orderBy('s.sequence', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    sourcesOf(db, organizationId, datasetId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  const sources = await withMarkets(db, rows);
  return { total: Number(total.n), sources: sources.map((source, i) => ({ ...source, sync: { ...source.sync, lastStats: rows[i]!.last_stats === null ? { ...NO_SYNC_STATS } : json<SyncStats>(rows[i]!.last_stats) } })) };
}

export async function countSources(db: Kysely<any>, organizationId: string, datasetId: string): Promise<number> {
  const row = await db.selectFrom('data_sources').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow();
  return Number(row.n);
}
