// Cart actions the agent decided (`cart_action`), applied through the page's cart adapter, and the
// receipt the shopper reads. Without an adapter nothing is applied and the receipt says so.
import type { CartAction, CartAdapter, CartSnapshot } from './types.js';

export interface Receipt {
  text: string;
  /** The adapter accepted it. */
  ok: boolean;
  image: string | null;
}

const named = (title: string, variant: string | null | undefined) => (variant ? `${title} (${variant})` : title);

/** The receipt's words for an action, from what it carries and the cart snapshot sent with the turn. */
function describe(action: CartAction, cart: CartSnapshot | null): string | null {
  const line = action.lineKey ? cart?.items.find((item) => item.key === action.lineKey) : undefined;
  const lineName = line ? named(line.title, line.variant) : 'the item';
  const product = action.product ? named(action.product.title, action.product.variant) : 'the item';
  const quantity = action.quantity ?? 1;
  switch (action.action) {
    case 'add':
      return `Added ${product}${quantity > 1 ? ` × ${quantity}` : ''} to your cart`;
    case 'swap':
      return `Swapped ${lineName} for ${product}`;
    case 'quantity':
      return `Changed ${lineName} to ${quantity}`;
    case 'remove':
      return `Removed ${lineName} from your cart`;
    default:
      return null; // `read`: nothing changed, nothing to show
  }
}

export async function applyCartAction(adapter: CartAdapter | undefined, action: CartAction, cart: CartSnapshot | null): Promise<Receipt | null> {
  const text = describe(action, cart);
  if (text === null) return null;
  const image = action.product?.image ?? null;
  if (!adapter) return { text: `${text} (not applied: this page has no cart)`, ok: false, image };
  const line = action.product && {
    ...action.product,
    quantity: action.quantity ?? 1,
    price: action.price,
    currency: action.currency,
    intent: action.intent,
  };
  try {
    if (action.action === 'add' && line) await adapter.add(line);
    else if (action.action === 'quantity' && action.lineKey) await adapter.change(action.lineKey, action.quantity ?? 1);
    else if (action.action === 'remove' && action.lineKey) await adapter.remove(action.lineKey);
    else if (action.action === 'swap' && action.lineKey && line) {
      // A swap is a remove then an add: the store's cart has no "replace" of its own.
      await adapter.remove(action.lineKey);
      await adapter.add(line);
    } else throw new Error('incomplete cart action');
    return { text, ok: true, image };
  } catch {
    return { text: `${text} (not applied: the cart refused it)`, ok: false, image };
  }
}
