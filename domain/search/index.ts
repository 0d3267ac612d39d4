// Shopper search in the domain: query understanding and the shopper words it (and the agent) reads.
export { understandQuery, type UnderstoodQuery } from './understand.js';
export * as shopperWords from './shopper-words.js';
export { nameKey, productNameKeys } from './names.js';
