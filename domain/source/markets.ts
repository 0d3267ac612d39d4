// A store's markets (document 3 §3): price lists for groups of countries, each read from its own
// feed (Shopify serves a market's prices at its own storefront path or domain). The source's own
// endpoint is the default market's feed. A market without an endpoint, or whose feed fails, is
// `unread`: search then prices shoppers there from the default market and says so.

export interface Market {
  handle: string;
  /** ISO 3166-1 alpha-2, upper case; a country belongs to one market at most. */
  countries: string[];
  /** ISO 4217 of the market's prices. */
  currency: string;
  /** The market's own `products.json` feed; null: not read. */
  endpoint: string | null;
}

export const MAX_MARKETS = 50;

export const marketMessages = {
  list: `markets must be a list of at most ${MAX_MARKETS} markets, each { handle, countries, currency, endpoint? }`,
  handle: 'markets[].handle must be 1 to 50 lower-case letters, digits or dashes',
  duplicateHandle: 'markets[].handle must be unique',
  countries: 'markets[].countries must be a list of ISO 3166-1 alpha-2 country codes (for example "US")',
  sharedCountry: 'a country can belong to one market only',
  currency: 'markets[].currency must be a 3-letter ISO 4217 currency code',
  defaultMarket: 'defaultMarket must be the handle of one of the markets',
  defaultWithoutMarkets: 'defaultMarket needs markets',
};

/** The default market: the one named, else the first; null without markets. */
export function resolveDefaultMarket(markets: readonly Market[], named: string | null | undefined): string | null {
  if (named !== null && named !== undefined) return named;
  return markets[0]?.handle ?? null;
}

/** What the source's own feed prices: the default market, whose own endpoint (if any) is not read twice. */
export const marketsToRead = (markets: readonly Market[], defaultMarket: string | null): Market[] => markets.filter((entry) => entry.handle !== defaultMarket);
