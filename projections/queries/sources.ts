// Reads of data sources, scoped by organization and dataset.
import type { Kysely } from 'kysely';
import { isUuid, iso, json } from './rows.js';
import { NO_SYNC_STATS, type SyncStats } from '../../domain/source/events.js';

/** Document 1's DataSource; `lastStats` only on lists. */
export interface DataSource {
  sourceId: string;
  datasetId: string;
  organizationId: string;
  type: 'shopify-api';
  status: 'active' | 'inactive';
  sync: { period: number; previous: string | null; lastStats?: SyncStats };
  config: { endpoint: string; disableGenerativeAssets: true };
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
  config: { endpoint: row.endpoint, disableGenerativeAssets: true },
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

const sourcesOf = (db: Kysely<any>, organizationId: string, datasetId: string) =>
  db.selectFrom('data_sources as s').innerJoin('datasets as d', 'd.dataset_id', 's.dataset_id').where('s.organization_id', '=', organizationId).where('s.dataset_id', '=', datasetId);

export async function getSource(db: Kysely<any>, organizationId: string, datasetId: string, sourceId: string): Promise<DataSource | null> {
  if (![organizationId, datasetId, sourceId].every(isUuid)) return null;
  const row = await sourcesOf(db, organizationId, datasetId).selectAll('s').select('d.status as dataset_status').where('s.source_id', '=', sourceId).executeTakeFirst();
  return row ? sourceOf(row) : null;
}

/** Newest first, each with the counters of its last finished run (all zeros until one finishes). */
export async function listSources(db: Kysely<any>, organizationId: string, datasetId: string, page: number, limit: number): Promise<{ sources: DataSource[]; total: number }> {
  if (![organizationId, datasetId].every(isUuid)) return { sources: [], total: 0 };
  const [rows, total] = await Promise.all([
    sourcesOf(db, organizationId, datasetId).selectAll('s').select('d.status as dataset_status').orderBy('s.created_at', 'desc').orderBy('s.sequence', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    sourcesOf(db, organizationId, datasetId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), sources: rows.map((row) => ({ ...sourceOf(row), sync: { ...sourceOf(row).sync, lastStats: row.last_stats === null ? { ...NO_SYNC_STATS } : json<SyncStats>(row.last_stats) } })) };
}

export async function countSources(db: Kysely<any>, organizationId: string, datasetId: string): Promise<number> {
  const row = await db.selectFrom('data_sources').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow();
  return Number(row.n);
}
