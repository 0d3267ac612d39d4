// Shopper events (POST /v1/events): queued, sent in batches within about two seconds, and flushed
// with `keepalive` when the page goes away. Nothing here may disturb the shopper: every failure is
// swallowed, and events wait (bounded) until preflight has given the session token.

export type ShopperEventType = 'widget_open' | 'message_sent' | 'product_view' | 'product_click' | 'add_to_cart' | 'cart_outcome' | 'purchase';

export interface ShopperEvent {
  type: ShopperEventType;
  itemId?: string;
  datasetId?: string;
  intent?: string;
  value?: number;
  currency?: string;
  data?: Record<string, unknown>;
}

const FLUSH_MS = 2000;
const BATCH = 100;
const MAX_QUEUED = 500;

const eventId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export class EventQueue {
  private queue: Array<ShopperEvent & { eventId: string; at: string }> = [];
  private token: string | null = null;
  /** false once preflight failed: nothing can be recorded, so nothing is kept. */
  private usable = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onPageHide = () => this.flush(true);

  constructor(private readonly baseUrl: string) {
    addEventListener('pagehide', this.onPageHide);
  }

  setToken(token: string | null): void {
    this.token = token;
    this.usable = token !== null;
    if (!this.usable) this.queue = [];
    else if (this.queue.length) this.schedule();
  }

  push(event: ShopperEvent): void {
    if (!this.usable) return;
    // eventId makes a retried or keepalive-duplicated batch harmless (the service drops repeats).
    this.queue.push({ ...event, eventId: eventId(), at: new Date().toISOString() });
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer === undefined && this.token) this.timer = setTimeout(() => this.flush(false), FLUSH_MS);
  }

  flush(keepalive: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.token) return;
    while (this.queue.length) {
      const events = this.queue.splice(0, BATCH);
      try {
        fetch(`${this.baseUrl}/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-session': this.token },
          body: JSON.stringify({ events }),
          keepalive,
        }).catch(() => undefined);
      } catch {
        // a keepalive body over the browser's budget throws synchronously: dropped
      }
    }
  }

  destroy(): void {
    this.flush(true);
    removeEventListener('pagehide', this.onPageHide);
  }
}
