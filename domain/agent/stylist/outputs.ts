// What the stylist reads back from its tools: each FunctionCallResult's text parsed into the shapes
// of tools.ts (ArticlesOutput, LookupOutput, ShowOutput, LooksOutput, the cart), leniently. A
// history is client data and may have been edited or written by another model, so every field is
// checked and anything unreadable becomes an empty answer, never an exception. Pure.
import type { ProductBrief } from '../products.js';
import { memoised } from './memo.js';
import type { CartLine } from '../cart.js';

/** A tool's answer: its value, or the failure it reported. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export const parseJson = memoised((raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
});

/** A brief as a tool wrote it; null when it has no usable itemId. */
export function readBrief(value: unknown): ProductBrief | null {
  if (!isObject(value)) return null;
  const itemId = text(value.itemId);
  if (!itemId || itemId.length > 100) return null;
  const compareAtPrice = number(value.compareAtPrice);
  const discount = number(value.discount);
  return {
    itemId,
    name: text(value.name).slice(0, 200),
    ...(typeof value.store === 'string' ? { store: value.store.slice(0, 100) } : {}),
    slot: text(value.slot),
    family: text(value.family),
    colour: text(value.colour),
    colours: strings(value.colours),
    pattern: text(value.pattern),
    materials: strings(value.materials),
    gender: text(value.gender),
    ageGroup: typeof value.ageGroup === 'string' ? value.ageGroup : null,
    price: number(value.price) ?? 0,
    currency: text(value.currency),
    ...(compareAtPrice !== undefined ? { compareAtPrice } : {}),
    onSale: value.onSale === true,
    ...(discount !== undefined ? { discount } : {}),
    sizes: strings(value.sizes),
    available: value.available !== false,
  };
}

const briefs = (value: unknown): ProductBrief[] => {
  const seen = new Set<string>();
  return (Array.isArray(value) ? value : []).flatMap((v) => {
    const brief = readBrief(v);
    if (!brief || seen.has(brief.itemId)) return [];
    seen.add(brief.itemId);
    return [brief];
  });
};

function answer<T>(raw: string | undefined, read: (json: Record<string, unknown>) => T): Answer<T> {
  if (raw === undefined) return { ok: false, error: 'no result' };
  const json = parseJson(raw);
  if (!isObject(json)) return { ok: false, error: raw.slice(0, 300) || 'unreadable result' };
  if (typeof json.error === 'string') return { ok: false, error: json.error.slice(0, 300) };
  return { ok: true, value: read(json) };
}

export interface Lookup {
  currency: string;
  total: number;
  products: ProductBrief[];
}

const lookupOf = memoised((raw: string) =>
  answer(raw, (json): Lookup => {
    const products = briefs(json.products);
    return { currency: text(json.currency), total: number(json.total) ?? products.length, products };
  }),
);

export const readLookup = (raw: string | undefined): Answer<Lookup> => (raw === undefined ? { ok: false, error: 'no result' } : lookupOf(raw));

export interface Shown {
  shown: ProductBrief[];
  refused: string[];
}

const refusedIds = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap((r) => (isObject(r) && typeof r.itemId === 'string' ? [r.itemId] : [])) : []);

export const readShow = (raw: string | undefined): Answer<Shown> => answer(raw, (json) => ({ shown: briefs(json.shown), refused: refusedIds(json.refused) }));

export interface Composed {
  looks: Array<{ label: string; itemIds: string[] }>;
  refused: string[];
}

export const readLooks = (raw: string | undefined): Answer<Composed> =>
  answer(raw, (json) => ({
    looks: (Array.isArray(json.looks) ? json.looks : []).flatMap((look) => (isObject(look) ? [{ label: text(look.label), itemIds: strings(look.itemIds) }] : [])),
    refused: refusedIds(json.refused),
  }));

export interface Articles {
  currency: string;
  slots: Array<{ slot: string; count: number; minPrice: number; maxPrice: number; families: Array<{ family: string; count: number }> }>;
}

export const readArticles = (raw: string | undefined): Answer<Articles> =>
  answer(raw, (json) => ({
    currency: text(json.currency),
    slots: (Array.isArray(json.slots) ? json.slots : []).flatMap((s) =>
      isObject(s) && typeof s.slot === 'string'
        ? [
            {
              slot: s.slot,
              count: number(s.count) ?? 0,
              minPrice: number(s.minPrice) ?? 0,
              maxPrice: number(s.maxPrice) ?? 0,
              families: (Array.isArray(s.families) ? s.families : []).flatMap((f) =>
                isObject(f) && typeof f.family === 'string' ? [{ family: f.family, count: number(f.count) ?? 0 }] : [],
              ),
            },
          ]
        : [],
    ),
  }));

/** A cart line as read_cart tells the model (cart.ts `cartForModel`): no image. */
export type CartLineBrief = Omit<CartLine, 'image'>;

export interface CartView {
  currency: string;
  total: number;
  lines: CartLineBrief[];
}

/** read_cart's answer: `cartForModel(cart)` (lines), or the items of a raw snapshot. */
export const readCartView = (raw: string | undefined): Answer<CartView> =>
  answer(raw, (json) => ({
    currency: text(json.currency),
    total: number(json.total) ?? 0,
    lines: (Array.isArray(json.lines) ? json.lines : Array.isArray(json.items) ? json.items : []).flatMap((l) =>
      isObject(l) && typeof l.key === 'string' && l.key.trim()
        ? [{ key: l.key.slice(0, 200), title: text(l.title), variant: typeof l.variant === 'string' ? l.variant : null, quantity: number(l.quantity) ?? 1, price: number(l.price) ?? 0, sku: typeof l.sku === 'string' ? l.sku : null }]
        : [],
    ),
  }));

/** Whatever a cart change answered: done, or why not. */
export const readCartChange = (raw: string | undefined): Answer<Record<string, unknown>> => answer(raw, (json) => json);
