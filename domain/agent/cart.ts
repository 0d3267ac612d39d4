// The cart snapshot of a chat request (document 2, CartSnapshot and CartLine). Any non-null `cart`
// enables the cart tools; the snapshot is not validated by the route: a malformed one makes the
// cart tools report why to the model instead of failing the request. A line's `image` is kept for
// receipts but never put in front of a model. Pure.
import { z } from 'zod';

export const CART_LIMITS = { lines: 100, text: 300 } as const;

const line = z.object({
  key: z.string().min(1).max(CART_LIMITS.text),
  title: z.string().max(CART_LIMITS.text),
  variant: z.string().max(CART_LIMITS.text).nullish(),
  quantity: z.number().int().min(0).max(100_000),
  price: z.number().min(0).max(1e9),
  sku: z.string().max(CART_LIMITS.text).nullish(),
  image: z.string().max(4096).nullish(),
});

const snapshot = z.object({
  itemCount: z.number().int().min(0).max(1_000_000),
  total: z.number().min(0).max(1e12),
  currency: z.string().regex(/^[A-Za-z]{3}$/),
  items: z.array(line).max(CART_LIMITS.lines),
});

export interface CartLine {
  key: string;
  title: string;
  variant: string | null;
  quantity: number;
  /** Line total, major units. */
  price: number;
  sku: string | null;
  image: string | null;
}

export interface Cart {
  itemCount: number;
  total: number;
  currency: string;
  items: CartLine[];
}

/** The snapshot, or the first few reasons it cannot be read (for the model and `tool_output`). */
export function readCart(value: unknown): { ok: true; cart: Cart } | { ok: false; error: string } {
  const parsed = snapshot.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join('.') : 'cart'}: ${issue.message}`);
    return { ok: false, error: `The cart snapshot could not be read (${problems.join('; ')}).` };
  }
  const cart = parsed.data;
  return {
    ok: true,
    cart: {
      itemCount: cart.itemCount,
      total: cart.total,
      currency: cart.currency.toUpperCase(),
      items: cart.items.map((l) => ({ key: l.key, title: l.title, variant: l.variant ?? null, quantity: l.quantity, price: l.price, sku: l.sku ?? null, image: l.image ?? null })),
    },
  };
}

/** The cart as a model reads it: no images. */
export const cartForModel = (cart: Cart) => ({
  itemCount: cart.itemCount,
  total: cart.total,
  currency: cart.currency,
  lines: cart.items.map(({ key, title, variant, quantity, price, sku }) => ({ key, title, variant, quantity, price, sku })),
});

export const findLine = (cart: Cart, lineKey: string): CartLine | undefined => cart.items.find((l) => l.key === lineKey);
