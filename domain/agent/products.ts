// Products as the agent handles them: the complete record a shopper's screen gets (`search_results`,
// `looks`: the search result's shape, re-priced in the shopper's market, photos linked), and the
// brief a model reads in a tool's output (no photos, no HTML: what choosing needs). Pure.
import type { PricedProduct } from '../pricing/index.js';
import type { DatasetItemBody } from '../item/record.js';
import type { LinkedAssets } from '../item/image-links.js';

/** The product as search returns it: stored fields, then the shopper's market's prices and the response-only fields of document 1. */
export type MarketProduct = Omit<DatasetItemBody['product'], 'assets' | 'variants' | 'price' | 'currency' | 'market'> &
  Omit<PricedProduct, never> & { assets: LinkedAssets };

export interface ShownProduct {
  itemId: string;
  datasetId: string;
  /** The store the product is sold by (its dataset's store name and domain), so a shopper of several stores knows whose it is. */
  store: { name: string; domain: string | null } | null;
  metadata: DatasetItemBody['metadata'];
  product: MarketProduct;
}

/** What a model reads of a product. */
export interface ProductBrief {
  itemId: string;
  name: string;
  /** Store name, only when the scope spans several stores. */
  store?: string;
  slot: string;
  family: string;
  colour: string;
  colours: string[];
  pattern: string;
  materials: string[];
  gender: string;
  /** `adult`, `kids`, `baby`, or null when the item was labelled before ages were. */
  ageGroup: string | null;
  price: number;
  currency: string;
  compareAtPrice?: number;
  onSale: boolean;
  discount?: number;
  /** Sizes (variant labels) in stock in the shopper's market. */
  sizes: string[];
  available: boolean;
}

/** The lowest list price among in-stock variants above their price, for the brief. */
const compareAt = (product: MarketProduct): number | undefined => {
  const prices = product.variants.filter((v) => v.inStock && v.compareAtPrice !== null && v.compareAtPrice !== undefined && v.compareAtPrice > v.price).map((v) => v.compareAtPrice!);
  return prices.length ? Math.min(...prices) : undefined;
};

export function productBrief(shown: ShownProduct, withStore: boolean): ProductBrief {
  const { product, metadata } = shown;
  const listPrice = product.onSale ? compareAt(product) : undefined;
  return {
    itemId: shown.itemId,
    name: product.name,
    ...(withStore && shown.store ? { store: shown.store.name } : {}),
    slot: metadata.slot,
    family: metadata.family,
    colour: metadata.color_family,
    colours: metadata.colors.slice(0, 8),
    pattern: metadata.pattern,
    materials: metadata.material.slice(0, 3),
    gender: metadata.gender,
    ageGroup: metadata.age_group,
    price: product.price,
    currency: product.currency,
    ...(listPrice !== undefined ? { compareAtPrice: listPrice } : {}),
    onSale: product.onSale,
    ...(product.onSale ? { discount: product.discount } : {}),
    sizes: [...new Set(product.variants.filter((v) => v.inStock).map((v) => v.label))].slice(0, 20),
    available: product.available,
  };
}
