export * from './market-pricing.js';
export * from './shopper-market.js';
