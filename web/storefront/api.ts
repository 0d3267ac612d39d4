// The storefront's one server call, POST /v1/search (docs/storefront.md "Search"), and what it
// needs around it: the product shape read defensively (the same shape reaches us from the widget's
// onProductClick, so nothing is trusted to be complete), prices in the product's currency, photo
// variants through the image route, and the `page.product` the stylist reads (domain/agent/page.ts).

export interface Variant {
  id: string;
  sku: string;
  label: string;
  /** The size to show: the `Size` option when the feed has one, else the whole label. */
  size: string;
  options: Array<{ name: string; value: string }>;
  inStock: boolean;
  price: number;
  compareAtPrice: number | null;
}

export interface Product {
  itemId: string;
  datasetId: string;
  name: string;
  /** Merchant HTML or text: shown through descriptionParagraphs, never as HTML. */
  description: string;
  url: string;
  price: number;
  currency: string;
  onSale: boolean;
  discount: number;
  available: boolean;
  images: string[];
  variants: Variant[];
  family: string;
  slot: string;
  store: string | null;
}

/** The filters /v1/search accepts that this store offers (api/routes/search.ts). */
export interface SearchFilters {
  slot?: string;
  family?: string;
  gender?: 'womens' | 'mens';
  onSale?: boolean;
}

export const STORE_NAME = 'Northwind Outfitters';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback);
const num = (value: unknown, fallback = 0): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function readVariant(value: unknown): Variant | null {
  if (!isObject(value)) return null;
  // Search names it `variantId`; the widget's contract allows `id`; a SKU is the last resort.
  const id = str(value.variantId) || str(value.id) || str(value.sku);
  if (!id) return null;
  const options = list(value.options).flatMap((option) => (isObject(option) ? [{ name: str(option.name), value: str(option.value) }] : []));
  const label = str(value.label) || str(value.title) || options.map((o) => o.value).join(' / ');
  const size = options.find((o) => /^size$/i.test(o.name))?.value || label;
  const compareAt = typeof value.compareAtPrice === 'number' ? value.compareAtPrice : null;
  return { id, sku: str(value.sku), label, size, options, inStock: value.inStock !== false, price: num(value.price), compareAtPrice: compareAt };
}

/** A search result or a widget's ShownProduct as the store uses it; null when it cannot be shown. */
export function readProduct(value: unknown): Product | null {
  if (!isObject(value) || !isObject(value.product)) return null;
  const p = value.product;
  const metadata = isObject(value.metadata) ? value.metadata : {};
  const itemId = str(value.itemId);
  const name = str(p.name);
  if (!itemId || !name) return null;
  const assets = isObject(p.assets) ? p.assets : {};
  const images = list(assets.images).flatMap((image) => {
    const url = isObject(image) && isObject(image.uploaded) ? str(image.uploaded.url) : '';
    return url ? [url] : [];
  });
  const variants = list(p.variants).flatMap((v) => readVariant(v) ?? []);
  return {
    itemId,
    datasetId: str(value.datasetId),
    name,
    description: str(p.description),
    url: str(p.url),
    price: num(p.price),
    currency: /^[A-Za-z]{3}$/.test(str(p.currency)) ? str(p.currency).toUpperCase() : 'CAD',
    onSale: p.onSale === true,
    discount: num(p.discount),
    available: p.available !== false,
    images,
    variants,
    family: str(metadata.family),
    slot: str(metadata.slot),
    store: isObject(value.store) ? str(value.store.name) || null : null,
  };
}

export class SearchError extends Error {}

/**
 * One search. Stale answers are the caller's to drop (by a sequence number): aborting the fetch
 * instead would show up as a failed request in the browser, which the demo's tests forbid.
 */
export async function searchProducts(key: string, query: string, filters: SearchFilters, limit = 24): Promise<Product[]> {
  const body: Record<string, unknown> = { query, limit };
  if (Object.keys(filters).length) body.filters = filters;
  let response: Response;
  try {
    response = await fetch('/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
  } catch {
    throw new SearchError('The shop could not be reached. Check your connection and try again.');
  }
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = isObject(answer) ? str(answer.error) || str(answer.message) : '';
    throw new SearchError(message || `Search failed (${response.status}).`);
  }
  const results = isObject(answer) ? list(answer.results) : [];
  return results.flatMap((result) => readProduct(result) ?? []);
}

// ---- money ----

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(currency: string): Intl.NumberFormat {
  let format = formatters.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formatters.set(currency, format);
  }
  return format;
}

export const formatMoney = (amount: number, currency: string): string => formatter(currency).format(amount);

/** Major units to the currency's minor units (CAD 24.95 → 2495, JPY 1200 → 1200): page.product's prices. */
export function toMinor(amount: number, currency: string): number {
  const digits = formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round(amount * 10 ** digits);
}

/** Sums of prices kept to cents, so 3 × 24.95 is 74.85 and not 74.85000000000001. */
export const roundMoney = (amount: number): number => Math.round(amount * 100) / 100;

// ---- photos ----

/** A WebP variant of a photo from the image route (docs/storefront.md, image transforms). */
export function photo(url: string, width: number): string {
  // Only our image route takes transforms; any other address is used as it is.
  if (!url.includes('/v1/image/') || url.includes('/-/')) return url;
  return `${url}/-/resize/${width}x/-/format/webp`;
}

export const photoSrcset = (url: string, widths: number[]): string => widths.map((w) => `${photo(url, w)} ${w}w`).join(', ');

// ---- description ----

/**
 * The merchant's description as paragraphs of plain text. DOMParser builds an inert document (no
 * scripts run, nothing loads); only its text is read, block by block.
 */
export function descriptionParagraphs(html: string): string[] {
  if (!html.trim()) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks = doc.body.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, blockquote');
  const texts = blocks.length ? Array.from(blocks, (block) => (block.tagName === 'LI' ? `• ${block.textContent ?? ''}` : block.textContent ?? '')) : [doc.body.textContent ?? ''];
  return texts.map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

// ---- the page the stylist reads ----

/** Document 2's `page.product` (domain/agent/page.ts): prices in minor units, variants by id. */
export function pageProduct(product: Product, selectedVariantId: string | null): Record<string, unknown> {
  const currency = product.currency;
  const selected = product.variants.find((v) => v.id === selectedVariantId) ?? null;
  const prices = product.variants.map((v) => v.price);
  const price = selected?.price ?? product.price;
  const compareAt = selected?.compareAtPrice ?? null;
  const optionNames = [...new Set(product.variants.flatMap((v) => v.options.map((o) => o.name)))];
  return {
    title: product.name,
    vendor: product.store ?? STORE_NAME,
    type: product.family || null,
    url: `${location.origin}${location.pathname}#/product/${encodeURIComponent(product.itemId)}`,
    currency,
    price: toMinor(price, currency),
    priceMin: prices.length ? toMinor(Math.min(...prices), currency) : null,
    priceMax: prices.length ? toMinor(Math.max(...prices), currency) : null,
    compareAtPrice: compareAt !== null && compareAt > price ? toMinor(compareAt, currency) : null,
    available: product.available && product.variants.some((v) => v.inStock),
    description: product.description,
    options: optionNames.map((name) => ({ name, values: [...new Set(product.variants.flatMap((v) => v.options.filter((o) => o.name === name).map((o) => o.value)))] })),
    variants: product.variants.map((v) => ({ id: v.id, title: v.label, sku: v.sku || null, available: v.inStock })),
    selectedVariantId: selected?.id ?? null,
  };
}

// ---- products seen ----

// There is no public "one product" endpoint, so a product page opened by reload or back/forward
// is drawn from the products this tab has seen (search results and the widget's clicks), kept in
// sessionStorage.
const SEEN_KEY = 'northwind:seen-products';
const SEEN_MAX = 200;
const seen = new Map<string, Product>();

try {
  const stored: unknown = JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]');
  for (const entry of list(stored)) if (isObject(entry) && typeof entry.itemId === 'string') seen.set(entry.itemId, entry as unknown as Product);
} catch {
  // Storage blocked or corrupt: the tab starts with nothing seen.
}

export function remember(products: Product[]): void {
  for (const product of products) {
    seen.delete(product.itemId);
    seen.set(product.itemId, product);
  }
  while (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value as string);
  try {
    sessionStorage.setItem(SEEN_KEY, JSON.stringify([...seen.values()]));
  } catch {
    // Full or blocked: the in-memory copy still serves this page's life.
  }
}

export const recall = (itemId: string): Product | undefined => seen.get(itemId);
