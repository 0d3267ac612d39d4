// Reads of the datasets read model: the full record, DatasetDetail, summaries with counts,
// detect and available genders. Every query is scoped by organization.
import { SYNC_JOB_RETENTION_MS } from '../../domain/source/state.js';
import { sql, type Kysely } from 'kysely';
import type { DatasetConfig } from '../../domain/dataset/events.js';
import type { DatasetStatus } from '../../domain/dataset/state.js';
import type { SizingSettings, StylingSettings } from '../../domain/styling/settings.js';
import { iso, json, isUuid } from './rows.js';


/** Document 1's full Dataset record. */
export interface DatasetRecord {
  datasetId: string;
  organizationId: string;
  status: DatasetStatus;
  name: string;
  description: string;
  metadata?: Record<string, unknown>;
  config: DatasetConfig;
  autoPublish: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DatasetItemCounts {
  active: number;
  archived: number;
  pending: number;
  partial_update: number;
  processing: number;
  failed: number;
}

interface DatasetRow {
  dataset_id: string;
  organization_id: string;
  status: DatasetStatus;
  name: string;
  description: string;
  metadata: unknown;
  config: unknown;
  auto_publish: boolean;
  styling: unknown;
  sizing: unknown;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const recordOf = (row: DatasetRow): DatasetRecord => ({
  datasetId: row.dataset_id,
  organizationId: row.organization_id,
  status: row.status,
  name: row.name,
  description: row.description,
  ...(row.metadata === null || row.metadata === undefined ? {} : { metadata: json<Record<string, unknown>>(row.metadata) }),
  config: json<DatasetConfig>(row.config),
  autoPublish: row.auto_publish,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export interface DatasetView extends DatasetRecord {
  /** Events in the dataset's stream: document 1's `__v`. */
  version: number;
  styling: StylingSettings | null;
  sizing: SizingSettings | null;
}

export async function getDataset(db: Kysely<any>, organizationId: string, datasetId: string): Promise<DatasetView | null> {
  if (!isUuid(organizationId) || !isUuid(datasetId)) return null;
  const row = (await db.selectFrom('datasets').selectAll().where('organization_id', '=', organizationId).where('dataset_id', '=', datasetId).executeTakeFirst()) as DatasetRow | undefined;
  return row ? { ...recordOf(row), version: row.version, styling: row.styling ? json(row.styling) : null, sizing: row.sizing ? json(row.sizing) : null } : null;
}

/** Counts per dataset: items by effective status (an archived dataset's items are off) and queue rows by status. */
export async function datasetCounts(db: Kysely<any>, datasetIds: string[]): Promise<Map<string, DatasetItemCounts>> {
  const counts = new Map<string, DatasetItemCounts>(datasetIds.map((id) => [id, { active: 0, archived: 0, pending: 0, partial_update: 0, processing: 0, failed: 0 }]));
  if (datasetIds.length === 0) return counts;
  const rows = await sql<{ dataset_id: string; bucket: string; n: string | number }>`
    select i.dataset_id, b.bucket, count(*) as n
      from catalogue_items i
      join datasets d on d.dataset_id = i.dataset_id
      cross join lateral (values
        (case when i.status is null then null when d.status = 'archived' then 'archived' else i.status end),
        (i.queue_status)) as b(bucket)
     where i.dataset_id in (${sql.join(datasetIds)}) and b.bucket is not null
     group by i.dataset_id, b.bucket`.execute(db);
  for (const row of rows.rows) {
    const entry = counts.get(row.dataset_id);
    if (entry && row.bucket in entry) entry[row.bucket as keyof DatasetItemCounts] = Number(row.n);
  }
  return counts;
}

export interface DatasetSummary {
  datasetId: string;
  name: string;
  status: DatasetStatus;
  description: string;
  config: { storeName?: string; storeDomain?: string };
  autoPublish: boolean;
  items: DatasetItemCounts;
  createdAt: string;
  updatedAt: string;
}

/** Newest first (document 1 §Pagination). */
export async function listDatasets(db: Kysely<any>, organizationId: string, page: number, limit: number): Promise<{ datasets: DatasetSummary[]; total: number }> {
  if (!isUuid(organizationId)) return { datasets: [], total: 0 };
  const [rows, total] = await Promise.all([
    db
      .selectFrom('datasets')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('sequence', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute() as Promise<DatasetRow[]>,
    db.selectFrom('datasets').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow(),
  ]);
  const counts = await datasetCounts(db, rows.map((row) => row.dataset_id));
  return {
    total: Number(total.n),
    datasets: rows.map((row) => {
      const record = recordOf(row);
      return {
        datasetId: record.datasetId,
        name: record.name,
        status: record.status,
        description: record.description,
        config: {
          ...(record.config.storeName === undefined ? {} : { storeName: record.config.storeName }),
          ...(record.config.storeDomain === undefined ? {} : { storeDomain: record.config.storeDomain }),
        },
        autoPublish: record.autoPublish,
        items: counts.get(record.datasetId)!,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      };
    }),
  };
}

const hostOf = (value: string): string | null => {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
};

export interface DetectedDataset {
  datasetId: string;
  name: string;
  status: DatasetStatus;
  storeDomain: string | null;
  matchedBy: 'storeDomain' | 'storeUrl' | 'storeId';
}

/** Document 3 §3 detect: datasets whose storeDomain, storeUrl host or storeId matches the origin or shop. */
export async function detectDatasets(db: Kysely<any>, organizationId: string, origin: string | undefined, shop: string | undefined): Promise<DetectedDataset[]> {
  if (!isUuid(organizationId)) return [];
  const hosts = new Set([origin, shop].flatMap((value) => (value ? [hostOf(value)] : [])).filter((host): host is string => !!host));
  const ids = new Set([origin, shop].filter((value): value is string => !!value).map((value) => value.trim().toLowerCase()));
  const rows = (await db.selectFrom('datasets').selectAll().where('organization_id', '=', organizationId).orderBy('created_at', 'desc').execute()) as DatasetRow[];
  const found: DetectedDataset[] = [];
  for (const row of rows) {
    const config = json<DatasetConfig>(row.config);
    const domain = config.storeDomain ? hostOf(config.storeDomain) : null;
    const urlHost = config.storeUrl ? hostOf(config.storeUrl) : null;
    const matchedBy = domain && hosts.has(domain) ? 'storeDomain' : urlHost && hosts.has(urlHost) ? 'storeUrl' : config.storeId && ids.has(config.storeId.toLowerCase()) ? 'storeId' : null;
    if (matchedBy) found.push({ datasetId: row.dataset_id, name: row.name, status: row.status, storeDomain: config.storeDomain ?? null, matchedBy });
  }
  return found;
}

/** Genders of live items in active datasets, most common first (document 3 §3 available genders). */
export async function availableGenders(db: Kysely<any>, organizationId: string, datasetIds: string[] | null): Promise<Array<{ gender: string; count: number }>> {
  if (!isUuid(organizationId)) return [];
  let query = db
    .selectFrom('catalogue_items as i')
    .innerJoin('datasets as d', 'd.dataset_id', 'i.dataset_id')
    .select(['i.gender', (eb) => eb.fn.countAll().as('n')])
    .where('d.organization_id', '=', organizationId)
    .where('d.status', '=', 'active')
    .where('i.status', '=', 'active')
    .where('i.gender', 'is not', null)
    .groupBy('i.gender')
    .orderBy('n', 'desc')
    .orderBy('i.gender');
  if (datasetIds) query = query.where('i.dataset_id', 'in', datasetIds.length ? datasetIds.filter(isUuid).concat(['00000000-0000-0000-0000-000000000000']) : ['00000000-0000-0000-0000-000000000000']);
  const rows = await query.execute();
  return rows.map((row) => ({ gender: String(row.gender), count: Number(row.n) }));
}

/** Every vendor of the organization's items: part of the brand directory for sizing settings. */
export async function organizationVendors(db: Kysely<any>, organizationId: string): Promise<string[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await db.selectFrom('catalogue_items').select('vendor').distinct().where('organization_id', '=', organizationId).where('vendor', 'is not', null).execute();
  return rows.map((row) => String(row.vendor));
}

/** What deleting a dataset removes, counted before it goes (document 2 delete response). */
export async function deletionCounts(db: Kysely<any>, organizationId: string, datasetId: string): Promise<{ itemsDeletedCount: number; queuedDeletedCount: number; sourcesDeletedCount: number; syncJobsDeletedCount: number }> {
  const row = await db
    .selectFrom('catalogue_items')
    .select([(eb) => eb.fn.count('status').as('items'), (eb) => eb.fn.count('queue_status').as('queued')])
    .where('organization_id', '=', organizationId)
    .where('dataset_id', '=', datasetId)
    .executeTakeFirstOrThrow();
  const sources = await db.selectFrom('data_sources').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow();
  // Every job of its sources goes with the dataset (finished ones past retention are already gone).
  const jobs = await db
    .selectFrom('sync_jobs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .where('dataset_id', '=', datasetId)
    .where((eb) => eb.or([eb('completed_at', 'is', null), eb('completed_at', '>', new Date(Date.now() - SYNC_JOB_RETENTION_MS))]))
    .executeTakeFirstOrThrow();
  return { itemsDeletedCount: Number(row.items), queuedDeletedCount: Number(row.queued), sourcesDeletedCount: Number(sources.n), syncJobsDeletedCount: Number(jobs.n) };
}

export interface StoreSummary {
  name: string;
  domain: string;
}

/**
 * The stores the widget serves (widget preflight): one per store domain of the organization's
 * active datasets, oldest dataset first. A dataset names its store by `storeName`, else by its own
 * name; its domain is `storeDomain`, else the host of `storeUrl`; a dataset with neither is no store.
 */
export async function organizationStores(db: Kysely<any>, organizationId: string): Promise<StoreSummary[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await db
    .selectFrom('datasets')
    .select(['name', 'config'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('sequence')
    .execute();
  const stores = new Map<string, StoreSummary>();
  for (const row of rows) {
    const config = json<DatasetConfig>(row.config);
    const domain = config.storeDomain ? config.storeDomain.trim().toLowerCase() : config.storeUrl ? hostOf(config.storeUrl) : null;
    if (domain && !stores.has(domain)) stores.set(domain, { name: config.storeName ?? String(row.name), domain });
  }
  return [...stores.values()];
}

export interface ScopeDataset {
  datasetId: string;
  name: string;
  status: DatasetStatus;
  config: DatasetConfig;
  styling: StylingSettings | null;
}

/** Every dataset of the organization, oldest first, with what an agent turn needs of each (its store, currency and styling). */
export async function organizationDatasets(db: Kysely<any>, organizationId: string): Promise<ScopeDataset[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await db
    .selectFrom('datasets')
    .select(['dataset_id', 'name', 'status', 'config', 'styling'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('sequence')
    .execute();
  return rows.map((row) => ({
    datasetId: String(row.dataset_id),
    name: String(row.name),
    status: row.status as DatasetStatus,
    config: json<DatasetConfig>(row.config),
    styling: row.styling ? json<StylingSettings>(row.styling) : null,
  }));
}

/** A store's domain as the widget names it: `storeDomain`, else the host of `storeUrl`. */
export const storeDomainOf = (config: DatasetConfig): string | null =>
  config.storeDomain ? config.storeDomain.trim().toLowerCase() : config.storeUrl ? hostOf(config.storeUrl) : null;
