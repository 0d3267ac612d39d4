// Market pricing (document 1, "Response-only fields"): a stored product re-priced for the shopper's
// country. Search and the agent both call `priceForMarket`; pure, so every rule below is tested
// without a database.
//
// Where the prices come from. The stored product holds the default market's prices and stock (the
// source's own feed). A shopper whose country belongs to another market gets that market's
// `market_prices` row, written by the sync from the market's own feed; when it cannot, the default
// market stands in (`marketExact: false`) and `marketFallback` says why. A stand-in is always the
// stored product as it is: price, currency and variants of the default market, so `price` equals
// `referencePrice` whenever `marketExact` is false. (Old rows of a market that failed to read are
// kept by the sync, but not shown: document 1 defines a fallback as the default market standing in.)
//
// The reasons, in document 1's table order; the first that holds is reported (document 3 §3
// "Search" fixes the order):
//   1. no-country  no country sent: the shopper's market is unknown, whatever the source.
//   2. not-served  the source has markets and none lists the country: the store does not sell there.
//   3. unread      the shopper's market has no feed endpoint, or its last read failed.
//   4. no-row      the market has no row for this item: not read since the market was configured,
//                  or the item was queued after the market's last read, or the market's feed does
//                  not list the product (below).
//   5. no-markets  a country was sent and the item's source has no markets (or the item came from
//                  an upload): the store has one price list.
//   6. stale       the market's row was read against a different default market than today's.
// 2 to 4 and 6 need markets and 5 needs none; 4 needs no row and 6 a row: beyond no-country first,
// at most one reason can hold.
// A shopper whose country belongs to the default market is exact, priced from the stored product.
//
// `available`: sold in the shopper's market with at least one variant in stock there.
//   - exact: some variant the market's feed lists is in stock there. A stored variant the market's
//     feed does not list is not sold there and is left out of `variants`.
//   - not-served: false (the store does not sell in that country).
//   - no-row after a read: when the market was read (status `read`) at or after the item was
//     queued and its feed did not list the product, the product is not sold there: false.
//   - no-country, no-markets, unread, stale, and no-row before any read of the item: the default
//     market's stock stands in (in stock there means available). Shopify keeps stock per location,
//     and markets are usually served from the same locations, so the default market's stock is the
//     best guess a missing read leaves; a market that could not be read says nothing about whether
//     the product is sold there, so it is not guessed away.
// A product with no variants (an upload that sent none) is sold as one piece: available unless
// one of the "false" rules above applies, as the sync treats it (exact: the market row's own
// `available`, which the sync sets true for a product it reads without variants). It has no list
// price, so it is never on sale.
//
// `onSale`: an in-stock variant, in the market priced for, has compareAtPrice above price; a
// sold-out reduced variant does not count, and a product that is not available is never on sale.
// `discount`: the largest percent off among those variants, rounded half up to an integer (a cut
// under half a percent is on sale at 0%); 0 when not on sale.
import type { ListingVariant } from '../catalogue/product-input.js';
import { resolveDefaultMarket, type Market } from '../source/markets.js';

export type MarketFallback = 'no-country' | 'not-served' | 'unread' | 'no-row' | 'no-markets' | 'stale';

/** Every fallback reason, in the order they are checked: document 1's table order. */
export const MARKET_FALLBACKS: readonly MarketFallback[] = ['no-country', 'not-served', 'unread', 'no-row', 'no-markets', 'stale'];

/** How a market's feed fared at the source's last sync; a market never read has no entry. */
export interface MarketRead {
  status: 'read' | 'unread';
  readAt: string;
}

/** The item's source as pricing needs it; null for an upload or a source that is gone. */
export interface PricingSource {
  markets: Market[];
  defaultMarket: string | null;
  /** By market handle. */
  reads: Record<string, MarketRead>;
}

export interface MarketVariantPrice {
  sku: string;
  price: number;
  compareAtPrice: number | null;
  inStock: boolean;
  quantity: number | null;
}

/** One `market_prices` row of the item, as plain values. */
export interface MarketPriceRow {
  market: string;
  currency: string;
  price: number;
  compareAtPrice: number | null;
  available: boolean;
  variants: MarketVariantPrice[];
  /** The default market the row was read against. */
  defaultMarket: string | null;
  readAt: string;
}

/** The stored product's commerce fields: the default market's, as the catalogue holds them. */
export interface StoredProduct {
  price: number;
  currency: string;
  market: string | null;
  variants: ListingVariant[];
}

export interface PricingInput {
  /** ISO 3166-1 alpha-2 as the shopper sent it; null or empty: none sent. */
  country: string | null;
  product: StoredProduct;
  source: PricingSource | null;
  /** This item's rows from its own source (any markets; only the shopper's is read). */
  rows: readonly MarketPriceRow[];
  /** When the item was last queued: a market read at or after it that lacks the item does not sell it. Unknown: the read is trusted. */
  queuedAt?: string | null;
}

export interface PricedProduct {
  /** Handle of the market priced for: the shopper's when exact, else the default (null without markets). */
  market: string | null;
  currency: string;
  price: number;
  variants: ListingVariant[];
  marketExact: boolean;
  /** Only when marketExact is false. */
  marketFallback?: MarketFallback;
  available: boolean;
  onSale: boolean;
  discount: number;
  referencePrice: number;
  referenceCurrency: string;
}

/** Upper case, trimmed; empty is none. */
export function normaliseCountry(country: string | null | undefined): string | null {
  const code = country?.trim().toUpperCase();
  return code ? code : null;
}

/** The market that sells in the country, or null (a country belongs to one market at most). */
export function marketForCountry(markets: readonly Market[], country: string | null | undefined): Market | null {
  const code = normaliseCountry(country);
  if (code === null) return null;
  return markets.find((market) => market.countries.some((entry) => entry.toUpperCase() === code)) ?? null;
}

/**
 * Whether the shopper pays the item's stored price whatever its market rows say: only a market of
 * the source's own that is not its default can price it otherwise (choosePriceList below).
 */
export function paysStoredPrice(country: string | null, source: PricingSource | null): boolean {
  if (normaliseCountry(country) === null || !source || !source.markets.length) return true;
  const market = marketForCountry(source.markets, country);
  return !market || market.handle === resolveDefaultMarket(source.markets, source.defaultMarket);
}

type Choice =
  | { kind: 'exact'; market: string; row: MarketPriceRow | null }
  | { kind: 'fallback'; reason: MarketFallback; soldThere: boolean };

/** Which price list serves the shopper, and when it is the default standing in, why (MARKET_FALLBACKS' order). */
function choosePriceList({ country, source, rows, queuedAt }: PricingInput): Choice {
  if (normaliseCountry(country) === null) return { kind: 'fallback', reason: 'no-country', soldThere: true };
  const markets = source?.markets ?? [];
  const market = marketForCountry(markets, country);
  if (markets.length && !market) return { kind: 'fallback', reason: 'not-served', soldThere: false };
  if (!source || !market) return { kind: 'fallback', reason: 'no-markets', soldThere: true };
  const defaultMarket = resolveDefaultMarket(markets, source.defaultMarket);
  if (market.handle === defaultMarket) return { kind: 'exact', market: market.handle, row: null };

  const read = source.reads[market.handle];
  if (!market.endpoint || read?.status === 'unread') return { kind: 'fallback', reason: 'unread', soldThere: true };
  const row = rows.find((entry) => entry.market === market.handle);
  if (!row) {
    // A read that came after the item was queued saw the store's feed for that market without it.
    const readSinceQueued = read?.status === 'read' && (!queuedAt || Date.parse(read.readAt) >= Date.parse(queuedAt));
    return { kind: 'fallback', reason: 'no-row', soldThere: !readSinceQueued };
  }
  // Compared as stored: the sync records the source's default market as configured when it read.
  if ((row.defaultMarket ?? null) !== (source.defaultMarket ?? null)) return { kind: 'fallback', reason: 'stale', soldThere: true };
  return { kind: 'exact', market: market.handle, row };
}

/** The stored variants as the market's feed sells them; a variant it does not list is left out. */
function variantsInMarket(stored: readonly ListingVariant[], row: MarketPriceRow): ListingVariant[] {
  const bySku = new Map(row.variants.map((variant) => [variant.sku, variant]));
  return stored.flatMap((variant) => {
    const there = bySku.get(variant.sku);
    return there ? [{ ...variant, price: there.price, compareAtPrice: there.compareAtPrice, inStock: there.inStock, quantity: there.quantity }] : [];
  });
}

/** Percent off of a reduced price, rounded half up; float noise below a millionth is ignored. */
export function percentOff(price: number, compareAtPrice: number): number {
  if (!(compareAtPrice > price) || compareAtPrice <= 0) return 0;
  return Math.round(Number((((compareAtPrice - price) / compareAtPrice) * 100).toFixed(6)));
}

/** onSale and discount of the variants of the market priced for. */
export function saleOf(variants: readonly ListingVariant[], available: boolean): { onSale: boolean; discount: number } {
  if (!available) return { onSale: false, discount: 0 };
  const reduced = variants.filter((variant) => variant.inStock && variant.compareAtPrice !== null && variant.compareAtPrice > variant.price);
  if (!reduced.length) return { onSale: false, discount: 0 };
  return { onSale: true, discount: reduced.reduce((largest, variant) => Math.max(largest, percentOff(variant.price, variant.compareAtPrice!)), 0) };
}

const inStockSomewhere = (variants: readonly ListingVariant[]): boolean => variants.some((variant) => variant.inStock);

export function priceForMarket(input: PricingInput): PricedProduct {
  const { product, source } = input;
  const reference = { referencePrice: product.price, referenceCurrency: product.currency };
  const choice = choosePriceList(input);

  if (choice.kind === 'exact' && choice.row) {
    const variants = variantsInMarket(product.variants, choice.row);
    // A product stored without variants: the market's feed says whether it is in stock there.
    const available = product.variants.length === 0 ? choice.row.available : inStockSomewhere(variants);
    return { market: choice.market, currency: choice.row.currency, price: choice.row.price, variants, marketExact: true, available, ...saleOf(variants, available), ...reference };
  }

  const variants = product.variants;
  const soldThere = choice.kind === 'exact' || choice.soldThere;
  const available = soldThere && (variants.length === 0 || inStockSomewhere(variants));
  const defaultMarket = source && source.markets.length ? resolveDefaultMarket(source.markets, source.defaultMarket) : product.market;
  const priced = { market: defaultMarket, currency: product.currency, price: product.price, variants, available, ...saleOf(variants, available), ...reference };
  return choice.kind === 'exact' ? { ...priced, marketExact: true } : { ...priced, marketExact: false, marketFallback: choice.reason };
}
