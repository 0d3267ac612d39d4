// A product's page, drawn on the client at #/product/<itemId> from the product as search (or the
// widget) gave it: photos, price, the description as text, sizes in stock and "Add to cart".
import { descriptionParagraphs, photo, photoSrcset, STORE_NAME, type Product, type Variant } from './api.js';
import type { Cart } from './cart.js';
import { h, hideBroken, replace } from './dom.js';
import { listPrice, priceView, saleBadge } from './grid.js';

export interface ProductViewOptions {
  cart: Cart;
  /** The shopper chose another size: the stylist's page context follows. */
  onVariant: (product: Product, variantId: string | null) => void;
  /** "Back to shop": the page decides between history.back() and a fresh grid. */
  onBack: (event: Event) => void;
  openCart: () => void;
}

export function createProductView(options: ProductViewOptions) {
  const element = h('section', { class: 'view product-view', 'data-test': 'product-page', hidden: true });
  let heading: HTMLElement = h('h1', { tabindex: '-1' });

  const back = () => h('a', { href: '#/', class: 'back-link', 'data-test': 'back-to-shop', onclick: options.onBack }, '← Back to shop');

  function gallery(product: Product): HTMLElement {
    const first = product.images[0];
    if (!first) return h('div', { class: 'gallery' }, h('div', { class: 'main-photo no-photo' }, 'No photo'));
    const main = h('img', {
      class: 'main-photo',
      // The cards' two sizes: the 400 px one is usually made already, and every new size a shopper
      // asks for counts against the image route's per-address budget of new variants (429 past it).
      src: photo(first, 800),
      srcset: photoSrcset(first, [400, 800]),
      sizes: '(min-width: 900px) 50vw, 100vw',
      alt: product.name,
      width: 800,
      height: 1000,
      onerror: hideBroken,
    });
    const images = product.images.slice(0, 6);
    const thumbs =
      images.length > 1
        ? h(
            'div',
            { class: 'thumbs', role: 'group', 'aria-label': 'Photos' },
            ...images.map((url, index) =>
              h(
                'button',
                {
                  type: 'button',
                  class: 'thumb',
                  'aria-label': `Photo ${index + 1} of ${images.length}`,
                  'aria-pressed': String(index === 0),
                  onclick: (event: Event) => {
                    main.src = photo(url, 800);
                    main.srcset = photoSrcset(url, [400, 800]);
                    for (const button of thumbs?.querySelectorAll('button') ?? []) button.setAttribute('aria-pressed', String(button === event.currentTarget));
                  },
                },
                // The stored photo itself (800 px, ~25 KB): no new variant to make, so opening a
                // product never spends the per-address budget on thumbnails.
                h('img', { src: url, alt: '', width: 64, height: 80, loading: 'lazy', onerror: hideBroken }),
              ),
            ),
          )
        : null;
    return h('div', { class: 'gallery' }, main, thumbs);
  }

  function render(product: Product) {
    const inStock = product.variants.filter((v) => v.inStock);
    let selected: Variant | null = inStock[0] ?? null;
    const price = h('div', { class: 'price-row' });
    const showPrice = () => {
      const amount = selected?.price ?? product.price;
      const was = selected ? (selected.compareAtPrice !== null && selected.compareAtPrice > selected.price ? selected.compareAtPrice : null) : listPrice(product);
      replace(price, priceView(amount, was, product.currency, 'price big'), was !== null ? saleBadge(Math.round((1 - amount / was) * 100)) : null);
    };
    showPrice();

    const status = h('p', { class: 'added', role: 'status' });
    const select = h(
      'select',
      { id: 'size-select', 'data-test': 'size-select', disabled: inStock.length === 0 },
      ...inStock.map((v) => h('option', { value: v.id }, v.size)),
    );
    if (!inStock.length) select.append(h('option', { value: '' }, 'Sold out'));
    select.addEventListener('change', () => {
      selected = inStock.find((v) => v.id === select.value) ?? null;
      status.textContent = '';
      showPrice();
      options.onVariant(product, selected?.id ?? null);
    });

    const add = h(
      'button',
      {
        type: 'button',
        class: 'button primary',
        'data-test': 'add-to-cart',
        disabled: !selected,
        onclick: () => {
          if (!selected) return;
          options.cart.add({
            // Added by the shopper, not on the stylist's word: no cart intent to report.
            intent: null,
            itemId: product.itemId,
            datasetId: product.datasetId,
            variantId: selected.id,
            sku: selected.sku,
            title: product.name,
            variant: selected.size,
            image: product.images[0] ?? '',
            quantity: 1,
            price: selected.price,
            currency: product.currency,
          });
          replace(status, `Added size ${selected.size} to your cart. `, h('button', { type: 'button', class: 'link-button', onclick: options.openCart }, 'View cart'));
        },
      },
      selected ? 'Add to cart' : 'Sold out',
    );

    heading = h('h1', { class: 'product-title', tabindex: '-1' }, product.name);
    const paragraphs = descriptionParagraphs(product.description);
    replace(
      element,
      back(),
      h(
        'div',
        { class: 'product-layout' },
        gallery(product),
        h(
          'div',
          { class: 'product-info' },
          h('p', { class: 'vendor' }, product.store ?? STORE_NAME),
          heading,
          price,
          h(
            'div',
            { class: 'buy' },
            h('label', { for: 'size-select' }, 'Size'),
            select,
            add,
          ),
          status,
          paragraphs.length ? h('div', { class: 'description' }, h('h2', {}, 'Details'), ...paragraphs.map((text) => h('p', {}, text))) : null,
        ),
      ),
    );
    return selected?.id ?? null;
  }

  function renderMissing() {
    heading = h('h1', { class: 'product-title', tabindex: '-1' }, 'This product is not on screen any more');
    replace(element, back(), h('div', { class: 'notice' }, heading, h('p', {}, 'Open it again from the shop or from the stylist’s suggestions.')));
  }

  return {
    element,
    /** Draws the product (or a "not found" note) and answers the size chosen at first. */
    show(product: Product | undefined): string | null {
      if (!product) {
        renderMissing();
        return null;
      }
      return render(product);
    },
    heading: () => heading,
  };
}
