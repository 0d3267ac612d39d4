// The seven fixture feeds of the judged query set, read from ../shared/fixtures/shopify at run
// time (never copied into the repo), and the store each one becomes: a dataset with its own
// storeUrl and currency (SOURCES.md there says where each feed came from).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { itemIdFor } from '../../domain/item/identity.js';
import { ANNIE, EGN, FEEDS, HADES, KITH, LACED, UBB, WOVEN } from './queries.js';

export type ShopifyProduct = Record<string, any> & { id: number | string; title?: string };

export const FEEDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/shopify');

/** Where a feed's store lives and what it charges in. Stores whose address is unknown get a made-up one. */
export const FEED_STORES: Readonly<Record<string, { name: string; storeUrl: string; currency: string }>> = {
  [WOVEN]: { name: 'Woven', storeUrl: 'https://shopwoven.ca', currency: 'CAD' },
  [ANNIE]: { name: 'Annie Thompson', storeUrl: 'https://anniethompson.com', currency: 'CAD' },
  [LACED]: { name: 'laced-store', storeUrl: 'https://laced-store.example', currency: 'EGP' },
  [KITH]: { name: 'Kith', storeUrl: 'https://kith.com', currency: 'USD' },
  [HADES]: { name: 'Hades Culture', storeUrl: 'https://hadesculture.store', currency: 'INR' },
  [UBB]: { name: 'United By Blue demo', storeUrl: 'https://united-by-blue-demo.example', currency: 'USD' },
  [EGN]: { name: 'egnition sample data', storeUrl: 'https://egnition-sample-data.example', currency: 'USD' },
};

/** Which feeds of the judged set are missing from `dir`; all of them when the folder is absent. */
export function missingFeeds(dir = FEEDS_DIR): string[] {
  return FEEDS.filter((feed) => !existsSync(path.join(dir, feed)));
}

/** The products of one feed file (`{ products: [...] }` or a bare list; a leading BOM is dropped). */
export function readFeed(feed: string, dir = FEEDS_DIR): ShopifyProduct[] {
  const body = JSON.parse(readFileSync(path.join(dir, feed), 'utf8').replace(/^\uFEFF/, '')) as unknown;
  const products = Array.isArray(body) ? body : (body as { products?: unknown }).products;
  if (!Array.isArray(products)) throw new Error(`${feed} has no products list`);
  return products as ShopifyProduct[];
}

/**
 * A product without its photos: the feeds' photos live on the stores' CDNs, which a benchmark
 * should not depend on (and cannot reach offline, where each one costs a fetch timeout). The
 * offline labeller reads colour from a photo only when the text names none.
 */
export function withoutPhotos(product: ShopifyProduct): ShopifyProduct {
  const variants = Array.isArray(product.variants) ? product.variants.map((v: Record<string, unknown>) => ({ ...v, featured_image: null, image_id: null })) : product.variants;
  return { ...product, images: [], image: null, variants };
}

/** The key a judgement and a search result meet on: feed file and Shopify product id. */
export const productKey = (feed: string, id: string | number): string => `${feed}#${String(id)}`;

/** What the feed says of stock: a product with no variant listed as available cannot be bought (a feed without the field sells). */
export const inStock = (product: ShopifyProduct): boolean => {
  const variants: Array<Record<string, unknown>> = Array.isArray(product.variants) ? product.variants : [];
  return !variants.length || variants.some((variant) => variant.available !== false);
};

/**
 * Search results name items by itemId; judgements name products by feed and Shopify id. An
 * uploaded product's sku is String(product.id), its itemId the uuid v5 of (datasetId, sku).
 */
export class ProductIndex {
  private readonly byItemId = new Map<string, { key: string; title: string }>();
  private readonly byKey = new Map<string, { itemId: string; datasetId: string; title: string; inStock: boolean }>();

  add(feed: string, datasetId: string, products: readonly ShopifyProduct[]): void {
    for (const product of products) {
      const itemId = itemIdFor(datasetId, String(product.id));
      const key = productKey(feed, product.id);
      const title = String(product.title ?? '');
      if (this.byKey.has(key)) continue;
      this.byItemId.set(itemId, { key, title });
      this.byKey.set(key, { itemId, datasetId, title, inStock: inStock(product) });
    }
  }

  keyOf(itemId: string): string | undefined {
    return this.byItemId.get(itemId)?.key;
  }

  product(key: string): { itemId: string; datasetId: string; title: string; inStock: boolean } | undefined {
    return this.byKey.get(key);
  }

  /** The judgements as a shopper who can buy only what is in stock sees them: sold-out products (and any not in the index) left out, so they grade 0. */
  buyable(grades: ReadonlyMap<string, number>): Map<string, number> {
    return new Map([...grades].filter(([key]) => this.byKey.get(key)?.inStock ?? false));
  }

  titleOfItem(itemId: string): string | undefined {
    return this.byItemId.get(itemId)?.title;
  }
}
