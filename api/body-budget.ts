// How many bytes of big request bodies one process reads and works on at once. A parsed JSON body
// weighs several times its text, and what a route then makes of it (listings, events, their JSON)
// several times more, so four maximum uploads at once cost the process more than one merchant may.
// A request takes its share of the budget before its body is read and gives it back when its
// answer has gone out; the others wait, unread, on their sockets. Waiting organizations are served
// in turn, one request each, so one that keeps sending cannot hold the budget forever: whoever
// arrives while it holds the budget is served before its next request.

interface Waiter {
  readonly bytes: number;
  readonly grant: (release: () => void) => void;
}

export class BodyBudget {
  #inUse = 0;
  /** Waiting requests per organization, oldest first; the map's order is whose turn comes next. */
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(readonly capacity: number) {}

  /** Bytes held by requests being read or worked on. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.#waiting.values()) count += queue.length;
    return count;
  }

  /**
   * Resolves with the function that gives the share back (once, however often it is called). A
   * request bigger than the whole budget runs alone. `abandoned` takes a waiting request out of line
   * (it resolves at once, holding nothing).
   */
  acquire(owner: string, bytes: number, abandoned?: AbortSignal): Promise<() => void> {
    const share = Math.min(Math.max(0, bytes), this.capacity);
    return new Promise((resolve) => {
      const waiter: Waiter = { bytes: share, grant: resolve };
      const queue = this.#waiting.get(owner);
      if (queue) queue.push(waiter);
      else this.#waiting.set(owner, [waiter]);
      abandoned?.addEventListener('abort', () => this.#leave(owner, waiter), { once: true });
      this.#serve();
    });
  }

  #leave(owner: string, waiter: Waiter): void {
    const queue = this.#waiting.get(owner);
    const index = queue?.indexOf(waiter) ?? -1;
    if (index < 0) return;
    queue!.splice(index, 1);
    if (queue!.length === 0) this.#waiting.delete(owner);
    // It holds nothing: the caller goes on to find its request gone.
    waiter.grant(() => {});
    this.#serve();
  }

  /** Strictly in turn: the next organization's oldest request, once it fits; a big one is never overtaken. */
  #serve(): void {
    for (;;) {
      const next = this.#waiting.entries().next();
      if (next.done) return;
      const [owner, queue] = next.value;
      const waiter = queue[0]!;
      if (this.#inUse > 0 && this.#inUse + waiter.bytes > this.capacity) return;
      queue.shift();
      // Served: to the back of the line (or out of it).
      this.#waiting.delete(owner);
      if (queue.length) this.#waiting.set(owner, queue);
      this.#inUse += waiter.bytes;
      let held = true;
      waiter.grant(() => {
        if (!held) return;
        held = false;
        this.#inUse -= waiter.bytes;
        this.#serve();
      });
    }
  }
}
