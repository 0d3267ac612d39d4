export * from './market-pricing.js';
export * from './shopper-market.js';
export * from './currency-rates.js';
