// POST /v1/search's answer as JSON text, what every answer showing a product repeats written once.
// A product's stored fields (name, description, photos linked to the image route, …), its labels
// and, in its stored market, its variants are the same in every answer that shows it; the rest of
// its offer in the shopper's market (price, currency, stock and sale fields) and its score are the
// search's own. The search memory holds each stored body and variant list parsed and deep-frozen,
// shared by the searches that show it: their text is kept beside them (WeakMaps: it goes when they
// go) and spliced with the search's own. Only what is frozen all the way down is kept; anything
// else (a body read from the read model, a market's own variants) is written each time, and so is
// a product whose stored fields are not the frozen body's own. Measured: JSON.stringify of the
// linked answer (48 KB) was 8% of a search's CPU at 10,000 items (bench/search.ts profile,
// 2026-11-28); written so, an answer takes half the time (docs/performance.md).
import { withImageUrls } from '../../domain/item/image-links.js';
import type { PricedProduct } from '../../domain/pricing/index.js';
import { storedProductOf, type MarketProductBody } from '../../projections/queries/products.js';
import type { SearchResponse, SearchResult } from '../../projections/queries/search/index.js';

/**
 * The fields a market product takes from its offer rather than from the stored product
 * (`marketProduct`): never part of the text written once. Every field of an offer must be named
 * (the type says so); and should one be missed, the stored field it replaced is not the frozen
 * one, so that product is written whole.
 */
const offerFields: Record<keyof PricedProduct, true> = {
  price: true,
  currency: true,
  market: true,
  variants: true,
  marketExact: true,
  marketFallback: true,
  available: true,
  onSale: true,
  discount: true,
  referencePrice: true,
  referenceCurrency: true,
};
const OFFER_FIELDS: ReadonlySet<string> = new Set(Object.keys(offerFields));

/** A stored product's own fields, linked, as JSON text without its closing brace. */
interface StoredText {
  baseUrl: string;
  open: string;
  fields: readonly string[];
  own: ReadonlySet<string>;
}

const storedTexts = new WeakMap<object, StoredText>();
const frozenTexts = new WeakMap<object, string>();

/** The answer as `JSON.stringify(linked answer)` would write it: the same fields and values. */
export function searchAnswerText(answer: SearchResponse, baseUrl: string): string {
  const { results, ...rest } = answer;
  const parts = new Array<string>(results.length);
  for (let i = 0; i < results.length; i++) parts[i] = resultText(results[i]!, baseUrl);
  const more = JSON.stringify(rest);
  return `{"results":[${parts.join(',')}]${more === '{}' ? '' : `,${more.slice(1, -1)}`}}`;
}

function resultText(result: SearchResult, baseUrl: string): string {
  const { metadata, product, ...rest } = result;
  return withFields(JSON.stringify(rest), `"metadata":${frozenText(metadata)},"product":${productText(product, baseUrl)}`);
}

/** An object's text (`{}` or `{…}`) with more fields (`"name":value,…`, one at least) after its own. */
const withFields = (text: string, fields: string): string => (text === '{}' ? `{${fields}}` : `${text.slice(0, -1)},${fields}}`);

/** A deep-frozen object's JSON, written once (anything else each time). */
function frozenText(value: object): string {
  let text = frozenTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (deepFrozen(value)) frozenTexts.set(value, text);
  }
  return text;
}

/** Frozen all the way down: nothing in it can change, so its text can be kept as long as it lives. */
function deepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const inner of Object.values(value)) if (!deepFrozen(inner)) return false;
  return true;
}

function productText(product: MarketProductBody, baseUrl: string): string {
  const stored = storedProductOf(product) as Record<string, unknown> | undefined;
  const prepared = stored ? storedText(stored, baseUrl) : null;
  const fields = product as unknown as Record<string, unknown>;
  // Every stored field must be the frozen body's own: then the text written once says what this product says.
  if (!prepared || !prepared.fields.every((field) => fields[field] === stored![field])) return JSON.stringify(withImageUrls(product, baseUrl));
  // The offer's own fields; the stored variants it keeps (its market is the stored one) are frozen too.
  const offer: Record<string, unknown> = {};
  let kept = '';
  for (const field in fields) {
    if (prepared.own.has(field)) continue;
    const value = fields[field];
    if (value !== null && typeof value === 'object' && Object.isFrozen(value)) kept += `,${JSON.stringify(field)}:${frozenText(value)}`;
    else offer[field] = value;
  }
  const more = JSON.stringify(offer);
  const open = more === '{}' ? prepared.open : prepared.open === '{' ? more.slice(0, -1) : `${prepared.open},${more.slice(1, -1)}`;
  return open === '{' ? `{${kept.slice(1)}}` : `${open}${kept}}`;
}

/** The stored product's own fields as text, when it is deep-frozen (else null: written whole each time). */
function storedText(stored: object, baseUrl: string): StoredText | null {
  const held = storedTexts.get(stored);
  if (held && held.baseUrl === baseUrl) return held;
  if (!held && !deepFrozen(stored)) return null;
  const own: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(stored)) if (!OFFER_FIELDS.has(field) && value !== undefined) own[field] = value;
  const linked = 'assets' in own ? withImageUrls(own as Parameters<typeof withImageUrls>[0], baseUrl) : own;
  const fields = Object.keys(own);
  const prepared = { baseUrl, open: JSON.stringify(linked).slice(0, -1), fields, own: new Set(fields) };
  storedTexts.set(stored, prepared);
  return prepared;
}
