// Which adds to cart and purchases were assisted (domain/analytics/days.ts, "assisted"): of an item
// the service itself put on the session's screen before, recently enough. The live projector and
// the replay of history both decide it with `ShownItems`, event by event in `$all` order, so the
// rule below is a function of the events alone: never of when a batch or a page ends, of the wall
// clock or of chance, which is what lets a replay equal the live count.
//
// The rule, per organization:
//   showing     an agent turn's `shown` or a search's results name items shown to a session at the
//               event's time (`at`); a later showing of the same item moves it to the later time;
//   clock       the time of the organization's newest showing so far (it never goes back);
//   remembered  a showing at S counts for an event received at T while S + SHOWN_KEPT_MS is not
//               before T nor before the clock. Once the clock has passed S + SHOWN_KEPT_MS the
//               showing can never count again, so either path may drop it from memory whenever it
//               likes without changing a figure.
import type { RecordedShopperEvent } from '../session/events.js';

/**
 * How long a showing counts: three days. A session lasts a day (its token's life), so this keeps
 * everything a session can still act on and lets the organization's older showings go.
 */
export const SHOWN_KEPT_MS = 3 * 24 * 60 * 60 * 1000;

const instant = (at: string): number => {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${at}`);
  return ms;
};

/** What the service showed one organization's sessions, remembered by the rule above. */
export class ShownItems {
  /** sessionId → itemId → the latest time it was shown (ms). */
  private readonly sessions = new Map<string, Map<string, number>>();
  private newest: number;

  /** `clock`: the organization's newest showing known before (ms), when starting from stored rows. */
  constructor(clock = Number.NEGATIVE_INFINITY) {
    this.newest = clock;
  }

  /** The time of the organization's newest showing so far (ms; -Infinity before the first). */
  get clock(): number {
    return this.newest;
  }

  /** Records that `itemId` was on the session's screen at `at` (ms); true when that changed what is remembered. */
  show(sessionId: string, itemId: string, at: number): boolean {
    if (at > this.newest) this.newest = at;
    let items = this.sessions.get(sessionId);
    if (!items) this.sessions.set(sessionId, (items = new Map()));
    const before = items.get(itemId);
    if (before !== undefined && before >= at) return false;
    items.set(itemId, at);
    return true;
  }

  /** Whether a showing of `itemId` to the session still counts for an event received at `at` (ms). */
  has(sessionId: string, itemId: string, at: number): boolean {
    const shownAt = this.sessions.get(sessionId)?.get(itemId);
    return shownAt !== undefined && shownAt + SHOWN_KEPT_MS >= Math.max(at, this.newest);
  }

  /** Drops the showings the clock has left behind (they can never count again): bounds the memory. */
  forgetPast(): void {
    const horizon = this.newest - SHOWN_KEPT_MS;
    for (const [sessionId, items] of this.sessions) {
      for (const [itemId, at] of items) if (at < horizon) items.delete(itemId);
      if (!items.size) this.sessions.delete(sessionId);
    }
  }

  /** How many showings are remembered (tests: that forgetting bounds the memory). */
  get size(): number {
    let size = 0;
    for (const items of this.sessions.values()) size += items.size;
    return size;
  }
}

/** What the service put on a session's screen at `at` (an agent turn's `shown`, a search's results). */
export function noteShown(sessionId: string, items: ReadonlyArray<{ itemId: string }>, at: string, shown: ShownItems): Array<{ itemId: string; at: number }> {
  const ms = instant(at);
  return items.filter((item) => shown.show(sessionId, item.itemId, ms)).map((item) => ({ itemId: item.itemId, at: ms }));
}

/** Whether each event of a request received at `receivedAt` is assisted: a counted add to cart or purchase of an item still shown to the session. */
export function attribute(sessionId: string, events: readonly RecordedShopperEvent[], receivedAt: string, shown: ShownItems): boolean[] {
  const at = instant(receivedAt);
  return events.map((event) => event.unverified === null && event.itemId !== null && (event.type === 'add_to_cart' || event.type === 'purchase') && shown.has(sessionId, event.itemId, at));
}
