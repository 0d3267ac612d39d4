// Reading a shopper's budget written in another currency than the answer's ("a dress under 1300 rs"
// on a store priced in CAD): the budget is converted with reference rates, never dropped and never
// read as the store's own money. Pure.
//
// Reference rates, not live ones, by choice: a budget is a shopper's round figure, and a rate a few
// per cent off moves only the products at its edge, while a live feed would make every search
// depend on a third party. Only budgets are converted; prices always come from the store's feeds.

/** Units of each currency to one US dollar: approximate mid-market figures, rounded (2025). */
export const REFERENCE_RATES_PER_USD: Readonly<Record<string, number>> = {
  USD: 1, CAD: 1.38, AUD: 1.53, NZD: 1.7, EUR: 0.9, GBP: 0.76, CHF: 0.82, SEK: 9.6, NOK: 10.2, DKK: 6.7, PLN: 3.8, CZK: 22,
  HUF: 350, RON: 4.5, ISK: 125, TRY: 40, INR: 87, PKR: 282, BDT: 122, LKR: 300, NPR: 139, JPY: 148, CNY: 7.2, HKD: 7.8,
  TWD: 30, KRW: 1390, SGD: 1.29, MYR: 4.3, THB: 33, IDR: 16400, PHP: 57, VND: 26000, AED: 3.67, SAR: 3.75, QAR: 3.64,
  KWD: 0.31, BHD: 0.38, OMR: 0.38, ILS: 3.4, EGP: 49, MAD: 9.1, NGN: 1530, KES: 129, ZAR: 18, MXN: 18.8, BRL: 5.5,
  ARS: 1300, CLP: 960, COP: 4000, PEN: 3.6,
};

/**
 * `amount` of `from` in `to`, by the reference rates; the amount itself when the two are the same,
 * null when either currency has no reference rate.
 */
export function convertAmount(amount: number, from: string, to: string): number | null {
  const source = from.toUpperCase();
  const target = to.toUpperCase();
  if (source === target) return amount;
  const perUsdFrom = REFERENCE_RATES_PER_USD[source];
  const perUsdTo = REFERENCE_RATES_PER_USD[target];
  if (!perUsdFrom || !perUsdTo) return null;
  return (amount / perUsdFrom) * perUsdTo;
}

export interface Budget {
  minPrice?: number;
  maxPrice?: number;
  /** ISO 4217 of the currency the shopper named, if any; unset means the answer's own. */
  currency?: string;
}

/**
 * The budget in `currency` (the one the product is priced in). A budget in a currency without a
 * reference rate, or priced in one, keeps its numbers: the shopper's own words, at face value.
 */
export function budgetIn(budget: Budget, currency: string): { minPrice?: number; maxPrice?: number } {
  const convert = (amount: number | undefined) => {
    if (amount === undefined || !budget.currency) return amount;
    return convertAmount(amount, budget.currency, currency) ?? amount;
  };
  const minPrice = convert(budget.minPrice);
  const maxPrice = convert(budget.maxPrice);
  return { ...(minPrice !== undefined ? { minPrice } : {}), ...(maxPrice !== undefined ? { maxPrice } : {}) };
}
