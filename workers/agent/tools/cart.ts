// The cart tools (only offered when the request sent a cart): read, add, swap, quantity, remove,
// each shown to the shopper as a `cart_action` the storefront applies through its own cart. The
// snapshot is the shopper's, untrusted and unvalidated by the route: one that cannot be read makes
// these tools fail with the reason, for the model to explain. `add` and `swap` carry an intent
// token bound to the session, item, variant and an expiry (infra/tokens/cart-intent.ts), null
// without a sessionId. Prices are the shopper's market's.
import { cartForModel, findLine, readCart, type Cart, type CartLine } from '../../../domain/agent/cart.js';
import type { CartAction, CartActionProduct } from '../../../domain/agent/stream-events.js';
import type { ShownProduct } from '../../../domain/agent/products.js';
import type { ListingVariant } from '../../../domain/catalogue/product-input.js';
import { variantHasSize } from '../../../domain/search/sizes.js';
import { issueCartIntent, INTENT_TTL_MS } from '../../../infra/tokens/cart-intent.js';
import { itemForCartLine } from '../../../projections/queries/products.js';
import { productsById, refusal } from './catalogue.js';
import { requireCatalogue, ToolError, type ToolDeps, type ToolHandler } from './context.js';

function cartOf(deps: ToolDeps): Cart {
  const read = readCart(deps.cart);
  if (!read.ok) throw new ToolError(read.error);
  return read.cart;
}

function lineOf(cart: Cart, lineKey: string): CartLine {
  const line = findLine(cart, lineKey);
  if (!line) throw new ToolError(`The cart has no line with key "${lineKey}". Lines: ${cart.items.map((l) => `${l.key} (${l.title})`).join(', ') || 'none'}.`);
  return line;
}

const inStockSizes = (product: ShownProduct) => [...new Set(product.product.variants.filter((v) => v.inStock).map((v) => v.label))];

/** The in-stock variant the model means: by id, by size, or the only one. */
function chooseVariant(product: ShownProduct, wanted: { variantId?: string; size?: string }): ListingVariant {
  const inStock = product.product.variants.filter((v) => v.inStock);
  if (wanted.variantId) {
    const variant = product.product.variants.find((v) => v.variantId === wanted.variantId || v.sku === wanted.variantId);
    if (!variant) throw new ToolError(`"${product.product.name}" has no variant ${wanted.variantId}.`);
    if (!variant.inStock) throw new ToolError(`${variant.label} of "${product.product.name}" is sold out. In stock: ${inStockSizes(product).join(', ')}.`);
    return variant;
  }
  if (wanted.size) {
    const size = wanted.size.trim().toLowerCase();
    const matching = product.product.variants.filter((v) => v.label.trim().toLowerCase() === size || variantHasSize(v, wanted.size!));
    const available = matching.find((v) => v.inStock);
    if (available) return available;
    if (matching.length) throw new ToolError(`Size ${wanted.size} of "${product.product.name}" is sold out. In stock: ${inStockSizes(product).join(', ')}.`);
    throw new ToolError(`"${product.product.name}" does not come in ${wanted.size}. In stock: ${inStockSizes(product).join(', ')}.`);
  }
  if (inStock.length === 1 || new Set(inStock.map((v) => v.label)).size === 1) return inStock[0]!;
  throw new ToolError(`Which size of "${product.product.name}"? In stock: ${inStockSizes(product).join(', ')}.`);
}

async function buyable(deps: ToolDeps, itemId: string): Promise<ShownProduct> {
  requireCatalogue(deps);
  const product = (await productsById(deps, [itemId])).get(itemId);
  const reason = refusal(product);
  if (reason) throw new ToolError(`${itemId}: ${reason}.`);
  return product!;
}

function actionProduct(product: ShownProduct, variant: ListingVariant): CartActionProduct {
  return {
    itemId: product.itemId,
    datasetId: product.datasetId,
    title: product.product.name,
    variantId: variant.variantId,
    variant: variant.label,
    sku: variant.sku,
    image: product.product.assets.images[0]?.uploaded.url ?? null,
  };
}

function intentFor(deps: ToolDeps, product: ShownProduct, variant: ListingVariant, action: 'add' | 'swap'): Pick<CartAction, 'intent' | 'intentExpiresAt'> {
  if (!deps.sessionId) return { intent: null, intentExpiresAt: null };
  const expiresAt = new Date(deps.now().getTime() + INTENT_TTL_MS);
  return {
    intent: issueCartIntent(deps.serverSecret, { sessionId: deps.sessionId, itemId: product.itemId, variantId: variant.variantId || variant.sku, action, expiresAt }),
    intentExpiresAt: expiresAt.toISOString(),
  };
}

const unitPrice = (line: CartLine): number | null => (line.quantity > 0 ? Math.round((line.price / line.quantity) * 100) / 100 : null);

export const readCartTool: ToolHandler<'read_cart'> = async (_args, deps) => {
  const cart = cartOf(deps);
  deps.emit({
    event: 'cart_action',
    data: { action: 'read', lineKey: null, product: null, quantity: null, price: null, currency: cart.currency, compareAtPrice: null, intent: null, intentExpiresAt: null, cart: { itemCount: cart.itemCount, total: cart.total, currency: cart.currency, lines: cart.items.length } },
  });
  return cartForModel(cart);
};

export const addToCart: ToolHandler<'add_to_cart'> = async (args, deps) => {
  cartOf(deps);
  const product = await buyable(deps, args.itemId);
  const variant = chooseVariant(product, args);
  const quantity = args.quantity ?? 1;
  const action: CartAction = {
    action: 'add',
    lineKey: null,
    product: actionProduct(product, variant),
    quantity,
    price: variant.price,
    currency: product.product.currency,
    compareAtPrice: variant.compareAtPrice ?? null,
    ...intentFor(deps, product, variant, 'add'),
  };
  deps.emit({ event: 'cart_action', data: action });
  return { added: { itemId: product.itemId, name: product.product.name, size: variant.label, quantity, price: variant.price, currency: product.product.currency } };
};

export const swapCartItem: ToolHandler<'swap_cart_item'> = async (args, deps) => {
  const cart = cartOf(deps);
  const line = lineOf(cart, args.lineKey);
  const itemId = args.itemId ?? (requireCatalogue(deps), await itemForCartLine(deps.db, { organizationId: deps.scope.organizationId, datasetIds: deps.scope.datasets.map((d) => d.datasetId) }, line));
  if (!itemId) throw new ToolError(`The line "${line.title}" could not be found in the catalogue (no matching sku or product name): name the product to swap to with itemId.`);
  const product = await buyable(deps, itemId);
  const variant = chooseVariant(product, args);
  const action: CartAction = {
    action: 'swap',
    lineKey: line.key,
    product: actionProduct(product, variant),
    quantity: line.quantity,
    price: variant.price,
    currency: product.product.currency,
    compareAtPrice: variant.compareAtPrice ?? null,
    ...intentFor(deps, product, variant, 'swap'),
  };
  deps.emit({ event: 'cart_action', data: action });
  return { swapped: { lineKey: line.key, from: { title: line.title, variant: line.variant }, to: { itemId: product.itemId, name: product.product.name, size: variant.label, price: variant.price, currency: product.product.currency } } };
};

export const updateCartQuantity: ToolHandler<'update_cart_quantity'> = async (args, deps) => {
  const cart = cartOf(deps);
  const line = lineOf(cart, args.lineKey);
  deps.emit({
    event: 'cart_action',
    data: { action: 'quantity', lineKey: line.key, product: null, quantity: args.quantity, price: unitPrice(line), currency: cart.currency, compareAtPrice: null, intent: null, intentExpiresAt: null },
  });
  return { updated: { lineKey: line.key, title: line.title, quantity: args.quantity } };
};

export const removeFromCart: ToolHandler<'remove_from_cart'> = async (args, deps) => {
  const cart = cartOf(deps);
  const line = lineOf(cart, args.lineKey);
  deps.emit({
    event: 'cart_action',
    data: { action: 'remove', lineKey: line.key, product: null, quantity: 0, price: unitPrice(line), currency: cart.currency, compareAtPrice: null, intent: null, intentExpiresAt: null },
  });
  return { removed: { lineKey: line.key, title: line.title } };
};
