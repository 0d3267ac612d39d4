// POST /v1/search's answer as JSON bytes, what every answer showing a product repeats encoded once.
// A product's stored fields (name, description, photos linked to the image route, …), its labels
// and, in its stored market, its variants are the same in every answer that shows it; the rest of
// its offer in the shopper's market (price, currency, stock and sale fields) and its score are the
// search's own. The search memory holds each stored body and variant list parsed and deep-frozen,
// shared by the searches that show them: their JSON bytes are kept beside them (WeakMaps: they go
// when those go) and joined with the search's own. Only what is frozen all the way down is kept;
// anything else (a body read from the read model, a market's own variants) is written each time,
// and so is a product whose stored fields are not the frozen body's own. Measured: JSON.stringify
// of the linked answer (48 KB) was 8% of a search's CPU at 10,000 items and encoding it for the
// socket 2.5% more (bench/search.ts profile, 2026-11-28); written so, an answer takes well under
// half the time (docs/performance.md).
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

/** A stored product's own fields, linked, as JSON bytes without the closing brace. */
interface StoredBytes {
  baseUrl: string;
  /** `{` and the fields, if any (then a comma goes before the next). */
  open: Buffer;
  own: ReadonlySet<string>;
}

const storedBytes = new WeakMap<object, StoredBytes>();
const frozenBytes = new WeakMap<object, Buffer>();

/**
 * The answer as `JSON.stringify(linked answer)` would write it (the same fields and values), as
 * UTF-8 bytes: the parts kept are bytes already, so only the search's own text is encoded and the
 * answer is one copy of its parts (encoding the whole 48 KB text took as long as writing it).
 */
export function searchAnswerBytes(answer: SearchResponse, baseUrl: string): Buffer {
  const { results, ...rest } = answer;
  const out = new Chunks();
  out.text('{"results":[');
  results.forEach((result, i) => {
    if (i) out.text(',');
    writeResult(out, result, baseUrl);
  });
  const more = JSON.stringify(rest);
  out.text(`]${more === '{}' ? '' : `,${more.slice(1, -1)}`}}`);
  return out.bytes();
}

/** Text and bytes in order; runs of text are encoded together. */
class Chunks {
  private readonly parts: Buffer[] = [];
  private pending = '';
  private length = 0;

  text(text: string): void {
    this.pending += text;
  }

  buffer(bytes: Buffer): void {
    this.flush();
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.parts, this.length);
  }

  private flush(): void {
    if (!this.pending) return;
    const bytes = Buffer.from(this.pending);
    this.parts.push(bytes);
    this.length += bytes.length;
    this.pending = '';
  }
}

function writeResult(out: Chunks, result: SearchResult, baseUrl: string): void {
  const { metadata, product, ...rest } = result;
  const own = JSON.stringify(rest);
  out.text(own === '{}' ? '{"metadata":' : `${own.slice(0, -1)},"metadata":`);
  writeFrozen(out, metadata);
  out.text(',"product":');
  writeProduct(out, product, baseUrl);
  out.text('}');
}

/** A deep-frozen object's JSON, encoded once (anything else each time). */
function writeFrozen(out: Chunks, value: object): void {
  const held = frozenBytes.get(value);
  if (held) return out.buffer(held);
  const text = JSON.stringify(value);
  if (!deepFrozen(value)) return out.text(text);
  const bytes = Buffer.from(text);
  frozenBytes.set(value, bytes);
  out.buffer(bytes);
}

/** Frozen all the way down: nothing in it can change, so its bytes can be kept as long as it lives. */
function deepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const inner of Object.values(value)) if (!deepFrozen(inner)) return false;
  return true;
}

function writeProduct(out: Chunks, product: MarketProductBody, baseUrl: string): void {
  const stored = storedProductOf(product) as Record<string, unknown> | undefined;
  const prepared = stored ? preparedStored(stored, baseUrl) : null;
  const fields = product as unknown as Record<string, unknown>;
  // Every stored field must be the frozen body's own: then the bytes kept say what this product says.
  if (!prepared || !sameStoredFields(prepared.own, fields, stored!)) return out.text(JSON.stringify(withImageUrls(product, baseUrl)));
  // The offer's own fields; the stored variants it keeps (its market is the stored one) are frozen too.
  const offer: Record<string, unknown> = {};
  const kept: Array<[string, object]> = [];
  for (const field in fields) {
    if (prepared.own.has(field)) continue;
    const value = fields[field];
    if (value !== null && typeof value === 'object' && Object.isFrozen(value)) kept.push([field, value]);
    else offer[field] = value;
  }
  out.buffer(prepared.open);
  let filled = prepared.open.length > 1;
  const more = JSON.stringify(offer);
  if (more !== '{}') {
    out.text(`${filled ? ',' : ''}${more.slice(1, -1)}`);
    filled = true;
  }
  for (const [field, value] of kept) {
    out.text(`${filled ? ',' : ''}${JSON.stringify(field)}:`);
    writeFrozen(out, value);
    filled = true;
  }
  out.text('}');
}

function sameStoredFields(own: ReadonlySet<string>, product: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  for (const field of own) if (product[field] !== stored[field]) return false;
  return true;
}

/** The stored product's own fields as bytes, when it is deep-frozen (else null: written whole each time). */
function preparedStored(stored: object, baseUrl: string): StoredBytes | null {
  const held = storedBytes.get(stored);
  if (held && held.baseUrl === baseUrl) return held;
  if (!held && !deepFrozen(stored)) return null;
  const own: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(stored)) if (!OFFER_FIELDS.has(field) && value !== undefined) own[field] = value;
  const linked = 'assets' in own ? withImageUrls(own as Parameters<typeof withImageUrls>[0], baseUrl) : own;
  const prepared = { baseUrl, open: Buffer.from(JSON.stringify(linked).slice(0, -1)), own: new Set(Object.keys(own)) };
  storedBytes.set(stored, prepared);
  return prepared;
}
