// The shop's front: category, gender and sale filters over a product grid fed by /v1/search. The
// search needs words (1 to 500 characters), so each category brings its own default words for an
// empty search box; typed words replace them and the filters still narrow.
import { formatMoney, photo, photoSrcset, remember, searchProducts, SearchError, type Product, type SearchFilters } from './api.js';
import { h, hideBroken, replace, srOnly } from './dom.js';

interface Category {
  id: string;
  label: string;
  /** Words searched when the box is empty (chosen by trying them on the demo catalogue). */
  query: string;
  filters: SearchFilters;
}

const CATEGORIES: Category[] = [
  { id: 'all', label: 'All', query: 'new arrivals', filters: {} },
  { id: 'tops', label: 'Tops', query: 'top', filters: { slot: 'top' } },
  { id: 'bottoms', label: 'Bottoms', query: 'bottoms', filters: { slot: 'bottom' } },
  { id: 'dresses', label: 'Dresses', query: 'dress', filters: { family: 'dress' } },
  { id: 'shoes', label: 'Shoes', query: 'shoes', filters: { slot: 'footwear' } },
  { id: 'outerwear', label: 'Outerwear', query: 'jacket coat', filters: { slot: 'outerwear' } },
];

const GENDERS = [
  { id: 'womens', label: 'Women' },
  { id: 'mens', label: 'Men' },
] as const;

/** The lowest "was" price among in-stock reduced variants: what a sale is measured from. */
export function listPrice(product: Product): number | null {
  const was = product.variants.filter((v) => v.inStock && v.compareAtPrice !== null && v.compareAtPrice > v.price).map((v) => v.compareAtPrice as number);
  return product.onSale && was.length ? Math.min(...was) : null;
}

/** Price, and the struck-through list price on sale (announced as "was", since <s> is not). */
export function priceView(price: number, was: number | null, currency: string, className = 'price'): HTMLElement {
  return h(
    'p',
    { class: className },
    h('span', { class: was !== null ? 'now sale' : 'now' }, was !== null ? srOnly('Now ') : null, formatMoney(price, currency)),
    was !== null ? h('s', { class: 'was' }, srOnly('was '), formatMoney(was, currency)) : null,
  );
}

export const saleBadge = (discount: number) =>
  h('span', { class: 'badge', 'data-test': 'sale-badge' }, srOnly('On sale, '), discount > 0 ? `−${discount}%` : 'Sale', discount > 0 ? srOnly(' off') : null);

function card(product: Product): HTMLElement {
  const image = product.images[0];
  return h(
    'li',
    {},
    h(
      'a',
      { class: 'card', href: `#/product/${encodeURIComponent(product.itemId)}`, 'data-test': 'product-card', 'data-item-id': product.itemId },
      h(
        'div',
        { class: 'card-media' },
        image
          ? h('img', {
              src: photo(image, 400),
              srcset: photoSrcset(image, [400, 800]),
              sizes: '(min-width: 1200px) 280px, (min-width: 720px) 30vw, 50vw',
              alt: product.name,
              loading: 'lazy',
              decoding: 'async',
              width: 400,
              height: 500,
              onerror: hideBroken,
            })
          : h('span', { class: 'no-photo' }, 'No photo'),
        product.onSale ? saleBadge(product.discount) : null,
      ),
      h('h3', { class: 'card-title' }, product.name),
      priceView(product.price, listPrice(product), product.currency),
      product.available ? null : h('p', { class: 'muted' }, 'Sold out'),
    ),
  );
}

export function createGrid(key: string) {
  let category: Category = CATEGORIES[0]!;
  let gender: 'womens' | 'mens' | null = null;
  let onSale = false;
  let query = '';
  let sequence = 0;

  const heading = h('h1', { class: 'view-title', tabindex: '-1' });
  const status = h('p', { class: 'muted result-count', role: 'status' });
  const grid = h('ul', { class: 'grid', 'data-test': 'product-grid', 'aria-labelledby': 'grid-title' });
  heading.id = 'grid-title';
  const error = h('div', { class: 'notice', role: 'alert', hidden: true });

  const chip = (label: string, pressed: boolean, filter: string, onclick: () => void) =>
    h('button', { type: 'button', class: 'chip', 'aria-pressed': String(pressed), 'data-test': 'filter-chip', 'data-filter': filter, onclick }, label);

  const filterBar = h('div', { class: 'filters' });
  const renderFilters = () =>
    replace(
      filterBar,
      h(
        'div',
        { class: 'chip-group', role: 'group', 'aria-label': 'Category' },
        ...CATEGORIES.map((c) =>
          chip(c.label, c === category, `category:${c.id}`, () => {
            category = c;
            update();
          }),
        ),
      ),
      h(
        'div',
        { class: 'chip-group', role: 'group', 'aria-label': 'Shop for' },
        ...GENDERS.map((g) =>
          chip(g.label, gender === g.id, `gender:${g.id}`, () => {
            gender = gender === g.id ? null : g.id;
            update();
          }),
        ),
        chip('On sale', onSale, 'sale', () => {
          onSale = !onSale;
          update();
        }),
      ),
    );

  const element = h('section', { class: 'view grid-view', 'aria-labelledby': 'grid-title', 'data-test': 'grid-view' }, h('nav', { class: 'filter-nav', 'aria-label': 'Product filters' }, filterBar), h('div', { class: 'view-head' }, heading, status), error, grid);

  async function load() {
    const mine = ++sequence;
    const filters: SearchFilters = { ...category.filters, ...(gender ? { gender } : {}), ...(onSale ? { onSale: true } : {}) };
    heading.textContent = query ? `Results for “${query}”` : category.id === 'all' ? 'New arrivals' : category.label;
    grid.setAttribute('aria-busy', 'true');
    element.classList.add('is-loading');
    status.textContent = 'Loading products…';
    try {
      const products = await searchProducts(key, query || category.query, filters);
      if (mine !== sequence) return; // a newer search is under way: its answer wins
      remember(products);
      error.hidden = true;
      replace(grid, ...products.map(card));
      status.textContent = products.length ? `${products.length} ${products.length === 1 ? 'product' : 'products'}` : '';
      if (!products.length) replace(grid, h('li', { class: 'empty' }, h('p', {}, 'Nothing matches these filters.'), h('p', { class: 'muted' }, 'Try other words, or clear a filter.')));
    } catch (cause) {
      if (mine !== sequence) return;
      replace(grid);
      status.textContent = '';
      replace(
        error,
        h('p', {}, cause instanceof SearchError ? cause.message : 'Something went wrong loading products.'),
        h('button', { type: 'button', class: 'button secondary', onclick: () => void load() }, 'Try again'),
      );
      error.hidden = false;
    } finally {
      if (mine === sequence) {
        grid.removeAttribute('aria-busy');
        element.classList.remove('is-loading');
      }
    }
  }

  function update() {
    renderFilters();
    void load();
  }

  // First paint: placeholders in the shape of cards, so the page does not jump when they arrive.
  replace(grid, ...Array.from({ length: 8 }, () => h('li', { class: 'skeleton', 'aria-hidden': 'true' }, h('div', { class: 'card-media' }), h('div', { class: 'line' }), h('div', { class: 'line short' }))));
  update();

  return {
    element,
    heading,
    /** Typed words (trimmed); empty goes back to the category's default words. */
    search(words: string) {
      const next = words.trim().slice(0, 500);
      if (next === query) return;
      query = next;
      void load();
    },
    /** The card of a product, to give focus back to it when the shopper returns from its page. */
    cardOf: (itemId: string) => grid.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(itemId)}"]`),
  };
}
