// The shapes the widget reads from the API and offers to the page. The service's own wire types
// come from domain/ (type-only imports: nothing of it is bundled); products are typed here by the
// fields the widget reads, since a card restored from storage keeps only those.

export interface ProductImage {
  uploaded: { url: string };
}

export interface ProductVariant {
  price: number;
  compareAtPrice?: number | null;
  inStock?: boolean;
  label?: string;
}

export interface ShownProduct {
  itemId: string;
  datasetId: string;
  store: { name: string; domain: string | null } | null;
  metadata: { slot?: string; [key: string]: unknown };
  product: {
    name: string;
    price: number;
    currency: string;
    onSale: boolean;
    discount: number;
    compareAtPrice?: number | null;
    available: boolean;
    url?: string | null;
    variants?: ProductVariant[];
    assets?: { images?: ProductImage[] };
    [key: string]: unknown;
  };
}

/** Document 2's CartSnapshot (and its lines), sent as `cart` with every turn when the page gave a cart adapter. */
import type { Cart as CartSnapshot } from '../../domain/agent/cart.js';
import type { CartAction } from '../../domain/agent/stream-events.js';
import type { WidgetPreset } from '../../domain/widget-preset/state.js';

export type { CartSnapshot, CartAction, WidgetPreset };
export type { CartLine } from '../../domain/agent/cart.js';

export interface CartAddLine {
  itemId: string;
  datasetId: string;
  variantId: string;
  sku: string;
  title: string;
  variant: string;
  image: string | null;
  quantity: number;
  price: number | null;
  currency: string | null;
  intent: string | null;
}

export interface CartAdapter {
  get(): CartSnapshot | Promise<CartSnapshot>;
  add(line: CartAddLine): void | Promise<void>;
  change(lineKey: string, quantity: number): void | Promise<void>;
  remove(lineKey: string): void | Promise<void>;
}

export type StorageMode = 'memory' | 'session' | 'local';

export interface PageContext {
  product?: object | null;
}

export interface WidgetOptions {
  key: string;
  /** Default: the origin of the `<script src>` that loaded the widget. */
  baseUrl?: string;
  themeId?: string;
  datasetIds?: string[];
  country?: string;
  /** Where the conversation is kept between page loads; default 'session'. */
  storage?: StorageMode;
  cart?: CartAdapter;
  page?: PageContext;
  /** Where the widget's shadow host goes; default: a new element appended to body. */
  container?: HTMLElement;
  open?: boolean;
  /** Default: open `product.url` in a new tab when it has one. */
  onProductClick?: (product: ShownProduct) => void;
}

export interface WidgetHandle {
  open(): void;
  close(): void;
  send(text: string): void;
  setPage(page: PageContext): void;
  setTheme(themeId: string | null): Promise<void>;
  destroy(): void;
}

export interface Preflight {
  session: { sessionId: string; token: string; expiresAt: string };
  theme: WidgetPreset | null;
  stores: Array<{ name: string; domain: string | null }>;
  demo: boolean;
}

export interface Look {
  label: string;
  items: ShownProduct[];
  customInstructions: string;
  basics: Array<{ text: string; slot: string }>;
}

/** The stream's events the widget acts on (the others, tool and thinking events, are skipped). */
export type AgentEvent =
  | { event: 'text_delta'; data: { delta: string } }
  | { event: 'search_results'; data: { kind: 'list' | 'outfit'; label: string; results: ShownProduct[] } }
  | { event: 'looks'; data: { looks: Look[] } }
  | { event: 'question'; data: { callId: string; question: string; options: Array<{ label: string }> } }
  | { event: 'suggestions'; data: { suggestions: string[] } }
  | { event: 'cart_action'; data: CartAction }
  | { event: 'done'; data: { turnId: string; text: string; history: unknown[] } }
  | { event: 'error'; data: { error: string } }
  | { event: 'other'; data: unknown };

/** A history entry as done.history hands it back: sent back verbatim. */
export type HistoryEntry = unknown;
