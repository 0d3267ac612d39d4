// DOM building blocks of the widget. Server text only ever goes in through textContent / text
// nodes / attributes, never innerHTML.
import type { CardData } from './storage.js';
import type { ShownProduct } from './types.js';

type Attrs = Record<string, string | boolean | undefined>;

/** An element with attributes (false/undefined left out, true as an empty attribute) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Array<Node | string | null>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const name of Object.keys(attrs)) {
    const value = attrs[name];
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

const formats = new Map<string, Intl.NumberFormat | null>();

/** A price in its currency, in the shopper's language (`12,50 €`, `$12.50`); the bare number for an unknown code. */
export function money(amount: number, currency: string): string {
  let format = formats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(navigator.language || undefined, { style: 'currency', currency });
    } catch {
      format = null;
    }
    formats.set(currency, format);
  }
  return format ? format.format(amount) : `${amount.toFixed(2)} ${currency}`;
}

/** The photo URL at a width, through the service's image transforms. */
export const photo = (url: string, width: number) => `${url}/-/resize/${width}x/-/format/webp`;

/** What a card needs of a shown product (also what the transcript keeps). */
export function cardData(shown: ShownProduct): CardData {
  const product = shown.product;
  // The list price: the product's own when it has one, else the lowest a reduced variant was cut from.
  let compareAt = typeof product.compareAtPrice === 'number' ? product.compareAtPrice : null;
  if (compareAt === null && product.onSale) {
    const cuts = (product.variants ?? []).map((v) => v.compareAtPrice).filter((p): p is number => typeof p === 'number' && p > product.price);
    if (cuts.length) compareAt = Math.min(...cuts);
  }
  return {
    itemId: shown.itemId,
    datasetId: shown.datasetId,
    name: product.name,
    price: product.price,
    currency: product.currency,
    onSale: product.onSale,
    discount: product.discount,
    compareAtPrice: compareAt !== null && compareAt > product.price ? compareAt : null,
    url: typeof product.url === 'string' ? product.url : null,
    image: product.assets?.images?.[0]?.uploaded.url ?? null,
    store: shown.store?.name ?? null,
  };
}

export function productCard(card: CardData, onClick: () => void): HTMLButtonElement {
  const price = money(card.price, card.currency);
  const sale = card.onSale && card.discount > 0;
  const image = card.image
    ? el('img', {
        src: photo(card.image, 320),
        srcset: `${photo(card.image, 320)} 320w, ${photo(card.image, 640)} 640w`,
        sizes: '140px',
        alt: '',
        loading: 'lazy',
        decoding: 'async',
      })
    : el('span', { class: 'ph' });
  const button = el(
    'button',
    {
      type: 'button',
      class: 'card',
      'data-part': 'product-card',
      'data-item-id': card.itemId,
    },
    // The button's name is its text (what a voice-control user reads on it); the photo is decorative
    // (alt=""), the badge's meaning is said in words, and the store only to a screen reader.
    image,
    sale ? el('span', { class: 'badge', 'aria-hidden': 'true' }, `-${card.discount}%`) : null,
    sale ? el('span', { class: 'sr' }, `${card.discount}% off: `) : null,
    el('span', { class: 'name' }, card.name),
    el('span', { class: 'price' }, price, card.compareAtPrice !== null ? ' ' : null, card.compareAtPrice !== null ? el('s', {}, money(card.compareAtPrice, card.currency)) : null),
    card.store ? el('span', { class: 'sr' }, `, from ${card.store}`) : null,
  );
  button.addEventListener('click', onClick);
  return button;
}

/** The three blinking dots shown while the stylist is still writing. */
export const typingDots = () => el('div', { class: 'typing', 'aria-hidden': 'true' }, el('i'), el('i'), el('i'));
