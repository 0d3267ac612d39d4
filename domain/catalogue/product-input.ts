// The two shapes an upload may carry (document 3 §3 Items): ItemInput, and the product objects of a
// Shopify store's `products.json`. Both become one Listing, the merchant's product as the
// catalogue stores it and as labellers read it. Pure.
import { z } from 'zod';

export interface ListingVariant {
  variantId: string;
  sku: string;
  label: string;
  options: Array<{ name: string; value: string }>;
  inStock: boolean;
  quantity: number | null;
  price: number;
  compareAtPrice: number | null;
}

export interface Listing {
  sku: string;
  name: string;
  url: string;
  description: string;
  brand: string;
  productType: string;
  tags: string[];
  price: number;
  /** ISO 4217 as sent, or empty: the dataset's currency (else `CAD`) applies. */
  currency: string;
  /** Supplied order; at most 10 are kept at ingest. */
  images: Array<{ src: string }>;
  variants: ListingVariant[];
  model: { height: string; size: string };
  /** Option axes of the product (`Color`, `Size`…) with their values, in supplied order. */
  options: Array<{ name: string; values: string[] }>;
}

/**
 * Every field of both shapes is bounded, so one entry costs at most so much to hold, hash and
 * store. Document 1 fixes none of these but the 10 images kept per item; the rest follow
 * Shopify's own limits (255-character titles, tags, vendors and option values, 3 options, 250
 * images and tags per product, 2,048 variants) with room to spare.
 * Messages read `<path> must …` (describeIssue prefixes the path).
 */
export const ENTRY_LIMITS = {
  sku: 200,
  name: 500,
  url: 2000,
  description: 100_000,
  label: 255,
  tags: 250,
  tag: 255,
  images: 250,
  imageSrc: 4000,
  variants: 2048,
  options: 3,
  optionValues: 500,
  optionText: 500,
  modelText: 100,
} as const;

const L = ENTRY_LIMITS;
const text = (max: number) => z.string().max(max, `must be at most ${max.toLocaleString('en-US')} characters.`);
const list = <T extends z.ZodType>(entry: T, max: number) => z.array(entry).max(max, `must have at most ${max.toLocaleString('en-US')} entries.`);
const money = z.union([z.number(), z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/).transform(Number)]).pipe(z.number().min(0).max(1e9));
const anId = z.union([z.string(), z.number().int()]).transform(String).pipe(text(L.sku));

export const itemInputSchema = z.object({
  sku: z.union([z.string(), z.number().int()]).transform(String).pipe(z.string().trim().min(1, 'sku is required.').max(L.sku, `must be at most ${L.sku} characters.`)),
  name: z.string().trim().min(1, 'name is required.').max(L.name, `must be at most ${L.name} characters.`),
  url: text(L.url).optional(),
  description: text(L.description).optional(),
  brand: text(L.label).optional(),
  productType: text(L.label).optional(),
  tags: list(text(L.tag), L.tags).optional(),
  price: money.optional(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'currency must be a 3-letter ISO 4217 code.').optional(),
  images: list(z.object({ src: z.string().min(1).pipe(text(L.imageSrc)) }), L.images).optional(),
  variants: list(
    z.object({
      sku: anId,
      label: text(L.optionText).optional(),
      options: list(z.object({ name: text(L.label), value: text(L.optionText) }), L.options).optional(),
      inStock: z.boolean().optional(),
      quantity: z.number().int().nullable().optional(),
      price: money.optional(),
      compareAtPrice: money.nullable().optional(),
      variantId: anId.optional(),
    }),
    L.variants,
  ).optional(),
  model: z.object({ height: text(L.modelText).optional(), size: text(L.modelText).optional() }).optional(),
});
export type ItemInput = z.input<typeof itemInputSchema>;

const shopifyId = z.union([z.number().int(), z.string().min(1)]).transform(String).pipe(text(L.sku));
const nullableText = (max: number) => text(max).nullish().transform((value) => value ?? '');
const optionValue = z.union([z.string(), z.number()]).transform(String).pipe(text(L.optionText));

/** The fields of a `products.json` product we read; everything else is ignored. */
export const shopifyProductSchema = z.object({
  id: shopifyId,
  title: z.string().trim().min(1, 'title is required.').max(L.name, `must be at most ${L.name} characters.`),
  handle: nullableText(L.url),
  body_html: nullableText(L.description),
  vendor: nullableText(L.label),
  product_type: nullableText(L.label),
  // A string is Shopify's comma-separated form: bounded as the list it becomes.
  tags: z
    .union([z.array(z.string()), z.string()])
    .nullish()
    .transform((tags) => (typeof tags === 'string' ? tags.split(',') : (tags ?? [])).map((t) => t.trim()).filter(Boolean))
    .pipe(list(text(L.tag), L.tags)),
  options: list(z.object({ name: text(L.label), values: list(optionValue, L.optionValues).optional() }), L.options).nullish(),
  variants: list(
    z.object({
      id: shopifyId.optional(),
      title: nullableText(L.optionText),
      sku: text(L.sku).nullish(),
      option1: text(L.optionText).nullish(),
      option2: text(L.optionText).nullish(),
      option3: text(L.optionText).nullish(),
      available: z.boolean().nullish(),
      inventory_quantity: z.number().int().nullish(),
      price: money.nullish(),
      compare_at_price: money.nullish(),
    }),
    L.variants,
  ).nullish(),
  images: list(z.object({ src: z.string().min(1).pipe(text(L.imageSrc)) }), L.images).nullish(),
});
export type ShopifyProduct = z.input<typeof shopifyProductSchema>;

/** `<storeUrl>/products/<handle>`, with a scheme when the store URL was stored without one. */
export function productUrl(storeUrl: string, handle: string): string {
  if (!storeUrl || !handle) return '';
  const base = /^https?:\/\//i.test(storeUrl) ? storeUrl : `https://${storeUrl}`;
  return `${base.replace(/\/+$/, '')}/products/${handle}`;
}

export function listingFromItemInput(input: z.output<typeof itemInputSchema>): Listing {
  const variants = (input.variants ?? []).map((v, i): ListingVariant => ({
    variantId: v.variantId ?? '',
    sku: v.sku || `${input.sku}-${i + 1}`,
    label: v.label ?? (v.options ?? []).map((o) => o.value).join(' / '),
    options: v.options ?? [],
    inStock: v.inStock ?? true,
    quantity: v.quantity ?? null,
    price: v.price ?? input.price ?? 0,
    compareAtPrice: v.compareAtPrice ?? null,
  }));
  return {
    sku: input.sku,
    name: input.name,
    url: input.url ?? '',
    description: input.description ?? '',
    brand: input.brand ?? '',
    productType: input.productType ?? '',
    tags: input.tags ?? [],
    price: input.price ?? variants[0]?.price ?? 0,
    currency: input.currency ?? '',
    images: input.images ?? [],
    variants,
    model: { height: input.model?.height ?? '', size: input.model?.size ?? '' },
    options: optionAxes(variants),
  };
}

export function listingFromShopifyProduct(product: z.output<typeof shopifyProductSchema>, storeUrl: string): Listing {
  const names = (product.options ?? []).map((o) => o.name);
  const variants = (product.variants ?? []).map((v, i): ListingVariant => {
    const values = [v.option1, v.option2, v.option3];
    const options = values.flatMap((value, axis) => (value ? [{ name: names[axis] ?? `Option${axis + 1}`, value }] : []));
    return {
      variantId: v.id ?? '',
      sku: v.sku?.trim() || v.id || `${product.id}-${i + 1}`,
      label: v.title || options.map((o) => o.value).join(' / '),
      // A store's default single variant is named "Title / Default Title": not a real option.
      options: options.filter((o) => !(o.name === 'Title' && o.value === 'Default Title')),
      inStock: v.available ?? true,
      quantity: v.inventory_quantity ?? null,
      price: v.price ?? 0,
      compareAtPrice: v.compare_at_price ?? null,
    };
  });
  return {
    sku: product.id,
    name: product.title,
    url: productUrl(storeUrl, product.handle),
    description: product.body_html,
    brand: product.vendor,
    productType: product.product_type,
    tags: product.tags,
    // reduce, not Math.min(...): a spread of 200,000 variants overflows the call stack.
    price: variants.length ? variants.reduce((lowest, v) => Math.min(lowest, v.price), Infinity) : 0,
    currency: '',
    images: product.images ?? [],
    variants,
    model: { height: '', size: '' },
    options: optionAxes(variants),
  };
}

function optionAxes(variants: ListingVariant[]): Listing['options'] {
  const axes = new Map<string, string[]>();
  for (const variant of variants) {
    for (const { name, value } of variant.options) {
      const values = axes.get(name) ?? [];
      if (!values.includes(value)) values.push(value);
      axes.set(name, values);
    }
  }
  return [...axes].map(([name, values]) => ({ name, values }));
}
