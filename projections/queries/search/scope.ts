// Search, stage 1: the scope. Which of the organization's datasets a search reads, with the
// currency each is priced in by default and the search read model's head (the memory catches up
// to it before retrieving).
import { sql, type Kysely } from 'kysely';
import { detectDatasets } from '../datasets.js';
import { isUuid } from '../rows.js';
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
export async function resolveScope(db: Kysely<any>, request: SearchRequest): Promise<{ datasets: ScopeDataset[]; head: bigint | null }> {
  let ids: string[] | null = null;
  if (request.datasetIds && request.datasetIds.length) ids = request.datasetIds.filter(isUuid);
  else if (request.store && (request.store.origin || request.store.shop)) {
    const found = await detectDatasets(db, request.organizationId, request.store.origin ?? undefined, request.store.shop ?? undefined);
    const active = found.filter((d) => d.status === 'active').map((d) => d.datasetId);
    if (active.length) ids = active;
  }
  const organizationId = isUuid(request.organizationId) ? request.organizationId : ZERO_UUID;
  const only = ids ? sql`and dataset_id = any(${ids.length ? ids : [ZERO_UUID]}::uuid[])` : sql``;
  const { rows } = await sql<{ dataset_id: string; config: unknown; head: string | null }>`
    select dataset_id, config, (select max(change_seq) from search_documents)::text as head
      from datasets where organization_id = ${organizationId} and status = 'active' ${only}
     order by created_at, dataset_id`.execute(db);
  const datasets = rows.map((row) => {
    const config = (typeof row.config === 'string' ? JSON.parse(row.config) : row.config) as { currency?: string | null } | null;
    return { datasetId: String(row.dataset_id), currency: config?.currency || 'CAD' };
  });
  return { datasets, head: rows[0]?.head ? BigInt(rows[0].head) : null };
}
