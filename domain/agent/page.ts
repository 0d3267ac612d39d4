// `page.product` of a chat request (document 2): the product the shopper is looking at, so "this"
// and "it" mean something. Context only: it enables no tool and widens no scope. Read by name: a
// field of the wrong type is left out, text is cut, numbers are clamped, at most 60 variants are
// read, and a product without a `title` is ignored. The description is HTML or plain text, made
// markdown and cut to PAGE_LIMITS.description characters. Pure.
import { htmlToMarkdown } from '../html.js';

export const PAGE_LIMITS = {
  title: 300,
  vendor: 120,
  type: 120,
  url: 2048,
  description: 2000,
  options: 10,
  optionValues: 60,
  optionText: 80,
  variants: 60,
  variantTitle: 200,
  /** Minor units: a hundred million in the major unit is no clothing price. */
  price: 10_000_000_000,
} as const;

export interface PageVariant {
  id: string;
  title: string;
  sku: string | null;
  available: boolean;
}

export interface PageProduct {
  title: string;
  vendor: string | null;
  type: string | null;
  url: string | null;
  currency: string | null;
  /** Minor units of `currency`, as the page sends them. */
  price: number | null;
  priceMin: number | null;
  priceMax: number | null;
  compareAtPrice: number | null;
  available: boolean | null;
  /** Markdown, cut. */
  description: string | null;
  options: Array<{ name: string; values: string[] }>;
  variants: PageVariant[];
  selectedVariantId: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

const minor = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(PAGE_LIMITS.price, Math.max(0, Math.round(value))) : null;

const id = (value: unknown): string | null =>
  typeof value === 'string' ? value.slice(0, 100) || null : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;

export function readPageProduct(value: unknown): PageProduct | null {
  if (!isObject(value)) return null;
  const title = text(value.title, PAGE_LIMITS.title);
  if (!title) return null;
  const currency = typeof value.currency === 'string' && /^[A-Za-z]{3}$/.test(value.currency.trim()) ? value.currency.trim().toUpperCase() : null;
  const description = typeof value.description === 'string' ? htmlToMarkdown(value.description.slice(0, PAGE_LIMITS.description * 10)).slice(0, PAGE_LIMITS.description) || null : null;
  const options = Array.isArray(value.options)
    ? value.options
        .slice(0, PAGE_LIMITS.options)
        .flatMap((option) => {
          if (!isObject(option)) return [];
          const name = text(option.name, PAGE_LIMITS.optionText);
          if (!name) return [];
          const values = Array.isArray(option.values) ? option.values.slice(0, PAGE_LIMITS.optionValues).flatMap((v) => text(v, PAGE_LIMITS.optionText) ?? []) : [];
          return [{ name, values }];
        })
    : [];
  const variants = Array.isArray(value.variants)
    ? value.variants.slice(0, PAGE_LIMITS.variants).flatMap((variant): PageVariant[] => {
        if (!isObject(variant)) return [];
        const variantId = id(variant.id);
        if (!variantId) return [];
        return [
          {
            id: variantId,
            title: text(variant.title, PAGE_LIMITS.variantTitle) ?? '',
            sku: text(variant.sku, 100),
            available: typeof variant.available === 'boolean' ? variant.available : true,
          },
        ];
      })
    : [];
  return {
    title,
    vendor: text(value.vendor, PAGE_LIMITS.vendor),
    type: text(value.type, PAGE_LIMITS.type),
    url: text(value.url, PAGE_LIMITS.url),
    currency,
    price: minor(value.price),
    priceMin: minor(value.priceMin),
    priceMax: minor(value.priceMax),
    compareAtPrice: minor(value.compareAtPrice),
    available: typeof value.available === 'boolean' ? value.available : null,
    description,
    options,
    variants,
    selectedVariantId: id(value.selectedVariantId),
  };
}
