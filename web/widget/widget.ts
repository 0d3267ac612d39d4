// One mounted widget: the launcher, the panel and the conversation, in an open shadow root.
import { Api, ApiError } from './api.js';
import { applyCartAction } from './cart.js';
import { EventQueue } from './events.js';
import { ConversationStore, type CardData, type Entry } from './storage.js';
import { FULL_SCREEN_MEDIA, STYLES, applyTheme } from './styles.js';
import type { AgentEvent, CartSnapshot, HistoryEntry, Look, PageContext, ShownProduct, WidgetOptions } from './types.js';
import { cardData, el, productCard, typingDots } from './view.js';

const DROPPED = 'The connection to the stylist dropped before the answer was finished. Please try again.';

/** The live state of the turn being streamed. */
interface LiveTurn {
  body: HTMLElement;
  dots: HTMLElement;
  /** The text entry deltas go to; a card or anything else in between starts a new one. */
  text: { entry: Entry & { t: 'text' }; node: Text } | null;
}

export class Widget {
  private readonly host: HTMLElement;
  private readonly root: HTMLElement;
  private readonly launcher: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly log: HTMLElement;
  private readonly chips: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  /** Says that a message typed while an answer streams waits for it (data-part "queued"). */
  private readonly queuedNote: HTMLElement;
  /** What the shopper sent while an answer streamed: sent as the next turn once it ends. */
  private queued: string | null = null;
  /** The page's own overflow while the full-screen panel holds its scrolling (phones); null when not held. */
  private heldOverflow: string | null = null;

  private readonly api: Api;
  private readonly events: EventQueue;
  private readonly store: ConversationStore;
  private history: HistoryEntry[];
  private transcript: Entry[];
  private suggestions: string[];
  private page: PageContext | null;
  private sessionId: string | null = null;
  private demo = false;
  private abort: AbortController | null = null;
  private stickToBottom = true;
  /** Full products shown on this page load, for onProductClick (restored cards only have CardData). */
  private readonly shown = new Map<string, ShownProduct>();
  private readonly ready: Promise<void>;

  constructor(
    private readonly options: WidgetOptions & { baseUrl: string },
  ) {
    this.api = new Api(options.baseUrl.replace(/\/+$/, ''), options.key);
    this.events = new EventQueue(this.api.baseUrl);
    this.store = new ConversationStore(options.key, options.storage ?? 'session');
    const saved = this.store.load();
    this.history = saved.history;
    this.transcript = saved.transcript;
    this.suggestions = saved.suggestions;
    this.page = options.page ?? null;

    this.host = el('div', { 'data-stylist-widget': '' });
    const shadow = this.host.attachShadow({ mode: 'open' });
    this.launcher = el('button', { type: 'button', class: 'launcher', 'data-part': 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'sw-panel' }, 'Ask our stylist');
    const close = el('button', { type: 'button', class: 'icon', 'data-part': 'close', 'aria-label': 'Close the stylist' }, '×');
    this.log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation with the stylist', 'data-part': 'log' });
    this.chips = el('div', { class: 'chips', role: 'group', 'aria-label': 'Suggested replies', hidden: true });
    this.input = el('input', { id: 'sw-input', type: 'text', 'data-part': 'input', autocomplete: 'off', maxlength: '2000', placeholder: 'Ask for an outfit, a size, a gift…' });
    this.sendButton = el('button', { type: 'submit', class: 'send', 'data-part': 'send' }, 'Send');
    this.stopButton = el('button', { type: 'button', class: 'stop', 'data-part': 'stop', hidden: true, 'aria-label': 'Stop the answer' }, 'Stop');
    const form = el('form', {}, el('label', { class: 'sr', for: 'sw-input' }, 'Message the stylist'), this.input, this.sendButton, this.stopButton);
    this.queuedNote = el('p', { class: 'muted queued', 'data-part': 'queued', 'aria-live': 'polite', hidden: true });
    this.panel = el(
      'div',
      { id: 'sw-panel', class: 'panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'sw-title', 'data-part': 'panel', hidden: true },
      el('header', {}, el('h2', { id: 'sw-title' }, 'Stylist'), close),
      this.log,
      el('footer', {}, this.chips, this.queuedNote, form),
    );
    this.root = el('div', { class: 'root' }, this.launcher, this.panel);
    shadow.append(el('style', {}, STYLES), this.root);

    this.launcher.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
    close.addEventListener('click', () => this.close());
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      }
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send(this.input.value);
    });
    this.stopButton.addEventListener('click', () => this.abort?.abort());
    this.log.addEventListener('scroll', () => {
      this.stickToBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 60;
    });

    // The saved conversation, grouped in turns as it was drawn live (a user message opens each).
    let turn: HTMLElement | null = null;
    for (const entry of this.transcript) {
      if (entry.t === 'user') {
        this.render(entry, this.log, false);
        turn = null;
        continue;
      }
      if (!turn) this.log.append((turn = el('div', { class: 'turn msg', 'data-part': 'message' })));
      this.render(entry, turn, false);
    }
    this.renderChips();
    (options.container ?? document.body).append(this.host);
    performance.mark('stylist:ready');
    this.ready = this.preflight(options.themeId ?? null, true);
    if (options.open) this.open();
  }

  // ---- the handle ----

  open(): void {
    if (!this.panel.hidden) return;
    this.panel.hidden = false;
    this.root.classList.add('open');
    this.launcher.setAttribute('aria-expanded', 'true');
    // Under 640 px the panel is the whole screen: the page behind it must not scroll under the finger.
    if (matchMedia(FULL_SCREEN_MEDIA).matches) {
      this.heldOverflow = document.documentElement.style.overflow;
      document.documentElement.style.overflow = 'hidden';
    }
    this.scroll(true);
    this.input.focus();
    this.events.push({ type: 'widget_open' });
  }

  close(): void {
    if (this.panel.hidden) return;
    this.panel.hidden = true;
    this.root.classList.remove('open');
    this.launcher.setAttribute('aria-expanded', 'false');
    this.releasePage();
    this.launcher.focus();
  }

  setPage(page: PageContext): void {
    this.page = page ?? null;
  }

  /** Preflight again for another theme. The conversation keeps the session it opened with. */
  async setTheme(themeId: string | null): Promise<void> {
    await this.ready;
    await this.preflight(themeId, false);
  }

  private releasePage(): void {
    if (this.heldOverflow === null) return;
    document.documentElement.style.overflow = this.heldOverflow;
    this.heldOverflow = null;
  }

  destroy(): void {
    this.queued = null; // nothing is sent after the widget is gone
    this.releasePage();
    this.abort?.abort();
    this.events.destroy();
    this.host.remove();
  }

  send(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    if (this.panel.hidden) this.open();
    this.input.value = '';
    if (this.abort) {
      // An answer is streaming: this message is the next turn, not lost and not a second stream.
      this.queued = this.queued ? `${this.queued}\n${text}` : text;
      this.queuedNote.textContent = `Sent when this answer ends: “${this.queued.replace(/\n/g, ' / ')}”`;
      this.queuedNote.hidden = false;
      return;
    }
    void this.turn(text);
  }

  // ---- preflight and theme ----

  private async preflight(themeId: string | null, first: boolean): Promise<void> {
    try {
      const answer = await this.api.preflight(themeId);
      if (first || !this.sessionId) {
        this.sessionId = answer.session.sessionId;
        this.demo = answer.demo;
        this.events.setToken(answer.session.token);
      }
      applyTheme(this.host, answer.theme);
      const label = answer.theme?.options?.button?.label;
      this.launcher.textContent = typeof label === 'string' && label.trim() ? label : 'Ask our stylist';
    } catch (error) {
      // The stylist still answers without a session; only the events are lost.
      if (first) this.events.setToken(null);
      console.warn('[stylist] preflight failed:', (error as Error).message);
      if (!first) throw error;
    }
  }

  // ---- a turn ----

  private async turn(text: string): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.setStreaming(true);
    this.suggestions = [];
    this.renderChips();
    this.add({ t: 'user', text });
    this.events.push({ type: 'message_sent', data: { length: text.length } });

    const dots = typingDots();
    const body = el('div', { class: 'turn msg', 'data-part': 'message', 'aria-busy': 'true' });
    this.log.append(body, dots);
    this.scroll();
    const live: LiveTurn = { body, dots, text: null };
    let finished = false;
    let state = 'done';
    try {
      await this.ready; // the session id, when preflight is still on its way
      const cart = await this.readCart();
      const request = {
        messages: [...this.history, { role: 'user', content: text }],
        ...(this.options.datasetIds?.length ? { datasetIds: this.options.datasetIds } : {}),
        ...(cart ? { cart } : {}),
        ...(this.page ? { page: this.page } : {}),
        ...(this.sessionId ? { sessionId: this.sessionId } : {}),
        ...(this.options.country ? { country: this.options.country } : {}),
        session: {
          surface: 'widget',
          storageMode: this.options.storage ?? 'session',
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
          locale: navigator.language,
          device: innerWidth < 640 ? 'mobile' : 'desktop',
        },
      };
      for await (const event of this.api.chat(request, abort.signal)) {
        if (event.event === 'done') {
          this.history = event.data.history;
          finished = true;
          break; // the turn is over, whatever the connection does next
        } else if (event.event === 'error') {
          this.add({ t: 'error', text: event.data.error }, live);
          finished = true;
          state = 'error';
          break;
        } else await this.apply(event, live, cart, event.arrival);
      }
      if (!finished) {
        this.add({ t: 'error', text: DROPPED }, live);
        state = 'error';
      }
    } catch (error) {
      state = abort.signal.aborted ? 'stopped' : 'error';
      if (abort.signal.aborted) this.add({ t: 'stopped' }, live);
      else this.add({ t: 'error', text: error instanceof ApiError ? error.message : DROPPED }, live);
    } finally {
      dots.remove();
      body.removeAttribute('aria-busy');
      // For tests and styling: done, stopped (the partial turn stays) or error.
      body.setAttribute('data-state', state);
      this.abort = null;
      this.setStreaming(false);
      this.save();
    }
    const next = this.queued;
    if (next) {
      this.queued = null;
      this.queuedNote.hidden = true;
      void this.turn(next);
    }
  }

  private async readCart(): Promise<CartSnapshot | null> {
    if (!this.options.cart) return null;
    try {
      return await this.options.cart.get();
    } catch {
      return null; // a cart that cannot be read: the turn goes on without the cart tools
    }
  }

  /** One streamed event drawn into the live turn. */
  private async apply(event: AgentEvent, live: LiveTurn, cart: CartSnapshot | null, arrival: number): Promise<void> {
    switch (event.event) {
      case 'text_delta': {
        if (!event.data.delta) return;
        if (live.text) {
          live.text.node.appendData(event.data.delta);
          live.text.entry.text += event.data.delta;
        } else {
          const entry: Entry & { t: 'text' } = { t: 'text', text: event.data.delta };
          this.transcript.push(entry);
          const node = document.createTextNode(entry.text);
          live.body.append(el('p', { class: 'text' }, node));
          live.text = { entry, node };
        }
        this.scroll();
        // Arrival to paint: the next animation frame after the DOM update is when it is on screen.
        requestAnimationFrame(() => {
          try {
            performance.measure('stylist:text-paint', { start: arrival, end: performance.now() });
          } catch {
            // an old browser without measure options
          }
        });
        return;
      }
      case 'search_results':
        for (const product of event.data.results) this.shown.set(product.itemId, product);
        this.add({ t: 'products', kind: event.data.kind, label: event.data.label, cards: event.data.results.map(cardData) }, live);
        return;
      case 'looks':
        for (const look of event.data.looks) this.add(lookEntry(look, this.shown), live);
        return;
      case 'question':
        this.add({ t: 'question', question: event.data.question, options: event.data.options.map((o) => o.label), chosen: null }, live);
        return;
      case 'suggestions':
        this.suggestions = event.data.suggestions.slice(0, 8);
        this.renderChips();
        return;
      case 'cart_action': {
        const action = event.data;
        const receipt = await applyCartAction(this.options.cart, action, cart);
        if (!receipt) return;
        this.add({ t: 'receipt', text: receipt.text, ok: receipt.ok, image: receipt.image }, live);
        const product = action.product;
        if (receipt.ok && product && (action.action === 'add' || action.action === 'swap')) {
          const quantity = action.quantity ?? 1;
          this.events.push({
            type: 'add_to_cart',
            itemId: product.itemId,
            datasetId: product.datasetId,
            ...(action.intent ? { intent: action.intent } : {}),
            ...(action.price !== null && action.currency ? { value: Math.round(action.price * quantity * 100) / 100, currency: action.currency } : {}),
          });
        }
        if (this.options.cart) {
          this.events.push({
            type: 'cart_outcome',
            ...(product ? { itemId: product.itemId, datasetId: product.datasetId } : {}),
            ...(action.intent ? { intent: action.intent } : {}),
            data: { action: action.action, ok: receipt.ok },
          });
        }
        return;
      }
      default:
        return; // tool and thinking events: nothing to show
    }
  }

  // ---- drawing entries (live and restored) ----

  /** Record an entry in the transcript and draw it: into the live turn, else straight into the log. */
  private add(entry: Entry, live?: LiveTurn): void {
    this.transcript.push(entry);
    if (live) live.text = null;
    this.render(entry, live?.body ?? this.log, true);
    this.scroll();
  }

  private render(entry: Entry, into: HTMLElement, live: boolean): void {
    switch (entry.t) {
      case 'user':
        into.append(el('div', { class: 'user msg', 'data-part': 'message', 'data-role': 'user' }, entry.text));
        return;
      case 'text':
        // A restored turn's text; live text is drawn by the deltas.
        into.append(el('p', { class: 'text' }, entry.text));
        return;
      case 'products': {
        const row = el('div', { class: 'row', role: 'list' });
        for (const card of entry.cards) row.append(this.card(card, live));
        into.append(el('section', { class: entry.kind === 'outfit' ? 'outfit' : 'list', 'aria-label': entry.label, 'data-kind': entry.kind }, el('p', { class: 'label' }, entry.label), row));
        return;
      }
      case 'look':
        into.append(this.look(entry, live));
        return;
      case 'question':
        into.append(this.question(entry));
        return;
      case 'receipt':
        into.append(
          el(
            'div',
            { class: entry.ok ? 'receipt' : 'receipt no', 'data-part': 'receipt', 'data-ok': String(entry.ok), role: 'status' },
            entry.image ? el('img', { src: entry.image, alt: '' }) : null,
            el('span', {}, entry.text),
          ),
        );
        return;
      case 'error':
        into.append(el('div', { class: 'error', 'data-part': 'error', role: 'alert' }, entry.text));
        return;
      case 'stopped':
        into.append(el('p', { class: 'muted stopped', 'data-part': 'stopped' }, 'Stopped.'));
        return;
    }
  }

  private card(card: CardData, live: boolean): HTMLElement {
    if (live) this.events.push({ type: 'product_view', itemId: card.itemId, datasetId: card.datasetId });
    const button = productCard(card, () => {
      this.events.push({ type: 'product_click', itemId: card.itemId, datasetId: card.datasetId });
      const product = this.shown.get(card.itemId) ?? restoredProduct(card);
      if (this.options.onProductClick) this.options.onProductClick(product);
      else if (card.url) window.open(card.url, '_blank', 'noopener');
    });
    // The list item wraps the button: a role on the button itself would hide that it is one.
    return el('div', { class: 'item', role: 'listitem' }, button);
  }

  /** A look: its picture (drawn by POST /v2/agent/looks; a placeholder meanwhile) over its pieces. */
  private look(entry: Entry & { t: 'look' }, live: boolean): HTMLElement {
    const row = el('div', { class: 'row', role: 'list' });
    for (const card of entry.cards) row.append(this.card(card, live));
    const slot = el('div');
    const section = el(
      'section',
      { class: 'look', 'data-part': 'look', 'aria-label': entry.label },
      el('p', { class: 'label' }, entry.label),
      slot,
      row,
      entry.basics.length ? el('p', { class: 'muted' }, `Styled with ${entry.basics.join(', ')} (not sold here)`) : null,
    );
    const draw = () => {
      const placeholder = el('div', { class: 'pic ph', role: 'img', 'aria-label': `Drawing the look “${entry.label}”…`, 'data-state': 'loading' }, 'Drawing the look…');
      slot.replaceChildren(placeholder);
      this.api
        .look({
          itemIds: entry.cards.map((card) => card.itemId).slice(0, 8),
          ...(entry.label ? { label: entry.label.slice(0, 80) } : {}),
          ...(entry.customInstructions ? { customInstructions: entry.customInstructions.slice(0, 1000) } : {}),
          ...(this.options.country ? { country: this.options.country } : {}),
        })
        .then(
          (picture) => slot.replaceChildren(el('img', { class: 'pic', src: picture.imageData, alt: entry.label, width: String(picture.width), height: String(picture.height), 'data-state': 'drawn' })),
          (error: unknown) => {
            // The demo key may not draw looks (403): say it plainly rather than the API's sentence.
            const reason = !(error instanceof ApiError) ? '.' : this.demo && error.status === 403 ? ' in the demo.' : `: ${error.message}`;
            slot.replaceChildren(el('p', { class: 'muted', 'data-state': 'failed' }, `The picture of this look could not be drawn${reason}`));
          },
        );
    };
    // A restored look is drawn again only when asked: each picture costs a request.
    if (live) draw();
    else {
      const button = el('button', { type: 'button', class: 'opt' }, 'Show the picture');
      button.addEventListener('click', draw);
      slot.append(button);
    }
    return section;
  }

  private question(entry: Entry & { t: 'question' }): HTMLElement {
    const options = el('div', { class: 'opts', role: 'group', 'aria-label': entry.question });
    const buttons = entry.options.map((label) => {
      const button = el('button', { type: 'button', class: 'opt', 'data-part': 'option', 'aria-pressed': String(entry.chosen === label), disabled: entry.chosen !== null }, label);
      button.addEventListener('click', () => {
        if (this.abort) return; // a turn is still streaming
        entry.chosen = label;
        for (const other of buttons) {
          other.disabled = true;
          other.setAttribute('aria-pressed', String(other === button));
        }
        this.send(label);
      });
      return button;
    });
    options.append(...buttons);
    return el('div', { class: 'question', 'data-part': 'question' }, el('p', {}, entry.question), options);
  }

  /** Only the latest set of chips is offered; sending anything clears them. */
  private renderChips(): void {
    this.chips.replaceChildren(
      ...this.suggestions.map((text) => {
        const chip = el('button', { type: 'button', class: 'chip', 'data-part': 'chip' }, text);
        chip.addEventListener('click', () => this.send(text));
        return chip;
      }),
    );
    this.chips.hidden = this.suggestions.length === 0;
  }

  private setStreaming(streaming: boolean): void {
    // Keep the keyboard where it was when the button under it disappears.
    const focused = this.host.shadowRoot?.activeElement;
    this.sendButton.hidden = streaming;
    this.stopButton.hidden = !streaming;
    if (focused === this.sendButton || focused === this.stopButton) (streaming ? this.stopButton : this.input).focus();
  }

  private scroll(force = false): void {
    if (force || this.stickToBottom) this.log.scrollTop = this.log.scrollHeight;
  }

  private save(): void {
    if (this.transcript.length > 80) this.transcript = this.transcript.slice(-80);
    this.store.save({ history: this.history, transcript: this.transcript, suggestions: this.suggestions });
  }
}

function lookEntry(look: Look, shown: Map<string, ShownProduct>): Entry {
  for (const product of look.items) shown.set(product.itemId, product);
  return {
    t: 'look',
    label: look.label,
    cards: look.items.map(cardData),
    customInstructions: look.customInstructions ?? '',
    basics: (look.basics ?? []).map((basic) => basic.text),
  };
}

/** What onProductClick gets for a card drawn from the saved transcript (only the card's fields are known). */
function restoredProduct(card: CardData): ShownProduct {
  return {
    itemId: card.itemId,
    datasetId: card.datasetId,
    store: card.store ? { name: card.store, domain: null } : null,
    metadata: {},
    product: {
      name: card.name,
      price: card.price,
      currency: card.currency,
      onSale: card.onSale,
      discount: card.discount,
      compareAtPrice: card.compareAtPrice,
      available: true,
      url: card.url,
      variants: [],
      assets: { images: card.image ? [{ uploaded: { url: card.image } }] : [] },
    },
  };
}
