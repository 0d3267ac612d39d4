// How the search memory reads the search read model (`search_documents`, owned by the
// search_index projector, with the embeddings of `item_embeddings`): a dataset's active rows
// page by page, and every change after a `change_seq`, in order.
import { sql, type Kysely } from 'kysely';
import { productNameKeys } from '../../domain/search/names.js';
import type { DatasetMemory } from './dataset.js';
import { parseDocument, type Lexicon } from './lexicon.js';

export interface LoadedRow {
  item_id: string;
  dataset_id: string;
  source_id: string | null;
  status: string;
  name: string | null;
  brand: string | null;
  slot: string;
  family: string;
  gender: string;
  age_group: string | null;
  color_family: string;
  colors: string[] | null;
  pattern: string;
  material: string[] | null;
  fit: string | null;
  feature_keys: string[] | null;
  price: number;
  currency: string;
  variants: string | null;
  body: string | null;
  queued_at: Date | string;
  document: string;
  change_seq: string;
  vector: number[] | null;
}

const LOAD_PAGE = 5000;
const FOLLOW_PAGE = 2000;
const COLUMNS = sql`d.item_id, d.dataset_id, d.source_id, d.status, d.name, d.brand, d.slot, d.family, d.gender, d.age_group, d.color_family, d.colors, d.pattern, d.material,
  d.fit, d.feature_keys, d.price, d.currency, d.variants::text as variants, d.body, d.queued_at, d.document::text as document, d.change_seq::text as change_seq, e.vector`;

/** The read model's head: its latest change. */
export async function readHead(db: Kysely<any>): Promise<bigint> {
  const { rows } = await sql<{ head: string | null }>`select max(change_seq)::text as head from search_documents`.execute(db);
  return BigInt(rows[0]?.head ?? 0);
}

/** Every active row of the dataset, a page at a time, in item id order. */
export async function readActiveRows(db: Kysely<any>, datasetId: string, each: (row: LoadedRow) => void): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let count = 0;
  for (;;) {
    const { rows } = await sql<LoadedRow>`
      select ${COLUMNS} from search_documents d left join item_embeddings e on e.item_id = d.item_id
       where d.dataset_id = ${datasetId} and d.status = 'active' and d.item_id > ${after}
       order by d.item_id limit ${LOAD_PAGE}`.execute(db);
    for (const row of rows) each(row);
    count += rows.length;
    if (rows.length < LOAD_PAGE) return count;
    after = rows[rows.length - 1]!.item_id;
  }
}

/** Every change of the datasets after `after`, in order; returns the last change read (`after` when none). */
export async function readChanges(db: Kysely<any>, after: bigint, datasetIds: readonly string[], each: (row: LoadedRow) => void): Promise<bigint> {
  let cursor = after;
  for (;;) {
    const { rows } = await sql<LoadedRow>`
      select ${COLUMNS} from search_documents d left join item_embeddings e on e.item_id = d.item_id
       where d.change_seq > ${cursor.toString()}::bigint and d.dataset_id = any(${datasetIds}::uuid[])
       order by d.change_seq limit ${FOLLOW_PAGE}`.execute(db);
    for (const row of rows) each(row);
    if (rows.length) cursor = BigInt(rows[rows.length - 1]!.change_seq);
    if (rows.length < FOLLOW_PAGE) return cursor;
  }
}

/** The stored variants or answer bodies the read model holds for these items (as text), with the `change_seq` of the version each belongs to. */
export async function readTexts(db: Kysely<any>, field: 'variants' | 'body', itemIds: readonly string[]): Promise<Map<string, { changeSeq: number; text: string | null }>> {
  if (!itemIds.length) return new Map();
  const column = field === 'variants' ? sql`variants::text` : sql`body`;
  const { rows } = await sql<{ item_id: string; change_seq: string; text: string | null }>`
    select item_id, change_seq::text as change_seq, ${column} as text from search_documents where item_id = any(${itemIds}::uuid[])`.execute(db);
  return new Map(rows.map((row) => [row.item_id, { changeSeq: Number(row.change_seq), text: row.text }]));
}

/** A row into the dataset's memory: put while active and labelled, removed otherwise. */
export function applyRow(memory: DatasetMemory, row: LoadedRow, lexicon: Lexicon): void {
  if (row.status !== 'active' || row.slot === null) {
    memory.remove(row.item_id);
    return;
  }
  const { terms, weights } = parseDocument(row.document ?? '', lexicon);
  memory.put(
    {
      itemId: row.item_id,
      datasetId: row.dataset_id,
      sourceId: row.source_id,
      slotName: row.slot,
      family: row.family,
      gender: row.gender,
      ageGroup: row.age_group ?? 'adult',
      colorFamily: row.color_family,
      colors: row.colors ?? [],
      pattern: row.pattern,
      materials: row.material ?? [],
      fit: row.fit,
      featureKeys: row.feature_keys ?? [],
      price: Number(row.price),
      currency: row.currency,
      variants: row.variants ?? '[]',
      body: row.body,
      queuedAt: row.queued_at instanceof Date ? row.queued_at.toISOString() : String(row.queued_at),
      names: productNameKeys(row.name, row.brand),
      changeSeq: Number(row.change_seq),
      terms,
      weights,
    },
    row.vector,
  );
}

/**
 * What the read model holds of the dataset at `upTo`, to check a saved copy against: its active,
 * labelled rows not changed since (count, and sum of their `change_seq`), and its latest change.
 */
export async function readUnchanged(db: Kysely<any>, datasetId: string, upTo: bigint): Promise<{ kept: number; keptSum: bigint; last: bigint }> {
  const { rows } = await sql<{ kept: number; kept_sum: string; last: string }>`
    select count(*) filter (where status = 'active' and slot is not null and change_seq <= ${upTo.toString()}::bigint)::int as kept,
           coalesce(sum(change_seq) filter (where status = 'active' and slot is not null and change_seq <= ${upTo.toString()}::bigint), 0)::text as kept_sum,
           coalesce(max(change_seq), 0)::text as last
      from search_documents where dataset_id = ${datasetId}`.execute(db);
  const row = rows[0]!;
  return { kept: Number(row.kept), keptSum: BigInt(row.kept_sum), last: BigInt(row.last) };
}

/** The dataset as search scopes it (the datasets projector's row): null when it is gone. */
export async function readDatasetStatus(db: Kysely<any>, datasetId: string): Promise<{ status: string; organizationId: string } | null> {
  const row = await db.selectFrom('datasets').select(['status', 'organization_id']).where('dataset_id', '=', datasetId).executeTakeFirst();
  return row ? { status: String(row.status), organizationId: String(row.organization_id) } : null;
}
