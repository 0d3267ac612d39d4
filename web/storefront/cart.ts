// The cart: lines kept in localStorage, one store that both the page and the stylist widget change
// (it is the widget's CartAdapter, so "add it in M" in the chat lands here and the header count
// moves at once), and the drawer that shows it as a modal dialog.
import { formatMoney, photo, roundMoney } from './api.js';
import { h, hideBroken, replace, srOnly } from './dom.js';

export interface CartLine {
  /** `${itemId}:${variantId}`: the same size of the same product is one line. */
  key: string;
  itemId: string;
  datasetId: string;
  variantId: string;
  sku: string;
  title: string;
  variant: string;
  image: string;
  quantity: number;
  /** Major units, per piece. */
  unitPrice: number;
  currency: string;
}

// The widget's contract, from the widget itself: what `cart.get()` answers (`price` is the line
// total) and what `cart.add()` is handed.
export type { CartAdapter, CartAddLine as CartAdd, CartSnapshot } from '../widget/types.js';
import type { CartAdapter, CartAddLine as CartAdd, CartSnapshot } from '../widget/types.js';

const STORAGE_KEY = 'northwind:cart';
const MAX_QUANTITY = 99;
const DEFAULT_CURRENCY = 'CAD';

const clampQuantity = (value: unknown): number => {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : 1;
  return Math.min(MAX_QUANTITY, Math.max(0, n));
};

const s = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

function readLines(raw: string | null): CartLine[] {
  try {
    const parsed: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((entry: unknown): CartLine[] => {
      if (typeof entry !== 'object' || entry === null) return [];
      const e = entry as Record<string, unknown>;
      const itemId = s(e.itemId);
      const variantId = s(e.variantId);
      const quantity = clampQuantity(e.quantity);
      if (!itemId || !variantId || quantity < 1) return [];
      return [
        {
          key: `${itemId}:${variantId}`,
          itemId,
          datasetId: s(e.datasetId),
          variantId,
          sku: s(e.sku),
          title: s(e.title) || 'Item',
          variant: s(e.variant),
          image: s(e.image),
          quantity,
          unitPrice: typeof e.unitPrice === 'number' && Number.isFinite(e.unitPrice) ? e.unitPrice : 0,
          currency: s(e.currency) || DEFAULT_CURRENCY,
        },
      ];
    });
  } catch {
    return [];
  }
}

export class Cart implements CartAdapter {
  private lines: CartLine[];
  private readonly listeners = new Set<() => void>();

  constructor() {
    this.lines = this.load();
    // Another tab of the store changed the cart: follow it.
    window.addEventListener('storage', (event) => {
      if (event.key !== STORAGE_KEY) return;
      this.lines = readLines(event.newValue);
      this.emit();
    });
  }

  subscribe(listener: () => void): void {
    this.listeners.add(listener);
  }

  all(): readonly CartLine[] {
    return this.lines;
  }

  count(): number {
    return this.lines.reduce((sum, line) => sum + line.quantity, 0);
  }

  currency(): string {
    return this.lines[0]?.currency ?? DEFAULT_CURRENCY;
  }

  total(): number {
    return roundMoney(this.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0));
  }

  get(): CartSnapshot {
    return {
      itemCount: this.count(),
      total: this.total(),
      currency: this.currency(),
      items: this.lines.map((line) => ({
        key: line.key,
        itemId: line.itemId,
        variantId: line.variantId,
        title: line.title,
        variant: line.variant,
        quantity: line.quantity,
        price: roundMoney(line.unitPrice * line.quantity),
        sku: line.sku,
        image: line.image,
      })),
    };
  }

  add(line: CartAdd): void {
    const itemId = s(line.itemId);
    const variantId = s(line.variantId);
    if (!itemId || !variantId) throw new Error('A cart line needs an itemId and a variantId.');
    const key = `${itemId}:${variantId}`;
    const quantity = Math.max(1, clampQuantity(line.quantity ?? 1));
    const existing = this.lines.find((l) => l.key === key);
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + quantity);
    else
      this.lines.push({
        key,
        itemId,
        datasetId: s(line.datasetId),
        variantId,
        sku: s(line.sku),
        title: s(line.title) || 'Item',
        variant: s(line.variant),
        image: s(line.image),
        quantity,
        unitPrice: typeof line.price === 'number' && Number.isFinite(line.price) ? line.price : 0,
        currency: s(line.currency) || DEFAULT_CURRENCY,
      });
    this.save();
  }

  change(lineKey: string, quantity: number): void {
    const line = this.lines.find((l) => l.key === lineKey);
    if (!line) throw new Error(`No cart line ${lineKey}.`);
    const next = clampQuantity(quantity);
    if (next < 1) this.lines = this.lines.filter((l) => l !== line);
    else line.quantity = next;
    this.save();
  }

  remove(lineKey: string): void {
    this.lines = this.lines.filter((l) => l.key !== lineKey);
    this.save();
  }

  private load(): CartLine[] {
    try {
      return readLines(localStorage.getItem(STORAGE_KEY));
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.lines));
    } catch {
      // Storage blocked or full: the cart still lives for this page.
    }
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}


/** The header's cart button; its accessible name carries the count ("Cart, 2 items"). */
export function cartButton(cart: Cart, onOpen: () => void): HTMLButtonElement {
  const count = h('span', { class: 'cart-count', 'data-test': 'cart-count' });
  const unit = h('span', { class: 'sr-only' });
  // An inline bag icon (no request, no icon font), built in the SVG namespace.
  const icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('aria-hidden', 'true');
  icon.setAttribute('class', 'icon');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M6 7h12l1 13H5L6 7Zm3 0V6a3 3 0 0 1 6 0v1');
  icon.appendChild(path);
  const button = h(
    'button',
    { type: 'button', class: 'cart-button', 'data-test': 'cart-button', 'aria-haspopup': 'dialog', onclick: onOpen },
    icon,
    h('span', { class: 'cart-word' }, 'Cart'),
    ' ',
    count,
    unit,
  );
  // The name is the visible words ("Cart 2") plus what only a screen reader needs ("items"), so
  // what a voice-control user reads on the button is part of its name.
  const update = () => {
    const n = cart.count();
    count.textContent = String(n);
    count.classList.toggle('is-empty', n === 0);
    unit.textContent = n === 1 ? ' item' : ' items';
  };
  cart.subscribe(update);
  update();
  return button;
}

/**
 * The drawer, a native modal <dialog>: the rest of the page is inert while it is open (focus stays
 * in it), Escape closes it, and focus goes back to what opened it.
 */
export function cartDrawer(cart: Cart) {
  const title = h('h2', { id: 'cart-title', tabindex: '-1' }, 'Your cart');
  const lines = h('ul', { class: 'cart-lines', 'aria-label': 'Items in your cart' });
  const total = h('strong', { 'data-test': 'cart-total' });
  const status = h('p', { class: 'sr-only', role: 'status' });
  const note = h('p', { class: 'cart-note' }, 'This is a demo store: checkout is turned off.');
  const footer = h('div', { class: 'cart-footer' }, h('p', { class: 'cart-total' }, h('span', {}, 'Total'), total), note);
  const empty = h('p', { class: 'cart-empty' }, 'Your cart is empty. Find something you like, or ask the stylist.');
  const close = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close cart', 'data-test': 'cart-close', 'data-focus': 'close' }, '×');
  const dialog = h(
    'dialog',
    { class: 'drawer', 'aria-labelledby': 'cart-title', 'data-test': 'cart-drawer' },
    h('div', { class: 'drawer-head' }, title, close),
    empty,
    lines,
    footer,
    status,
  );
  let opener: HTMLElement | null = null;

  close.addEventListener('click', () => dialog.close());
  // A click on the backdrop (the dialog box itself, outside its content) closes it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => {
    document.documentElement.classList.remove('has-modal');
    if (opener?.isConnected) opener.focus();
    opener = null;
  });

  const quantityButton = (line: CartLine, delta: 1 | -1) =>
    h(
      'button',
      {
        type: 'button',
        class: 'step',
        'data-test': delta > 0 ? 'cart-line-increase' : 'cart-line-decrease',
        'data-focus': `${line.key}:${delta}`,
        'aria-label': `${delta > 0 ? 'Increase' : 'Decrease'} quantity of ${line.title}`,
        disabled: delta > 0 && line.quantity >= MAX_QUANTITY,
        onclick: () => {
          cart.change(line.key, line.quantity + delta);
          status.textContent = line.quantity + delta < 1 ? `${line.title} removed.` : `${line.title}: quantity ${line.quantity}.`;
        },
      },
      delta > 0 ? '+' : '−',
    );

  const render = () => {
    // Re-drawing replaces the buttons; focus goes back to the same control (or the title when its line is gone).
    const focused = dialog.open && document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focus : undefined;
    const currency = cart.currency();
    replace(
      lines,
      ...cart.all().map((line) =>
        h(
          'li',
          { class: 'cart-line', 'data-test': 'cart-line', 'data-key': line.key },
          line.image ? h('img', { src: photo(line.image, 400), alt: '', width: 64, height: 80, loading: 'lazy', onerror: hideBroken }) : h('span', { class: 'thumb-placeholder' }),
          h(
            'div',
            { class: 'cart-line-body' },
            h('p', { class: 'cart-line-title' }, line.title),
            line.variant ? h('p', { class: 'muted' }, `Size: ${line.variant}`) : null,
            h(
              'div',
              { class: 'cart-line-actions' },
              h(
                'div',
                { class: 'stepper', role: 'group', 'aria-label': `Quantity of ${line.title}` },
                quantityButton(line, -1),
                h('span', { class: 'qty', 'data-test': 'cart-line-quantity' }, String(line.quantity)),
                quantityButton(line, 1),
              ),
              h(
                'button',
                {
                  type: 'button',
                  class: 'link-button',
                  'data-test': 'cart-line-remove',
                  'data-focus': `${line.key}:remove`,
                  onclick: () => {
                    cart.remove(line.key);
                    status.textContent = `${line.title} removed.`;
                  },
                },
                'Remove',
                srOnly(` ${line.title}`),
              ),
            ),
          ),
          h('p', { class: 'cart-line-price' }, formatMoney(roundMoney(line.unitPrice * line.quantity), line.currency)),
        ),
      ),
    );
    const isEmpty = cart.count() === 0;
    empty.hidden = !isEmpty;
    lines.hidden = isEmpty;
    footer.hidden = isEmpty;
    total.textContent = formatMoney(cart.total(), currency);
    if (focused) {
      const target = dialog.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`);
      if (target && !target.hasAttribute('disabled')) target.focus();
      else title.focus();
    }
  };
  cart.subscribe(render);
  render();

  return {
    element: dialog,
    open() {
      if (dialog.open) return;
      opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      document.documentElement.classList.add('has-modal');
      dialog.showModal();
      title.focus();
    },
    close: () => dialog.close(),
  };
}
