// A local stand-in for a Shopify store's storefront: /products.json paged the way Shopify pages it,
// small photos drawn with sharp, and the ways real stores misbehave (errors, rate limits, redirects,
// hung sockets, HTML password pages, products repeated across pages), scripted by the test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productShot } from './photo-server.js';

type Product = Record<string, unknown>;

/** Real stores' products.json answers, kept outside the repo (see SOURCES.md there). */
export const shopifyFixturesDir: string = fileURLToPath(new URL('../../../shared/fixtures/shopify/', import.meta.url));

const fixtureFiles = (): string[] => readdirSync(shopifyFixturesDir).filter((name) => name.endsWith('.json')).sort();

export function shopifyFixturesAvailable(): boolean {
  return existsSync(shopifyFixturesDir) && fixtureFiles().length > 0;
}

/** Every product of every fixture file, in file-name order; an id seen in an earlier file wins. */
export function loadShopifyFixtures(): Product[] {
  if (!shopifyFixturesAvailable()) throw new Error(`No Shopify fixtures in ${shopifyFixturesDir}`);
  const seenIds = new Set<string>();
  const products: Product[] = [];
  for (const name of fixtureFiles()) {
    // A BOM would trip JSON.parse; one of the sources had one before it was collected.
    const feed = JSON.parse(readFileSync(join(shopifyFixturesDir, name), 'utf8').replace(/^\uFEFF/, '')) as { products?: unknown };
    if (!Array.isArray(feed.products)) throw new Error(`${name} has no products list`);
    for (const product of feed.products as Product[]) {
      if (seenIds.has(String(product.id))) continue;
      seenIds.add(String(product.id));
      products.push(product);
    }
  }
  return products;
}

const records = (value: unknown): Product[] => (Array.isArray(value) ? value.filter((entry): entry is Product => typeof entry === 'object' && entry !== null) : []);

function largestId(ids: Iterable<unknown>): number {
  let largest = 0;
  for (const id of ids) {
    const n = Number(id);
    if (Number.isSafeInteger(n) && n > largest) largest = n;
  }
  return largest;
}

/**
 * Exactly `count` products cycling over `products`, each a deep copy. Copy k > 0 of a product is a
 * new product as a store would have it: new product, variant and image ids above every id given
 * (references between them kept), handle and non-empty SKUs suffixed `-k`, same title.
 */
export function replicateProducts(products: Product[], count: number): Product[] {
  if (count > 0 && products.length === 0) throw new Error('No products to replicate');
  const variants = products.flatMap((product) => records(product.variants));
  const next = {
    product: largestId(products.map((product) => product.id)),
    variant: largestId(variants.map((variant) => variant.id)),
    image: largestId([...products.flatMap((product) => records(product.images)), ...variants.map((variant) => variant.featured_image)].map((image) => (image as Product | null)?.id)),
  };
  const copies: Product[] = [];
  for (let index = 0; index < count; index++) {
    const copy = cloneJson(products[index % products.length]!) as Product;
    const k = Math.floor(index / products.length);
    if (k > 0) renumber(copy, k, next);
    copies.push(copy);
  }
  return copies;
}

/** Products are plain JSON; copying them as such is three times quicker than structuredClone. */
function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy;
}

function renumber(product: Product, k: number, next: { product: number; variant: number; image: number }): void {
  const productId = ++next.product;
  product.id = productId;
  if (typeof product.handle === 'string') product.handle = `${product.handle}-${k}`;
  const variantIds = new Map<string, number>();
  for (const variant of records(product.variants)) {
    const variantId = ++next.variant;
    variantIds.set(String(variant.id), variantId);
    variant.id = variantId;
    if ('product_id' in variant) variant.product_id = productId;
    if (typeof variant.sku === 'string' && variant.sku !== '') variant.sku = `${variant.sku}-${k}`;
  }
  // A variant's featured_image repeats one of the product's images: both get the same new id.
  const imageIds = new Map<string, number>();
  const renumberImage = (image: Product) => {
    if (image.id !== undefined && image.id !== null) {
      const imageId = imageIds.get(String(image.id)) ?? ++next.image;
      imageIds.set(String(image.id), imageId);
      image.id = imageId;
    }
    if ('product_id' in image) image.product_id = productId;
    if (Array.isArray(image.variant_ids)) image.variant_ids = image.variant_ids.map((id: unknown) => variantIds.get(String(id)) ?? id);
  };
  records(product.images).forEach(renumberImage);
  for (const variant of records(product.variants)) if (typeof variant.featured_image === 'object' && variant.featured_image !== null) renumberImage(variant.featured_image as Product);
  for (const option of records(product.options)) if ('product_id' in option) option.product_id = productId;
}

export interface FakeShopifyStore {
  /** http://127.0.0.1:PORT; the feed is `${url}/products.json`. */
  url: string;
  /** Read at every request: tests change it between syncs (remove, change price, add). */
  products: Product[];
  /** Every request, feed or not; status 0 while a hung one waits. */
  requests: Array<{ path: string; page: number | null; limit: number | null; status: number }>;
  /** The next n answers to products.json are this status (with optional headers, e.g. Retry-After), then normal service resumes. */
  failNext(n: number, status: number, headers?: Record<string, string>): void;
  /** Pages from this number on never answer (the socket is held open) until release() is called. */
  hangFrom(page: number): void;
  /** Ends hangFrom; requests still waiting are answered normally. */
  release(): void;
  /** Serve these raw bodies/content types for the next answers (e.g. an HTML password page, truncated JSON). */
  answerNext(body: string, contentType: string, status?: number): void;
  close(): Promise<void>;
}

export interface FakeShopifyStoreOptions {
  products?: Product[];
  /** Page N+1 starts with the last n products of page N, as when a store's list shifts while it is paged. Default 0. */
  repeatAcrossPages?: number;
  /** Serve products.json through a 301 from this path too, e.g. '/old'. */
  redirectFrom?: string;
  /** 'local': images[].src and variants[].featured_image.src point at small JPEGs this server serves; 'none': no images; 'asis': untouched. Default 'local'. */
  photos?: 'local' | 'none' | 'asis';
}

const SHOPIFY_DEFAULT_LIMIT = 30;
const SHOPIFY_MAX_LIMIT = 250;
const PHOTO_COLOURS: Record<string, string> = { navy: '#1f2a44', camel: '#c19a6b', black: '#161616', ivory: '#efe8d8', red: '#a8232b', olive: '#5f6236' };
const PHOTO_PATH = /^\/photos\/([a-z]+)\/[\w-]+\.jpg$/;

let drawnPhotos: Promise<Map<string, Buffer>> | undefined;
const photosByColour = () =>
  (drawnPhotos ??= Promise.all(Object.entries(PHOTO_COLOURS).map(async ([name, hex]) => [name, await productShot(hex, 'jpeg', 160)] as const)).then((pairs) => new Map(pairs)));

interface ScriptedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function startShopifyStore(t: { teardown(fn: () => unknown): void } | null, options: FakeShopifyStoreOptions = {}): Promise<FakeShopifyStore> {
  const photoMode = options.photos ?? 'local';
  const photos = photoMode === 'local' ? await photosByColour() : new Map<string, Buffer>();
  const repeat = Math.max(0, options.repeatAcrossPages ?? 0);
  const scripted: ScriptedAnswer[] = [];
  const held = new Set<{ response: ServerResponse; record: FakeShopifyStore['requests'][number]; page: number; limit: number }>();
  let hangingFrom = Infinity;

  const servedCopy = (product: Product): Product => {
    if (photoMode === 'asis') return product;
    const photo = (image: Product): Product | null => (photoMode === 'none' ? null : { ...image, src: photoUrl(store.url, image) });
    const copy: Product = { ...product };
    if (Array.isArray(product.images)) copy.images = photoMode === 'none' ? [] : records(product.images).map(photo);
    if (Array.isArray(product.variants)) {
      copy.variants = product.variants.map((variant: unknown) => {
        const featured = (variant as Product | null)?.featured_image;
        return typeof featured === 'object' && featured !== null ? { ...(variant as Product), featured_image: photo(featured as Product) } : variant;
      });
    }
    return copy;
  };

  const serveFeedPage = (response: ServerResponse, record: FakeShopifyStore['requests'][number], page: number, limit: number) => {
    // Each later page starts `repeat` products earlier, as if the list had shifted under the paging.
    const start = (page - 1) * (limit - Math.min(repeat, limit - 1));
    const bodies = store.products.slice(start, start + limit).map((product) => JSON.stringify(servedCopy(product)));
    record.status = 200;
    // Several writes and no Content-Length: chunked, as Shopify sends it.
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.write('{"products":[');
    response.write(bodies.join(','));
    response.end(']}');
  };

  const answer = (response: ServerResponse, record: FakeShopifyStore['requests'][number], status: number, headers: Record<string, string>, body = '') => {
    record.status = status;
    response.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
    response.end(body);
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://store.invalid');
    const wholeNumber = (name: string) => {
      const value = url.searchParams.get(name);
      return value !== null && /^\d+$/.test(value) ? Number(value) : null;
    };
    const record = { path: url.pathname, page: wholeNumber('page'), limit: wholeNumber('limit'), status: 0 };
    store.requests.push(record);
    if (options.redirectFrom && url.pathname === options.redirectFrom) {
      answer(response, record, 301, { location: `/products.json${url.search}` });
    } else if (url.pathname === '/products.json' || url.pathname === '/products.json/') {
      const page = record.page && record.page >= 1 ? record.page : 1;
      const limit = record.limit && record.limit >= 1 ? Math.min(record.limit, SHOPIFY_MAX_LIMIT) : SHOPIFY_DEFAULT_LIMIT;
      if (page >= hangingFrom) {
        const waiting = { response, record, page, limit };
        held.add(waiting);
        response.on('close', () => held.delete(waiting));
      } else if (scripted.length > 0) {
        const next = scripted.shift()!;
        answer(response, record, next.status, next.headers, next.body);
      } else {
        serveFeedPage(response, record, page, limit);
      }
    } else if (PHOTO_PATH.test(url.pathname) && photos.has(PHOTO_PATH.exec(url.pathname)![1]!)) {
      const photo = photos.get(PHOTO_PATH.exec(url.pathname)![1]!)!;
      record.status = 200;
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) });
      response.end(photo);
    } else if (url.pathname === '/') {
      answer(response, record, 200, { 'content-type': 'text/html; charset=utf-8' }, '<!doctype html><html><body><h1>Fake Shopify store</h1><a href="/products.json">products</a></body></html>');
    } else {
      answer(response, record, 404, { 'content-type': 'text/html; charset=utf-8' }, '<!doctype html><html><body><h1>404 Page Not Found</h1></body></html>');
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closing: Promise<void> | undefined;
  const store: FakeShopifyStore = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    products: options.products ?? [],
    requests: [],
    failNext(n, status, headers = {}) {
      const body = status >= 300 && status < 400 ? '' : `<!doctype html><html><body><h1>${status} ${STATUS_CODES[status] ?? ''}</h1></body></html>`;
      for (let i = 0; i < n; i++) scripted.push({ status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body });
    },
    hangFrom(page) {
      hangingFrom = page;
    },
    release() {
      hangingFrom = Infinity;
      for (const waiting of held) {
        held.delete(waiting);
        if (!waiting.response.destroyed) serveFeedPage(waiting.response, waiting.record, waiting.page, waiting.limit);
      }
    },
    answerNext(body, contentType, status = 200) {
      scripted.push({ status, headers: { 'content-type': contentType }, body });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
  t?.teardown(() => store.close());
  return store;
}

/** The same image (by id) always gets the same colour, so a photo pipeline sees stable pictures. */
function photoUrl(base: string, image: Product): string {
  const key = String(image.id ?? image.src ?? '');
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  const colours = Object.keys(PHOTO_COLOURS);
  const name = key.replace(/[^\w-]/g, '').slice(-40) || 'photo';
  return `${base}/photos/${colours[hash % colours.length]}/${name}.jpg`;
}
