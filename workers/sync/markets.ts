// Market prices (document 3 §3): after the catalogue diff, each market's prices and stock are
// read from its own feed and stored per item; the default market's come from the source's own
// feed. A market without an endpoint, or whose feed cannot be read, is `unread` (its old rows are
// kept: stale prices beat none, and search marks them as not the shopper's own anyway). A market
// never fails the run: the catalogue is the store's main feed.
import type { Kysely } from 'kysely';
import { feedProductKeeper, parseEntries } from '../../commands/items.js';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { itemIdFor } from '../../domain/item/identity.js';
import { marketsToRead, type Market } from '../../domain/source/markets.js';
import { fetchStoreFeed, FeedError, type FeedOptions } from '../../infra/http/store-feed.js';
import type { SyncLogWriter } from './sync-log.js';

const INSERT_CHUNK = 500;

interface MarketRun {
  db: Kysely<any>;
  sourceId: string;
  datasetId: string;
  markets: readonly Market[];
  defaultMarket: string | null;
  /** The skus of the source's own feed: a market feed is read for these products' prices only. */
  skus: ReadonlySet<string>;
  /** The default market's listings, from the source's own feed (none without a default market). */
  listings: readonly Listing[];
  log: SyncLogWriter;
  feed: FeedOptions<unknown>;
}

export async function readMarkets(run: MarketRun): Promise<void> {
  if (!run.markets.length) return;
  const inCatalogue = run.skus;
  const byHandle = new Map(run.markets.map((market) => [market.handle, market]));
  const defaultMarket = run.defaultMarket ? byHandle.get(run.defaultMarket) : undefined;
  if (defaultMarket) await storePrices(run, defaultMarket, run.listings);

  for (const market of marketsToRead(run.markets, run.defaultMarket)) {
    if (!market.endpoint) {
      await setStatus(run, market.handle, 'unread', 'The market has no feed endpoint.', 0);
      continue;
    }
    try {
      const origin = new URL(market.endpoint).origin;
      const feed = await fetchStoreFeed(market.endpoint, { ...run.feed, keep: feedProductKeeper(origin) });
      const { listings } = parseEntries('products', feed.products, origin);
      // Only products the catalogue holds: a market feed is read for prices, not for products.
      const known = listings.map((entry) => entry.listing).filter((listing) => inCatalogue.has(listing.sku));
      await storePrices(run, market, known);
      run.log.add('info', `Market ${market.handle}: prices for ${known.length} products read from ${market.endpoint}.`);
    } catch (error) {
      if (!(error instanceof FeedError)) throw error;
      run.log.add('warn', `Market ${market.handle}: ${error.message}; its prices are unread this run.`);
      await setStatus(run, market.handle, 'unread', error.message, 0);
    }
  }
}

async function storePrices(run: MarketRun, market: Market, listings: readonly Listing[]): Promise<void> {
  const at = new Date();
  const rows = listings.map((listing) => {
    const inStock = listing.variants.filter((variant) => variant.inStock);
    const reduced = inStock.filter((variant) => variant.compareAtPrice !== null && variant.compareAtPrice > variant.price);
    return {
      item_id: itemIdFor(run.datasetId, listing.sku),
      market: market.handle,
      dataset_id: run.datasetId,
      source_id: run.sourceId,
      currency: market.currency,
      price: listing.price,
      compare_at_price: reduced.length ? reduced.reduce((highest, variant) => Math.max(highest, variant.compareAtPrice!), -Infinity) : null,
      available: listing.variants.length === 0 || inStock.length > 0,
      variants: JSON.stringify(listing.variants.map(({ sku, price, compareAtPrice, inStock: stocked, quantity }) => ({ sku, price, compareAtPrice, inStock: stocked, quantity }))),
      default_market: run.defaultMarket,
      read_at: at,
    };
  });
  // Replaced whole: a product the market feed no longer lists is not sold there.
  await run.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('market_prices').where('source_id', '=', run.sourceId).where('market', '=', market.handle).execute();
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) await trx.insertInto('market_prices').values(rows.slice(start, start + INSERT_CHUNK)).execute();
  });
  await setStatus(run, market.handle, 'read', null, rows.length);
}

async function setStatus(run: MarketRun, handle: string, status: 'read' | 'unread', reason: string | null, products: number): Promise<void> {
  const row = { source_id: run.sourceId, handle, status, reason, products, read_at: new Date() };
  await run.db
    .insertInto('source_markets')
    .values(row)
    .onConflict((c) => c.columns(['source_id', 'handle']).doUpdateSet({ status, reason, products, read_at: row.read_at }))
    .execute();
}
