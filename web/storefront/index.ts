// The demo storefront, "Northwind Outfitters", served at /demo on the demo catalogue: a header with
// search and the cart, a filtered product grid, product pages at #/product/<itemId> (hash routes,
// so back and forward work without a server route), a cart drawer, and the Stylist widget mounted
// with this cart, so the stylist can read and change it. No framework: plain DOM, built from TS.
import { pageProduct, readProduct, recall, remember, STORE_NAME, type Product } from './api.js';
import { Cart, cartButton, cartDrawer, type CartAdapter } from './cart.js';
import { h } from './dom.js';
import { createGrid } from './grid.js';
import { createProductView } from './product.js';
import { injectStyles } from './styles.js';

/** The widget's handle (its contract; the widget script defines `window.StylistWidget`). */
interface WidgetHandle {
  open(): void;
  close(): void;
  send(text: string): void;
  setPage(page: { product?: object | null }): void;
  setTheme(themeId: string | null): Promise<void>;
  destroy(): void;
}
interface WidgetGlobal {
  mount(options: Record<string, unknown>): WidgetHandle;
}

interface Theme {
  id: string;
  name: string;
}

/** `data-themes` on #storefront: a JSON list of the demo's widget themes; anything else is none. */
function readThemes(raw: string | undefined): Theme[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((t: unknown) => {
      if (typeof t !== 'object' || t === null) return [];
      const entry = t as Record<string, unknown>;
      const id = entry.id;
      const name = entry.name;
      return typeof id === 'string' && id ? [{ id, name: typeof name === 'string' && name ? name : id }] : [];
    });
  } catch {
    return [];
  }
}

type Route = { kind: 'grid' } | { kind: 'product'; itemId: string };

function currentRoute(): Route {
  const match = /^#\/product\/([^/?#]+)/.exec(location.hash);
  if (!match?.[1]) return { kind: 'grid' };
  try {
    return { kind: 'product', itemId: decodeURIComponent(match[1]) };
  } catch {
    return { kind: 'grid' };
  }
}

function start(root: HTMLElement) {
  const key = root.dataset.key ?? '';
  const themes = readThemes(root.dataset.themes);
  injectStyles();
  // The grid keeps its scroll position by us: the browser's own restoration runs before the view changes.
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

  const cart = new Cart();
  const drawer = cartDrawer(cart);
  const grid = createGrid(key);
  let widget: WidgetHandle | null = null;
  let product: Product | undefined;
  let route: Route = { kind: 'grid' };
  let gridScroll = 0;
  /** The product page was opened from the grid in this visit: "Back to shop" is a history step. */
  let openedFromGrid = false;

  /** What the stylist was last told about the page (also what it starts with, when it mounts last). */
  let currentPage: { product: object | null } = { product: null };
  const setPage = (page: { product: object | null }) => {
    currentPage = page;
    try {
      widget?.setPage(page);
    } catch (error) {
      console.warn('Stylist widget: setPage failed', error);
    }
  };

  const productView = createProductView({
    cart,
    openCart: () => drawer.open(),
    onVariant: (p, variantId) => setPage({ product: pageProduct(p, variantId) }),
    onBack: (event) => {
      if (!openedFromGrid) return; // the link's own #/ opens the grid
      event.preventDefault();
      history.back();
    },
  });

  // ---- header ----
  const searchInput = h('input', {
    id: 'site-search',
    type: 'search',
    name: 'q',
    placeholder: 'Search dresses, boots, linen…',
    autocomplete: 'off',
    maxlength: 500,
    enterkeyhint: 'search',
    'data-test': 'search',
  });
  let typing: ReturnType<typeof setTimeout> | undefined;
  searchInput.addEventListener('input', () => {
    // Results follow the words as they are typed (on the grid only; on a product page, Enter searches).
    clearTimeout(typing);
    if (route.kind === 'grid') typing = setTimeout(() => grid.search(searchInput.value), 350);
  });
  const searchForm = h(
    'form',
    {
      class: 'search',
      role: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault();
        clearTimeout(typing);
        grid.search(searchInput.value);
        if (route.kind !== 'grid') location.hash = '#/';
      },
    },
    h('label', { for: 'site-search', class: 'sr-only' }, 'Search products'),
    searchInput,
    h('button', { type: 'submit', class: 'search-button' }, 'Search'),
  );

  const themeSelect = themes.length
    ? h(
        'div',
        { class: 'theme' },
        h('label', { for: 'theme-select' }, 'Stylist theme'),
        h('select', { id: 'theme-select', 'data-test': 'theme-select' }, h('option', { value: '' }, 'Default'), ...themes.map((t) => h('option', { value: t.id }, t.name))),
      )
    : null;
  themeSelect?.querySelector('select')?.addEventListener('change', (event) => {
    const value = (event.currentTarget as HTMLSelectElement).value;
    widget?.setTheme(value || null).catch((error: unknown) => console.warn('Stylist widget: setTheme failed', error));
  });

  const header = h(
    'header',
    { class: 'site-header' },
    h(
      'div',
      { class: 'header-inner' },
      h('a', { href: '#/', class: 'brand', 'data-test': 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, 'N'), STORE_NAME),
      searchForm,
      themeSelect,
      cartButton(cart, () => drawer.open()),
    ),
  );

  const main = h('main', { id: 'main', tabindex: '-1' }, grid.element, productView.element);
  const footer = h('footer', { class: 'site-footer' }, h('p', {}, `${STORE_NAME} is a demo store for Stylist: the products are generated and nothing is sold.`));
  root.replaceChildren(h('a', { href: '#main', class: 'skip-link', onclick: (e: Event) => (e.preventDefault(), main.focus()) }, 'Skip to content'), header, main, footer, drawer.element);

  // ---- routes ----
  function render(first: boolean) {
    const previous = route;
    route = currentRoute();
    if (route.kind === 'product') {
      if (previous.kind === 'grid') {
        gridScroll = window.scrollY;
        openedFromGrid = !first;
      }
      product = recall(route.itemId);
      const variantId = productView.show(product);
      grid.element.hidden = true;
      productView.element.hidden = false;
      document.title = `${product?.name ?? 'Product'} · ${STORE_NAME}`;
      window.scrollTo(0, 0);
      if (!first) productView.heading().focus({ preventScroll: true });
      setPage({ product: product ? pageProduct(product, variantId) : null });
    } else {
      const from = previous.kind === 'product' ? previous.itemId : null;
      product = undefined;
      openedFromGrid = false;
      productView.element.hidden = true;
      grid.element.hidden = false;
      document.title = `${STORE_NAME} · Stylist demo`;
      if (!first) {
        window.scrollTo(0, from ? gridScroll : 0);
        // Back on the grid, focus returns to the card the shopper opened (or the grid's heading).
        const target = (from && grid.cardOf(from)) || grid.heading;
        target.focus({ preventScroll: true });
        if (from) setPage({ product: null });
      }
    }
  }
  window.addEventListener('hashchange', () => render(false));
  render(true);

  // ---- the stylist ----
  // The widget calls these as plain functions, so they are bound here rather than handed as methods.
  const adapter: CartAdapter = {
    get: () => cart.get(),
    add: (line) => cart.add(line),
    change: (lineKey, quantity) => cart.change(lineKey, quantity),
    remove: (lineKey) => cart.remove(lineKey),
  };
  const StylistWidget = (window as unknown as { StylistWidget?: WidgetGlobal }).StylistWidget;
  if (StylistWidget && typeof StylistWidget.mount === 'function') {
    try {
      widget = StylistWidget.mount({
        key,
        cart: adapter,
        storage: 'session',
        page: currentPage,
        onProductClick: (shown: unknown) => {
          const clicked = readProduct(shown);
          if (!clicked) return;
          remember([clicked]);
          const hash = `#/product/${encodeURIComponent(clicked.itemId)}`;
          if (location.hash === hash) render(false);
          else location.hash = hash;
        },
      });
    } catch (error) {
      // The shop works without the stylist.
      console.warn('Stylist widget could not start', error);
    }
  }
}

const root = document.getElementById('storefront');
if (root) start(root);
