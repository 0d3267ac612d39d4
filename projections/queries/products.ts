// Products by id, as a shopper sees them: the stored item re-priced in the shopper's market
// (domain/pricing), with the search result's product shape. Search builds its products with
// `marketProduct` (and reads `itemBodies` only for rows without a prepared body); the agent's tools use `pricedProducts` for the itemIds a model names, which
// are untrusted: only active items of the given organization and datasets come back.
import { sql, type Kysely } from 'kysely';
import type { ListingVariant } from '../../domain/catalogue/product-input.js';
import type { AnswerBody, DatasetItemBody } from '../../domain/item/record.js';
import type { PricedProduct } from '../../domain/pricing/index.js';
import { loadPricingContext, offerInMarket } from './market-pricing.js';
import { isUuid } from './rows.js';

/** The stored product with the shopper's market's prices and the response-only fields of document 1. */
export type MarketProductBody = DatasetItemBody['product'] & Omit<PricedProduct, 'variants' | 'price' | 'currency' | 'market'>;

export const marketProduct = (body: AnswerBody, offer: PricedProduct): MarketProductBody => {
  const { variants, price, currency, market, ...responseOnly } = offer;
  const product = { ...body.product, price, currency, market, variants, ...responseOnly };
  storedProducts.set(product, body.product);
  return product;
};

/**
 * The stored product a market product was made from: the body the search memory holds, shared and
 * frozen, so the search route encodes its fields' JSON once and not in every answer (api/routes/answer-text.ts).
 */
export const storedProductOf = (product: MarketProductBody): AnswerBody['product'] | undefined => storedProducts.get(product);
const storedProducts = new WeakMap<object, AnswerBody['product']>();

export async function itemBodies(db: Kysely<any>, ids: string[]): Promise<Map<string, { datasetId: string; body: DatasetItemBody }>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('catalogue_items').select(['item_id', 'dataset_id', 'item']).where('item_id', 'in', ids).where('item', 'is not', null).execute();
  return new Map(
    rows.map((row) => [String(row.item_id), { datasetId: String(row.dataset_id), body: (typeof row.item === 'string' ? JSON.parse(row.item) : row.item) as DatasetItemBody }]),
  );
}

export interface PricedItem {
  itemId: string;
  datasetId: string;
  metadata: DatasetItemBody['metadata'];
  product: MarketProductBody;
}

/**
 * The active items among `itemIds` that belong to the organization's `datasetIds`, priced for
 * `country`; an id that is not one (unknown, archived, another scope) is simply absent.
 */
export async function pricedProducts(
  db: Kysely<any>,
  scope: { organizationId: string; datasetIds: readonly string[] },
  itemIds: readonly string[],
  country: string | null,
): Promise<Map<string, PricedItem>> {
  const ids = [...new Set(itemIds.filter(isUuid))];
  const datasetIds = scope.datasetIds.filter(isUuid);
  if (!ids.length || !datasetIds.length || !isUuid(scope.organizationId)) return new Map();
  const { rows: inScope } = await sql<{ item_id: string; source_id: string | null; queued_at: Date | string; price: number; currency: string; variants: ListingVariant[] | string }>`
    select item_id, source_id, queued_at, price, currency, variants from search_documents
     where item_id = any(${ids}::uuid[]) and organization_id = ${scope.organizationId}
       and dataset_id = any(${datasetIds}::uuid[]) and status = 'active'`.execute(db);
  if (!inScope.length) return new Map();
  const [pricing, bodies] = await Promise.all([
    loadPricingContext(db, inScope.map((row) => ({ itemId: row.item_id, sourceId: row.source_id, queuedAt: row.queued_at })), { country }),
    itemBodies(db, inScope.map((row) => row.item_id)),
  ]);
  const priced = new Map<string, PricedItem>();
  for (const row of inScope) {
    const item = bodies.get(row.item_id);
    if (!item) continue;
    const context = pricing.get(row.item_id);
    const variants = typeof row.variants === 'string' ? (JSON.parse(row.variants) as ListingVariant[]) : row.variants;
    const offer = offerInMarket(country, { price: Number(row.price), currency: row.currency, variants }, context);
    priced.set(row.item_id, { itemId: row.item_id, datasetId: item.datasetId, metadata: item.body.metadata, product: marketProduct(item.body, offer) });
  }
  return priced;
}

/**
 * The active item of the scope a cart line stands for: the item with that product sku or a
 * variant of that sku, else (no sku, or none matched) the item whose name is exactly the line's
 * title, ignoring case (document 2, CartLine `sku`).
 */
export async function itemForCartLine(
  db: Kysely<any>,
  scope: { organizationId: string; datasetIds: readonly string[] },
  line: { sku: string | null; title: string },
): Promise<string | null> {
  const datasetIds = scope.datasetIds.filter(isUuid);
  if (!datasetIds.length || !isUuid(scope.organizationId)) return null;
  if (line.sku) {
    const { rows } = await sql<{ item_id: string }>`
      select d.item_id from search_documents d join catalogue_items i on i.item_id = d.item_id
       where d.organization_id = ${scope.organizationId} and d.dataset_id = any(${datasetIds}::uuid[]) and d.status = 'active'
         and (i.sku = ${line.sku} or d.variants @> ${JSON.stringify([{ sku: line.sku }])}::jsonb)
       order by d.item_id limit 1`.execute(db);
    if (rows[0]) return rows[0].item_id;
  }
  const title = line.title.trim().toLowerCase();
  if (!title) return null;
  const { rows } = await sql<{ item_id: string }>`
    select item_id from search_documents
     where organization_id = ${scope.organizationId} and dataset_id = any(${datasetIds}::uuid[]) and status = 'active' and lower(name) = ${title}
     order by item_id limit 1`.execute(db);
  return rows[0]?.item_id ?? null;
}
