// Search, stage 1: the scope. Which of the organization's datasets a search reads, with the
// currency each is priced in by default, their sources with their markets (what pricing reads of
// them), and the search read model's head (the memory catches up to it before retrieving): one
// round trip.
import { sql, type Kysely } from 'kysely';
import type { PricingSource } from '../../../domain/pricing/index.js';
import { detectDatasets } from '../datasets.js';
import { pricingSourcesOf, type SourceMarketRow } from '../market-pricing.js';
import { isUuid, json } from '../rows.js';
import type { SearchRequest } from './index.js';

export interface ScopeDataset {
  datasetId: string;
  currency: string;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * `datasetIds` (only the organization's active ones), else the store's, else every active dataset;
 * with the search read model's head, so the memory can catch up to it first.
 */
export interface Scope {
  datasets: ScopeDataset[];
  /** The datasets' sources with their markets, by source id, as pricing reads them (`pricingSourcesOf`). */
  sources: Map<string, PricingSource>;
  head: bigint | null;
}

export async function resolveScope(db: Kysely<any>, request: SearchRequest): Promise<Scope> {
  let ids: string[] | null = null;
  if (request.datasetIds && request.datasetIds.length) ids = request.datasetIds.filter(isUuid);
  else if (request.store && (request.store.origin || request.store.shop)) {
    const found = await detectDatasets(db, request.organizationId, request.store.origin ?? undefined, request.store.shop ?? undefined);
    const active = found.filter((d) => d.status === 'active').map((d) => d.datasetId);
    if (active.length) ids = active;
  }
  const organizationId = isUuid(request.organizationId) ? request.organizationId : ZERO_UUID;
  const only = ids ? sql`and d.dataset_id = any(${ids.length ? ids : [ZERO_UUID]}::uuid[])` : sql``;
  const { rows } = await sql<{ dataset_id: string; config: unknown; head: string | null; sources: unknown }>`
    select d.dataset_id, d.config, (select max(change_seq) from search_documents)::text as head,
           (select json_agg(json_build_object('source_id', s.source_id, 'markets', s.markets, 'default_market', s.default_market,
                                              'handle', m.handle, 'status', m.status, 'read_at', m.read_at))
              from data_sources s left join source_markets m on m.source_id = s.source_id
             where s.dataset_id = d.dataset_id) as sources
      from datasets d where d.organization_id = ${organizationId} and d.status = 'active' ${only}
     order by d.created_at, d.dataset_id`.execute(db);
  const datasets = rows.map((row) => {
    const config = (typeof row.config === 'string' ? JSON.parse(row.config) : row.config) as { currency?: string | null } | null;
    return { datasetId: String(row.dataset_id), currency: config?.currency || 'CAD' };
  });
  const sources = pricingSourcesOf(rows.flatMap((row) => (row.sources === null ? [] : json<SourceMarketRow[]>(row.sources))));
  return { datasets, sources, head: rows[0]?.head ? BigInt(rows[0].head) : null };
}
