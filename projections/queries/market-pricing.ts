// What market pricing (domain/pricing) needs for a page of candidates: each item's source with its
// markets and how their feeds fared, and the item's `market_prices` rows from that source. Bounded
// by the caller (a few hundred ids); at most three short queries whatever the count, each id list
// sent as one array parameter.
import { sql, type Kysely } from 'kysely';
import type { ListingVariant } from '../../domain/catalogue/product-input.js';
import { marketForCountry, normaliseCountry, priceForMarket, type MarketPriceRow, type MarketRead, type MarketVariantPrice, type PricedProduct, type PricingSource } from '../../domain/pricing/index.js';
import { resolveDefaultMarket, type Market } from '../../domain/source/markets.js';
import { iso, isUuid, json } from './rows.js';

export interface PricingCandidate {
  itemId: string;
  /** catalogue_items.source_id; null for an upload. */
  sourceId: string | null;
  /** catalogue_items.queued_at; read here when not given. */
  queuedAt?: string | Date | null;
}

export interface PricingContext {
  source: PricingSource | null;
  rows: MarketPriceRow[];
  queuedAt: string | null;
}

export interface PricingOptions {
  /**
   * The shopper's country, when known before the call: only the rows of the market serving it are
   * read (no rows at all for null). Left out: every market's rows.
   */
  country?: string | null;
  /** The candidates' sources, already read (a search's, with its scope: search/scope.ts); read here when not given. */
  sources?: ReadonlyMap<string, PricingSource>;
}

/** The sources with these ids (`source_id`), or of these datasets (`dataset_id`), with their markets' last reads. */
async function loadSources(db: Kysely<any>, by: 's.source_id' | 's.dataset_id', ids: readonly string[]): Promise<Map<string, PricingSource>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('data_sources as s')
    .leftJoin('source_markets as m', 'm.source_id', 's.source_id')
    .select(['s.source_id', 's.markets', 's.default_market', 'm.handle', 'm.status', 'm.read_at'])
    .where(by, 'in', ids)
    .execute();
  return pricingSourcesOf(rows as SourceMarketRow[]);
}

/** A source with one of its markets' last read (none: `handle` null), as `data_sources` left joined with `source_markets` gives it. */
export interface SourceMarketRow {
  source_id: string;
  markets: unknown;
  default_market: string | null;
  handle: string | null;
  status: MarketRead['status'] | null;
  read_at: Date | string | null;
}

/** The sources of those rows, as pricing reads them, by source id. */
export function pricingSourcesOf(rows: readonly SourceMarketRow[]): Map<string, PricingSource> {
  const sources = new Map<string, PricingSource>();
  for (const row of rows) {
    let source = sources.get(row.source_id);
    if (!source) {
      source = { markets: row.markets === null ? [] : json<Market[]>(row.markets), defaultMarket: row.default_market ?? null, reads: {} };
      sources.set(row.source_id, source);
    }
    // A market read has all three (its columns are not null).
    if (row.handle !== null) source.reads[row.handle] = { status: row.status!, readAt: iso(row.read_at!) };
  }
  return sources;
}

const priceRow = (row: Record<string, any>): MarketPriceRow => ({
  market: row.market,
  currency: row.currency,
  price: Number(row.price),
  compareAtPrice: row.compare_at_price === null ? null : Number(row.compare_at_price),
  available: row.available,
  variants: json<MarketVariantPrice[]>(row.variants),
  defaultMarket: row.default_market ?? null,
  readAt: iso(row.read_at),
});

export async function loadPricingContext(db: Kysely<any>, items: readonly PricingCandidate[], options: PricingOptions = {}): Promise<Map<string, PricingContext>> {
  const context = new Map<string, PricingContext>();
  const known = items.filter((item) => isUuid(item.itemId));
  if (!known.length) return context;

  const sourceIds = [...new Set(known.flatMap((item) => (item.sourceId && isUuid(item.sourceId) ? [item.sourceId] : [])))];
  const lackingQueuedAt = known.filter((item) => item.queuedAt === undefined).map((item) => item.itemId);
  const [sources, queuedAt] = await Promise.all([
    options.sources ?? loadSources(db, 's.source_id', sourceIds),
    lackingQueuedAt.length
      ? db.selectFrom('catalogue_items').select(['item_id', 'queued_at']).where(sql<boolean>`item_id = any(${lackingQueuedAt}::uuid[])`).execute()
      : Promise.resolve([]),
  ]);
  const queuedAtOf = new Map(queuedAt.map((row) => [row.item_id as string, iso(row.queued_at)]));

  // The rows pricing can use: the shopper's market only when the country is given (the default
  // market's prices are the stored product's, so its rows are never read).
  const wanted = new Set<string>();
  for (const source of sources.values()) {
    const defaultMarket = resolveDefaultMarket(source.markets, source.defaultMarket);
    if ('country' in options) {
      const market = normaliseCountry(options.country) === null ? null : marketForCountry(source.markets, options.country);
      if (market && market.handle !== defaultMarket) wanted.add(market.handle);
    } else for (const market of source.markets) if (market.handle !== defaultMarket) wanted.add(market.handle);
  }
  const withSource = known.filter((item) => item.sourceId && sources.get(item.sourceId)?.markets.length);
  const priceRows = wanted.size && withSource.length
    ? await db
        .selectFrom('market_prices')
        .select(['item_id', 'source_id', 'market', 'currency', 'price', 'compare_at_price', 'available', 'variants', 'default_market', 'read_at'])
        .where(sql<boolean>`item_id = any(${withSource.map((item) => item.itemId)}::uuid[])`)
        .where('market', 'in', [...wanted])
        .execute()
    : [];

  const rowsOf = new Map<string, Array<Record<string, any>>>();
  for (const row of priceRows) rowsOf.set(row.item_id, [...(rowsOf.get(row.item_id) ?? []), row]);

  for (const item of known) {
    const source = (item.sourceId && sources.get(item.sourceId)) || null;
    // Only the rows the item's own source wrote: an item that moved to another source keeps none of the old one's.
    const rows = source ? (rowsOf.get(item.itemId) ?? []).filter((row) => row.source_id === item.sourceId).map(priceRow) : [];
    const queued = item.queuedAt === undefined ? (queuedAtOf.get(item.itemId) ?? null) : item.queuedAt === null ? null : iso(item.queuedAt);
    context.set(item.itemId, { source, rows, queuedAt: queued });
  }
  return context;
}

/** The sources feeding these datasets, as pricing reads them (the shopper's currency is their market's for the country). */
export async function datasetPricingSources(db: Kysely<any>, datasetIds: readonly string[]): Promise<PricingSource[]> {
  return [...(await loadSources(db, 's.dataset_id', datasetIds.filter(isUuid))).values()];
}

/** A stored listing priced for the shopper's country with the context loaded above (none: the stored prices). */
export function offerInMarket(
  country: string | null,
  listing: { price: number; currency: string; variants: ListingVariant[] },
  context: PricingContext | undefined,
): PricedProduct {
  return priceForMarket({
    country,
    product: { price: listing.price, currency: listing.currency, market: null, variants: listing.variants },
    source: context?.source ?? null,
    rows: context?.rows ?? [],
    queuedAt: context?.queuedAt ?? null,
  });
}
