// The response's top-level `market` (document 3 §3 Search): `{ country, currency, exact }`, one per
// request, while each product says for itself how it was priced (market-pricing.ts).
import { marketForCountry, normaliseCountry, type PricedProduct, type PricingSource } from './market-pricing.js';

export interface ShopperMarket {
  country: string | null;
  currency: string;
  exact: boolean;
}

/** The most frequent value, the first seen winning a tie; null for none. */
function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, count] of counts) if (best === null || count > counts.get(best)!) best = value;
  return best;
}

/**
 * The shopper's currency: that of the market selling in their country across the scoped sources
 * (the most common when stores disagree); without one, the currency most results are priced in;
 * else the first source's default market's; else `fallbackCurrency` (the dataset's, else CAD).
 */
export function shopperCurrency(country: string | null, sources: ReadonlyArray<PricingSource | null>, priced: readonly PricedProduct[], fallbackCurrency: string): string {
  const withMarkets = sources.filter((source): source is PricingSource => source !== null && source.markets.length > 0);
  const served = withMarkets.flatMap((source) => marketForCountry(source.markets, country) ?? []);
  const defaultOfFirst = withMarkets[0] && withMarkets[0].markets.find((market) => market.handle === withMarkets[0]!.defaultMarket);
  return mostCommon(served.map((market) => market.currency.toUpperCase())) ?? mostCommon(priced.map((product) => product.currency)) ?? defaultOfFirst?.currency.toUpperCase() ?? fallbackCurrency;
}

/** `exact` is true when a country was sent and every result is priced in the shopper's own market (false with no results). */
export function shopperMarket(country: string | null, sources: ReadonlyArray<PricingSource | null>, priced: readonly PricedProduct[], fallbackCurrency: string): ShopperMarket {
  const code = normaliseCountry(country);
  return { country: code, currency: shopperCurrency(code, sources, priced, fallbackCurrency), exact: code !== null && priced.length > 0 && priced.every((product) => product.marketExact) };
}
